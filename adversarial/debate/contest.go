package debate

import (
	"slices"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/words"
)

// Which points are contested. The debate argues every point it is given,
// but only some of them are conflicts: convergence, the status and the
// unresolved conflicts count those, and the rest are debated for their
// value (which variant's treatment to keep) and reported apart.
//
//   - A structural point is contested: every variant organises the
//     document one way or another, so each takes a position.
//   - A contradiction is contested: its claims cannot all hold.
//   - A unique contribution is not: one variant adds something the others
//     say nothing about.
//   - A content point is contested only when two or more of the debated
//     variants take positions on it: they give different values for one
//     labelled field in the sections it compares, their claims there
//     contradict each other, or each prescribes something in the section's
//     own text (what must or should be done, which technology to use) —
//     different prescriptions for one topic are competing positions even
//     where no detector names the conflict. A topic the variants describe
//     in other words, at another length or level of detail, under
//     different labels (one reviews a step's safety, another its
//     dependencies), or that only one of them covers with text of its own
//     (the others have none, or only in subsections) is a difference of
//     coverage, not a conflict: there is nothing for the advocates to
//     settle, only a treatment to prefer.

// contestedPoints returns the ids of the contested points among points,
// in their order, judged on the debated variants only (a variant left out
// of an elimination round takes no position in it).
func contestedPoints(in Input, points []diff.Point) []string {
	a := in.Analysis
	docs := make([]*diff.Document, len(a.Variants)) // by analysis index; nil when not debated
	for _, v := range in.Variants {
		if i := variantIndex(a, v.Label); i >= 0 {
			docs[i] = v.Doc
		}
	}
	var conflicts []diff.Point
	for _, p := range a.Points {
		if p.Category == diff.CategoryContradiction && p.Scope != diff.IntraVariant {
			conflicts = append(conflicts, p)
		}
	}
	out := []string{}
	for _, p := range points {
		switch p.Category {
		case diff.CategoryUnique:
			continue
		case diff.CategoryContent:
			if !opposed(a, docs, p, conflicts) {
				continue
			}
		}
		out = append(out, p.ID)
	}
	return out
}

// opposed reports whether two or more debated variants take positions
// inside the sections content point p compares: different values of one
// labelled field, the claims of one contradiction, or prescriptions of
// their own.
func opposed(a *diff.Analysis, docs []*diff.Document, p diff.Point, conflicts []diff.Point) bool {
	// in reports whether variant v's line or section lies in the section
	// p compares for it, or below it.
	inSection := func(v, section int) bool {
		if v < 0 || v >= len(docs) || docs[v] == nil || v >= len(p.Positions) {
			return false
		}
		return under(docs[v], section, p.Positions[v].Section)
	}
	for _, f := range a.Fields {
		var vals []diff.FieldValue
		for _, fv := range f.Values {
			if inSection(fv.Variant, fv.Section) {
				vals = append(vals, fv)
			}
		}
		if distinctVariants(vals) >= 2 && !sameValues(vals) {
			return true
		}
	}
	for _, x := range conflicts {
		seen := map[int]bool{}
		for _, e := range x.Evidence {
			if e.Variant >= 0 && e.Variant < len(docs) && docs[e.Variant] != nil && inSection(e.Variant, sectionOfLine(docs[e.Variant], e.Line)) {
				seen[e.Variant] = true
			}
		}
		if len(seen) >= 2 {
			return true
		}
	}
	if ownFieldsDiffer(docs, p) {
		return true
	}
	// Otherwise the variants' own texts must state something, differ, and
	// answer the same question.
	var texts []ownText
	for v, pos := range p.Positions {
		if v < len(docs) && docs[v] != nil && pos.Section >= 0 {
			if t := ownTextOf(docs[v], v, pos.Section); len(t.words) > 0 {
				texts = append(texts, t)
			}
		}
	}
	if len(texts) < 2 {
		return false // one variant's text: coverage, not a position
	}
	if !sameSubject(docs, p) {
		return false
	}
	differ, shareLabels, apart := false, false, false
	for i, a := range texts {
		for _, b := range texts[i+1:] {
			d := a.words.Dice(b.words)
			differ = differ || d < sameWording
			apart = apart || d < otherApproach
			shareLabels = shareLabels || len(a.labels) == 0 || len(b.labels) == 0 || a.sharesLabel(b)
		}
	}
	// Texts made of labelled lines that share no label answer different
	// questions (one reviews a step's safety, another its dependencies).
	if !differ || !shareLabels {
		return false
	}
	if apart {
		return true
	}
	committing := 0
	for v, pos := range p.Positions {
		if v < len(docs) && docs[v] != nil && pos.Section >= 0 && commits(docs[v], v, pos.Section) {
			committing++
		}
	}
	return committing >= 2
}

// commits reports whether the text directly under section s (not its
// subsections, which are topics of their own) commits to something: what
// must or should be done, a technology, a measured value.
func commits(d *diff.Document, v, s int) bool {
	for _, c := range diff.ExtractClaims(d, v) {
		if c.Section == s && (c.Type == diff.Requirement || c.Choice != nil || len(c.Quantities) > 0) {
			return true
		}
	}
	return false
}

// sameWording is the word overlap from which two texts say the same thing
// in other words (the diff step calls less materially different).
const sameWording = 0.5

// otherApproach is the word overlap under which two texts on one topic
// describe different things: another mechanism, another plan.
const otherApproach = 0.12

// ownText is what a variant writes directly under a section.
type ownText struct {
	words words.Set
	// labels are the names of the labelled fields there, normalised;
	// nil when the text has none.
	labels map[string]bool
}

func (t ownText) sharesLabel(o ownText) bool {
	for l := range t.labels {
		if o.labels[l] {
			return true
		}
	}
	return false
}

// ownTextOf returns the text directly under section s, without its
// subsections (topics of their own) and without code.
func ownTextOf(d *diff.Document, v, s int) ownText {
	var b strings.Builder
	for _, blk := range d.BlocksIn(d.Sections[s].Body()) {
		if blk.Section == s && blk.Kind != diff.Code && !blk.Header {
			b.WriteString(blk.Text)
			b.WriteByte(' ')
		}
	}
	t := ownText{words: words.NewSet(b.String())}
	for _, f := range diff.ExtractFields(d, v) {
		if f.Section == s && f.Form != diff.FormTable {
			if t.labels == nil {
				t.labels = map[string]bool{}
			}
			t.labels[normalValue(f.Name)] = true
		}
	}
	return t
}

// ownFieldsDiffer reports whether two or more debated variants give one
// labelled field of the compared sections' own text (a table's field of
// one row) different short values: "estimated_tokens: 300" against
// "estimated_tokens: 500". The analysis's field disagreements are matched
// across the documents by item; this catches those of the aligned
// sections themselves, whatever their items are called.
func ownFieldsDiffer(docs []*diff.Document, p diff.Point) bool {
	values := map[string]map[int]string{} // field → variant → its first value
	for v, pos := range p.Positions {
		if v >= len(docs) || docs[v] == nil || pos.Section < 0 {
			continue
		}
		for _, f := range diff.ExtractFields(docs[v], v) {
			val := normalValue(f.Value)
			if f.Section != pos.Section || val == "" || len(strings.Fields(val)) > 3 {
				continue
			}
			key := normalValue(f.Name)
			if f.Form == diff.FormTable {
				key += "\x00" + normalValue(f.Item)
			}
			if values[key] == nil {
				values[key] = map[int]string{}
			}
			if _, ok := values[key][v]; !ok {
				values[key][v] = val
			}
		}
	}
	for _, byVariant := range values {
		first := ""
		for _, val := range byVariant {
			if first == "" {
				first = val
			} else if val != first {
				return true
			}
		}
	}
	return false
}

// normalValue is a field's name or value compared: lower case, markup and
// closing punctuation removed, spaces collapsed.
func normalValue(s string) string {
	s = strings.Trim(strings.ToLower(s), "*_`'\" .,;:")
	return strings.Join(strings.Fields(s), " ")
}

// under reports whether section s is top or one of its descendants.
func under(d *diff.Document, s, top int) bool {
	for top >= 0 && s >= 0 && s < len(d.Sections) {
		if s == top {
			return true
		}
		s = d.Sections[s].Parent
	}
	return false
}

// sectionOfLine returns the section holding the block on line, -1 when no
// block is there.
func sectionOfLine(d *diff.Document, line int) int {
	i, _ := slices.BinarySearchFunc(d.Blocks, line, func(b diff.Block, l int) int {
		switch {
		case b.EndLine < l:
			return -1
		case b.Line > l:
			return 1
		}
		return 0
	})
	if i < len(d.Blocks) && d.Blocks[i].Line <= line && line <= d.Blocks[i].EndLine {
		return d.Blocks[i].Section
	}
	return -1
}

func distinctVariants(vals []diff.FieldValue) int {
	seen := map[int]bool{}
	for _, v := range vals {
		seen[v.Variant] = true
	}
	return len(seen)
}

// sameValues reports whether the values agree: all of one class when
// they have one, else written alike.
func sameValues(vals []diff.FieldValue) bool {
	key := func(v diff.FieldValue) string {
		if v.Class != "" {
			return "class:" + v.Class
		}
		return normalValue(v.Value)
	}
	for _, v := range vals[1:] {
		if key(v) != key(vals[0]) {
			return false
		}
	}
	return true
}

// sameSubject reports whether the headings of the compared sections share
// a significant word: sections aligned by their content alone ("SY-5:
// Context token reduction" beside "S3: KEEP -- primary") may discuss
// different items, on which the variants cannot take opposing positions.
func sameSubject(docs []*diff.Document, p diff.Point) bool {
	var titles []words.Set
	for v, pos := range p.Positions {
		if v < len(docs) && docs[v] != nil && pos.Section >= 0 {
			titles = append(titles, words.NewSet(docs[v].Sections[pos.Section].Title))
		}
	}
	for i, a := range titles {
		for _, b := range titles[i+1:] {
			if a.Intersect(b) > 0 {
				return true
			}
		}
	}
	return len(titles) < 2
}
