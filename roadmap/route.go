package roadmap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/crucible-go/crucible/adversarial"
)

// The thresholds of return-contract routing.
const (
	// ProceedThreshold: a partial result at or above this convergence
	// proceeds with a warning; below it, it needs the user's approval.
	ProceedThreshold = 0.60
	// DivergenceThreshold: below this convergence the specs may be too
	// divergent for meaningful consolidation, whatever the status.
	DivergenceThreshold = 0.50
)

// Approver answers, in interactive mode, whether to proceed with a partial
// result whose convergence is below [ProceedThreshold]: "Proceed anyway?
// [Y/n]". Implementations must be safe for concurrent use.
type Approver interface {
	Approve(ctx context.Context, q Question) (bool, error)
}

// ApproverFunc adapts a function to [Approver].
type ApproverFunc func(ctx context.Context, q Question) (bool, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, q Question) (bool, error) { return f(ctx, q) }

// Question is what an [Approver] is asked.
type Question struct {
	Wave        Wave
	Convergence float64
	// Prompt is the question to show: "Adversarial convergence is XX%
	// (below 60% threshold).\nProceed anyway? [Y/n]".
	Prompt string
	// Result is the pipeline's result, for a host that shows more.
	Result *adversarial.Result
}

// WarningKind says what a [Warning] is about.
type WarningKind string

// The kinds of warning.
const (
	// WarnPartial: a partial result proceeded (convergence ≥ 60%, or
	// approved below it).
	WarnPartial WarningKind = "partial"
	// WarnApproved: convergence below 60% was approved interactively.
	WarnApproved WarningKind = "approved"
	// WarnUnresolved: the result has unresolved conflicts.
	WarnUnresolved WarningKind = "unresolved"
	// WarnDivergent: convergence below 50%.
	WarnDivergent WarningKind = "divergent"
	// WarnPipeline: a warning the pipeline returned on its result.
	WarnPipeline WarningKind = "pipeline"
	// WarnInput: a warning of Wave 0 (an unknown persona or depth).
	WarnInput WarningKind = "input"
)

// Warning is one warning of a roadmap run. Those of the pipeline's waves
// are written to extraction.md under "Consolidation Warnings".
type Warning struct {
	Wave    Wave        `json:"wave,omitempty"` // empty for WarnInput
	Kind    WarningKind `json:"kind"`
	Message string      `json:"message"`
}

func (w Warning) String() string { return w.Message }

// Errors of routing and invocation. An abort is an [*AbortError]: it
// matches ErrAborted and one of the others.
var (
	ErrAborted = errors.New("roadmap generation aborted")
	// ErrPipelineFailed: the pipeline returned status failed.
	ErrPipelineFailed = errors.New("sc:adversarial failed. Roadmap generation aborted.")
	// ErrLowConvergence: a partial result below 60% without --interactive.
	ErrLowConvergence = errors.New("adversarial convergence below the 60% threshold")
	// ErrNotApproved: the approver declined a result below 60% (or could
	// not answer).
	ErrNotApproved = errors.New("low-convergence result not approved")
	// ErrInvocationFailed: Pipeline.Run returned an error rather than a
	// result.
	ErrInvocationFailed = errors.New("sc:adversarial invocation failed. Check that the skill is properly installed and configured.")
	// ErrInvalidContract: the result breaks the return contract (an
	// unknown status, a convergence outside 0–1, no merged output to
	// proceed with).
	ErrInvalidContract = errors.New("sc:adversarial returned an invalid return contract")
)

// AbortError ends a roadmap run after the pipeline. Its message is the
// sentence a user is shown for the reason, e.g. "Adversarial convergence
// 42% is below 60% threshold.\nUse --interactive to approve low-convergence
// results, or revise specifications."
type AbortError struct {
	Wave    Wave
	Reason  error  // ErrPipelineFailed, ErrLowConvergence, ErrNotApproved, ErrInvocationFailed or ErrInvalidContract
	Message string // what to show the user
	// Result is what the pipeline returned, nil when it returned none.
	Result *adversarial.Result
	// Warnings are the run's warnings up to the abort, this wave's
	// included.
	Warnings []Warning
	// Err is the cause: Pipeline.Run's error or the approver's; may be nil.
	Err error
}

func (e *AbortError) Error() string {
	if e.Err != nil && e.Reason == ErrInvocationFailed {
		return e.Message + " Cause: " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns ErrAborted, the reason and the cause.
func (e *AbortError) Unwrap() []error {
	errs := []error{ErrAborted, e.Reason}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// percent formats a convergence score as "XX%": whole percent,
// rounded down so that a score below a threshold never reads as the
// threshold.
func percent(score float64) string {
	return fmt.Sprintf("%d%%", int(math.Floor(score*100+1e-9)))
}

// Route applies sc:roadmap's return-contract routing to one wave's result
// and returns its warnings, or an [*AbortError]:
//
//   - success proceeds;
//   - partial at or above 60% convergence proceeds with "Adversarial
//     consolidation partial (convergence: XX%). Some conflicts
//     unresolved.";
//   - partial below 60% asks the approver when interactive (approved: as
//     above; declined: abort) and aborts otherwise, with "Adversarial
//     convergence XX% is below 60% threshold." and what to do;
//   - failed aborts with the unresolved count and the artifacts location;
//   - in every case, unresolved conflicts add "Adversarial consolidation
//     produced N unresolved conflicts." with where to review them, and a
//     convergence below 50% the divergent-specs warning.
//
// A result that breaks the contract (an unknown status, a convergence
// outside 0–1, or nothing merged to proceed with) aborts with
// [ErrInvalidContract]; a nil result with [ErrInvocationFailed]. The
// pipeline's own warnings follow the routing's, prefixed "sc:adversarial: ".
func Route(ctx context.Context, wave Wave, res *adversarial.Result, interactive bool, approver Approver) ([]Warning, error) {
	if res == nil {
		return nil, &AbortError{Wave: wave, Reason: ErrInvocationFailed, Message: ErrInvocationFailed.Error()}
	}
	abort := func(reason error, msg string, warnings []Warning, cause error) error {
		return &AbortError{Wave: wave, Reason: reason, Message: msg, Result: res, Warnings: warnings, Err: cause}
	}
	score := res.ConvergenceScore
	if math.IsNaN(score) || score < 0 || score > 1 {
		return nil, abort(ErrInvalidContract, fmt.Sprintf("%s: convergence_score %v is outside 0.0-1.0. Roadmap generation aborted.", ErrInvalidContract, score), nil, nil)
	}
	pct := percent(score)
	warn := func(kind WarningKind, msg string) Warning { return Warning{Wave: wave, Kind: kind, Message: msg} }

	// Status-independent warnings, collected first so an abort carries them.
	var general []Warning
	if n := len(res.UnresolvedConflicts); n > 0 {
		general = append(general, warn(WarnUnresolved, fmt.Sprintf(
			"Adversarial consolidation produced %d unresolved conflicts.\nReview artifacts at %s for conflict details.", n, orUnknown(res.ArtifactsDir))))
	}
	if score < DivergenceThreshold {
		general = append(general, warn(WarnDivergent,
			"Specifications may be too divergent for meaningful consolidation.\nConsider running separate roadmaps or using --interactive for manual conflict resolution."))
	}
	for _, w := range res.Warnings {
		general = append(general, warn(WarnPipeline, "sc:adversarial: "+w))
	}

	// The partial sentence names unresolved conflicts; a run partial for
	// another reason (a merge check, a dropped advocate) says only that it
	// is partial, and its reasons follow among the pipeline's warnings.
	partialMsg := fmt.Sprintf("Adversarial consolidation partial (convergence: %s). Some conflicts unresolved.", pct)
	if len(res.UnresolvedConflicts) == 0 {
		partialMsg = fmt.Sprintf("Adversarial consolidation partial (convergence: %s).", pct)
	}
	partial := warn(WarnPartial, partialMsg)
	var status []Warning
	switch res.Status {
	case adversarial.StatusSuccess:
	case adversarial.StatusPartial:
		if score >= ProceedThreshold {
			status = append(status, partial)
			break
		}
		if !interactive {
			return nil, abort(ErrLowConvergence, fmt.Sprintf(
				"Adversarial convergence %s is below 60%% threshold.\nUse --interactive to approve low-convergence results, or revise specifications.", pct), general, nil)
		}
		q := Question{Wave: wave, Convergence: score, Result: res,
			Prompt: fmt.Sprintf("Adversarial convergence is %s (below 60%% threshold).\nProceed anyway? [Y/n]", pct)}
		declined := fmt.Sprintf("Adversarial convergence %s is below 60%% threshold and was not approved. Roadmap generation aborted.", pct)
		if approver == nil {
			return nil, abort(ErrNotApproved, declined, general, ErrNoApprover)
		}
		if err := ctx.Err(); err != nil {
			return nil, abort(ErrNotApproved, declined, general, err)
		}
		ok, err := approver.Approve(ctx, q)
		if err != nil {
			return nil, abort(ErrNotApproved, declined, general, err)
		}
		if !ok {
			return nil, abort(ErrNotApproved, declined, general, nil)
		}
		status = append(status, partial, warn(WarnApproved, fmt.Sprintf("Convergence %s below the 60%% threshold was approved interactively.", pct)))
	case adversarial.StatusFailed:
		return nil, abort(ErrPipelineFailed, failedMessage(res), general, nil)
	default:
		return nil, abort(ErrInvalidContract, fmt.Sprintf("%s: unknown status %q. Roadmap generation aborted.", ErrInvalidContract, res.Status), general, nil)
	}
	warnings := append(status, general...)
	if strings.TrimSpace(res.MergedOutput) == "" {
		return nil, abort(ErrInvalidContract, fmt.Sprintf("%s: status %s but no merged output (merged_output_path: %s). Roadmap generation aborted.",
			ErrInvalidContract, res.Status, orUnknown(res.MergedOutputPath)), warnings, nil)
	}
	return warnings, nil
}

// failedMessage is the abort message for a failed run: the stage
// that failed, the unresolved count, and the artifacts location when the
// result has one.
func failedMessage(res *adversarial.Result) string {
	lines := []string{ErrPipelineFailed.Error()}
	if res.FailureStage != "" {
		lines = append(lines, "Failed at stage: "+string(res.FailureStage))
	}
	lines = append(lines, fmt.Sprintf("Unresolved conflicts: %d", len(res.UnresolvedConflicts)))
	if res.ArtifactsDir != "" {
		lines = append(lines, "Review adversarial artifacts at "+res.ArtifactsDir+" for details.")
	}
	return strings.Join(lines, "\n")
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown location)"
	}
	return s
}
