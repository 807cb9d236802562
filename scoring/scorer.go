package scoring

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/crucible-go/crucible/diff"
)

// HybridScorer is the default [Scorer]: the hybrid of a deterministic
// quantitative layer and a rubric judged twice against position bias,
// combined 50/50, with the three-level tiebreaker and the base selection.
// It is safe for concurrent use.
type HybridScorer struct {
	judge      Judge
	rubric     Rubric
	limit      int
	log        *slog.Logger
	detectors  []diff.ContradictionDetector
	checkpoint Checkpoint
}

var _ Scorer = (*HybridScorer)(nil)

// Option configures a [HybridScorer].
type Option func(*HybridScorer)

// Checkpoint is the interactive checkpoint after base selection:
// the host is shown the scorecard and returns the label of the base it
// wants instead, or "" to accept the selection. An error aborts scoring.
type Checkpoint func(ctx context.Context, card *Scorecard) (override string, err error)

// WithJudge sets the rubric judge. The default is [RuleJudge], the
// deterministic offline judge; use a [ModelJudge] to ask a model.
func WithJudge(j Judge) Option {
	return func(s *HybridScorer) {
		if j != nil {
			s.judge = j
		}
	}
}

// WithInvariantDimension adds the sixth rubric dimension, "Invariant &
// Edge Case Coverage" (30 criteria, qual_score = met/30), and its floor
// rule: a variant meeting none of its five criteria cannot be the base,
// unless no variant meets any (the rule is then suspended with a warning).
// The default is the 25 criteria of [StandardRubric].
func WithInvariantDimension() Option {
	return func(s *HybridScorer) { s.rubric = ExtendedRubric() }
}

// WithConcurrency bounds how many judge calls run at once (the two passes,
// then the re-evaluations, one per variant with disputes) and how many
// variants the quantitative layer measures at once. The default is 4;
// values below 1 mean 1, and 1 runs everything one after the other.
func WithConcurrency(n int) Option {
	return func(s *HybridScorer) { s.limit = max(n, 1) }
}

// WithLogger sets the logger for diagnostics: every MET verdict downgraded
// for evidence not in the text is logged at Warn. The default discards.
func WithLogger(l *slog.Logger) Option {
	return func(s *HybridScorer) {
		if l != nil {
			s.log = l
		}
	}
}

// WithDetectors replaces the contradiction detectors the internal
// consistency metric runs on each variant. The default is
// diff.RuleDetector alone, which keeps the quantitative layer free of
// model judgement: the same text always gets the same scores.
func WithDetectors(ds ...diff.ContradictionDetector) Option {
	return func(s *HybridScorer) {
		if len(ds) > 0 {
			s.detectors = ds
		}
	}
}

// WithCheckpoint installs the interactive checkpoint after base selection.
// Without it the selection is auto-approved.
func WithCheckpoint(c Checkpoint) Option {
	return func(s *HybridScorer) { s.checkpoint = c }
}

// New returns a scorer. With no options it uses the rule judge, the 25
// criteria, at most 4 concurrent judge calls, the rule-based contradiction
// detector, no checkpoint and a discarding logger.
func New(opts ...Option) *HybridScorer {
	s := &HybridScorer{judge: RuleJudge{}, rubric: StandardRubric(), limit: 4,
		log: slog.New(slog.DiscardHandler), detectors: []diff.ContradictionDetector{diff.RuleDetector{}}}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Quantitative computes only the quantitative layer: the reference and
// each variant's five metrics, in input order.
func (s *HybridScorer) Quantitative(ctx context.Context, in Input) ([]QuantScore, Reference, error) {
	vs, err := in.normalise()
	if err != nil {
		return nil, Reference{}, err
	}
	ref := buildReference(in.Source, vs, in.Analysis)
	q, err := quantify(ctx, vs, ref, in.Analysis, s.detectors, s.limit)
	return q, ref, err
}

var _ Preparer = (*HybridScorer)(nil)

// Prepare implements [Preparer]: it computes the quantitative layer, the
// index the verdicts' evidence is checked against and, with the rule
// judge, every rubric test of every variant, leaving the results in the
// documents' memos for Score. In.Debate is not read. A
// model judge is not called ahead: its verdicts are not memoised and its
// calls are counted.
func (s *HybridScorer) Prepare(ctx context.Context, in Input) error {
	vs, err := in.normalise()
	if err != nil {
		return err
	}
	if _, ok := s.judge.(RuleJudge); !ok {
		// A model judge is not called ahead: only the quantitative layer
		// and the evidence index.
		ref := buildReference(in.Source, vs, in.Analysis)
		if _, err := quantify(ctx, vs, ref, in.Analysis, s.detectors, s.limit); err != nil {
			return err
		}
		for _, v := range vs {
			newEvidenceIndex(v.Doc) // what the verdicts' evidence is checked against
		}
		return nil
	}
	// With the rule judge both layers depend on the variants alone: they
	// are computed whole, and Score, after the debate, only combines them
	// with its outcome.
	_, err = s.layers(ctx, in, vs)
	return err
}

// layersOf is what Score computes before it reads the debate: the
// reference, the quantitative layer and, with the rule judge, the
// qualitative layer.
type layersOf struct {
	ref      Reference
	quant    []QuantScore
	qual     []QualScore
	bias     BiasReport
	warnings []string
	err      error
}

// layersKey identifies the layers of one scorer on one input (Debate
// aside), in the first variant's memo.
type layersKey struct {
	scorer   *HybridScorer
	analysis *diff.Analysis
	source   *diff.Document
	variants string // each variant's label and document
	focus    string
}

// layers computes the input's layers with the rule judge once: Prepare
// computes them while the debate runs and Score finds them (or waits for
// them). A computation cut short by its caller's context is not kept:
// the next caller starts over.
func (s *HybridScorer) layers(ctx context.Context, in Input, vs []Variant) (*layersOf, error) {
	var ids strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&ids, "%s=%p;", v.Label, v.Doc)
	}
	key := layersKey{scorer: s, analysis: in.Analysis, source: in.Source, variants: ids.String(), focus: strings.Join(in.Focus, "\x00")}
	slot := vs[0].Doc.Memo(key, func() any { return &layersSlot{} }).(*layersSlot)
	slot.mu.Lock()
	defer slot.mu.Unlock()
	if slot.l != nil {
		return slot.l, slot.l.err
	}
	l := &layersOf{ref: buildReference(in.Source, vs, in.Analysis)}
	l.quant, l.err = quantify(ctx, vs, l.ref, in.Analysis, s.detectors, s.limit)
	if l.err != nil {
		l.err = fmt.Errorf("scoring: quantitative layer: %w", l.err)
	} else {
		l.qual, l.bias, l.warnings, l.err = s.qualitative(ctx, vs, in, l.ref)
	}
	if l.err == nil || ctx.Err() == nil {
		slot.l = l
	}
	return l, l.err
}

// layersSlot holds the layers once computed.
type layersSlot struct {
	mu sync.Mutex
	l  *layersOf
}

func documents(vs []Variant) []*diff.Document {
	docs := make([]*diff.Document, len(vs))
	for i, v := range vs {
		docs[i] = v.Doc
	}
	return docs
}

// Score implements [Scorer]: quantitative layer, qualitative layer with
// its two passes and re-evaluation, combined score, ranking, tiebreaker,
// selection and the checkpoint. Cancelling ctx stops the judge calls; the
// error then wraps ctx.Err().
func (s *HybridScorer) Score(ctx context.Context, in Input) (*Scorecard, error) {
	vs, err := in.normalise()
	if err != nil {
		return nil, err
	}
	var ref Reference
	var quant []QuantScore
	var qual []QualScore
	var bias BiasReport
	var warnings []string
	if _, ok := s.judge.(RuleJudge); ok {
		l, err := s.layers(ctx, in, vs)
		if err != nil {
			return nil, err
		}
		ref, quant, qual, bias, warnings = l.ref, l.quant, l.qual, l.bias, slices.Clone(l.warnings)
	} else {
		ref = buildReference(in.Source, vs, in.Analysis)
		quant, err = quantify(ctx, vs, ref, in.Analysis, s.detectors, s.limit)
		if err != nil {
			return nil, fmt.Errorf("scoring: quantitative layer: %w", err)
		}
		qual, bias, warnings, err = s.qualitative(ctx, vs, in, ref)
		if err != nil {
			return nil, err
		}
	}
	card := &Scorecard{Rubric: s.rubric, Reference: ref, Bias: bias, Debated: in.Debate.held(), Warnings: warnings}
	if in.Debate != nil {
		card.DebateOutcome = in.Debate.Outcome
	}
	for i, v := range vs {
		card.Variants = append(card.Variants, VariantScore{Label: v.Label, Agent: v.Spec(), Name: v.Doc.Name,
			Quant: quant[i], Qual: qual[i], Final: 0.5*quant[i].Score + 0.5*qual[i].Score, Won: in.Debate.Won(v.Label),
			Strengths: strengths(v, i, in)})
	}
	card.rank()
	card.applyFloor()
	card.breakTie()
	card.selectBase()
	if s.checkpoint != nil {
		override, err := s.checkpoint(ctx, card)
		if err != nil {
			return nil, fmt.Errorf("scoring: base-selection checkpoint: %w", err)
		}
		if override != "" && override != card.Selection.Base {
			if err := card.Override(override); err != nil {
				return nil, err
			}
		}
	}
	return card, nil
}
