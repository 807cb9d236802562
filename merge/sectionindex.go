package merge

import (
	"math"
	"strings"
	"sync"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/internal/words"
)

// sectionIndex answers locate's questions about one document without
// scanning its sections: the first section of each normalised title (with
// and without its number), of each title and number together, of each
// explicit heading number and of each outline number, and the first child
// of each title under each parent. Titles that match only by word overlap
// are looked up in the document's titleOverlap index, built the first time
// one is asked for.
//
// Each table is built the first time it is asked for: most documents
// are asked about by title and number only (a plan names sections so),
// only bases are asked for children, and the tables of a document of
// thousands of sections are the bulk of what locating it costs.
type sectionIndex struct {
	d *diff.Document
	// full and stripped hold each section's title normalised, with and
	// without its number; number its explicit heading number, if any.
	full, stripped, number []string
	// norms holds the first section of each of the document's own titles:
	// most lookups ask for a title the document has, and need not
	// normalise it again.
	norms map[string]int

	numbered, titled, numbers, kids sync.Once
	fullFirst, strippedFirst        firstOf // title → first section
	fullNumber, strippedNumber      firstOf // title + number → first section
	explicit, outline               map[string]int
	children                        map[childKey]int // the first child of each title under each parent
}

// normalised returns title normalised with and without its number (see
// normTitle), from the document's own titles when it is one of them.
func (x *sectionIndex) normalised(title string) (full, stripped string) {
	if i, ok := x.norms[title]; ok {
		return x.full[i], x.stripped[i]
	}
	return normTitle(title), normTitle(refs.StripNumber(title))
}

// byNumber returns the first section with normalised title full, or
// stripped, and number: the earlier of the two, or -1.
func (x *sectionIndex) byNumber(full, stripped, number string) int {
	x.numbered.Do(func() {
		n := len(x.full)
		x.fullNumber, x.strippedNumber = make(firstOf, n), make(firstOf, n)
		for i := n - 1; i >= 0; i-- {
			outline := x.d.Sections[i].Number
			number := outline // the reference's number: explicit, else the outline's
			if x.number[i] != "" {
				number = x.number[i]
			}
			for _, num := range [2]string{number, outline} {
				if num != "" {
					x.fullNumber[[2]string{x.full[i], num}] = i
					x.strippedNumber[[2]string{x.stripped[i], num}] = i
				}
				if outline == number {
					break // the same key again
				}
			}
		}
	})
	return earlier(x.fullNumber.first(full, number), x.strippedNumber.first(stripped, number))
}

// byTitle returns the first section with normalised title full, or
// stripped: the earlier of the two, or -1.
func (x *sectionIndex) byTitle(full, stripped string) int {
	x.titled.Do(func() {
		n := len(x.full)
		x.fullFirst, x.strippedFirst = make(firstOf, n), make(firstOf, n)
		for i := n - 1; i >= 0; i-- {
			x.fullFirst[[2]string{x.full[i], ""}] = i
			x.strippedFirst[[2]string{x.stripped[i], ""}] = i
		}
	})
	return earlier(x.fullFirst.first(full, ""), x.strippedFirst.first(stripped, ""))
}

// numberOnly returns the first section whose explicit heading number is
// number, else the first whose outline number is.
func (x *sectionIndex) numberOnly(number string) (int, bool) {
	x.numbers.Do(func() {
		n := len(x.full)
		x.explicit, x.outline = make(map[string]int), make(map[string]int, n)
		for i := n - 1; i >= 0; i-- {
			if x.number[i] != "" {
				x.explicit[x.number[i]] = i
			}
			x.outline[x.d.Sections[i].Number] = i
		}
	})
	if i, ok := x.explicit[number]; ok {
		return i, true
	}
	if i, ok := x.outline[number]; ok {
		return i, true
	}
	return -1, false
}

// earlier returns the earlier of two sections, -1 standing for none.
func earlier(i, j int) int {
	if i < 0 || j >= 0 && j < i {
		return j
	}
	return i
}

// titleOverlap groups a document's sections by the word set of their title,
// with an inverted index from words to groups, for the titles that match
// only by word overlap (see [titleOverlap.similar]).
type titleOverlap struct {
	groups []wordGroup
	byWord map[string][]int // word → groups holding it, ascending
}

// childKey is a parent section (-1: the top level) and a child's title,
// normalised without its number.
type childKey struct {
	parent int
	title  string
}

// childTitled returns the first of parent's children (of the top-level
// sections, for parent -1) whose title, normalised without its number, is
// title.
func (x *sectionIndex) childTitled(parent int, title string) (int, bool) {
	x.kids.Do(func() {
		x.children = make(map[childKey]int, len(x.full))
		// written from the last child to the first: the first with a
		// key is written last and stays
		note := func(parent int, ks []int) {
			for j := len(ks) - 1; j >= 0; j-- {
				x.children[childKey{parent, x.stripped[ks[j]]}] = ks[j]
			}
		}
		note(-1, x.d.TopLevel())
		for p, s := range x.d.Sections {
			note(p, s.Children)
		}
	})
	k, ok := x.children[childKey{parent, title}]
	return k, ok
}

// firstOf maps a key (and a number) to the first section that has it.
// It is filled from the last section to the first, so that one write per
// key, without a lookup before it, leaves the first section in place.
type firstOf map[[2]string]int

// first returns the first section with key and number, or -1.
func (f firstOf) first(key, number string) int {
	if i, ok := f[[2]string{key, number}]; ok {
		return i
	}
	return -1
}

// wordGroup is the sections whose titles have one word set: they overlap
// any title equally, so the first of them wins unless a later one's
// number matches.
type wordGroup struct {
	set   words.Set
	first int
	// numbered holds the first section of each number (explicit or
	// outline) while the group is small; byNumber replaces it when the
	// group grows past a few numbers (one title repeated all over a
	// document), so that a lookup never scans a long list.
	numbered []numberedSection
	byNumber map[string]int
}

type numberedSection struct {
	number  string
	section int
}

// maxNumbered is the most numbers a group keeps in its list.
const maxNumbered = 8

func (g *wordGroup) note(number string, i int) {
	if number == "" {
		return
	}
	if g.byNumber != nil {
		if _, seen := g.byNumber[number]; !seen {
			g.byNumber[number] = i
		}
		return
	}
	for _, ns := range g.numbered {
		if ns.number == number {
			return
		}
	}
	if len(g.numbered) < maxNumbered {
		g.numbered = append(g.numbered, numberedSection{number, i})
		return
	}
	g.byNumber = make(map[string]int, 2*maxNumbered)
	for _, ns := range g.numbered {
		g.byNumber[ns.number] = ns.section
	}
	g.numbered = nil
	g.byNumber[number] = i
}

func (g *wordGroup) numberedAs(number string) (int, bool) {
	if g.byNumber != nil {
		i, ok := g.byNumber[number]
		return i, ok
	}
	for _, ns := range g.numbered {
		if ns.number == number {
			return ns.section, true
		}
	}
	return -1, false
}

type (
	sectionIndexKey struct{}
	titleOverlapKey struct{}
)

// indexOf returns d's index, built once per document (see
// [diff.Document.Memo]).
func indexOf(d *diff.Document) *sectionIndex {
	return d.Memo(sectionIndexKey{}, func() any { return newSectionIndex(d) }).(*sectionIndex)
}

// titleOverlapOf returns d's word-overlap index, built once per document
// and only for documents where an exact lookup failed.
func titleOverlapOf(d *diff.Document) *titleOverlap {
	return d.Memo(titleOverlapKey{}, func() any { return newTitleOverlap(d) }).(*titleOverlap)
}

func newSectionIndex(d *diff.Document) *sectionIndex {
	n := len(d.Sections)
	x := &sectionIndex{d: d, full: make([]string, n), stripped: make([]string, n), number: make([]string, n),
		norms: make(map[string]int, n)}
	for i := n - 1; i >= 0; i-- { // the first section with a title is written last and stays
		s := d.Sections[i]
		x.full[i] = normTitle(s.Title)
		x.stripped[i] = normTitle(refs.StripNumber(s.Title))
		if explicit, _, _, ok := refs.HeadingNumber(s.Title); ok {
			x.number[i] = explicit
		}
		x.norms[s.Title] = i
	}
	return x
}

func newTitleOverlap(d *diff.Document) *titleOverlap {
	x := &titleOverlap{byWord: map[string][]int{}}
	groupOf := map[string]int{}
	for i, s := range d.Sections {
		set := words.NewSet(refs.StripNumber(s.Title))
		if len(set) == 0 {
			continue // overlaps nothing (see words.Set.Dice)
		}
		key := strings.Join(set, "\x00")
		g, ok := groupOf[key]
		if !ok {
			g = len(x.groups)
			groupOf[key] = g
			x.groups = append(x.groups, wordGroup{set: set, first: i})
			for _, w := range set {
				x.byWord[w] = append(x.byWord[w], g)
			}
		}
		ref := refOf(d, i)
		x.groups[g].note(ref.Number, i)
		x.groups[g].note(s.Number, i)
	}
	return x
}

// similar returns the section whose title overlaps set best, with an
// overlap of at least refs.SameTitle; a section whose number is number
// scores one more, and among equal scores the first section wins.
//
// Only groups that can reach the threshold are scored. A title of a words
// and one of b words sharing o overlap 2o/(a+b) ≥ t only if o ≥ t·a/(2−t)
// (as b ≥ o), so such a title holds at least one of any a−o+1 words of set:
// the groups of set's rarest a−o+1 words are the candidates.
func (x *titleOverlap) similar(set words.Set, number string) (int, bool) {
	if len(set) == 0 {
		return -1, false
	}
	const t = refs.SameTitle
	need := max(1, int(math.Floor(t*float64(len(set))/(2-t)-1e-9)))
	rare := make([]string, 0, len(set))
	for _, w := range set {
		if len(x.byWord[w]) > 0 {
			rare = append(rare, w)
		}
	}
	// rarest first; ties by the word, so the choice never depends on the
	// map's order (the candidates are a superset either way)
	sortByPostings(rare, x.byWord)
	if keep := len(set) - need + 1; keep < len(rare) {
		rare = rare[:keep]
	}
	best, bestScore := -1, 0.0
	consider := func(i int, score float64) {
		if score > bestScore || score == bestScore && i < best {
			best, bestScore = i, score
		}
	}
	seen := map[int]bool{}
	for _, w := range rare {
		for _, g := range x.byWord[w] {
			if seen[g] {
				continue
			}
			seen[g] = true
			grp := &x.groups[g]
			score := set.Dice(grp.set)
			if score < t {
				continue
			}
			consider(grp.first, score)
			if number != "" {
				if i, ok := grp.numberedAs(number); ok {
					consider(i, score+1) // the number breaks ties between similar titles
				}
			}
		}
	}
	return best, best >= 0
}

func sortByPostings(ws []string, byWord map[string][]int) {
	// insertion sort: a title has a handful of words
	for i := 1; i < len(ws); i++ {
		for j := i; j > 0; j-- {
			a, b := ws[j-1], ws[j]
			if len(byWord[a]) < len(byWord[b]) || len(byWord[a]) == len(byWord[b]) && a <= b {
				break
			}
			ws[j-1], ws[j] = b, a
		}
	}
}
