package diff

import (
	"regexp"
	"strings"
)

// Reviews that check a document's code citations tabulate them: the
// citation in the first cell ("`executor.py:764-768` (signature)"), what
// the document claims, what the code actually holds, a verdict. Where a
// reviewer finds the citation off, the row says where the cited thing
// really is — "should be 765-769", "Actual: lines 765-768.", "Signature
// spans lines 765-769", "The function body is lines 140-170." — and two
// reviewers of one citation who place it differently cannot both be
// right. These corrections are read as fields of the row: the cited
// thing's own lines as "Corrected range", a part of it named in the row
// ("function body") under that name. Only a range (two line numbers) that
// differs from the citation's own is a correction; a row giving two
// different ranges for one name says nothing certain and gives none.

// fldCorrectedRange is the name of the field a cited location's correction
// is read into.
const fldCorrectedRange = "Corrected range"

var (
	// fldCitedRange finds the citation of a row's first cell: a file and a
	// line or range of lines.
	fldCitedRange = regexp.MustCompile(`([A-Za-z0-9_][A-Za-z0-9_./-]*\.[A-Za-z]{1,5}):(\d+(?:\s*[-–]\s*\d+)?)`)
	// "should be 765-769", "Actual: lines 765-768", "765-769, not 764-768".
	fldShouldBe    = regexp.MustCompile(`(?i)\bshould be (?:lines? )?(\d+)\s*[-–]\s*(\d+)\b`)
	fldActualLines = regexp.MustCompile(`(?i)(?:^|[.;]\s+|\|\s*)actual:\s*lines?\s+(\d+)\s*[-–]\s*(\d+)\b`)
	fldRangeNot    = regexp.MustCompile(`(?i)\b(\d+)\s*[-–]\s*(\d+),?\s+not\s+(\d+)\s*[-–]\s*(\d+)\b`)
	// "Signature spans lines 765-769", "The function body is lines
	// 140-170", "Actual function body: lines 128-170": a named part.
	fldNamedLines = regexp.MustCompile(`(?i)(?:^|[.;]\s+)(?:the\s+|actual\s+)*([a-z][a-z_ ]{2,40}?)(?:\s+spans|\s+is|\s+are|:)\s+lines?\s+(\d+)\s*[-–]\s*(\d+)\b`)
)

// fldRowCorrections reads the corrections a table row keyed by a citation
// makes, as fields named like the row's other fields (item, line, quote
// and section are the caller's).
func fldRowCorrections(cells []string) []Field {
	if len(cells) < 2 {
		return nil
	}
	m := fldCitedRange.FindStringSubmatch(cells[0])
	if m == nil {
		return nil
	}
	cited := fldNormRange(m[2])
	item := fldWords(fldCitedRange.ReplaceAllString(cells[0], " "))
	found := map[string][]string{} // field name → ranges
	var names []string
	add := func(name, lo, hi string) {
		r := lo + "-" + hi
		if r == cited {
			return // the citation confirmed, not corrected
		}
		if _, ok := found[name]; !ok {
			names = append(names, name)
		}
		for _, x := range found[name] {
			if x == r {
				return
			}
		}
		found[name] = append(found[name], r)
	}
	for _, cell := range cells[1:] {
		cell = fldPlain(cell)
		for _, x := range fldShouldBe.FindAllStringSubmatch(cell, -1) {
			add(fldCorrectedRange, x[1], x[2])
		}
		for _, x := range fldActualLines.FindAllStringSubmatch(cell, -1) {
			add(fldCorrectedRange, x[1], x[2])
		}
		for _, x := range fldRangeNot.FindAllStringSubmatch(cell, -1) {
			if x[3]+"-"+x[4] == cited {
				add(fldCorrectedRange, x[1], x[2])
			}
		}
		for _, x := range fldNamedLines.FindAllStringSubmatch(cell, -1) {
			name := strings.ToLower(strings.Join(strings.Fields(x[1]), " "))
			if name == "actual" {
				continue // "Actual: lines …" is read above
			}
			ws := fldWords(name)
			if len(ws) == 0 {
				continue
			}
			if ws.Intersect(item) == len(ws) {
				name = fldCorrectedRange // the row's own subject: "Signature" in a row about the signature
			}
			add(name, x[2], x[3])
		}
	}
	var out []Field
	for _, name := range names {
		if rs := found[name]; len(rs) == 1 {
			out = append(out, Field{Name: fldTitleCase(name), Value: rs[0], Form: FormTable, Bounded: true, lines: true})
		}
	}
	return out
}

// fldNormRange writes "764 - 768" as "764-768".
func fldNormRange(s string) string {
	s = strings.ReplaceAll(s, "–", "-")
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "-", " - ")), "")
}

// fldTitleCase capitalises a field name's first letter.
func fldTitleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
