package critic

import (
	"context"
	"fmt"
	"io/fs"
)

// ReviewInput is one critic invocation.
type ReviewInput struct {
	// Invocation is the parsed PS CONTEXT (see [ParseInvocation]).
	Invocation Invocation
	// Artifact is the artifact under review. When its Content is empty and
	// FS is set, it is read from FS at Artifact.Path, or else at the
	// invocation's "Artifact to Critique".
	Artifact Artifact
	FS       fs.FS
	// Facts drive auto-escalation.
	Facts Facts
	// TokenBudget, Resume and OnCheckpoint are passed to [Critic.Run].
	TokenBudget  int64
	Resume       *Checkpoint
	OnCheckpoint func(Checkpoint) error
}

// Review is what one invocation produced.
type Review struct {
	Selection *Selection      `json:"selection"`
	Pipeline  *PipelineResult `json:"pipeline"`
	// Delta is the score's change from the invocation's Previous Score,
	// when both exist.
	Delta *float64 `json:"delta,omitempty"`
}

// Review runs one invocation end to end, degrading gracefully: without an
// ADVERSARIAL CONTEXT it runs standard mode (0.85 threshold); with "Mode:
// auto" it runs the decision tree; with explicit modes and an exhausted
// budget it runs the minimal strategy set for the criticality; modes the
// engine cannot run are skipped and the rest run. Invalid input fails
// before any mode runs: no artifact path ("Artifact path required"), a
// missing file ("Artifact not found at '<path>'").
func (c *Critic) Review(ctx context.Context, in ReviewInput) (*Review, error) {
	inv := in.Invocation
	art := in.Artifact
	if art.Path == "" {
		art.Path = inv.PS.Artifact
	}
	if art.Path == "" {
		return nil, ErrArtifactRequired
	}
	if art.Content == "" && in.FS != nil {
		loaded, err := LoadArtifact(in.FS, art.Path)
		if err != nil {
			return nil, err
		}
		art = loaded
	}
	if err := art.Validate(); err != nil {
		return nil, err
	}

	sel, err := selectFor(inv, in.Facts)
	if err != nil {
		return nil, err
	}
	iteration := max(inv.PS.Iteration, 1)
	run, err := c.Run(ctx, PipelineInput{Selection: sel, Artifact: art, Iteration: iteration,
		TokenBudget: in.TokenBudget, Resume: in.Resume, OnCheckpoint: in.OnCheckpoint})
	rev := &Review{Selection: sel, Pipeline: run}
	if run != nil && inv.Adversarial != nil && inv.Adversarial.PreviousScore != nil {
		if s, ok := run.Score(); ok {
			rev.Delta = ptr(round6(s - *inv.Adversarial.PreviousScore))
		}
	}
	return rev, err
}

// selectFor follows the graceful-degradation flow to a selection.
func selectFor(inv Invocation, facts Facts) (*Selection, error) {
	a := inv.Adversarial
	var sel *Selection
	var err error
	switch {
	case a == nil:
		sel, err = SelectExplicit("", "", facts)
		if err != nil {
			return nil, err
		}
		sel.Trace = append(Trace{{Step: 0, Name: "degradation", Rule: "BC-304-001", Fired: true,
			Detail: "no ADVERSARIAL CONTEXT: standard mode (v2.2.0 behaviour), default dimensions, threshold 0.85"}}, sel.Trace...)
	case a.Auto:
		sel, err = SelectAutomatic(a.Vector, facts)
		if err != nil {
			return nil, err
		}
	default:
		sel, err = SelectExplicit(FormatModes(a.Modes), a.Vector.Criticality.orEmpty(), facts)
		if err != nil {
			return nil, err
		}
		vec, warns, _ := a.Vector.resolve(facts.RemainingTokens)
		sel.Vector = vec
		sel.Warnings = append(sel.Warnings, warns...)
		if vec.TokenBudget == BudgetExhausted && sel.Source == SourceExplicit {
			minimal := clone(exhaustSets[sel.Criticality])
			sel.Modes, _ = Sequence(minimal)
			sel.EstimatedTokens = EstimateTokens(sel.Modes)
			sel.EndSession = len(minimal) == 0
			sel.Trace = append(sel.Trace, Decision{Step: 4, Name: "degradation", Rule: string(BudgetExhausted), Fired: true,
				Criticality: sel.Criticality, Modes: clone(sel.Modes),
				Detail: fmt.Sprintf("token budget exhausted: minimal strategy set for %s instead of the named modes", sel.Criticality)})
			if sel.Criticality >= C3 {
				sel.Escalations = append(sel.Escalations, Escalation{Rule: "AE-006", Mandatory: true,
					Reason: fmt.Sprintf("token budget exhausted at %s: human escalation mandatory", sel.Criticality)})
			}
		}
	}
	if inv.TargetScore != nil || a != nil {
		sel.Threshold = inv.Threshold()
	}
	return sel, nil
}
