package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/crucible-go/crucible/internal/words"
)

// Merging the model's findings with the rules': one table, each row
// saying which detectors found it, a finding cited by the same lines as
// another reported once.

// citing returns the index of an indexed contradiction that cites every
// statement c cites, or every one of whose statements c cites: the same
// conflict, found by another detector with more or fewer sides. Two
// statements in common are needed, or one when c cites only one (a
// statement that contradicts itself, such as a count beside a list of
// another length).
func (idx coverage) citing(c Contradiction) (int, bool) {
	if len(c.Claims) == 0 {
		return 0, false
	}
	lines := map[[2]int]bool{}
	counts := map[int]int{} // indexed contradiction → statements of c it cites
	for _, cl := range c.Claims {
		k := [2]int{cl.Variant, cl.Line}
		if lines[k] {
			continue
		}
		lines[k] = true
		for _, i := range idx[k] {
			counts[i]++
		}
	}
	best := -1
	for i, n := range counts {
		if n >= min(2, len(lines)) && (n == len(lines) || n == idx.size(i)) {
			if best < 0 || i < best {
				best = i
			}
		}
	}
	return best, best >= 0
}

// size returns how many distinct statements contradiction i cites.
func (idx coverage) size(i int) int {
	n := 0
	for _, l := range idx {
		if slices.Contains(l, i) {
			n++
		}
	}
	return n
}

// uncoveredDifferences drops the differences whose lines a reported
// contradiction already cites: the conflict is in the table.
func uncoveredDifferences(diffs []Difference, cs []Contradiction) []Difference {
	cov := newCoverage(cs)
	var out []Difference
	for _, d := range diffs {
		if _, ok := cov.citing(Contradiction{Claims: d.Claims}); ok {
			continue
		}
		out = append(out, d)
	}
	return out
}

// differencePoints turns the findings that are not contradictions into
// content differences: the subject, each variant's statements, and why it
// is not a contradiction. An intended change between revisions is rated
// Medium (a merge must take the later value), an unconfirmed conflict
// Low.
func differencePoints(docs []*Document, ds []Difference) []Point {
	var points []Point
	for _, d := range ds {
		rating := Low
		if d.Kind == RevisionChange {
			rating = Medium
		}
		p := Point{Category: CategoryContent, Kind: d.Kind, Title: capitalise(d.Subject), Positions: emptyPositions(len(docs)),
			Rating: rating, Reason: d.Reason}
		cite(docs, &p, d.Claims)
		for _, e := range p.Evidence {
			if !slices.Contains(p.Variants, e.Variant) {
				p.Variants = append(p.Variants, e.Variant)
			}
		}
		slices.Sort(p.Variants)
		points = append(points, p)
	}
	return points
}

// revisionChanges takes the conflicts between two successive revisions
// out of the contradictions: the later revision changed the value, and a
// merge takes it. They are reported as changes; conflicts within one
// revision stay contradictions.
func revisionChanges(cs []Contradiction, found [][]string, diffs []Difference, order []int) ([]Contradiction, [][]string, []Difference) {
	rank := make(map[int]int, len(order))
	for i, v := range order {
		rank[v] = i
	}
	var keep []Contradiction
	var keepFound [][]string
	for i, c := range cs {
		if c.Scope() != CrossVariant {
			keep = append(keep, c)
			keepFound = append(keepFound, found[i])
			continue
		}
		latest := c.Claims[0].Variant
		for _, cl := range c.Claims {
			if rank[cl.Variant] > rank[latest] {
				latest = cl.Variant
			}
		}
		reason := fmt.Sprintf("%s (changed by the later revision, Variant %s; found by %s)", c.Reason, Label(latest), strings.Join(found[i], " and "))
		diffs = append(diffs, Difference{Kind: RevisionChange, Subject: c.Subject, Claims: c.Claims, Reason: reason})
	}
	return keep, keepFound, diffs
}

// A finding restated. The model reads a topic at a time and often reports
// one conflict several times: once from a summary table and once from
// the section it summarises, or once per request that saw it. The rules
// report it too, from lines of their own. A restatement is not a second
// contradiction: it is merged into the first, whose row then says who
// found it.

// restatementShare is how much of the shorter of their subjects two
// findings citing a common line must share to be one conflict: a model's
// subject often adds a qualifier to the rules' ("duration of Phase 2
// (interactive prompt)" for "duration of phase 2").
const restatementShare = 0.8

// conflictShape is what comparing two findings needs of each, computed
// once.
type conflictShape struct {
	lines    map[[2]int]bool // variant and line of every claim
	variants []int
	intra    int      // the variant of an intra-variant finding, else -1
	terms    []string // significant words of the subject
	names    []string // numbers and identifiers in the subject: "2", "notify.py", "v1"
}

func shapeOf(c Contradiction) conflictShape {
	s := conflictShape{lines: map[[2]int]bool{}, variants: claimVariants(c.Claims), intra: -1}
	for _, cl := range c.Claims {
		s.lines[[2]int{cl.Variant, cl.Line}] = true
	}
	if len(s.variants) == 1 {
		s.intra = s.variants[0]
	}
	for _, t := range words.Tokens(c.Subject) {
		if !hasLetter(t) || strings.ContainsAny(t, "0123456789._") {
			s.names = append(s.names, strings.Trim(t, "."))
		}
	}
	s.terms = subjectWords(c.Subject)
	slices.Sort(s.terms)
	s.terms = slices.Compact(s.terms)
	slices.Sort(s.names)
	s.names = slices.Compact(s.names)
	return s
}

// restates reports whether b is the conflict a reports, cited again: both
// within the same variant or both across variants, the variants of one
// among the other's, and
//   - the same lines, or
//   - at least two common lines, half the lines of each, or
//   - a common line and the same subject: the words of the shorter
//     subject nearly all in the longer, and the same numbers and
//     identifiers in both, if both have any ("phase 2" is not "phase 3",
//     nor "notify.py" "executor.py").
func (a conflictShape) restates(b conflictShape) bool {
	if a.intra != b.intra || !subsetInts(a.variants, b.variants) && !subsetInts(b.variants, a.variants) {
		return false
	}
	common := 0
	for l := range a.lines {
		if b.lines[l] {
			common++
		}
	}
	switch {
	case common == 0:
		return false
	case common == len(a.lines) && common == len(b.lines):
		return true
	case common >= 2 && 2*common >= max(len(a.lines), len(b.lines)):
		return true
	}
	if len(a.names) > 0 && len(b.names) > 0 && !slices.Equal(a.names, b.names) {
		return false
	}
	shared := 0
	for _, t := range a.terms {
		if _, ok := slices.BinarySearch(b.terms, t); ok {
			shared++
		}
	}
	smaller := min(len(a.terms), len(b.terms))
	if len(a.names) > 0 && len(b.names) > 0 {
		shared += len(a.names) // equal, checked above
		smaller += len(a.names)
	}
	return smaller > 0 && float64(shared) >= restatementShare*float64(smaller)
}

// subsetInts reports whether every element of a (sorted) is in b (sorted).
func subsetInts(a, b []int) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return false
		}
	}
	return true
}

// restatementOf returns the index of the first of shapes that c restates.
func restatementOf(shapes []conflictShape, c conflictShape) (int, bool) {
	for i, s := range shapes {
		if s.restates(c) {
			return i, true
		}
	}
	return 0, false
}
