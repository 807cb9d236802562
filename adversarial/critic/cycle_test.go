package critic

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecide(t *testing.T) {
	tests := []struct {
		name      string
		iteration int
		scores    []float64
		threshold float64
		max       int
		want      Outcome
		reason    string
	}{
		{"accept at threshold", 3, []float64{0.78, 0.92}, 0.92, 3, Accept, "meets"},
		{"accept above", 2, []float64{0.95}, 0.92, 3, Accept, "meets"},
		{"configured threshold", 3, []float64{0.7, 0.86}, 0.85, 3, Accept, "meets the 0.85"},
		{"circuit breaker: caveats", 3, []float64{0.78, 0.87}, 0.92, 3, AcceptWithCaveats, "circuit breaker"},
		{"circuit breaker: caveats at floor", 3, []float64{0.80, 0.85}, 0.92, 3, AcceptWithCaveats, "circuit breaker"},
		{"circuit breaker: escalate", 3, []float64{0.60, 0.84}, 0.92, 3, Escalate, "escalate to the user"},
		{"past the breaker", 5, []float64{0.6, 0.7, 0.8, 0.9}, 0.92, 4, AcceptWithCaveats, "circuit breaker"},
		{"plateau", 4, []float64{0.80, 0.84, 0.87}, 0.92, 6, AcceptWithCaveats, "plateau"},
		{"plateau at exactly 0.05 is no plateau", 4, []float64{0.82, 0.87, 0.90}, 0.92, 6, Revise, "revise"},
		{"one small step is no plateau", 4, []float64{0.70, 0.80, 0.83}, 0.92, 6, Revise, "revise"},
		{"plateau of decline", 4, []float64{0.80, 0.78, 0.79}, 0.92, 6, AcceptWithCaveats, "plateau"},
		{"revise", 3, []float64{0.6, 0.75}, 0.92, 5, Revise, "revise (iteration 3 of at most 5)"},
		{"no score", 3, nil, 0.92, 3, Escalate, "no quality score"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(tt.iteration, tt.scores, tt.threshold, tt.max)
			assert.Equal(t, tt.want, d.Outcome, d.Reason)
			assert.Contains(t, d.Reason, tt.reason)
			assert.Equal(t, tt.iteration, d.Iteration)
		})
	}
}

// versions is a creator that returns the given documents in turn.
func versions(docs ...string) Creator {
	i := 0
	next := func() (Artifact, error) {
		if i >= len(docs) {
			return Artifact{}, errors.New("no more versions")
		}
		i++
		return Artifact{Content: docs[i-1]}, nil
	}
	return CreatorFuncs{
		CreateFunc: func(context.Context, CreateRequest) (Artifact, error) { return next() },
		ReviseFunc: func(context.Context, RevisionRequest) (Artifact, error) { return next() },
	}
}

func docs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("# Version %d\n\nText of version %d.\n", i+1, i+1)
	}
	return out
}

func TestCycleOutcomes(t *testing.T) {
	tests := []struct {
		name     string
		scores   []float64 // judge scores from iteration 2 on
		max      int
		want     Outcome
		iters    int
		caveats  bool
		decision string
	}{
		{"accept at iteration 3", []float64{0.78, 0.93}, 0, Accept, 3, false, "meets"},
		{"accept even when the critique already passes", []float64{0.95, 0.96}, 0, Accept, 3, false, "meets"},
		{"caveats by circuit breaker", []float64{0.78, 0.87}, 0, AcceptWithCaveats, 3, true, "circuit breaker at iteration 3"},
		{"escalate by circuit breaker", []float64{0.60, 0.70}, 0, Escalate, 3, false, "escalate to the user"},
		{"caveats by plateau", []float64{0.70, 0.80, 0.83, 0.85}, 6, AcceptWithCaveats, 5, true, "plateau"},
		{"extended cycle accepts", []float64{0.70, 0.80, 0.93}, 5, Accept, 4, false, "meets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng := &scripted{scores: tt.scores}
			opts := []CycleOption{}
			if tt.max > 0 {
				opts = append(opts, WithMaxIterations(tt.max))
			}
			cy := NewCycle(New(WithEngine(eng), WithClock(fixedClock())), versions(docs(8)...), opts...)
			res, err := cy.Run(context.Background(), CycleInput{Path: "plan.md", Vector: full(C2)})
			require.NoError(t, err)
			assert.Equal(t, tt.want, res.Outcome, res.Reason)
			assert.Contains(t, res.Reason, tt.decision)
			assert.Len(t, res.Iterations, tt.iters)
			assert.Equal(t, tt.caveats, len(res.Caveats) > 0)
			assert.Equal(t, fmt.Sprintf("# Version %d\n\nText of version %d.\n", tt.iters-1, tt.iters-1), res.Final.Content)

			// The iteration shapes: create, critique with the selection, then revise-and-verify.
			assert.Equal(t, KindCreate, res.Iterations[0].Kind)
			assert.Nil(t, res.Iterations[0].Pipeline)
			assert.Equal(t, KindCritique, res.Iterations[1].Kind)
			assert.Equal(t, ms(SelfRefine, Steelman, Constitutional, DevilsAdvocate, LLMAsJudge), res.Iterations[1].Pipeline.Modes)
			for _, it := range res.Iterations[2:] {
				assert.Equal(t, KindRevise, it.Kind)
				assert.Equal(t, ms(ChainOfVerification, LLMAsJudge), it.Pipeline.Modes)
			}
			// Tracking: iteration 1 unscored, then one score per iteration.
			tr := res.Tracking
			require.Len(t, tr.Iterations, tt.iters)
			assert.Nil(t, tr.Iterations[0].Score)
			assert.Equal(t, []Mode{SelfRefine}, tr.Iterations[0].ModesApplied)
			assert.Equal(t, tt.scores[:tt.iters-1], tr.Scores())
			assert.Equal(t, 0.92, tr.Threshold)
			last := res.Decisions[len(res.Decisions)-1]
			assert.Equal(t, tt.want, last.Outcome)
		})
	}
}

func TestCycleGovernanceEscalatesImmediately(t *testing.T) {
	cy := NewCycle(New(WithClock(fixedClock())), versions(secretArtifact, secretArtifact))
	res, err := cy.Run(context.Background(), CycleInput{Path: "rotation.md", Vector: full(C3)})
	require.NoError(t, err)
	assert.Equal(t, Escalate, res.Outcome)
	assert.Contains(t, res.Reason, "governance violation")
	assert.Len(t, res.Iterations, 2)
}

func TestCycleHardRuleForcesRevision(t *testing.T) {
	fixed := "# Retention policy\n\n## Rules\n\n- Audit logs MUST be kept for 90 days.\n"
	eng := &scripted{scores: []float64{0.95, 0.95}, hook: func(ctx context.Context, req ModeRequest, out *ModeOutput) (*ModeOutput, error) {
		if req.Mode == ChainOfVerification {
			return Offline().Critique(ctx, req)
		}
		return out, nil
	}}
	cy := NewCycle(New(WithEngine(eng), WithClock(fixedClock())), versions(hardRuleArtifact, hardRuleArtifact, fixed), WithMaxIterations(4))
	res, err := cy.Run(context.Background(), CycleInput{Path: "retention.md", Vector: full(C1), Modes: "llm-as-judge"})
	require.NoError(t, err)
	require.Len(t, res.Iterations, 4)
	assert.Equal(t, StatusAborted, res.Iterations[2].Pipeline.Status)
	assert.Equal(t, Revise, res.Decisions[1].Outcome)
	assert.Contains(t, res.Decisions[1].Reason, "cannot pass the quality gate")
	assert.Equal(t, Accept, res.Outcome)

	// Without iterations left the same abort escalates.
	cy = NewCycle(New(WithEngine(&scripted{scores: []float64{0.95}, hook: eng.hook}), WithClock(fixedClock())), versions(hardRuleArtifact, hardRuleArtifact))
	res, err = cy.Run(context.Background(), CycleInput{Path: "retention.md", Vector: full(C1), Modes: "llm-as-judge"})
	require.NoError(t, err)
	assert.Equal(t, Escalate, res.Outcome)
	assert.Contains(t, res.Reason, "circuit breaker at iteration 3")
}

func TestCycleErrors(t *testing.T) {
	_, err := NewCycle(nil, nil).Run(context.Background(), CycleInput{Path: "a.md"})
	assert.ErrorIs(t, err, ErrInvalidInput)
	_, err = NewCycle(nil, versions("x")).Run(context.Background(), CycleInput{})
	assert.ErrorIs(t, err, ErrArtifactRequired)
	_, err = NewCycle(nil, versions("x")).Run(context.Background(), CycleInput{Path: "a.md", Vector: with(full(C4), func(v *Vector) { v.Team = TeamSingle })})
	assert.ErrorIs(t, err, ErrRejected)
	_, err = NewCycle(nil, versions("# only one")).Run(context.Background(), CycleInput{Path: "a.md", Vector: full(C1)})
	assert.ErrorContains(t, err, "revise (iteration 3): no more versions")

	res, err := NewCycle(nil, versions("# x")).Run(context.Background(), CycleInput{Path: "a.md", Vector: with(full(C4), func(v *Vector) { v.TokenBudget = BudgetExhausted })})
	require.NoError(t, err)
	assert.Equal(t, Escalate, res.Outcome)
	assert.Contains(t, res.Reason, "human review is mandatory")
}

func TestCycleMaxIterationsFloor(t *testing.T) {
	cy := NewCycle(nil, versions(), WithMaxIterations(1))
	assert.Equal(t, 3, cy.max)
}

func TestCycleOfflineSample(t *testing.T) {
	var vs []string
	for _, v := range []string{"v1", "v2", "v3"} {
		b, err := os.ReadFile("../../examples/internal/criticcmd/testdata/webhook-delivery-" + v + ".md")
		require.NoError(t, err)
		vs = append(vs, string(b))
	}
	cy := NewCycle(New(WithClock(fixedClock())), versions(vs...), WithMaxIterations(4))
	res, err := cy.Run(context.Background(), CycleInput{Path: "docs/webhook-delivery.md", Vector: full(C2)})
	require.NoError(t, err)
	assert.Equal(t, Accept, res.Outcome, res.Reason)
	assert.Equal(t, []float64{0.57, 0.74, 0.94}, res.Tracking.Scores())
	assert.Empty(t, res.Flags)
}
