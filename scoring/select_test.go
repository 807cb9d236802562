package scoring

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

// scripted is a judge that meets exactly the listed criteria per variant
// label, quoting the variant's title line; it has no position bias.
type scripted map[string][]string

func (s scripted) Evaluate(_ context.Context, req RubricRequest) (RubricVerdicts, error) {
	var out RubricVerdicts
	add := func(v Variant, id string) {
		met := slices.Contains(s[v.Label], id)
		vd := Verdict{Variant: v.Label, Criterion: id, Met: met, Note: "scripted"}
		if met {
			vd.Evidence = []Citation{{Quote: firstLine(v), Line: 1}}
		} else {
			vd.Note = "No evidence found — searched sections 1–2"
		}
		out.Verdicts = append(out.Verdicts, vd)
	}
	for _, v := range req.Variants {
		if req.Pass == Reevaluation {
			for _, d := range req.Disputes {
				add(v, d.Criterion)
			}
			continue
		}
		for _, c := range req.Criteria {
			add(v, c.ID)
		}
	}
	return out, nil
}

const twinDoc = "# Session Plan\n\n## Scope\n\nSessions expire after 30 minutes.\n\n## Design\n\nUse Redis for the session store.\n"

// twins returns two variants with identical text, so that only the judge
// and the debate tell them apart.
func twins(t *testing.T) []Variant {
	return []Variant{
		{Doc: parse(t, "a", twinDoc), Agent: "opus:architect"},
		{Doc: parse(t, "b", twinDoc), Agent: "sonnet:security"},
	}
}

// won returns debate outcomes giving each label the number of points.
func won(counts ...any) *Debate {
	d := &Debate{}
	n := 0
	for i := 0; i < len(counts); i += 2 {
		for range counts[i+1].(int) {
			n++
			d.Points = append(d.Points, PointOutcome{Point: fmt.Sprintf("C-%03d", n), Winner: counts[i].(string), Confidence: 80, Round: 1, Evidence: "Stronger evidence."})
		}
	}
	return d
}

func TestTiebreaker(t *testing.T) {
	base := []string{"CMP-1", "CMP-2", "STR-1", "STR-2"}
	with := func(ids ...string) []string { return append(slices.Clone(base), ids...) }
	tests := []struct {
		name     string
		judge    scripted
		debate   *Debate
		swap     bool // list B before A in the input
		winner   string
		level    int
		under    bool
		evidence string
	}{
		{name: "clear winner: margin 6% (3 criteria), no tiebreaker",
			judge:  scripted{"A": with("COR-1", "COR-2", "COR-3"), "B": base},
			debate: won("B", 9), winner: "A", level: 0, evidence: "Highest final score"},
		{name: "level 1: within 5% (2 criteria), B won more debate points",
			judge:  scripted{"A": with("CLA-1", "CLA-2"), "B": base},
			debate: won("A", 1, "B", 3), winner: "B", level: 1, under: true,
			evidence: "Debate performance: Variant B won 3 diff points, Variant A 1"},
		{name: "level 2: debate points within 5% of each other (21 vs 20), more correctness criteria",
			judge:  scripted{"A": with("COR-1", "COR-2"), "B": with("COR-1", "CLA-1")},
			debate: won("A", 20, "B", 21), winner: "A", level: 2, under: true,
			evidence: "Correctness: Variant A met 2 correctness criteria, Variant B 1"},
		{name: "level 2: no debate",
			judge:  scripted{"A": with("CLA-1"), "B": with("COR-5")},
			debate: nil, winner: "B", level: 2, under: true},
		{name: "level 3: nothing separates them, the first in input order wins",
			judge:  scripted{"A": with("COR-1"), "B": with("COR-1")},
			debate: won("A", 2, "B", 2), winner: "A", level: 3, under: true,
			evidence: "Input order: Variant A comes first"},
		{name: "level 3 follows input order, not the alphabet",
			judge: scripted{"A": with("COR-1"), "B": with("COR-1")},
			swap:  true, winner: "B", level: 3, under: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vs := twins(t)
			vs[0].Label, vs[1].Label = "A", "B"
			if tc.swap {
				vs[0], vs[1] = vs[1], vs[0]
			}
			card, err := New(WithJudge(tc.judge)).Score(context.Background(), Input{Variants: vs, Debate: tc.debate})
			require.NoError(t, err)
			tb := card.Tiebreak
			assert.Equal(t, tc.winner, tb.Winner)
			assert.Equal(t, tc.winner, card.Selection.Base)
			assert.Equal(t, tc.level, tb.Level)
			assert.Equal(t, tc.under, tb.Under)
			assert.Contains(t, tb.Evidence, tc.evidence)
			a, _ := card.Variant(tb.Leader)
			b, _ := card.Variant(tb.RunnerUp)
			assert.InDelta(t, a.Final-b.Final, tb.Margin, 1e-12)
			assert.Equal(t, AutoApproved, card.Selection.Approval)
		})
	}
}

func TestFloorRule(t *testing.T) {
	all := ExtendedRubric().Criteria()
	var ids []string
	for _, c := range all[:20] {
		ids = append(ids, c.ID)
	}
	// A meets 20 of the first 25 criteria but no invariant criterion; B
	// meets fewer but one invariant criterion: A cannot be the base.
	judge := scripted{"A": ids, "B": append(slices.Clone(ids[:10]), "INV-3")}
	card, err := New(WithJudge(judge), WithInvariantDimension()).Score(context.Background(), Input{Variants: twins(t)})
	require.NoError(t, err)
	a, _ := card.Variant("A")
	assert.True(t, a.BelowFloor)
	assert.Equal(t, 30, a.Qual.Total)
	assert.Equal(t, []string{"A", "B"}, card.Ranking, "the ranking is by score")
	assert.Equal(t, "B", card.Selection.Base, "the floor rule excludes A")
	assert.Contains(t, card.Markdown(), "### Invariant & Edge Case Coverage (5 criteria)")
	assert.Contains(t, card.Markdown(), "0/5 (below floor)")

	// No variant meets an invariant criterion: the rule is suspended.
	judge = scripted{"A": ids, "B": ids[:10]}
	card, err = New(WithJudge(judge), WithInvariantDimension()).Score(context.Background(), Input{Variants: twins(t)})
	require.NoError(t, err)
	assert.Equal(t, "A", card.Selection.Base)
	assert.Contains(t, card.Warnings, "Floor rule suspended: no variant meets any Invariant & Edge Case Coverage criterion")
	for _, v := range card.Variants {
		assert.False(t, v.BelowFloor)
	}
}

func TestOverride(t *testing.T) {
	judge := scripted{"A": {"CMP-1", "CMP-2", "CMP-3", "CMP-4"}, "B": {"CMP-1"}}
	card, err := New(WithJudge(judge)).Score(context.Background(), Input{Variants: twins(t), Debate: won("A", 1, "B", 2)})
	require.NoError(t, err)
	require.Equal(t, "A", card.Selection.Base)
	require.Len(t, card.Selection.Incorporate, 2, "B's two debate points")

	require.NoError(t, card.Override("A"), "choosing the selection again changes nothing")
	assert.Equal(t, AutoApproved, card.Selection.Approval)

	require.NoError(t, card.Override("B"))
	sel := card.Selection
	assert.Equal(t, "B", sel.Base)
	assert.Equal(t, "sonnet:security", sel.Agent)
	assert.Equal(t, "A", sel.Scored)
	assert.Equal(t, UserOverridden, sel.Approval)
	assert.Contains(t, sel.Rationale[0], "The host overrode the selection")
	assert.Len(t, sel.Incorporate, 1, "now A's debate point is to incorporate")
	assert.Equal(t, "A", sel.Incorporate[0].Variant)
	assert.Contains(t, card.Markdown(), "**Approval**: user-overridden")
	assert.Contains(t, card.Markdown(), "## Selected Base: Variant B (sonnet:security)")

	assert.ErrorIs(t, card.Override("Q"), ErrUnknownVariant)
}

func TestCheckpoint(t *testing.T) {
	judge := scripted{"A": {"CMP-1", "CMP-2", "CMP-3", "CMP-4"}, "B": {"CMP-1"}}
	var shown string
	cp := func(_ context.Context, card *Scorecard) (string, error) {
		shown = card.Selection.Base
		return "B", nil
	}
	card, err := New(WithJudge(judge), WithCheckpoint(cp)).Score(context.Background(), Input{Variants: twins(t)})
	require.NoError(t, err)
	assert.Equal(t, "A", shown, "the checkpoint sees the scored selection")
	assert.Equal(t, "B", card.Selection.Base)
	assert.Equal(t, UserOverridden, card.Selection.Approval)

	errNo := errors.New("user closed the prompt")
	_, err = New(WithJudge(judge), WithCheckpoint(func(context.Context, *Scorecard) (string, error) { return "", errNo })).
		Score(context.Background(), Input{Variants: twins(t)})
	assert.ErrorIs(t, err, errNo)

	_, err = New(WithJudge(judge), WithCheckpoint(func(context.Context, *Scorecard) (string, error) { return "Z", nil })).
		Score(context.Background(), Input{Variants: twins(t)})
	assert.ErrorIs(t, err, ErrUnknownVariant)
}

func TestStrengths(t *testing.T) {
	a := parse(t, "a", "# Plan\n\n## Scope\n\nSessions expire after 30 minutes.\n\n## Caching\n\nUse Redis 7.2 with a 30-minute TTL and 512 MiB of memory for 20,000 sessions.\n")
	b := parse(t, "b", "# Plan\n\n## Scope\n\nSessions expire after 60 minutes.\n\n## Risk Register\n\n"+
		"| Risk | Probability | Impact | Mitigation |\n|---|---|---|---|\n| Redis outage | Medium | High | Fail over within 60 seconds |\n")
	analysis, err := diff.Analyze(context.Background(), []*diff.Document{a, b})
	require.NoError(t, err)
	uniques := analysis.ByCategory(diff.CategoryUnique)
	require.NotEmpty(t, uniques)
	contradiction := analysis.ByCategory(diff.CategoryContradiction)
	require.NotEmpty(t, contradiction)

	debate := &Debate{Points: []PointOutcome{
		{Point: contradiction[0].ID, Winner: "A", Confidence: 85, Evidence: "A's 30 minutes matches the security policy.", Round: 2},
	}}
	card, err := New().Score(context.Background(), Input{Variants: variants(a, b), Analysis: analysis, Debate: debate})
	require.NoError(t, err)

	va, _ := card.Variant("A")
	require.NotEmpty(t, va.Strengths)
	st := va.Strengths[0]
	assert.Equal(t, FromDebate, st.Kind)
	assert.Equal(t, contradiction[0].ID, st.Point)
	assert.Equal(t, 85, st.Confidence)
	assert.Equal(t, 2, st.Round)
	assert.Equal(t, "Scope", st.SectionTitle, "located in the variant's section")
	assert.Equal(t, "1", st.SectionNumber)
	assert.Contains(t, st.Description, "security policy")

	vb, _ := card.Variant("B")
	var unique *Strength
	for i := range vb.Strengths {
		if vb.Strengths[i].Kind == FromUnique {
			unique = &vb.Strengths[i]
		}
	}
	require.NotNil(t, unique, "B's risk register is a unique contribution")
	assert.Equal(t, "Risk Register", unique.SectionTitle)
	assert.Equal(t, "High", unique.Rating)

	// Whatever the base, its strengths are preserved and the others'
	// incorporated.
	for _, base := range []string{"A", "B"} {
		require.NoError(t, card.Override(base))
		for _, s := range card.Selection.Preserve {
			assert.Equal(t, base, s.Variant)
		}
		for _, s := range card.Selection.Incorporate {
			assert.NotEqual(t, base, s.Variant)
		}
	}
}

func TestInputValidation(t *testing.T) {
	d := parse(t, "a", "# A\n")
	tests := []struct {
		name string
		in   Input
		is   error
	}{
		{"one variant", Input{Variants: variants(d)}, diff.ErrTooFewVariants},
		{"eleven variants", Input{Variants: variants(d, d, d, d, d, d, d, d, d, d, d)}, diff.ErrTooManyVariants},
		{"no document", Input{Variants: []Variant{{Doc: d}, {}}}, ErrNoDocument},
		{"duplicate label", Input{Variants: []Variant{{Label: "X", Doc: d}, {Label: "X", Doc: d}}}, ErrDuplicateLabel},
		{"debate winner unknown", Input{Variants: variants(d, d), Debate: won("Q", 1)}, ErrUnknownVariant},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New().Score(context.Background(), tc.in)
			assert.ErrorIs(t, err, tc.is)
		})
	}
}

// The rationale quotes the debate's own statement of its outcome, so the
// report says what the transcript and the return contract say.
func TestRationaleQuotesTheDebateOutcome(t *testing.T) {
	judge := scripted{"A": {"CMP-1", "CMP-2", "CMP-3", "CMP-4"}, "B": {"CMP-1"}}
	d := won("A", 2, "B", 1)
	d.Outcome = "convergence 66% of contested points (75% of all points), NOT_CONVERGED at the 80% threshold; unresolved conflicts: X-002"
	card, err := New(WithJudge(judge)).Score(context.Background(), Input{Variants: twins(t), Debate: d})
	require.NoError(t, err)
	assert.Contains(t, card.Selection.Rationale, "Debate: won 2 diff points; "+d.Outcome+".")
	assert.Contains(t, card.Markdown(), d.Outcome)
}
