package merge

import (
	"fmt"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/internal/words"
)

// One topic, one place, also when a variant covers a topic in two
// sections: B's "5.1 Context Fragmentation" aligned with the base's "4.2
// Context Preservation", and later B's "8. The Context Fragmentation
// Trade-Off", which the alignment pairs with nothing since the base
// section is taken. Added by its place in B, the second section would
// bring the topic back under a heading of its own far from the first. A
// section the base lacks whose title names the same topic as another
// section of its own variant — the same words up to numbering, or one
// title holding every word (two at least) of the other — goes under the
// base section that other section is aligned with, as its kin.

// kinPostings bounds the sections one title word may propose: a word
// many headings share ("Phase", "Task") names no topic.
const kinPostings = 16

// kinIndex holds, for one variant, its sections aligned with a base
// section, by the significant words of their titles.
type kinIndex struct {
	sets   map[int]words.Set
	byWord map[string][]int
}

// kinBase returns the base section that a kin of section si of v is
// aligned with, and the kin; -1 for none.
func (in PlanInput) kinBase(v Variant, si int) (int, int) {
	if len(in.Alignment) == 0 {
		return -1, -1
	}
	x := in.kinIndexOf(v)
	own := words.NewSet(refs.StripNumber(v.Doc.Sections[si].Title))
	if len(own) < 2 {
		return -1, -1
	}
	aligned := alignedIn(in, v)
	seen := map[int]bool{}
	for _, w := range own {
		ks := x.byWord[w]
		if len(ks) > kinPostings {
			continue
		}
		for _, k := range ks {
			if seen[k] || k == si {
				continue
			}
			seen[k] = true
			if sameTopicTitle(own, x.sets[k]) {
				if b := aligned(k); b >= 0 {
					return b, k
				}
			}
		}
	}
	return -1, -1
}

// kinIndexOf builds (once per plan) the kin index of v.
func (in PlanInput) kinIndexOf(v Variant) *kinIndex {
	if in.memo != nil {
		if x, ok := in.memo.kin[v.Label]; ok {
			return x
		}
	}
	x := &kinIndex{sets: map[int]words.Set{}, byWord: map[string][]int{}}
	aligned := alignedIn(in, v)
	for k, s := range v.Doc.Sections {
		if s.Depth == 0 || aligned(k) < 0 {
			continue
		}
		set := words.NewSet(refs.StripNumber(s.Title))
		x.sets[k] = set
		for _, w := range set {
			x.byWord[w] = append(x.byWord[w], k)
		}
	}
	if in.memo != nil {
		in.memo.kin[v.Label] = x
	}
	return x
}

// sameTopicTitle reports whether two titles' words name the same topic:
// equal, or one holding every word of the other, which has two at least.
func sameTopicTitle(a, b words.Set) bool {
	n := a.Intersect(b)
	short := min(len(a), len(b))
	return n >= 2 && n == short || len(a) > 0 && n == len(a) && n == len(b)
}

// kinNote says why a change goes under its kin's base section.
func kinNote(v Variant, kin int) string {
	return fmt.Sprintf(" Placed under the base section that %s covers the same topic in, with its %s (aligned there): one topic, one place.",
		v.Ref(), refOf(v.Doc, kin))
}

// inside reports whether section si of d lies under section k (or is k).
func inside(d *diff.Document, si, k int) bool {
	for p := si; p >= 0; p = d.Sections[p].Parent {
		if p == k {
			return true
		}
	}
	return false
}

// liftOrphan reports whether section si of v is a subsection the base
// has no place for — neither it, nor its parent, nor an earlier sibling
// has a counterpart in the base, nor does its title name the topic of a
// section of its variant aligned with one — so that it would be appended
// after the base's last section, away from the heading that says what it
// is about ("Clock Resolution Concern" without "Fault 4: Timestamp
// Conflict Verification"). It returns the parent to bring instead: the
// subsection comes with it, and with the parent's other subsections
// except those whose topics the merged document has anyway (pruneAligned
// cuts them).
func (in PlanInput) liftOrphan(v Variant, si int) (int, bool) {
	d := v.Doc
	p := d.Sections[si].Parent
	if p < 0 || d.Sections[p].Depth == 0 {
		return -1, false
	}
	if in.counterpart(v, si) >= 0 || in.counterpart(v, p) >= 0 || in.prevCounterpart(v, si) >= 0 {
		return -1, false
	}
	if b, _ := in.kinBase(v, si); b >= 0 {
		return -1, false
	}
	return p, true
}
