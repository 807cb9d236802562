package diff

import (
	"slices"

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
	// Class is what the value is compared by when it is a word of a known
	// scale: values of one class agree ("CONFIRMED" and "Accurate" are
	// both "agree"; "CONFIRMED MEDIUM" is "MEDIUM"). Empty for numbers and
	// free text.
	Class string `json:"class,omitempty"`
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
	// lines is set for a value that is a range of source lines (a cited
	// location's correction): line numbers name lines, they do not
	// measure, so they agree only when equal.
	lines bool
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
	base := doc.Memo(fieldsKey{}, func() any { return extractFields(doc, nil) }).([]Field)
	out := slices.Clone(base)
	for i := range out {
		out[i].Variant = variant
	}
	return out
}

type fieldRefsKey struct{}

// fldRef is one extracted field with what the comparison derives.
type fldRef struct {
	Field
	norm  fldValue
	class string
	key   *fldItemKey // shared by the fields of one item: never changed in place
	topic int         // the aligned topic the field's section falls in, -1 for none
	where words.Set   // the words of the titles of the sections around the item
	weak  bool        // matched to its cluster by a weak title overlap
	// confirmed marks a weak match corroborate confirmed (see there): the
	// items are taken for one, and levels that cannot overlap contradict.
	confirmed bool
}

// docFieldRefs returns, once per document, every field with its
// normalised value, class (empty when it has none to compare by), item key
// and context: the per-document part of compareFields and topicFields. Variant is 0 and topic -1; the
// slice is shared, so callers copy each element before changing it.
func docFieldRefs(d *Document) []fldRef {
	return docFieldRefsWith(d, nil)
}

// docFieldRefsWith is docFieldRefs reading lines, values and item titles
// through a cache the documents of one analysis share (nil for none).
func docFieldRefsWith(d *Document, fc *fieldCache) []fldRef {
	return d.Memo(fieldRefsKey{}, func() any {
		fields := d.Memo(fieldsKey{}, func() any { return extractFields(d, fc) }).([]Field)
		out := make([]fldRef, 0, len(fields))
		// Many fields share an item (the section's title) and a context:
		// each is derived once. Keys and contexts are never changed in
		// place, so the fields can share them.
		keys := map[string]*fldItemKey{}
		type place struct {
			section int
			table   bool
		}
		contexts := map[place]words.Set{}
		for _, f := range fields {
			nv := fldNormaliseWith(f, fc)
			key, ok := keys[f.Item]
			if !ok {
				key = fc.itemKey(f.Item)
				keys[f.Item] = key
			}
			r := fldRef{Field: f, norm: nv, class: fc.class(f.Name, nv), key: key, topic: -1}
			if f.Section >= 0 && r.class != "" {
				at := place{f.Section, f.Form == FormTable}
				where, ok := contexts[at]
				if !ok {
					where = fldContext(d, f)
					contexts[at] = where
				}
				r.where = where
			}
			out = append(out, r)
		}
		return out
	}).([]fldRef)
}

type sectionFieldsKey struct{}

// sectionFields returns the document's fields whose values can be
// compared, normalised, classed and keyed once (see [docFieldRefs]) and
// grouped by section, for the steps that look at one section at a time.
// Variant is 0: callers set their own. The map and slices point into
// docFieldRefs's shared slice: read only.
func sectionFields(doc *Document) map[int][]*fldRef {
	return doc.Memo(sectionFieldsKey{}, func() any {
		refs := docFieldRefs(doc)
		size := map[int]int{}
		for i := range refs {
			if refs[i].norm.kind != fvNone {
				size[refs[i].Section]++
			}
		}
		bySection := make(map[int][]*fldRef, len(size))
		for i := range refs {
			if r := &refs[i]; r.norm.kind != fvNone {
				if bySection[r.Section] == nil {
					bySection[r.Section] = make([]*fldRef, 0, size[r.Section])
				}
				bySection[r.Section] = append(bySection[r.Section], r)
			}
		}
		return bySection
	}).(map[int][]*fldRef)
}
