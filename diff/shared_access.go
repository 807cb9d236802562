package diff

// Read-only access to what a parsed document extracts once and shares.
// ExtractClaims and ExtractFields hand each caller a copy labelled with
// its variant; a step that only reads the claims or fields of a section
// (the debate reads them once per variant) takes the memoised slices
// themselves instead of copying thousands of structs.

// SharedClaims returns the claims of doc as ExtractClaims(doc, 0) does,
// without the copy: the document's memoised slice, labelled variant 0.
// Callers must not change it or anything it holds.
func SharedClaims(doc *Document) []Claim {
	return sharedClaims(doc)
}

// SharedFields returns the labelled fields of doc as ExtractFields(doc,
// 0) does, without the copy: the document's memoised slice, labelled
// variant 0. Callers must not change it or anything it holds.
func SharedFields(doc *Document) []Field {
	return doc.Memo(fieldsKey{}, func() any { return extractFields(doc, nil) }).([]Field)
}
