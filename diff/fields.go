package diff

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/crucible-go/crucible/internal/words"
)

// Labelled fields. Reviews, roadmaps and plans give their items labelled
// attributes — "**Verdict**: OVERSTATED", "- **Severity:** Low-Medium",
// a risk table's Probability column, "estimated_tokens: 300" in a plan's
// YAML block — and variants of one artifact often disagree on exactly
// these. The comparison extracts the fields of every variant, matches
// items across variants (by id, by title, within aligned sections), and
// reports the fields whose values differ. Values are compared once
// normalised: the leading label of a verdict ("OVERSTATED. The code
// exists…" is OVERSTATED), reviewers' synonyms (ACCURATE, CONFIRMED,
// VERIFIED and CORRECT agree), ordinal levels, numbers with their units.
// Prose is never compared: only values short or delimited enough to be a
// value rather than an argument.

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

// FieldForm says how a field is written.
type FieldForm string

// Forms of [Field].
const (
	// FormLabel is a labelled line: "**Key**: value", "**Key:** value",
	// "**Key: value**", "- Key: value".
	FormLabel FieldForm = "label"
	// FormYAML is a "key: value" line of a YAML code block.
	FormYAML FieldForm = "yaml"
	// FormTable is a table cell: the row's first cell names the item, the
	// column header the field.
	FormTable FieldForm = "table"
)

// Field is one labelled value of an item in a variant.
type Field struct {
	Variant int    `json:"variant"`
	Section int    `json:"section"` // index in the variant's Sections, -1 before the first heading
	Line    int    `json:"line"`
	Item    string `json:"item"`  // the table row's key, else the section's title; empty for the document's header
	Name    string `json:"name"`  // the label or column header, markup removed
	Value   string `json:"value"` // markup removed
	// Quote is the exact source text of the line the field is on, without
	// its indentation.
	Quote string    `json:"quote"`
	Form  FieldForm `json:"form"`
	// Bounded is set when the value's extent is marked in the source — a
	// bold "**Key: value**", a bold value, a table cell, a YAML scalar —
	// rather than running on into prose.
	Bounded bool `json:"bounded,omitempty"`

	raw string // a labelled line's value with its markup
}

type fieldsKey struct{}

// ExtractFields returns the labelled fields of doc, in document order,
// labelled with variant: "**Key**: value", "**Key:** value",
// "**Key: value**" and "- Key: value" lines (short keys only), "key: value"
// lines of YAML code blocks, and the cells of table columns that hold
// labels (severities, verdicts, statuses) with the row's first cell as
// their item. The item of a labelled line is the title of the section it
// is in, or empty for the document's header. A parsed document extracts
// its fields once and hands out copies.
func ExtractFields(doc *Document, variant int) []Field {
	base := doc.Memo(fieldsKey{}, func() any { return extractFields(doc) }).([]Field)
	out := slices.Clone(base)
	for i := range out {
		out[i].Variant = variant
	}
	return out
}

type fieldRefsKey struct{}

// docFieldRefs returns, once per document, every field with its
// normalised value, class (empty when it has none to compare by), item key
// and context: the per-document part of compareFields and topicFields. Variant is 0 and topic -1; the
// slice is shared, so callers copy each element before changing it.
func docFieldRefs(d *Document) []fldRef {
	return d.Memo(fieldRefsKey{}, func() any {
		var out []fldRef
		for _, f := range d.Memo(fieldsKey{}, func() any { return extractFields(d) }).([]Field) {
			nv := fldNormalise(f)
			r := fldRef{Field: f, norm: nv, class: fldClass(f.Name, nv), key: newFldItemKey(f.Item), topic: -1}
			if f.Section >= 0 && r.class != "" {
				r.where = fldContext(d, f)
			}
			out = append(out, r)
		}
		return out
	}).([]fldRef)
}

// normalisedField is a field with its value reduced for comparison.
type normalisedField struct {
	Field
	norm fldValue
}

type sectionFieldsKey struct{}

// sectionFields returns the document's fields whose values can be
// compared, normalised once and grouped by section, for the steps that
// look at one section at a time. Variant is 0: callers set their own. The
// map and slices are shared: read only.
func sectionFields(doc *Document) map[int][]normalisedField {
	return doc.Memo(sectionFieldsKey{}, func() any {
		bySection := map[int][]normalisedField{}
		for _, r := range docFieldRefs(doc) {
			if r.norm.kind != fvNone {
				bySection[r.Section] = append(bySection[r.Section], normalisedField{r.Field, r.norm})
			}
		}
		return bySection
	}).(map[int][]normalisedField)
}

func extractFields(doc *Document) []Field {
	lines := strings.Split(doc.Source, "\n")
	line := func(n int) string {
		if n < 1 || n > len(lines) {
			return ""
		}
		return lines[n-1]
	}
	header := fldHeaderSections(doc)
	count := map[string]int{}
	for _, sec := range doc.Sections {
		count[strings.ToLower(strings.TrimSpace(sec.Title))]++
	}
	item := func(si int) string {
		if si < 0 || header[si] {
			return ""
		}
		title := strings.TrimSpace(doc.Sections[si].Title)
		// "### Mitigation" under every risk: the parent says which one
		if p := doc.Sections[si].Parent; count[strings.ToLower(title)] > 1 && p >= 0 && !header[p] {
			title = strings.TrimSpace(doc.Sections[p].Title) + " / " + title
		}
		return title
	}
	var out []Field
	for bi := 0; bi < len(doc.Blocks); bi++ {
		b := doc.Blocks[bi]
		switch b.Kind {
		case TableRow:
			end := bi + 1
			for end < len(doc.Blocks) && doc.Blocks[end].Kind == TableRow && !doc.Blocks[end].Header {
				end++
			}
			out = append(out, fldTable(doc.Blocks[bi:end], line)...)
			bi = end - 1
		case Code:
			out = append(out, fldYAML(b, line, item(b.Section))...)
		default:
			for n := b.Line; n <= b.EndLine; n++ {
				for _, f := range fldLabelledLine(line(n)) {
					f.Section, f.Line, f.Item = b.Section, n, item(b.Section)
					if f.Item == "" && fldProvenance(f.Name) {
						continue // who wrote a variant, and when, is not what it says
					}
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// fldHeaderSections marks the sections whose fields describe the whole
// document: the title's (text before the first heading has no section).
func fldHeaderSections(doc *Document) map[int]bool {
	h := map[int]bool{}
	if t := doc.TitleSection(); t >= 0 {
		h[t] = true
	}
	return h
}

// fldProvenance reports whether a header field records where a variant comes
// from (its author, date, model) rather than anything about its subject.
func fldProvenance(name string) bool {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "author", "authors", "analyst", "reviewer", "reviewer persona", "persona", "model", "date", "review date",
		"created", "updated", "last updated", "version", "status", "owner", "generated", "generated by", "prepared by":
		return true
	}
	return false
}

// ---- labelled lines ----

var (
	// "**Key**: value" and "**Key:** value", bold or italic.
	fldLabelKeyREs = []*regexp.Regexp{
		regexp.MustCompile(`^\*\*([^*\n]+?)\*\*\s*[:：]\s*(.*)$`),
		regexp.MustCompile(`^\*\*([^*\n]+?)[:：]\*\*\s*(.*)$`),
		regexp.MustCompile(`^__([^_\n]+?)__\s*[:：]\s*(.*)$`),
		regexp.MustCompile(`^__([^_\n]+?)[:：]__\s*(.*)$`),
		regexp.MustCompile(`^\*([^*\n]+?)\*\s*[:：]\s*(.*)$`),
		regexp.MustCompile(`^\*([^*\n]+?)[:：]\*\s*(.*)$`),
	}
	// "**Key: value**rest": the value is the rest of the bold span.
	fldLabelSpanRE = regexp.MustCompile(`^\*\*([^*:\n]+?):\s+([^*\n]+?)\*\*(.*)$`)
	// "Key: value" without markup.
	fldPlainKeyRE = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9 _./()&'-]*?)\s*:\s+(\S.*)$`)
	fldListMarkRE = regexp.MustCompile(`^(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?`)
)

// fldLabelledLine reads the labelled fields of one source line: usually
// one, several when segments separated by " | " each start with a bold
// label ("**Duration**: 5-7 days | **Milestone**: M3").
func fldLabelledLine(src string) []Field {
	quote := strings.TrimSpace(src)
	s := strings.TrimLeft(quote, "> \t")
	s = fldListMarkRE.ReplaceAllString(s, "")
	if s == "" {
		return nil
	}
	segments := []string{s}
	if parts := strings.Split(s, " | "); len(parts) > 1 {
		all := true
		for _, p := range parts[1:] {
			if !strings.HasPrefix(strings.TrimSpace(p), "**") {
				all = false
			}
		}
		if all {
			segments = parts
		}
	}
	var out []Field
	for _, seg := range segments {
		if f, ok := fldLabelled(strings.TrimSpace(seg)); ok {
			f.Quote, f.Form = quote, FormLabel
			out = append(out, f)
		}
	}
	return out
}

func fldLabelled(s string) (Field, bool) {
	if m := fldLabelSpanRE.FindStringSubmatch(s); m != nil && fldKeyOK(m[1]) {
		return Field{Name: fldPlain(m[1]), Value: strings.TrimSpace(fldPlain(m[2])), Bounded: true}, true
	}
	for _, re := range fldLabelKeyREs {
		m := re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		if strings.ContainsAny(m[1], ":：") || !fldKeyOK(m[1]) {
			return Field{}, false
		}
		val, bounded := fldValueSpan(m[2])
		if val == "" {
			return Field{}, false
		}
		return Field{Name: fldPlain(m[1]), Value: val, Bounded: bounded, raw: m[2]}, true
	}
	if m := fldPlainKeyRE.FindStringSubmatch(s); m != nil && fldKeyOK(m[1]) && unicode.IsUpper(rune(m[1][0])) && !sentenceStart(m[1]) {
		val, bounded := fldValueSpan(m[2])
		if val == "" {
			return Field{}, false
		}
		return Field{Name: fldPlain(m[1]), Value: val, Bounded: bounded, raw: m[2]}, true
	}
	return Field{}, false
}

// fldValueSpan returns a value's text, markup removed, and whether its extent
// is marked: a value that opens with a bold span is that span
// ("**CONSISTENT** -- the argument is sound" is CONSISTENT).
func fldValueSpan(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	for _, mark := range []string{"**", "__"} {
		if strings.HasPrefix(raw, mark) {
			if end := strings.Index(raw[len(mark):], mark); end > 0 {
				inner := strings.TrimSpace(fldPlain(raw[len(mark) : len(mark)+end]))
				if inner != "" {
					return inner, true
				}
			}
		}
	}
	return strings.TrimSpace(fldPlain(raw)), false
}

// fldKeyOK reports whether text can be a field's name: one to four words,
// starting with a letter, not a URL, not a shouted label ("**NOTE**:",
// "**BLOCKING**:" introduce text; they do not name a value).
func fldKeyOK(key string) bool {
	k := strings.TrimSpace(fldPlain(key))
	if k == "" || len(k) > 48 || strings.Contains(k, "://") || strings.Contains(k, "http") {
		return false
	}
	r := []rune(k)
	if !unicode.IsLetter(r[0]) && r[0] != '_' {
		return false
	}
	if n := len(strings.Fields(k)); n > 4 {
		return false
	}
	letters, upper := 0, 0
	for _, c := range k {
		if unicode.IsLetter(c) {
			letters++
			if unicode.IsUpper(c) {
				upper++
			}
		}
	}
	return !(letters >= 4 && upper == letters)
}

var fldMarkup = strings.NewReplacer("**", "", "__", "", "`", "", "~~", "")

// fldPlain removes inline markup: emphasis, code ticks, link brackets.
func fldPlain(s string) string {
	s = fldMarkup.Replace(s)
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "*", "")), " ")
}

// ---- YAML lines ----

var fldYAMLLineRE = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_.-]*)\s*:\s+(\S.*?)\s*$`)

// fldYAML reads the top-level "key: value" lines of a YAML code block:
// a plan's task attributes. Other code holds no fields.
func fldYAML(b Block, line func(int) string, item string) []Field {
	first := strings.TrimSpace(line(b.Line))
	fenced := strings.HasPrefix(first, "```") || strings.HasPrefix(first, "~~~")
	info := strings.ToLower(strings.TrimSpace(strings.TrimLeft(first, "`~")))
	if !fenced || (info != "yaml" && info != "yml") {
		return nil
	}
	var out []Field
	for n := b.Line + 1; n <= b.EndLine; n++ {
		src := line(n)
		if src == "" || src[0] == ' ' || src[0] == '\t' || src[0] == '#' {
			continue
		}
		m := fldYAMLLineRE.FindStringSubmatch(src)
		if m == nil || strings.HasPrefix(m[2], "#") || m[2] == "|" || m[2] == ">" {
			continue
		}
		val := strings.Trim(m[2], `"'`)
		out = append(out, Field{Section: b.Section, Line: n, Item: item, Name: m[1], Value: val,
			Quote: strings.TrimSpace(src), Form: FormYAML, Bounded: true})
	}
	return out
}

// ---- tables ----

// fldTable reads one table: the columns whose cells are mostly labels
// (severities, verdicts, statuses) are fields of the row's item.
func fldTable(rows []Block, line func(int) string) []Field {
	if len(rows) < 2 || !rows[0].Header || len(rows[0].Cells) < 2 {
		return nil
	}
	head := rows[0].Cells
	var fieldCols []int
	for c := 1; c < len(head); c++ {
		if strings.TrimSpace(head[c]) == "" {
			continue
		}
		labels, filled := 0, 0
		for _, r := range rows[1:] {
			if c >= len(r.Cells) || strings.TrimSpace(r.Cells[c]) == "" {
				continue
			}
			filled++
			if v := normaliseFieldValue(r.Cells[c], true, FormTable); v.kind == fvEnum && v.scale != fscaleToken {
				labels++
			}
		}
		if labels > 0 && labels*2 >= filled {
			fieldCols = append(fieldCols, c)
		}
	}
	if len(fieldCols) == 0 {
		return nil
	}
	var out []Field
	for _, r := range rows[1:] {
		if len(r.Cells) == 0 {
			continue
		}
		key := strings.TrimSpace(r.Cells[0])
		if key == "" {
			continue
		}
		if fldBareID(key) && len(r.Cells) > 1 && !slices.Contains(fieldCols, 1) {
			// "| R-005 | Certification agent too lenient | Low |": the id
			// and its description name the item together.
			key += " " + strings.TrimSpace(r.Cells[1])
		} else if fldNumeral(key) {
			key = strings.TrimSpace(head[0]) + " " + key // "| 2 | …" under "Phase" is Phase 2
		}
		for _, c := range fieldCols {
			if c >= len(r.Cells) || strings.TrimSpace(r.Cells[c]) == "" {
				continue
			}
			out = append(out, Field{Section: r.Section, Line: r.Line, Item: key, Name: strings.TrimSpace(head[c]),
				Value: strings.TrimSpace(r.Cells[c]), Quote: strings.TrimSpace(line(r.Line)), Form: FormTable, Bounded: true})
		}
	}
	return out
}

var fldBareIDRE = regexp.MustCompile(`^[A-Za-z][A-Za-z]*(?:-[A-Za-z]+)*[- ]?\d+(?:[.-]\d+)*$`)

func fldBareID(s string) bool { return fldBareIDRE.MatchString(strings.TrimSpace(s)) }

func fldNumeral(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil
}

// ---- values ----

type fldValueKind int

const (
	fvNone fldValueKind = iota // prose, or empty: never compared
	fvEnum                     // a label from a vocabulary-like set
	fvNum                      // a number or range with its unit
	fvText                     // a short delimited value, compared word for word
)

// Scales of enumerated values. Labels on one known scale can contradict
// each other; a free label ("GENUINE NEW REQUIREMENT") only differs.
const (
	fscaleVerdict  = "verdict"
	fscaleLevel    = "level"
	fscalePriority = "priority"
	fscaleBool     = "bool"
	fscaleDecision = "decision"
	fscaleToken    = "token"  // a single identifier-like word: direct-test, keep
	fscaleLabel    = "label"  // a short upper-case label of no known scale
	fscaleOption   = "option" // one of a document's lettered or numbered options: "Option B (…)"
)

// fldValue is a value reduced to what is compared.
type fldValue struct {
	kind   fldValueKind
	scale  string
	class  string // what two enumerated or text values must share to agree
	lo, hi float64
	unit   string
	label  string // for people: "OVERSTATED", "CONFIRMED HIGH", "12-16 h"
}

// fldVerdictClass maps reviewers' verdict words to what they mean for the
// reviewed claim. Words of one class agree.
var fldVerdictClass = map[string]string{
	"ACCURATE": "agree", "CONFIRMED": "agree", "VERIFIED": "agree", "CORRECT": "agree", "VALID": "agree",
	"VALIDATED": "agree", "CONSISTENT": "agree", "SOUND": "agree", "SUPPORTED": "agree", "JUSTIFIED": "agree",
	"AGREE": "agree", "AGREED": "agree", "TRUE": "agree",
	"PARTIAL": "partial", "CLOSE": "partial", "APPROXIMATE": "partial",
	"INACCURATE": "disagree", "INCORRECT": "disagree", "REFUTED": "disagree", "WRONG": "disagree", "INVALID": "disagree",
	"INCONSISTENT": "disagree", "UNSUPPORTED": "disagree", "UNJUSTIFIED": "disagree", "DISPUTED": "disagree",
	"FALSE": "disagree", "DISAGREE": "disagree",
	"OVERSTATED": "overstated", "EXAGGERATED": "overstated", "INFLATED": "overstated", "OVERESTIMATED": "overstated",
	"UNDERSTATED": "understated", "UNDERESTIMATED": "understated",
	"UNVERIFIABLE": "unverifiable", "UNVERIFIED": "unverifiable", "UNCLEAR": "unverifiable", "INCONCLUSIVE": "unverifiable",
}

// fldLevels is the ordinal scale of severities, impacts and probabilities.
var fldLevels = map[string]string{
	"LOW": "LOW", "MEDIUM": "MEDIUM", "MED": "MEDIUM", "MODERATE": "MEDIUM", "HIGH": "HIGH", "CRITICAL": "CRITICAL",
}

var fldDecisions = map[string]bool{
	"ACCEPT": true, "ACCEPTED": true, "MODIFY": true, "REJECT": true, "REJECTED": true, "APPROVE": true,
	"APPROVED": true, "DEFER": true, "DEFERRED": true, "KEEP": true, "DISCARD": true, "RETAIN": true, "REMOVE": true,
	"ADOPT": true, "DROP": true, "MERGE": true,
}

var fldBools = map[string]string{"YES": "YES", "NO": "NO", "TRUE": "YES", "FALSE": "NO", "Y": "YES", "N": "NO"}

var fldPriorityRE = regexp.MustCompile(`^P[0-4]$`)

// qualifiers start the words that narrow a positive verdict ("ACCURATE
// with correction", "ACCURATE on the gap identification"); corrections
// in parentheses do the same ("ACCURATE (line range … is imprecise)").
var (
	fldQualifierWords = map[string]bool{"with": true, "but": true, "except": true, "in": true, "on": true, "for": true,
		"though": true, "although": true, "apart": true, "mostly": true, "partially": true}
	fldCorrectionRE = regexp.MustCompile(`(?i)\b(?:not|imprecise|inaccurate|incorrect|wrong|off by|offset|minor|but|except|however|partially|partly|should be|actually)\b`)
)

// normaliseFieldValue reduces a value for comparison. bounded says the value's
// extent is marked in the source, so a short free text is a value too.
func normaliseFieldValue(raw string, bounded bool, form FieldForm) fldValue {
	v := strings.TrimSpace(fldPlain(raw))
	if v == "" {
		return fldValue{}
	}
	head, after := fldValueHead(v)
	bare := strings.TrimSpace(fldStripParens(head))
	if bare == "" {
		return fldValue{}
	}
	toks := strings.Fields(bare)
	if nv, ok := fldOptionValue(v); ok {
		return nv
	}
	if nv, ok := fldLevelValue(toks, head); ok {
		return nv
	}
	if lbl, rest, ok := fldUpperLabel(head); ok {
		return fldEnumLabel(lbl, rest, after)
	}
	if len(toks) > 1 && strings.HasSuffix(toks[0], ",") && fldKnownWord(strings.TrimSuffix(toks[0], ",")) {
		// "keep, orthogonal (fast vs slow)": a known word, then remarks
		toks = toks[:1]
		head = strings.TrimSuffix(toks[0], ",")
	}
	if len(toks) <= 2 {
		first := strings.ToUpper(strings.Trim(toks[0], ".,;:!"))
		if len(toks) == 1 {
			if _, ok := fldVerdictClass[first]; ok {
				return fldEnumLabel(first, strings.TrimSpace(strings.TrimPrefix(head, toks[0])), after)
			}
			if fldDecisions[first] {
				return fldValue{kind: fvEnum, scale: fscaleDecision, class: first, label: first}
			}
			if b, ok := fldBools[first]; ok && len(first) > 1 {
				return fldValue{kind: fvEnum, scale: fscaleBool, class: b, label: first}
			}
			if fldPriorityRE.MatchString(first) {
				return fldValue{kind: fvEnum, scale: fscalePriority, class: first, label: first}
			}
		}
	}
	if nv, ok := fldNumericValue(bare); ok {
		return nv
	}
	if len(toks) == 1 && fldTokenRE.MatchString(strings.Trim(toks[0], ".,;:!")) {
		t := strings.ToLower(strings.Trim(toks[0], ".,;:!"))
		return fldValue{kind: fvEnum, scale: fscaleToken, class: strings.ToUpper(t), label: t}
	}
	limit := 0
	switch {
	case form == FormYAML:
		limit = 4
	case form == FormTable:
		limit = 6
	case bounded:
		limit = 20
	}
	if n := words.Count(v); n > 0 && n <= limit {
		if form == FormYAML && strings.HasPrefix(v, "[") {
			return fldValue{kind: fvText, class: strings.Join(strings.Fields(v), ""), label: v}
		}
		return fldValue{kind: fvText, class: fldTextClass(v), label: v}
	}
	return fldValue{}
}

// fldOptionRE matches a value that opens by naming one of the options a
// document weighs: "Option B (background subprocess)", "Alternative 2",
// "Approach C for v1". "Hybrid Option B + Option C" names two and is text.
var fldOptionRE = regexp.MustCompile(`^(?i)(option|alternative|approach|strategy|variant|design)\s+([A-Z]|\d{1,2})\b(.*)$`)

var fldSecondOptionRE = regexp.MustCompile(`(?i)\b(option|alternative|approach)\s+([A-Z]|\d{1,2})\b`)

// fldOptionValue reads a chosen option; values naming one option compare
// by its letter or number.
func fldOptionValue(v string) (fldValue, bool) {
	m := fldOptionRE.FindStringSubmatch(v)
	if m == nil || fldSecondOptionRE.MatchString(m[3]) {
		return fldValue{}, false
	}
	// "Option B (…), with a soft-join checkpoint" amends the option: it is
	// not the plain option another variant picks.
	rest := strings.TrimSpace(m[3])
	if strings.HasPrefix(rest, "(") {
		if end := strings.Index(rest, ")"); end >= 0 {
			rest = strings.TrimSpace(rest[end+1:])
		}
	}
	// A clause set off by a comma, a semicolon or a dash adds to the option
	// ("Option B, with a checkpoint"); "Option D (configurable) with three
	// modes" only says how the option is set up.
	rest = strings.ToLower(rest)
	if strings.HasPrefix(rest, "+") || strings.HasPrefix(rest, "plus ") || strings.HasPrefix(rest, "combined") {
		return fldValue{}, false
	}
	if strings.HasPrefix(rest, ",") || strings.HasPrefix(rest, ";") || strings.HasPrefix(rest, "—") || strings.HasPrefix(rest, "-") {
		clause := strings.TrimSpace(strings.TrimLeft(rest, ",;—- "))
		for _, amend := range []string{"with ", "plus ", "and ", "but ", "except "} {
			if strings.HasPrefix(clause, amend) {
				return fldValue{}, false
			}
		}
	}
	label := strings.ToUpper(m[1][:1]) + strings.ToLower(m[1][1:]) + " " + strings.ToUpper(m[2])
	return fldValue{kind: fvEnum, scale: fscaleOption, class: strings.ToUpper(m[1] + " " + m[2]), label: label}, true
}

var fldTokenRE = regexp.MustCompile(`^[A-Za-z][a-z0-9]*(?:[-_][a-z0-9]+)*$`)

// fldValueHead cuts a value at the end of its first clause: a sentence end,
// a dash or a semicolon outside parentheses. after is the rest.
func fldValueHead(v string) (head, after string) {
	depth := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth = max(depth-1, 0)
		case depth > 0:
		case c == '.' && (i+1 == len(v) || v[i+1] == ' ') && !(i > 0 && unicode.IsDigit(rune(v[i-1])) && i+1 < len(v) && unicode.IsDigit(rune(v[i+1]))):
			return strings.TrimSpace(v[:i]), strings.TrimSpace(v[i+1:])
		case c == ';' || (c == ':' && (i+1 == len(v) || v[i+1] == ' ')):
			return strings.TrimSpace(v[:i]), strings.TrimSpace(v[i+1:])
		case strings.HasPrefix(v[i:], " -- ") || strings.HasPrefix(v[i:], " — ") || strings.HasPrefix(v[i:], " – "):
			return strings.TrimSpace(v[:i]), strings.TrimSpace(v[i+3:])
		}
	}
	return strings.TrimSpace(v), ""
}

func fldStripParens(s string) string {
	var b strings.Builder
	depth := 0
	for _, c := range s {
		switch {
		case c == '(':
			depth++
		case c == ')':
			depth = max(depth-1, 0)
		case depth == 0:
			b.WriteRune(c)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// fldUpperLabel finds a leading upper-case label: "OVERSTATED", "CONFIRMED
// HIGH", "PARTIALLY_CONFIRMED", "NOT A SPEC REQUIREMENT". An acronym
// followed by ordinary words ("TUI completion guard") is not a label.
func fldUpperLabel(head string) (label, rest string, ok bool) {
	toks := strings.Fields(head)
	var run []string
	i := 0
	for ; i < len(toks); i++ {
		t := strings.TrimRight(toks[i], ".,;:!")
		if strings.HasPrefix(t, "(") || !fldUpperToken(t) {
			break
		}
		run = append(run, t)
		if t != toks[i] {
			i++
			break // punctuation ends the label
		}
	}
	if len(run) == 0 {
		return "", "", false
	}
	long := false
	for _, t := range run {
		if fldLetters(t) >= 2 {
			long = true
		}
	}
	if !long {
		return "", "", false
	}
	rest = strings.TrimSpace(strings.Join(toks[i:], " "))
	label = strings.Join(run, " ")
	if rest != "" && !strings.HasPrefix(rest, "(") {
		next := strings.ToLower(strings.Fields(rest)[0])
		_, known := fldVerdictClass[strings.TrimSuffix(strings.ToUpper(run[0]), "LY")]
		if !fldQualifierWords[next] && next != "to" && !known && !fldKnownWord(run[0]) {
			return "", "", false
		}
	}
	return label, rest, true
}

func fldKnownWord(w string) bool {
	w = strings.ToUpper(w)
	_, v := fldVerdictClass[w]
	_, l := fldLevels[w]
	return v || l || fldDecisions[w] || strings.HasPrefix(w, "PARTIAL") || w == "NOT"
}

func fldUpperToken(t string) bool {
	if t == "" || fldLetters(t) == 0 {
		return false
	}
	for _, c := range t {
		switch {
		case unicode.IsLower(c):
			return false
		case unicode.IsUpper(c), unicode.IsDigit(c), c == '_', c == '-', c == '/', c == '&':
		default:
			return false
		}
	}
	return true
}

func fldLetters(s string) int {
	n := 0
	for _, c := range s {
		if unicode.IsLetter(c) {
			n++
		}
	}
	return n
}

// fldEnumLabel classifies a label: a verdict (with its agreement class, a
// qualified positive verdict counting as partial), a decision, a boolean,
// a priority, or a free label.
func fldEnumLabel(label, rest, after string) fldValue {
	up := strings.ToUpper(strings.ReplaceAll(label, "_", " "))
	toks := strings.Fields(up)
	nv := fldValue{kind: fvEnum, label: strings.ToUpper(label)}
	if len(toks) == 0 {
		return fldValue{}
	}
	cls := ""
	switch {
	case len(toks) == 1:
		cls = fldVerdictClass[toks[0]]
	case len(toks) == 2 && (toks[0] == "PARTIALLY" || toks[0] == "PARTLY" || toks[0] == "MOSTLY" || toks[0] == "LARGELY"):
		if fldVerdictClass[toks[1]] == "agree" {
			cls = "partial"
		}
	case len(toks) == 2 && toks[0] == "NOT":
		switch fldVerdictClass[toks[1]] {
		case "agree":
			cls = "disagree"
		case "disagree":
			cls = "agree"
		}
	}
	if cls != "" {
		if cls == "agree" && fldQualified(rest) {
			cls = "partial"
			nv.label += " (qualified)"
		}
		nv.scale, nv.class = fscaleVerdict, cls
		return nv
	}
	if len(toks) == 1 {
		switch {
		case fldDecisions[toks[0]]:
			nv.scale, nv.class = fscaleDecision, toks[0]
			return nv
		case fldBools[toks[0]] != "" && len(toks[0]) > 1:
			nv.scale, nv.class = fscaleBool, fldBools[toks[0]]
			return nv
		case fldPriorityRE.MatchString(toks[0]):
			nv.scale, nv.class = fscalePriority, toks[0]
			return nv
		}
	}
	nv.scale, nv.class = fscaleLabel, strings.Join(toks, " ")
	return nv
}

// fldQualified reports whether the words after a positive verdict narrow it.
func fldQualified(rest string) bool {
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return false
	}
	if strings.HasPrefix(rest, "(") {
		end := strings.Index(rest, ")")
		if end < 0 {
			end = len(rest)
		}
		return fldCorrectionRE.MatchString(rest[:end])
	}
	return fldQualifierWords[strings.ToLower(strings.Fields(rest)[0])]
}

var fldLevelTokRE = regexp.MustCompile(`^(?i)(LOW|MEDIUM|MED|MODERATE|HIGH|CRITICAL)(?:[-/](LOW|MEDIUM|MED|MODERATE|HIGH|CRITICAL))?$`)

// fldLevelValue reads an ordinal level: "Low", "Low-Medium", "CONFIRMED
// HIGH", "RECLASSIFY to CRITICAL", "HIGH -- P0 blocker". The value must
// name one level; "High (TUI) / Medium (Logger)" names two and is not one.
func fldLevelValue(toks []string, head string) (fldValue, bool) {
	found := ""
	for i, t := range toks {
		t = strings.Trim(t, ".,;:!*")
		m := fldLevelTokRE.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		// Title-case level words count only as the whole value ("Low",
		// "Medium-High"); inside longer text only shouted ones do.
		if len(toks) > 1 && t != strings.ToUpper(t) {
			return fldValue{}, false
		}
		if len(toks) > 1 && i > 0 && !fldUpperToken(strings.Trim(toks[0], ".,;:!")) {
			return fldValue{}, false
		}
		if found != "" {
			return fldValue{}, false
		}
		found = fldLevels[strings.ToUpper(m[1])]
		if m[2] != "" {
			found += "-" + fldLevels[strings.ToUpper(m[2])]
		}
	}
	if found == "" {
		return fldValue{}, false
	}
	if len(toks) > 1 {
		// Every other word must be part of a label: "CONFIRMED HIGH",
		// "RECLASSIFY to HIGH"; not "HIGH availability is required".
		for _, t := range toks {
			t = strings.Trim(t, ".,;:!*")
			if !fldUpperToken(t) && t != "to" && t != "as" {
				return fldValue{}, false
			}
		}
	}
	return fldValue{kind: fvEnum, scale: fscaleLevel, class: found, label: strings.ToUpper(strings.Join(strings.Fields(fldStripParens(head)), " "))}, true
}

var fldNumRE = regexp.MustCompile(`^[~≈<>≤≥]*\s*(\d[\d,]*(?:\.\d+)?)\s*([kKmM]\b)?(?:\s*(?:-|–|to)\s*[~≈]?(\d[\d,]*(?:\.\d+)?)\s*([kKmM]\b)?)?\s*([A-Za-z%]+)?`)

// fldNumericValue reads a value that opens with a number or a range and its
// unit: "12-16h including tests", "5-7 days", "300", "~650 LOC".
func fldNumericValue(s string) (fldValue, bool) {
	m := fldNumRE.FindStringSubmatch(s)
	if m == nil {
		return fldValue{}, false
	}
	parse := func(n, mult string) float64 {
		f, err := strconv.ParseFloat(strings.ReplaceAll(n, ",", ""), 64)
		if err != nil {
			return 0
		}
		switch strings.ToLower(mult) {
		case "k":
			f *= 1e3
		case "m":
			f *= 1e6
		}
		return f
	}
	lo := parse(m[1], m[2])
	hi := lo
	if m[3] != "" {
		hi = parse(m[3], m[4])
		if m[2] == "" && m[4] != "" {
			lo = parse(m[1], m[4]) // "150-280k"
		}
	}
	rest := strings.TrimSpace(s[len(m[0]):])
	if rest != "" && !strings.HasPrefix(rest, "(") {
		// "2 of the 3 reviewers" is not a number of anything, nor is
		// "9 phases × T2-deep × ~50k tokens = ~450k tokens" one number
		if words.Count(rest) > 3 || strings.ContainsAny(rest, "×=+*/≈") {
			return fldValue{}, false
		}
	}
	unit := fldUnit(m[5])
	label := strings.TrimSpace(s[:len(m[0])])
	return fldValue{kind: fvNum, lo: min(lo, hi), hi: max(lo, hi), unit: unit, label: label}, true
}

func fldUnit(u string) string {
	u = strings.ToLower(u)
	switch u {
	case "h", "hr", "hrs", "hour", "hours":
		return "h"
	case "d", "day", "days":
		return "d"
	case "w", "wk", "wks", "week", "weeks":
		return "w"
	case "min", "mins", "minute", "minutes":
		return "min"
	case "s", "sec", "secs", "second", "seconds":
		return "s"
	case "ms":
		return "ms"
	}
	return words.Stem(u)
}

// fldTextClass is a short text reduced to its significant words, in order.
func fldTextClass(s string) string {
	var ws []string
	words.Each(s, func(w string) {
		if !words.IsStopWord(w) {
			ws = append(ws, fldStem(w))
		}
	})
	return strings.Join(ws, " ")
}

// agree reports whether two normalised values say the same, and whether
// they can be compared at all: prose is not compared, nor a number with a
// label.
func (a fldValue) agree(b fldValue) (same, comparable bool) {
	if a.kind == fvNone || b.kind == fvNone || a.kind != b.kind {
		return false, false
	}
	switch a.kind {
	case fvNum:
		if a.unit != b.unit {
			return false, false
		}
		return fldApprox(a.lo, b.lo) && fldApprox(a.hi, b.hi), true
	case fvEnum:
		if a.scale == fscaleVerdict && b.scale == fscaleVerdict {
			return a.class == b.class, true
		}
		if a.scale == fscaleVerdict || b.scale == fscaleVerdict {
			// A verdict and a free label ("GENUINE NEW REQUIREMENT")
			// never say the same; a verdict and a setting are not about
			// the same thing.
			return false, a.scale == fscaleLabel || b.scale == fscaleLabel
		}
		return a.class == b.class, true
	}
	return a.class == b.class, true
}

func fldApprox(x, y float64) bool { return relDiff(x, y) < 0.005 }

// conflicting reports whether two values on one known scale contradict.
func (a fldValue) conflicting(b fldValue) bool {
	if a.kind != fvEnum || b.kind != fvEnum || a.comparableScale() != b.comparableScale() || a.class == b.class {
		return false
	}
	switch a.scale {
	case fscaleVerdict, fscaleLevel, fscalePriority, fscaleBool, fscaleDecision, fscaleToken, fscaleOption:
		return true
	}
	return false
}

// comparableScale groups the scales whose values can contradict each
// other: a known decision ("keep") and another one-word setting
// ("simplify") answer one question.
func (a fldValue) comparableScale() string {
	if a.scale == fscaleDecision {
		return fscaleToken
	}
	return a.scale
}

// fldStem is a light suffix stripper for matching item titles: "failure",
// "fails" and "failing" meet at "fail", "parser" and "parsing" at "pars".
func fldStem(w string) string {
	w = words.Stem(strings.ToLower(w))
	for _, suf := range []string{"ations", "ation", "ition", "ments", "ment", "ness", "ings", "ing", "ures", "ure", "ages", "age", "ions", "ion", "ed", "er", "es"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// ---- field names ----

// fldClass names what a field measures, so that fields of different
// names can be compared: the judgement of a review ("Verdict",
// "Assessment", "Accuracy", "Status") is one field, a severity or impact
// another — and a judgement given as a level is a severity ("My
// Assessment: MEDIUM"). Other names stand for themselves.
func fldClass(name string, v fldValue) string {
	n := strings.ToLower(fldStripParens(fldPlain(name)))
	toks := words.Tokens(n)
	if len(toks) == 0 {
		return ""
	}
	head := words.Stem(toks[len(toks)-1])
	switch head {
	case "verdict", "assessment", "accuracy", "evaluation", "conclusion", "judgement", "judgment", "rating", "status":
		switch {
		case v.kind == fvEnum && v.scale == fscaleLevel:
			return "severity"
		case v.kind == fvEnum && v.scale == fscalePriority:
			return "priority"
		case v.kind == fvEnum:
			return "verdict"
		}
		return "verdict:" + n
	case "severity", "impact", "criticality":
		return "severity"
	case "probability", "likelihood":
		return "probability"
	case "priority":
		return "priority"
	}
	return strings.Join(toks, " ")
}

// ---- items ----

// fldItemKey is what identifies an item across variants: its ids and the
// significant words of its title.
type fldItemKey struct {
	header  bool
	ids     []fldItemID
	refs    []string // file:line citations, "models.py:218-228", that identify the item
	allRefs []string // every citation in the title
	fams    []string // the prefixes of every id in the title, identifying or not
	words   words.Set
}

type fldItemID struct {
	prefix string // lower-cased: "delta", "d", "nr", "risk", "task"; "" for a bare number
	num    []int  // 2.1 → [2 1]
}

var (
	fldIDRE      = regexp.MustCompile(`\b([A-Za-z]{1,12})(?:[- ]?)(\d+(?:\.\d+)*)\b|\b([A-Za-z]{1,8})-([A-Za-z]{2,8})-(\d+)\b`)
	fldParenIDRE = regexp.MustCompile(`\((\d+(?:\.\d+)+)\)`)
	fldCodeRefRE = regexp.MustCompile(`[\w./-]+\.[a-z]{1,5}:\d+(?:-\d+)?`)
	fldOutlineRE = regexp.MustCompile(`^(?:§\s*)?\d+(?:\.\d+)*[.)]?\s+`)
)

// fldIDStop are words that precede a number without making an id of it.
var fldIDStop = map[string]bool{"line": true, "lines": true, "of": true, "to": true, "and": true, "or": true,
	"v": true, "x": true, "at": true, "by": true, "in": true, "on": true, "the": true, "a": true, "py": true, "md": true}

func newFldItemKey(item string) fldItemKey {
	if strings.TrimSpace(item) == "" {
		return fldItemKey{header: true}
	}
	s := fldPlain(item)
	var k fldItemKey
	for _, r := range fldCodeRefRE.FindAllString(s, -1) {
		k.refs = append(k.refs, strings.ToLower(r))
		k.allRefs = append(k.allRefs, strings.ToLower(r))
	}
	s = fldCodeRefRE.ReplaceAllString(s, " ")
	s = fldOutlineRE.ReplaceAllString(s, "")
	for _, m := range fldParenIDRE.FindAllStringSubmatch(s, -1) {
		k.ids = append(k.ids, fldItemID{num: fldParseNum(m[1])})
	}
	s = fldParenIDRE.ReplaceAllString(s, " ")
	rest := s
	for _, m := range fldIDRE.FindAllStringSubmatchIndex(s, -1) {
		if m[2] >= 0 {
			p := strings.ToLower(s[m[2]:m[3]])
			if fldIDStop[p] || len(p) > 8 {
				continue
			}
			k.ids = append(k.ids, fldItemID{prefix: p, num: fldParseNum(s[m[4]:m[5]])})
			k.fams = append(k.fams, p)
		} else {
			p := strings.ToLower(s[m[6]:m[7]] + "-" + s[m[8]:m[9]])
			k.ids = append(k.ids, fldItemID{prefix: p, num: fldParseNum(s[m[10]:m[11]])})
			k.fams = append(k.fams, p)
		}
		rest = strings.Replace(rest, s[m[0]:m[1]], " ", 1)
	}
	ws := fldWords(rest)
	k.words = ws
	return k
}

func fldParseNum(s string) []int {
	var out []int
	for _, p := range strings.Split(s, ".") {
		n, _ := strconv.Atoi(p)
		out = append(out, n)
	}
	return out
}

// fldIDMatch compares two items' ids: 1 when some id of one is an id of
// the other ("Delta 2.1", "D2.1" and "(2.1)"; "RISK-004" and "Risk 4"),
// -1 when both have an id of one family and they differ, -2 when their
// ids are of different families ("SY-1" and "Step 2": items of two
// different lists) or they cite different places, 0 otherwise.
func fldIDMatch(a, b fldItemKey) int {
	if len(a.fams) > 0 && len(b.fams) > 0 {
		related := false
		for _, x := range a.fams {
			for _, y := range b.fams {
				related = related || fldPrefixCompatible(x, y)
			}
		}
		if !related {
			return -2
		}
	}
	result := 0
	for _, x := range a.ids {
		for _, y := range b.ids {
			if !fldPrefixCompatible(x.prefix, y.prefix) {
				continue
			}
			if slices.Equal(x.num, y.num) {
				return 1
			}
			if x.prefix != "" && y.prefix != "" {
				result = -1
			}
		}
	}
	for _, r := range a.refs {
		if slices.Contains(b.refs, r) {
			return 1
		}
	}
	if result == 0 && len(a.allRefs) > 0 && len(b.allRefs) > 0 {
		shared := false
		for _, r := range a.allRefs {
			shared = shared || slices.Contains(b.allRefs, r)
		}
		if !shared {
			return -2 // two different citations
		}
	}
	return result
}

func fldPrefixCompatible(a, b string) bool {
	if a == "" || b == "" {
		return true
	}
	return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}

// ---- comparison ----

// fldRef is one extracted field with what the comparison derives.
type fldRef struct {
	Field
	norm  fldValue
	class string
	key   fldItemKey
	topic int       // the aligned topic the field's section falls in, -1 for none
	where words.Set // the words of the titles of the sections around the item
	weak  bool      // matched to its cluster by a weak title overlap
}

// compareFields compares the labelled fields of the variants: the
// disagreements, sorted by their first value's position, and the
// contradictions among them (values on one known scale that differ).
func compareFields(docs []*Document, topics []topic) ([]FieldDisagreement, []Contradiction) {
	topicOf := fldSectionTopics(docs, topics)
	byClass := map[string][]fldRef{}
	var classes []string
	for v, d := range docs {
		seen := map[string]int{} // item|class → index in byClass[class], for duplicates within the variant
		for _, r := range docFieldRefs(d) {
			if r.class == "" {
				continue
			}
			f := r.Field
			f.Variant, r.Variant = v, v
			cls := r.class
			if f.Section >= 0 {
				r.topic = topicOf[v][f.Section]
			}
			dup := fmt.Sprintf("%d|%s|%d|%s", f.Line, cls, f.Section, f.Item)
			if f.Form != FormTable {
				dup = fmt.Sprintf("%d|%s|%s", f.Section, f.Item, cls)
			}
			if i, ok := seen[dup]; ok {
				if f.Form == FormTable {
					byClass[cls][i] = r // the rightmost column of a row is its own judgement
				}
				continue
			}
			if _, ok := byClass[cls]; !ok {
				classes = append(classes, cls)
			}
			seen[dup] = len(byClass[cls])
			byClass[cls] = append(byClass[cls], r)
		}
	}
	for _, cls := range classes {
		uniqueIDs(byClass[cls])
	}
	renumbered := fldRenumberings(byClass)
	clustered := map[string][][]fldRef{}
	for _, cls := range classes {
		clustered[cls] = fldMatchItems(byClass[cls], len(docs), renumbered)
	}
	corroborate(clustered)
	var fds []FieldDisagreement
	var cs []Contradiction
	for _, cls := range classes {
		for _, cluster := range clustered[cls] {
			if fd, c, ok := fldDisagreement(cluster); ok {
				fds = append(fds, fd)
				if c != nil {
					cs = append(cs, *c)
				}
			}
		}
	}
	slices.SortStableFunc(fds, func(a, b FieldDisagreement) int {
		x, y := a.Values[0], b.Values[0]
		if x.Variant != y.Variant {
			return x.Variant - y.Variant
		}
		if x.Line != y.Line {
			return x.Line - y.Line
		}
		return strings.Compare(a.Field, b.Field)
	})
	return fds, cs
}

// fldSectionTopics maps each variant's sections to the topic they fall in:
// their own, else their nearest ancestor's.
func fldSectionTopics(docs []*Document, topics []topic) [][]int {
	out := make([][]int, len(docs))
	for v, d := range docs {
		own := map[int]int{}
		for ti, t := range topics {
			if v < len(t.sections) && t.sections[v] >= 0 {
				own[t.sections[v]] = ti
			}
		}
		out[v] = make([]int, len(d.Sections))
		for si := range d.Sections {
			out[v][si] = -1
			for s := si; s >= 0; s = d.Sections[s].Parent {
				if ti, ok := own[s]; ok {
					out[v][si] = ti
					break
				}
			}
		}
	}
	return out
}

// fldRenumberings finds the pairs of variants whose items were
// renumbered: two items with the same title (each unique in its variant)
// under different ids of one family. Ids say nothing about which items
// correspond between such variants. Titles are compared through
// "drop one word" signatures, so only titles that can reach a Dice of 0.8
// are ever compared.
func fldRenumberings(byClass map[string][]fldRef) map[[2]int]bool {
	type titled struct {
		v   int
		key fldItemKey
	}
	seen := map[string]bool{}
	var items []titled
	titles := map[string]int{} // variant|words → items with that title
	for _, rs := range byClass {
		for _, r := range rs {
			k := fmt.Sprintf("%d|%d|%s", r.Variant, r.Section, r.Item)
			if !seen[k] && len(r.key.fams) > 0 && len(r.key.words) >= 2 {
				seen[k] = true
				items = append(items, titled{r.Variant, r.key})
				titles[fmt.Sprintf("%d|%s", r.Variant, strings.Join(r.key.words, " "))]++
			}
		}
	}
	bySig := map[string][]int{}
	for i, it := range items {
		if titles[fmt.Sprintf("%d|%s", it.v, strings.Join(it.key.words, " "))] > 1 {
			continue // a title several items share identifies none of them
		}
		for _, sig := range dropOne(keyed{words: it.key.words}) {
			bySig[sig] = append(bySig[sig], i)
		}
	}
	sigs := make([]string, 0, len(bySig))
	for sig := range bySig {
		sigs = append(sigs, sig)
	}
	slices.Sort(sigs)
	out := map[[2]int]bool{}
	for _, sig := range sigs {
		members := bySig[sig]
		for x, i := range members {
			for _, j := range members[x+1:] {
				a, b := items[i], items[j]
				if a.v == b.v || out[[2]int{a.v, b.v}] {
					continue
				}
				if a.key.words.Dice(b.key.words) >= 0.8 && fldIDMatch(a.key, b.key) == -1 {
					out[[2]int{a.v, b.v}], out[[2]int{b.v, a.v}] = true, true
				}
			}
		}
	}
	return out
}

// fldItemScore says how surely two items are the same: 0 when they are not.
// Near-identical titles always match; a shared id needs a shared word too
// (two variants' "Risk 5" may be different risks), unless the variants
// renumbered their items; otherwise titles must overlap by 60%, or — for
// items in aligned sections, where each is the other's best match — by
// more than 0.3 (one shared word of four on each side, with one agreeing
// level such as Impact: High, is too often two different risks).
func fldItemScore(a, b fldRef, renumbered bool) (score float64, weak bool) {
	if a.key.header || b.key.header {
		if a.key.header && b.key.header {
			return 1, false
		}
		return 0, false
	}
	d := a.key.words.Dice(b.key.words)
	shared := a.key.words.Intersect(b.key.words)
	id := fldIDMatch(a.key, b.key)
	if renumbered && id == -1 {
		id = 0
	}
	if renumbered && id == 1 && a.key.hasFamilyID() && b.key.hasFamilyID() {
		id = 0 // the ids were reassigned: only titles say which items correspond
	}
	sameWords := len(a.key.words) > 0 && d == 1
	switch {
	case id == -2:
		return 0, false
	case d >= 0.8 && (shared >= 2 || sameWords):
		return 1 + d, false
	case id > 0 && (shared > 0 || len(a.key.words) == 0 || len(b.key.words) == 0):
		return 1 + d/2, false
	case id < 0:
		return 0, false
	case d >= 0.6 && shared >= 2:
		return d, false
	case d > 0.3 && shared >= 1 && (len(a.key.ids) == 0 || len(b.key.ids) == 0) &&
		((a.topic >= 0 && a.topic == b.topic) || a.where.Dice(b.where) >= 0.25):
		return d, true
	}
	return 0, false
}

// fldCommonToken is how many clusters a word may name before it stops
// finding candidates: a word every item has tells none apart.
const fldCommonToken = 64

// fldMatchItems clusters one field class's values by item: at most one
// value per variant per cluster, each variant's items matched one-to-one
// to the clusters so far, best matches first.
func fldMatchItems(refs []fldRef, n int, renumbered map[[2]int]bool) [][]fldRef {
	var clusters [][]fldRef
	// Clusters are found through what their members' keys hold — words,
	// id numbers, citations — so each item is scored against the few
	// clusters it could match, not all of them.
	byToken := map[string][]int{}
	index := func(c int, r fldRef) {
		for _, tok := range r.key.tokens() {
			if l := byToken[tok]; len(l) == 0 || l[len(l)-1] != c {
				byToken[tok] = append(l, c)
			}
		}
	}
	for v := range n {
		var mine []fldRef
		for _, r := range refs {
			if r.Variant == v {
				mine = append(mine, r)
			}
		}
		type cand struct {
			i, c  int
			score float64
			weak  bool
		}
		var cands []cand
		for i, r := range mine {
			var near []int
			for _, tok := range r.key.tokens() {
				if l := byToken[tok]; len(l) <= fldCommonToken || tok[0] == '#' || tok[0] == '@' || tok[0] == '^' {
					near = append(near, l...)
				}
			}
			slices.Sort(near)
			for _, c := range slices.Compact(near) {
				best, weak := 0.0, false
				for _, m := range clusters[c] {
					if s, w := fldItemScore(r, m, renumbered[[2]int{r.Variant, m.Variant}]); s > best {
						best, weak = s, w
					}
				}
				if best > 0 {
					cands = append(cands, cand{i, c, best, weak})
				}
			}
		}
		// A weak match must be each side's best: the item's best cluster
		// and the cluster's best item.
		bestOfItem := map[int]float64{}
		bestOfCluster := map[int]float64{}
		for _, c := range cands {
			bestOfItem[c.i] = max(bestOfItem[c.i], c.score)
			bestOfCluster[c.c] = max(bestOfCluster[c.c], c.score)
		}
		slices.SortStableFunc(cands, func(a, b cand) int {
			if a.score != b.score {
				if a.score > b.score {
					return -1
				}
				return 1
			}
			return 0
		})
		usedItem := map[int]bool{}
		usedCluster := map[int]bool{}
		for _, c := range cands {
			if usedItem[c.i] || usedCluster[c.c] {
				continue
			}
			if c.weak && (c.score < bestOfItem[c.i] || c.score < bestOfCluster[c.c]) {
				continue
			}
			usedItem[c.i], usedCluster[c.c] = true, true
			m := mine[c.i]
			m.weak = c.weak
			clusters[c.c] = append(clusters[c.c], m)
			index(c.c, m)
		}
		for i, r := range mine {
			if !usedItem[i] {
				clusters = append(clusters, []fldRef{r})
				index(len(clusters)-1, r)
			}
		}
	}
	return clusters
}

// fldDisagreement reports a cluster whose values differ, and the
// contradiction it makes when values on one known scale conflict.
func fldDisagreement(cluster []fldRef) (FieldDisagreement, *Contradiction, bool) {
	if len(cluster) < 2 {
		return FieldDisagreement{}, nil, false
	}
	slices.SortStableFunc(cluster, func(a, b fldRef) int { return a.Variant - b.Variant })
	differ := false
	for i := range cluster {
		for j := i + 1; j < len(cluster); j++ {
			if same, ok := cluster[i].norm.agree(cluster[j].norm); ok && !same {
				differ = true
			}
		}
	}
	if !differ {
		return FieldDisagreement{}, nil, false
	}
	first := cluster[0]
	fd := FieldDisagreement{Item: fldItemTitle(first.Item), Field: first.Name}
	for _, r := range cluster {
		fd.Values = append(fd.Values, FieldValue{Variant: r.Variant, Section: r.Section, Line: r.Line, Value: r.Value, Quote: r.Quote})
	}
	return fd, fldContradiction(cluster, fd), true
}

// fldItemTitle names an item for people; the document's header is "(header)".
func fldItemTitle(item string) string {
	if strings.TrimSpace(item) == "" {
		return "(header)"
	}
	return clip(fldPlain(item), 80)
}

// fldContradiction builds the contradiction of a disagreement whose
// values on one known scale conflict: verdicts of reviewers, levels,
// decisions, identifier-like settings. A number is a contradiction only
// for an item both variants name by the same id; prose and free labels
// never are.
func fldContradiction(cluster []fldRef, fd FieldDisagreement) *Contradiction {
	var sides []fldRef
	scale := ""
	conflict := false
	for _, r := range cluster {
		if r.weak {
			return nil // the items only may be one: a difference, not a contradiction
		}
	}
	for _, r := range cluster {
		if r.norm.kind == fvEnum && r.norm.scale != fscaleLabel {
			if scale == "" {
				scale = r.norm.comparableScale()
			}
			if r.norm.comparableScale() == scale {
				sides = append(sides, r)
			}
		}
	}
	for i := range sides {
		for j := i + 1; j < len(sides); j++ {
			if fldIDMatch(sides[i].key, sides[j].key) < 0 {
				return nil // matched by title across renumbered ids: not clearly one item
			}
			if sides[i].norm.conflicting(sides[j].norm) {
				conflict = true
			}
		}
	}
	if !conflict {
		sides, conflict = fldNumericSides(cluster)
		scale = "number"
	}
	if !conflict || len(sides) < 2 {
		return nil
	}
	kind := FieldConflict
	switch scale {
	case fscaleVerdict:
		kind = VerdictConflict
	case fscaleOption:
		kind = ChoiceConflict
	}
	c := &Contradiction{Kind: kind, Subject: fd.Item + ": " + fd.Field, Key: "field:" + cluster[0].class + ":" + strings.Join(cluster[0].key.words, " ")}
	var vals []string
	for _, r := range sides {
		c.Claims = append(c.Claims, Claim{Variant: r.Variant, Section: r.Section, Block: -1, Line: r.Line, Text: r.Name + ": " + r.Value,
			Quote: r.Quote, Type: Factual, lower: strings.ToLower(r.Value)})
		if !slices.Contains(vals, r.norm.label) {
			vals = append(vals, r.norm.label)
		}
	}
	// A rating or verdict that differs matters to whoever acts on it, but
	// it is one judgement against another, not an impossible design.
	c.Impact = Medium
	switch scale {
	case fscaleVerdict:
		c.Reason = "reviewers' verdicts differ (" + strings.Join(vals, " vs ") + ")"
	case fscaleLevel:
		c.Reason = "ratings differ (" + strings.Join(vals, " vs ") + ")"
	case fscaleOption:
		c.Reason = "different options chosen (" + strings.Join(vals, " vs ") + ")"
	default:
		c.Reason = "values differ (" + strings.Join(vals, " vs ") + ")"
	}
	return c
}

// fldNumericSides returns the numeric values of a cluster when they differ
// and every one names its item by an id the others share.
func fldNumericSides(cluster []fldRef) ([]fldRef, bool) {
	var sides []fldRef
	for _, r := range cluster {
		if r.norm.kind == fvNum && len(r.key.ids) > 0 && len(r.key.words) > 0 {
			sides = append(sides, r)
		}
	}
	if len(sides) < 2 {
		return nil, false
	}
	differ := false
	for i := range sides {
		for j := i + 1; j < len(sides); j++ {
			if fldIDMatch(sides[i].key, sides[j].key) <= 0 || sides[i].key.words.Dice(sides[j].key.words) < 0.8 {
				return nil, false
			}
			if same, ok := sides[i].norm.agree(sides[j].norm); ok && !same {
				differ = true
			}
		}
	}
	return sides, differ
}

// withFieldContradictions adds the contradictions read from labelled
// fields to the detectors' findings, dropping those a detector already
// reported (same signature, scope and variants), in the detectors' order.
func withFieldContradictions(cs, fields []Contradiction) []Contradiction {
	if len(fields) == 0 {
		return cs
	}
	seen := map[string]bool{}
	for _, c := range cs {
		seen[c.Signature()+"|"+string(c.Scope())+"|"+fmt.Sprint(variantList(c))] = true
	}
	out := slices.Clone(cs)
	for _, c := range fields {
		if k := c.Signature() + "|" + string(c.Scope()) + "|" + fmt.Sprint(variantList(c)); !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	SortContradictions(out)
	return out
}

// uniqueIDs drops the ids and citations that several items of one variant
// share: rows "C-1: executor.py:541 …" and "C-1: executor.py:643 …" are
// two items, and "C-1" identifies neither.
func uniqueIDs(refs []fldRef) {
	type owner struct {
		v  int
		id string
	}
	items := map[owner]map[string]bool{}
	note := func(v int, id, item string) {
		o := owner{v, id}
		if items[o] == nil {
			items[o] = map[string]bool{}
		}
		items[o][item] = true
	}
	for _, r := range refs {
		for _, id := range r.key.ids {
			note(r.Variant, fmt.Sprint(id), r.Item)
		}
		for _, ref := range r.key.refs {
			note(r.Variant, ref, r.Item)
		}
	}
	for i := range refs {
		r := &refs[i]
		ids := r.key.ids[:0:0]
		for _, id := range r.key.ids {
			if len(items[owner{r.Variant, fmt.Sprint(id)}]) == 1 {
				ids = append(ids, id)
			}
		}
		var cites []string
		for _, ref := range r.key.refs {
			if len(items[owner{r.Variant, ref}]) == 1 {
				cites = append(cites, ref)
			}
		}
		r.key.ids, r.key.refs = ids, cites
	}
}

// fldNormalise normalises a field's value; a labelled list of code spans
// ("**Scope**: `commands.py`, `executor.py`") is the set of what it names.
func fldNormalise(f Field) fldValue {
	if f.Form == FormLabel && f.raw != "" {
		if nv, ok := codeList(f.raw); ok {
			return nv
		}
	}
	return normaliseFieldValue(f.Value, f.Bounded, f.Form)
}

// codeList reads a value made of code spans, each optionally followed by
// a note: "`a.py` (CLI layer), `b.py`". Paths count by their base name.
func codeList(raw string) (fldValue, bool) {
	head := strings.TrimSpace(raw)
	for _, sep := range []string{" -- ", " — ", " – "} {
		if i := strings.Index(head, sep); i >= 0 {
			head = head[:i]
		}
	}
	var names []string
	depth, start := 0, 0
	part := func(p string) bool {
		p = strings.TrimSpace(p)
		if !strings.HasPrefix(p, "`") {
			return false
		}
		end := strings.Index(p[1:], "`")
		if end <= 0 {
			return false
		}
		name := p[1 : end+1]
		if rest := strings.TrimSpace(p[end+2:]); rest != "" && !(strings.HasPrefix(rest, "(") && strings.HasSuffix(rest, ")")) {
			return false // prose about the code, not a list of it
		}
		if i := strings.LastIndex(name, "/"); i >= 0 && i < len(name)-1 {
			name = name[i+1:]
		}
		names = append(names, strings.ToLower(name))
		return true
	}
	for i, c := range head {
		switch c {
		case '(':
			depth++
		case ')':
			depth = max(depth-1, 0)
		case ',':
			if depth == 0 {
				if !part(head[start:i]) {
					return fldValue{}, false
				}
				start = i + 1
			}
		}
	}
	if !part(head[start:]) {
		return fldValue{}, false
	}
	slices.Sort(names)
	names = slices.Compact(names)
	return fldValue{kind: fvText, class: "code:" + strings.Join(names, ","), label: strings.Join(names, ", ")}, true
}

// hasFamilyID reports whether the key has an id with a prefix ("Task 2.1"),
// not only a bare number.
func (k fldItemKey) hasFamilyID() bool {
	for _, id := range k.ids {
		if id.prefix != "" {
			return true
		}
	}
	return false
}

// fldContext is the words of the titles of the sections an item sits in
// (its own title excluded when the item is its section), below the
// document's title: where in the document the item is.
func fldContext(d *Document, f Field) words.Set {
	var b strings.Builder
	s := f.Section
	if f.Form != FormTable && s >= 0 {
		s = d.Sections[s].Parent // the item is the section itself
	}
	for ; s >= 0 && d.Sections[s].Depth > 0; s = d.Sections[s].Parent {
		b.WriteString(d.Sections[s].Title + " ")
	}
	return fldWords(b.String())
}

// fldWords is the significant words of a title, lightly stemmed.
func fldWords(s string) words.Set {
	var ws words.Set
	// "lease/heartbeat" names two things; "gate_states" one.
	words.Each(strings.ReplaceAll(s, "/", " "), func(w string) {
		if words.IsStopWord(w) || fldMinorWords[w] || fldNumeral(w) {
			return
		}
		ws = append(ws, fldStem(w))
	})
	slices.Sort(ws)
	return slices.Compact(ws)
}

// fldMinorWords carry no topic in an item's title, beyond the stop words.
var fldMinorWords = map[string]bool{"during": true, "after": true, "before": true, "without": true, "within": true,
	"when": true, "across": true, "per": true, "not": true, "no": true, "over": true, "under": true, "between": true,
	"while": true, "than": true, "too": true, "all": true, "any": true, "line": true, "lines": true}

// corroborate drops the weak matches nothing confirms. Two items whose
// titles barely overlap ("Certification agent too lenient", "Certification
// false passes") are taken for one only when they agree on some other
// field; items that differ in every field they share are more likely two
// different items than one item rated twice.
func corroborate(clustered map[string][][]fldRef) {
	type itemRef struct {
		v, section int
		item       string
	}
	ref := func(r fldRef) itemRef { return itemRef{r.Variant, r.Section, r.Item} }
	values := map[itemRef]map[string]fldRef{}
	for cls, clusters := range clustered {
		for _, cl := range clusters {
			for _, r := range cl {
				k := ref(r)
				if values[k] == nil {
					values[k] = map[string]fldRef{}
				}
				values[k][cls] = r
			}
		}
	}
	agreeElsewhere := func(a, b itemRef, except string) bool {
		for cls, x := range values[a] {
			if cls == except {
				continue
			}
			if y, ok := values[b][cls]; ok {
				if same, comparable := x.norm.agree(y.norm); comparable && same {
					return true
				}
			}
		}
		return false
	}
	for cls, clusters := range clustered {
		var out [][]fldRef
		for _, cl := range clusters {
			var kept, dropped []fldRef
			for _, r := range cl {
				if !r.weak {
					kept = append(kept, r)
					continue
				}
				ok := false
				for _, o := range kept {
					ok = ok || agreeElsewhere(ref(r), ref(o), cls)
				}
				if ok {
					kept = append(kept, r)
				} else {
					dropped = append(dropped, r)
				}
			}
			out = append(out, kept)
			for _, r := range dropped {
				r.weak = false
				out = append(out, []fldRef{r})
			}
		}
		clustered[cls] = out
	}
}

// ---- fields of one topic, for the content comparison ----

// topicField is one field compared within a topic: its values in the
// variants whose sections of the topic give it.
type topicField struct {
	name   string         // as the first variant giving it writes it
	item   string         // the table row's key; empty for the section itself
	byVar  map[int]fldRef // variant → value
	differ bool
}

// label is the field's name for people, with the row it belongs to when
// it comes from a table: "Verdict", "R-002 … / Probability".
func (tf topicField) label() string {
	if tf.item == "" {
		return tf.name
	}
	return clip(tf.item, 40) + " / " + tf.name
}

// nameIn is the field's name as variant v writes it.
func (tf topicField) nameIn(v int) string {
	r, ok := tf.byVar[v]
	if !ok || tf.item != "" {
		return tf.label()
	}
	return r.Name
}

// value is what variant v gives, for a table cell: the label when the
// value has one ("CONFIRMED HIGH"), else the value as written.
func (tf topicField) value(v int) string {
	r, ok := tf.byVar[v]
	if !ok {
		return "—"
	}
	if r.norm.kind == fvEnum && r.norm.label != "" {
		return r.norm.label
	}
	return clip(r.Value, 40)
}

// topicFields compares the labelled fields of a topic's sections (their
// own text, as the content comparison reads it): the fields at least two
// variants give comparable values for, the differing ones first, then in
// the order of the first variant's text.
func topicFields(docs []*Document, t topic) []topicField {
	byClass := map[string][]fldRef{}
	var classes []string
	for v, si := range t.sections {
		if si < 0 {
			continue
		}
		seen := map[string]int{}
		for _, nf := range sectionFields(docs[v])[si] {
			f, nv := nf.Field, nf.norm
			f.Variant = v
			cls := fldClass(f.Name, nv)
			if cls == "" || nv.kind == fvNone {
				continue
			}
			if f.Form != FormTable {
				f.Item = "" // the section is the item: the topic itself
			}
			r := fldRef{Field: f, norm: nv, class: cls, key: newFldItemKey(f.Item), topic: 0}
			dup := fmt.Sprintf("%d|%s|%s", f.Line, cls, f.Item)
			if f.Form != FormTable {
				dup = cls
			}
			if i, ok := seen[dup]; ok {
				if f.Form == FormTable {
					byClass[cls][i] = r
				}
				continue
			}
			if _, ok := byClass[cls]; !ok {
				classes = append(classes, cls)
			}
			seen[dup] = len(byClass[cls])
			byClass[cls] = append(byClass[cls], r)
		}
	}
	clustered := map[string][][]fldRef{}
	for _, cls := range classes {
		uniqueIDs(byClass[cls])
		clustered[cls] = fldMatchItems(byClass[cls], len(docs), nil)
	}
	corroborate(clustered)
	var out []topicField
	for _, cls := range classes {
		for _, cl := range clustered[cls] {
			if len(cl) < 2 {
				continue
			}
			tf := topicField{name: cl[0].Name, item: cl[0].Item, byVar: map[int]fldRef{}}
			comparable := false
			for i, r := range cl {
				tf.byVar[r.Variant] = r
				for _, o := range cl[i+1:] {
					if same, ok := r.norm.agree(o.norm); ok {
						comparable = true
						tf.differ = tf.differ || !same
					}
				}
			}
			if comparable {
				out = append(out, tf)
			}
		}
	}
	first := func(tf topicField) (int, int) {
		for v := range docs {
			if r, ok := tf.byVar[v]; ok {
				return v, r.Line
			}
		}
		return len(docs), 0
	}
	slices.SortStableFunc(out, func(a, b topicField) int {
		if a.differ != b.differ {
			if a.differ {
				return -1
			}
			return 1
		}
		av, al := first(a)
		bv, bl := first(b)
		if av != bv {
			return av - bv
		}
		return al - bl
	})
	return out
}

// fieldLines returns the lines of a variant's section that hold labelled
// fields with a value short enough to compare: a line that only labels a
// value ("**Verdict**: CONFIRMED", "**Confidence:** high") says too little
// to summarise the section. Table rows are not such lines.
func fieldLines(d *Document, v, si int) map[int]bool {
	lines := map[int]bool{}
	for _, f := range sectionFields(d)[si] {
		if f.Form != FormTable {
			lines[f.Line] = true
		}
	}
	return lines
}

// sentenceStart reports whether a would-be key opens a sentence rather
// than names a field: "The plan: …", "We decided: …".
func sentenceStart(key string) bool {
	first := strings.ToLower(strings.Fields(key)[0])
	switch first {
	case "we", "i", "you", "they", "he", "she", "it", "this", "that", "these", "those", "there", "here", "our", "my", "your", "their":
		return true
	}
	return words.IsStopWord(first)
}

// tokens are what an item key can be found by: its words, id numbers and
// citations; the document's header is found by the header.
func (k fldItemKey) tokens() []string {
	if k.header {
		return []string{"^header"}
	}
	out := slices.Clone([]string(k.words))
	for _, id := range k.ids {
		parts := make([]string, len(id.num))
		for i, n := range id.num {
			parts[i] = strconv.Itoa(n)
		}
		out = append(out, "#"+strings.Join(parts, "."))
	}
	for _, r := range k.refs {
		out = append(out, "@"+r)
	}
	return out
}
