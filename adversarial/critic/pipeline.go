package critic

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/llmjson"
)

// Status is how a pipeline ended.
type Status string

// Pipeline statuses.
const (
	// StatusComplete: every mode ran (a mode may still be flagged
	// incomplete after a timeout).
	StatusComplete Status = "complete"
	// StatusPartial: modes were skipped — budget exhausted, orchestrator
	// timeout, modes unavailable, cancellation or a mode's failure.
	StatusPartial Status = "partial"
	// StatusAborted: an abort condition halted the pipeline.
	StatusAborted Status = "aborted"
	// StatusNotRun: the selection had no modes (the session must end;
	// human review is mandatory).
	StatusNotRun Status = "not-run"
)

// Abort conditions.
const (
	// AbortGovernance: a mode found a governance violation (a HARD
	// principle) at C3 or C4. Escalate to human review.
	AbortGovernance = "governance-violation"
	// AbortHardRule: a mode found a CONTRADICTED claim on a HARD rule; the
	// artifact cannot pass the quality gate.
	AbortHardRule = "hard-rule-contradicted"
)

// Abort says why and where a pipeline halted.
type Abort struct {
	Condition string     `json:"condition"`
	Mode      Mode       `json:"mode"`
	Reason    string     `json:"reason"`
	Evidence  []Evidence `json:"evidence,omitempty"`
	// Escalate: the abort requires human review.
	Escalate bool `json:"escalate"`
}

// Skip records a mode that did not run and why.
type Skip struct {
	Mode   Mode   `json:"mode"`
	Reason string `json:"reason"`
}

// CheckpointVersion is the format version of [Checkpoint].
const CheckpointVersion = 1

// Checkpoint is a pipeline's state after a mode, serialisable as JSON, so
// that an interrupted pipeline resumes at the next mode.
type Checkpoint struct {
	Version      int            `json:"version"`
	ArtifactHash string         `json:"artifact_hash"`
	Modes        []Mode         `json:"modes"`
	Next         int            `json:"next"`
	Outputs      []*ModeOutput  `json:"outputs"`
	Skipped      []Skip         `json:"skipped,omitempty"`
	Warnings     []Warning      `json:"warnings,omitempty"`
	Usage        provider.Usage `json:"usage"`
	StartedAt    time.Time      `json:"started_at"`
}

// PipelineInput is one pipeline run.
type PipelineInput struct {
	// Selection gives the modes (run in its order), the criticality and the
	// threshold. Required.
	Selection *Selection
	// Artifact is what the modes critique. Required.
	Artifact Artifact
	// Iteration is the creator–critic–revision iteration; 0 means 1.
	Iteration int
	// TokenBudget caps the tokens the run may spend; when a mode's calls
	// exhaust it, that mode completes and the rest are skipped with a
	// warning. Zero: no cap.
	TokenBudget int64
	// Resume continues from a checkpoint of the same artifact and modes.
	Resume *Checkpoint
	// OnCheckpoint, if set, receives the state after every mode; an error
	// stops the run (what finished is returned with it).
	OnCheckpoint func(Checkpoint) error
}

// PipelineResult is what a pipeline produced.
type PipelineResult struct {
	Status      Status        `json:"status"`
	Criticality Criticality   `json:"criticality"`
	Threshold   float64       `json:"threshold"`
	Modes       []Mode        `json:"modes"`
	Outputs     []*ModeOutput `json:"outputs"`
	Skipped     []Skip        `json:"skipped,omitempty"`
	Warnings    []Warning     `json:"warnings,omitempty"`
	Abort       *Abort        `json:"abort,omitempty"`
	// Judge is the last S-014 (or standard) score of the run, if one ran.
	Judge      *JudgeResult   `json:"judge,omitempty"`
	Usage      provider.Usage `json:"usage"`
	StartedAt  time.Time      `json:"started_at"`
	FinishedAt time.Time      `json:"finished_at"`
	// Checkpoint is the final state; resuming it runs nothing more unless
	// modes were left.
	Checkpoint Checkpoint `json:"checkpoint"`
}

// Score returns the run's quality score, if a judge ran.
func (r *PipelineResult) Score() (float64, bool) {
	if r.Judge == nil {
		return 0, false
	}
	return r.Judge.Score, true
}

// Passed reports whether the artifact passed the quality gate: a judge
// scored it at or above the threshold and nothing aborted the run.
func (r *PipelineResult) Passed() bool {
	return r.Abort == nil && r.Judge != nil && atLeast(r.Judge.Score, r.Threshold)
}

// Findings returns every mode's findings, in pipeline order.
func (r *PipelineResult) Findings() []Finding {
	var out []Finding
	for _, o := range r.Outputs {
		out = append(out, o.Findings()...)
	}
	return out
}

// Context renders the outputs as the accumulated pipeline context, the
// "Pipeline Context (accumulated)" document later modes are shown.
func (r *PipelineResult) Context() string { return renderContext(r.Outputs) }

// renderContext is the "Pipeline Context (accumulated)" document.
func renderContext(outputs []*ModeOutput) string {
	var b strings.Builder
	b.WriteString("# Pipeline Context (accumulated)\n")
	for _, o := range outputs {
		b.WriteByte('\n')
		b.WriteString(o.Markdown())
	}
	return b.String()
}

// Run executes the selection's modes in sequence, each seeing the
// accumulated pipeline context. It honours these conditions:
//
//   - a governance violation at C3/C4 halts the run and escalates;
//   - a CONTRADICTED claim on a HARD rule halts the run: the artifact
//     cannot pass the gate;
//   - an exhausted token budget lets the current mode finish and skips the
//     rest with a warning;
//   - the orchestrator's timeout lets the current mode finish and returns
//     partial results;
//   - a mode past its own time limit is flagged incomplete and the run
//     goes on.
//
// A mode the engine reports unavailable is skipped (graceful degradation).
// When ctx is cancelled or a mode fails, Run returns what finished with the
// error.
func (c *Critic) Run(ctx context.Context, in PipelineInput) (*PipelineResult, error) {
	if in.Selection == nil {
		return nil, fmt.Errorf("%w: pipeline input has no selection", ErrInvalidInput)
	}
	if err := in.Artifact.Validate(); err != nil {
		return nil, err
	}
	modes, err := Sequence(in.Selection.Modes)
	if err != nil {
		return nil, err
	}
	iteration := max(in.Iteration, 1)
	sel := in.Selection
	rubric := AdversarialRubric()
	if sel.Source == SourceStandard || slices.Contains(modes, Standard) {
		rubric = StandardRubric()
	}

	cp := Checkpoint{Version: CheckpointVersion, ArtifactHash: in.Artifact.Hash(), Modes: modes, StartedAt: c.now()}
	if in.Resume != nil {
		if err := checkResume(in.Resume, cp); err != nil {
			return nil, err
		}
		cp = cloneCheckpoint(*in.Resume)
	}
	res := &PipelineResult{Status: StatusComplete, Criticality: sel.Criticality, Threshold: sel.Threshold, Modes: modes, StartedAt: cp.StartedAt}
	finish := func(status Status) *PipelineResult {
		if status != StatusComplete || res.Status == StatusComplete {
			res.Status = status
		}
		res.Outputs = cp.Outputs
		res.Skipped = cp.Skipped
		res.Warnings = cp.Warnings
		res.Usage = cp.Usage
		res.Judge = nil
		for _, o := range cp.Outputs {
			if o.Judge != nil && !o.Incomplete {
				res.Judge = o.Judge
			}
		}
		res.FinishedAt = c.now()
		res.Checkpoint = cloneCheckpoint(cp)
		return res
	}
	if len(modes) == 0 {
		return finish(StatusNotRun), nil
	}
	skipRest := func(from int, code, reason string) {
		var names []string
		for _, m := range modes[from:] {
			cp.Skipped = append(cp.Skipped, Skip{Mode: m, Reason: reason})
			names = append(names, string(m))
		}
		cp.Next = len(modes)
		if len(names) > 0 {
			cp.Warnings = append(cp.Warnings, Warning{Code: code, Message: fmt.Sprintf("%s; skipped %s.", reason, strings.Join(names, ", "))})
		}
	}
	log := c.logger.With("artifact", in.Artifact.Path, "iteration", iteration)

	for i := cp.Next; i < len(modes); i++ {
		m := modes[i]
		if err := ctx.Err(); err != nil {
			return finish(StatusPartial), fmt.Errorf("critic: pipeline stopped before %s: %w", m, err)
		}
		if c.pipelineTimeout > 0 && c.now().Sub(cp.StartedAt) >= c.pipelineTimeout {
			skipRest(i, WarnPipelineTimeout, fmt.Sprintf("Orchestrator timeout after %s: partial results", c.pipelineTimeout))
			return finish(StatusPartial), nil
		}
		req := ModeRequest{Mode: m, Artifact: in.Artifact, Criticality: sel.Criticality, Vector: sel.Vector, Iteration: iteration,
			Threshold: sel.Threshold, Rubric: rubric, Constitution: c.constitution, Prior: cp.Outputs, PipelineContext: renderContext(cp.Outputs)}
		out, timedOut, err := c.runMode(ctx, req)
		// A mode that failed was billed all the same.
		cp.Usage = cp.Usage.Add(llmjson.Spent(err))
		switch {
		case err == nil:
		case errors.Is(err, ErrModeUnavailable):
			cp.Skipped = append(cp.Skipped, Skip{Mode: m, Reason: "mode unavailable"})
			cp.Warnings = append(cp.Warnings, Warning{Code: WarnModeUnavailable, Message: fmt.Sprintf("Mode '%s' is unavailable; skipped, the remainder runs.", m)})
			res.Status = StatusPartial
			cp.Next = i + 1
			if err := c.checkpoint(in, cp); err != nil {
				return finish(StatusPartial), err
			}
			continue
		case ctx.Err() != nil:
			return finish(StatusPartial), fmt.Errorf("critic: pipeline stopped in %s: %w", m, ctx.Err())
		default:
			return finish(StatusPartial), fmt.Errorf("critic: mode %s: %w", m, err)
		}
		if timedOut {
			cp.Warnings = append(cp.Warnings, Warning{Code: WarnModeTimeout, Message: fmt.Sprintf("Mode '%s' ran past %s; its results are partial and flagged incomplete.", m, c.modeTimeout)})
		}
		cp.Outputs = append(cp.Outputs, out)
		cp.Usage = cp.Usage.Add(out.Usage)
		cp.Next = i + 1
		log.DebugContext(ctx, "critic: mode done", "mode", m, "summary", out.Summary, "usage", out.Usage.String())

		if ab := abortFor(out, sel.Criticality); ab != nil {
			res.Abort = ab
			skipRest(i+1, "ABORT", "Pipeline aborted: "+ab.Reason)
			if err := c.checkpoint(in, cp); err != nil {
				return finish(StatusAborted), err
			}
			return finish(StatusAborted), nil
		}
		exhausted := in.TokenBudget > 0 && cp.Usage.Total() >= in.TokenBudget && i+1 < len(modes)
		if exhausted {
			skipRest(i+1, WarnBudgetExhausted, fmt.Sprintf("Token budget exhausted mid-pipeline (%d of %d tokens used after %s)", cp.Usage.Total(), in.TokenBudget, m))
			res.Status = StatusPartial
		}
		if err := c.checkpoint(in, cp); err != nil {
			return finish(StatusPartial), err
		}
		if exhausted {
			break
		}
	}
	return finish(StatusComplete), nil
}

func (c *Critic) checkpoint(in PipelineInput, cp Checkpoint) error {
	if in.OnCheckpoint == nil {
		return nil
	}
	if err := in.OnCheckpoint(cloneCheckpoint(cp)); err != nil {
		return fmt.Errorf("critic: checkpoint after mode %d: %w", cp.Next, err)
	}
	return nil
}

// runMode runs one mode under the mode timeout. A timeout while the
// caller's context is still live is not an error: the output (or an empty
// one) comes back flagged incomplete.
func (c *Critic) runMode(ctx context.Context, req ModeRequest) (*ModeOutput, bool, error) {
	mctx, cancel := ctx, context.CancelFunc(func() {})
	if c.modeTimeout > 0 {
		mctx, cancel = context.WithTimeout(ctx, c.modeTimeout)
	}
	defer cancel()
	out, err := c.engine.Critique(mctx, req)
	if err != nil && ctx.Err() == nil && errors.Is(mctx.Err(), context.DeadlineExceeded) {
		if out == nil {
			out = &ModeOutput{Mode: req.Mode, Strategy: req.Mode.Strategy(), Summary: "No result: the mode ran past its time limit."}
		}
		out.Incomplete = true
		return out, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	if out == nil || out.result() == nil {
		return nil, false, fmt.Errorf("engine returned no %s result", req.Mode)
	}
	return out, false, nil
}

// abortFor checks a mode's output against the abort conditions.
func abortFor(o *ModeOutput, crit Criticality) *Abort {
	if o.Constitutional != nil && crit >= C3 {
		if v := o.Constitutional.GovernanceViolation(); v != nil {
			return &Abort{Condition: AbortGovernance, Mode: o.Mode, Escalate: true, Evidence: v.Evidence,
				Reason: fmt.Sprintf("%s governance violation (%s: %s); escalate to human review", crit, v.ID, v.Principle)}
		}
	}
	if o.Verification != nil {
		if v := o.Verification.HardContradiction(); v != nil {
			return &Abort{Condition: AbortHardRule, Mode: o.Mode, Evidence: v.Evidence,
				Reason: "CONTRADICTED claim on a HARD rule (" + v.Claim + "); the artifact cannot pass the quality gate"}
		}
	}
	return nil
}

func checkResume(from *Checkpoint, fresh Checkpoint) error {
	switch {
	case from.Version != CheckpointVersion:
		return fmt.Errorf("%w: version %d, want %d", ErrCheckpoint, from.Version, CheckpointVersion)
	case from.ArtifactHash != fresh.ArtifactHash:
		return fmt.Errorf("%w: it was taken for a different artifact (hash %.12s…, now %.12s…)", ErrCheckpoint, from.ArtifactHash, fresh.ArtifactHash)
	case !slices.Equal(from.Modes, fresh.Modes):
		return fmt.Errorf("%w: modes [%s], the selection has [%s]", ErrCheckpoint, FormatModes(from.Modes), FormatModes(fresh.Modes))
	case from.Next < 0 || from.Next > len(from.Modes):
		return fmt.Errorf("%w: next mode %d is out of range", ErrCheckpoint, from.Next)
	}
	for _, o := range from.Outputs {
		if o == nil || !slices.Contains(from.Modes[:from.Next], o.Mode) {
			return fmt.Errorf("%w: it holds an output for a mode that has not run", ErrCheckpoint)
		}
	}
	return nil
}

func cloneCheckpoint(cp Checkpoint) Checkpoint {
	cp.Modes = slices.Clone(cp.Modes)
	cp.Outputs = slices.Clone(cp.Outputs)
	cp.Skipped = slices.Clone(cp.Skipped)
	cp.Warnings = slices.Clone(cp.Warnings)
	return cp
}
