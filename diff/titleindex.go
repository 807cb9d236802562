package diff

import (
	"cmp"
	"slices"
	"strings"

	"github.com/crucible-go/crucible/internal/words"
)

// titleIndex finds the titles that overlap a query title at sameSection
// or more (titleOverlap) without comparing the query with every title: the
// structural comparison asks for each top-level section of each variant,
// and a scan of every title made it quadratic in the sections.
//
// A title overlaps another at sameSection or more when the two are equal
// up to case and surrounding space (score 1), or when their word sets
// have a Dice coefficient of at least 0.8. Titles are grouped by their
// case-folded text and by their word set; the word-set groups are found
// through a prefix filter: Dice ≥ 0.8 needs a share of at least ⅔ of
// either set, so under one fixed order of the words, the first
// |S| − ⌊2|S|/3⌋ + 1 words of the two sets (rarest first) have one in
// common. Each group lists its titles in ascending order, so "the first
// title of a group" is a cursor.
type titleIndex struct {
	rank   map[string]int // the fixed word order: rarest first
	groups []titleGroup
	byFold map[string]int   // case-folded title → group
	bySet  map[string]int   // word set → group
	byWord map[string][]int // prefix word → word-set groups
}

type titleGroup struct {
	set words.Set // nil for a case-folded-text group
	ids []int     // ascending
}

// newTitleIndex returns an empty index whose word order is that of the
// given sets: rarest first, then alphabetical.
func newTitleIndex(universe []words.Set) *titleIndex {
	freq := map[string]int{}
	for _, s := range universe {
		for _, w := range s {
			freq[w]++
		}
	}
	all := make([]string, 0, len(freq))
	for w := range freq {
		all = append(all, w)
	}
	slices.SortFunc(all, func(a, b string) int {
		if c := cmp.Compare(freq[a], freq[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	rank := make(map[string]int, len(all))
	for i, w := range all {
		rank[w] = i
	}
	return &titleIndex{rank: rank, byFold: map[string]int{}, bySet: map[string]int{}, byWord: map[string][]int{}}
}

// prefix returns the words of s a match must share one of: its first
// |s| − ⌊2|s|/3⌋ + 1 in the index's order. Words outside the order come
// last.
func (x *titleIndex) prefix(s words.Set) []string {
	ws := slices.Clone(s)
	order := func(w string) int {
		if r, ok := x.rank[w]; ok {
			return r
		}
		return len(x.rank)
	}
	slices.SortFunc(ws, func(a, b string) int {
		if c := cmp.Compare(order(a), order(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return ws[:len(ws)-max(1, 2*len(ws)/3)+1]
}

// add records title number id, which must be higher than any added.
func (x *titleIndex) add(id int, title string, set words.Set) {
	fk := words.FoldKey(strings.TrimSpace(title))
	g, ok := x.byFold[fk]
	if !ok {
		g = len(x.groups)
		x.groups = append(x.groups, titleGroup{})
		x.byFold[fk] = g
	}
	x.groups[g].ids = append(x.groups[g].ids, id)
	if len(set) == 0 {
		return // overlaps nothing but an equal title
	}
	sk := strings.Join(set, "\x00")
	g, ok = x.bySet[sk]
	if !ok {
		g = len(x.groups)
		x.groups = append(x.groups, titleGroup{set: set})
		x.bySet[sk] = g
		for _, w := range x.prefix(set) {
			x.byWord[w] = append(x.byWord[w], g)
		}
	}
	x.groups[g].ids = append(x.groups[g].ids, id)
}

// candidates calls fn with the query's case-folded-text group (score 1)
// and each word-set group whose set overlaps the query's at sameSection
// or more, with the group's score against the query. A title in a
// word-set group that is also equal to the query's text scores 1, not the
// group's score: the text group covers it.
func (x *titleIndex) candidates(title string, set words.Set, fn func(g int, score float64)) {
	if g, ok := x.byFold[words.FoldKey(strings.TrimSpace(title))]; ok {
		fn(g, 1)
	}
	if len(set) == 0 {
		return
	}
	seen := map[int]bool{}
	for _, w := range x.prefix(set) {
		for _, g := range x.byWord[w] {
			if seen[g] {
				continue
			}
			seen[g] = true
			if score := set.Dice(x.groups[g].set); score >= sameSection {
				fn(g, score)
			}
		}
	}
}

// first returns the lowest title that overlaps the query at sameSection
// or more, or -1.
func (x *titleIndex) first(title string, set words.Set) int {
	best := -1
	x.candidates(title, set, func(g int, _ float64) {
		if id := x.groups[g].ids[0]; best < 0 || id < best {
			best = id
		}
	})
	return best
}

// bestUnused returns, among the titles used does not hold, the one that
// overlaps the query most, at sameSection or more — the lowest on a tie —
// or -1. next holds each group's cursor: the position of its first title
// that may be unused; used titles are never freed while it is kept.
func (x *titleIndex) bestUnused(title string, set words.Set, used map[int]bool, next map[int]int) (int, float64) {
	best, bestScore := -1, 0.0
	x.candidates(title, set, func(g int, score float64) {
		ids := x.groups[g].ids
		k := next[g]
		for k < len(ids) && used[ids[k]] {
			k++
		}
		next[g] = k
		if k == len(ids) {
			return
		}
		if id := ids[k]; best < 0 || score > bestScore || score == bestScore && id < best {
			best, bestScore = id, score
		}
	})
	return best, bestScore
}
