package debate

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"text/template"

	"github.com/crucible-go/crucible/internal/prompt"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/llmjson"
)

//go:embed prompts/*.tmpl
var defaultPrompts embed.FS

// ModelAdvocate is an [Advocate] backed by a language model through a
// provider.Provider. Each turn is one conversation:
//
//   - the system prompt: the debate rules and the mandatory steelman
//     protocol (system.tmpl);
//   - a first message with the variants and the diff analysis inside
//     fenced blocks (context.tmpl), marked as a cacheable prefix — it is
//     the same for every advocate and round of a debate, so providers with
//     prompt caching pay for it once;
//   - a last message with what is particular to the agent and the round
//     (turn.tmpl): variant, model, persona and its focus, the custom
//     instruction, focus areas, the debate so far, the criticisms to
//     answer, the unresolved points, and the reply format.
//
// The reply is one JSON block holding the prose sections and a position
// on every diff point; it is validated with [ValidateStatement], and an
// invalid reply is sent back once with the problem. A second invalid reply
// fails the turn with an error matching llmjson.ErrInvalidReply (the debate
// engine then retries the turn once more before dropping the advocate).
// Requests carry the tags step=debate, role=advocate, round, variant and
// agent. A ModelAdvocate is safe for concurrent use.
type ModelAdvocate struct {
	p           provider.Provider
	spec        AgentSpec
	maxTokens   int
	fixedMax    bool // maxTokens set by the host; else sized per turn
	temperature *float64
	prompts     fs.FS
	tmpl        *template.Template
	contextKey  string // identifies the shared-context template, for the debate's memo
	system      string // the rendered system prompt
}

// ModelAdvocateOption configures a [ModelAdvocate].
type ModelAdvocateOption func(*ModelAdvocate)

// WithAdvocatePrompts overrides prompt templates: a file in fsys named like
// an embedded one (system.tmpl, context.tmpl, turn.tmpl) replaces it; the
// others keep their defaults. Templates may use the functions fence, rules
// and join.
func WithAdvocatePrompts(fsys fs.FS) ModelAdvocateOption {
	return func(m *ModelAdvocate) { m.prompts = fsys }
}

// WithAdvocateMaxTokens caps each reply at n tokens, whatever the turn.
// Default: sized from the turn ([AdvocateMaxTokens]).
func WithAdvocateMaxTokens(n int) ModelAdvocateOption {
	return func(m *ModelAdvocate) { m.maxTokens = max(n, 0); m.fixedMax = true }
}

// WithAdvocateTemperature sets the sampling temperature. Default
// [DefaultAdvocateTemperature].
func WithAdvocateTemperature(t float64) ModelAdvocateOption {
	return func(m *ModelAdvocate) { m.temperature = provider.Temperature(t) }
}

// DefaultAdvocateTemperature keeps the advocates close to their evidence:
// an advocate argues from the variants, it does not invent, and a low
// temperature makes a retried turn say much the same as the first.
const DefaultAdvocateTemperature = 0.3

// AdvocateMaxTokens is the default output limit of a turn that takes a
// position on points diff points: 2,048 tokens for the prose sections
// (position, steelman, strengths, criticisms, concessions, rebuttals) and
// 96 per point (a position with its confidence and one line of
// evidence runs 50–80 tokens), at most 16,384.
func AdvocateMaxTokens(points int) int { return min(2048+96*max(points, 0), 16384) }

// NewModelAdvocate returns an advocate that argues through p with the
// agent's model, persona and instruction. It fails if p is nil, the spec
// has no model, or an overriding template does not parse.
func NewModelAdvocate(p provider.Provider, spec AgentSpec, opts ...ModelAdvocateOption) (*ModelAdvocate, error) {
	if p == nil {
		return nil, errors.New("adversarial: NewModelAdvocate: nil provider")
	}
	if strings.TrimSpace(spec.Model) == "" {
		return nil, errors.New("adversarial: NewModelAdvocate: agent spec has no model")
	}
	m := &ModelAdvocate{p: p, spec: spec, temperature: provider.Temperature(DefaultAdvocateTemperature)}
	for _, o := range opts {
		o(m)
	}
	t, src, err := loadPrompts(m.prompts)
	if err != nil {
		return nil, err
	}
	m.tmpl, m.contextKey = t, "model-context\x00"+src["context.tmpl"]
	// The system prompt takes no data: render it once, here, so a broken
	// override fails now rather than on the first turn.
	if m.system, err = m.render("system.tmpl", nil); err != nil {
		return nil, err
	}
	return m, nil
}

var _ Advocate = (*ModelAdvocate)(nil)

// loadPrompts parses the templates, overrides first, and returns their
// sources by name.
func loadPrompts(override fs.FS) (*template.Template, map[string]string, error) {
	root := template.New("advocate").Funcs(prompt.Funcs).Option("missingkey=error")
	sources := map[string]string{}
	for _, name := range []string{"system.tmpl", "context.tmpl", "turn.tmpl"} {
		def, err := fs.ReadFile(defaultPrompts, "prompts/"+name)
		if err != nil {
			return nil, nil, err
		}
		src, _, err := prompt.Override(override, name, string(def))
		if err != nil {
			return nil, nil, fmt.Errorf("debate: %w", err)
		}
		if _, err := root.New(name).Parse(src); err != nil {
			return nil, nil, fmt.Errorf("debate: prompt %s: %w", name, err)
		}
		sources[name] = src
	}
	return root, sources, nil
}

// Data the templates see.
type (
	contextData struct {
		Variants []contextVariant
		Analysis string
		Points   []pointData
		// PointList is Points one per line ("- ID (category): title"),
		// for a fenced block: titles are variant text.
		PointList string
	}
	contextVariant struct{ Label, Name, Agent, Text string }
	pointData      struct{ ID, Category, Title string }
	turnData       struct {
		Round                              int
		Self, Model, Persona, PersonaFocus string
		Instruction                        string
		Focus, Others, Labels, PointIDs    []string
		Transcript, Criticisms             string
		Unresolved                         []string
	}
)

// statementSchema is the reply's schema, from its type.
var statementSchema = llmjson.Schema("advocate_statement", statementReply{})

// statementReply is the JSON a model answers with.
type statementReply struct {
	Position    string           `json:"position"`
	Steelman    []Steelman       `json:"steelman"`
	Strengths   []Claim          `json:"strengths"`
	Weaknesses  []criticismReply `json:"weaknesses"`
	Concessions []string         `json:"concessions"`
	Responses   []responseReply  `json:"responses"`
	NewEvidence []Claim          `json:"new_evidence"`
	Remaining   []Claim          `json:"remaining"`
	Positions   []positionReply  `json:"positions"`
}

// positionReply is a position as the model writes it: a confidence of
// "80" or "80%" means 80 — the field is an integer, so the string is
// unambiguous.
type positionReply struct {
	Point      string      `json:"point"`
	Prefer     string      `json:"prefer"`
	Confidence llmjson.Int `json:"confidence"`
	Concede    bool        `json:"concede"`
	Evidence   string      `json:"evidence"`
}

type criticismReply struct {
	Against  string `json:"against"`
	Point    string `json:"point"`
	Text     string `json:"text"`
	Evidence string `json:"evidence"`
}

type responseReply struct {
	Criticism int    `json:"criticism"`
	Reply     string `json:"reply"`
	Conceded  bool   `json:"conceded"`
}

func (r statementReply) statement() Statement {
	st := Statement{Position: strings.TrimSpace(r.Position), Steelman: r.Steelman, Strengths: r.Strengths,
		Concessions: r.Concessions, NewEvidence: r.NewEvidence, Remaining: r.Remaining}
	for _, p := range r.Positions {
		st.Positions = append(st.Positions, PointPosition{Point: p.Point, Prefer: p.Prefer, Confidence: int(p.Confidence),
			Concede: p.Concede, Evidence: p.Evidence})
	}
	for _, w := range r.Weaknesses {
		st.Weaknesses = append(st.Weaknesses, Criticism{Against: w.Against, Point: w.Point, Text: w.Text, Evidence: w.Evidence})
	}
	for _, x := range r.Responses {
		st.Responses = append(st.Responses, Response{Criticism: x.Criticism, Reply: x.Reply, Conceded: x.Conceded})
	}
	return st
}

// Argue implements [Advocate].
func (m *ModelAdvocate) Argue(ctx context.Context, turn Turn) (Statement, error) {
	req, err := m.request(turn)
	if err != nil {
		return Statement{}, err
	}
	var reply statementReply
	// Provider errors come back at once: the debate retries the turn and
	// records the retry; an unusable reply is retried here, with the
	// problem, and then final.
	resps, err := llmjson.AskReply(ctx, m.p, req, &reply, func() error { return ValidateStatement(turn, reply.statement()) })
	var usage provider.Usage
	for _, r := range resps {
		usage = usage.Add(r.Usage)
	}
	if err != nil {
		return Statement{}, &ArgueError{Usage: usage, Final: errors.Is(err, llmjson.ErrInvalidReply),
			Err: fmt.Errorf("adversarial: advocate for Variant %s (%s), round %d: %w", turn.Self.Label, m.spec, turn.Round, err)}
	}
	st := reply.statement()
	st.Usage = usage
	return st, nil
}

// request builds the conversation for a turn.
func (m *ModelAdvocate) request(turn Turn) (provider.Request, error) {
	if turn.Analysis == nil {
		return provider.Request{}, errors.New("adversarial: model advocate: turn has no analysis")
	}
	td := turnData{Round: turn.Round, Self: turn.Self.Label, Model: m.spec.Model, Persona: m.spec.Persona,
		Instruction: m.spec.Instruction, Focus: turn.Focus, Labels: turn.Labels(), Unresolved: turn.Unresolved}
	td.PersonaFocus, _ = PersonaFocus(m.spec.Persona)
	for _, o := range turn.Others {
		td.Others = append(td.Others, o.Label)
	}
	for _, p := range turn.Points {
		td.PointIDs = append(td.PointIDs, p.ID)
	}
	td.Transcript = transcriptText(turn)
	var crit strings.Builder
	for i, c := range turn.Criticisms {
		fmt.Fprintf(&crit, "%d. From Variant %s%s: %s — Evidence: %s\n", i+1, c.From, pointSuffix(c.Point), oneLine(c.Text), oneLine(c.Evidence))
	}
	td.Criticisms = crit.String()
	// The shared context is the same for every advocate of the debate that
	// uses the same template: render it once.
	shared, err := memoGet(turn.memo, m.contextKey, func() (string, error) { return m.sharedContext(turn) })
	if err != nil {
		return provider.Request{}, err
	}
	own, err := m.render("turn.tmpl", td)
	if err != nil {
		return provider.Request{}, err
	}
	limit := m.maxTokens
	if !m.fixedMax {
		limit = AdvocateMaxTokens(len(turn.Points))
	}
	first := provider.Message{Role: provider.RoleUser, Content: shared}
	// Every advocate of every round shares the context: marked when a
	// vendor would cache it.
	first.Cache = provider.Cacheable(m.system, first)
	req := provider.Request{
		Model:       m.spec.Model,
		System:      m.system,
		Messages:    []provider.Message{first, {Role: provider.RoleUser, Content: own}},
		MaxTokens:   limit,
		Temperature: m.temperature,
		Schema:      statementSchema,
		Tags: map[string]string{provider.TagStep: "debate", provider.TagRole: "advocate", provider.TagRound: strconv.Itoa(turn.Round),
			provider.TagVariant: turn.Self.Label, provider.TagAgent: m.spec.String()},
	}
	if turn.Attempt >= 2 {
		req.Tags[provider.TagAttempt] = strconv.Itoa(turn.Attempt)
	}
	return req, nil
}

// sharedContext renders the first message: the variants and the diff
// analysis.
func (m *ModelAdvocate) sharedContext(turn Turn) (string, error) {
	cd := contextData{Analysis: turn.Analysis.Markdown()}
	for _, v := range turn.Variants() {
		if v.Doc == nil {
			return "", fmt.Errorf("adversarial: model advocate: variant %s has no document", v.Label)
		}
		cd.Variants = append(cd.Variants, contextVariant{Label: v.Label, Name: v.Doc.Name, Agent: v.Agent, Text: v.Doc.Source})
	}
	var list strings.Builder
	for _, p := range turn.Points {
		cd.Points = append(cd.Points, pointData{ID: p.ID, Category: string(p.Category), Title: p.Title})
		fmt.Fprintf(&list, "- %s (%s): %s\n", p.ID, p.Category, oneLine(p.Title))
	}
	cd.PointList = list.String()
	return m.render("context.tmpl", cd)
}

// transcriptText renders the statements the turn may read as the
// transcript shows them. A statement never changes once made, so each is
// rendered once per debate.
func transcriptText(turn Turn) string {
	var vars []Participant
	for _, v := range turn.Variants() {
		vars = append(vars, Participant{Label: v.Label, Agent: v.Agent})
	}
	var b strings.Builder
	for _, st := range turn.Transcript {
		text, _ := memoGet(turn.memo, fmt.Sprintf("statement\x00%d\x00%s", st.Round, st.Variant), func() (string, error) {
			var sb strings.Builder
			fmt.Fprintf(&sb, "### Round %d, Variant %s advocate\n", st.Round, st.Variant)
			writeStatement(&sb, st, vars)
			return sb.String(), nil
		})
		b.WriteString(text)
		b.WriteString("\n")
	}
	return b.String()
}

func (m *ModelAdvocate) render(name string, data any) (string, error) {
	var b strings.Builder
	if err := m.tmpl.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("adversarial: prompt %s: %w", name, err)
	}
	return strings.TrimSpace(b.String()), nil
}

// ModelAdvocates returns one model advocate per agent spec, in order.
func ModelAdvocates(p provider.Provider, specs []AgentSpec, opts ...ModelAdvocateOption) ([]Advocate, error) {
	out := make([]Advocate, 0, len(specs))
	for _, s := range specs {
		a, err := NewModelAdvocate(p, s, opts...)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}
