package adversarial

import (
	"context"
	"fmt"
	"slices"

	"github.com/crucible-go/crucible/diff"
)

// Step 1: the diff analysis (package diff) → diff-analysis.md.

func (x *run) stepDiff(ctx context.Context) error {
	steps := &x.res.Steps
	steps.Mode, steps.Variants = x.mode, x.drafts
	if c := x.in.Resume; c != nil && c.Analysis != nil {
		steps.Analysis = c.Analysis
		x.skipped(StageDiff, "resumed from the checkpoint")
		return x.emit(ctx, DiffAnalysisFile, []byte(c.Analysis.Markdown()))
	}
	x.res.FailureStage = StageDiff
	ctx = x.started(ctx, StageDiff)
	opts := []diff.Option{diff.WithClock(x.r.clock), diff.WithArtifactType(x.artifactType), diff.WithLogger(x.r.logger)}
	if len(x.in.Focus) > 0 {
		opts = append(opts, diff.WithFocus(x.in.Focus...))
	}
	if x.source != nil {
		opts = append(opts, diff.WithSource(x.source))
	}
	detectors := x.r.detectors
	var agent *modelDetector
	if x.r.detectorModel != "" {
		md, err := diff.NewModelDetector(x.prov, x.r.detectorModel, x.r.detectorOpts...)
		if err != nil {
			return err
		}
		if len(detectors) == 0 {
			detectors = []diff.ContradictionDetector{diff.RuleDetector{}}
		}
		agent = &modelDetector{d: md, model: x.r.detectorModel}
		detectors = append(slices.Clone(detectors), agent)
	}
	if len(detectors) > 0 {
		opts = append(opts, diff.WithDetectors(detectors...))
	}
	a, err := diff.Analyze(ctx, x.docs, opts...)
	if err != nil {
		return err
	}
	if agent != nil {
		if w := agent.warning(); w != "" {
			a.Warnings = append(a.Warnings, w)
			x.partial(w)
		}
	}
	steps.Analysis = a
	x.stageDone()
	x.finished(StageDiff, fmt.Sprintf("%d differences", len(a.Points)))
	return x.emitDuringDebate(ctx, DiffAnalysisFile, a.Markdown)
}
