package debate

import (
	"fmt"
	"math"
	mathbits "math/bits"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/words"
)

// This file measures how good each variant's answer to a diff point is,
// for the heuristic advocate. Every advocate of a debate computes the same
// scores (they depend only on the documents and the analysis); advocates
// differ only in the loyalty margin they grant their own variant.

// docFacts are per-document measures.
type docFacts struct {
	// conflicts lists, for each contradiction the diff analysis found
	// within the document, the sections its claims lie in.
	conflicts [][]int
	blocks    []blockFacts // one per block of the document
	// fields maps a line of the document that gives a labelled value the
	// variants disagree on to how many other variants give a value of the
	// same class, and how many give one at all.
	fields map[int]fieldSupport
	// refs holds each section's sectionRef, which every mark of the
	// section cites.
	refs []string
	// quotes holds quoteOf of each block's text, made the first time a
	// mark quotes the block (sections quote the blocks of their
	// subsections too); quoted tells which are made.
	quotes []string
	quoted []bool
	// noConflict is the measure of a contradiction inside another
	// variant, the same for every such point.
	noConflict string
}

// quote returns quoteOf of block i's text, made once.
func (f *docFacts) quote(d *diff.Document, i int) string {
	if f.quoted == nil {
		f.quotes, f.quoted = make([]string, len(d.Blocks)), make([]bool, len(d.Blocks))
	}
	if !f.quoted[i] {
		f.quotes[i], f.quoted[i] = quoteOf(d.Text(d.Blocks[i].Span)), true
	}
	return f.quotes[i]
}

// fieldSupport is the other variants' agreement with one labelled value.
type fieldSupport struct{ agree, others int }

// blockFacts measures one block, so that nested sections do not scan
// their text again.
type blockFacts struct {
	words, sentences, concrete, vague int
	reqs                              []string // requirement ids
	statement                         bool     // see isStatement
}

// measureDoc gathers the document's internal contradictions from the diff
// analysis (the diff step's detectors already ran over it) and measures
// its blocks.
func measureDoc(a *diff.Analysis, idx int, d *diff.Document) *docFacts {
	f := &docFacts{blocks: make([]blockFacts, len(d.Blocks)), refs: make([]string, len(d.Sections))}
	bySection := make(map[string]int, len(d.Sections))
	for i := range d.Sections {
		f.refs[i] = sectionRef(d, i)
		bySection[f.refs[i]] = i
	}
	ind := d.BlockIndicators()
	for i, b := range d.Blocks {
		bf := &f.blocks[i]
		if src := d.Text(b.Span); strings.IndexByte(src, '-') >= 0 { // every id holds a hyphen
			bf.reqs = lexicon.RequirementIDs(src)
		}
		if b.Kind != diff.Code {
			bf.words, bf.concrete, bf.vague = words.Count(b.Text), ind[i].Concrete, ind[i].Vague
			bf.sentences = sentences(b.Text)
			bf.statement = isStatement(b.Text)
		}
	}
	for _, fd := range a.Fields {
		for _, v := range fd.Values {
			if v.Variant != idx || v.Class == "" {
				continue
			}
			fs := fieldSupport{}
			for _, o := range fd.Values {
				if o.Variant != idx && o.Class != "" {
					fs.others++
					if o.Class == v.Class {
						fs.agree++
					}
				}
			}
			if f.fields == nil {
				f.fields = map[int]fieldSupport{}
			}
			f.fields[v.Line] = fs
		}
	}
	for _, p := range a.Points {
		if p.Category != diff.CategoryContradiction || p.Scope != diff.IntraVariant || len(p.Variants) != 1 || p.Variants[0] != idx {
			continue
		}
		var secs []int
		for _, e := range p.Evidence {
			if si, ok := bySection[e.Section]; ok && e.Variant == idx {
				secs = append(secs, si)
			}
		}
		f.conflicts = append(f.conflicts, secs)
	}
	f.noConflict = noConflictMeasure(f)
	return f
}

// noConflictMeasure is the measure of a contradiction inside another
// variant, for a document with f's own.
func noConflictMeasure(f *docFacts) string {
	if n := len(f.conflicts); n > 0 {
		return "does not contain this conflict (it has " + plural(n, "other internal contradiction") + " elsewhere)"
	}
	return "does not contain this conflict, nor any other inside itself"
}

// mark is one variant's answer to one point: a score in [0, 1], what was
// measured, and an exact line of the variant to quote.
type mark struct {
	score    float64
	measure  string
	quote    string // exact text of one source line of the variant; may be empty
	line     int
	section  string
	involved bool // the variant takes a position on the point
}

// ref formats the mark as a position's evidence: the citation, then what
// was measured.
func (m mark) ref(label string) string {
	var w refWriter
	w.grow(m.refLen(label))
	m.writeRef(&w, label)
	return w.String()
}

// writeRef writes ref(label) to w: cite(label) + ": " + measure, or
// "Variant " + label + " " + measure without a quote.
func (m mark) writeRef(w *refWriter, label string) {
	if m.quote == "" {
		w.str("Variant ")
		w.str(label)
		w.str(" ")
		w.str(m.measure)
		return
	}
	w.str("“")
	w.str(m.quote)
	w.str("” (Variant ")
	w.str(label)
	if m.section != "" {
		w.str(", §")
		w.str(m.section)
	}
	w.str(", L")
	w.int(m.line)
	w.str("): ")
	w.str(m.measure)
}

// refLen is at least len(m.ref(label)), with room for the line number.
func (m mark) refLen(label string) int {
	return len(m.quote) + len(label) + len(m.section) + len(m.measure) + 48
}

// refWriter builds a position's evidence in one allocation: a
// strings.Builder grown once to the caller's estimate.
type refWriter struct {
	b   strings.Builder
	num [24]byte
}

func (w *refWriter) grow(n int)     { w.b.Grow(n) }
func (w *refWriter) str(s string)   { w.b.WriteString(s) }
func (w *refWriter) String() string { return w.b.String() }

func (w *refWriter) int(i int) { w.b.Write(strconv.AppendInt(w.num[:0], int64(i), 10)) }

// float writes f with two decimals, as fmt's %.2f.
func (w *refWriter) float(f float64) { w.b.Write(strconv.AppendFloat(w.num[:0], f, 'f', 2, 64)) }

// cite quotes the mark's line with its place: “quote” (Variant B, §2
// Storage, L10); without a quote it says what was measured.
func (m mark) cite(label string) string {
	if m.quote == "" {
		return "Variant " + label + " " + m.measure
	}
	// Concatenation, not fmt: every advocate's turn cites a mark per point.
	section := ""
	if m.section != "" {
		section = ", §" + m.section
	}
	return "“" + m.quote + "” (Variant " + label + section + ", L" + strconv.Itoa(m.line) + ")"
}

// assessment scores every variant of a debate on every point under debate.
type assessment struct {
	labels []string
	points []pointMarks
	// index maps each point's id to its place in points (see
	// argument.pointIndex), built once for the debate's turns.
	index *pointIndex
}

type pointIndex struct {
	once sync.Once
	m    map[string]int
}

type pointMarks struct {
	point *diff.Point // in the turn's Points, which the debate's turns share
	marks markSet
	best  string // highest score; the first in input order on a tie
	// bestRef is marks[best].ref(best): the evidence of every advocate
	// that prefers the best variant on the point, in every round.
	bestRef string
}

// markSet holds a point's mark of each variant of a debate, by label: a
// handful of variants, looked up by every advocate on every point, so a
// slice beside the debate's labels rather than a map per point. The
// marks are the variants' own measures (see variantMeasures), read in
// place rather than copied for every debate of a run.
type markSet struct {
	labels []string // shared by every point of the assessment
	marks  [][]mark // marks[i][k] is labels[i]'s; shared by every point
	k      int      // the point's place in marks[i]
}

// get returns the label's mark, the zero mark for a label not debated:
// the mark itself, which callers only read (the advocates read marks
// point by point, and copying each cost more than reading it).
func (s markSet) get(label string) *mark {
	for i, l := range s.labels {
		if l == label {
			return &s.marks[i][s.k]
		}
	}
	return &mark{}
}

// at returns the mark of labels[i].
func (s markSet) at(i int) *mark { return &s.marks[i][s.k] }

// assess scores the turn's variants on the turn's points. The result is
// the same for every advocate of a debate.
func assess(turn Turn) assessment {
	a := assessment{labels: turn.Labels(), points: make([]pointMarks, 0, len(turn.Points)), index: &pointIndex{}}
	vars := turn.Variants()
	var covered []*diff.Topic // the structural points' (see structureMark), when there is one
	coveredDone := false
	own := make([]*variantMeasures, len(vars))
	labels := make([]string, len(vars))
	marks := make([][]mark, len(vars))
	for i, v := range vars {
		labels[i] = v.Label
	}
	for i, v := range vars {
		own[i] = measureVariant(turn.memo.root(), turn.Analysis, turn.Points, v)
		marks[i] = own[i].marks
	}
	for k, p := range turn.Points {
		pm := pointMarks{point: &turn.Points[k], marks: markSet{labels: labels, marks: marks, k: k}}
		if p.Category == diff.CategoryStructural {
			// The one measure that depends on the other variants
			// debating: the share of their topics this one covers. The
			// point's marks are the debate's own.
			if !coveredDone {
				covered, coveredDone = coveredTopics(turn.Analysis, vars), true
			}
			pm.marks = markSet{labels: labels, marks: make([][]mark, len(vars))}
			for i, v := range vars {
				pm.marks.marks[i] = []mark{finishMark(p, own[i].idx, structureMark(p, own[i].idx, v.Doc, own[i].facts, covered))}
			}
		}
		for _, l := range a.labels {
			if pm.best == "" || pm.marks.get(l).score > pm.marks.get(pm.best).score {
				pm.best = l
			}
		}
		pm.bestRef = pm.marks.get(pm.best).ref(pm.best)
		a.points = append(a.points, pm)
	}
	return a
}

// variantMeasures are one variant's measures that do not depend on which
// other variants it debates: its document facts and its mark on every
// point but the structural ones.
type variantMeasures struct {
	idx   int
	facts *docFacts
	marks []mark // by the point's place in the debate's points
}

// measureVariant measures a variant on the points once per run: the
// elimination rounds and the final of an orchestrated run share it
// (m is the run's memo), and warmMeasures computes it while the
// advocates' first turns are in flight.
func measureVariant(m *memo, a *diff.Analysis, points []diff.Point, v Variant) *variantMeasures {
	vm, _ := memoGet(m, "variant-measures\x00"+v.Label, func() (*variantMeasures, error) {
		idx := variantIndex(a, v.Label)
		out := &variantMeasures{idx: idx, facts: measureDoc(a, idx, v.Doc), marks: make([]mark, len(points))}
		conflicts := conflictsOf(m, points)
		for k, p := range points {
			if p.Category != diff.CategoryStructural {
				out.marks[k] = finishMark(p, idx, markPoint(m, p, idx, v.Doc, out.facts, nil, conflicts[k]))
			}
		}
		return out, nil
	})
	return vm
}

// conflictsOf returns, for each contradiction among the points, what
// contradictionMark reads of it from any variant's side (see
// newConflictEvidence), once per run: every variant's mark looks at the
// same statements, and comparing each variant's statements with all the
// others' from every side compared each pair twice, with the quotes
// trimmed again for every comparison.
func conflictsOf(m *memo, points []diff.Point) []*conflictEvidence {
	out, _ := memoGet(m, "conflict-evidence", func() ([]*conflictEvidence, error) {
		out := make([]*conflictEvidence, len(points))
		n := 0
		for k := range points {
			if points[k].Category == diff.CategoryContradiction {
				n += len(points[k].Evidence)
			}
		}
		qs := newQuoteTable(n) // many statements are cited by several points
		for k := range points {
			if points[k].Category == diff.CategoryContradiction {
				out[k] = newConflictEvidence(&points[k], qs)
			}
		}
		return out, nil
	})
	return out
}

// quoteTable numbers the distinct quotes of a run's contradictions and
// keeps what comparing them needs. Quotes alike but for ASCII case and
// surrounding space share a form: one word set (NewSet lower-cases ASCII
// letters and skips spaces, so theirs are equal) and, as statements,
// the same relations.
type quoteTable struct {
	ids    map[string]int32 // by quote
	quotes []quoteInfo      // by id
	forms  map[string]int32 // by trimmed ASCII lower-case text
	sets   []words.Set      // by form
	// stamp and class hold, for each form, the last conflict that met it
	// (see stampNext) and its class there.
	stamp, class []int32
	now          int32
	// Buffers of newConflictEvidence, reused from one conflict to the next.
	classes []quoteClass
	bySize  []int
}

// quoteClass is the statements of one form in a conflict.
type quoteClass struct {
	form    int32
	trimmed string // of the form's first quote
	ascii   bool
	vars    uint64 // the variants that make the statement
}

type quoteInfo struct {
	trimmed string // the quote, trimmed
	form    int32  // its form (see quoteTable)
}

// newQuoteTable returns a table for about n statements.
func newQuoteTable(n int) *quoteTable {
	return &quoteTable{ids: make(map[string]int32, n), forms: make(map[string]int32, n)}
}

// id returns the number of quote q, adding it when new.
func (t *quoteTable) id(q string) int32 {
	if id, ok := t.ids[q]; ok {
		return id
	}
	id := int32(len(t.quotes))
	t.ids[q] = id
	trimmed := strings.TrimSpace(q)
	key := "\x00" + q // a text that is not ASCII is a form of its own
	if isASCII(trimmed) {
		key = strings.ToLower(trimmed)
	}
	form, ok := t.forms[key]
	if !ok {
		form = int32(len(t.sets))
		t.forms[key] = form
		t.sets = append(t.sets, words.NewSet(q))
		t.stamp = append(t.stamp, 0)
		t.class = append(t.class, 0)
	}
	t.quotes = append(t.quotes, quoteInfo{trimmed: trimmed, form: form})
	return id
}

// conflictEvidence is a contradiction's statements grouped by variant
// and, for a cross-variant conflict, which statements state the same.
type conflictEvidence struct {
	variants []int   // the variants with a statement, in order of their first
	places   [][]int // places[k]: the places in p.Evidence of variants[k]'s statements, in order
	// agrees holds, for each variant of a cross-variant conflict (as
	// variants), the variants (as bits) with a statement that states the
	// same as one of its own (sameStatement), its own bit aside (it may
	// be set); nil when a variant's index does not fit the bits, and then
	// sets holds the statements' word sets instead.
	agrees []uint64
	sets   []words.Set
}

// places returns the places in the evidence of variant v's statements.
func (c *conflictEvidence) placesOf(v int) []int {
	for k, w := range c.variants {
		if w == v {
			return c.places[k]
		}
	}
	return nil
}

func newConflictEvidence(p *diff.Point, qs *quoteTable) *conflictEvidence {
	c := &conflictEvidence{}
	fits := true
	// The places grouped by variant in one array: counted first.
	var count []int
	for _, e := range p.Evidence {
		k := slices.Index(c.variants, e.Variant)
		if k < 0 {
			k = len(c.variants)
			c.variants = append(c.variants, e.Variant)
			count = append(count, 0)
		}
		count[k]++
		fits = fits && e.Variant >= 0 && e.Variant < 64
	}
	all := make([]int, len(p.Evidence))
	c.places = make([][]int, len(c.variants))
	at := 0
	for k, n := range count {
		c.places[k] = all[at : at : at+n]
		at += n
	}
	for j, e := range p.Evidence {
		k := slices.Index(c.variants, e.Variant)
		c.places[k] = append(c.places[k], j)
	}
	if p.Scope == diff.IntraVariant || len(c.variants) < 2 {
		return c
	}
	if !fits {
		c.sets = make([]words.Set, len(p.Evidence))
		for j, e := range p.Evidence {
			c.sets[j] = qs.sets[qs.quotes[qs.id(e.Quote)].form]
		}
		return c
	}
	// Statements of one form are one class: a relation between quotes
	// is worked out once per pair of classes, not per pair of statements.
	// The table's buffers are reused from one conflict to the next.
	classes := qs.classes[:0]
	defer func() { qs.classes = classes }()
	qs.stampNext()
	for _, e := range p.Evidence {
		q := qs.quotes[qs.id(e.Quote)]
		k := qs.classOf(q.form)
		if k < 0 {
			k = qs.setClass(q.form, int32(len(classes)))
			classes = append(classes, quoteClass{form: q.form, trimmed: q.trimmed, ascii: isASCII(q.trimmed)})
		}
		classes[k].vars |= 1 << e.Variant
	}
	// What is asked is which variants state the same as which (agrees,
	// by variant bit): a pair of classes whose variants are all known to
	// agree already is not compared, and once every variant agrees with
	// every other nothing is.
	var agrees [64]uint64
	var every uint64 // the conflict's variants
	for _, v := range c.variants {
		every |= 1 << v
	}
	relateVars := func(va, vb uint64) {
		for bits := va; bits != 0; bits &= bits - 1 {
			agrees[mathbits.TrailingZeros64(bits)] |= vb
		}
		for bits := vb; bits != 0; bits &= bits - 1 {
			agrees[mathbits.TrailingZeros64(bits)] |= va
		}
	}
	knownVars := func(va, vb uint64) bool {
		for bits := va; bits != 0; bits &= bits - 1 {
			if agrees[mathbits.TrailingZeros64(bits)]&vb != vb {
				return false
			}
		}
		for bits := vb; bits != 0; bits &= bits - 1 {
			if agrees[mathbits.TrailingZeros64(bits)]&va != va {
				return false
			}
		}
		return true
	}
	relate := func(a, b int) { relateVars(classes[a].vars, classes[b].vars) }
	known := func(a, b int) bool { return knownVars(classes[a].vars, classes[b].vars) }
	done := func() bool {
		for _, v := range c.variants {
			if agrees[v]&every != every {
				return false
			}
		}
		return true
	}
	for k := range classes {
		relate(k, k) // one form in two variants: the same statement
	}
	// The same text but for case and surrounding space: ASCII texts are
	// so when of one form; with a text that is not ASCII among them
	// (folding may pair it with an ASCII one), texts whose runes fold
	// alike (see words.FoldKey) are.
	if slices.ContainsFunc(classes, func(c quoteClass) bool { return !c.ascii }) {
		byFold := make(map[string]uint64, len(classes)) // the variants of each folded text
		keys := make([]string, len(classes))
		for k := range classes {
			keys[k] = words.FoldKey(classes[k].trimmed)
			byFold[keys[k]] |= classes[k].vars
		}
		for k := range classes {
			relateVars(classes[k].vars, byFold[keys[k]])
		}
	}
	// Nearly the same words: only sets of close sizes can overlap 90%
	// (see diceAtLeast90), so the classes are taken by size.
	set := func(k int) words.Set { return qs.sets[classes[k].form] }
	bySize := qs.bySize[:0]
	for k := range classes {
		bySize = append(bySize, k)
	}
	qs.bySize = bySize
	slices.SortStableFunc(bySize, func(a, b int) int { return len(set(a)) - len(set(b)) })
	for i, a := range bySize {
		if done() {
			break
		}
		na := len(set(a))
		for _, b := range bySize[i+1:] {
			nb := len(set(b))
			if 20*na < 9*(na+nb) {
				break // every later set is larger still
			}
			if !known(a, b) && set(a).Dice(set(b)) >= 0.9 {
				relate(a, b)
			}
		}
	}
	c.agrees = make([]uint64, len(c.variants))
	for k, v := range c.variants {
		c.agrees[k] = agrees[v]
	}
	return c
}

// stampNext starts a new conflict: every form's class there is unset.
func (t *quoteTable) stampNext() { t.now++ }

// classOf returns the class of form in the current conflict, -1 when unset.
func (t *quoteTable) classOf(form int32) int32 {
	if t.stamp[form] != t.now {
		return -1
	}
	return t.class[form]
}

// setClass sets the class of form in the current conflict and returns it.
func (t *quoteTable) setClass(form, class int32) int32 {
	t.stamp[form], t.class[form] = t.now, class
	return class
}

// sameStatement reports whether two statements of a contradiction state
// the same: nearly the same words, or the same text but for case and
// surrounding space.
func sameStatement(a, b words.Set, qa, qb string) bool {
	return diceAtLeast90(a, b) || strings.EqualFold(strings.TrimSpace(qa), strings.TrimSpace(qb))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// finishMark sets whether the variant takes a position on the point and
// rounds the score.
func finishMark(p diff.Point, idx int, m mark) mark {
	if idx < len(p.Positions) {
		t := p.Positions[idx].Text
		m.involved = t != "" && t != "—"
	}
	m.score = math.Round(clamp01(m.score)*100) / 100
	return m
}

// coveredTopics returns the compared topics of the analysis that at least
// one variant of the debate covers.
func coveredTopics(a *diff.Analysis, vars []Variant) []*diff.Topic {
	var out []*diff.Topic
	for k := range a.Topics {
		t := &a.Topics[k]
		if !t.Compared {
			continue
		}
		for _, v := range vars {
			if i := variantIndex(a, v.Label); i >= 0 && i < len(t.Sections) && t.Sections[i] >= 0 {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// markPoint measures variant idx on point p; c is a contradiction's
// evidence (see conflictsOf).
func markPoint(run *memo, p diff.Point, idx int, d *diff.Document, f *docFacts, topics []*diff.Topic, c *conflictEvidence) mark {
	switch p.Category {
	case diff.CategoryStructural:
		return structureMark(p, idx, d, f, topics)
	case diff.CategoryContent:
		if idx < len(p.Positions) && p.Positions[idx].Section >= 0 && p.Positions[idx].Section < len(d.Sections) {
			return sectionMark(d, p.Positions[idx].Section, f)
		}
		return mark{measure: "does not cover the topic"}
	case diff.CategoryContradiction:
		return contradictionMark(p, idx, f, c)
	default: // unique contribution
		if len(p.Variants) > 0 && p.Variants[0] == idx {
			m := evidenceMark(p, idx)
			if si := p.Positions[idx].Section; !isStatement(m.quote) && si >= 0 && si < len(d.Sections) {
				// The analysis cites the contribution by its first line,
				// which may be a heading or a label; argue from its most
				// concrete statement instead.
				if sm := sectionMark(d, si, f); isStatement(sm.quote) {
					m.quote, m.line, m.section = sm.quote, sm.line, sm.section
				}
			}
			m.score = 0.4 + 0.2*float64(p.Rating.Rank())
			m.measure = fmt.Sprintf("contributes what no other variant has (%s value)", p.Rating)
			return m
		}
		return mark{measure: "has no counterpart to this contribution"}
	}
}

// sectionMark measures a section: coverage (words), specificity (concrete
// indicators per sentence, vague phrases against), requirement ids,
// structure (lists, tables, code) and internal consistency (contradictions
// the variant has inside the section).
func sectionMark(d *diff.Document, si int, f *docFacts) mark {
	s := d.Sections[si]
	var nwords, concrete, vague, stmts, structured int
	bestBlock, bestConcrete := -1, math.MinInt
	codeLine, codeText := 0, ""
	first := sort.Search(len(d.Blocks), func(i int) bool { return d.Blocks[i].Span.Start >= s.Span.Start })
	blocks := d.BlocksIn(s.Span)
	ids := map[string]bool{}
	for i, b := range blocks {
		bf := f.blocks[first+i]
		for _, id := range bf.reqs {
			ids[id] = true
		}
		if b.Kind == diff.Code {
			structured++
			// A section that is all code is quoted by its first line of
			// code rather than by its heading.
			if line, text, ok := firstCodeLine(d, b); ok && bestConcrete < -2000 {
				codeLine, codeText = line, text
			}
			continue
		}
		if b.Kind == diff.ListItem || b.Kind == diff.TableRow {
			structured++
		}
		nwords += bf.words
		concrete += bf.concrete
		vague += bf.vague
		stmts += bf.sentences
		// The quotation is the most concrete statement; a line that only
		// labels a value ("**Severity:** Medium") says nothing an
		// advocate can argue from, so it is quoted only when the section
		// has nothing else.
		rank := bf.concrete
		if !bf.statement {
			rank -= 1000
		}
		if rank > bestConcrete {
			bestBlock, bestConcrete = i, rank
		}
	}
	reqs := len(ids)
	conflicts := 0
	for _, secs := range f.conflicts {
		for _, cs := range secs {
			if s.Span.Contains(d.Sections[cs].Span) {
				conflicts++
				break
			}
		}
	}
	specificity := 0.0
	if stmts > 0 {
		specificity = math.Min(1, float64(concrete)/float64(stmts))
	}
	score := 0.1 + 0.35*math.Min(1, float64(nwords)/100) + 0.35*specificity + 0.1*math.Min(1, float64(reqs)/2) +
		0.1*math.Min(1, float64(structured)/3) - math.Min(0.3, 0.08*float64(vague)) - math.Min(0.5, 0.25*float64(conflicts))
	m := mark{score: math.Max(score, 0.05), section: f.refs[si],
		measure: strconv.Itoa(nwords) + " words, " + strconv.Itoa(concrete) + " concrete, " + strconv.Itoa(vague) + " vague"}
	if reqs > 0 {
		m.measure += ", " + strconv.Itoa(reqs) + " requirement ids"
	}
	if conflicts > 0 {
		m.measure += ", " + strconv.Itoa(conflicts) + " internal contradictions"
	}
	switch {
	case bestBlock >= 0:
		b := blocks[bestBlock]
		m.quote, m.line = f.quote(d, first+bestBlock), b.Line
	case codeText != "":
		m.quote, m.line = quoteOf(codeText), codeLine
	default:
		m.quote, m.line = quoteOf(d.Text(s.Heading)), s.Line
	}
	return m
}

// firstCodeLine returns the first non-blank line inside a code block, with
// its line number.
func firstCodeLine(d *diff.Document, b diff.Block) (int, string, bool) {
	lines := strings.Split(d.Text(b.Span), "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if i == 0 && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) || t == "" || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			continue
		}
		return b.Line + i, t, true
	}
	return 0, "", false
}

// structureMark measures a document's organisation: the share of the
// debate's topics it covers, a workable hierarchy depth and internal
// consistency.
func structureMark(p diff.Point, idx int, d *diff.Document, f *docFacts, topics []*diff.Topic) mark {
	cov := 0
	for _, t := range topics {
		if idx < len(t.Sections) && t.Sections[idx] >= 0 {
			cov++
		}
	}
	frac := 1.0
	if len(topics) > 0 {
		frac = float64(cov) / float64(len(topics))
	}
	depth := d.MaxDepth()
	var depthScore float64 // two or three levels organise a spec best
	switch {
	case depth == 0:
		depthScore = 0.2
	case depth == 1:
		depthScore = 0.6
	case depth <= 3:
		depthScore = 1
	default:
		depthScore = 0.8
	}
	consistency := 1 - math.Min(1, float64(len(f.conflicts))/3)
	m := evidenceMark(p, idx)
	m.score = 0.5*frac + 0.3*depthScore + 0.2*consistency
	m.measure = fmt.Sprintf("covers %d of %d topics in %d sections, depth %d, %d internal contradictions",
		cov, len(topics), len(d.Sections), depth, len(f.conflicts))
	if m.quote == "" {
		if top := d.TopLevel(); len(top) > 0 {
			s := d.Sections[top[0]]
			m.quote, m.line, m.section = quoteOf(d.Text(s.Heading)), s.Line, sectionRef(d, top[0])
		}
	}
	return m
}

// contradictionMark judges a variant's side of a contradiction. Within a
// cross-variant conflict a claim is stronger when other variants state the
// same and when it is concrete; a variant that contradicts itself is weak;
// a variant that takes no side neither wins nor loses much.
//
// c is p's evidence grouped by variant (see conflictsOf); nil computes it.
func contradictionMark(p diff.Point, idx int, f *docFacts, c *conflictEvidence) mark {
	if c == nil {
		c = newConflictEvidence(&p, newQuoteTable(len(p.Evidence)))
	}
	own := c.placesOf(idx) // places in p.Evidence of the variant's own statements
	consistency := 1 - math.Min(1, float64(len(f.conflicts))/3)
	if p.Scope == diff.IntraVariant {
		if len(own) > 0 {
			m := evidenceMark(p, idx)
			m.score = 0.1
			m.measure = "contradicts itself (" + strconv.Itoa(len(own)) + " conflicting statements)"
			return m
		}
		measure := f.noConflict
		if measure == "" { // facts not made by measureDoc
			measure = noConflictMeasure(f)
		}
		return mark{score: 0.5 + 0.4*consistency, measure: measure}
	}
	if len(own) == 0 {
		return mark{score: 0.2, measure: "takes no position on it"}
	}
	// The other variants that state something on it, and those of them
	// that state the same.
	claimers, agree := len(c.variants)-1, 0
	if c.agrees != nil {
		agree = mathbits.OnesCount64(c.agrees[slices.Index(c.variants, idx)] &^ (1 << idx))
	} else {
		for k, w := range c.variants {
			if w == idx {
				continue
			}
		their:
			for _, j := range c.places[k] {
				for _, o := range own {
					if sameStatement(c.sets[j], c.sets[o], p.Evidence[j].Quote, p.Evidence[o].Quote) {
						agree++
						break their
					}
				}
			}
		}
	}
	corroboration := 0.0
	if claimers > 0 {
		corroboration = float64(agree) / float64(claimers)
	}
	// The mark starts from the variant's first statement (evidenceMark).
	first := p.Evidence[own[0]]
	ownMark := func() mark { return mark{quote: quoteOf(first.Quote), line: first.Line, section: first.Section} }
	// A labelled judgement (a verdict, a severity) is corroborated by the
	// other reviewers who reach the same one, however they word it.
	for _, o := range own {
		if fs, ok := f.fields[p.Evidence[o].Line]; ok && fs.others > 0 {
			m := ownMark()
			share := float64(fs.agree) / float64(fs.others)
			m.score = 0.3 + 0.6*share
			m.measure = strconv.Itoa(fs.agree) + " of " + strconv.Itoa(fs.others) + " other variants that give this field reach the same value"
			return m
		}
	}
	concrete := lexicon.ConcreteCount(first.Quote)
	m := ownMark()
	m.score = 0.35 + 0.3*corroboration + 0.15*math.Min(1, float64(concrete)/2) + 0.1*consistency
	m.measure = strconv.Itoa(agree) + " of " + strconv.Itoa(claimers) + " other variants that take a side state the same, " + strconv.Itoa(concrete) + " concrete"
	if len(own) > 1 {
		m.score -= 0.3
		m.measure += ", conflicting with itself"
	}
	return m
}

// evidenceMark starts a mark from the diff point's own evidence for the
// variant: its first quote, cut to one line.
func evidenceMark(p diff.Point, idx int) mark {
	for _, e := range p.Evidence {
		if e.Variant == idx {
			return mark{quote: quoteOf(e.Quote), line: e.Line, section: e.Section}
		}
	}
	return mark{}
}

// sectionRef names a section the way the diff analysis does: "2.1
// Caching".
func sectionRef(d *diff.Document, si int) string {
	s := d.Sections[si]
	if s.Number == "" || ownNumber.MatchString(s.Title) {
		return s.Title // no number, or the heading writes its own
	}
	return s.Number + " " + s.Title
}

// quoteOf makes a quotation of source text: whitespace collapsed, a
// leading list, quote or heading marker dropped, cut at 160 characters.
// What remains is the variant's own wording, so a reader can find it.
func quoteOf(s string) string {
	s = oneLine(s)
	for _, p := range []string{"- ", "* ", "+ ", "> "} {
		s = strings.TrimPrefix(s, p)
	}
	if i := strings.Index(s, ". "); i > 0 && i <= 3 && isDigits(s[:i]) {
		s = s[i+2:] // "1. item"
	}
	s = clip(s, 160)
	return s
}

func isDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// sentences counts the sentences of a block's text: full stops,
// question and exclamation marks that end a word, at least one per block.
func sentences(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c == '.' || c == '!' || c == '?') && (i+1 == len(s) || s[i+1] == ' ') && i > 0 && s[i-1] != ' ' {
			n++
		}
	}
	return max(n, 1)
}

func clamp01(f float64) float64 { return math.Min(1, math.Max(0, f)) }

// emphasis drops Markdown's emphasis and code marks (a Replacer is safe
// for concurrent use).
var emphasis = strings.NewReplacer("*", "", "_", " ", "`", "")

// ownNumber matches a heading that writes its own outline number ("1.6
// Summary", "3. Risks").
var ownNumber = regexp.MustCompile(`^\d+(\.\d+)*\.?\s`)

// isStatement reports whether a block's text states something an advocate
// can quote as evidence — a claim, a number, a decision in at least four
// words — rather than only labelling a value.
func isStatement(text string) bool {
	plain := strings.TrimSpace(emphasis.Replace(text))
	if strings.HasPrefix(plain, "#") {
		return false // a heading names a topic; it states nothing
	}
	if value, ok := labelValue(plain); ok {
		// The value is a label when it is a word or three, or a few words
		// none of which is lower case ("Overlap -- SHOULD BE CONFLICT
		// (MEDIUM)"): prose has lower-case words.
		vals := 0
		prose := false
		// The words of strings.Fields(value), without the slice; past six
		// counted the value is no label, whatever follows.
		for rest := value; vals <= 6; {
			var w string
			if w, rest = words.NextField(rest); w == "" {
				break
			}
			if strings.IndexFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
				continue
			}
			vals++
			first, _ := utf8.DecodeRuneInString(trimOpeners(w))
			prose = prose || unicode.IsLower(first)
		}
		if vals <= 3 || vals <= 6 && !prose {
			return false
		}
	}
	return hasFields(plain, 4)
}

// labelValue is labelOnly.FindStringSubmatch(s)[1] without the regexp
// engine (isStatement runs on every block of every variant): the first
// colon must follow one to 40 characters, and the value — what follows it
// after any white space — must be one line.
func labelValue(s string) (string, bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 || utf8.RuneCountInString(s[:i]) > 40 {
		return "", false
	}
	v := strings.TrimLeft(s[i+1:], " \t\n\f\r") // \s
	if strings.IndexByte(v, '\n') >= 0 {
		return "", false
	}
	return v, true
}

// hasFields reports whether len(strings.Fields(s)) >= n, without
// building the fields.
func hasFields(s string, n int) bool { return words.CountFields(s, n) >= n }

// diceAtLeast90 is a.Dice(b) >= 0.9 without the intersection when the
// sizes alone rule it out: the intersection is at most the smaller set,
// so 2·min/(|a|+|b|) < 0.9 bounds the overlap below 0.9 (in integers,
// 20·min < 9·(|a|+|b|); the distance from 0.9 of a ratio of set sizes is
// far above float64 rounding). Most statements a contradiction cites
// differ in length enough.
func diceAtLeast90(a, b words.Set) bool {
	if 20*min(len(a), len(b)) < 9*(len(a)+len(b)) {
		return false
	}
	return a.Dice(b) >= 0.9
}

// trimOpeners is strings.TrimLeft(w, "([\"'") without building the
// cutset's table for each word.
func trimOpeners(w string) string {
	for w != "" && (w[0] == '(' || w[0] == '[' || w[0] == '"' || w[0] == '\'') {
		w = w[1:]
	}
	return w
}
