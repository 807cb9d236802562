package merge

import (
	"context"
	"strings"
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
			// Tuning follows Key Risks in B, so it follows Risks here.
			[]string{"replace 2. Risks <- Key Risks & Mitigations", "append 2. Risks <- Tuning"}},
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
		Rationale: `Variant A's value "0.8" wins (debate, Round 2, confidence 80%). Change #1, #2 was edited to state it.`, Value: true}, p.Rejected[0])
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

func TestPruneAligned(t *testing.T) {
	base := mustParse(t, "a.md", "# S\n\n## 1. Bug 1\n\n### 1.1 Fix\n\nGuard the resume.\n\n## 2. Tests\n\nUnit tests.\n")
	other := mustParse(t, "b.md", "# S\n\n## Proposed Fixes\n\n### Bug 1 Fix: Agent Guard\n\nRestore agents first.\n\n### Bug 2 Fix: Paths\n\nWarn on phantom paths.\n")
	in := PlanInput{Base: Variant{Label: "A", Doc: base}, Variants: []Variant{{Label: "B", Doc: other}},
		Strengths: []Strength{{Variant: "B", Section: SectionRef{Title: "Proposed Fixes"}}},
		Alignment: []AlignedTopic{{Title: "Bug 1 fix", Sections: []TopicSection{
			{Variant: "A", Section: SectionRef{Number: "1.1", Title: "1.1 Fix"}}, {Variant: "B", Section: SectionRef{Title: "Bug 1 Fix: Agent Guard"}}}}}}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	require.Len(t, p.Changes, 1)
	assert.NotContains(t, p.Changes[0].Source.Text, "Bug 1 Fix", "the base has the topic: its subsection is not imported")
	assert.Contains(t, p.Changes[0].Source.Text, "### Bug 2 Fix: Paths", "a topic the base lacks still is")
	require.NotEmpty(t, p.Rejected)
	last := p.Rejected[len(p.Rejected)-1]
	assert.Equal(t, `Variant B: Section 1.1 "Bug 1 Fix: Agent Guard"`, last.NonBase)
	assert.Contains(t, last.Rationale, `already in the merged document as Section 1.1 "Fix" of the base`)

	m, err := NewSectionMerger(WithClock(fixedClock)).Merge(context.Background(), Input{Base: base, Plan: p, Variants: []*diff.Document{other}})
	require.NoError(t, err)
	assert.NotContains(t, m.Output, "Restore agents first.")
	assert.Contains(t, m.Output, "Warn on phantom paths.")
}

func TestNewPlanVerdictMovesWithItsRationale(t *testing.T) {
	// B's section comes in, but its verdict loses to the majority (A and
	// C). C, the winner as the base, states its value in a table row; A
	// states it after B's label, with its own rationale: the verdict line
	// is restated in A's words, not relabelled with B's rationale kept.
	base := mustParse(t, "c.md", "# R\n\n## Item 5\n\n| Item | Verdict |\n|---|---|\n| D2.5 | Overstated |\n")
	b := mustParse(t, "b.md", "# R\n\n## Item 5\n\nEvidence.\n\n**Verdict: CONFIRMED**. Three axes exist.\n")
	a := mustParse(t, "a.md", "# R\n\n## Item 5\n\n**Verdict**: OVERSTATED. Only two axes exist in code.\n")
	in := PlanInput{
		Base:      Variant{Label: "C", Doc: base},
		Variants:  []Variant{{Label: "A", Doc: a}, {Label: "B", Doc: b}},
		Strengths: []Strength{{Variant: "B", Section: SectionRef{Title: "Item 5"}}},
		Conflicts: []ResolvedConflict{{Subject: "Item 5 / Verdict", Winner: "C", Rule: "majority: Variants A and C give the same value",
			Values: []ConflictValue{
				{Variant: "A", Value: "Overstated", Text: "**Verdict**: OVERSTATED. Only two axes exist in code."},
				{Variant: "B", Value: "CONFIRMED", Text: "**Verdict: CONFIRMED**. Three axes exist."},
				{Variant: "C", Value: "Overstated", Text: "| D2.5 | Overstated |"},
			}}},
	}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	require.Len(t, p.Changes, 1)
	assert.Contains(t, p.Changes[0].Source.Text, "**Verdict**: OVERSTATED. Only two axes exist in code.")
	assert.NotContains(t, p.Changes[0].Source.Text, "Three axes exist")
	var why string
	for _, r := range p.Rejected {
		if r.Value {
			why = r.Rationale
		}
	}
	assert.Contains(t, why, "in the words of Variant A")
}

func TestNewPlanKinGoesWithItsTopic(t *testing.T) {
	// B covers context in two sections: "5.1 Context Fragmentation",
	// aligned with the base's "4.2 Context Preservation", and later "8.
	// The Context Fragmentation Trade-Off", aligned with nothing. The
	// second goes under the base section the first is aligned with, not
	// after the base's last section.
	base := mustParse(t, "a.md", "# P\n\n## 4. For\n\n### 4.2 Context Preservation\n\nOne session keeps context.\n\n## 7. Complexity\n\nLow.\n")
	b := mustParse(t, "b.md", "# P\n\n## 5. Weaknesses\n\n### 5.1 Context Fragmentation\n\nTask 5 does not know task 4.\n\n## 8. The Context Fragmentation Trade-Off\n\nInjection recovers most of it.\n\n## 9. Rate Limits\n\nSpawning is fast.\n")
	in := PlanInput{
		Base:     Variant{Label: "A", Doc: base},
		Variants: []Variant{{Label: "B", Doc: b}},
		Alignment: []AlignedTopic{{Title: "Context", Sections: []TopicSection{
			{Variant: "A", Section: SectionRef{Number: "4.2", Title: "4.2 Context Preservation"}},
			{Variant: "B", Section: SectionRef{Number: "5.1", Title: "5.1 Context Fragmentation"}}}}},
		Strengths: []Strength{
			{Variant: "B", Section: SectionRef{Title: "8. The Context Fragmentation Trade-Off"}},
			{Variant: "B", Section: SectionRef{Title: "9. Rate Limits"}},
		},
	}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	var got []string
	for _, c := range p.Changes {
		got = append(got, string(c.Approach)+" "+c.Target.Title+" <- "+c.Source.Section.Title)
	}
	assert.Equal(t, []string{"insert 4.2 Context Preservation <- 8. The Context Fragmentation Trade-Off", "append 7. Complexity <- 9. Rate Limits"}, got)
	assert.Contains(t, p.Changes[0].Rationale.Reason, "Section 5.1 \"Context Fragmentation\" (aligned there)")
}

func TestNewPlanFacetOfACoveredItem(t *testing.T) {
	// A splits each bug into "Root Cause" and "Fix"; the base covers
	// Bug 4 in one section. A's Fix for Bug 4 would be a second fix under
	// it: not added. Under a base section with subsections of its own, a
	// facet still goes in.
	long := strings.Repeat("The state is written only after progress was made. ", 8)
	base := mustParse(t, "c.md", "# D\n\n## 3. Fixes\n\n### 3.4 Bug 4 Fix: Conditional Writes\n\n"+long+"\n\n### 3.5 Bug 5 Fix\n\n"+long+"\n\n#### 3.5.1 Tests\n\nt\n")
	a := mustParse(t, "a.md", "# D\n\n## Bug 4: state overwritten\n\nx\n\n### Fix\n\nPreserve the agents.\n\n## Bug 5: other\n\ny\n\n### Fix\n\nAnother fix.\n")
	in := PlanInput{
		Base:     Variant{Label: "C", Doc: base},
		Variants: []Variant{{Label: "A", Doc: a}},
		Alignment: []AlignedTopic{
			{Title: "Bug 4", Sections: []TopicSection{{Variant: "C", Section: SectionRef{Number: "3.4", Title: "3.4 Bug 4 Fix: Conditional Writes"}}, {Variant: "A", Section: SectionRef{Number: "1", Title: "Bug 4: state overwritten"}}}},
			{Title: "Bug 5", Sections: []TopicSection{{Variant: "C", Section: SectionRef{Number: "3.5", Title: "3.5 Bug 5 Fix"}}, {Variant: "A", Section: SectionRef{Number: "2", Title: "Bug 5: other"}}}},
		},
		Decisions: []Decision{
			{Point: "U-001", Winner: "A", Confidence: 90, WinnerSection: SectionRef{Number: "1.1", Title: "Fix"}},
			{Point: "U-002", Winner: "A", Confidence: 90, WinnerSection: SectionRef{Number: "2.1", Title: "Fix"}},
		},
	}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	require.Len(t, p.Changes, 1)
	assert.Equal(t, "3.5 Bug 5 Fix", p.Changes[0].Target.Title)
	var why string
	for _, r := range p.Rejected {
		if r.Point == "U-001" {
			why = r.Rationale
		}
	}
	assert.Contains(t, why, "covers this item as a whole")
}

func TestNewPlanNoHollowSection(t *testing.T) {
	// B's "Fault 5" holds nothing but a subsection aligned with the
	// base's "Step 2": cut, it would leave a heading over nothing. With a
	// subsection the base lacks, or its own text, it still comes in.
	base := mustParse(t, "a.md", "# S\n\n## 1. Steps\n\n### 1.2 Step 2: write the result file\n\nWrite it.\n\n## 2. Tests\n\nUnit tests.\n")
	tests := []struct {
		name, variant string
		want          int
	}{
		{"hollow", "# S\n\n## Fault 5: aggregate dependency\n\n### The task_results problem\n\nNot in scope.\n", 0},
		{"with a topic the base lacks", "# S\n\n## Fault 5: aggregate dependency\n\n### The task_results problem\n\nNot in scope.\n\n### Logging\n\nLog it.\n", 1},
		{"with text of its own", "# S\n\n## Fault 5: aggregate dependency\n\nThe analysis assumes per-task execution, which the phase runner never performs, so the report cannot be built there.\n\n### The task_results problem\n\nNot in scope.\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			other := mustParse(t, "b.md", tt.variant)
			in := PlanInput{Base: Variant{Label: "A", Doc: base}, Variants: []Variant{{Label: "B", Doc: other}},
				Strengths: []Strength{{Variant: "B", Section: SectionRef{Title: "Fault 5: aggregate dependency"}}},
				Alignment: []AlignedTopic{{Title: "Step 2", Sections: []TopicSection{
					{Variant: "A", Section: SectionRef{Number: "1.2", Title: "1.2 Step 2: write the result file"}}, {Variant: "B", Section: SectionRef{Title: "The task_results problem"}}}}}}
			p, err := NewPlan(in, WithClock(fixedClock))
			require.NoError(t, err)
			assert.Len(t, p.Changes, tt.want)
			if tt.want == 0 {
				require.NotEmpty(t, p.Rejected)
				assert.Contains(t, p.Rejected[0].Rationale, "a heading over an introduction")
			}
		})
	}
}

// A decision names the base section that holds the losing statement. When
// that is a summary of many items, the winning item's section goes into
// the base section step 1 aligned it with, or in as its own topic — never
// over the summary.
func TestNewPlanDecisionOnASummaryRow(t *testing.T) {
	base := "# R\n\n## 1. Item One\n\n**Verdict**: OK. It holds.\n\n## 2. Item Two\n\n**Verdict**: OK. It holds too.\n\n" +
		"## 3. Summary\n\n| Item | Verdict |\n|---|---|\n| Item One | OK |\n| Item Two | OK |\n"
	other := "# R\n\n## Item One\n\n**Verdict**: WRONG. The cited lines do not hold it.\n\n## Item Two\n\n**Verdict**: OK.\n"
	tests := []struct {
		name      string
		alignment []AlignedTopic
		want      string
	}{
		{"aligned: into the item's own section",
			[]AlignedTopic{{Title: "Item One", Sections: []TopicSection{{Variant: "A", Section: SectionRef{Number: "1"}}, {Variant: "B", Section: SectionRef{Title: "Item One"}}}}},
			"replace 1. Item One <- Item One"},
		{"same title, not aligned: into the section of that title",
			[]AlignedTopic{{Title: "Item Two", Sections: []TopicSection{{Variant: "A", Section: SectionRef{Number: "2"}}, {Variant: "B", Section: SectionRef{Title: "Item Two"}}}}},
			"replace 1. Item One <- Item One"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := PlanInput{
				Base:     Variant{Label: "A", Doc: mustParse(t, "a.md", base)},
				Variants: []Variant{{Label: "B", Doc: mustParse(t, "b.md", other)}},
				Decisions: []Decision{{Point: "X-001", Topic: "Item One / Verdict", Winner: "B", Confidence: 70,
					BaseSection: SectionRef{Number: "3", Title: "3. Summary"}, WinnerSection: SectionRef{Title: "Item One"}}},
				Alignment: tt.alignment,
			}
			p, err := NewPlan(in, WithClock(fixedClock))
			require.NoError(t, err)
			require.Len(t, p.Changes, 1)
			c := p.Changes[0]
			assert.Equal(t, tt.want, string(c.Approach)+" "+c.Target.Title+" <- "+c.Source.Section.Title)
		})
	}
	t.Run("another title, not aligned: its own topic, the summary kept", func(t *testing.T) {
		in := PlanInput{
			Base:     Variant{Label: "A", Doc: mustParse(t, "a.md", base)},
			Variants: []Variant{{Label: "B", Doc: mustParse(t, "b.md", strings.Replace(other, "## Item One", "## Cited lines of the first item", 1))}},
			Decisions: []Decision{{Point: "X-001", Topic: "Item One / Verdict", Winner: "B", Confidence: 70,
				BaseSection: SectionRef{Number: "3", Title: "3. Summary"}, WinnerSection: SectionRef{Title: "Cited lines of the first item"}}},
			Alignment: []AlignedTopic{{Title: "Item Two", Sections: []TopicSection{{Variant: "A", Section: SectionRef{Number: "2"}}, {Variant: "B", Section: SectionRef{Title: "Item Two"}}}}},
		}
		p, err := NewPlan(in, WithClock(fixedClock))
		require.NoError(t, err)
		require.Len(t, p.Changes, 1)
		c := p.Changes[0]
		assert.NotEqual(t, Replace, c.Approach, "the summary's other rows would be lost: %+v", c)
	})
}
