package debate

import (
	"slices"
	"sort"
	"strings"
	"sync"

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
//   - A content point is contested when two or more of the debated
//     variants take positions on it: they give one labelled field
//     different values in the sections it compares, or their claims there
//     contradict each other; or, failing a detected conflict, their own
//     texts under headings on one subject differ, answer the same
//     question (texts of labelled lines share a label), and either
//     describe different things altogether (almost no words in common) or
//     each commits to something — what must or should be done, a
//     technology, a measured value. A topic the variants state in other
//     words, at another length or level of detail, under different labels
//     (one reviews a step's safety, another its dependencies), without
//     committing to anything, or that only one of them covers with text
//     of its own (the others have none, or only in subsections) is a
//     difference of coverage, not a conflict: there is nothing for the
//     advocates to settle, only a treatment to prefer.

// contestedPoints returns the ids of the contested points among points,
// in their order, judged on the debated variants only (a variant left out
// of an elimination round takes no position in it).
//
// A variant's view depends on the variant alone: m, the run's memo, keeps
// it for the other debates of an orchestrated run (nil computes it).
func contestedPoints(in Input, points []diff.Point, m *memo) []string {
	a := in.Analysis
	views := make([]*docView, len(a.Variants)) // by analysis index; nil when not debated
	for _, v := range in.Variants {
		if i := variantIndex(a, v.Label); i >= 0 {
			views[i] = docViewOf(m, a, v, i)
		}
	}
	cs := conflictsIn(m, a)
	idx := placeIndex{views: views, conflicts: cs}
	out := []string{}
	for _, p := range points {
		switch p.Category {
		case diff.CategoryUnique:
			continue
		case diff.CategoryContent:
			if !opposed(a, views, p, idx) {
				continue
			}
		}
		out = append(out, p.ID)
	}
	return out
}

// conflictList is the analysis's cross-variant contradictions, the ones
// that can make a content point opposed.
type conflictList struct {
	points []*diff.Point // in the analysis's Points
	// from holds where each conflict's statements start in a list of
	// every conflict's statements, one after the other.
	from []int
	n    int // statements in all
}

// conflictsIn returns the analysis's cross-variant contradictions, once
// per run (m is the run's memo).
func conflictsIn(m *memo, a *diff.Analysis) *conflictList {
	cl, _ := memoGet(m, "contest-conflicts", func() (*conflictList, error) {
		cl := &conflictList{}
		for i := range a.Points {
			if p := &a.Points[i]; p.Category == diff.CategoryContradiction && p.Scope != diff.IntraVariant {
				cl.points = append(cl.points, p)
				cl.from = append(cl.from, cl.n)
				cl.n += len(p.Evidence)
			}
		}
		return cl, nil
	})
	return cl
}

// placeIndex lists, by variant and section, the field disagreements with
// a value there and the conflicts with a statement there, so that a
// content point looks only at those under its own sections instead of
// every one of the analysis. A section and its subsections are a run of
// consecutive section indexes, so each variant's lists are kept in
// section order: the entries under a section are one slice. A variant's
// lists depend on the variant alone: its view keeps them (see places).
type placeIndex struct {
	views     []*docView // by variant; nil when not debated
	conflicts *conflictList
}

// variantPlaces are one variant's lists of a placeIndex.
type variantPlaces struct {
	fields    sectionLists // indexes in the analysis's Fields
	conflicts sectionLists // indexes in the conflictList
	// at holds the section of each of the variant's statements in the
	// conflicts, by the statement's place in the conflictList's list of
	// statements (-1 for the other variants' statements).
	at []int32
}

// sectionOf returns the section of statement k of conflict xi, which
// must be a debated variant's.
func (idx placeIndex) sectionOf(xi, k, v int) int {
	return int(idx.views[v].places(idx.conflicts).at[idx.conflicts.from[xi]+k])
}

// sectionLists holds indexes grouped by section, in section order:
// those of section s are items[start[s]:start[s+1]].
type sectionLists struct {
	start []int
	items []int
}

// under returns the entries of sections top to end-1.
func (l sectionLists) under(top, end int) []int {
	if len(l.start) == 0 {
		return nil
	}
	return l.items[l.start[top]:l.start[end]]
}

// newSectionLists groups (section, index) pairs, given in index order,
// by section; an index is listed once per section.
func newSectionLists(sections int, pairs [][2]int) sectionLists {
	l := sectionLists{start: make([]int, sections+2)}
	kept := pairs[:0:0]
	// last holds, by section, the index last kept there + 1: indexes come
	// in order, so a repeat is the pair kept last in its section.
	last := make([]int, sections)
	for _, p := range pairs {
		if p[0] < 0 || p[0] >= sections || last[p[0]] == p[1]+1 {
			continue
		}
		last[p[0]] = p[1] + 1
		kept = append(kept, p)
		l.start[p[0]+2]++
	}
	for s := 2; s < len(l.start); s++ {
		l.start[s] += l.start[s-1]
	}
	l.items = make([]int, len(kept))
	for _, p := range kept { // stable: indexes stay in order within a section
		l.items[l.start[p[0]+1]] = p[1]
		l.start[p[0]+1]++
	}
	return l
}

// places returns the variant's lists of the place index, built once.
func (dv *docView) places(cl *conflictList) *variantPlaces {
	dv.placesOnce.Do(func() { dv.placeLists = newVariantPlaces(dv, cl) })
	return dv.placeLists
}

func newVariantPlaces(dv *docView, cl *conflictList) *variantPlaces {
	a, v := dv.analysis, dv.variant
	vp := &variantPlaces{at: make([]int32, cl.n)}
	var fields [][2]int
	for fi, f := range a.Fields {
		for _, fv := range f.Values {
			if fv.Variant == v {
				fields = append(fields, [2]int{fv.Section, fi})
			}
		}
	}
	var stmts [][2]int
	for xi, x := range cl.points {
		for k, e := range x.Evidence {
			at := -1
			if e.Variant == v {
				at = sectionOfLine(dv.doc, e.Line)
				stmts = append(stmts, [2]int{at, xi})
			}
			vp.at[cl.from[xi]+k] = int32(at)
		}
	}
	vp.fields = newSectionLists(len(dv.doc.Sections), fields)
	vp.conflicts = newSectionLists(len(dv.doc.Sections), stmts)
	return vp
}

// near returns the field disagreements and conflicts with a value or a
// statement in a section p compares or below it: the only ones that can
// make p opposed. Each needs values or statements in two variants' compared
// sections, so it is listed under at least one variant other than the
// one with the longest lists: those are left out, so that a point that
// compares a whole document in one variant with one section in another
// looks at the few under that section, not at every one in the document.
// The lists are sorted and without repeats.
func (idx placeIndex) near(p diff.Point) (fields, conflicts []int) {
	views := idx.views
	type span struct{ v, top, end int }
	var spans []span
	for v := range p.Positions {
		top := p.Positions[v].Section
		if v >= len(views) || views[v] == nil || top < 0 || top >= len(views[v].doc.Sections) {
			continue
		}
		spans = append(spans, span{v, top, subtreeEnd(views[v].doc, top)})
	}
	gather := func(lists func(v int) sectionLists) []int {
		largest, most := -1, -1
		for k, sp := range spans {
			if n := len(lists(sp.v).under(sp.top, sp.end)); n > most {
				largest, most = k, n
			}
		}
		var out []int
		for k, sp := range spans {
			if k != largest {
				out = append(out, lists(sp.v).under(sp.top, sp.end)...)
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return gather(func(v int) sectionLists { return views[v].places(idx.conflicts).fields }),
		gather(func(v int) sectionLists { return views[v].places(idx.conflicts).conflicts })
}

// subtreeEnd returns the index after the last subsection of section top.
func subtreeEnd(d *diff.Document, top int) int {
	secs := d.Sections
	end := secs[top].Span.End
	return top + 1 + sort.Search(len(secs)-top-1, func(k int) bool { return secs[top+1+k].Span.Start >= end })
}

// docView is what the rule reads of one debated variant, gathered once:
// its labelled fields by section and the sections whose own text commits
// to something.
type docView struct {
	doc      *diff.Document
	analysis *diff.Analysis
	variant  int // the analysis's index of the variant
	fields   map[int][]diff.Field
	commits  map[int]bool // a prescription, a technology or a measured value of the section's own
	// own holds each section's own text (see ownTextOf), built the first
	// time a point asks for it: many points compare the same section, and
	// building its word set is most of what comparing it costs.
	own []ownTextCell
	// placeLists are the variant's lists of the contested points' place
	// index (see places).
	placesOnce sync.Once
	placeLists *variantPlaces
}

type ownTextCell struct {
	once       sync.Once
	t          ownText
	fieldsOnce sync.Once
	fields     []shortField // see shortFields
	titleOnce  sync.Once
	title      words.Set // the heading's words (see sameSubject)
}

// titleSet returns words.NewSet of section s's title, made once per
// section: every point that compares the section, in every debate of the
// run, compares its heading.
func (dv *docView) titleSet(s int) words.Set {
	if s < 0 || s >= len(dv.own) {
		return words.NewSet(dv.doc.Sections[s].Title)
	}
	c := &dv.own[s]
	c.titleOnce.Do(func() { c.title = words.NewSet(dv.doc.Sections[s].Title) })
	return c.title
}

// docViewOf returns variant v's view (at index i of the analysis), kept
// in m.
func docViewOf(m *memo, a *diff.Analysis, v Variant, i int) *docView {
	dv, _ := memoGet(m, "doc-view\x00"+v.Label, func() (*docView, error) { return newDocView(a, v.Doc, i), nil })
	return dv
}

func newDocView(a *diff.Analysis, d *diff.Document, v int) *docView {
	dv := &docView{doc: d, analysis: a, variant: v, fields: map[int][]diff.Field{}, commits: map[int]bool{}, own: make([]ownTextCell, len(d.Sections))}
	// The fields grouped by section, in their order: the document's own
	// slice, read-only (the view reads no field's variant), in which a
	// section's fields follow one another when their sections never go
	// back; else copied, counted first, each section's a slice of one
	// array.
	fields := diff.SharedFields(d)
	ordered := true
	for i := 1; i < len(fields) && ordered; i++ {
		ordered = fields[i].Section >= fields[i-1].Section
	}
	if ordered {
		for i := 0; i < len(fields); {
			j := i + 1
			for j < len(fields) && fields[j].Section == fields[i].Section {
				j++
			}
			dv.fields[fields[i].Section] = fields[i:j:j]
			i = j
		}
	} else {
		count := map[int]int{}
		for _, f := range fields {
			count[f.Section]++
		}
		grouped := make([]diff.Field, 0, len(fields))
		for _, f := range fields {
			if got, ok := dv.fields[f.Section]; ok {
				dv.fields[f.Section] = append(got, f)
				continue
			}
			n := count[f.Section]
			start := len(grouped)
			grouped = grouped[:start+n]
			dv.fields[f.Section] = append(grouped[start:start:start+n], f)
		}
	}
	claims := diff.SharedClaims(d) // read-only: the view reads no claim's variant
	for i := range claims {
		if c := &claims[i]; c.Type == diff.Requirement || c.Choice != nil || len(c.Quantities) > 0 {
			dv.commits[c.Section] = true
		}
	}
	return dv
}

// opposed reports whether two or more debated variants take positions on
// content point p (see the rule above).
func opposed(a *diff.Analysis, views []*docView, p diff.Point, idx placeIndex) bool {
	// view returns variant v's view and the section p compares of it,
	// when v is debated and p compares one.
	view := func(v int) (*docView, int, bool) {
		if v < 0 || v >= len(views) || views[v] == nil || v >= len(p.Positions) || p.Positions[v].Section < 0 {
			return nil, -1, false
		}
		return views[v], p.Positions[v].Section, true
	}
	// inSection reports whether section s of variant v lies in the
	// section p compares for it, or below it.
	inSection := func(v, s int) bool {
		dv, top, ok := view(v)
		return ok && under(dv.doc, s, top)
	}
	fieldsNear, conflictsNear := idx.near(p)
	for _, fi := range fieldsNear {
		f := a.Fields[fi]
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
	for _, xi := range conflictsNear {
		x := idx.conflicts.points[xi]
		first := -1 // the first variant with a statement in a compared section
		for k, e := range x.Evidence {
			if e.Variant == first {
				continue
			}
			if _, _, ok := view(e.Variant); ok && inSection(e.Variant, idx.sectionOf(xi, k, e.Variant)) {
				if first >= 0 {
					return true // a second variant's
				}
				first = e.Variant
			}
		}
	}
	if ownFieldsDiffer(views, p) {
		return true
	}
	// Failing a detected conflict, the variants' own texts must state
	// something, differ and answer the same question. The headings are
	// compared first: their words are few, and a point whose headings
	// share none needs no word set of the texts.
	if !sameSubject(views, p) {
		return false
	}
	var texts []ownText
	committing := 0
	for v := range p.Positions {
		dv, s, ok := view(v)
		if !ok {
			continue
		}
		if t := ownTextOf(dv, s); len(t.words) > 0 {
			texts = append(texts, t)
			if dv.commits[s] {
				committing++
			}
		}
	}
	if len(texts) < 2 {
		return false // one variant's text: coverage, not a position
	}
	differ, shareLabels, apart := false, false, false
	for i, x := range texts {
		for _, y := range texts[i+1:] {
			d := x.words.Dice(y.words)
			differ = differ || d < sameWording
			apart = apart || d < otherApproach
			shareLabels = shareLabels || len(x.labels) == 0 || len(y.labels) == 0 || x.sharesLabel(y)
		}
	}
	// Texts made of labelled lines that share no label answer different
	// questions (one reviews a step's safety, another its dependencies).
	if !differ || !shareLabels {
		return false
	}
	return apart || committing >= 2
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
// It is computed once per section and shared: callers only read it.
func ownTextOf(dv *docView, s int) ownText {
	if s < 0 || s >= len(dv.own) {
		return buildOwnText(dv, s)
	}
	c := &dv.own[s]
	c.once.Do(func() { c.t = buildOwnText(dv, s) })
	return c.t
}

func buildOwnText(dv *docView, s int) ownText {
	d := dv.doc
	// The blocks' texts joined by spaces, in one allocation; a section of
	// one block is its text (a space more or less splits no word).
	blocks := d.BlocksIn(d.Sections[s].Body())
	own := func(blk *diff.Block) bool { return blk.Section == s && blk.Kind != diff.Code && !blk.Header }
	n, count, only := 0, 0, ""
	for i := range blocks {
		if own(&blocks[i]) {
			n += len(blocks[i].Text) + 1
			count++
			only = blocks[i].Text
		}
	}
	text := only
	if count > 1 {
		var b strings.Builder
		b.Grow(n)
		for i := range blocks {
			if own(&blocks[i]) {
				b.WriteString(blocks[i].Text)
				b.WriteByte(' ')
			}
		}
		text = b.String()
	}
	t := ownText{words: words.NewSet(text)}
	for _, f := range dv.fields[s] {
		if f.Form != diff.FormTable {
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
func ownFieldsDiffer(views []*docView, p diff.Point) bool {
	var first map[string]string // field → the first variant's value
	for v, pos := range p.Positions {
		if v >= len(views) || views[v] == nil || pos.Section < 0 {
			continue
		}
		for _, f := range views[v].shortFields(pos.Section) {
			if first == nil {
				first = map[string]string{}
			}
			if val, ok := first[f.key]; !ok {
				first[f.key] = f.val
			} else if val != f.val {
				return true
			}
		}
	}
	return false
}

// shortField is a labelled field of a section's own with a short value,
// as ownFieldsDiffer compares it: the field's key (its name, and a
// table's item) and its value, normalised.
type shortField struct{ key, val string }

// shortFields returns the short fields of section s, the first value of
// each key, built once per section: every point that compares the section
// reads them.
func (dv *docView) shortFields(s int) []shortField {
	if s < 0 || s >= len(dv.own) {
		return buildShortFields(dv.fields[s])
	}
	c := &dv.own[s]
	c.fieldsOnce.Do(func() { c.fields = buildShortFields(dv.fields[s]) })
	return c.fields
}

func buildShortFields(fields []diff.Field) []shortField {
	var out []shortField
	var seen map[string]bool // the keys in out, for a section of many fields (a table's)
	if len(fields) > 8 {
		seen = make(map[string]bool, len(fields))
	}
	for _, f := range fields {
		val := normalValue(f.Value)
		if val == "" || hasFields(val, 4) { // more than three words
			continue
		}
		key := normalValue(f.Name)
		if f.Form == diff.FormTable {
			key += "\x00" + normalValue(f.Item)
		}
		switch {
		case seen != nil:
			if seen[key] {
				continue
			}
			seen[key] = true
		case slices.ContainsFunc(out, func(o shortField) bool { return o.key == key }):
			continue
		}
		out = append(out, shortField{key, val})
	}
	return out
}

// normalValue is a field's name or value compared: lower case, markup and
// closing punctuation removed, spaces collapsed.
func normalValue(s string) string {
	s = strings.Trim(strings.ToLower(s), "*_`'\" .,;:")
	return words.OneLine(s)
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
func sameSubject(views []*docView, p diff.Point) bool {
	var titles []words.Set
	for v, pos := range p.Positions {
		if v < len(views) && views[v] != nil && pos.Section >= 0 {
			titles = append(titles, views[v].titleSet(pos.Section))
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
