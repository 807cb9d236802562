package merge

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewPlanRivalProposal(t *testing.T) {
	// A and B are rival proposals: each opens with its choice. The base's
	// choice wins, so B's arguments for its own choice are not imported
	// under A's "Arguments For This Approach", nor its section replaces
	// A's; each is listed with the choice that lost.
	base := mustParse(t, "a.md", "# Position A\n\nOne worker per phase.\n\n## 1. Context\n\nThe problem.\n\n## 2. Arguments For This Approach\n\n### 2.1 Less Overhead\n\nFewer spawns.\n")
	b := mustParse(t, "b.md", "# Position B\n\nOne worker per task.\n\n## 1. Context\n\nThe problem, argued for tasks.\n\n## 2. Arguments For This Approach\n\n### 2.1 Precise Retry\n\nRetry one task.\n")
	choice := ResolvedConflict{Point: "X-001", Subject: "workers", Winner: "A", Rule: "the base", Exclusive: true,
		Values: []ConflictValue{{Variant: "A", Value: "One worker per phase.", Text: "One worker per phase."}, {Variant: "B", Value: "One worker per task.", Text: "One worker per task."}}}
	in := PlanInput{
		Base:     Variant{Label: "A", Doc: base},
		Variants: []Variant{{Label: "B", Doc: b}},
		Decisions: []Decision{
			{Point: "U-001", Winner: "B", Confidence: 90, WinnerSection: SectionRef{Title: "2.1 Precise Retry"}},
			{Point: "C-001", Winner: "B", Confidence: 80, WinnerSection: SectionRef{Title: "1. Context"}, BaseSection: SectionRef{Title: "1. Context"}},
		},
		Conflicts: []ResolvedConflict{choice},
	}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	assert.Empty(t, p.Changes)
	var rival []Rejection
	for _, r := range p.Rejected {
		if r.Point == "U-001" || r.Point == "C-001" {
			rival = append(rival, r)
		}
	}
	require.Len(t, rival, 2)
	for _, r := range rival {
		assert.Contains(t, r.Rationale, "rival proposal")
		assert.Contains(t, r.Rationale, "“One worker per task.”")
		assert.Contains(t, r.Rationale, "X-001")
	}

	for name, mod := range map[string]func(*PlanInput){
		// a choice B states in a section, not in its lead: only that
		// value is resolved
		"choice in a section": func(in *PlanInput) {
			in.Variants[0].Doc = mustParse(t, "b.md", "# Position B\n\nIntro.\n\n## 1. Context\n\nOne worker per task.\n\n## 2. Arguments For This Approach\n\n### 2.1 Precise Retry\n\nRetry one task.\n")
		},
		// B's choice won: B is no loser
		"rival won": func(in *PlanInput) { in.Conflicts[0].Winner = "B" },
		// a measured value, not a choice
		"not exclusive": func(in *PlanInput) { in.Conflicts[0].Exclusive = false },
	} {
		t.Run(name, func(t *testing.T) {
			in := in
			in.Variants = []Variant{in.Variants[0]}
			in.Conflicts = []ResolvedConflict{choice}
			in.Conflicts[0].Values = append([]ConflictValue(nil), choice.Values...)
			mod(&in)
			p, err := NewPlan(in, WithClock(fixedClock))
			require.NoError(t, err)
			assert.NotEmpty(t, p.Changes)
		})
	}
}
