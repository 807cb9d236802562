package merge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

func mustParse(t testing.TB, name, src string) *diff.Document {
	t.Helper()
	d, err := diff.Parse(name, []byte(src))
	require.NoError(t, err)
	return d
}

const planBase = `# Service

## 1. Overview

Intro.

## 2. Storage

### 2.1 Schema

Tables.

## 3. Operations

Run it.
`

const planVariant = `# Service

## Overview

Better intro.

## Storage

### Schema

Better tables.

### Indexes

Index every foreign key.

## Security

Encrypt at rest.

### Key Rotation

Rotate keys yearly.

## Operations

### Runbooks

One per alert.
`

func planInput(t testing.TB) PlanInput {
	return PlanInput{
		Base:     Variant{Label: "A", Agent: "opus:architect", Doc: mustParse(t, "a.md", planBase)},
		Variants: []Variant{{Label: "B", Agent: "sonnet:security", Doc: mustParse(t, "b.md", planVariant)}},
	}
}

func TestNewPlanPlacementFallsBackToTheEnd(t *testing.T) {
	// nothing matching: after the last top-level section
	in := planInput(t)
	in.Variants[0].Doc = mustParse(t, "b.md", "# Service\n\n## Glossary\n\nTerms.\n\n### Acronyms\n\nTLA.\n")
	in.Strengths = []Strength{{Variant: "B", Section: SectionRef{Title: "Glossary"}}}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	require.Len(t, p.Changes, 1)
	assert.Equal(t, Append, p.Changes[0].Approach)
	assert.Equal(t, "3. Operations", p.Changes[0].Target.Title)
}

// TestNewPlanPlacementKeepsAChapterAChapter: a chapter whose previous
// sibling matches a base subsection follows that subsection's chapter,
// at its own level, instead of becoming one more subsection there.
func TestNewPlanPlacementKeepsAChapterAChapter(t *testing.T) {
	base := mustParse(t, "a.md", "# Review\n\n## 1. Ordering\n\n### 1.1 Step 6: Recovery chain\n\nx\n\n### 1.2 Step 7: Tests\n\ny\n\n## 2. Summary\n\nz\n")
	other := mustParse(t, "b.md", "# Review\n\n## Step 6: Recovery chain\n\nRaces.\n\n## Fault 3: Specificity loss\n\nThe TUI raises KeyError.\n")
	in := PlanInput{Base: Variant{Label: "A", Doc: base}, Variants: []Variant{{Label: "B", Doc: other}},
		Strengths: []Strength{{Variant: "B", Section: SectionRef{Title: "Fault 3: Specificity loss"}}}}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	require.Len(t, p.Changes, 1)
	assert.Equal(t, Append, p.Changes[0].Approach)
	assert.Equal(t, "1. Ordering", p.Changes[0].Target.Title)
	m := merge(t, base, p.Changes...)
	assert.Contains(t, m.Output, "\n## 2. Fault 3: Specificity loss\n")
	assert.Contains(t, m.Output, "\n## 3. Summary\n")
}

func TestNewPlanPlacement(t *testing.T) {
	tests := []struct {
		name      string
		strengths []Strength
		decisions []Decision
		want      []string // "approach target-title <- source-title"
	}{
		{"same title replaces", []Strength{{Variant: "B", Section: SectionRef{Title: "Schema"}}}, nil,
			[]string{"replace 2.1 Schema <- Schema"}},
		{"structural point restructures",
			[]Strength{{Variant: "B", Section: SectionRef{Title: "Storage"}, Point: "S-001"}},
			[]Decision{{Point: "S-001", Winner: "B", Confidence: 80}},
			[]string{"restructure 2. Storage <- Storage"}},
		{"under the parent's counterpart, after its previous sibling's", []Strength{{Variant: "B", Section: SectionRef{Title: "Indexes"}}}, nil,
			[]string{"append 2.1 Schema <- Indexes"}},
		{"previous sibling in base appends after it", []Strength{{Variant: "B", Section: SectionRef{Title: "Security"}}}, nil,
			[]string{"append 2. Storage <- Security"}},
		{"nested under a matching parent inserts", []Strength{{Variant: "B", Section: SectionRef{Title: "Runbooks"}}}, nil,
			[]string{"insert 3. Operations <- Runbooks"}},
		{"a subsection the base has no place for comes with its heading", []Strength{{Variant: "B", Section: SectionRef{Title: "Key Rotation"}}}, nil,
			[]string{"append 2. Storage <- Security"}},
		{"explicit target and approach win",
			[]Strength{{Variant: "B", Section: SectionRef{Title: "Security"}, Target: SectionRef{Number: "1"}, Approach: Append}}, nil,
			[]string{"append 1. Overview <- Security"}},
		{"decision's base section is the target",
			[]Strength{{Variant: "B", Section: SectionRef{Title: "Overview"}}},
			[]Decision{{Point: "C-001", Winner: "B", Confidence: 70, BaseSection: SectionRef{Number: "3"}, WinnerSection: SectionRef{Title: "Overview"}}},
			[]string{"replace 3. Operations <- Overview"}},
		{"a strength and its decision make one change",
			[]Strength{{Variant: "B", Section: SectionRef{Title: "Security"}}},
			[]Decision{{Point: "U-001", Winner: "B", Confidence: 90, WinnerSection: SectionRef{Title: "Security"}}},
			[]string{"append 2. Storage <- Security"}},
		{"decisions the base lost add changes after the strengths",
			[]Strength{{Variant: "B", Section: SectionRef{Title: "Security"}}},
			[]Decision{{Point: "C-002", Winner: "B", Confidence: 75, WinnerSection: SectionRef{Title: "Indexes"}},
				{Point: "C-003", Winner: "A", Confidence: 75, WinnerSection: SectionRef{Title: "Schema"}}},
			[]string{"append 2. Storage <- Security", "append 2.1 Schema <- Indexes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := planInput(t)
			in.Strengths, in.Decisions = tt.strengths, tt.decisions
			p, err := NewPlan(in, WithClock(fixedClock))
			require.NoError(t, err)
			var got []string
			for i, c := range p.Changes {
				assert.Equal(t, i+1, c.Number)
				got = append(got, string(c.Approach)+" "+c.Target.Title+" <- "+c.Source.Section.Title)
				assert.NoError(t, checkSourceText(c.Source.Text))
				assert.NotEmpty(t, c.Integration)
				assert.NotEmpty(t, c.Impact)
				assert.NotEmpty(t, c.Rollback)
			}
			assert.Equal(t, tt.want, got)
			require.NoError(t, p.Validate())
		})
	}
}

func TestNewPlanRisksAndLists(t *testing.T) {
	in := planInput(t)
	in.Strengths = []Strength{
		{Variant: "B", Section: SectionRef{Title: "Security"}, Description: "Encryption", Why: "the base has none"},
		{Variant: "B", Section: SectionRef{Title: "Schema"}, Point: "C-001"},
		{Variant: "B", Section: SectionRef{Title: "Storage"}, Point: "S-001"},
	}
	in.Decisions = []Decision{
		{Point: "C-001", Topic: "Schema detail", Winner: "B", Confidence: 72, Round: 2, Evidence: "B lists the tables."},
		{Point: "S-001", Topic: "Storage layout", Winner: "B", Confidence: 81, Round: 1},
		{Point: "C-002", Topic: "Overview tone", Winner: "A", Confidence: 64, Round: 3, Evidence: "A is shorter",
			Positions: []Position{{Variant: "A", Summary: "one line"}, {Variant: "B", Summary: "a paragraph"}}},
		{Point: "X-001", Topic: "Retention", Confidence: 50},
		{Point: "C-004", Topic: "Deploy cadence", Winner: "B", Confidence: 60},
	}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	require.Len(t, p.Changes, 3)
	assert.Equal(t, Risk{Low, "additive: a new section, no base text changes"}, p.Changes[0].Risk)
	assert.Equal(t, Medium, p.Changes[1].Risk.Level)
	assert.Equal(t, High, p.Changes[2].Risk.Level)
	assert.Equal(t, "High", p.OverallRisk())
	assert.Equal(t, "Encryption: the base has none. No debate point: from the base selection's strengths to incorporate.", p.Changes[0].Rationale.String())
	assert.Equal(t, "Debate: Round 2, diff point C-001, confidence 72% — B lists the tables.", p.Changes[1].Rationale.String())

	require.Len(t, p.Weaknesses, 3)
	assert.Equal(t, Weakness{Issue: "Schema detail", Point: "C-001", Better: "B", Fix: `Change #2 replaces the body of Section 2.1 "Schema" with Variant B's Section 2.1 "Schema".`, Change: 2}, p.Weaknesses[0])
	assert.Equal(t, 0, p.Weaknesses[2].Change, "no section to take for C-004")
	assert.Contains(t, p.Weaknesses[2].Fix, "Not merged automatically")

	require.Len(t, p.Rejected, 2)
	assert.Equal(t, Rejection{Point: "C-002", Topic: "Overview tone", NonBase: "Variant B: a paragraph", Rationale: "A is shorter (Round 3, confidence 64%)."}, p.Rejected[0])
	assert.Equal(t, "Unresolved in the debate (confidence 50%); the base approach stays by default.", p.Rejected[1].Rationale)

	assert.Equal(t, ReviewStatus{State: AutoApproved, By: "auto", At: fixedClock()}, p.Review)
	assert.Equal(t, Digest(in.Base.Doc), p.BaseDigest)
	assert.Equal(t, "Refactoring plan: 3 changes planned, 2 rejected.\nRisk: High overall.\nWould you like to modify the plan before execution?", p.Summary())
}

func TestNewPlanErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(*PlanInput)
		want string
	}{
		{"no base document", func(in *PlanInput) { in.Base.Doc = nil }, "the base has no document"},
		{"duplicate label", func(in *PlanInput) { in.Variants[0].Label = "A" }, `variant label "A" is used twice`},
		{"unknown winner", func(in *PlanInput) { in.Decisions = []Decision{{Point: "C-001", Winner: "Z"}} }, `decision C-001: unknown winner "Z"`},
		{"confidence out of range", func(in *PlanInput) { in.Decisions = []Decision{{Point: "C-001", Winner: "B", Confidence: 140}} }, "confidence 140% is outside 0–100"},
		{"strength of the base", func(in *PlanInput) { in.Strengths = []Strength{{Variant: "A", Section: SectionRef{Number: "1"}}} }, "strength 1 is the base's own"},
		{"unknown point", func(in *PlanInput) {
			in.Strengths = []Strength{{Variant: "B", Section: SectionRef{Number: "1"}, Point: "C-009"}}
		}, "strength 1: unknown diff point C-009"},
		{"missing section", func(in *PlanInput) { in.Strengths = []Strength{{Variant: "B", Section: SectionRef{Title: "Billing"}}} },
			`strength 1: Variant B (sonnet:security) has no Section "Billing"`},
		{"the title section", func(in *PlanInput) { in.Strengths = []Strength{{Variant: "B", Section: SectionRef{Title: "Service"}}} },
			`section "Service" is the document title`},
		{"missing target", func(in *PlanInput) {
			in.Strengths = []Strength{{Variant: "B", Section: SectionRef{Title: "Security"}, Target: SectionRef{Title: "Billing"}}}
		}, `the base has no Section "Billing"`},
		{"bad approach", func(in *PlanInput) {
			in.Strengths = []Strength{{Variant: "B", Section: SectionRef{Title: "Security"}, Approach: "rewrite"}}
		}, `unknown approach "rewrite"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := planInput(t)
			tt.edit(&in)
			_, err := NewPlan(in)
			require.ErrorIs(t, err, ErrInvalidInput)
			var ie *InputError
			require.ErrorAs(t, err, &ie)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func validPlan(t testing.TB) Plan {
	in := planInput(t)
	in.Strengths = []Strength{
		{Variant: "B", Section: SectionRef{Title: "Security"}},
		{Variant: "B", Section: SectionRef{Title: "Indexes"}},
		{Variant: "B", Section: SectionRef{Title: "Schema"}},
	}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	return p
}

func TestPlanValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Plan)
		want string
	}{
		{"numbering", func(p *Plan) { p.Changes[1].Number = 5 }, "change 2 of the plan is numbered 5"},
		{"no title", func(p *Plan) { p.Changes[0].Title = " " }, "change #1 has no title"},
		{"approach", func(p *Plan) { p.Changes[0].Approach = "merge" }, `unknown approach "merge"`},
		{"no target", func(p *Plan) { p.Changes[1].Approach, p.Changes[1].Target = Insert, SectionRef{} }, "change #2: a insert needs a target section"},
		{"from the base", func(p *Plan) { p.Changes[0].Source.Variant.Label = "A" }, "change #1 takes from the base itself"},
		{"two sections", func(p *Plan) { p.Changes[0].Source.Text += "## Another\n" }, "holds more than one section"},
		{"no heading", func(p *Plan) { p.Changes[0].Source.Text = "just text\n" }, "has no heading"},
		{"text first", func(p *Plan) { p.Changes[0].Source.Text = "intro\n\n" + p.Changes[0].Source.Text }, "has text before its heading"},
		{"risk", func(p *Plan) { p.Changes[0].Risk.Level = "Severe" }, `unknown risk level "Severe"`},
		{"review", func(p *Plan) { p.Review.State = "approved" }, `unknown review state "approved"`},
		{"no base", func(p *Plan) { p.Base.Label = "" }, "the plan names no base variant"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := validPlan(t)
			require.NoError(t, p.Validate())
			tt.edit(&p)
			err := p.Validate()
			require.ErrorIs(t, err, ErrInvalidPlan)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestPlanJSON(t *testing.T) {
	p := validPlan(t)
	raw, err := json.Marshal(p)
	require.NoError(t, err)
	var q Plan
	require.NoError(t, json.Unmarshal(raw, &q))
	assert.Equal(t, p, q)
	assert.Contains(t, string(raw), `"text":"## Security\n\nEncrypt at rest.\n\n### Key Rotation\n\nRotate keys yearly.\n\n"`, "the plan carries the source text")
}

func TestReview(t *testing.T) {
	later := time.Date(2026, 1, 2, 9, 30, 0, 0, time.UTC)
	clock := WithClock(func() time.Time { return later })
	ctx := context.Background()

	t.Run("no reviewer keeps auto-approval", func(t *testing.T) {
		p := validPlan(t)
		q, err := Review(ctx, p, nil, clock)
		require.NoError(t, err)
		assert.Equal(t, p, q)
	})
	t.Run("approved as is", func(t *testing.T) {
		p := validPlan(t)
		var seen string
		q, err := Review(ctx, p, ReviewerFunc(func(_ context.Context, p Plan) (Verdict, error) {
			seen = p.Summary()
			return Verdict{Overrides: []string{"looked fine"}}, nil
		}), clock)
		require.NoError(t, err)
		assert.Contains(t, seen, "3 changes planned")
		assert.Equal(t, ReviewStatus{State: UserApproved, By: "user", At: later, Overrides: []string{"looked fine"}}, q.Review)
		assert.Equal(t, p.Changes, q.Changes)
		assert.Contains(t, q.Markdown(), "- **Status:** user-approved\n- **Approved by:** user\n- **Approval timestamp:** 2026-01-02T09:30:00Z\n- **User overrides:**\n  - looked fine\n")
	})
	t.Run("modified", func(t *testing.T) {
		p := validPlan(t)
		q, err := Review(ctx, p, ReviewerFunc(func(_ context.Context, p Plan) (Verdict, error) {
			p.Changes = append([]Change(nil), p.Changes...)
			p.Changes[2].Approach = Append
			p.Changes = p.Changes[1:] // drop change 1
			return Verdict{Plan: &p}, nil
		}), clock)
		require.NoError(t, err)
		require.Len(t, q.Changes, 2)
		assert.Equal(t, []int{1, 2}, []int{q.Changes[0].Number, q.Changes[1].Number}, "renumbered")
		assert.Equal(t, `Delete the section tagged "merged per Change #1".`, q.Changes[0].Rollback)
		assert.Equal(t, UserModified, q.Review.State)
		assert.Equal(t, []string{
			`Removed Change #1 (Security from Variant B (sonnet:security))`,
			`Change #2 (Schema): approach replace → append`,
		}, q.Review.Overrides)
		assert.Len(t, p.Changes, 3, "the proposed plan is not modified")
	})
	t.Run("invalid modification", func(t *testing.T) {
		p := validPlan(t)
		_, err := Review(ctx, p, ReviewerFunc(func(_ context.Context, p Plan) (Verdict, error) {
			p.Changes = append([]Change(nil), p.Changes...)
			p.Changes[0].Approach = "shuffle"
			return Verdict{Plan: &p}, nil
		}), clock)
		require.ErrorIs(t, err, ErrInvalidPlan)
	})
	t.Run("base swapped", func(t *testing.T) {
		p := validPlan(t)
		_, err := Review(ctx, p, ReviewerFunc(func(_ context.Context, p Plan) (Verdict, error) {
			p.BaseDigest = "x"
			return Verdict{Plan: &p}, nil
		}), clock)
		require.ErrorIs(t, err, ErrInvalidPlan)
		assert.Contains(t, err.Error(), "checkpoint 3")
	})
	t.Run("reviewer error", func(t *testing.T) {
		boom := errors.New("user closed the prompt")
		_, err := Review(ctx, validPlan(t), ReviewerFunc(func(context.Context, Plan) (Verdict, error) { return Verdict{}, boom }))
		require.ErrorIs(t, err, boom)
	})
}

func TestPlanMarkdownEscapes(t *testing.T) {
	p := validPlan(t)
	p.Rejected = []Rejection{{Point: "C-9", NonBase: "a | b\nc <script>", Rationale: ""}}
	md := p.Markdown()
	assert.Contains(t, md, `| C-9 | a \| b c &lt;script> | — |`)
	assert.False(t, strings.Contains(md, "<script>"))
}
