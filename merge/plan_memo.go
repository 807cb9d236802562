package merge

import (
	"github.com/crucible-go/crucible/diff"
)

// A plan of thousands of changes asks the same questions about the same
// sections over and over: which base section a variant's section is
// aligned with, which base section covers its topic, where its nearest
// earlier sibling with such a counterpart is, which alignment topic holds
// it. Asked afresh, each question scans the documents or the alignment,
// and the plan grows with changes × sections; planMemo answers each once
// per section. NewPlan makes one per plan; without one (a PlanInput not
// built by NewPlan) every question is computed as asked.
type planMemo struct {
	aligned, counterpart, prevCounterpart, topic, titled, self map[string][]int // per variant label, per section; unknown = -2
	kin                                                        map[string]*kinIndex
}

const unknown = -2

func newPlanMemo() *planMemo {
	return &planMemo{aligned: map[string][]int{}, counterpart: map[string][]int{},
		prevCounterpart: map[string][]int{}, topic: map[string][]int{}, titled: map[string][]int{}, self: map[string][]int{}, kin: map[string]*kinIndex{}}
}

// slot returns the memo of one question for variant v, creating it.
func (m *planMemo) slot(table map[string][]int, v Variant) []int {
	s, ok := table[v.Label]
	if !ok {
		s = make([]int, len(v.Doc.Sections))
		for i := range s {
			s[i] = unknown
		}
		table[v.Label] = s
	}
	return s
}

// once returns the memoised answer for section si of v, computing it
// with f the first time.
func (in PlanInput) once(table func(*planMemo) map[string][]int, v Variant, si int, f func() int) int {
	if in.memo == nil {
		return f()
	}
	s := in.memo.slot(table(in.memo), v)
	if s[si] == unknown {
		s[si] = f()
	}
	return s[si]
}

// alignedIn returns, for a section of variant v, the base section the
// alignment puts it with, or -1.
func alignedIn(in PlanInput, v Variant) func(int) int {
	return func(si int) int {
		return in.once(func(m *planMemo) map[string][]int { return m.aligned }, v, si, func() int {
			if r, ok := in.alignedBaseOf(v, si); ok {
				if bi, ok := locate(in.Base.Doc, r); ok {
					return bi
				}
			}
			return -1
		})
	}
}

// counterpart returns the base section that covers the same topic as
// section si of v: by the alignment, else by title; -1 for none.
func (in PlanInput) counterpart(v Variant, si int) int {
	return in.once(func(m *planMemo) map[string][]int { return m.counterpart }, v, si, func() int {
		if t := alignedIn(in, v)(si); t >= 0 {
			return t
		}
		return in.baseTitled(v, si)
	})
}

// selfAt returns where section si of v's own reference (refOf) leads
// back to, as locate finds it — si itself, unless an earlier section has
// the same title and number — or -1. The plan names each section it
// places by that reference and locates it again in every filter; it is
// located once.
func (in PlanInput) selfAt(v Variant, si int) int {
	return in.once(func(m *planMemo) map[string][]int { return m.self }, v, si, func() int {
		if i, ok := locate(v.Doc, refOf(v.Doc, si)); ok {
			return i
		}
		return -1
	})
}

// sourceIndex is locate(v.Doc, c.Source.Section): as NewPlan located it
// when the change was planned, else (a plan NewPlan did not just build)
// located now.
func sourceIndex(v Variant, c Change) (int, bool) {
	if c.Source.at != 0 && c.Source.doc == v.Doc {
		return c.Source.at - 1, c.Source.at > 0
	}
	return locate(v.Doc, c.Source.Section)
}

// baseTitled is matchTitle(base, the title of section si of v): a plan
// asks it of each section it places up to three times (placing, planning
// the change, as a parent's counterpart), and a title the base lacks —
// every section of a plan of thousands of additions — is the costly
// question, ending in the word-overlap search.
func (in PlanInput) baseTitled(v Variant, si int) int {
	return in.once(func(m *planMemo) map[string][]int { return m.titled }, v, si, func() int {
		return matchTitle(in.Base.Doc, v.Doc.Sections[si].Title)
	})
}

// prevCounterpart returns the counterpart of the nearest earlier sibling
// of section sec of v (same parent, not the document title) that has
// one, or -1. Siblings share the answer: walking back from sec, every
// sibling without a counterpart has the answer of the one before it.
func (in PlanInput) prevCounterpart(v Variant, sec int) int {
	prev := prevSiblings(v.Doc)
	var memo []int
	if in.memo != nil {
		memo = in.memo.slot(in.memo.prevCounterpart, v)
	}
	// answer(j): the counterpart of j or of its nearest earlier sibling
	// with one
	var path []int
	found := -1
	for j := prev[sec]; j >= 0; j = prev[j] {
		if memo != nil && memo[j] != unknown {
			found = memo[j]
			break
		}
		path = append(path, j)
		if v.Doc.Sections[j].Depth == 0 {
			continue
		}
		if t := in.counterpart(v, j); t >= 0 {
			found = t
			break
		}
	}
	if memo != nil {
		for _, j := range path {
			memo[j] = found // the hit, if any, answers itself
		}
	}
	return found
}

type prevSiblingsKey struct{}

// prevSiblings returns, per section of d, the nearest earlier section
// with the same parent, or -1.
func prevSiblings(d *diff.Document) []int {
	return d.Memo(prevSiblingsKey{}, func() any {
		out := make([]int, len(d.Sections))
		last := map[int]int{}
		for i, s := range d.Sections {
			if j, ok := last[s.Parent]; ok {
				out[i] = j
			} else {
				out[i] = -1
			}
			last[s.Parent] = i
		}
		return out
	}).([]int)
}

type topLevelKey struct{}

// topLevelOf is d.TopLevel(), computed once per document.
func topLevelOf(d *diff.Document) []int {
	return d.Memo(topLevelKey{}, func() any { return d.TopLevel() }).([]int)
}

// topicOf returns the alignment topic that holds section si of variant v:
// the first topic naming a section of v that locates to si.
func topicOf(in PlanInput, v Variant, si int) (int, bool) {
	t := in.once(func(m *planMemo) map[string][]int { return m.topic }, v, si, func() int {
		if in.memo != nil {
			// one pass over the alignment answers every section of v
			s := in.memo.slot(in.memo.topic, v)
			for i := range s {
				s[i] = -1
			}
			pos := in.topicSections()
			for t, at := range in.Alignment {
				for k, ts := range at.Sections {
					if ts.Variant != v.Label {
						continue
					}
					if i := pos.index(in, t, k, v.Doc); i >= 0 && s[i] < 0 {
						s[i] = t
					}
				}
			}
			return s[si]
		}
		for t, at := range in.Alignment {
			for _, ts := range at.Sections {
				if ts.Variant != v.Label {
					continue
				}
				if i, ok := locate(v.Doc, ts.Section); ok && i == si {
					return t
				}
			}
		}
		return -1
	})
	return t, t >= 0
}
