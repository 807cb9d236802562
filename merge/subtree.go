package merge

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/internal/words"
)

// A replace works on the target's subtree, not on its body alone. A
// section is judged by its own text, so a replace that swapped everything
// under the heading would silently drop the base's subsections (their
// constants, their procedures) whenever the source did not repeat them.
// Instead the target's and the source's subsections are paired by title:
//
//   - a base subsection the source also has is replaced by the source's,
//     the same way, level by level;
//   - a base subsection the source lacks is kept, after the base
//     subsection it followed (see mergeOrder);
//   - a source subsection the base lacks is added;
//   - the subsections come in the source's order.
//
// A subsection another change of the plan rewrites, or a section another
// change adds there, is left to that change (see leaveSubsections).
//
// One exception mirrors the facets rule (see facets.go): when the base
// splits its items into repeated facets ("Objectives", "Work items",
// "Milestone" under every phase) and the source covers the item in one
// section without subsections, the source's text already states those
// facets. Keeping the base's would state the item twice — two milestones,
// two work lists — so such a facet is replaced by the source section as
// a whole. A base subsection that is not a repeated facet is still kept.
//
// The plan states the outcome for each subsection ([Change.Subsections]),
// so nothing disappears without a plan entry saying so.

// SubsectionFate is what a replace does with one subsection of its target
// or its source.
type SubsectionFate string

// The fates of subsections under a replace.
const (
	SubsectionKept     SubsectionFate = "kept"     // the base's, kept as it is
	SubsectionReplaced SubsectionFate = "replaced" // the base's, replaced by the source's of the same title
	SubsectionAdded    SubsectionFate = "added"    // the source's, added: the base has none like it
	// SubsectionCovered: the base's, a facet it repeats under each item,
	// replaced by the source section that covers the item as a whole.
	SubsectionCovered SubsectionFate = "covered"
	// SubsectionLeft: the source's, not brought — another change of the
	// plan (Subsection.Change) adds a section on the same topic there.
	SubsectionLeft SubsectionFate = "left"
)

// Subsection is one direct subsection of a replace's target or source and
// what the replace does with it.
type Subsection struct {
	Base   string         `json:"base,omitempty"`   // the base heading, empty when added
	Source string         `json:"source,omitempty"` // the source heading, empty when kept
	Fate   SubsectionFate `json:"fate"`
	// Change, on a kept base subsection, is the other change of the plan
	// that rewrites it; the source's counterpart (Source) is then not
	// brought, since one topic has one section.
	Change int `json:"change,omitempty"`
}

// sameHeading reports whether two heading titles name the same
// subsection: equal up to case, spacing and numbering, or a word overlap
// of at least refs.SameTitle.
func sameHeading(a, b string) bool {
	a, b = refs.StripNumber(a), refs.StripNumber(b)
	if normTitle(a) == normTitle(b) {
		return true
	}
	return words.NewSet(a).Dice(words.NewSet(b)) >= refs.SameTitle
}

// pairWith pairs each source title with a distinct base title naming
// the same subsection: pair[i] is the index in base of src[i]'s match, -1
// for none. The pairs given in first (a base index per source title, -1
// for none) come first — the alignment knows that "Delta 2.5 (axis
// collision)" and "Delta 2.5 -- gate tier semantics" are one subsection
// although their titles differ; then exact title matches, then similar
// ones, each in order.
func pairWith(base, src []string, first []int) []int {
	pair := make([]int, len(src))
	used := make([]bool, len(base))
	for i := range pair {
		pair[i] = -1
		if i < len(first) && first[i] >= 0 && first[i] < len(base) && !used[first[i]] {
			pair[i], used[first[i]] = first[i], true
		}
	}
	for pass := 0; pass < 2; pass++ {
		for i, s := range src {
			if pair[i] >= 0 {
				continue
			}
			for j, b := range base {
				if used[j] {
					continue
				}
				exact := normTitle(refs.StripNumber(s)) == normTitle(refs.StripNumber(b))
				if exact || (pass == 1 && sameHeading(s, b)) {
					pair[i], used[j] = j, true
					break
				}
			}
		}
	}
	return pair
}

// subsectionPlan is what a replace of base section t by source section s
// does with their direct subsections, in merged order.
func subsectionPlan(base *diff.Document, t int, src *diff.Document, s int, aligned func(int) int) []Subsection {
	var bt, st []string
	for _, k := range base.Sections[t].Children {
		bt = append(bt, base.Sections[k].Title)
	}
	first := make([]int, len(src.Sections[s].Children))
	for i, k := range src.Sections[s].Children {
		st = append(st, src.Sections[k].Title)
		first[i] = slices.Index(base.Sections[t].Children, aligned(k))
	}
	whole := coversItem(src, s)
	var out []Subsection
	for _, e := range mergeOrder(len(bt), pairWith(bt, st, first)) {
		switch {
		case e.base >= 0 && e.src >= 0:
			out = append(out, Subsection{Base: bt[e.base], Source: st[e.src], Fate: SubsectionReplaced})
		case e.base >= 0 && whole && repeatedHeading(base, base.Sections[t].Children[e.base]):
			out = append(out, Subsection{Base: bt[e.base], Source: src.Sections[s].Title, Fate: SubsectionCovered})
		case e.base >= 0:
			out = append(out, Subsection{Base: bt[e.base], Fate: SubsectionKept})
		default:
			out = append(out, Subsection{Source: st[e.src], Fate: SubsectionAdded})
		}
	}
	return out
}

// coversItem reports whether section s covers its item as a whole: no
// subsections, and own text long enough to state the item (facetWords).
func coversItem(d *diff.Document, s int) bool {
	return len(d.Sections[s].Children) == 0 && len(strings.Fields(d.Text(ownSpan(d, s)))) >= facetWords
}

// slot is one subsection of a merged subtree: a base one (base >= 0), a
// source one (src >= 0), or both when they pair.
type slot struct{ base, src int }

// mergeOrder lays out the subsections of a replaced subtree: the
// source's section replaces the base's, so its subsections come in the
// source's order (a review's "Delta 2.1" … "Delta 2.11", where the base
// grouped them by verdict); a base subsection the source lacks follows
// the base subsection it followed, or opens the list, or closes it if it
// closed the base's. pair[i] is the base index paired with source
// subsection i, -1 for none.
func mergeOrder(nBase int, pair []int) []slot {
	out := make([]slot, 0, nBase+len(pair))
	paired := make([]bool, nBase)
	for i, j := range pair {
		out = append(out, slot{base: j, src: i})
		if j >= 0 {
			paired[j] = true
		}
	}
	for j := range nBase {
		if paired[j] {
			continue
		}
		at := 0
		switch {
		case j == nBase-1 && j > 0:
			at = len(out) // a closing subsection (a summary of the items) still closes the list
		case j > 0:
			at = slices.IndexFunc(out, func(e slot) bool { return e.base == j-1 }) + 1
		}
		out = slices.Insert(out, at, slot{base: j, src: -1})
	}
	return out
}

// graft gives target the content of root (the prepared source section)
// as a subtree replace: its own text and attribution, and its
// subsections paired with the target's (see above). Base subsections
// replaced keep their headings; those kept keep everything.
func (r *run) graft(target, root *node, change int, subs []Subsection) {
	target.own = root.own
	target.attr = root.attr
	target.replacedBy = change
	bt := make([]string, len(target.kids))
	for i, k := range target.kids {
		bt[i] = k.title
		if k.origin >= 0 && r.in.Base != nil && k.origin < len(r.in.Base.Sections) {
			bt[i] = r.in.Base.Sections[k.origin].Title // as the plan names it, whatever another change retitled it to
		}
	}
	// the source subsections another change brings in its own words
	// are not brought (see SubsectionLeft)
	var srcKids []*node
	for _, k := range root.kids {
		if !slices.ContainsFunc(subs, func(s Subsection) bool { return s.Fate == SubsectionLeft && s.Source == k.title }) {
			srcKids = append(srcKids, k)
		}
	}
	root.kids = srcKids
	st := make([]string, len(root.kids))
	for i, k := range root.kids {
		st[i] = k.title
	}
	// The plan's pairs first (they may come from the alignment), then
	// titles.
	first := make([]int, len(st))
	for i, t := range st {
		first[i] = -1
		for _, sub := range subs {
			if sub.Fate == SubsectionReplaced && sub.Source == t {
				first[i] = slices.Index(bt, sub.Base)
			}
		}
	}
	covered := map[string]bool{}
	leftOut := map[string]bool{} // source subsections whose counterpart another change rewrites
	for _, sub := range subs {
		switch {
		case sub.Fate == SubsectionCovered:
			covered[sub.Base] = true
		case sub.Fate == SubsectionKept && sub.Change > 0 && sub.Source != "":
			leftOut[sub.Source] = true
			for i, t := range st {
				if t == sub.Source {
					first[i] = slices.Index(bt, sub.Base) // paired, to keep the base's
				}
			}
		}
	}
	var kids []*node
	for _, e := range mergeOrder(len(bt), pairWith(bt, st, first)) {
		switch {
		case e.base >= 0 && e.src >= 0 && leftOut[st[e.src]]:
			kids = append(kids, target.kids[e.base]) // another change rewrites it
		case e.base >= 0 && e.src >= 0:
			b := target.kids[e.base]
			r.graft(b, root.kids[e.src], change, nil)
			kids = append(kids, b)
		case e.base >= 0 && covered[bt[e.base]]:
			// stated by the source section as a whole (see above)
		case e.base >= 0:
			kids = append(kids, target.kids[e.base])
		default:
			k := root.kids[e.src]
			k.parent = target
			kids = append(kids, k)
		}
	}
	target.kids = kids
	// a kept or added section may now follow text it did not follow
	// before; give it a blank line where that text does not end with one
	prev := target.own
	for _, k := range kids {
		if lead, ok := leadAfter(prev); ok && k.lead == "" {
			k.lead = lead
		}
		prev = k.last().own
	}
}

// describeSubsections words a replace's subsection plan for
// refactor-plan.md.
func describeSubsections(subs []Subsection) string {
	var kept, replaced, added, covered, left []string
	for _, s := range subs {
		switch s.Fate {
		case SubsectionCovered:
			covered = append(covered, strconv.Quote(refs.StripNumber(s.Base)))
		case SubsectionKept:
			if s.Change > 0 {
				left = append(left, fmt.Sprintf("%q (Change #%d rewrites it", refs.StripNumber(s.Base), s.Change))
				if s.Source != "" {
					left[len(left)-1] += fmt.Sprintf("; the source's %q is not brought", refs.StripNumber(s.Source))
				}
				left[len(left)-1] += ")"
				continue
			}
			kept = append(kept, strconv.Quote(refs.StripNumber(s.Base)))
		case SubsectionReplaced:
			replaced = append(replaced, strconv.Quote(refs.StripNumber(s.Base)))
		case SubsectionAdded:
			added = append(added, strconv.Quote(refs.StripNumber(s.Source)))
		case SubsectionLeft:
			left = append(left, fmt.Sprintf("the source's %q (Change #%d brings this topic)", refs.StripNumber(s.Source), s.Change))
		}
	}
	var parts []string
	if len(kept) > 0 {
		parts = append(parts, "kept as they are: "+strings.Join(kept, ", "))
	}
	if len(replaced) > 0 {
		parts = append(parts, "replaced by the source's of the same title: "+strings.Join(replaced, ", "))
	}
	if len(added) > 0 {
		parts = append(parts, "added from the source: "+strings.Join(added, ", "))
	}
	if len(left) > 0 {
		parts = append(parts, "left to another change: "+strings.Join(left, ", "))
	}
	if len(covered) > 0 {
		parts = append(parts, "replaced by the source section as a whole, which covers the item without subsections (the base repeats these headings under each item): "+strings.Join(covered, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + "."
}
