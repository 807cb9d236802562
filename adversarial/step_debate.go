package adversarial

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/crucible-go/crucible/adversarial/debate"
)

// Step 2: the debate (package debate) → debate-transcript.md, with the
// interactive checkpoints around it and what the return contract takes
// from it.

func (x *run) stepDebate(ctx context.Context) error {
	a := x.res.Steps.Analysis
	if a.Similarity.Identical {
		x.skipped(StageDebate, "variants substantially identical")
		x.partial("variants substantially identical: debate and scoring skipped; the first variant is the base")
		x.res.ConvergenceScore, x.res.ConvergenceAllPoints = 1, 1
		return x.emit(ctx, DebateTranscriptFile, []byte(debate.SkippedTranscript(a, x.depth, x.threshold)))
	}
	if c := x.in.Resume; c != nil && c.Debate != nil {
		x.res.Steps.Debate = c.Debate
		x.skipped(StageDebate, "resumed from the checkpoint")
		x.adoptDebate(c.Debate)
		return x.emit(ctx, DebateTranscriptFile, []byte(c.Debate.Markdown()))
	}
	x.startPreparing(ctx)
	var points []string
	if x.in.Interactive {
		x.releasePreparing() // the host's answer is a wait too
		p, err := x.r.checkpoints.AfterDiff(ctx, a)
		if err != nil {
			x.res.FailureStage = StageDebate
			return fmt.Errorf("checkpoint after diff analysis: %w", err)
		}
		points = p
	}
	x.res.FailureStage = StageDebate
	ctx = x.started(ctx, StageDebate)
	advocates, err := x.advocates()
	if err != nil {
		return err
	}
	variants := make([]debate.Variant, len(x.docs))
	for i, d := range x.docs {
		variants[i] = debate.Variant{Label: label(i), Agent: x.advocateOf(i), Doc: d}
	}
	in := debate.Input{Variants: variants, Advocates: x.gate(advocates), Analysis: a, Depth: x.depth,
		Threshold: x.threshold, Focus: x.in.Focus, Points: points}
	result, err := debate.Run(ctx, in, x.debateOptions()...)
	if err != nil {
		var de *debate.Error
		if errors.As(err, &de) && de.Result != nil {
			x.res.Steps.Debate = de.Result
			_ = x.emit(ctx, DebateTranscriptFile, []byte(de.Result.Markdown()))
			if errors.Is(err, debate.ErrTooFewAdvocates) {
				x.warnDropped(de.Result, "fewer than 2 advocates remained")
				x.warn("Adversarial comparison requires minimum 2 variants")
				if s := survivor(de.Result, x); s >= 0 {
					x.res.MergedOutput = x.docs[s].Source
					x.res.BaseVariant = x.baseName(s)
				}
			}
		}
		return err
	}
	for _, f := range result.Failures {
		if f.Fallback != "" {
			x.partial(fmt.Sprintf("Debate: the advocate of Variant %s (%s) refused round %d (%s); the %s argued that turn",
				f.Variant, f.Agent, f.Round, f.Error, f.Fallback))
		}
	}
	for _, n := range x.reasoningLog() {
		result.Log = append(result.Log, n)
		x.warn(n)
	}
	if x.in.Interactive {
		resolved, err := x.r.checkpoints.AfterDebate(ctx, result)
		if err != nil {
			return fmt.Errorf("checkpoint after debate: %w", err)
		}
		if len(resolved) > 0 {
			result.MarkResolved(resolved)
		}
	}
	x.res.Steps.Debate = result
	x.adoptDebate(result)
	x.stageDone()
	x.finished(StageDebate, fmt.Sprintf("convergence %.0f%%, %s", result.Convergence*100, result.Status))
	return x.emitLater(ctx, DebateTranscriptFile, result.Markdown)
}

// adoptDebate records the debate's outcome in the return contract.
func (x *run) adoptDebate(d *debate.Result) {
	x.res.ConvergenceScore, x.res.ConvergenceAllPoints = d.Convergence, d.Overall
	x.res.UnresolvedConflicts = d.UnresolvedConflicts()
	x.res.Agents = nil
	for _, v := range d.Variants {
		x.res.Agents = append(x.res.Agents, v.Agent)
	}
	if d.Status != debate.Converged {
		x.partial(fmt.Sprintf("Debate did not converge (%.0f%% < %.0f%%): base force-selected by score; unresolved points flagged for review",
			d.Convergence*100, d.Threshold*100))
	}
	if dropped := d.Dropped(); len(dropped) > 0 {
		x.partial(fmt.Sprintf("Advocates dropped after a failed retry: %s", strings.Join(dropped, ", ")))
		x.warnDropped(d, "the debate went on without it")
	}
}

func (x *run) reasoningLog() []string {
	if x.reasoning == nil {
		return nil
	}
	return x.reasoning.log()
}

func (x *run) debateOptions() []debate.Option {
	opts := []debate.Option{debate.WithConcurrency(x.r.concurrency), debate.WithLogger(x.r.logger)}
	if x.reasoning != nil {
		opts = append(opts, debate.WithDepthLimit(x.reasoning.current))
	}
	return opts
}

// advocates makes one advocate per variant.
func (x *run) advocates() ([]debate.Advocate, error) {
	out := make([]debate.Advocate, len(x.specs))
	heuristic := debate.NewHeuristicAdvocate()
	for i, spec := range x.specs {
		switch {
		case x.r.advocates != nil:
			out[i] = x.r.advocates(spec)
		case x.r.modelAdvocates:
			a, err := debate.NewModelAdvocate(x.prov, spec, x.r.advocateOpts...)
			if err != nil {
				return nil, err
			}
			out[i] = a
		default:
			out[i] = heuristic
		}
	}
	return out, nil
}

// survivor returns the variant whose advocate is left, or -1.
func survivor(d *debate.Result, x *run) int {
	dropped := d.Dropped()
	for i := range x.docs {
		if !slices.Contains(dropped, label(i)) {
			return i
		}
	}
	return -1
}

// warnDropped names each dropped advocate with its agent, round and
// cause, as the error matrix asks.
func (x *run) warnDropped(d *debate.Result, then string) {
	for _, f := range append(slices.Clone(d.EliminationFailures), d.Failures...) {
		if !f.Recovered {
			x.warn(fmt.Sprintf("Debate: the advocate of Variant %s (%s) failed in round %d (%d attempt(s)): %s; %s",
				f.Variant, f.Agent, f.Round, f.Attempts, f.Error, then))
		}
	}
}
