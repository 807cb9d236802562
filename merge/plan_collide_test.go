package merge

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

func TestNewPlanOneChangePerBaseSection(t *testing.T) {
	base := mustParse(t, "a.md", "# S\n\n## 1. Storage\n\nx\n\n## 2. Ops\n\ny\n")
	b := mustParse(t, "b.md", "# S\n\n## Storage\n\nB's storage.\n\n## Security\n\nB's security.\n\n### Keys\n\nRotate.\n")
	c := mustParse(t, "c.md", "# S\n\n## Storage\n\nC's storage.\n")
	in := PlanInput{
		Base:     Variant{Label: "A", Doc: base},
		Variants: []Variant{{Label: "B", Doc: b}, {Label: "C", Doc: c}},
		Decisions: []Decision{
			{Point: "C-001", Winner: "B", Confidence: 80, WinnerSection: SectionRef{Title: "Storage"}, BaseSection: SectionRef{Number: "1"}},
			{Point: "C-002", Winner: "C", Confidence: 70, WinnerSection: SectionRef{Title: "Storage"}, BaseSection: SectionRef{Number: "1"}},
			{Point: "U-001", Winner: "B", Confidence: 90, WinnerSection: SectionRef{Title: "Security"}},
			{Point: "U-002", Winner: "B", Confidence: 90, WinnerSection: SectionRef{Title: "Keys"}},
		},
	}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	var got []string
	for _, c := range p.Changes {
		got = append(got, string(c.Approach)+" "+c.Target.Title+" <- "+c.Source.Variant.Label+" "+c.Source.Section.Title)
	}
	assert.Equal(t, []string{"replace 1. Storage <- B Storage", "append 1. Storage <- B Security"}, got,
		"C's replace of the section B already replaces, and B's Keys inside B's Security, are not made")
	require.Len(t, p.Rejected, 2)
	assert.Equal(t, "C-002", p.Rejected[0].Point)
	assert.Contains(t, p.Rejected[0].Rationale, "Change #1 already rewrites Section 1 \"Storage\" with Variant B's Section 1 \"Storage\"")
	assert.Equal(t, "U-002", p.Rejected[1].Point)
	assert.Contains(t, p.Rejected[1].Rationale, "Change #2 already brings in whole")
	assert.Contains(t, p.Markdown(), "| C-002 | Variant C, Section 1 \"Storage\" (replace) | Change #1 already rewrites")
	for _, w := range p.Weaknesses {
		if w.Point == "C-002" {
			assert.Contains(t, w.Fix, "Not merged: Change #1 already rewrites")
		}
	}

	// and the merge applies every change: nothing fails as "already replaced"
	m, err := NewSectionMerger(WithClock(fixedClock)).Merge(context.Background(), Input{Base: base, Plan: p, Variants: []*diff.Document{b, c}})
	require.NoError(t, err)
	assert.Equal(t, len(p.Changes), m.Log.Count(ChangeApplied))
	assert.Equal(t, 1, strings.Count(m.Output, "Security\n"), "the subsection comes in once, with its parent")
	assert.Equal(t, 1, strings.Count(m.Output, "Keys\n"))
}

func TestNewPlanNoRepeatedTitles(t *testing.T) {
	// B splits the base's Checks into two parts, each with its own
	// "Extra": both would land under the base's Checks.
	base := mustParse(t, "a.md", "# S\n\n## 1. Checks\n\n### 1.1 Baseline\n\nx\n\n## 2. Ops\n\ny\n")
	b := mustParse(t, "b.md", "# S\n\n## Checks, part one\n\n### Extra\n\nB's extra.\n\n## Checks, part two\n\n### Extra\n\nB repeats itself.\n")
	in := PlanInput{
		Base:     Variant{Label: "A", Doc: base},
		Variants: []Variant{{Label: "B", Doc: b}},
		Alignment: []AlignedTopic{{Title: "Checks", Sections: []TopicSection{
			{Variant: "A", Section: SectionRef{Number: "1", Title: "1. Checks"}},
			{Variant: "B", Section: SectionRef{Number: "1", Title: "Checks, part one"}},
			{Variant: "B", Section: SectionRef{Number: "2", Title: "Checks, part two"}}}}},
		Decisions: []Decision{
			{Point: "U-001", Winner: "B", Confidence: 90, WinnerSection: SectionRef{Number: "1.1", Title: "Extra"}},
			{Point: "U-002", Winner: "B", Confidence: 90, WinnerSection: SectionRef{Number: "2.1", Title: "Extra"}},
		},
	}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	var got []string
	for _, c := range p.Changes {
		got = append(got, string(c.Approach)+" "+c.Target.Title+" <- "+c.Source.Section.Number+" "+c.Source.Section.Title)
	}
	assert.Equal(t, []string{"insert 1. Checks <- 1.1 Extra"}, got, "B's second Extra would land beside the first")
	require.NotEmpty(t, p.Rejected)
	assert.Contains(t, p.Rejected[len(p.Rejected)-1].Rationale, "Change #1 already puts a section of this title there")
}

func TestNewPlanContainedByOutlineNotNumber(t *testing.T) {
	// C's parent heading carries its own number ("Section 2: Audit")
	// while its subsections get outline numbers (3.1): the subsection is
	// still inside the parent, which a change already brings whole.
	base := mustParse(t, "a.md", "# S\n\n## 1. Summary\n\nx\n\n## 2. Ops\n\ny\n")
	c := mustParse(t, "c.md", "# S\n\n## Summary\n\nz\n\n## Section 1: Matrix\n\nm\n\n## Section 2: Audit\n\nAudit text.\n\n### SOL-C: keep\n\nKeep it.\n")
	in := PlanInput{
		Base:     Variant{Label: "A", Doc: base},
		Variants: []Variant{{Label: "C", Doc: c}},
		Decisions: []Decision{
			{Point: "U-001", Winner: "C", Confidence: 90, WinnerSection: SectionRef{Number: "2", Title: "Section 2: Audit"}},
			{Point: "U-002", Winner: "C", Confidence: 90, WinnerSection: SectionRef{Number: "3.1", Title: "SOL-C: keep"}},
		},
	}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	require.Len(t, p.Changes, 1)
	assert.Equal(t, "Section 2: Audit", p.Changes[0].Source.Section.Title)
	require.Len(t, p.Rejected, 1)
	assert.Equal(t, "U-002", p.Rejected[0].Point)
	assert.Contains(t, p.Rejected[0].Rationale, "Change #1 already brings in whole")
}

func TestNewPlanLaterRevisionKeepsItsConsolidation(t *testing.T) {
	// B, the base, is the later revision: it consolidated the earlier
	// Tasks 3.1–3.2 into one. A's Task 3.2 is not added back; A's win
	// on the content of a section both have is still made.
	base := mustParse(t, "b.md", "# Plan (REVISED)\n\n## Phase 3\n\n### Task 3.1: Update all specs (CONSOLIDATED)\n\nAll at once.\n\n## Phase 4\n\nOrder.\n")
	a := mustParse(t, "a.md", "# Plan\n\n## Phase 3\n\n### Task 3.1: Update T5.1\n\nOne.\n\n### Task 3.2: Update T5.7\n\nTwo.\n\n## Phase 4\n\nOrder, argued better.\n")
	in := PlanInput{
		Base:     Variant{Label: "B", Doc: base},
		Variants: []Variant{{Label: "A", Doc: a}},
		Decisions: []Decision{
			{Point: "U-001", Winner: "A", Confidence: 90, WinnerSection: SectionRef{Title: "Task 3.2: Update T5.7"}},
			{Point: "C-001", Winner: "A", Confidence: 80, WinnerSection: SectionRef{Title: "Phase 4"}, BaseSection: SectionRef{Title: "Phase 4"}},
		},
		LaterRevision: "B",
	}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	require.Len(t, p.Changes, 1)
	assert.Equal(t, Replace, p.Changes[0].Approach)
	assert.Equal(t, 1, p.Changes[0].Number)
	require.Len(t, p.Rejected, 1)
	assert.Equal(t, "U-001", p.Rejected[0].Point)
	assert.Contains(t, p.Rejected[0].Rationale, "the later revision")

	// without the revision order, the section is added
	in.LaterRevision = ""
	p, err = NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	assert.Len(t, p.Changes, 2)
}
