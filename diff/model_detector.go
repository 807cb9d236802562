package diff

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"text/template"

	"github.com/crucible-go/crucible/internal/prompt"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/llmjson"
)

//go:embed prompts/contradictions.tmpl
var contradictionsTemplate string

// ModelDetector asks a model for contradictions among the variants'
// statements: every sentence of body text that is not vague, not only the
// ones the rules recognise as claims, so the model can catch what the rules
// cannot ("blue-green deployment" against "canary deployment"). Its reply must be a JSON block citing claim ids; a reply that
// cites unknown claims, an unknown kind or rating, or fewer than two claims
// per contradiction is sent back once with the problem, then fails with an
// error matching llmjson.ErrInvalidReply. Claims travel inside fenced
// blocks, so text in a variant cannot instruct the model.
//
// Use it beside the rules: diff.WithDetectors(diff.RuleDetector{}, model).
type ModelDetector struct {
	provider provider.Provider
	model    string
	tmpl     *template.Template
}

var _ ContradictionDetector = (*ModelDetector)(nil)

// ModelDetectorOption configures a [ModelDetector].
type ModelDetectorOption func(*ModelDetector) error

// WithDetectorTemplate replaces the prompt. The text must define the
// templates "system" and "user"; the data has Count (variants), Claims
// (one line per claim), Topics (one line per topic that several variants
// cover, with each variant's section) and Fields (one line per labelled
// field whose values differ; the rules already report these).
func WithDetectorTemplate(text string) ModelDetectorOption {
	return func(m *ModelDetector) error {
		t, err := prompt.Parse("contradictions", text)
		if err != nil {
			return fmt.Errorf("diff: contradiction prompt: %w", err)
		}
		m.tmpl = t
		return nil
	}
}

// NewModelDetector returns a detector that asks model through p.
func NewModelDetector(p provider.Provider, model string, opts ...ModelDetectorOption) (*ModelDetector, error) {
	if p == nil {
		return nil, errors.New("diff: NewModelDetector: nil provider")
	}
	m := &ModelDetector{provider: p, model: model}
	for _, o := range append([]ModelDetectorOption{WithDetectorTemplate(contradictionsTemplate)}, opts...) {
		if err := o(m); err != nil {
			return nil, err
		}
	}
	for _, name := range []string{"system", "user"} {
		if m.tmpl.Lookup(name) == nil {
			return nil, fmt.Errorf("diff: contradiction prompt defines no %q template", name)
		}
	}
	return m, nil
}

// modelReply is the reply's shape. Contradictions is a pointer so that a
// reply without the field is told from one that found none: a missing
// field is an unusable reply, never "no contradictions".
type modelReply struct {
	Contradictions *[]struct {
		Kind    string   `json:"kind"`
		Subject string   `json:"subject"`
		Claims  []string `json:"claims"`
		Impact  string   `json:"impact"`
		Reason  string   `json:"reason"`
	} `json:"contradictions"`
}

// Detect implements [ContradictionDetector].
func (m *ModelDetector) Detect(ctx context.Context, in DetectInput) ([]Contradiction, error) {
	byID := map[string]*Claim{}
	var lines strings.Builder
	for v, d := range in.Documents {
		stmts := statements(d, v)
		for i := range stmts {
			c := &stmts[i]
			id := fmt.Sprintf("%s%d", Label(v), i+1)
			byID[id] = c
			fmt.Fprintf(&lines, "%s [%s, line %d]: %s\n", id, sectionRef(in.Documents[v], c.Section), c.Line, c.Text)
		}
	}
	if len(byID) < 2 {
		return nil, nil
	}
	data := map[string]any{"Count": len(in.Documents), "Claims": lines.String(),
		"Topics": alignmentLines(in), "Fields": differingFieldLines(in)}
	system, err := m.render("system", data)
	if err != nil {
		return nil, err
	}
	user, err := m.render("user", data)
	if err != nil {
		return nil, err
	}
	req := provider.Request{Model: m.model, System: system,
		Messages: []provider.Message{{Role: provider.RoleUser, Content: user, Cache: true}},
		Tags:     map[string]string{provider.TagStep: "diff", provider.TagRole: "contradiction-detector"}}
	var reply modelReply
	kinds := map[string]bool{string(NumericConflict): true, string(OpposingClaims): true, string(ExclusiveChoice): true,
		string(RequirementConstraint): true, string(DependencyCycle): true}
	validate := func() error {
		if reply.Contradictions == nil {
			return errors.New(`the reply has no "contradictions" field; give it, as an empty list when there are none`)
		}
		for i, c := range *reply.Contradictions {
			switch {
			case !kinds[c.Kind]:
				return fmt.Errorf("contradiction %d has unknown kind %q", i+1, c.Kind)
			case Rating(c.Impact).Rank() == 0:
				return fmt.Errorf("contradiction %d has impact %q; want Low, Medium or High", i+1, c.Impact)
			case len(c.Claims) < 2:
				return fmt.Errorf("contradiction %d cites %d claims; a contradiction needs at least 2", i+1, len(c.Claims))
			case strings.TrimSpace(c.Subject) == "":
				return fmt.Errorf("contradiction %d has no subject", i+1)
			}
			for _, id := range c.Claims {
				if byID[id] == nil {
					return fmt.Errorf("contradiction %d cites claim %q, which is not in the list", i+1, id)
				}
			}
		}
		return nil
	}
	if _, err := llmjson.Ask(ctx, m.provider, req, &reply, validate); err != nil {
		return nil, fmt.Errorf("diff: model contradiction detector: %w", err)
	}
	var out []Contradiction
	for _, r := range *reply.Contradictions {
		c := Contradiction{Kind: ContradictionKind(r.Kind), Subject: strings.TrimSpace(r.Subject), Impact: Rating(r.Impact),
			Reason: strings.TrimSpace(r.Reason), Key: strings.Join(sortedSet(subjectWords(r.Subject)), " ")}
		seen := map[*Claim]bool{}
		for _, id := range r.Claims {
			if cl := byID[id]; !seen[cl] {
				seen[cl] = true
				c.Claims = append(c.Claims, *cl)
			}
		}
		if len(c.Claims) < 2 {
			continue
		}
		sortClaims(c.Claims)
		if c.Reason == "" {
			c.Reason = "reported by the model"
		}
		out = append(out, c)
	}
	SortContradictions(out)
	return out, nil
}

// alignmentLines lists the topics that more than one variant covers, one
// line each: the sections of every variant on it, so the model compares
// statements about one topic and knows which sections are different ones.
func alignmentLines(in DetectInput) string {
	var b strings.Builder
	for _, t := range in.Topics {
		if t.Covered() < 2 {
			continue
		}
		var cells []string
		for v, si := range t.Sections {
			if si >= 0 && v < len(in.Documents) {
				cells = append(cells, fmt.Sprintf("%s: %s (line %d)", Label(v), sectionRef(in.Documents[v], si), in.Documents[v].Sections[si].Line))
			}
		}
		fmt.Fprintf(&b, "- %s — %s\n", t.Title, strings.Join(cells, "; "))
	}
	return b.String()
}

// differingFieldLines lists the labelled fields the rules found differing, one line
// each, with every variant's value and line.
func differingFieldLines(in DetectInput) string {
	var b strings.Builder
	for _, f := range in.Fields {
		var cells []string
		for _, v := range f.Values {
			cells = append(cells, fmt.Sprintf("%s: %s (line %d)", Label(v.Variant), v.Value, v.Line))
		}
		fmt.Fprintf(&b, "- %s / %s — %s\n", f.Item, f.Field, strings.Join(cells, "; "))
	}
	return b.String()
}

// statements returns every sentence of a document's body text that could
// be a claim: not in code, not a table header, not vague, not a question.
// Sentences the rules classify keep their type; the rest count as factual.
func statements(d *Document, v int) []Claim {
	var out []Claim
	forEachSentence(d, v, func(sent string, row *tableRow, place func(*Claim)) {
		if !candidate(sent, strings.ToLower(sent)) {
			return
		}
		c, ok := classify(sent, row)
		if !ok {
			c = Claim{Text: sent, Type: Factual}
		}
		place(&c)
		out = append(out, c)
	})
	return out
}

func (m *ModelDetector) render(name string, data any) (string, error) {
	var b strings.Builder
	if err := m.tmpl.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("diff: contradiction prompt %q: %w", name, err)
	}
	return strings.TrimSpace(b.String()), nil
}
