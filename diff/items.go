package diff

import (
	"slices"
	"strconv"
	"strings"
)

// What a statement is about: the item ids and code identifiers it names,
// and the place in the alignment its section belongs to. The detectors use
// these to compare only statements about one thing.

// A statement can open with an id that labels it rather than naming its
// subject: "NOTIF-04:" in "NOTIF-04: The system must …" (statementLabelEnd
// in scan.go finds where it ends).

// subjectIDs returns the item ids named before a value in its statement,
// leaving out an id that labels the whole statement: those are what the
// value is about ("Task T03.04 costs 8 turns").
func subjectIDs(quote, value string) []string {
	return idsBefore(withoutLabel(quote), value)
}

// withoutLabel returns quote without the id that labels the statement,
// if one does. The label ends in ':', so a quote without one has none.
func withoutLabel(quote string) string {
	if strings.IndexByte(quote, ':') < 0 {
		return quote
	}
	if end, ok := statementLabelEnd(quote); ok {
		quote = quote[end:]
	}
	return quote
}

// idsBefore returns the item ids a label-less quote names before value:
// subjectIDs for a quote withoutLabel has already stripped (detectNumeric
// strips each claim's quote once, however many values it states).
func idsBefore(quote, value string) []string {
	if i := strings.Index(quote, value); i > 0 {
		quote = quote[:i]
	}
	return itemIDs(quote)
}

// differentItems reports whether two statements name items and share
// none: "Task T03.04 costs 8 turns" and "Task T03.06 costs 6 turns" speak
// of two tasks.
func differentItems(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); ok {
			return false
		}
	}
	return true
}

// itemIDs returns the item identifiers a sentence names: tokens that mix
// letters and digits with a separator or a leading capital ("T03.04",
// "NR-6", "R-005", "OV-1", "S3") and dotted section numbers ("2.1").
func itemIDs(text string) []string {
	var ids []string
	for _, f := range codeSpans(text) {
		if isCodeIdentifier(f) {
			ids = append(ids, f)
		}
	}
	// The fields strings.FieldsFunc would split at these ASCII separators,
	// walked without building the list: a byte of a multi-byte rune is
	// never one of them.
	for i := 0; i < len(text); {
		for i < len(text) && isIDSeparator(text[i]) {
			i++
		}
		j := i
		for j < len(text) && !isIDSeparator(text[j]) {
			j++
		}
		if j > i {
			if f := strings.TrimRight(text[i:j], "."); isItemID(f) {
				ids = append(ids, strings.ToUpper(f))
			}
		}
		i = j
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// isIDSeparator reports whether c separates the words itemIDs reads.
func isIDSeparator(c byte) bool {
	switch c {
	case ' ', ',', ';', '(', ')', '`', '*', '|', ':', '"', '\'':
		return true
	}
	return false
}

// codeSpans returns the text between pairs of backticks.
func codeSpans(text string) []string {
	var out []string
	for {
		i := strings.IndexByte(text, '`')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(text[i+1:], '`')
		if j < 0 {
			return out
		}
		out = append(out, text[i+1:i+1+j])
		text = text[i+j+2:]
	}
}

// isCodeIdentifier reports whether a code span names a program element:
// "PhaseStatus", "TaskStatus", "max_turns", "stall_status" — one word with
// a capital inside it or an underscore; a file path or an expression is not
// one.
func isCodeIdentifier(f string) bool {
	if len(f) < 3 || len(f) > 64 {
		return false
	}
	inner := false
	for i := 0; i < len(f); i++ {
		c := f[i]
		if !isWordByte(c) {
			return false
		}
		if c == '_' || i > 0 && c >= 'A' && c <= 'Z' {
			inner = true
		}
	}
	return inner
}

func isItemID(f string) bool {
	if len(f) < 2 || len(f) > 16 {
		return false
	}
	digits, letters, seps := 0, 0, 0
	for i := 0; i < len(f); i++ {
		switch c := f[i]; {
		case isDigit(c):
			digits++
		case isLetterByte(c):
			letters++
		case c == '-' || c == '.' || c == '_':
			seps++
		default:
			return false
		}
	}
	if digits == 0 {
		return false
	}
	switch {
	case letters == 0: // "2.1", but not "30" or "5-7"
		return seps > 0 && strings.Count(f, ".") == seps && !strings.HasSuffix(f, ".")
	case f[0] >= 'A' && f[0] <= 'Z' && isDigit(f[len(f)-1]): // "T03.04", "NR-6", "S3", "P1"
		return letters <= 4
	}
	return false
}

// topicIndex places a section in the alignment: the topic of the section
// or of its nearest aligned ancestor, below the document title.
type topicIndex struct {
	docs    []*Document
	byPlace []map[int]int // variant → section → topic
	names   []string      // each topic's key, "t" and its number: made once, not per statement
}

func newTopicIndex(in DetectInput) topicIndex {
	ti := topicIndex{docs: in.Documents}
	if len(in.Topics) == 0 {
		return ti
	}
	for _, d := range in.Documents {
		if len(d.Sections) == 0 {
			return ti // a variant without headings has no places to align: compare by subject alone
		}
	}
	ti.names = make([]string, len(in.Topics))
	for t := range ti.names {
		ti.names[t] = "t" + strconv.Itoa(t)
	}
	ti.byPlace = make([]map[int]int, len(in.Documents))
	for v := range ti.byPlace {
		ti.byPlace[v] = map[int]int{}
	}
	for t, tp := range in.Topics {
		for v, si := range tp.Sections {
			if si >= 0 && v < len(ti.byPlace) {
				ti.byPlace[v][si] = t
			}
		}
	}
	return ti
}

// of returns the key of the place that holds a section: its own topic,
// else the topic of its nearest aligned ancestor below the title, else the
// section itself, so that its values compare within the variant alone.
func (ti topicIndex) of(v, si int) string {
	if ti.byPlace == nil {
		return ""
	}
	d := ti.docs[v]
	if t, ok := ti.byPlace[v][si]; ok && si >= 0 {
		return ti.names[t] // the section itself, the preamble under the title included
	}
	for s := si; s >= 0 && s < len(d.Sections) && d.Sections[s].Depth > 0; s = d.Sections[s].Parent {
		if t, ok := ti.byPlace[v][s]; ok {
			return ti.names[t]
		}
	}
	return "v" + strconv.Itoa(v) + "s" + strconv.Itoa(si)
}
