package roadmap

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial"
)

const (
	msgPartial75  = "Adversarial consolidation partial (convergence: 75%)."
	msgDivergent  = "Specifications may be too divergent for meaningful consolidation.\nConsider running separate roadmaps or using --interactive for manual conflict resolution."
	msgUnresolved = "Adversarial consolidation produced 2 unresolved conflicts.\nReview artifacts at out/adversarial for conflict details."
)

// answer is a scripted approver that records the questions it was asked.
type answer struct {
	yes   bool
	err   error
	asked []Question
}

func (a *answer) Approve(_ context.Context, q Question) (bool, error) {
	a.asked = append(a.asked, q)
	return a.yes, a.err
}

func TestRoute(t *testing.T) {
	result := func(status adversarial.Status, conv float64, unresolved ...string) *adversarial.Result {
		return &adversarial.Result{Status: status, ConvergenceScore: conv, UnresolvedConflicts: unresolved,
			ArtifactsDir: "out/adversarial", MergedOutputPath: "out/merged.md", MergedOutput: "# Merged\n"}
	}
	boom := errors.New("terminal closed")
	tests := []struct {
		name        string
		res         *adversarial.Result
		interactive bool
		approver    *answer // nil: none configured
		wantReason  error   // nil: proceeds
		wantMsg     string  // the abort's message
		wantWarn    []string
		wantAsked   string // the prompt, when the approver must be asked
	}{
		{name: "success proceeds silently", res: result(adversarial.StatusSuccess, 0.92)},
		{name: "success with unresolved conflicts warns", res: result(adversarial.StatusSuccess, 0.85, "C-001", "X-002"),
			wantWarn: []string{msgUnresolved}},
		{name: "success below 50% still warns divergent", res: result(adversarial.StatusSuccess, 0.45),
			wantWarn: []string{msgDivergent}},
		{name: "partial at 75% proceeds with warning", res: result(adversarial.StatusPartial, 0.75),
			wantWarn: []string{msgPartial75}},
		{name: "partial with unresolved conflicts says so", res: result(adversarial.StatusPartial, 0.75, "C-001", "X-002"),
			wantWarn: []string{"Adversarial consolidation partial (convergence: 75%). Some conflicts unresolved.", msgUnresolved}},
		{name: "partial at exactly 60% proceeds", res: result(adversarial.StatusPartial, 0.60),
			wantWarn: []string{"Adversarial consolidation partial (convergence: 60%)."}},
		{name: "partial at 75% interactive does not ask", res: result(adversarial.StatusPartial, 0.75), interactive: true,
			approver: &answer{}, wantWarn: []string{msgPartial75}},
		{name: "partial just under 60% aborts non-interactive", res: result(adversarial.StatusPartial, 0.599),
			wantReason: ErrLowConvergence,
			wantMsg:    "Adversarial convergence 59% is below 60% threshold.\nUse --interactive to approve low-convergence results, or revise specifications."},
		{name: "partial at 55% aborts non-interactive even with an approver", res: result(adversarial.StatusPartial, 0.55),
			approver: &answer{yes: true}, wantReason: ErrLowConvergence,
			wantMsg: "Adversarial convergence 55% is below 60% threshold.\nUse --interactive to approve low-convergence results, or revise specifications."},
		{name: "partial at 55% interactive approved", res: result(adversarial.StatusPartial, 0.55), interactive: true,
			approver: &answer{yes: true},
			wantWarn: []string{"Adversarial consolidation partial (convergence: 55%).",
				"Convergence 55% below the 60% threshold was approved interactively."},
			wantAsked: "Adversarial convergence is 55% (below 60% threshold).\nProceed anyway? [Y/n]"},
		{name: "partial at 55% interactive declined", res: result(adversarial.StatusPartial, 0.55), interactive: true,
			approver: &answer{yes: false}, wantReason: ErrNotApproved,
			wantMsg:   "Adversarial convergence 55% is below 60% threshold and was not approved. Roadmap generation aborted.",
			wantAsked: "Adversarial convergence is 55% (below 60% threshold).\nProceed anyway? [Y/n]"},
		{name: "partial at exactly 50% approved is not divergent", res: result(adversarial.StatusPartial, 0.50), interactive: true,
			approver: &answer{yes: true},
			wantWarn: []string{"Adversarial consolidation partial (convergence: 50%).",
				"Convergence 50% below the 60% threshold was approved interactively."},
			wantAsked: "Adversarial convergence is 50% (below 60% threshold).\nProceed anyway? [Y/n]"},
		{name: "partial at 45% approved warns divergent too", res: result(adversarial.StatusPartial, 0.45, "C-001", "X-002"), interactive: true,
			approver: &answer{yes: true},
			wantWarn: []string{"Adversarial consolidation partial (convergence: 45%). Some conflicts unresolved.",
				"Convergence 45% below the 60% threshold was approved interactively.", msgUnresolved, msgDivergent},
			wantAsked: "Adversarial convergence is 45% (below 60% threshold).\nProceed anyway? [Y/n]"},
		{name: "partial at 45% non-interactive aborts, keeping the divergent warning", res: result(adversarial.StatusPartial, 0.45),
			wantReason: ErrLowConvergence,
			wantMsg:    "Adversarial convergence 45% is below 60% threshold.\nUse --interactive to approve low-convergence results, or revise specifications.",
			wantWarn:   []string{msgDivergent}},
		{name: "partial at 45% interactive declined keeps the divergent warning", res: result(adversarial.StatusPartial, 0.45), interactive: true,
			approver: &answer{}, wantReason: ErrNotApproved,
			wantMsg:   "Adversarial convergence 45% is below 60% threshold and was not approved. Roadmap generation aborted.",
			wantWarn:  []string{msgDivergent},
			wantAsked: "Adversarial convergence is 45% (below 60% threshold).\nProceed anyway? [Y/n]"},
		{name: "approver failure aborts", res: result(adversarial.StatusPartial, 0.58), interactive: true,
			approver: &answer{err: boom}, wantReason: ErrNotApproved,
			wantMsg:   "Adversarial convergence 58% is below 60% threshold and was not approved. Roadmap generation aborted.",
			wantAsked: "Adversarial convergence is 58% (below 60% threshold).\nProceed anyway? [Y/n]"},
		{name: "interactive without an approver aborts", res: result(adversarial.StatusPartial, 0.58), interactive: true,
			wantReason: ErrNotApproved,
			wantMsg:    "Adversarial convergence 58% is below 60% threshold and was not approved. Roadmap generation aborted."},
		{name: "failed aborts with count and location", res: func() *adversarial.Result {
			r := result(adversarial.StatusFailed, 0.30, "C-001", "C-002", "X-001")
			r.FailureStage, r.MergedOutput = adversarial.StageMerge, ""
			return r
		}(), wantReason: ErrPipelineFailed,
			wantMsg:  "sc:adversarial failed. Roadmap generation aborted.\nFailed at stage: merge\nUnresolved conflicts: 3\nReview adversarial artifacts at out/adversarial for details.",
			wantWarn: []string{"Adversarial consolidation produced 3 unresolved conflicts.\nReview artifacts at out/adversarial for conflict details.", msgDivergent}},
		{name: "failed at high convergence without a location", res: &adversarial.Result{Status: adversarial.StatusFailed, ConvergenceScore: 0.9},
			wantReason: ErrPipelineFailed,
			wantMsg:    "sc:adversarial failed. Roadmap generation aborted.\nUnresolved conflicts: 0"},
		{name: "failed interactive does not ask", res: result(adversarial.StatusFailed, 0.55), interactive: true, approver: &answer{yes: true},
			wantReason: ErrPipelineFailed,
			wantMsg:    "sc:adversarial failed. Roadmap generation aborted.\nUnresolved conflicts: 0\nReview adversarial artifacts at out/adversarial for details."},
		{name: "pipeline warnings follow", res: func() *adversarial.Result {
			r := result(adversarial.StatusSuccess, 0.9)
			r.Warnings = []string{"Unknown depth extreme, using standard"}
			return r
		}(), wantWarn: []string{"sc:adversarial: Unknown depth extreme, using standard"}},
		{name: "unknown status", res: result("done", 0.9), wantReason: ErrInvalidContract,
			wantMsg: `sc:adversarial returned an invalid return contract: unknown status "done". Roadmap generation aborted.`},
		{name: "convergence above 1", res: result(adversarial.StatusSuccess, 1.5), wantReason: ErrInvalidContract,
			wantMsg: "sc:adversarial returned an invalid return contract: convergence_score 1.5 is outside 0.0-1.0. Roadmap generation aborted."},
		{name: "convergence NaN", res: result(adversarial.StatusSuccess, math.NaN()), wantReason: ErrInvalidContract,
			wantMsg: "sc:adversarial returned an invalid return contract: convergence_score NaN is outside 0.0-1.0. Roadmap generation aborted."},
		{name: "success without merged output", res: func() *adversarial.Result {
			r := result(adversarial.StatusSuccess, 0.9)
			r.MergedOutput = "  \n"
			return r
		}(), wantReason: ErrInvalidContract,
			wantMsg: "sc:adversarial returned an invalid return contract: status success but no merged output (merged_output_path: out/merged.md). Roadmap generation aborted."},
		{name: "no result", res: nil, wantReason: ErrInvocationFailed,
			wantMsg: "sc:adversarial invocation failed. Check that the skill is properly installed and configured."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var approver Approver
			if tt.approver != nil {
				approver = tt.approver
			}
			warnings, err := Route(context.Background(), Wave1A, tt.res, tt.interactive, approver)
			if tt.wantReason == nil {
				require.NoError(t, err)
				assert.Equal(t, tt.wantWarn, messages(warnings))
				for _, w := range warnings {
					assert.Equal(t, Wave1A, w.Wave)
				}
			} else {
				require.Error(t, err)
				assert.Nil(t, warnings)
				var abort *AbortError
				require.ErrorAs(t, err, &abort)
				assert.ErrorIs(t, err, ErrAborted)
				assert.ErrorIs(t, err, tt.wantReason)
				assert.Equal(t, tt.wantMsg, err.Error())
				assert.Equal(t, Wave1A, abort.Wave)
				assert.Same(t, tt.res, abort.Result)
				assert.Equal(t, tt.wantWarn, messages(abort.Warnings))
			}
			if tt.approver != nil {
				if tt.wantAsked == "" {
					assert.Empty(t, tt.approver.asked, "the approver must not be asked")
				} else {
					require.Len(t, tt.approver.asked, 1)
					q := tt.approver.asked[0]
					assert.Equal(t, tt.wantAsked, q.Prompt)
					assert.Equal(t, Wave1A, q.Wave)
					assert.Equal(t, tt.res.ConvergenceScore, q.Convergence)
					assert.Same(t, tt.res, q.Result)
				}
			}
		})
	}
}

func TestRouteCauses(t *testing.T) {
	boom := errors.New("terminal closed")
	res := &adversarial.Result{Status: adversarial.StatusPartial, ConvergenceScore: 0.4}
	_, err := Route(context.Background(), Wave2, res, true, &answer{err: boom})
	assert.ErrorIs(t, err, boom, "the approver's error is the cause")
	_, err = Route(context.Background(), Wave2, res, true, nil)
	assert.ErrorIs(t, err, ErrNoApprover)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := &answer{yes: true}
	_, err = Route(ctx, Wave2, res, true, a)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, a.asked, "nobody is asked once the context has ended")
}

func TestPercent(t *testing.T) {
	for score, want := range map[float64]string{0: "0%", 0.5: "50%", 0.599: "59%", 0.6: "60%", 0.6049: "60%", 0.7: "70%", 0.29: "29%", 0.57: "57%", 1: "100%"} {
		assert.Equal(t, want, percent(score), "%v", score)
	}
}

func messages(ws []Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Message)
	}
	return out
}
