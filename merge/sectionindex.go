package merge

import (
	"math"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/internal/words"
)

// sectionIndex answers locate's questions about one document without
// scanning its sections: the first section of each normalised title (with
// and without its number), of each title and number together, of each
// explicit heading number and of each outline number, and, for titles
// that match only by word overlap, the sections grouped by their word set
// with an inverted index from words to groups.
type sectionIndex struct {
	fullFirst, strippedFirst   firstOf // title → first section
	fullNumber, strippedNumber firstOf // title + number → first section
	explicit, outline          map[string]int
	children                   map[childKey]int // the first child of each title under each parent
	groups                     []wordGroup
	byWord                     map[string][]int // word → groups holding it, ascending
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
	k, ok := x.children[childKey{parent, title}]
	return k, ok
}

// firstOf maps a key (and a number) to the first section that has it.
type firstOf map[[2]string]int

func (f firstOf) note(key, number string, i int) {
	if _, ok := f[[2]string{key, number}]; !ok {
		f[[2]string{key, number}] = i
	}
}

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
	set      words.Set
	first    int
	byNumber map[string]int // number (explicit or outline) → first section
}

type sectionIndexKey struct{}

// indexOf returns d's index, built once per document (see
// [diff.Document.Memo]).
func indexOf(d *diff.Document) *sectionIndex {
	return d.Memo(sectionIndexKey{}, func() any { return newSectionIndex(d) }).(*sectionIndex)
}

func newSectionIndex(d *diff.Document) *sectionIndex {
	x := &sectionIndex{
		fullFirst: firstOf{}, strippedFirst: firstOf{}, fullNumber: firstOf{}, strippedNumber: firstOf{},
		explicit: map[string]int{}, outline: map[string]int{}, byWord: map[string][]int{}, children: map[childKey]int{},
	}
	stripped := make([]string, len(d.Sections))
	for i, s := range d.Sections {
		stripped[i] = normTitle(refs.StripNumber(s.Title))
	}
	noteChild := func(parent, k int) {
		if _, ok := x.children[childKey{parent, stripped[k]}]; !ok {
			x.children[childKey{parent, stripped[k]}] = k
		}
	}
	for p, s := range d.Sections {
		for _, k := range s.Children {
			noteChild(p, k)
		}
	}
	for _, k := range d.TopLevel() {
		noteChild(-1, k)
	}
	groupOf := map[string]int{}
	for i, s := range d.Sections {
		bare := refs.StripNumber(s.Title)
		full := normTitle(s.Title)
		ref := refOf(d, i)
		if n, _, _, ok := refs.HeadingNumber(s.Title); ok {
			if _, seen := x.explicit[n]; !seen {
				x.explicit[n] = i
			}
		}
		if _, seen := x.outline[s.Number]; !seen {
			x.outline[s.Number] = i
		}
		x.fullFirst.note(full, "", i)
		x.strippedFirst.note(stripped[i], "", i)
		numbers := []string{ref.Number, s.Number}
		for _, n := range numbers {
			if n != "" {
				x.fullNumber.note(full, n, i)
				x.strippedNumber.note(stripped[i], n, i)
			}
		}
		set := words.NewSet(bare)
		if len(set) == 0 {
			continue // overlaps nothing (see words.Set.Dice)
		}
		key := strings.Join(set, "\x00")
		g, ok := groupOf[key]
		if !ok {
			g = len(x.groups)
			groupOf[key] = g
			x.groups = append(x.groups, wordGroup{set: set, first: i, byNumber: map[string]int{}})
			for _, w := range set {
				x.byWord[w] = append(x.byWord[w], g)
			}
		}
		for _, n := range numbers {
			if _, seen := x.groups[g].byNumber[n]; !seen && n != "" {
				x.groups[g].byNumber[n] = i
			}
		}
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
func (x *sectionIndex) similar(set words.Set, number string) (int, bool) {
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
				if i, ok := grp.byNumber[number]; ok {
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
