package diff

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// Topic alignment: which sections of the variants cover the same topic.
//
// Every section of every variant takes part, at every depth, the document
// titles included (they align with each other). Numbering and heading
// levels are ignored. Two sections of two variants are compared by
//
//   - their titles: the cosine of their significant words (stemmed, stop
//     words and outline numbers dropped), each weighed by its rarity among
//     the titles and in the text of all sections of all variants; item ids
//     are terms of their own ("T1", "NR-3", "Phase 2" → phase#2,
//     "Delta 2.1" → delta#2.1, "§4.4"). A heading repeated in its variant
//     ("Deliverables", "Root Cause") counts only under matched parents;
//   - their text: the TF-IDF cosine of their own text (subsections
//     excluded), or of their whole text where they keep their matter in
//     subsections, so that shared rare terms — identifiers in backticks,
//     file names, requirement ids, rare words — weigh most. Two long texts
//     that share little weaken what the titles alone suggest;
//   - citations: a section whose prose holds most of its variant's
//     mentions of an item id the other's heading names ("The analysis
//     (OV-4) states …" against "OV-4: Pre-writing …") is about that item
//     (align_cite.go);
//   - their place: children of matched parents prefer each other, two
//     headings whose subsections match each other rather than others
//     match, and the position in the document breaks ties.
//
// Either title, text or citation may carry a match (1 − (1−t)(1−c)(1−k·r)). Each pair of
// variants gets a one-to-one assignment, greedy by descending score above
// alignThreshold, refined over alignRounds rounds as the structure of the
// previous round comes in. A section matched to the first subsection of
// a chapter without text of its own is matched to the chapter instead
// when the chapter's other subsections are its own elaboration
// (align_lift.go). The pairwise matches are then joined into
// topics, strongest first, only where the result keeps at most one section
// per variant and every two of its sections are matched to each other or
// similar enough on their own.
//
// Candidates come from an inverted index of the title terms and each
// section's weightiest rare text terms; a key that would pair many
// sections with many is skipped, so the work grows with the pairs that
// share something rather than with all pairs. Nothing depends on map
// order: the same variants always give the same topics.

const (
	alignThreshold = 0.30 // least score of a pairwise match
	alignJoin      = 0.15 // least score of two sections a topic joins without their own match
	alignRounds    = 3    // assignments: one on content, then refined by structure
	alignBodyKeys  = 8    // body terms per section in the candidate index
	alignPostings  = 16   // most pairs of sections of two variants one key may propose
	// alignMaxSections bounds the sections of a variant that take part
	// (sort keys hold a section index in 20 bits); a million headings are
	// not a document.
	alignMaxSections = 1 << 20
	alignStemLen     = 6 // letters kept of a plain word: "orchestration" ~ "orchestrator"
	// alignSubstantial is the number of distinct terms from which a
	// section's text is enough to compare on its own.
	alignSubstantial = 20
)

// alignSec is what the alignment knows of one section.
type alignSec struct {
	title termVec     // IDF-weighted title terms, unit length
	body  termVec     // TF-IDF of the section's own text, unit length
	sub   termVec     // TF-IDF of the section's whole text, subsections included
	keys  []int32     // terms the section is indexed under
	heads []int32     // the item ids its heading names, sorted
	cites []citeShare // the heading ids its own text mentions, by id
	dup   int         // sections of its variant with the same title terms (itself included)
	pos   float64     // place in the document, 0 … 1
	end   int         // index after the section's last subsection
}

// alignEdge is a pairwise match: section a of v and section b of w, v < w.
type alignEdge struct {
	v, a, w, b int
	score      float64
}

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
	// headOf[t] has bit v set when term t is an item id a heading of
	// variant v names.
	headOf []uint32
	family map[int32]string // the list each heading id belongs to (idFamily)
	// index[v] lists the sections of variant v under each of their keys.
	index []map[int32][]int
	// cands[v][w], v < w, lists the pairs (a of v, b of w) sharing a key,
	// as a<<32|b, sorted; sims[v][w] holds the content similarities of
	// the pairs computed so far, sorted by pair.
	cands [][][]uint64
	sims  [][]simTable
	// match[v][w][a] is the section of w matched to section a of v in the
	// latest round, or -1.
	match [][][]int
}

// alignSim is what two sections' words say, computed once per pair.
type alignSim struct {
	title    float64 // cosine of the title vectors
	own, sub float64 // cosines of the own and the whole texts
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
	al.cands = make([][][]uint64, n)
	al.sims = make([][]simTable, n)
	for v := range n {
		al.match[v] = make([][]int, n)
		al.cands[v] = make([][]uint64, n)
		al.sims[v] = make([]simTable, n)
		filledRows(al.match[v], len(docs[v].Sections), -1)
	}
	var edges []alignEdge
	var pairsOf [][2]int // the pairs of variants, v < w, in order
	for v := range n {
		for w := v + 1; w < n; w++ {
			pairsOf = append(pairsOf, [2]int{v, w})
		}
	}
	// Each round's matches are written into the lists of the round before
	// last, refilled: only the latest round's are read.
	var spare [][][]int
	for round := range alignRounds {
		next := spare
		if next == nil {
			next = make([][][]int, n)
			for v := range n {
				next[v] = make([][]int, n)
				filledRows(next[v], len(docs[v].Sections), -1)
			}
		} else {
			for v := range n {
				for w := range n {
					for i := range next[v][w] {
						next[v][w][i] = -1
					}
				}
			}
		}
		assigned := al.assignAll(pairsOf, round > 0)
		total := 0
		for _, pairs := range assigned {
			total += len(pairs)
		}
		edges = slices.Grow(edges[:0], total)
		for k, pairs := range assigned {
			v, w := pairsOf[k][0], pairsOf[k][1]
			for _, p := range pairs {
				next[v][w][p.a], next[w][v][p.b] = p.b, p.a
				edges = append(edges, alignEdge{v, p.a, w, p.b, p.score})
			}
		}
		spare, al.match = al.match, next
	}
	al.liftToChapters(edges)

	// Join the pairwise matches into topics, strongest first, where the
	// two topics joined have no variant in common.
	// (slices.SortStableFunc runs sort.SliceStable's algorithm, without
	// its reflection, so ties keep their order as they did.)
	slices.SortStableFunc(edges, func(a, b alignEdge) int {
		switch {
		case a.score > b.score:
			return -1
		case b.score > a.score:
			return 1
		}
		return 0
	})
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
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	members := make([][]int, offset[n]) // root → its sections, as global indexes
	single := make([]int, offset[n])    // the one-section lists, capped: a join copies them out
	for i := range members {
		single[i] = i
		members[i] = single[i : i+1 : i+1]
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

// filledRows sets each of rows to a list of n copies of x, all in one
// array; each row is capped, so that appending to one never reaches the
// next.
func filledRows(rows [][]int, n, x int) {
	all := filled(len(rows)*n, x)
	for i := range rows {
		rows[i] = all[i*n : (i+1)*n : (i+1)*n]
	}
}

func filled(n, x int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = x
	}
	return s
}

// ---- scoring ----

// assignAll makes one round's assignments of the pairs of variants, each
// pair's in its slot. The pairs are independent within a round: each
// reads the previous round's matches and writes only its own candidates
// and similarity table, so they run at once, at most one worker per CPU,
// each with its own scratch. The result is the same in any order of
// completion.
func (al *aligner) assignAll(pairs [][2]int, structural bool) [][]alignPair {
	out := make([][]alignPair, len(pairs))
	workers := min(runtime.GOMAXPROCS(0), len(pairs))
	if workers <= 1 {
		var sc alignScratch
		for k, p := range pairs {
			out[k] = al.assign(p[0], p[1], structural, &sc)
		}
		return out
	}
	var next atomic.Int64
	var g errgroup.Group
	g.SetLimit(workers)
	for range workers {
		g.Go(func() error {
			var sc alignScratch
			for k := int(next.Add(1) - 1); k < len(pairs); k = int(next.Add(1) - 1) {
				out[k] = al.assign(pairs[k][0], pairs[k][1], structural, &sc)
			}
			return nil
		})
	}
	_ = g.Wait() // the assignments cannot fail
	return out
}

// alignScratch is one worker's scratch for simAll: a dense array by term
// id, zero between uses; and buffers simAll and assign refill on every
// call (the pairs to compute, their similarities, the sortable keys),
// which the table and the result copy from.
type alignScratch struct {
	dense [][3]float64
	todo  []uint64
	sims  []alignSim
	keys  []uint64
}

// assign matches sections of v to sections of w one to one: greedy by
// descending score, at least alignThreshold.
func (al *aligner) assign(v, w int, structural bool, sc *alignScratch) []alignPair {
	sv, sw := al.secs[v], al.secs[w]
	cands := al.candidates(v, w, structural, sc)
	// Each pair above the threshold as one sortable number: the score
	// (descending) in the top 24 bits, then a and b, so that ties go in
	// document order and sorting compares plain integers.
	keys := sc.keys[:0]
	defer func() { sc.keys = keys[:0] }()
	table := &al.sims[v][w] // holds every candidate, and maybe more
	k := 0
	for _, c := range cands {
		for table.pairs[k] != c {
			k++
		}
		a, b := int(c>>32), int(uint32(c))
		if s := al.scoreWith(v, a, w, b, table.sims[k], structural); s >= alignThreshold {
			keys = append(keys, scoreKey(s)<<40|uint64(a)<<20|uint64(b))
		}
	}
	slices.Sort(keys)
	usedA, usedB := make([]bool, len(sv)), make([]bool, len(sw))
	// One to one: at most as many pairs as the smaller side has sections.
	out := make([]alignPair, 0, min(len(keys), len(sv), len(sw)))
	for _, key := range keys {
		p := alignPair{a: int(key >> 20 & (1<<20 - 1)), b: int(key & (1<<20 - 1)), score: keyScore(key >> 40)}
		if usedA[p.a] || usedB[p.b] {
			continue
		}
		usedA[p.a], usedB[p.b] = true, true
		out = append(out, p)
	}
	return out
}

// scoreKey turns a score in [0, 4) into 24 bits that sort the other way
// round; keyScore turns them back (to within 2⁻²²).
func scoreKey(s float64) uint64 {
	return uint64(math.Round((4 - min(max(s, 0.001), 3.999)) * (1 << 22)))
}

func keyScore(k uint64) float64 { return 4 - float64(k)/(1<<22) }

// candidates returns the pairs (a of v, b of w) worth scoring, as a<<32|b,
// sorted: those sharing a key term, the two titles, and with structure
// the children of matched parents and the parents of matched children.
func (al *aligner) candidates(v, w int, structural bool, sc *alignScratch) []uint64 {
	dv, dw := al.docs[v], al.docs[w]
	var out []uint64
	if al.cands[v][w] == nil {
		// Counted first, so that the list is allocated once.
		size := 1 // the two titles
		for pass := range 2 {
			for a := range min(len(al.secs[v]), alignMaxSections) {
				for _, k := range al.secs[v][a].keys {
					// A key many sections share finds no topic: skip it
					// rather than pair everything with everything.
					if bs := al.index[w][k]; len(bs)*len(al.index[v][k]) <= alignPostings {
						if pass == 0 {
							size += len(bs)
							continue
						}
						for _, b := range bs {
							if b < alignMaxSections {
								out = append(out, uint64(a)<<32|uint64(b))
							}
						}
					}
				}
			}
			if pass == 0 {
				out = make([]uint64, 0, size)
			}
		}
		if ta, tb := dv.TitleSection(), dw.TitleSection(); ta >= 0 && tb >= 0 {
			out = append(out, uint64(ta)<<32|uint64(tb))
		}
		slices.Sort(out)
		if out = slices.Compact(out); out == nil {
			out = []uint64{} // computed, and empty
		}
		al.cands[v][w] = out
		al.simAll(v, w, out, sc)
	}
	if !structural {
		return al.cands[v][w]
	}
	out = nil
	add := func(a, b int) {
		if a < alignMaxSections && b < alignMaxSections {
			out = append(out, uint64(a)<<32|uint64(b))
		}
	}
	for a, b := range al.match[v][w] {
		if b < 0 {
			continue
		}
		ca, cb := dv.Sections[a].Children, dw.Sections[b].Children
		if len(ca)*len(cb) <= alignPostings*alignPostings {
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
	slices.Sort(out)
	out = slices.Compact(out)
	al.simAll(v, w, out, sc)
	return mergeSorted(al.cands[v][w], out)
}

// mergeSorted merges two sorted lists without repeats into one.
func mergeSorted(a, b []uint64) []uint64 {
	out := make([]uint64, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// simTable holds content similarities by pair, sorted by pair.
type simTable struct {
	pairs []uint64
	sims  []alignSim
}

func (t *simTable) find(p uint64) (int, bool) { return slices.BinarySearch(t.pairs, p) }

// add merges in pairs and their similarities, both sorted by pair and
// none already in the table.
func (t *simTable) add(pairs []uint64, sims []alignSim) {
	if len(pairs) == 0 {
		return
	}
	if t.pairs == nil {
		// The first round fills the table; the later ones add the few
		// pairs the structure proposes. Half as much more room lets them
		// merge in place instead of copying the table each round.
		size := len(pairs) + len(pairs)/2
		t.pairs = append(make([]uint64, 0, size), pairs...)
		t.sims = append(make([]alignSim, 0, size), sims...)
		return
	}
	// Merged from the back into the grown slices: each element moves
	// once, and nothing is read after it is overwritten.
	i, j := len(t.pairs)-1, len(pairs)-1
	t.pairs, t.sims = slices.Grow(t.pairs, len(pairs))[:i+1+len(pairs)], slices.Grow(t.sims, len(pairs))[:i+1+len(pairs)]
	for k := len(t.pairs) - 1; j >= 0; k-- {
		if i >= 0 && t.pairs[i] > pairs[j] {
			t.pairs[k], t.sims[k] = t.pairs[i], t.sims[i]
			i--
		} else {
			t.pairs[k], t.sims[k] = pairs[j], sims[j]
			j--
		}
	}
}

// sim returns the content similarities of section a of v and section b
// of w: from the table, or computed afresh for a pair no round scored.
func (al *aligner) sim(v, a, w, b int) alignSim {
	if v > w {
		v, a, w, b = w, b, v, a
	}
	p := uint64(a)<<32 | uint64(b)
	t := &al.sims[v][w]
	if k, ok := t.find(p); ok {
		return t.sims[k]
	}
	x, y := &al.secs[v][a], &al.secs[w][b]
	return alignSim{title: x.title.dot(y.title), own: x.body.dot(y.body), sub: x.sub.dot(y.sub)}
}

// simAll computes the content similarities of the pairs (a of v, b of w)
// in cands (sorted) that the table lacks: each section of v is spread once
// into sc's dense array, which its candidates' vectors look up.
func (al *aligner) simAll(v, w int, cands []uint64, sc *alignScratch) {
	t := &al.sims[v][w]
	todo := sc.todo[:0]
	defer func() { sc.todo = todo[:0] }()
	for _, c := range cands {
		if _, ok := t.find(c); !ok {
			todo = append(todo, c)
		}
	}
	if len(todo) == 0 {
		return
	}
	if len(sc.dense) < len(al.terms) {
		sc.dense = make([][3]float64, len(al.terms))
	}
	dense := sc.dense
	spread := func(x *alignSec, on bool) {
		for k, i := range x.title.ids {
			dense[i][0] = pick(on, x.title.w[k])
		}
		for k, i := range x.body.ids {
			dense[i][1] = pick(on, x.body.w[k])
		}
		for k, i := range x.sub.ids {
			dense[i][2] = pick(on, x.sub.w[k])
		}
	}
	sims := slices.Grow(sc.sims[:0], len(todo))[:len(todo)]
	clear(sims) // the loop below sums into them
	sc.sims = sims[:0]
	last := -1
	for n, c := range todo {
		a, b := int(c>>32), int(uint32(c))
		if a != last {
			if last >= 0 {
				spread(&al.secs[v][last], false)
			}
			spread(&al.secs[v][a], true)
			last = a
		}
		y := &al.secs[w][b]
		s := &sims[n]
		for k, i := range y.title.ids {
			s.title += y.title.w[k] * dense[i][0]
		}
		for k, i := range y.body.ids {
			s.own += y.body.w[k] * dense[i][1]
		}
		if y.end == b+1 && al.secs[v][a].end == a+1 {
			s.sub = s.own // two sections without subsections
		} else {
			for k, i := range y.sub.ids {
				s.sub += y.sub.w[k] * dense[i][2]
			}
		}
	}
	spread(&al.secs[v][last], false)
	t.add(todo, sims)
}

// pick returns x, or 0 when off.
func pick(on bool, x float64) float64 {
	if on {
		return x
	}
	return 0
}

// score rates how surely section a of v and section b of w cover the same
// topic.
func (al *aligner) score(v, a, w, b int, structural bool) float64 {
	return al.scoreWith(v, a, w, b, al.sim(v, a, w, b), structural)
}

// scoreWith is score given the pair's content similarities.
func (al *aligner) scoreWith(v, a, w, b int, sim alignSim, structural bool) float64 {
	dv, dw := al.docs[v], al.docs[w]
	if dv.Sections[a].Depth == 0 && dw.Sections[b].Depth == 0 {
		return 2 // the documents' titles
	}
	x, y := &al.secs[v][a], &al.secs[w][b]
	t := sim.title
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
	sub := 0.9 * sim.sub * min(1, 2*math.Sqrt(min(nx, ny)/max(nx, ny, 1)))
	if ma > 0 && mb > 0 && len(x.body.ids) < alignSubstantial/4 && len(y.body.ids) < alignSubstantial/4 {
		// Two headings over subsections share the text of their
		// subsections; they group the same topics only as far as
		// their subsections match each other rather than others.
		j := float64(k) / float64(ma+mb-k)
		sub *= j * j
	}
	c := max(sim.own, sub)
	// Texts that share little speak against a match the titles alone
	// suggest, the more so the longer they are.
	sure := min(1, min(nx, ny)/alignSubstantial)
	t *= 1 - sure*(1-min(1, 0.3+c/0.25))
	// Either kind of evidence may carry the match, and so may a text
	// that cites the other's heading id.
	s := 1 - (1-t)*(1-c)*(1-citeWeight*al.cite(v, a, w, b))
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

// measure builds every section's title and text vectors and its index
// keys.
func (al *aligner) measure() {
	type raw struct {
		title []int32     // distinct title terms, in order
		own   []termCount // the own text's terms, by id
		prose []termCount // the item ids its paragraphs and list items mention, by id
		keyOf string      // title terms sorted and joined, to find repeated headings
	}
	id := func(t string) int32 {
		if i, ok := al.terms[t]; ok {
			return i
		}
		i := int32(len(al.terms))
		al.terms[t] = i
		return i
	}
	// Sections with the term in their title, own text, either.
	var titleDF, bodyDF, anyDF []int32
	var count []int32 // scratch: occurrences of each term in one section
	var seen []int32  // terms counted in it
	tokens := newTokenTermIDs()
	raws := make([][]raw, len(al.docs))
	total := 0
	for v, d := range al.docs {
		raws[v] = make([]raw, len(d.Sections))
		for si := range d.Sections {
			total++
			r := &raws[v][si]
			var keyParts []string
			for _, tt := range titleTerms(d, si) {
				if i := id(tt); !slices.Contains(r.title, i) {
					r.title = append(r.title, i)
					keyParts = append(keyParts, tt)
				}
			}
			slices.Sort(keyParts)
			r.keyOf = strings.Join(keyParts, " ")
			var prose []int32 // item ids its prose mentions, repeats included
			eachBodyToken(d, si, func(tok string, inProse bool) {
				// A token's terms are read once (tokenTermIDs): the
				// variants share most of their words.
				for _, i := range tokens.ids(tok, id) {
					if inProse && tokens.proseID[i] {
						prose = append(prose, i)
					}
					for int(i) >= len(count) {
						count = append(count, 0)
					}
					if count[i] == 0 {
						seen = append(seen, i)
					}
					count[i]++
				}
			})
			slices.Sort(seen)
			r.own = make([]termCount, len(seen))
			for k, i := range seen {
				r.own[k] = termCount{i, count[i]}
				count[i] = 0
			}
			seen = seen[:0]
			r.prose = countIDs(prose)
			for len(titleDF) < len(al.terms) {
				titleDF, bodyDF, anyDF = append(titleDF, 0), append(bodyDF, 0), append(anyDF, 0)
			}
			for _, i := range r.title {
				titleDF[i]++
				anyDF[i]++
			}
			for _, tc := range r.own {
				bodyDF[tc.id]++
				if !slices.Contains(r.title, tc.id) {
					anyDF[tc.id]++
				}
			}
		}
	}
	// Inverse document frequencies, once per term.
	logOf := func(df int32) float64 { return math.Log(float64(total+1) / float64(df)) }
	titleW, bodyW := make([]float64, len(al.terms)), make([]float64, len(al.terms))
	for i := range titleW {
		if titleDF[i] > 0 {
			titleW[i] = math.Sqrt(logOf(titleDF[i]) * logOf(anyDF[i]))
		}
		if bodyDF[i] > 0 {
			bodyW[i] = logOf(bodyDF[i])
		}
	}
	// A text term in about one section per variant, or a few, is rare
	// enough to find counterparts by.
	rare := int32(max(6, 3*len(al.docs)))
	al.secs = make([][]alignSec, len(al.docs))
	al.index = make([]map[int32][]int, len(al.docs))
	titles, prose := make([][][]int32, len(al.docs)), make([][][]termCount, len(al.docs))
	for v, d := range al.docs {
		al.secs[v] = make([]alignSec, len(d.Sections))
		titles[v], prose[v] = make([][]int32, len(d.Sections)), make([][]termCount, len(d.Sections))
		for si := range d.Sections {
			titles[v][si], prose[v][si] = raws[v][si].title, raws[v][si].prose
		}
	}
	al.measureCites(titles, prose)
	var slab termSlab
	type weighed struct {
		id int32
		w  float64
	}
	var heavy []weighed // scratch: a section's rare text terms with their weights
	for v, d := range al.docs {
		al.index[v] = map[int32][]int{}
		// Whole texts, subsections included: children follow their
		// parents in document order, so one pass from the end sums them.
		// A section's children are summed in one pass (a count per term,
		// then the terms met, sorted), not merged one child at a time:
		// a section with thousands of children would otherwise copy its
		// growing total once per child.
		sub := make([][]termCount, len(d.Sections))
		for si := len(d.Sections) - 1; si >= 0; si-- {
			children := d.Sections[si].Children
			switch len(children) {
			case 0:
				sub[si] = raws[v][si].own
				continue
			case 1:
				sub[si] = mergeCounts(raws[v][si].own, sub[children[0]])
				continue
			}
			add := func(tcs []termCount) {
				for _, tc := range tcs {
					for int(tc.id) >= len(count) {
						count = append(count, 0)
					}
					if count[tc.id] == 0 {
						seen = append(seen, tc.id)
					}
					count[tc.id] += tc.n
				}
			}
			add(raws[v][si].own)
			for _, c := range children {
				add(sub[c])
			}
			slices.Sort(seen)
			total := make([]termCount, len(seen))
			for k, i := range seen {
				total[k] = termCount{i, count[i]}
				count[i] = 0
			}
			seen = seen[:0]
			sub[si] = total
		}
		dups := map[string]int{}
		for si := range d.Sections {
			dups[raws[v][si].keyOf]++
		}
		for si, s := range d.Sections {
			r := raws[v][si]
			x := &al.secs[v][si]
			x.end = si + 1
			for x.end < len(d.Sections) && d.Sections[x.end].Span.Start < s.Span.End {
				x.end++
			}
			x.pos = float64(si) / float64(max(len(d.Sections)-1, 1))
			x.dup = 1
			if r.keyOf != "" {
				x.dup = dups[r.keyOf]
			}
			title := make([]termCount, len(r.title))
			for k, i := range r.title {
				title[k] = termCount{id: i}
			}
			slices.SortFunc(title, func(p, q termCount) int { return int(p.id - q.id) })
			// A title word weighs by its rarity among titles and in the
			// text: a word every section uses is no topic however few
			// headings use it.
			x.title = slab.vec(title, func(tc termCount) float64 { return titleW[tc.id] })
			tfidf := func(tc termCount) float64 { return tfWeight(tc.n) * bodyW[tc.id] }
			x.body = slab.vec(r.own, tfidf)
			x.sub = slab.vec(sub[si], tfidf)
			// Index keys: the title terms and the weightiest rare terms
			// of the text.
			heavy = heavy[:0]
			for _, tc := range r.own {
				if df := bodyDF[tc.id]; df > 1 && df <= rare && !slices.Contains(r.title, tc.id) {
					heavy = append(heavy, weighed{tc.id, tfidf(tc)})
				}
			}
			slices.SortStableFunc(heavy, func(p, q weighed) int { return cmp.Compare(q.w, p.w) })
			// Sized once for the title terms, the body keys and the cites.
			x.keys = append(make([]int32, 0, len(r.title)+min(len(heavy), alignBodyKeys)+len(x.cites)), r.title...)
			for _, h := range heavy[:min(len(heavy), alignBodyKeys)] {
				x.keys = append(x.keys, h.id)
			}
			// and the heading ids it cites, which find the sections
			// those headings open.
			for _, c := range x.cites {
				if !slices.Contains(x.keys, c.id) {
					x.keys = append(x.keys, c.id)
				}
			}
			for _, k := range x.keys {
				al.index[v][k] = append(al.index[v][k], si)
			}
		}
	}
}

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

// TopicHeading names a variant's section of a topic: its outline
// reference ("2.1 Caching", as evidence cites it) and its heading's line.
type TopicHeading struct {
	Section string `json:"section"`
	Line    int    `json:"line"`
}

// topicHeadings names the topic's section in each variant.
func topicHeadings(docs []*Document, t topic) []TopicHeading {
	out := make([]TopicHeading, len(t.sections))
	for v, si := range t.sections {
		if si >= 0 {
			out[v] = TopicHeading{Section: sectionRef(docs[v], si), Line: docs[v].Sections[si].Line}
		}
	}
	return out
}
