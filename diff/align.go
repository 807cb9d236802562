package diff

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/words"
)

// Topic alignment: which sections of the variants cover the same topic.
//
// Every section of every variant takes part, at every depth, the document
// titles included. Two sections of two variants are compared by
//
//   - their titles: the IDF-weighted cosine of their significant words,
//     numbering dropped, with item ids ("T1", "Delta 2.1", "NR-3",
//     "Phase 2", "§4.4") counting double;
//   - their own text (children excluded): the TF-IDF cosine, so that
//     shared rare terms — identifiers, file names, requirement ids, rare
//     words — weigh most;
//   - their place: children of aligned parents prefer each other, parents
//     of aligned children too, and the position in the document breaks
//     ties.
//
// Each pair of variants gets a one-to-one assignment, greedy by descending
// score above a threshold, refined over a few rounds as the structural
// evidence of the previous round comes in. The pairwise matches are then
// joined into topics, strongest first, only where a topic keeps at most
// one section per variant.
//
// Candidates are found through an inverted index of title terms and each
// section's most weighty body terms, so the work grows with the pairs that
// share something rather than with all pairs.

const (
	alignThreshold = 0.30 // least score of a pairwise match
	alignJoin      = 0.15 // least score of two sections a topic joins without their own match
	alignRounds    = 3    // assignments: one on content, then refined by structure
	alignBodyKeys  = 12   // body terms per section in the candidate index
	alignStemLen   = 6    // letters kept of a plain word: "orchestration" ~ "orchestrator"
	// alignSubstantial is the number of distinct terms from which a
	// section's text is enough to compare on its own.
	alignSubstantial = 20
)

// alignSec is what the alignment knows of one section.
type alignSec struct {
	title termVec // IDF-weighted title terms, unit length
	body  termVec // TF-IDF of the section's own text, unit length
	sub   termVec // TF-IDF of the section's whole text, subsections included
	keys  []int32 // terms the section is indexed under
	dup   int     // sections of its variant with the same title terms (itself included)
	pos   float64 // place in the document, 0 … 1
	end   int     // index after the section's last subsection
	depth int
}

// termVec is a sparse vector: term ids ascending, with their weights.
type termVec struct {
	ids []int32
	w   []float64
}

func (a termVec) dot(b termVec) float64 {
	s, i, j := 0.0, 0, 0
	for i < len(a.ids) && j < len(b.ids) {
		switch {
		case a.ids[i] == b.ids[j]:
			s += a.w[i] * b.w[j]
			i++
			j++
		case a.ids[i] < b.ids[j]:
			i++
		default:
			j++
		}
	}
	return s
}

func (a termVec) empty() bool { return len(a.ids) == 0 }

// alignPair is a scored candidate pair of sections of variants v < w.
type alignPair struct {
	a, b  int
	score float64
}

// aligner holds the state of one alignment.
type aligner struct {
	docs  []*Document
	secs  [][]alignSec
	terms map[string]int32 // term → id, ids in order of first appearance
	// match[v][w][a] is the section of w matched to section a of v in the
	// latest round, or -1.
	match [][][]int
}

// alignSections clusters the sections of the variants into topics: at
// most one section per variant each, ordered by the first variant that
// has them and their place in it.
func alignSections(docs []*Document) []topic {
	al := &aligner{docs: docs, terms: map[string]int32{}}
	al.measure()
	return al.run()
}

// run makes the pairwise assignments and joins them into topics.
func (al *aligner) run() []topic {
	docs := al.docs
	n := len(docs)
	al.match = make([][][]int, n)
	for v := range n {
		al.match[v] = make([][]int, n)
		for w := range n {
			al.match[v][w] = filled(len(docs[v].Sections), -1)
		}
	}
	type edge struct {
		v, a, w, b int
		score      float64
	}
	var edges []edge
	for round := range alignRounds {
		next := make([][][]int, n)
		for v := range n {
			next[v] = make([][]int, n)
			for w := range n {
				next[v][w] = filled(len(docs[v].Sections), -1)
			}
		}
		edges = edges[:0]
		for v := range n {
			for w := v + 1; w < n; w++ {
				for _, p := range al.assign(v, w, round > 0) {
					next[v][w][p.a], next[w][v][p.b] = p.b, p.a
					edges = append(edges, edge{v, p.a, w, p.b, p.score})
				}
			}
		}
		al.match = next
	}

	// Join the pairwise matches into topics, strongest first, where the
	// two topics joined have no variant in common.
	sort.SliceStable(edges, func(i, j int) bool { return edges[i].score > edges[j].score })
	offset := make([]int, n+1)
	for v, d := range docs {
		offset[v+1] = offset[v] + len(d.Sections)
	}
	parent := make([]int, offset[n])
	mask := make([]uint16, offset[n])
	for v := range n {
		for i := offset[v]; i < offset[v+1]; i++ {
			parent[i], mask[i] = i, 1<<v
		}
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	members := make([][]int, offset[n]) // root → its sections, as global indexes
	for i := range members {
		members[i] = []int{i}
	}
	variantOf := func(g int) (int, int) {
		v := sort.SearchInts(offset, g+1) - 1
		return v, g - offset[v]
	}
	// consistent reports whether every two sections of the two topics
	// would be matched, or are similar enough, on their own.
	consistent := func(ra, rb int) bool {
		for _, x := range members[ra] {
			v, a := variantOf(x)
			for _, y := range members[rb] {
				w, b := variantOf(y)
				if al.match[v][w][a] == b {
					continue
				}
				need := alignJoin
				if al.match[v][w][a] >= 0 || al.match[w][v][b] >= 0 {
					need = alignThreshold // one has another match in the other's variant
				}
				if v > w {
					v, a, w, b = w, b, v, a
				}
				if al.score(v, a, w, b, true) < need {
					return false
				}
			}
		}
		return true
	}
	for _, e := range edges {
		ra, rb := find(offset[e.v]+e.a), find(offset[e.w]+e.b)
		if ra == rb || mask[ra]&mask[rb] != 0 || !consistent(ra, rb) {
			continue
		}
		if rb < ra {
			ra, rb = rb, ra
		}
		parent[rb] = ra
		mask[ra] |= mask[rb]
		members[ra] = append(members[ra], members[rb]...)
		members[rb] = nil
	}
	byRoot := map[int]int{}
	var ts []topic
	for v, d := range docs {
		for si := range d.Sections {
			r := find(offset[v] + si)
			c, ok := byRoot[r]
			if !ok {
				c = len(ts)
				byRoot[r] = c
				ts = append(ts, topic{title: bareTitle(d.Sections[si].Title), sections: filled(n, -1)})
			}
			ts[c].sections[v] = si
		}
	}
	// Topics are created in order of their first variant and position.
	return ts
}

func filled(n, x int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = x
	}
	return s
}

// ---- scoring ----

// assign matches sections of v to sections of w one to one: greedy by
// descending score, at least alignThreshold.
func (al *aligner) assign(v, w int, structural bool) []alignPair {
	sv, sw := al.secs[v], al.secs[w]
	cands := al.candidates(v, w, structural)
	pairs := make([]alignPair, 0, len(cands))
	for _, c := range cands {
		a, b := int(c>>32), int(uint32(c))
		s := al.score(v, a, w, b, structural)
		if s >= alignThreshold {
			pairs = append(pairs, alignPair{a, b, s})
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].score != pairs[j].score {
			return pairs[i].score > pairs[j].score
		}
		if pairs[i].a != pairs[j].a {
			return pairs[i].a < pairs[j].a
		}
		return pairs[i].b < pairs[j].b
	})
	usedA, usedB := make([]bool, len(sv)), make([]bool, len(sw))
	out := pairs[:0]
	for _, p := range pairs {
		if usedA[p.a] || usedB[p.b] {
			continue
		}
		usedA[p.a], usedB[p.b] = true, true
		out = append(out, p)
	}
	return out
}

// candidates returns the pairs (a of v, b of w) worth scoring, as a<<32|b,
// sorted: those sharing an index term, the two titles, and with structure
// the children of matched parents and the parents of matched children.
func (al *aligner) candidates(v, w int, structural bool) []uint64 {
	dv, dw := al.docs[v], al.docs[w]
	index := map[int32][]int{}
	for b := range al.secs[w] {
		for _, k := range al.secs[w][b].keys {
			index[k] = append(index[k], b)
		}
	}
	var out []uint64
	add := func(a, b int) { out = append(out, uint64(a)<<32|uint64(b)) }
	for a := range al.secs[v] {
		for _, k := range al.secs[v][a].keys {
			for _, b := range index[k] {
				add(a, b)
			}
		}
	}
	if ta, tb := dv.TitleSection(), dw.TitleSection(); ta >= 0 && tb >= 0 {
		add(ta, tb)
	}
	if structural {
		m := al.match[v][w]
		for a, b := range m {
			if b < 0 {
				continue
			}
			ca, cb := dv.Sections[a].Children, dw.Sections[b].Children
			if len(ca)*len(cb) <= 400 {
				for _, x := range ca {
					for _, y := range cb {
						add(x, y)
					}
				}
			}
			if pa, pb := dv.Sections[a].Parent, dw.Sections[b].Parent; pa >= 0 && pb >= 0 {
				add(pa, pb)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// score rates how surely section a of v and section b of w cover the same
// topic.
func (al *aligner) score(v, a, w, b int, structural bool) float64 {
	dv, dw := al.docs[v], al.docs[w]
	if dv.Sections[a].Depth == 0 && dw.Sections[b].Depth == 0 {
		return 2 // the documents' titles
	}
	x, y := &al.secs[v][a], &al.secs[w][b]
	t := x.title.dot(y.title)
	pa, pb := dv.Sections[a].Parent, dw.Sections[b].Parent
	parentsMatch := structural && pa >= 0 && pb >= 0 && al.match[v][w][pa] == pb
	if max(x.dup, y.dup) > 1 && !parentsMatch {
		t = 0 // a heading repeated in its variant names its topic only under its parent
	}
	// With the previous round's matches: how many subsections of a (at
	// any depth) are matched to subsections of b (k), and how many of
	// either's subsections are matched at all.
	k, ma, mb := 0, 0, 0
	if structural && x.end > a+1 && y.end > b+1 {
		for d := a + 1; d < x.end; d++ {
			if m := al.match[v][w][d]; m >= 0 {
				ma++
				if b < m && m < y.end {
					k++
				}
			}
		}
		for d := b + 1; d < y.end; d++ {
			if al.match[w][v][d] >= 0 {
				mb++
			}
		}
	}
	// The whole texts compare sections that keep their matter in
	// subsections, but a short section is not the same topic as a long
	// chapter that merely mentions it.
	nx, ny := float64(len(x.sub.ids)), float64(len(y.sub.ids))
	sub := 0.9 * x.sub.dot(y.sub) * min(1, 2*math.Sqrt(min(nx, ny)/max(nx, ny, 1)))
	if ma > 0 && mb > 0 && len(x.body.ids) < alignSubstantial/4 && len(y.body.ids) < alignSubstantial/4 {
		// Two headings over subsections share the text of their
		// subsections; they group the same topics only as far as
		// their subsections match each other rather than others.
		j := float64(k) / float64(ma+mb-k)
		sub *= j * j
	}
	c := max(x.body.dot(y.body), sub)
	// Texts that share little speak against a match the titles alone
	// suggest, the more so the longer they are.
	sure := min(1, min(nx, ny)/alignSubstantial)
	t *= 1 - sure*(1-min(1, 0.3+c/0.25))
	s := 1 - (1-t)*(1-c) // either kind of evidence may carry the match
	if parentsMatch {
		if dv.Sections[pa].Depth == 0 {
			s += 0.03 // every top-level section sits under the title
		} else {
			s += 0.1
		}
	}
	if k > 0 {
		// Subsections matched to each other rather than to others, and
		// more than one or two.
		s += 0.3 * float64(k) / float64(ma+mb-k) * min(1, float64(k)/3)
	}
	s += 0.05 * (1 - math.Abs(x.pos-y.pos))
	return s
}

// ---- terms ----

// measure builds every section's title and body vectors and index keys.
func (al *aligner) measure() {
	type raw struct {
		title []int32       // distinct title term ids
		ids   []bool        // whether each title term is an item id
		body  map[int32]int // body term → occurrences
		order []int32       // body terms in order of first occurrence
		keyOf string        // title terms joined, to find repeated headings
	}
	id := func(t string) int32 {
		if i, ok := al.terms[t]; ok {
			return i
		}
		i := int32(len(al.terms))
		al.terms[t] = i
		return i
	}
	raws := make([][]raw, len(al.docs))
	var titleDF, bodyDF, anyDF []int // sections with the term in their title, text, either
	grow := func(df []int) []int {
		for len(df) < len(al.terms) {
			df = append(df, 0)
		}
		return df
	}
	total := 0
	for v, d := range al.docs {
		raws[v] = make([]raw, len(d.Sections))
		for si := range d.Sections {
			total++
			r := &raws[v][si]
			var keyParts []string
			for _, tt := range titleTerms(d, si) {
				i := id(tt.term)
				if slices.Contains(r.title, i) {
					continue
				}
				r.title = append(r.title, i)
				r.ids = append(r.ids, tt.id)
				keyParts = append(keyParts, tt.term)
			}
			slices.Sort(keyParts)
			r.keyOf = strings.Join(keyParts, " ")
			r.body = map[int32]int{}
			for _, bt := range bodyTerms(d, si) {
				i := id(bt)
				if r.body[i] == 0 {
					r.order = append(r.order, i)
				}
				r.body[i]++
			}
			titleDF, bodyDF, anyDF = grow(titleDF), grow(bodyDF), grow(anyDF)
			for _, i := range r.title {
				titleDF[i]++
				anyDF[i]++
			}
			for _, i := range r.order {
				bodyDF[i]++
				if !slices.Contains(r.title, i) {
					anyDF[i]++
				}
			}
		}
	}
	idf := func(df int) float64 { return math.Log(float64(total+1) / float64(df)) }
	al.secs = make([][]alignSec, len(al.docs))
	for v, d := range al.docs {
		al.secs[v] = make([]alignSec, len(d.Sections))
		// Whole-text counts, children into parents (children follow
		// their parents in document order).
		subCount := make([]map[int32]int, len(d.Sections))
		for si := len(d.Sections) - 1; si >= 0; si-- {
			if subCount[si] == nil {
				subCount[si] = map[int32]int{}
			}
			for i, c := range raws[v][si].body {
				subCount[si][i] += c
			}
			if p := d.Sections[si].Parent; p >= 0 {
				if subCount[p] == nil {
					subCount[p] = map[int32]int{}
				}
				for i, c := range subCount[si] {
					subCount[p][i] += c
				}
			}
		}
		dups := map[string]int{}
		for si := range d.Sections {
			dups[raws[v][si].keyOf]++
		}
		for si, s := range d.Sections {
			r := raws[v][si]
			x := &al.secs[v][si]
			x.depth = s.Depth
			x.end = si + 1
			for x.end < len(d.Sections) && d.Sections[x.end].Span.Start < s.Span.End {
				x.end++
			}
			x.pos = float64(si) / float64(max(len(d.Sections)-1, 1))
			x.dup = 1
			if r.keyOf != "" {
				x.dup = dups[r.keyOf]
			}
			tw := make(map[int32]float64, len(r.title))
			for _, i := range r.title {
				// Rare among titles, and rare in the text too: a word
				// every section uses is no topic however few headings
				// use it.
				tw[i] = math.Sqrt(idf(titleDF[i]) * idf(anyDF[i]))
			}
			x.title = newTermVec(tw)
			bw := make(map[int32]float64, len(r.body))
			for _, i := range r.order {
				bw[i] = (1 + math.Log(float64(r.body[i]))) * idf(bodyDF[i])
			}
			x.body = newTermVec(bw)
			sw := make(map[int32]float64, len(subCount[si]))
			for i, c := range subCount[si] {
				sw[i] = (1 + math.Log(float64(c))) * idf(bodyDF[i])
			}
			x.sub = newTermVec(sw)
			// Index keys: the title terms and the heaviest body terms.
			x.keys = append(x.keys, r.title...)
			top := slices.Clone(r.order)
			sort.SliceStable(top, func(p, q int) bool { return bw[top[p]] > bw[top[q]] })
			for _, i := range top[:min(len(top), alignBodyKeys)] {
				if bodyDF[i] > 1 && !slices.Contains(x.keys, i) {
					x.keys = append(x.keys, i)
				}
			}
		}
	}
}

// newTermVec makes a unit vector of the weights, dropping zero weights.
func newTermVec(ws map[int32]float64) termVec {
	var v termVec
	for i, x := range ws {
		if x > 0 {
			v.ids = append(v.ids, i)
		}
	}
	slices.Sort(v.ids)
	norm := 0.0
	for _, i := range v.ids {
		norm += ws[i] * ws[i]
	}
	norm = math.Sqrt(norm)
	for _, i := range v.ids {
		v.w = append(v.w, ws[i]/norm)
	}
	return v
}

// titleTerm is a significant term of a heading: a word stem or an item id.
type titleTerm struct {
	term string
	id   bool
}

// leadingNumber matches the outline number a heading opens with:
// "3.", "2.1", "Section 4:", "Part 2 —".
var leadingNumber = regexp.MustCompile(`^(?i:(?:section|part|chapter|§)\s*)?(\d+(?:\.\d+)*)[.):]?(?:\s+[-–—:]?\s*|$)`)

// titleTerms returns the significant terms of section si's heading. The
// outline number it opens with is dropped; a number that does not fit the
// outline ("### 4.4 Rewrite" under "## 3. Language") is a reference to
// another section, and counts as an id "§4.4". A number after a word makes
// an item id with it ("Phase 2" → "phase#2"), as do requirement ids
// ("NR-3") and words mixing letters and digits ("T1").
func titleTerms(d *Document, si int) []titleTerm {
	s := d.Sections[si]
	title := strings.TrimSpace(s.Title)
	var out []titleTerm
	if m := leadingNumber.FindStringSubmatchIndex(title); m != nil && m[1] < len(title) {
		num := title[m[2]:m[3]]
		if ref, ok := outlineReference(d, si, num); ok {
			out = append(out, titleTerm{"§" + ref, true})
		}
		title = title[m[1]:]
	}
	toks := words.Tokens(title)
	prevWord := ""
	for _, tok := range toks {
		switch {
		case digitsAndDots(tok):
			if prevWord != "" {
				out = append(out, titleTerm{prevWord + "#" + tok, true})
			} else if strings.Contains(tok, ".") {
				out = append(out, titleTerm{"§" + tok, true})
			}
			prevWord = ""
			continue
		case lexicon.IsRequirementID(tok) || hasDigit(tok) && hasLetter(tok):
			out = append(out, titleTerm{tok, true})
			if m := sectionSign.FindStringSubmatch(tok); m != nil {
				out = append(out, titleTerm{"§" + m[1], true}) // "SS4.4", "sec3.2"
			}
			prevWord = ""
			continue
		}
		prevWord = ""
		if words.IsStopWord(tok) {
			continue
		}
		for _, part := range wordParts(tok) {
			if !words.IsStopWord(part) {
				out = append(out, titleTerm{stemTerm(part), false})
			}
		}
		if isPlainWord(tok) {
			prevWord = stemTerm(tok)
		}
	}
	return out
}

// sectionSign matches a reference to a numbered section written as a
// word: "ss4.4", "sec3.2".
var sectionSign = regexp.MustCompile(`^[a-z]{1,3}(\d+\.\d+(?:\.\d+)*)$`)

// outlineReference reports whether a dotted number opening a heading is
// not the heading's place in the outline: its parent's heading opens with
// another number than the dotted number's prefix.
func outlineReference(d *Document, si int, num string) (string, bool) {
	dot := strings.LastIndexByte(num, '.')
	p := d.Sections[si].Parent
	if dot < 0 || p < 0 {
		return "", false
	}
	m := leadingNumber.FindStringSubmatch(strings.TrimSpace(d.Sections[p].Title))
	if m == nil || m[1] == num[:dot] {
		return "", false
	}
	return num, true
}

// bodyTerms returns the terms of section si's own text, its subsections'
// excluded, in order, repeats kept.
func bodyTerms(d *Document, si int) []string {
	var out []string
	lo, hi := d.blockRange(d.Sections[si].Span)
	for bi := lo; bi < hi; bi++ {
		if d.Blocks[bi].Section != si {
			continue
		}
		words.Each(d.Blocks[bi].Text, func(tok string) {
			switch {
			case words.IsStopWord(tok):
			case digitsAndDots(tok):
				if len(tok) >= 2 {
					out = append(out, tok)
				}
			case lexicon.IsRequirementID(tok) || !isPlainWord(tok) && !strings.Contains(tok, "-"):
				out = append(out, tok) // identifiers, file names, ids
				if i := strings.LastIndexByte(tok, '/'); i >= 0 && i+1 < len(tok) {
					out = append(out, tok[i+1:]) // a path's file name
				}
			default:
				for _, part := range wordParts(tok) {
					if len(part) >= 3 && !words.IsStopWord(part) {
						out = append(out, stemTerm(part))
					}
				}
			}
		})
	}
	return out
}

// wordParts splits a hyphenated word: "cold-start" → "cold", "start".
func wordParts(tok string) []string {
	if isPlainWord(tok) || strings.ContainsAny(tok, "_./") {
		return []string{tok}
	}
	return strings.FieldsFunc(tok, func(r rune) bool { return r == '-' || r == '\'' || r == '’' })
}

// stemTerm reduces a word to a crude stem: the singular, cut to
// alignStemLen letters, so that "orchestration" and "orchestrator" or
// "validate" and "validation" meet.
func stemTerm(w string) string {
	w = words.Stem(w)
	if !isPlainWord(w) {
		return w
	}
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		w = w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ed"):
		w = w[:len(w)-2]
	}
	if len(w) > alignStemLen {
		return w[:alignStemLen]
	}
	return w
}

// isPlainWord reports whether tok is ASCII letters only.
func isPlainWord(tok string) bool {
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return tok != ""
}

// digitsAndDots reports whether tok is digits and dots: "3", "2.1".
func digitsAndDots(tok string) bool {
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return tok != ""
}

func hasDigit(tok string) bool { return strings.ContainsAny(tok, "0123456789") }

// compared reports whether the analysis compares the topic's content: one
// of its sections is a topic of the document (one or two levels below the
// title, not boilerplate such as a table of contents or a change log).
// The alignment covers every section; the content comparison, the unique
// contributions and the similarity count keep to these.
func (t topic) compared(docs []*Document) bool {
	for v, si := range t.sections {
		if si >= 0 && topicCandidate(docs[v].Sections[si]) {
			return true
		}
	}
	return false
}

// comparedTopics counts the topics whose content the analysis compares.
func comparedTopics(docs []*Document, ts []topic) int {
	n := 0
	for _, t := range ts {
		if t.compared(docs) {
			n++
		}
	}
	return n
}
