package merge

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

func alignmentInput(t *testing.T) PlanInput {
	return PlanInput{
		Base: Variant{Label: "A", Doc: mustParse(t, "a.md", "# S\n\n## 1. Goals\n\nThe drift threshold is 0.8.\n\n## 2. Risks\n\nNone.\n\n### 2.1 Rollback\n\nRevert.\n")},
		Variants: []Variant{{Label: "B", Doc: mustParse(t, "b.md",
			"# S\n\n## Goals\n\nx\n\n## Key Risks & Mitigations\n\nData loss; alert when drift exceeds 0.6.\n\n## Tuning\n\nThe drift threshold is 0.6.\n")}},
		Strengths: []Strength{{Variant: "B", Section: SectionRef{Title: "Key Risks & Mitigations"}}, {Variant: "B", Section: SectionRef{Title: "Tuning"}}},
	}
}

func TestNewPlanAlignment(t *testing.T) {
	tests := []struct {
		name      string
		alignment []AlignedTopic
		want      []string
	}{
		{"without an alignment an unmatched title is added beside", nil,
			[]string{"append 1. Goals <- Key Risks & Mitigations", "append 1. Goals <- Tuning"}},
		{"an aligned section goes into its base section",
			[]AlignedTopic{{Title: "Risks", Sections: []TopicSection{{Variant: "A", Section: SectionRef{Number: "2", Title: "2. Risks"}}, {Variant: "B", Section: SectionRef{Title: "Key Risks & Mitigations"}}}}},
			[]string{"replace 2. Risks <- Key Risks & Mitigations", "append 1. Goals <- Tuning"}},
		{"a topic the base lacks is still added",
			[]AlignedTopic{{Title: "Tuning", Sections: []TopicSection{{Variant: "B", Section: SectionRef{Title: "Tuning"}}}}},
			[]string{"append 1. Goals <- Key Risks & Mitigations", "append 1. Goals <- Tuning"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := alignmentInput(t)
			in.Alignment = tt.alignment
			p, err := NewPlan(in, WithClock(fixedClock))
			require.NoError(t, err)
			var got []string
			for _, c := range p.Changes {
				got = append(got, string(c.Approach)+" "+c.Target.Title+" <- "+c.Source.Section.Title)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestNewPlanConflicts(t *testing.T) {
	in := alignmentInput(t)
	in.Alignment = []AlignedTopic{{Title: "Risks", Sections: []TopicSection{{Variant: "A", Section: SectionRef{Number: "2"}}, {Variant: "B", Section: SectionRef{Title: "Key Risks & Mitigations"}}}}}
	in.Conflicts = []ResolvedConflict{{Point: "X-001", Subject: "drift threshold", Winner: "A", Rule: "debate, Round 2, confidence 80%",
		Values: []ConflictValue{{Variant: "A", Value: "0.8", Text: "The drift threshold is 0.8."}, {Variant: "B", Value: "0.6", Text: "The drift threshold is 0.6."}}}}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	require.Len(t, p.Changes, 2)
	assert.Contains(t, p.Changes[1].Source.Text, "The drift threshold is 0.8.", "the quote is edited to the winner's value")
	assert.Contains(t, p.Changes[0].Source.Text, "alert when drift exceeds 0.8", "the value elsewhere too")
	require.Len(t, p.Rejected, 1)
	assert.Equal(t, Rejection{Point: "X-001", Topic: "drift threshold", NonBase: "Variant B: drift threshold = 0.6",
		Rationale: `Variant A's value "0.8" wins (debate, Round 2, confidence 80%). Change #1, #2 was edited to state it.`}, p.Rejected[0])
	assert.Contains(t, p.Markdown(), "| X-001 | Variant B: drift threshold = 0.6 |")

	m, err := NewSectionMerger(WithClock(fixedClock)).Merge(context.Background(), Input{Base: in.Base.Doc, Plan: p, Variants: []*diff.Document{in.Variants[0].Doc}})
	require.NoError(t, err)
	assert.NotContains(t, m.Output, "0.6", "the merged document states only the winning value")
	assert.Equal(t, 2, m.Log.Count(ChangeApplied))

	in.Conflicts[0].Winner = "C"
	_, err = NewPlan(in)
	require.ErrorIs(t, err, ErrInvalidInput)
	assert.ErrorContains(t, err, `the winner "C" states no value`)
}
