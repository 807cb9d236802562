package merge

import (
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/internal/words"
)

// sectionIndex answers locate's questions about one document without
// scanning its sections: the sections of each number (explicit or
// outline), the first section of each normalised title (with and without
// its number), of each explicit heading number and of each outline
// number, and the first child of each title under each parent. Titles that match only by word overlap
// are looked up in the document's titleOverlap index, built the first time
// one is asked for.
//
// A document is indexed by number first, eagerly: a plan names
// sections by number and title, and nearly every number names one
// section, so a lookup is one probe of one table and a comparison of the
// title. The normalised titles and every other table are built the first
// time they are asked for: only bases are asked for children, few
// lookups by title alone, and the tables of a document of thousands of
// sections were the bulk of what locating in it cost.
type sectionIndex struct {
	d *diff.Document
	// number holds each section's explicit heading number, if any.
	number []string
	// byNum holds the first section of each number, explicit or outline;
	// shared, every section of a number more than one section has, in
	// order (an explicit number that is also another section's outline
	// number, or another section's explicit number).
	byNum  map[string]int
	shared map[string][]int

	normed sync.Once
	// full and stripped hold each section's title normalised, with and
	// without its number; norms the first section of each of the
	// document's own titles: most lookups ask for a title the document
	// has, and need not normalise it again.
	full, stripped []string
	norms          map[string]int

	titled, numbers, kids    sync.Once
	fullFirst, strippedFirst firstOf // title → first section
	explicit, outline        map[string]int
	children                 map[childKey]int // the first child of each title under each parent
}

// normalise builds the normalised titles.
func (x *sectionIndex) normalise() {
	x.normed.Do(func() {
		n := len(x.d.Sections)
		x.full, x.stripped, x.norms = make([]string, n), make([]string, n), make(map[string]int, n)
		for i := n - 1; i >= 0; i-- { // the first section with a title is written last and stays
			t := x.d.Sections[i].Title
			x.full[i] = normTitle(t)
			x.stripped[i] = normTitle(refs.StripNumber(t))
			x.norms[t] = i
		}
	})
}

// normalised returns title normalised with and without its number (see
// normTitle), from the document's own titles when it is one of them.
func (x *sectionIndex) normalised(title string) (full, stripped string) {
	x.normalise()
	if i, ok := x.norms[title]; ok {
		return x.full[i], x.stripped[i]
	}
	return normTitle(title), normTitle(refs.StripNumber(title))
}

// byNumber returns the first section with number (explicit or outline)
// whose title is title up to normalisation (see normTitle), with or
// without its number; -1 for none.
func (x *sectionIndex) byNumber(title, number string) int {
	if ks, ok := x.shared[number]; ok {
		full, stripped := x.normalised(title)
		for _, k := range ks {
			if x.d.Sections[k].Title == title || x.full[k] == full || x.stripped[k] == stripped {
				return k
			}
		}
		return -1
	}
	k, ok := x.byNum[number]
	if !ok {
		return -1
	}
	if x.d.Sections[k].Title == title {
		return k
	}
	full, stripped := x.normalised(title)
	if x.full[k] == full || x.stripped[k] == stripped {
		return k
	}
	return -1
}

// byTitle returns the first section with normalised title full, or
// stripped: the earlier of the two, or -1.
func (x *sectionIndex) byTitle(full, stripped string) int {
	x.normalise()
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
		n := len(x.number)
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
	x.normalise()
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
	x := &sectionIndex{d: d, number: make([]string, n), byNum: make(map[string]int, n)}
	// Outline numbers name one section each: written blind. An explicit
	// number other than the section's outline number may be any
	// section's, and is added with a look first.
	var odd []int
	for i, s := range d.Sections {
		if s.Number != "" {
			x.byNum[s.Number] = i
		}
		if explicit, _, _, ok := refs.HeadingNumber(s.Title); ok {
			x.number[i] = explicit
			if explicit != s.Number {
				odd = append(odd, i)
			}
		}
	}
	for _, i := range odd {
		e := x.number[i]
		k, ok := x.byNum[e]
		switch {
		case !ok:
			x.byNum[e] = i
		case x.shared[e] != nil:
			x.shared[e] = insertSorted(x.shared[e], i)
		default:
			if x.shared == nil {
				x.shared = map[string][]int{}
			}
			x.shared[e] = insertSorted([]int{k}, i)
			x.byNum[e] = min(k, i)
		}
	}
	return x
}

// insertSorted inserts i into the ascending list ks, once.
func insertSorted(ks []int, i int) []int {
	at, found := slices.BinarySearch(ks, i)
	if found {
		return ks
	}
	return slices.Insert(ks, at, i)
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
