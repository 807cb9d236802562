package scoring

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/template"

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

// ModelJudge is a [Judge] that asks a model, with the seed's prompt: the
// Claim–Evidence–Verdict protocol, every criterion, the variants in the
// order of the pass, and — for a re-evaluation — the seed's comparison
// prompt citing both passes. Variants, the source and quoted evidence
// travel inside fenced blocks, so text in a variant cannot instruct the
// model. The rubric, the requirements and the source go first, marked for
// prompt caching: both passes and every re-evaluation share them.
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
	maxTokens   int
	temperature *float64
}

var _ Judge = (*ModelJudge)(nil)

// ModelJudgeOption configures a [ModelJudge].
type ModelJudgeOption func(*ModelJudge) error

// WithJudgeTemplate replaces the prompt. The text must define the
// templates "system", "context", "variants", "evaluate" and "reevaluate";
// see prompts/judge.tmpl for the data they receive.
func WithJudgeTemplate(text string) ModelJudgeOption {
	return func(m *ModelJudge) error {
		t, err := prompt.Parse("judge", text)
		if err != nil {
			return fmt.Errorf("scoring: judge prompt: %w", err)
		}
		m.tmpl = t
		return nil
	}
}

// WithJudgeMaxTokens caps each reply; the default (0) leaves it to the
// provider.
func WithJudgeMaxTokens(n int) ModelJudgeOption {
	return func(m *ModelJudge) error {
		if n < 0 {
			return fmt.Errorf("scoring: judge max tokens %d is negative", n)
		}
		m.maxTokens = n
		return nil
	}
}

// WithJudgeTemperature sets the sampling temperature; the default leaves
// it to the provider.
func WithJudgeTemperature(t float64) ModelJudgeOption {
	return func(m *ModelJudge) error {
		m.temperature = provider.Temperature(t)
		return nil
	}
}

// NewModelJudge returns a judge that asks model through p.
func NewModelJudge(p provider.Provider, model string, opts ...ModelJudgeOption) (*ModelJudge, error) {
	if p == nil {
		return nil, errors.New("scoring: NewModelJudge: nil provider")
	}
	m := &ModelJudge{p: p, model: model}
	for _, o := range append([]ModelJudgeOption{WithJudgeTemplate(judgeTemplate)}, opts...) {
		if err := o(m); err != nil {
			return nil, err
		}
	}
	for _, name := range []string{"system", "context", "variants", "evaluate", "reevaluate"} {
		if m.tmpl.Lookup(name) == nil {
			return nil, fmt.Errorf("scoring: judge prompt defines no %q template", name)
		}
	}
	return m, nil
}

// promptData is what the templates see.
type promptData struct {
	Criteria     []Criterion
	Reference    Reference
	Requirements string // one line per reference item
	Source       *diff.Document
	Focus        []string
	Variants     []Variant
	Disputes     string // the disputes, in the seed's comparison format
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

// Evaluate implements [Judge].
func (m *ModelJudge) Evaluate(ctx context.Context, req RubricRequest) (RubricVerdicts, error) {
	data := promptData{Criteria: req.Criteria, Reference: req.Reference, Source: req.Source, Focus: req.Focus,
		Variants: req.Variants, Requirements: requirementLines(req.Reference), Disputes: disputeText(req)}
	for _, v := range req.Variants {
		if v.Doc == nil {
			return RubricVerdicts{}, fmt.Errorf("scoring: Variant %s: %w", v.Label, ErrNoDocument)
		}
	}
	parts := map[string]string{}
	instruction := "evaluate"
	if req.Pass == Reevaluation {
		instruction = "reevaluate"
		if len(req.Disputes) == 0 || len(req.Variants) != 1 {
			return RubricVerdicts{}, errors.New("scoring: a re-evaluation needs one variant and its disputes")
		}
	}
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
	preq := provider.Request{Model: m.model, System: parts["system"], MaxTokens: m.maxTokens, Temperature: m.temperature,
		Messages: []provider.Message{
			{Role: provider.RoleUser, Content: parts["context"], Cache: true},
			{Role: provider.RoleUser, Content: parts["variants"]},
			{Role: provider.RoleUser, Content: parts[instruction]},
		},
		Tags: map[string]string{provider.TagStep: "scoring", provider.TagRole: "judge", TagPass: pass}}
	if len(req.Variants) == 1 {
		preq.Tags[provider.TagVariant] = req.Variants[0].Label
	}

	want := wantedPairs(req)
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
			case !want[k]:
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
			for _, k := range orderedPairs(req) {
				if !seen[k] {
					return fmt.Errorf("no verdict for %s of Variant %s; give one verdict per variant and criterion", k.criterion, k.variant)
				}
			}
		}
		return nil
	}
	if _, err := llmjson.Ask(ctx, m.p, preq, &reply, validate); err != nil {
		return RubricVerdicts{}, fmt.Errorf("scoring: model judge: %w", err)
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

func wantedPairs(req RubricRequest) map[pairKey]bool {
	out := map[pairKey]bool{}
	for _, k := range orderedPairs(req) {
		out[k] = true
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

// disputeText writes each dispute in the seed's comparison format.
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
