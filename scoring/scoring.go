package scoring

import (
	"context"
	"errors"
	"fmt"

	"github.com/crucible-go/crucible/diff"
)

// Scorer runs step 3 of the pipeline: it scores every variant and selects
// the base. Implementations must be safe for concurrent use.
type Scorer interface {
	Score(ctx context.Context, in Input) (*Scorecard, error)
}

// ScorerFunc adapts a function to the [Scorer] interface, as
// http.HandlerFunc does for handlers.
type ScorerFunc func(ctx context.Context, in Input) (*Scorecard, error)

// Score calls f(ctx, in).
func (f ScorerFunc) Score(ctx context.Context, in Input) (*Scorecard, error) { return f(ctx, in) }

// Preparer is implemented by a [Scorer] that can do ahead of time the
// part of its work that depends on the variants alone, not on the debate.
// The pipeline calls Prepare while the debate waits on its advocates, then
// Score as usual: what Prepare finished, Score does not repeat, and the
// scorecard is the same either way. An error or a cancelled context only
// means Score does the work itself.
type Preparer interface {
	Prepare(ctx context.Context, in Input) error
}

// Input is what step 3 scores: the variants, the source they came from in
// Mode B, the step 1 analysis and the step 2 debate outcomes.
type Input struct {
	// Variants are the 2–10 variants, in input order.
	Variants []Variant
	// Source is the document the variants were generated from (Mode B);
	// nil in Mode A. Requirement coverage is measured against it when set.
	Source *diff.Document
	// Analysis is the step 1 result, computed over the variants in the
	// same order as Variants; it locates the debate points in the variants'
	// sections, and its unique contributions rated Medium or High become
	// strengths to preserve or incorporate. Its Topics are what section
	// coverage counts and, in Mode A without shared requirement ids, what
	// requirement coverage measures against. May be nil: the metrics then
	// match the variants' top-level titles instead. An analysis of other
	// documents (another count, other names) is not used for the metrics.
	Analysis *diff.Analysis
	// Debate holds the step 2 outcomes; nil or empty when the debate was
	// skipped. Its points won decide tiebreaker level 1, and the points a
	// variant won become its strengths.
	Debate *Debate
	// Focus are the focus areas of the run (--focus on the command line);
	// the model-backed judge is told them, the scores do not depend on them.
	Focus []string
}

// Variant is one variant to score.
type Variant struct {
	// Label is the variant's letter; empty means diff.Label of its index
	// ("A" for the first).
	Label string `json:"label"`
	// Agent is the agent spec that produced it ("opus:architect"), or
	// "original" for a Mode A file; empty renders as "original".
	Agent string         `json:"agent"`
	Doc   *diff.Document `json:"-"`
}

// Spec returns the agent spec shown beside the variant's letter.
func (v Variant) Spec() string {
	if v.Agent == "" {
		return "original"
	}
	return v.Agent
}

// Debate is what step 2 decided, as plain data: the pipeline converts its
// scoring matrix into it, so this package does not depend on the debate's.
type Debate struct {
	// Points holds one outcome per debated diff point, in matrix order.
	Points []PointOutcome `json:"points"`
	// Outcome is the debate's own statement of how it ended — its
	// convergence figures and the conflicts it left open — quoted in the
	// selection rationale so that the report and the transcript say the
	// same; empty when the host has none.
	Outcome string `json:"outcome,omitempty"`
}

// PointOutcome is one row of the debate's scoring matrix.
type PointOutcome struct {
	Point string `json:"point"` // diff point id: S-001, C-002, X-003, U-004
	// Winner is the label of the variant whose approach won; empty when
	// the point stayed unresolved.
	Winner     string `json:"winner"`
	Confidence int    `json:"confidence"` // percent, 50–100
	Evidence   string `json:"evidence"`   // the evidence summary (≤ 2 sentences)
	Round      int    `json:"round"`      // the round that settled it; 0 when unknown
}

// Won returns the number of diff points the variant won.
func (d *Debate) Won(label string) int {
	if d == nil {
		return 0
	}
	n := 0
	for _, p := range d.Points {
		if p.Winner == label {
			n++
		}
	}
	return n
}

// held reports whether a debate produced any outcome.
func (d *Debate) held() bool { return d != nil && len(d.Points) > 0 }

// Errors the scorer returns for bad input. They arrive wrapped with detail.
var (
	// ErrNoDocument reports a variant without a parsed document.
	ErrNoDocument = errors.New("variant has no document")
	// ErrDuplicateLabel reports two variants with the same label.
	ErrDuplicateLabel = errors.New("duplicate variant label")
	// ErrUnknownVariant reports a label that names no variant: in a base
	// override or in a judge's verdicts.
	ErrUnknownVariant = errors.New("unknown variant")
	// ErrJudge reports a judge that broke its contract: a verdict missing,
	// repeated, or for a criterion or variant it was not asked about.
	ErrJudge = errors.New("judge returned unusable verdicts")
)

// normalise fills in labels and checks the input.
func (in Input) normalise() ([]Variant, error) {
	switch n := len(in.Variants); {
	case n < 2:
		return nil, fmt.Errorf("scoring: %w, got %d", diff.ErrTooFewVariants, n)
	case n > 10:
		return nil, fmt.Errorf("scoring: %w, got %d", diff.ErrTooManyVariants, n)
	}
	out := make([]Variant, len(in.Variants))
	seen := map[string]bool{}
	for i, v := range in.Variants {
		if v.Label == "" {
			v.Label = diff.Label(i)
		}
		if v.Doc == nil {
			return nil, fmt.Errorf("scoring: Variant %s: %w", v.Label, ErrNoDocument)
		}
		if seen[v.Label] {
			return nil, fmt.Errorf("scoring: %w %q", ErrDuplicateLabel, v.Label)
		}
		seen[v.Label] = true
		out[i] = v
	}
	if in.Debate != nil {
		for _, p := range in.Debate.Points {
			if p.Winner != "" && !seen[p.Winner] {
				return nil, fmt.Errorf("scoring: debate point %s: %w %q", p.Point, ErrUnknownVariant, p.Winner)
			}
		}
	}
	return out, nil
}
