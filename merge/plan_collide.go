package merge

import (
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/diff"

	"github.com/crucible-go/crucible/internal/refs"
)

// Contributions from several variants often win points about the same
// base section. Planned one by one they become two replaces of one
// section, and the second always fails at merge time ("already replaced by
// Change #1"), which ends an otherwise sound merge partial. They are
// resolved here instead, when the plan is made, so that every base section
// has at most one change that rewrites it:
//
//   - the first replace or restructure of a base section (plan order:
//     strengths first, then decisions) is kept; a later one is not made
//     and is listed among the changes not being made, naming the change
//     that took the section;
//   - a change whose source section lies inside the source of an earlier
//     change from the same variant is not made either: the earlier change
//     already brings it, and making both would put the same text in the
//     merged document twice;
//   - an append or insert of a section titled like one already where it
//     would go — a base section there, or one an earlier change puts
//     there — is not made (a variant that repeats its own structure would
//     otherwise bring "Baseline References" twice).
//
// Appends and inserts never collide with a replace: the replace keeps what
// is under its target (see graft).

// settleCollisions drops the changes that would collide with an earlier
// one, renumbers the rest and returns the drops as rejections.
func settleCollisions(in PlanInput, changes []Change) ([]Change, []Rejection) {
	rewritten := map[int]int{} // base section index → number of the change rewriting it
	var kept []Change
	var dropped []Rejection
	x := newKeptIndex(in, len(changes))
	for _, c := range changes {
		d, si := x.source(c) // located once: the index and the containment test both need it
		if by, ok := x.containedIn(c, d, si, kept); ok {
			dropped = append(dropped, Rejection{
				Point: pointOrDash(c.Rationale.Point), Topic: c.Title,
				NonBase: fmt.Sprintf("%s, %s", c.Source.Variant, c.Source.Section),
				Rationale: fmt.Sprintf("Not made on its own: it lies inside %s, which Change #%d already brings in whole.",
					kept[by].Source.Section, kept[by].Number),
			})
			continue
		}
		if why, ok := x.repeatsTitle(in, c, kept); ok {
			dropped = append(dropped, Rejection{
				Point: pointOrDash(c.Rationale.Point), Topic: c.Title,
				NonBase:   fmt.Sprintf("%s, %s", c.Source.Variant, c.Source.Section),
				Rationale: "Not made: " + why + "; one topic has one section.",
			})
			continue
		}
		if c.Approach == Replace || c.Approach == Restructure {
			if t, ok := locate(in.Base.Doc, c.Target); ok {
				if n, taken := rewritten[t]; taken {
					first := kept[n-1]
					dropped = append(dropped, Rejection{
						Point: pointOrDash(c.Rationale.Point), Topic: c.Title,
						NonBase: fmt.Sprintf("%s, %s (%s)", c.Source.Variant, c.Source.Section, c.Approach),
						Rationale: fmt.Sprintf("Change #%d already rewrites %s with %s's %s; one change per base section, so this one is not applied on top of it.",
							first.Number, c.Target, first.Source.Variant, first.Source.Section),
					})
					continue
				}
				rewritten[t] = len(kept) + 1
			}
		}
		c.Number = len(kept) + 1
		x.add(c, si, len(kept))
		kept = keepChange(kept, changes, c)
	}
	leaveSubsections(in, kept, rewritten)
	// numbers changed: re-word what quotes them
	for i := range kept {
		c := &kept[i]
		level := 0
		if t, ok := locate(in.Base.Doc, c.Target); ok && !c.Target.IsZero() {
			level = in.Base.Doc.Sections[t].Level
		}
		c.Integration, c.Impact, c.Rollback = describe(*c, level, c.Source.Variant, in.Base.Ref())
	}
	return kept, dropped
}

// keptIndex finds among the changes kept so far, without scanning them,
// the ones containedIn and repeatsTitle look for: by variant and source
// section, and by approach, target and title.
type keptIndex struct {
	in       PlanInput
	bySource map[sourceKey][]int // variant label, source section index → kept changes, in order
	byPlace  map[placeKey]int    // the first kept append or insert per place and title
	block    []int               // backing for bySource's one-element lists (see one)
}

type sourceKey struct {
	label string
	sec   int
}

type placeKey struct {
	approach Approach
	target   SectionRef
	title    string
}

// newKeptIndex makes the index for a plan of n changes: sized for them,
// so that a plan of thousands does not rehash it as it grows.
func newKeptIndex(in PlanInput, n int) *keptIndex {
	return &keptIndex{in: in, bySource: make(map[sourceKey][]int, n), byPlace: make(map[placeKey]int, n)}
}

// source locates c's source section in its variant, or -1.
func (x *keptIndex) source(c Change) (*diff.Document, int) {
	v := x.in.variant(c.Source.Variant.Label)
	if v.Doc == nil {
		return nil, -1
	}
	si, ok := sourceIndex(v, c)
	if !ok {
		return v.Doc, -1
	}
	return v.Doc, si
}

// add records kept change c, from section si of its variant, at index i.
func (x *keptIndex) add(c Change, si, i int) {
	if si >= 0 {
		k := sourceKey{c.Source.Variant.Label, si}
		if ks, ok := x.bySource[k]; ok {
			x.bySource[k] = append(ks, i)
		} else {
			x.bySource[k] = x.one(i)
		}
	}
	if c.Approach == Append || c.Approach == Insert {
		k := placeKey{c.Approach, c.Target, normTitle(refs.StripNumber(c.Source.Section.Title))}
		if _, ok := x.byPlace[k]; !ok {
			x.byPlace[k] = i
		}
	}
}

// one returns the list [i], cut from a block shared with the next lists:
// nearly every source section has one kept change, and a plan of
// thousands would otherwise allocate one list for each. A list grown
// past one element moves out of the block (its capacity is one).
func (x *keptIndex) one(i int) []int {
	if len(x.block) == cap(x.block) {
		x.block = make([]int, 0, 256)
	}
	x.block = append(x.block, i)
	return x.block[len(x.block)-1 : len(x.block) : len(x.block)]
}

// containedIn reports whether c's source section lies inside the source
// of one of the kept changes from the same variant, and which: the first
// kept change whose source section is an ancestor of c's in the variant's
// outline and whose text holds c's. The outline decides, not the section
// numbers: a heading's own number ("Section 2: Audit") need not prefix
// its subsections' outline numbers ("3.1").
//
// d and si are c's variant and source section, as source gives them.
func (x *keptIndex) containedIn(c Change, d *diff.Document, si int, kept []Change) (int, bool) {
	if si < 0 {
		return 0, false
	}
	best := -1
	for p := d.Sections[si].Parent; p >= 0; p = d.Sections[p].Parent {
		for _, i := range x.bySource[sourceKey{c.Source.Variant.Label, p}] {
			if best >= 0 && i >= best {
				break
			}
			if strings.Contains(kept[i].Source.Text, strings.TrimSpace(c.Source.Text)) {
				best = i
				break
			}
		}
	}
	return max(best, 0), best >= 0
}

// notMade is the rejection of a planned change the plan drops, saying
// why.
func notMade(c Change, why string) Rejection {
	return Rejection{Point: pointOrDash(c.Rationale.Point), Topic: c.Title,
		NonBase: fmt.Sprintf("%s, %s", c.Source.Variant, c.Source.Section), Rationale: why}
}

func pointOrDash(p string) string {
	if p == "" {
		return "—"
	}
	return p
}

// repeatsTitle reports whether an append or insert would put a section
// beside one of the same title: a base section under the same parent, or
// the section of an earlier append or insert to the same place.
func (x *keptIndex) repeatsTitle(in PlanInput, c Change, kept []Change) (string, bool) {
	if c.Approach != Append && c.Approach != Insert {
		return "", false
	}
	title := normTitle(refs.StripNumber(c.Source.Section.Title))
	if title == "" {
		return "", false
	}
	base := in.Base.Doc
	if t, ok := locate(base, c.Target); ok {
		parent := t // an insert goes under its target
		if c.Approach == Append {
			parent = base.Sections[t].Parent // an append beside it
		}
		if k, ok := indexOf(base).childTitled(parent, title); ok {
			return fmt.Sprintf("the base already has %s there", refOf(base, k)), true
		}
	}
	if i, ok := x.byPlace[placeKey{c.Approach, c.Target, title}]; ok {
		return fmt.Sprintf("Change #%d already puts a section of this title there", kept[i].Number), true
	}
	return "", false
}

// leaveSubsections keeps out of a replace's subtree what another change
// of the plan makes there. A replace of "Summary" would otherwise replace
// its subsection "Critical issues" again after the change that won that
// subsection's own point rewrote it, silently undoing it; and a replace
// of "Finding Accuracy" would lay its own "Delta 2.6" over the one an
// append brought, whose variant won that point. The base subsection is
// left to the change that rewrites it, and the source's counterpart — of
// either — is not brought (one topic, one section); the plan says so.
func leaveSubsections(in PlanInput, kept []Change, rewritten map[int]int) {
	// the sections appends and inserts bring, by the base section they go
	// under
	type brought struct {
		title  string
		change int
	}
	under := map[int][]brought{}
	for _, c := range kept {
		t, ok := locate(in.Base.Doc, c.Target)
		switch {
		case !ok || c.Target.IsZero():
			continue
		case c.Approach == Append:
			t = in.Base.Doc.Sections[t].Parent
		case c.Approach != Insert:
			continue
		}
		under[t] = append(under[t], brought{c.Title, c.Number})
	}
	for i := range kept {
		c := &kept[i]
		if c.Approach != Replace || len(c.Subsections) == 0 {
			continue
		}
		t, ok := locate(in.Base.Doc, c.Target)
		if !ok {
			continue
		}
		for j := range c.Subsections {
			sub := &c.Subsections[j]
			if sub.Fate == SubsectionAdded {
				for _, b := range under[t] {
					if b.change != c.Number && sameHeading(sub.Source, b.title) {
						sub.Fate, sub.Change = SubsectionLeft, b.change
						break
					}
				}
				continue
			}
			if sub.Fate != SubsectionReplaced && sub.Fate != SubsectionCovered && sub.Fate != SubsectionKept {
				continue
			}
			for _, k := range in.Base.Doc.Sections[t].Children {
				if in.Base.Doc.Sections[k].Title != sub.Base {
					continue
				}
				if n, ok := rewritten[k]; ok && n != c.Number {
					if sub.Fate == SubsectionCovered {
						sub.Source = ""
					}
					sub.Fate, sub.Change = SubsectionKept, n
				}
			}
		}
	}
}
