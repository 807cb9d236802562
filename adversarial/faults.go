package adversarial

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/provider/llmjson"
	"github.com/crucible-go/crucible/scoring"
)

// The error matrix's degradations for the model-backed seams. Each agent
// call has already had its one retry (provider/llmjson, the merge
// executor); what still fails degrades to the seam's offline counterpart
// for that call — judge → rule judge, contradiction agent → rule
// detectors, merge executor → section merger — with a warning naming the
// seam, the agent and the cause in the artifact of the step and in the
// return contract, and the run at most partial. Never a silent success.

// judgeFallbacks records the judge calls the rule judge answered.
type judgeFallbacks struct {
	model string

	mu    sync.Mutex
	calls []judgeFallback
}

type judgeFallback struct {
	pass    int
	variant string // the variant of the call; empty for a whole pass
	err     error
}

func (j *judgeFallbacks) record(req scoring.RubricRequest, err error) {
	f := judgeFallback{pass: req.Pass, err: err}
	if len(req.Variants) == 1 {
		f.variant = req.Variants[0].Label
	}
	j.mu.Lock()
	j.calls = append(j.calls, f)
	j.mu.Unlock()
}

// warnings returns one warning per degraded call, ordered by the logical
// call (pass 1, pass 2, then the re-evaluations by variant) — never by
// the order the concurrent calls failed in.
func (j *judgeFallbacks) warnings() []string {
	j.mu.Lock()
	calls := slices.Clone(j.calls)
	j.mu.Unlock()
	order := func(p int) int {
		if p == scoring.Reevaluation {
			return 3
		}
		return p
	}
	slices.SortFunc(calls, func(a, b judgeFallback) int {
		return cmp.Or(cmp.Compare(order(a.pass), order(b.pass)), cmp.Compare(a.variant, b.variant))
	})
	var out []string
	for _, c := range calls {
		what := scoring.PassName(c.pass)
		if c.variant != "" {
			what += " of Variant " + c.variant
		}
		out = append(out, fmt.Sprintf("Scoring: the judge agent (model %s) failed on %s %s: %v; the rule judge answered that call",
			j.model, what, retriedNote(c.err), c.err))
	}
	return out
}

// retriedNote says whether a failed call had its retry.
func retriedNote(err error) string {
	if llmjson.Retryable(err) {
		return "after one retry"
	}
	return "(not retryable)"
}

// modelDetector runs the model contradiction agent, and on its failure
// leaves the analysis to the rule detectors, recording the cause.
type modelDetector struct {
	d     diff.ContradictionDetector
	model string

	mu  sync.Mutex
	err error
}

var (
	_ diff.FindingDetector = (*modelDetector)(nil)
	_ diff.NamedDetector   = (*modelDetector)(nil)
)

func (m *modelDetector) Detect(ctx context.Context, in diff.DetectInput) ([]diff.Contradiction, error) {
	f, err := m.DetectAll(ctx, in)
	return f.Contradictions, err
}

// DetectAll passes on the differences of a detector that reports them.
func (m *modelDetector) DetectAll(ctx context.Context, in diff.DetectInput) (diff.Findings, error) {
	var f diff.Findings
	var err error
	if fd, ok := m.d.(diff.FindingDetector); ok {
		f, err = fd.DetectAll(ctx, in)
	} else {
		f.Contradictions, err = m.d.Detect(ctx, in)
	}
	if err == nil || ctx.Err() != nil {
		return f, err
	}
	m.mu.Lock()
	m.err = err
	m.mu.Unlock()
	return diff.Findings{}, nil
}

// DetectorName names the agent in the rendered analysis.
func (m *modelDetector) DetectorName() string { return "model" }

func (m *modelDetector) warning() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err == nil {
		return ""
	}
	return fmt.Sprintf("Diff analysis: the contradiction agent (model %s) failed %s: %v; the rule detectors' findings stand",
		m.model, retriedNote(m.err), m.err)
}

// mergeFallbackWarnings names each change the merge executor failed on.
func mergeFallbackWarnings(model string, m *merge.Merged) []string {
	var out []string
	for _, f := range m.Fallbacks {
		then := "applied by the section merger"
		if f.Skipped {
			then = "skipped: a restructure needs the model; apply it by hand from " + RefactorPlanFile
		}
		note := "after one retry"
		if f.Attempts < 2 && !errors.Is(f.Err, llmjson.ErrInvalidReply) {
			note = "(not retryable)"
		}
		out = append(out, fmt.Sprintf("Merge: the merge executor (model %s) failed on change #%d %s: %s; %s",
			model, f.Change, note, f.Cause, then))
	}
	return out
}
