package critic

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func invocation(adv *AdversarialContext) Invocation {
	return Invocation{PS: PSContext{PSID: "p", Artifact: "docs/plan.md"}, Adversarial: adv}
}

func TestReviewDegradation(t *testing.T) {
	fsys := fstest.MapFS{"docs/plan.md": {Data: []byte(sampleText())}}
	tests := []struct {
		name      string
		adv       *AdversarialContext
		target    *float64
		source    Source
		modes     []Mode
		threshold float64
		rule      string
	}{
		{"no adversarial context: standard mode", nil, nil, SourceStandard, ms(Standard), 0.85, "BC-304-001"},
		{"auto", &AdversarialContext{Auto: true, Vector: full(C1)}, nil, SourceAutomatic, ms(SelfRefine, Steelman, LLMAsJudge), 0.92, "STRATEGY_SETS"},
		{"explicit", &AdversarialContext{Modes: ms(FMEA, LLMAsJudge), Vector: full(C2)}, nil, SourceExplicit, ms(FMEA, LLMAsJudge), 0.92, "EXPLICIT"},
		{"explicit with exhausted budget: minimal set", &AdversarialContext{Modes: ms(FMEA, RedTeam), Vector: with(full(C2), func(v *Vector) { v.TokenBudget = BudgetExhausted })},
			nil, SourceExplicit, ms(Steelman, LLMAsJudge), 0.92, "TOK-EXHAUST"},
		{"target score overrides", &AdversarialContext{Auto: true, Vector: full(C1)}, ptr(0.8), SourceAutomatic, ms(SelfRefine, Steelman, LLMAsJudge), 0.8, "STRATEGY_SETS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := invocation(tt.adv)
			inv.TargetScore = tt.target
			rev, err := New().Review(context.Background(), ReviewInput{Invocation: inv, FS: fsys})
			require.NoError(t, err)
			assert.Equal(t, tt.source, rev.Selection.Source)
			assert.Equal(t, tt.modes, rev.Selection.Modes)
			assert.Equal(t, tt.threshold, rev.Selection.Threshold)
			assert.Equal(t, tt.threshold, rev.Pipeline.Threshold)
			assert.True(t, rev.Selection.Trace.Has(tt.rule), "%s\n%s", tt.rule, rev.Selection.Trace)
			require.NotNil(t, rev.Pipeline.Judge)
		})
	}
}

func TestReviewPreviousScoreDelta(t *testing.T) {
	eng := &scripted{scores: []float64{0.9}}
	inv := invocation(&AdversarialContext{Modes: ms(LLMAsJudge), Vector: full(C2), PreviousScore: ptr(0.78)})
	rev, err := New(WithEngine(eng)).Review(context.Background(), ReviewInput{Invocation: inv, Artifact: Artifact{Content: "# x\n"}})
	require.NoError(t, err)
	assert.Equal(t, ptr(0.12), rev.Delta)
}

func TestReviewArtifactErrors(t *testing.T) {
	c := New()
	_, err := c.Review(context.Background(), ReviewInput{Invocation: Invocation{}})
	assert.ErrorIs(t, err, ErrArtifactRequired)
	assert.Equal(t, "artifact path required", err.Error())

	_, err = c.Review(context.Background(), ReviewInput{Invocation: invocation(nil), FS: fstest.MapFS{}})
	assert.ErrorIs(t, err, ErrArtifactNotFound)
	var nf *ArtifactNotFoundError
	require.True(t, errors.As(err, &nf))
	assert.Equal(t, "Artifact not found at 'docs/plan.md'", err.Error())

	_, err = LoadArtifact(fstest.MapFS{}, "")
	assert.ErrorIs(t, err, ErrArtifactRequired)
	_, err = LoadArtifact(fstest.MapFS{"a": {Data: []byte{0xff, 0xfe}}}, "a")
	assert.ErrorIs(t, err, ErrInvalidInput)

	_, err = c.Review(context.Background(), ReviewInput{Invocation: invocation(&AdversarialContext{Auto: true, Vector: with(full(C4), func(v *Vector) { v.Team = TeamSingle })}),
		Artifact: Artifact{Content: "# x\n"}})
	assert.ErrorIs(t, err, ErrRejected)
}
