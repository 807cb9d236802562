package merge

import (
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
)

// A variant that repeats one heading under each of its items — "Root
// Cause" and "Fix" under every bug, "Milestone" under every phase — splits
// each item into the same facets. Where the base covers the item in one
// section without subsections ("3.4 Bug 4 Fix: Conditional State Writes",
// aligned with the variant's "Bug 4"), that section already states the
// item's fix; inserting the variant's "Fix" under it states a second,
// competing fix for the same bug. Such a facet is not inserted: the plan
// lists it among the changes not being made, naming the base section that
// covers the item. A facet under a base section that has subsections of
// its own, or whose text is too short to cover anything, is still
// inserted.

// facetWords is the least number of words a base section's own text
// needs to count as covering its item as a whole.
const facetWords = 40

// dropFacets removes the inserts of a repeated heading under the base
// section its parent is aligned with, where that section covers the item
// alone.
func dropFacets(in PlanInput, changes []Change) ([]Change, []Rejection) {
	if len(in.Alignment) == 0 {
		return changes, nil
	}
	// a base section another change rewrites takes its subtree from
	// that change (settleCollisions records what it brings)
	rewritten := map[int]bool{}
	for _, c := range changes {
		if c.Approach == Replace || c.Approach == Restructure {
			if t, ok := locate(in.Base.Doc, c.Target); ok {
				rewritten[t] = true
			}
		}
	}
	var kept []Change
	var out []Rejection
	for _, c := range changes {
		if t, ok := facetOfCovered(in, c); ok && !rewritten[t] {
			out = append(out, notMade(c, fmt.Sprintf("Not added: %s repeats the heading %q under each of its items, and the base's %s covers this item as a whole; under it, the section would state the item a second time.",
				c.Source.Variant, refs.StripNumber(c.Source.Section.Title), refOf(in.Base.Doc, t))))
			continue
		}
		kept = keepChange(kept, changes, c)
	}
	return kept, out
}

// facetOfCovered reports whether c inserts a repeated heading of its
// variant under the base section its parent is aligned with, a section
// without subsections whose own text covers the item; and which.
func facetOfCovered(in PlanInput, c Change) (int, bool) {
	if c.Approach != Insert {
		return -1, false
	}
	v := in.variant(c.Source.Variant.Label)
	if v.Doc == nil {
		return -1, false
	}
	si, ok := sourceIndex(v, c)
	if !ok {
		return -1, false
	}
	p := v.Doc.Sections[si].Parent
	if p < 0 || v.Doc.Sections[p].Depth == 0 || !repeatedHeading(v.Doc, si) {
		return -1, false
	}
	t, ok := locate(in.Base.Doc, c.Target)
	if !ok || alignedIn(in, v)(p) != t {
		return -1, false
	}
	bs := in.Base.Doc.Sections[t]
	if len(bs.Children) > 0 || len(strings.Fields(in.Base.Doc.Text(ownSpan(in.Base.Doc, t)))) < facetWords {
		return -1, false
	}
	return t, true
}

type repeatedKey struct{}

// repeatedHeading reports whether d has another section titled like
// section si, numbering aside.
func repeatedHeading(d *diff.Document, si int) bool {
	counts := d.Memo(repeatedKey{}, func() any {
		m := map[string]int{}
		for _, s := range d.Sections {
			m[normTitle(refs.StripNumber(s.Title))]++
		}
		return m
	}).(map[string]int)
	return counts[normTitle(refs.StripNumber(d.Sections[si].Title))] > 1
}
