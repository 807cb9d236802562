package diff

import (
	"fmt"
	"slices"
	"strings"
)

// Merging the model's findings with the rules': one table, each row
// saying which detectors found it, a finding cited by the same lines as
// another reported once.

// citing returns the index of an indexed contradiction that cites every
// statement c cites, or every one of whose statements c cites: the same
// conflict, found by another detector with more or fewer sides.
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
		if n >= 2 && (n == len(lines) || n == idx.size(i)) {
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
