package scoring

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"text/template"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/prompt"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/llmjson"
)

//go:embed prompts/judge.tmpl
var judgeTemplate string

// TagPass is the request tag naming the rubric pass: "1", "2" or
// "reevaluation".
const TagPass = "pass"

// ModelJudge is a [Judge] that asks a model. Its prompt gives the
// Claim–Evidence–Verdict protocol, every criterion, the variants in the
// order of the pass, and — for a re-evaluation — both passes' evidence and
// verdicts, with the instruction that the new verdict is final. Variants,
// the source and quoted evidence travel inside fenced blocks, so text in a
// variant cannot instruct the model.
//
// A pass is split into one call per variant, so that no reply has to
// hold more than one variant's 25 verdicts (about 2–3k tokens, where one
// reply for every variant ran past 10k with five of them): every call
// shows all the variants in the pass's order — input order on pass 1,
// reversed on pass 2 — and asks about one of them, with the criteria
// listed in rubric order on pass 1 and reversed on pass 2. So between the
// two passes each variant is judged from the opposite position among the
// others and with the criteria in the opposite order, and the passes'
// agreement still measures how much the verdicts depend on order. The
// calls of a pass run in parallel ([WithJudgeConcurrency]); a call that
// fails leaves the others' verdicts, returned with a [*PartialError]
// naming the variants it could not judge, so a [FallbackJudge] answers
// only those. A re-evaluation is one call for one variant.
//
// The prompt is laid out for prompt caching: the system prompt and the
// rubric, requirements and source first (shared by both passes and every
// re-evaluation), then the variants in the pass's order (shared by the
// calls of the pass), each marked when a vendor would cache it, and the
// per-call instruction last.
//
// The reply must be a JSON block with one verdict per pair asked about; a
// reply that misses a pair, repeats one, names an unknown criterion or
// variant, or gives a MET without a quote is sent back once with the
// problem, then fails with an error matching llmjson.ErrInvalidReply.
// Whether the quotes occur in the variants is checked by the scorer, not
// here: a hallucinated quote is not retried, it counts as NOT MET.
//
// A ModelJudge is safe for concurrent use.
type ModelJudge struct {
	p           provider.Provider
	model       string
	tmpl        *template.Template
	prompts     fs.FS
	maxTokens   int
	temperature *float64
	limit       int
}

var _ Judge = (*ModelJudge)(nil)

// Defaults of a [ModelJudge]'s requests.
const (
	// DefaultJudgeMaxTokens bounds a reply: one variant's 25 verdicts,
	// each a claim, a quote or two with their section and a note, come
	// to about 80–110 tokens apiece, 2–2.8k in all; a re-evaluation asks
	// about fewer. 4,096 leaves room for long quotes.
	DefaultJudgeMaxTokens = 4096
	// DefaultJudgeTemperature is greedy decoding: a verdict should depend
	// on the variant, not on sampling, and at zero the two passes'
	// disagreements measure position bias rather than noise.
	DefaultJudgeTemperature = 0.0
)

// ModelJudgeOption configures a [ModelJudge].
type ModelJudgeOption func(*ModelJudge) error

// WithJudgePrompts overrides the prompt: a file judge.tmpl in fsys
// replaces the embedded one (prompts/judge.tmpl). It must define the
// templates "system", "context", "variants", "evaluate" and "reevaluate";
// see the embedded file for the data they receive ("evaluate" names the
// one variant a call judges in .Target and the criteria in the pass's
// order in .Order).
func WithJudgePrompts(fsys fs.FS) ModelJudgeOption {
	return func(m *ModelJudge) error { m.prompts = fsys; return nil }
}

// WithJudgeMaxTokens caps each reply. The default is
// [DefaultJudgeMaxTokens]; 0 leaves it to the provider.
func WithJudgeMaxTokens(n int) ModelJudgeOption {
	return func(m *ModelJudge) error {
		if n < 0 {
			return fmt.Errorf("scoring: judge max tokens %d is negative", n)
		}
		m.maxTokens = n
		return nil
	}
}

// WithJudgeTemperature sets the sampling temperature. The default is
// [DefaultJudgeTemperature].
func WithJudgeTemperature(t float64) ModelJudgeOption {
	return func(m *ModelJudge) error {
		m.temperature = provider.Temperature(t)
		return nil
	}
}

// WithJudgeConcurrency bounds the calls of one pass running at once.
// Default 4; the provider's own limit (the pipeline's concurrency) bounds
// them too.
func WithJudgeConcurrency(n int) ModelJudgeOption {
	return func(m *ModelJudge) error {
		m.limit = max(n, 1)
		return nil
	}
}

// NewModelJudge returns a judge that asks model through p.
func NewModelJudge(p provider.Provider, model string, opts ...ModelJudgeOption) (*ModelJudge, error) {
	if p == nil {
		return nil, errors.New("scoring: NewModelJudge: nil provider")
	}
	m := &ModelJudge{p: p, model: model, maxTokens: DefaultJudgeMaxTokens,
		temperature: provider.Temperature(DefaultJudgeTemperature), limit: 4}
	for _, o := range opts {
		if err := o(m); err != nil {
			return nil, err
		}
	}
	text, _, err := prompt.Override(m.prompts, "judge.tmpl", judgeTemplate)
	if err != nil {
		return nil, fmt.Errorf("scoring: %w", err)
	}
	if m.tmpl, err = prompt.Parse("judge", text); err != nil {
		return nil, fmt.Errorf("scoring: judge prompt: %w", err)
	}
	if err := prompt.Require(m.tmpl, "judge.tmpl", "system", "context", "variants", "evaluate", "reevaluate"); err != nil {
		return nil, fmt.Errorf("scoring: %w", err)
	}
	return m, nil
}

// PartialError is a pass on which some calls failed: Verdicts holds the
// answers of the calls that succeeded, Failed the variants the others
// were about, with their errors. It unwraps to those errors.
type PartialError struct {
	Verdicts RubricVerdicts
	Failed   []string // variant labels, in the order of the pass
	Errs     []error  // one per failed variant
}

func (e *PartialError) Error() string {
	parts := make([]string, len(e.Errs))
	for i, err := range e.Errs {
		parts[i] = err.Error()
	}
	return strings.Join(parts, "; ")
}

// Unwrap returns the errors of the failed calls.
func (e *PartialError) Unwrap() []error { return e.Errs }

// promptData is what the templates see.
type promptData struct {
	Criteria     []Criterion
	Reference    Reference
	Requirements string // one line per reference item
	Source       *diff.Document
	Focus        []string
	Variants     []Variant
	Disputes     string // the disputes: per criterion, both passes' evidence and verdicts
	// Target is the variant a pass call judges; Order the criteria in the
	// order it is to answer them (reversed on pass 2).
	Target string
	Order  []Criterion
}

// modelVerdict is one verdict as the model writes it.
type modelVerdict struct {
	Variant   string     `json:"variant"`
	Criterion string     `json:"criterion"`
	Claim     string     `json:"claim"`
	Evidence  []Citation `json:"evidence"`
	Verdict   string     `json:"verdict"`
	Note      string     `json:"note"`
}

type modelReply struct {
	Verdicts []modelVerdict `json:"verdicts"`
}

// replySchema is the reply's schema, from its type.
var replySchema = llmjson.Schema("rubric_verdicts", modelReply{})

// Evaluate implements [Judge].
func (m *ModelJudge) Evaluate(ctx context.Context, req RubricRequest) (RubricVerdicts, error) {
	for _, v := range req.Variants {
		if v.Doc == nil {
			return RubricVerdicts{}, fmt.Errorf("scoring: Variant %s: %w", v.Label, ErrNoDocument)
		}
	}
	data := promptData{Criteria: req.Criteria, Reference: req.Reference, Source: req.Source, Focus: req.Focus,
		Variants: req.Variants, Requirements: requirementLines(req.Reference), Disputes: disputeText(req)}
	if req.Pass == Reevaluation {
		if len(req.Disputes) == 0 || len(req.Variants) != 1 {
			return RubricVerdicts{}, errors.New("scoring: a re-evaluation needs one variant and its disputes")
		}
		return m.call(ctx, req, data, "reevaluate", orderedPairs(req))
	}
	data.Order = slices.Clone(req.Criteria)
	if req.Pass == Pass2 {
		slices.Reverse(data.Order)
	}
	got := make([]RubricVerdicts, len(req.Variants))
	errs := make([]error, len(req.Variants))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(m.limit)
	for i, v := range req.Variants {
		d := data
		d.Target = v.Label
		want := make([]pairKey, len(d.Order))
		for j, c := range d.Order {
			want[j] = pairKey{v.Label, c.ID}
		}
		g.Go(func() error {
			// One variant's failure is not the pass's: the others go on,
			// and the caller decides what answers the failed one.
			got[i], errs[i] = m.call(gctx, req, d, "evaluate", want)
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return RubricVerdicts{}, fmt.Errorf("scoring: model judge: %w", err)
	}
	var out RubricVerdicts
	var partial PartialError
	for i, v := range req.Variants {
		if errs[i] != nil {
			partial.Failed = append(partial.Failed, v.Label)
			partial.Errs = append(partial.Errs, errs[i])
			continue
		}
		out.Verdicts = append(out.Verdicts, got[i].Verdicts...)
	}
	if len(partial.Failed) > 0 {
		partial.Verdicts = out
		return RubricVerdicts{}, &partial
	}
	return out, nil
}

// call asks one question: the verdicts on the pairs want, with the
// instruction template named.
func (m *ModelJudge) call(ctx context.Context, req RubricRequest, data promptData, instruction string, want []pairKey) (RubricVerdicts, error) {
	parts := map[string]string{}
	for _, name := range []string{"system", "context", "variants", instruction} {
		var b strings.Builder
		if err := m.tmpl.ExecuteTemplate(&b, name, data); err != nil {
			return RubricVerdicts{}, fmt.Errorf("scoring: judge prompt %q: %w", name, err)
		}
		parts[name] = strings.TrimSpace(b.String())
	}
	pass := strconv.Itoa(req.Pass)
	if req.Pass == Reevaluation {
		pass = "reevaluation"
	}
	shared := provider.Message{Role: provider.RoleUser, Content: parts["context"]}
	variants := provider.Message{Role: provider.RoleUser, Content: parts["variants"]}
	// The rubric and source are shared by every call of the step, the
	// variants by the calls of a pass: each is a prefix worth marking
	// when a vendor would cache it. A re-evaluation shows one variant
	// that no other call shares.
	shared.Cache = provider.Cacheable(parts["system"], shared)
	variants.Cache = req.Pass != Reevaluation && provider.Cacheable(parts["system"], shared, variants)
	preq := provider.Request{Model: m.model, System: parts["system"], MaxTokens: m.maxTokens, Temperature: m.temperature,
		Messages: []provider.Message{shared, variants, {Role: provider.RoleUser, Content: parts[instruction]}},
		Schema:   replySchema,
		Tags:     map[string]string{provider.TagStep: "scoring", provider.TagRole: "judge", TagPass: pass}}
	switch {
	case data.Target != "":
		preq.Tags[provider.TagVariant] = data.Target
	case len(req.Variants) == 1:
		preq.Tags[provider.TagVariant] = req.Variants[0].Label
	}

	wanted := make(map[pairKey]bool, len(want))
	for _, k := range want {
		wanted[k] = true
	}
	known := map[string]bool{}
	for _, c := range req.Criteria {
		known[c.ID] = true
	}
	var reply modelReply
	validate := func() error {
		seen := map[pairKey]bool{}
		for i, v := range reply.Verdicts {
			k := pairKey{v.Variant, v.Criterion}
			switch {
			case !known[v.Criterion]:
				return fmt.Errorf("verdict %d names criterion %q, which is not in the rubric", i+1, v.Criterion)
			case !wanted[k]:
				return fmt.Errorf("verdict %d is for %s of Variant %s, which was not asked for", i+1, v.Criterion, v.Variant)
			case seen[k]:
				return fmt.Errorf("verdict %d repeats %s for Variant %s", i+1, v.Criterion, v.Variant)
			case v.Verdict != MET && v.Verdict != NotMET:
				return fmt.Errorf("verdict %d says %q; want %q or %q", i+1, v.Verdict, MET, NotMET)
			case v.Verdict == MET && !hasQuote(v.Evidence):
				return fmt.Errorf("verdict %d is MET for %s of Variant %s but quotes no evidence; a MET needs a direct quote", i+1, v.Criterion, v.Variant)
			}
			seen[k] = true
		}
		if len(seen) < len(want) {
			for _, k := range want {
				if !seen[k] {
					return fmt.Errorf("no verdict for %s of Variant %s; give one verdict per criterion asked about", k.criterion, k.variant)
				}
			}
		}
		return nil
	}
	if _, err := llmjson.Ask(ctx, m.p, preq, &reply, validate); err != nil {
		what := "Variant " + data.Target
		if data.Target == "" {
			what = "the re-evaluation"
		}
		return RubricVerdicts{}, fmt.Errorf("scoring: model judge, %s: %w", what, err)
	}
	var out RubricVerdicts
	for _, v := range reply.Verdicts {
		out.Verdicts = append(out.Verdicts, Verdict{Variant: v.Variant, Criterion: v.Criterion, Met: v.Verdict == MET,
			Claim: strings.TrimSpace(v.Claim), Evidence: v.Evidence, Note: strings.TrimSpace(v.Note)})
	}
	return out, nil
}

func hasQuote(cs []Citation) bool {
	for _, c := range cs {
		if strings.TrimSpace(c.Quote) != "" {
			return true
		}
	}
	return false
}

// orderedPairs lists the pairs a request asks about, in order.
func orderedPairs(req RubricRequest) []pairKey {
	var out []pairKey
	if req.Pass == Reevaluation {
		for _, d := range req.Disputes {
			out = append(out, pairKey{d.Variant, d.Criterion})
		}
		return out
	}
	for _, v := range req.Variants {
		for _, c := range req.Criteria {
			out = append(out, pairKey{v.Label, c.ID})
		}
	}
	return out
}

// requirementLines lists the reference, one item a line.
func requirementLines(r Reference) string {
	var b strings.Builder
	for _, it := range r.Items {
		if it.ID != "" {
			fmt.Fprintf(&b, "%s: %s\n", it.ID, oneLine(it.Text))
		} else {
			fmt.Fprintf(&b, "Topic: %s\n", oneLine(it.Text))
		}
	}
	return b.String()
}

// disputeText writes each dispute as the re-evaluation prompt shows it:
// the criterion, then each pass's evidence and verdict.
func disputeText(req RubricRequest) string {
	byID := map[string]Criterion{}
	for _, c := range req.Criteria {
		byID[c.ID] = c
	}
	var b strings.Builder
	for i, d := range req.Disputes {
		if i > 0 {
			b.WriteString("\n")
		}
		c := byID[d.Criterion]
		fmt.Fprintf(&b, "Criterion %s (%s %d): %s\n", c.ID, c.Dimension, c.Number, c.Text)
		fmt.Fprintf(&b, "Pass 1 evidence: %s\n", passEvidence(d.Pass1))
		fmt.Fprintf(&b, "Pass 1 verdict: %s\n", d.Pass1.Word())
		fmt.Fprintf(&b, "Pass 2 evidence: %s\n", passEvidence(d.Pass2))
		fmt.Fprintf(&b, "Pass 2 verdict: %s\n", d.Pass2.Word())
	}
	return b.String()
}

func passEvidence(v Verdict) string {
	var parts []string
	for _, c := range v.Evidence {
		parts = append(parts, citation(c))
	}
	if v.Unverified != "" {
		parts = append(parts, "(the quote “"+clip(v.Unverified, 100)+"” is not in the variant)")
	}
	if v.Note != "" {
		parts = append(parts, v.Note)
	}
	if len(parts) == 0 {
		return "none given"
	}
	return strings.Join(parts, "; ")
}
