package adversarial

import (
	"context"
	"fmt"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/merge"
)

// Step 5: the merge and its validation (package merge) → merge-log.md and
// the merged document, then the host's domain validator.

func (x *run) stepMerge(ctx context.Context) error {
	plan := x.res.Steps.Plan
	base := x.baseIndex()
	x.res.FailureStage = StageMerge
	ctx = x.started(ctx, StageMerge)
	merger := x.r.merger
	if merger == nil {
		common := []merge.Option{merge.WithClock(x.r.clock), merge.WithLogger(x.r.logger)}
		if x.r.mergerModel != "" {
			opts := []merge.ModelOption{merge.WithModel(x.r.mergerModel)}
			for _, o := range common {
				opts = append(opts, o)
			}
			mm, err := merge.NewModelMerger(x.prov, append(opts, x.r.mergerOpts...)...)
			if err != nil {
				return err
			}
			merger = mm
		} else {
			// The options only the model merger can use do not apply here.
			for _, o := range x.r.mergerOpts {
				if o, ok := o.(merge.Option); ok {
					common = append(common, o)
				}
			}
			merger = merge.NewSectionMerger(common...)
		}
	}
	var others []*diff.Document
	for i, d := range x.docs {
		if i != base {
			others = append(others, d)
		}
	}
	merged, err := merger.Merge(ctx, merge.Input{Base: x.docs[base], Plan: *plan, Variants: others})
	if merged != nil {
		for _, w := range mergeFallbackWarnings(x.r.mergerModel, merged) {
			merged.Log.Notes = append(merged.Log.Notes, w)
			x.partial(w)
		}
		if x.res.Steps.Analysis.Similarity.Identical {
			merged.Log.Notes = append(merged.Log.Notes, "variants substantially identical: debate and scoring were skipped and the first variant is the base")
		}
		x.res.Steps.Merged = merged
		x.res.MergedOutput = merged.Output
		if werr := x.emit(ctx, MergeLogFile, []byte(merged.Log.Markdown())); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		x.warn("The refactoring plan is preserved in " + RefactorPlanFile + " for manual execution")
		if merged != nil && merged.Output != "" {
			_ = x.emit(ctx, x.mergedName, []byte(merged.Output))
		}
		return err
	}
	if st := merged.Status(); st != merge.StatusSuccess {
		x.partial(fmt.Sprintf("Merge %s: %d of %d changes applied; post-merge validation %s",
			st, merged.Log.Count(merge.ChangeApplied), len(plan.Changes), passFail(merged)))
	}
	if err := x.validateDomain(ctx, merged); err != nil {
		return err
	}
	x.stageDone()
	x.finished(StageMerge, string(merged.Status()))
	return x.emit(ctx, x.mergedName, []byte(merged.Output))
}

func passFail(m *merge.Merged) string {
	if m.Log.Validation.Passed() {
		return "PASS"
	}
	return "FAIL"
}

// validateDomain consults the host's domain validator, if any, behind its
// circuit breaker. Findings make the run partial; a failing validator only
// warns, and after five failures is skipped.
func (x *run) validateDomain(ctx context.Context, merged *merge.Merged) error {
	v := x.r.domain
	if v == nil || merged.Doc == nil {
		return nil
	}
	var findings []DomainFinding
	open, err := x.r.domainBreaker.call(ctx, func(ctx context.Context) error {
		var err error
		findings, err = v.Validate(ctx, x.artifactType, merged.Doc)
		return err
	})
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case open:
		x.warn("Domain validation skipped (circuit open after 5 failures); structural checks only")
	case err != nil:
		x.warn(fmt.Sprintf("Domain validation failed, structural checks only: %v", err))
	}
	for _, f := range findings {
		where := ""
		if f.Section != "" {
			where = " (" + f.Section + ")"
		}
		x.partial("Domain validation: " + f.Message + where)
	}
	return nil
}
