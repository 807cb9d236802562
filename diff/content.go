package diff

import (
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/words"
)

// Content comparison (topic by topic), unique contributions and the
// rendering of contradictions as diff points. Topics come from the
// alignment of the variants' sections (align.go); the comparison and the
// unique contributions keep to the topics with a section one or two levels
// below the title (H2 and H3 in a document with an H1 title).

const sameTopic = 0.6

// boilerplate matches section titles that every artifact of a type has and
// that carry no ideas: tables of contents, metadata, change logs.
var boilerplate = regexp.MustCompile(`(?i)^(?:\d+(?:\.\d+)*\.?\s+)?(?:table of contents|contents|toc|metadata|document (?:control|info|information|history|metadata)|revision history|change ?log|changes|version history|approvals?|sign-?offs?)$`)

// topic is a cluster of sections, at most one per variant, that cover the
// same topic.
type topic struct {
	title    string
	sections []int // per variant; -1 where missing
}

func (t topic) covered() int {
	n := 0
	for _, s := range t.sections {
		if s >= 0 {
			n++
		}
	}
	return n
}

// topicCandidate reports whether a section is a topic: one or two levels
// below the title, and not boilerplate.
func topicCandidate(s Section) bool {
	return (s.Depth == 1 || s.Depth == 2) && !boilerplate.MatchString(strings.TrimSpace(s.Title))
}

// topicOrder sorts topics by their first variant and position in it.
func topicOrder(t topic) int {
	for v, s := range t.sections {
		if s >= 0 {
			return v<<20 | s
		}
	}
	return 1 << 30
}

// sectionText is the prose directly under a section, without its
// subsections (they are topics of their own).
type sectionText struct {
	doc *Document
	// text is the section's text when it is no run of the document's
	// blocks (a test's); else the text is the blocks' texts joined by
	// spaces, which fullText builds and most comparisons never need.
	text     string
	size     int // bytes of the joined text
	blocks   []Block
	index    []int // of each block in doc.Blocks
	words    words.Set
	repeated []stemCount // stems of words of four letters or more that occur twice or more, sorted by stem
	count    int         // words
	concrete int
	vague    int
}

func ownText(d *Document, si int) sectionText {
	st := sectionText{doc: d}
	lo, hi := d.blockRange(d.Sections[si].Span)
	// Counted first, so the slices are allocated once.
	blocks := 0
	for bi := lo; bi < hi; bi++ {
		if d.Blocks[bi].Section == si {
			blocks++
		}
	}
	if blocks == 0 {
		return st
	}
	st.index = make([]int, 0, blocks)
	for bi := lo; bi < hi; bi++ {
		blk := &d.Blocks[bi]
		if blk.Section != si {
			continue
		}
		st.index = append(st.index, bi)
		if st.size > 0 {
			st.size++ // the space before it
		}
		st.size += len(blk.Text)
	}
	// The section's own blocks come before its first subsection: most
	// often one run of the document's blocks, which the text reads in
	// place (capped, and only ever read). Else they are copied.
	if first, last := st.index[0], st.index[len(st.index)-1]; last-first+1 == len(st.index) {
		st.blocks = d.Blocks[first : last+1 : last+1]
		return st
	}
	st.blocks = make([]Block, 0, blocks)
	for _, bi := range st.index {
		st.blocks = append(st.blocks, d.Blocks[bi])
	}
	return st
}

// fullText returns the section's text: its blocks' texts joined by a
// space (none before the first non-empty one).
func (st *sectionText) fullText() string {
	if st.index == nil {
		return st.text
	}
	var b strings.Builder
	b.Grow(st.size)
	for _, blk := range st.blocks {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(blk.Text)
	}
	return b.String()
}

// parts returns the pieces of the section's text that hold its words:
// the joined text has a space between them, so no word spans two.
func (st *sectionText) parts(buf []string) []string {
	if st.index == nil {
		return append(buf, st.text)
	}
	for _, blk := range st.blocks {
		buf = append(buf, blk.Text)
	}
	return buf
}

// measure fills in the word statistics of a section's own text. It is
// separate from ownText because most topics read the same in every
// variant and are dropped before their statistics are needed.
func (st *sectionText) measure() {
	ind := st.doc.BlockIndicators()
	for _, bi := range st.index {
		st.concrete += ind[bi].Concrete
		st.vague += ind[bi].Vague
	}
	// One tokenisation gives the word count, the word set and the
	// frequencies emphasis needs.
	// Sized for a word per six bytes (English averages about that), so
	// neither slice grows a dozen times on a long section.
	// The stems of long words (four letters or more) and of short ones are
	// kept apart: the long ones are sorted to count repeats, and the word
	// set is their union with the few short ones, merged rather than
	// sorted again.
	est := max(st.size, len(st.text))/6 + 1
	var shortBuf [32]string // few words are short and not stop words
	short := words.Set(shortBuf[:0])
	long := make(words.Set, 0, est)
	add := func(w string) {
		st.count++
		if words.IsStopWord(w) || !hasLetter(w) {
			return
		}
		stem := words.Stem(w)
		if len(w) >= 4 {
			long = append(long, stem)
		} else {
			short = append(short, stem)
		}
	}
	// The text is its blocks joined by spaces, so its words are theirs in
	// turn, read from the blocks the document has lower-cased once.
	if st.index == nil {
		words.Each(st.text, add) // a text of no block of the document
	} else {
		lower := st.doc.lowerBlocks()
		for _, bi := range st.index {
			words.EachLower(lower[bi], add)
		}
	}
	slices.Sort(long)
	slices.Sort(short)
	st.repeated = repeatedStems(long) // before mergeUnique compacts long in place
	st.words = mergeUnique(long, short)
}

// mergeUnique returns the sorted union of two sorted slices, each value
// once: slices.Compact of both sorted together. It is built in a's array
// (grown when b does not fit), so a is overwritten; b is only read. The
// section's word set is its long stems with the few short ones merged in,
// without a third list.
func mergeUnique(a, b []string) []string {
	a = slices.Compact(a)
	n := len(a)
	a = slices.Grow(a, len(b))[:n+len(b)]
	// From the back: k is where the last value went, and never reaches an
	// element of a not yet read (k > i while b has elements left).
	i, j, k := n-1, len(b)-1, len(a)
	for j >= 0 {
		var next string
		switch {
		case i >= 0 && a[i] > b[j]:
			next = a[i]
			i--
		case i >= 0 && a[i] == b[j]:
			next = a[i]
			i--
			j--
		default:
			next = b[j]
			j--
		}
		if k < len(a) && a[k] == next {
			continue // a repeat within b
		}
		k--
		a[k] = next
	}
	// a[:i+1] is in place and below everything merged; close the gap the
	// repeats left.
	m := copy(a[i+1:], a[k:])
	return a[:i+1+m]
}

// stemCount is a stem and how often it occurs.
type stemCount struct {
	stem string
	n    int
}

// repeatedStems returns the stems, sorted, that occur twice or more, with
// their counts: the frequencies emphasis reads, counted in the sorted slice
// rather than in a map per section.
func repeatedStems(stems []string) []stemCount {
	var out []stemCount
	for i := 0; i < len(stems); {
		j := i + 1
		for j < len(stems) && stems[j] == stems[i] {
			j++
		}
		if j-i >= 2 {
			out = append(out, stemCount{stems[i], j - i})
		}
		i = j
	}
	return out
}

// approach extracts what a section proposes: the first sentence of the
// first block that commits to something (a modal, a number, a named
// technology), else of the first block, with its exact source quote.
func approach(d *Document, st sectionText) (string, Evidence, bool) {
	var pick *Block
	for i := range st.blocks {
		b := &st.blocks[i]
		if b.Kind == Code || b.Header {
			continue
		}
		if pick == nil {
			pick = b
		}
		if commits(b.Text) {
			pick = b
			break
		}
	}
	if pick == nil {
		return "", Evidence{}, false
	}
	if pick.Kind == TableRow {
		if s, ok := labelledRow(st.blocks, pick); ok {
			return s, Evidence{Line: pick.Line, Quote: strings.TrimSpace(d.Text(pick.Span))}, true
		}
	}
	sents := sentences(*pick)
	if len(sents) == 0 {
		return "", Evidence{}, false
	}
	s := sents[0]
	quote := quoteFor(s, d.Text(pick.Span))
	return s, Evidence{Line: pick.Line, Quote: quote}, true
}

// labelledRow renders a table row with its column headers, so a reader
// of one row out of its table still knows which value is which: "Risk:
// Kafka hot spots; Likelihood: Medium; Impact: High". The header is the
// nearest header row above the row among blocks; empty cells are left out.
func labelledRow(blocks []Block, row *Block) (string, bool) {
	var header []string
	for i := range blocks {
		b := &blocks[i]
		if b == row {
			break
		}
		switch {
		case b.Kind != TableRow:
			header = nil
		case b.Header:
			header = b.Cells
		}
	}
	if len(header) != len(row.Cells) {
		return "", false
	}
	var parts []string
	for i, c := range row.Cells {
		c, h := strings.TrimSpace(c), strings.TrimSpace(header[i])
		switch {
		case c == "":
		case h == "":
			parts = append(parts, c)
		default:
			parts = append(parts, h+": "+c)
		}
	}
	if len(parts) == 0 {
		return "", false
	}
	return strings.Join(parts, "; "), true
}

// commits reports whether text commits to something: a modal verb, a
// number or a named technology.
func commits(text string) bool {
	if strings.ContainsAny(text, "0123456789") || anyWord(words.Tokens(strings.ToLower(text)), modalWords) {
		return true
	}
	return len(lexicon.TechnologyIn(text)) > 0
}

func contentPoints(docs []*Document, topics []topic, contradictions []Contradiction) []Point {
	bySection := indexContradictions(docs, contradictions)
	// Topics are compared independently, in parallel (at most one
	// goroutine per CPU); the points keep the topics' order.
	found := make([]*Point, len(topics))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, t := range topics {
		if t.covered() < 2 || !t.compared(docs) {
			continue
		}
		g.Go(func() error {
			if p, ok := compareTopic(docs, t, contradictions, bySection); ok {
				found[i] = &p
			}
			return nil
		})
	}
	_ = g.Wait() // comparisons cannot fail
	var points []Point
	for _, p := range found {
		if p != nil {
			points = append(points, *p)
		}
	}
	return points
}

func compareTopic(docs []*Document, t topic, contradictions []Contradiction, bySection []map[int][]int) (Point, bool) {
	n := len(docs)
	texts := make([]sectionText, n)
	var members []int
	for v, si := range t.sections {
		if si >= 0 {
			texts[v] = ownText(docs[v], si)
			members = append(members, v)
		}
	}
	gap := len(members) < n
	if !gap && allEqual(texts, members) {
		return Point{}, false
	}
	for _, v := range members {
		texts[v].measure()
	}
	p := Point{Category: CategoryContent, Kind: "approach", Title: t.title, Positions: emptyPositions(n), Rating: Low, Variants: members}
	var reasons []string

	// Labelled fields (verdicts, severities, settings) say what differs
	// better than word statistics: name each differing field and every
	// variant's value. When all of them agree, different wording is not a
	// different approach.
	fields := topicFields(docs, t)
	fieldsDiffer, fieldsAgree := false, len(fields) > 0
	for _, tf := range fields {
		if !tf.differ {
			continue
		}
		fieldsDiffer, fieldsAgree = true, false
		if len(reasons) < 3 {
			vals := make([]string, 0, len(members))
			for _, v := range members {
				vals = append(vals, tf.value(v))
			}
			reasons = append(reasons, fmt.Sprintf("%s: %s", tf.label(), strings.Join(vals, " / ")))
		}
	}
	if fieldsDiffer {
		p.Rating = Medium
	}

	minDice, have := 1.0, 0
	for i, a := range members {
		for _, b := range members[i+1:] {
			if texts[a].count == 0 || texts[b].count == 0 {
				continue
			}
			have++
			minDice = min(minDice, texts[a].words.Dice(texts[b].words))
		}
	}
	switch {
	case have > 0 && minDice < 0.5 && fieldsAgree:
		reasons = append(reasons, "same "+agreedFields(fields, members)+"; the texts differ in wording")
	case have > 0 && minDice < 0.5 && !fieldsDiffer:
		p.Rating = Medium
		reasons = append(reasons, fmt.Sprintf("materially different approaches (%.0f%% word overlap)", minDice*100))
	}
	if r, ok := detailContrast(texts, members); ok {
		p.Rating = maxRating(p.Rating, Medium)
		reasons = append(reasons, r)
	}
	if r, ok := depthContrast(texts, members); ok {
		p.Rating = maxRating(p.Rating, Medium)
		reasons = append(reasons, r)
	}
	if gap {
		p.Kind = "coverage-gap"
		p.Rating = maxRating(p.Rating, Medium)
		var missing []string
		for v, si := range t.sections {
			if si < 0 {
				missing = append(missing, "Variant "+Label(v))
			}
		}
		reasons = append(reasons, "not covered by "+strings.Join(missing, ", "))
	}
	x, contradicted := topicContradiction(t, contradictions, bySection)
	if contradicted {
		if len(fields) > 0 && (x.Kind == FieldConflict || x.Kind == VerdictConflict) {
			// The fields compared above say what this topic's variants
			// give; the contradiction may involve variants elsewhere.
			if fieldsDiffer {
				p.Rating = maxRating(p.Rating, x.Impact)
			}
		} else if x.Impact == High {
			p.Rating = High
			reasons = append(reasons, "fundamentally incompatible: "+x.Subject)
		} else {
			p.Rating = maxRating(p.Rating, Medium)
			reasons = append(reasons, fmt.Sprintf("materially different: %s (%s)", x.Subject, x.Reason))
		}
	}
	if fieldsAgree && !gap && !contradicted {
		// Every variant gives every labelled field the same value: the
		// item is not a difference, however much the wording or the
		// detail of the rationale differs (reviewers who reach the same
		// verdict are not debating it).
		return Point{}, false
	}
	if len(reasons) == 0 {
		reasons = append(reasons, "same conclusion via different wording or emphasis")
	}
	p.Reason = strings.Join(reasons, "; ")

	for v, si := range t.sections {
		if si < 0 {
			p.Positions[v].Text = "Not covered"
			continue
		}
		d := docs[v]
		st := texts[v]
		p.Positions[v].Section = si
		// A line that only labels a value ("**Verdict**: CONFIRMED")
		// does not summarise a section; the values are shown as fields.
		labelled := fieldLines(d, v, si)
		prose := st
		// Most sections label no line: their prose is their text, read
		// in place.
		if slices.ContainsFunc(st.blocks, func(b Block) bool { return labelled[b.Line] }) {
			prose.blocks = make([]Block, 0, len(st.blocks))
			for _, b := range st.blocks {
				if !labelled[b.Line] {
					prose.blocks = append(prose.blocks, b)
				}
			}
		}
		summary, ev, ok := approach(d, prose)
		bare := false                                   // the summary is a line that only labels a value
		if !ok && len(prose.blocks) != len(st.blocks) { // else the same text gives the same answer
			summary, ev, ok = approach(d, st)
			bare = ok && labelled[ev.Line]
		}
		if !ok {
			summary = "(no text of its own; see its subsections)"
			ev = headingEvidence(d, v, si)
		}
		ev.Variant, ev.Section = v, sectionRef(d, si)
		p.Evidence = append(p.Evidence, ev)
		var given []string
		for _, tf := range fields {
			if _, ok := tf.byVar[v]; ok && len(given) < 3 {
				given = append(given, tf.nameIn(v)+": "+tf.value(v))
			}
		}
		if len(given) > 0 {
			// The fields are the position; word counts would add nothing.
			p.Positions[v].Text = strings.Join(given, "; ")
			if !bare && ok {
				p.Positions[v].Text += " — " + clip(summary, 100)
			}
			continue
		}
		if bare {
			p.Positions[v].Text = clip(summary, 140)
			continue
		}
		detail := fmt.Sprintf("%d words; %d concrete, %d vague", st.count, st.concrete, st.vague)
		if em := emphasis(st, texts, members, v); len(em) > 0 {
			detail += "; emphasis: " + strings.Join(em, ", ")
		}
		p.Positions[v].Text = fmt.Sprintf("%s — %s", clip(summary, 140), detail)
	}
	return p, true
}

// allEqual reports whether the members' texts are the same up to spacing:
// their strings.Fields are equal, read in step across the blocks without
// building the texts.
func allEqual(texts []sectionText, members []int) bool {
	first := newFieldReader(&texts[members[0]])
	for _, v := range members[1:] {
		a, b := first, newFieldReader(&texts[v])
		for {
			fa, okA := a.next()
			fb, okB := b.next()
			if okA != okB || fa != fb {
				return false
			}
			if !okA {
				break
			}
		}
	}
	return true
}

// fieldReader hands out strings.Fields of a section's text one at a time.
// It is a value: a copy reads on from where the original was.
type fieldReader struct {
	parts []string // the pieces of the text (read only)
	at    int      // the piece being read
	off   int      // where in it
}

func newFieldReader(st *sectionText) fieldReader {
	return fieldReader{parts: st.parts(nil)}
}

// next returns the next field, or false at the end.
func (r *fieldReader) next() (string, bool) {
	for ; r.at < len(r.parts); r.at, r.off = r.at+1, 0 {
		s := r.parts[r.at]
		i := r.off
		for i < len(s) {
			c, size := rune(s[i]), 1
			if c >= utf8.RuneSelf {
				c, size = utf8.DecodeRuneInString(s[i:])
			}
			if !unicode.IsSpace(c) {
				break
			}
			i += size
		}
		j := i
		for j < len(s) {
			c, size := rune(s[j]), 1
			if c >= utf8.RuneSelf {
				c, size = utf8.DecodeRuneInString(s[j:])
			}
			if unicode.IsSpace(c) {
				break
			}
			j += size
		}
		if j > i {
			r.off = j
			return s[i:j], true
		}
	}
	return "", false
}

// detailContrast reports one variant stating its topic concretely where
// another stays vague.
func detailContrast(texts []sectionText, members []int) (string, bool) {
	lo, hi := 2.0, -1.0
	for _, v := range members {
		st := texts[v]
		if st.concrete+st.vague < 3 {
			continue
		}
		r := float64(st.concrete) / float64(st.concrete+st.vague)
		lo, hi = min(lo, r), max(hi, r)
	}
	if hi-lo >= 0.4 {
		return fmt.Sprintf("detail level differs (%.0f%% vs %.0f%% concrete statements)", lo*100, hi*100), true
	}
	return "", false
}

// depthContrast reports one variant covering its topic at three times the
// length of another.
func depthContrast(texts []sectionText, members []int) (string, bool) {
	lo, hi := 1<<30, 0
	for _, v := range members {
		lo, hi = min(lo, texts[v].count), max(hi, texts[v].count)
	}
	if hi >= 40 && hi >= 3*max(lo, 1) {
		return fmt.Sprintf("coverage depth differs (%d vs %d words)", lo, hi), true
	}
	return "", false
}

// emphasis returns up to two frequent words of variant v's text that no
// other member uses: what it stresses that the others do not.
func emphasis(st sectionText, texts []sectionText, members []int, v int) []string {
	type wf struct {
		w string
		n int
	}
	var list []wf
	for _, sc := range st.repeated {
		stem, n := sc.stem, sc.n
		others := false
		for _, o := range members {
			if o != v && texts[o].words.Has(stem) {
				others = true
				break
			}
		}
		if !others {
			list = append(list, wf{stem, n})
		}
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].n != list[j].n {
			return list[i].n > list[j].n
		}
		return list[i].w < list[j].w
	})
	var out []string
	for _, e := range list[:min(2, len(list))] {
		out = append(out, e.w)
	}
	return out
}

// indexContradictions maps each section of each variant to the
// cross-variant contradictions of at least Medium impact with a claim in it
// or below it.
func indexContradictions(docs []*Document, cs []Contradiction) []map[int][]int {
	idx := make([]map[int][]int, len(docs))
	for v := range idx {
		idx[v] = map[int][]int{}
	}
	for i, c := range cs {
		if c.Scope() != CrossVariant || c.Impact.Rank() < Medium.Rank() {
			continue
		}
		for _, cl := range c.Claims {
			for s := cl.Section; s >= 0; s = docs[cl.Variant].Sections[s].Parent {
				if l := idx[cl.Variant][s]; len(l) == 0 || l[len(l)-1] != i {
					idx[cl.Variant][s] = append(l, i)
				}
			}
		}
	}
	return idx
}

// topicContradiction finds the strongest cross-variant contradiction of at
// least Medium impact with claims in the topic's sections of two or more
// variants.
func topicContradiction(t topic, cs []Contradiction, bySection []map[int][]int) (Contradiction, bool) {
	hits := map[int]int{} // contradiction → variants of the topic it touches
	for v, si := range t.sections {
		if si >= 0 {
			for _, i := range bySection[v][si] {
				hits[i]++
			}
		}
	}
	best := -1
	for i, n := range hits {
		if n < 2 {
			continue
		}
		if best < 0 || cs[i].Impact.Rank() > cs[best].Impact.Rank() || (cs[i].Impact == cs[best].Impact && i < best) {
			best = i
		}
	}
	if best < 0 {
		return Contradiction{}, false
	}
	return cs[best], true
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return strings.TrimSpace(s[:cut]) + "…"
}

// ---- contradictions as points ----

func contradictionPoints(docs []*Document, cs []Contradiction) []Point {
	var points []Point
	for _, c := range cs {
		p := Point{Category: CategoryContradiction, Kind: string(c.Kind), Title: capitalise(c.Subject), Positions: emptyPositions(len(docs)),
			Rating: c.Impact, Reason: c.Reason, Scope: c.Scope(), Signature: c.Signature(), Variants: variantList(c)}
		cite(docs, &p, c.Claims)
		points = append(points, p)
	}
	return points
}

// cite fills a point's positions and evidence from the statements it
// quotes: each variant's cell lists its quotes with their lines ("—" where
// it has none), its section is that of its first quote.
func cite(docs []*Document, p *Point, claims []Claim) {
	// Each variant's quotes, "“%s” (L%d)" as fmt.Sprintf writes them,
	// joined by " vs " as they come: written into one text per variant,
	// sized once (a clipped quote is at most 160 bytes and "…"), rather
	// than a string per quote joined afterwards.
	size := make([]int, len(docs))
	for _, cl := range claims {
		if cl.Variant >= 0 && cl.Variant < len(docs) {
			size[cl.Variant] += len(" vs “” (L)") + min(len(cl.Quote), 160+len("…")) + 20
		}
	}
	texts := make([]strings.Builder, len(docs))
	var num [20]byte
	for _, cl := range claims {
		if cl.Variant < 0 || cl.Variant >= len(docs) {
			continue
		}
		t := &texts[cl.Variant]
		if t.Len() > 0 {
			t.WriteString(" vs ")
		} else {
			t.Grow(size[cl.Variant])
		}
		t.WriteString("“")
		t.WriteString(clip(cl.Quote, 160))
		t.WriteString("” (L")
		t.Write(strconv.AppendInt(num[:0], int64(cl.Line), 10))
		t.WriteByte(')')
		if p.Positions[cl.Variant].Section < 0 {
			p.Positions[cl.Variant].Section = cl.Section
		}
		p.Evidence = append(p.Evidence, Evidence{Variant: cl.Variant, Section: sectionRef(docs[cl.Variant], cl.Section), Line: cl.Line, Quote: cl.Quote})
	}
	for v := range docs {
		if texts[v].Len() == 0 {
			p.Positions[v].Text = "—"
			continue
		}
		p.Positions[v].Text = texts[v].String()
	}
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// ---- unique contributions ----

var (
	riskRE       = regexp.MustCompile(`(?i)\b(?:risks?|mitigat\w*|threats?|failures?|rollback|recovery|disaster|security|vulnerab\w*|fallback)\b`)
	mitigationRE = regexp.MustCompile(`(?i)\b(?:mitigat\w*|fail ?over|fallback|rollback|recover\w*|contingency)\b`)
)

func uniquePoints(docs []*Document, topics []topic, source *Document) []Point {
	titles := make([][]words.Set, len(docs))
	ids := make([]map[string]bool, len(docs))
	for v, d := range docs {
		titles[v] = titleSets(d)
		ids[v] = map[string]bool{}
		for _, id := range lexicon.RequirementIDs(d.Source) {
			ids[v][id] = true
		}
	}
	unique := make([]map[int]bool, len(docs))
	for v := range docs {
		unique[v] = map[int]bool{}
	}
	type cand struct{ v, si int }
	var cands []cand
	for _, t := range topics {
		if t.covered() != 1 || !t.compared(docs) {
			continue
		}
		for v, si := range t.sections {
			if si < 0 || coveredElsewhere(docs, titles, v, si) || restatesSource(docs[v], si, source) {
				continue
			}
			unique[v][si] = true
			cands = append(cands, cand{v, si})
		}
	}
	var points []Point
	for _, c := range cands {
		d := docs[c.v]
		if p := d.Sections[c.si].Parent; p >= 0 && unique[c.v][p] {
			continue // part of a larger unique contribution
		}
		points = append(points, uniquePoint(docs, ids, c.v, c.si))
	}
	return points
}

// coveredElsewhere reports whether another variant has a section, at any
// depth, on the same topic.
func coveredElsewhere(docs []*Document, titles [][]words.Set, v, si int) bool {
	title := docs[v].Sections[si].Title
	for w, d := range docs {
		if w == v {
			continue
		}
		for sj, s := range d.Sections {
			if titleOverlap(title, titles[v][si], s.Title, titles[w][sj]) >= sameTopic {
				return true
			}
		}
	}
	return false
}

// restatesSource reports whether a section says what a section of the
// source already says.
func restatesSource(d *Document, si int, source *Document) bool {
	if source == nil {
		return false
	}
	own := words.NewSet(d.Text(d.Sections[si].Body()))
	if len(own) == 0 {
		return false
	}
	for i := range source.Sections {
		if own.Dice(words.NewSet(source.Text(source.Sections[i].Body()))) >= 0.8 {
			return true
		}
	}
	return false
}

func uniquePoint(docs []*Document, ids []map[string]bool, v, si int) Point {
	d := docs[v]
	s := d.Sections[si]
	body := d.Text(s.Span)
	var blocks []Block
	concrete, count := 0, 0
	for _, b := range d.BlocksIn(s.Span) {
		blocks = append(blocks, b)
		count += words.Count(b.Text)
		if b.Kind != Code {
			concrete += lexicon.ConcreteCount(b.Text)
		}
	}
	var newIDs []string
	for _, id := range lexicon.RequirementIDs(body) {
		elsewhere := false
		for w := range docs {
			if w != v && ids[w][id] {
				elsewhere = true
				break
			}
		}
		if !elsewhere && !slices.Contains(newIDs, id) {
			newIDs = append(newIDs, id)
		}
	}
	p := Point{Category: CategoryUnique, Kind: "section", Positions: emptyPositions(len(docs)), Variants: []int{v}}
	switch {
	case len(newIDs) > 0:
		p.Rating = High
		if len(newIDs) > 4 {
			newIDs = append(newIDs[:4], "…")
		}
		p.Reason = "addresses requirements no other variant covers (" + strings.Join(newIDs, ", ") + ")"
	case riskRE.MatchString(s.Title+" "+body) && (count >= 40 || mitigationRE.MatchString(body)):
		p.Rating = High
		p.Reason = "adds risk, failure or security coverage (with mitigation) no other variant has"
	case count >= 80 || concrete >= 3:
		p.Rating = Medium
		p.Reason = fmt.Sprintf("useful addition: %d words, %d concrete statements", count, concrete)
	default:
		p.Rating = Low
		p.Reason = fmt.Sprintf("nice to have: %d words", count)
	}
	summary, ev, ok := approach(d, sectionText{blocks: blocks})
	if !ok {
		ev = headingEvidence(d, v, si)
	}
	ev.Variant, ev.Section = v, sectionRef(d, si)
	p.Evidence = []Evidence{ev}
	p.Title = "§" + sectionRef(d, si) // "§4 Dunning", or "§2.1 Goals" for a numbered title
	if summary != "" {
		p.Title += ": " + clip(summary, 140)
	}
	p.Positions[v] = Position{Text: s.Title, Section: si}
	return p
}

// agreedFields describes fields every variant agrees on: "Verdict
// (ACCURATE, CONFIRMED)" when the variants spell the value differently,
// "Severity (HIGH)" when they spell it alike.
func agreedFields(fields []topicField, members []int) string {
	var parts []string
	for _, tf := range fields[:min(2, len(fields))] {
		var vals []string
		for _, v := range members {
			if val := tf.value(v); val != "—" && !slices.Contains(vals, val) {
				vals = append(vals, val)
			}
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", tf.label(), strings.Join(vals, ", ")))
	}
	if len(fields) > 2 {
		parts = append(parts, fmt.Sprintf("%d more fields", len(fields)-2))
	}
	return strings.Join(parts, ", ")
}
