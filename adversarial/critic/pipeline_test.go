package critic

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/crucible-go/crucible/provider"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func explicit(t *testing.T, modes, crit string) *Selection {
	t.Helper()
	sel, err := SelectExplicit(modes, crit, Facts{})
	require.NoError(t, err)
	return sel
}

func TestRunOfflineAccumulatesContext(t *testing.T) {
	var seen []string
	eng := EngineFunc(func(ctx context.Context, req ModeRequest) (*ModeOutput, error) {
		seen = append(seen, req.PipelineContext)
		assert.Len(t, req.Prior, len(seen)-1)
		return Offline().Critique(ctx, req)
	})
	c := New(WithEngine(eng), WithClock(fixedClock()))
	res, err := c.Run(context.Background(), PipelineInput{Selection: explicit(t, "llm-as-judge,devils-advocate,steelman", "C2"), Artifact: sample(t)})
	require.NoError(t, err)
	assert.Equal(t, StatusComplete, res.Status)
	assert.Equal(t, ms(Steelman, DevilsAdvocate, LLMAsJudge), res.Modes)
	require.Len(t, seen, 3)
	assert.Equal(t, "# Pipeline Context (accumulated)\n", seen[0])
	assert.Contains(t, seen[1], "## Mode: steelman (S-003)")
	assert.Contains(t, seen[2], "## Mode: devils-advocate (S-002)")
	assert.True(t, strings.Index(seen[2], "steelman (S-003)") < strings.Index(seen[2], "devils-advocate (S-002)"))
	require.NotNil(t, res.Judge)
	assert.Equal(t, "adversarial", res.Judge.Rubric)
	assert.Equal(t, 0.92, res.Threshold)
	assert.False(t, res.Passed())
	assert.Contains(t, res.Context(), "## Mode: llm-as-judge (S-014)")
	assert.NotEmpty(t, res.Findings())
}

func TestRunStandardMode(t *testing.T) {
	res, err := New().Run(context.Background(), PipelineInput{Selection: explicit(t, "", ""), Artifact: sample(t)})
	require.NoError(t, err)
	require.NotNil(t, res.Judge)
	assert.Equal(t, "standard", res.Judge.Rubric)
	assert.Equal(t, 0.85, res.Judge.Threshold)
	var names []string
	for _, d := range res.Judge.Dimensions {
		names = append(names, d.Name)
	}
	assert.Equal(t, []string{"Completeness", "Accuracy", "Clarity", "Actionability", "Alignment"}, names)
}

const secretArtifact = `# Rotation plan

## Summary

We will rotate the database password because it leaked; the new value is password: "hunter2hunter2".

## Risks

- The rollout may fail; mitigation: roll back.
`

func TestRunGovernanceAbort(t *testing.T) {
	art := Artifact{Path: "plan.md", Content: secretArtifact}
	for _, tt := range []struct {
		crit  string
		abort bool
	}{{"C2", false}, {"C3", true}, {"C4", true}} {
		t.Run(tt.crit, func(t *testing.T) {
			res, err := New().Run(context.Background(), PipelineInput{Selection: explicit(t, "constitutional,devils-advocate,llm-as-judge", tt.crit), Artifact: art})
			require.NoError(t, err)
			if !tt.abort {
				assert.Equal(t, StatusComplete, res.Status)
				assert.Nil(t, res.Abort)
				return
			}
			assert.Equal(t, StatusAborted, res.Status)
			require.NotNil(t, res.Abort)
			assert.Equal(t, AbortGovernance, res.Abort.Condition)
			assert.True(t, res.Abort.Escalate)
			assert.Equal(t, Constitutional, res.Abort.Mode)
			assert.Contains(t, res.Abort.Reason, "P-001")
			assert.Equal(t, []Skip{{DevilsAdvocate, "Pipeline aborted: " + res.Abort.Reason}, {LLMAsJudge, "Pipeline aborted: " + res.Abort.Reason}}, res.Skipped)
			assert.Len(t, res.Outputs, 1)
			assert.False(t, res.Passed())
		})
	}
}

const hardRuleArtifact = `# Retention policy

## Rules

- Audit logs MUST be kept for 90 days.
- Operators rotate storage nightly.

## Storage

Audit logs kept for 30 days on the hot tier.
`

func TestRunHardRuleContradictionAborts(t *testing.T) {
	res, err := New().Run(context.Background(), PipelineInput{Selection: explicit(t, "chain-of-verification,llm-as-judge", "C1"),
		Artifact: Artifact{Path: "retention.md", Content: hardRuleArtifact}})
	require.NoError(t, err)
	assert.Equal(t, StatusAborted, res.Status)
	require.NotNil(t, res.Abort)
	assert.Equal(t, AbortHardRule, res.Abort.Condition)
	assert.False(t, res.Abort.Escalate)
	assert.Contains(t, res.Abort.Reason, "cannot pass the quality gate")
	assert.Equal(t, []Skip{{LLMAsJudge, "Pipeline aborted: " + res.Abort.Reason}}, res.Skipped)
	assert.Nil(t, res.Judge)
}

func TestRunBudgetExhaustedMidPipeline(t *testing.T) {
	eng := &scripted{hook: func(_ context.Context, req ModeRequest, out *ModeOutput) (*ModeOutput, error) {
		out.Usage = provider.Usage{InputTokens: 3000, OutputTokens: 1000}
		return out, nil
	}}
	res, err := New(WithEngine(eng)).Run(context.Background(), PipelineInput{
		Selection: explicit(t, "steelman,devils-advocate,constitutional,llm-as-judge", "C2"), Artifact: sample(t), TokenBudget: 6000})
	require.NoError(t, err)
	assert.Equal(t, StatusPartial, res.Status)
	assert.Equal(t, ms(Steelman, DevilsAdvocate), eng.modes(), "the mode that crossed the budget completes; the rest are skipped")
	assert.Equal(t, []Skip{{Constitutional, "Token budget exhausted mid-pipeline (8000 of 6000 tokens used after devils-advocate)"},
		{LLMAsJudge, "Token budget exhausted mid-pipeline (8000 of 6000 tokens used after devils-advocate)"}}, res.Skipped)
	require.Len(t, res.Warnings, 1)
	assert.Equal(t, WarnBudgetExhausted, res.Warnings[0].Code)
	assert.Contains(t, res.Warnings[0].Message, "skipped constitutional, llm-as-judge")
	assert.Equal(t, int64(8000), res.Usage.Total())
}

func TestRunOrchestratorTimeout(t *testing.T) {
	clock := &fakeClock{t: epoch, step: 20 * time.Second}
	eng := &scripted{}
	// Readings: start, then one before each mode: 20s, 40s, 60s…
	c := New(WithEngine(eng), WithClock(clock.now), WithPipelineTimeout(50*time.Second))
	res, err := c.Run(context.Background(), PipelineInput{Selection: explicit(t, "steelman,devils-advocate,constitutional,llm-as-judge", "C2"), Artifact: sample(t)})
	require.NoError(t, err)
	assert.Equal(t, StatusPartial, res.Status)
	assert.Equal(t, ms(Steelman, DevilsAdvocate), eng.modes())
	require.Len(t, res.Warnings, 1)
	assert.Equal(t, WarnPipelineTimeout, res.Warnings[0].Code)
	assert.Len(t, res.Skipped, 2)
}

func TestRunModeTimeoutFlagsIncomplete(t *testing.T) {
	eng := &scripted{hook: func(ctx context.Context, req ModeRequest, out *ModeOutput) (*ModeOutput, error) {
		if req.Mode == DevilsAdvocate {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return out, nil
	}, scores: []float64{0.9}}
	res, err := New(WithEngine(eng), WithModeTimeout(10*time.Millisecond)).Run(context.Background(),
		PipelineInput{Selection: explicit(t, "devils-advocate,llm-as-judge", "C2"), Artifact: sample(t)})
	require.NoError(t, err)
	assert.Equal(t, StatusComplete, res.Status)
	require.Len(t, res.Outputs, 2)
	assert.True(t, res.Outputs[0].Incomplete)
	assert.Contains(t, res.Outputs[0].Markdown(), "**Incomplete:**")
	assert.False(t, res.Outputs[1].Incomplete)
	require.Len(t, res.Warnings, 1)
	assert.Equal(t, WarnModeTimeout, res.Warnings[0].Code)
}

func TestRunUnavailableModeSkipped(t *testing.T) {
	eng := &scripted{scores: []float64{0.95}, hook: func(_ context.Context, req ModeRequest, out *ModeOutput) (*ModeOutput, error) {
		if req.Mode == RedTeam {
			return nil, ErrModeUnavailable
		}
		return out, nil
	}}
	res, err := New(WithEngine(eng)).Run(context.Background(), PipelineInput{Selection: explicit(t, "red-team,llm-as-judge", "C3"), Artifact: sample(t)})
	require.NoError(t, err)
	assert.Equal(t, StatusPartial, res.Status)
	assert.Equal(t, []Skip{{RedTeam, "mode unavailable"}}, res.Skipped)
	assert.Equal(t, "Mode 'red-team' is unavailable; skipped, the remainder runs.", res.Warnings[0].Message)
	require.NotNil(t, res.Judge)
	assert.True(t, res.Passed())
}

func TestRunErrors(t *testing.T) {
	c := New()
	_, err := c.Run(context.Background(), PipelineInput{Artifact: sample(t)})
	assert.ErrorIs(t, err, ErrInvalidInput)
	_, err = c.Run(context.Background(), PipelineInput{Selection: explicit(t, "fmea", ""), Artifact: Artifact{Content: "# x"}})
	assert.ErrorIs(t, err, ErrArtifactRequired)
	assert.Equal(t, "artifact path required", err.Error())
	_, err = c.Run(context.Background(), PipelineInput{Selection: explicit(t, "fmea", ""), Artifact: Artifact{Path: "b", Content: "a\x00b"}})
	assert.ErrorIs(t, err, ErrInvalidInput)

	// A failing mode returns what finished with the error.
	boom := errors.New("boom")
	eng := &scripted{hook: func(_ context.Context, req ModeRequest, out *ModeOutput) (*ModeOutput, error) {
		if req.Mode == DevilsAdvocate {
			return nil, boom
		}
		return out, nil
	}}
	res, err := New(WithEngine(eng)).Run(context.Background(), PipelineInput{Selection: explicit(t, "steelman,devils-advocate,fmea", ""), Artifact: sample(t)})
	assert.ErrorIs(t, err, boom)
	require.NotNil(t, res)
	assert.Equal(t, StatusPartial, res.Status)
	assert.Len(t, res.Outputs, 1)

	// Cancellation stops before the next mode.
	ctx, cancel := context.WithCancel(context.Background())
	eng = &scripted{hook: func(_ context.Context, req ModeRequest, out *ModeOutput) (*ModeOutput, error) {
		cancel()
		return out, nil
	}}
	res, err = New(WithEngine(eng)).Run(ctx, PipelineInput{Selection: explicit(t, "steelman,fmea", ""), Artifact: sample(t)})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Len(t, res.Outputs, 1)

	// An engine that returns nothing is an error, not a panic.
	nothing := EngineFunc(func(context.Context, ModeRequest) (*ModeOutput, error) { return &ModeOutput{Mode: FMEA}, nil })
	_, err = New(WithEngine(nothing)).Run(context.Background(), PipelineInput{Selection: explicit(t, "fmea", ""), Artifact: sample(t)})
	assert.ErrorContains(t, err, "engine returned no fmea result")
}

func TestRunEndSession(t *testing.T) {
	sel, err := SelectAutomatic(with(full(C4), func(v *Vector) { v.TokenBudget = BudgetExhausted }), Facts{})
	require.NoError(t, err)
	res, err := New().Run(context.Background(), PipelineInput{Selection: sel, Artifact: sample(t)})
	require.NoError(t, err)
	assert.Equal(t, StatusNotRun, res.Status)
	assert.Empty(t, res.Outputs)
}

func TestRunCheckpointResume(t *testing.T) {
	sel := explicit(t, "steelman,devils-advocate,constitutional,llm-as-judge", "C2")
	art := sample(t)
	full, err := New(WithClock(fixedClock())).Run(context.Background(), PipelineInput{Selection: sel, Artifact: art})
	require.NoError(t, err)

	// Interrupt after the second mode by failing the checkpoint hook.
	var saved []byte
	stop := errors.New("host stopped")
	_, err = New(WithClock(fixedClock())).Run(context.Background(), PipelineInput{Selection: sel, Artifact: art,
		OnCheckpoint: func(cp Checkpoint) error {
			b, err := json.Marshal(cp)
			require.NoError(t, err)
			saved = b
			if cp.Next == 2 {
				return stop
			}
			return nil
		}})
	require.ErrorIs(t, err, stop)

	var cp Checkpoint
	require.NoError(t, json.Unmarshal(saved, &cp))
	assert.Equal(t, 2, cp.Next)
	var priors []int
	eng := &scripted{hook: func(ctx context.Context, req ModeRequest, _ *ModeOutput) (*ModeOutput, error) {
		priors = append(priors, len(req.Prior))
		return Offline().Critique(ctx, req)
	}}
	resumed, err := New(WithEngine(eng), WithClock(fixedClock())).Run(context.Background(), PipelineInput{Selection: sel, Artifact: art, Resume: &cp})
	require.NoError(t, err)
	assert.Equal(t, ms(Constitutional, LLMAsJudge), eng.modes(), "only the remaining modes run")
	assert.Equal(t, []int{2, 3}, priors, "resumed modes see the checkpointed context")
	a, _ := json.Marshal(full.Outputs)
	b, _ := json.Marshal(resumed.Outputs)
	assert.JSONEq(t, string(a), string(b), "a resumed run ends where an uninterrupted one does")

	// A checkpoint for another artifact or other modes is refused.
	other := art
	other.Content += "\nchanged\n"
	_, err = New().Run(context.Background(), PipelineInput{Selection: sel, Artifact: other, Resume: &cp})
	assert.ErrorIs(t, err, ErrCheckpoint)
	_, err = New().Run(context.Background(), PipelineInput{Selection: explicit(t, "fmea", ""), Artifact: art, Resume: &cp})
	assert.ErrorIs(t, err, ErrCheckpoint)
	bad := cp
	bad.Version = 9
	_, err = New().Run(context.Background(), PipelineInput{Selection: sel, Artifact: art, Resume: &bad})
	assert.ErrorIs(t, err, ErrCheckpoint)
}

func TestRunDeterministic(t *testing.T) {
	sel, err := SelectAutomatic(full(C4), Facts{})
	require.NoError(t, err)
	var outs []string
	for range 3 {
		res, err := New(WithClock(fixedClock())).Run(context.Background(), PipelineInput{Selection: sel, Artifact: sample(t)})
		require.NoError(t, err)
		b, err := json.Marshal(res)
		require.NoError(t, err)
		outs = append(outs, string(b))
	}
	assert.Equal(t, outs[0], outs[1])
	assert.Equal(t, outs[0], outs[2])
}

// One Critic serves concurrent runs; run with -race.
func TestRunConcurrent(t *testing.T) {
	sel, err := SelectAutomatic(full(C4), Facts{})
	require.NoError(t, err)
	c := New(WithClock(fixedClock()))
	art := sample(t)
	want, err := c.Run(context.Background(), PipelineInput{Selection: sel, Artifact: art})
	require.NoError(t, err)
	wantJSON, _ := json.Marshal(want)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			got, err := c.Run(context.Background(), PipelineInput{Selection: sel, Artifact: art})
			if err == nil {
				b, _ := json.Marshal(got)
				if string(b) != string(wantJSON) {
					err = errors.New("concurrent run differs")
				}
			}
			errs <- err
		}()
	}
	for range 8 {
		require.NoError(t, <-errs)
	}
}
