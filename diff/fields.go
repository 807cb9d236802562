package diff

// FieldValue is what one variant gives for a labelled field of an item.
type FieldValue struct {
	Variant int    `json:"variant"` // index in input order
	Section int    `json:"section"` // index in the variant's Sections, -1 when none
	Line    int    `json:"line"`
	Value   string `json:"value"` // the value as written, markup removed
	Quote   string `json:"quote"` // exact source text the value was read from
}

// FieldDisagreement is a labelled field of one item ("Delta 2.1" /
// "Verdict") whose values differ between variants. Items on which every
// variant that rates them agrees are never disagreements.
type FieldDisagreement struct {
	Item   string       `json:"item"`
	Field  string       `json:"field"`
	Values []FieldValue `json:"values"` // one per variant that gives the field, in variant order
}
