package diff

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strconv"
	"strings"
	"text/template"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/internal/prompt"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/llmjson"
)

//go:embed prompts/contradictions.tmpl
var contradictionsTemplate string

// ModelDetector asks a model for contradictions among the variants'
// statements: every block of body text, kept in its context (section
// path, table columns, list nesting, code with its line numbers), so the
// model can catch what the rules cannot ("blue-green deployment" against
// "canary deployment", a tally against its own list).
//
// The statements travel by topic: one request per group of aligned
// topics (see [DetectInput.Topics]), each under a shared prefix marked for
// caching, and, when there are several, a last request over the
// summaries, totals and counted lists of every variant for conflicts
// across topics. No request exceeds the input budget
// ([WithDetectorBudget]); requests run concurrently, a few at a time.
//
// Every finding is verified before it counts: both statements must exist,
// the subject must be named in each (or in its section or row), a numeric
// finding needs a number on each side, and the model's confidence must
// be high (a medium-confidence finding is a difference to check). A side
// that fails is left out when the others still make the finding (two
// statements or more, over the same variants, each naming most of the
// subject). A finding that fails, or that the model marks as an intended
// change between successive revisions, is reported as a content
// difference with the reason ([ModelDetector.DetectAll]), never as a
// contradiction; one citing unknown statements is dropped, and one
// restating a finding already kept (the model's or the rules') is merged
// into it. When several requests found two contradictions or more, one
// more request asks the model which of them report the same
// disagreement from different statements (a fix's section and the test
// plan that carries it out), and each group is reported once
// ([WithDetectorRestatements]). Statements travel inside fenced blocks,
// so text in a variant cannot instruct the model.
//
// Use it beside the rules: diff.WithDetectors(diff.RuleDetector{}, model).
type ModelDetector struct {
	provider provider.Provider
	model    string
	tmpl     *template.Template
	restate  *template.Template // restatements.tmpl
	prompts  fs.FS
	// noRestatements turns off the request that groups restated
	// findings (see WithDetectorRestatements).
	noRestatements bool
	budget         int // most estimated input tokens of one request
	groupTokens    int // statement tokens one request gathers before the next starts
	concurrency    int
	maxTokens      int
	logger         *slog.Logger
}

var (
	_ ContradictionDetector = (*ModelDetector)(nil)
	_ FindingDetector       = (*ModelDetector)(nil)
)

// Defaults of a [ModelDetector].
const (
	// DefaultDetectorBudget is the most input tokens (estimated at four
	// bytes a token) one request may hold.
	DefaultDetectorBudget = 30000
	// DefaultDetectorGroupTokens is how many tokens of statements one
	// request gathers from consecutive topics: small topics share a
	// request, a large one has its own.
	DefaultDetectorGroupTokens = 8000
	// DefaultDetectorConcurrency is how many requests run at once.
	DefaultDetectorConcurrency = 4
	// DefaultDetectorMaxTokens caps a reply: a few dozen findings.
	DefaultDetectorMaxTokens = 8192
)

// ModelDetectorOption configures a [ModelDetector].
type ModelDetectorOption func(*ModelDetector) error

// WithDetectorPrompts overrides the prompt: a file contradictions.tmpl in
// fsys replaces the embedded one (prompts/contradictions.tmpl). It must
// define the
// templates "system", "prefix" and "user". "system" and "prefix" (the
// first message, shared by every request and marked for caching) get
// Count (variants), Variants (one line per variant), Revisions (the
// revision order, empty unless the variants are successive revisions)
// and Fields (one line per labelled field whose values differ; the rules
// already report these); "user" gets Statements (the request's
// statements, by section), Topics (what part of the variants they are)
// Final (set for the last request, over summaries and totals) and
// Related (set when the request also holds statements of other sections
// that name the same identifiers). A file restatements.tmpl replaces the
// prompt of the check for restated findings; it must define "system" and
// "user", which get Count, Variants and Findings (the verified
// contradictions, numbered F1, F2, …).
func WithDetectorPrompts(fsys fs.FS) ModelDetectorOption {
	return func(m *ModelDetector) error { m.prompts = fsys; return nil }
}

// WithDetectorBudget sets the most input tokens one request may hold
// (estimated at four bytes a token). A topic too large for it is split
// over several requests. The default is [DefaultDetectorBudget].
func WithDetectorBudget(tokens int) ModelDetectorOption {
	return func(m *ModelDetector) error {
		if tokens < 1000 {
			return fmt.Errorf("diff: detector budget %d tokens is too small (want at least 1000)", tokens)
		}
		m.budget = tokens
		return nil
	}
}

// WithDetectorGroupTokens sets how many tokens of statements one request
// gathers from consecutive topics before the next request starts; 0
// gathers as many as the budget allows. The default is
// [DefaultDetectorGroupTokens].
func WithDetectorGroupTokens(tokens int) ModelDetectorOption {
	return func(m *ModelDetector) error {
		if tokens < 0 {
			return fmt.Errorf("diff: detector group size %d is negative", tokens)
		}
		m.groupTokens = tokens
		return nil
	}
}

// WithDetectorConcurrency sets how many requests run at once (at least
// 1). The default is [DefaultDetectorConcurrency].
func WithDetectorConcurrency(n int) ModelDetectorOption {
	return func(m *ModelDetector) error {
		m.concurrency = max(n, 1)
		return nil
	}
}

// WithDetectorMaxTokens caps each reply's length. The default is
// [DefaultDetectorMaxTokens].
func WithDetectorMaxTokens(n int) ModelDetectorOption {
	return func(m *ModelDetector) error {
		if n <= 0 {
			return fmt.Errorf("diff: detector max tokens %d must be positive", n)
		}
		m.maxTokens = n
		return nil
	}
}

// WithDetectorLogger sets the logger for the findings the verification
// drops or downgrades. The default discards.
func WithDetectorLogger(l *slog.Logger) ModelDetectorOption {
	return func(m *ModelDetector) error {
		if l != nil {
			m.logger = l
		}
		return nil
	}
}

// NewModelDetector returns a detector that asks model through p.
func NewModelDetector(p provider.Provider, model string, opts ...ModelDetectorOption) (*ModelDetector, error) {
	if p == nil {
		return nil, errors.New("diff: NewModelDetector: nil provider")
	}
	m := &ModelDetector{provider: p, model: model, budget: DefaultDetectorBudget, groupTokens: DefaultDetectorGroupTokens,
		concurrency: DefaultDetectorConcurrency, maxTokens: DefaultDetectorMaxTokens, logger: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		if err := o(m); err != nil {
			return nil, err
		}
	}
	text, _, err := prompt.Override(m.prompts, "contradictions.tmpl", contradictionsTemplate)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	if m.tmpl, err = prompt.Parse("contradictions", text); err != nil {
		return nil, fmt.Errorf("diff: contradiction prompt: %w", err)
	}
	if err := prompt.Require(m.tmpl, "contradictions.tmpl", "system", "prefix", "user"); err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	text, _, err = prompt.Override(m.prompts, "restatements.tmpl", restatementsTemplate)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	if m.restate, err = prompt.Parse("restatements", text); err != nil {
		return nil, fmt.Errorf("diff: restatement prompt: %w", err)
	}
	if err := prompt.Require(m.restate, "restatements.tmpl", "system", "user"); err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	return m, nil
}

// DetectorName implements [NamedDetector]: the rendered analysis says
// which findings came from the model.
func (m *ModelDetector) DetectorName() string { return "model" }

// Detect implements [ContradictionDetector]: the verified contradictions.
func (m *ModelDetector) Detect(ctx context.Context, in DetectInput) ([]Contradiction, error) {
	f, err := m.DetectAll(ctx, in)
	return f.Contradictions, err
}

// DetectAll implements [FindingDetector]: the verified contradictions,
// and the findings that failed verification or are intended changes
// between revisions, as differences.
func (m *ModelDetector) DetectAll(ctx context.Context, in DetectInput) (Findings, error) {
	plan, err := m.Plan(in)
	if err != nil || len(plan.Requests) == 0 {
		return Findings{}, err
	}
	// Every request runs to its end even when another fails, and the
	// error reported is the first request's in plan order: which
	// request fails first in time must not change the analysis.
	replies := make([]detReply, len(plan.Requests))
	errs := make([]error, len(plan.Requests))
	var g errgroup.Group
	g.SetLimit(m.concurrency)
	for i, req := range plan.Requests {
		g.Go(func() error {
			replies[i], errs[i] = m.ask(ctx, req)
			return nil
		})
	}
	_ = g.Wait() // errors are in errs
	if err := ctx.Err(); err != nil {
		return Findings{}, fmt.Errorf("diff: model contradiction detector: %w", err)
	}
	for i, err := range errs {
		if err != nil {
			return Findings{}, fmt.Errorf("diff: model contradiction detector: request %d of %d: %w", i+1, len(plan.Requests), err)
		}
	}
	v := verifier{docs: in.Documents, byID: plan.byID, revisions: plan.revisions, log: m.logger, ctx: ctx}
	for _, r := range replies {
		for _, f := range *r.Contradictions {
			v.add(f)
		}
	}
	if len(plan.Requests) > 1 {
		// one request cannot restate another's findings
		if err := m.mergeRestatements(ctx, in, &v); err != nil {
			return Findings{}, err
		}
	}
	return v.findings(), nil
}

// DetectorPlan is what a [ModelDetector] would send for an input: its
// requests in order, for measuring their size and recording prompts.
type DetectorPlan struct {
	Requests []provider.Request
	// Tokens estimates each request's input tokens (four bytes a token).
	Tokens []int

	byID      map[string]*detStatement
	revisions []int
}

// Plan builds the requests Detect sends for in, without sending them.
func (m *ModelDetector) Plan(in DetectInput) (DetectorPlan, error) {
	var plan DetectorPlan
	stmts := make([][]detStatement, len(in.Documents))
	plan.byID = map[string]*detStatement{}
	n := 0
	for v, d := range in.Documents {
		stmts[v] = buildStatements(d, v)
		n += len(stmts[v])
	}
	if n < 2 {
		return plan, nil
	}
	for v := range stmts {
		for i := range stmts[v] {
			plan.byID[stmts[v][i].id] = &stmts[v][i]
		}
	}
	plan.revisions = revisionOrder(in.Documents)
	data := map[string]any{"Count": len(in.Documents), "Variants": variantLines(in.Documents),
		"Revisions": revisionLine(plan.revisions), "Fields": differingFieldLines(in)}
	system, err := m.render("system", data)
	if err != nil {
		return plan, err
	}
	prefix, err := m.render("prefix", data)
	if err != nil {
		return plan, err
	}
	fixed := estimateTokens(system) + estimateTokens(prefix) + detPromptOverhead
	room := m.budget - fixed
	if room < 500 {
		return plan, fmt.Errorf("diff: model contradiction detector: the shared prefix takes %d of the %d-token budget", fixed, m.budget)
	}
	parts := packRequests(in, stmts, room, m.groupTokens)
	if len(parts) > 1 {
		parts = addRelated(in.Documents, parts, room)
		if final := finalPart(in, stmts, room); len(final.stmts) > 0 {
			parts = append(parts, final)
		}
	}
	for i, p := range parts {
		user, err := m.render("user", map[string]any{"Statements": p.render(in.Documents), "Topics": p.describe(), "Final": p.final, "Related": p.related > 0})
		if err != nil {
			return plan, err
		}
		shared := provider.Message{Role: provider.RoleUser, Content: prefix}
		// The prefix is marked for caching only when several requests
		// share it and it is long enough for a vendor to cache: a single
		// request would pay the cache-write premium for a read that never
		// comes.
		shared.Cache = len(parts) > 1 && provider.Cacheable(system, shared)
		req := provider.Request{Model: m.model, System: system, MaxTokens: m.maxTokens,
			Temperature: provider.Temperature(0), Schema: detSchema,
			Messages: []provider.Message{shared, {Role: provider.RoleUser, Content: user}},
			Tags: map[string]string{provider.TagStep: "diff", provider.TagRole: "contradiction-detector",
				TagDetectorPart: fmt.Sprintf("%d/%d", i+1, len(parts))}}
		plan.Requests = append(plan.Requests, req)
		plan.Tokens = append(plan.Tokens, estimateTokens(req.Prompt()))
	}
	return plan, nil
}

// TagDetectorPart is the request tag naming which of the detector's
// requests a call is ("2/5").
const TagDetectorPart = "part"

// detPromptOverhead allows for the user template's own text around the
// statements.
const detPromptOverhead = 400

// estimateTokens estimates a text's tokens at four bytes a token.
func estimateTokens(s string) int { return (len(s) + 3) / 4 }

// detSchema is the reply's JSON schema, sent so that a server with
// structured output keeps to it; the reply is still read leniently (see
// detReply), since a server may ignore it.
var detSchema = llmjson.Schema("contradiction_findings", detWireReply{})

// detWireReply is the reply as the prompt asks for it, for the schema: the
// reading types below also accept older and looser forms.
type detWireReply struct {
	Contradictions []detWireFinding `json:"contradictions"`
}

type detWireFinding struct {
	Subject    string        `json:"subject"`
	Kind       string        `json:"kind" jsonschema:"enum=numeric,enum=choice,enum=verdict,enum=field,enum=scope,enum=dependency"`
	Sides      []detWireSide `json:"sides"`
	Confidence string        `json:"confidence" jsonschema:"enum=high,enum=medium,enum=low"`
	Change     bool          `json:"change"`
	Impact     string        `json:"impact" jsonschema:"enum=Low,enum=Medium,enum=High"`
	Reason     string        `json:"reason"`
}

type detWireSide struct {
	ID    string `json:"id"`
	Line  int    `json:"line,omitempty"`
	Value string `json:"value"`
}

// detReply is the reply's shape. Contradictions is a pointer so that a
// reply without the field is told from one that found none: a missing
// field is an unusable reply, never "no contradictions".
type detReply struct {
	Contradictions *[]detFinding `json:"contradictions"`
}

// detFinding is one finding as the model writes it. Claims is the older
// form of Sides (ids only), still read.
type detFinding struct {
	Subject    string        `json:"subject"`
	Kind       string        `json:"kind"`
	Sides      []detSide     `json:"sides"`
	Claims     []string      `json:"claims"`
	Confidence detConfidence `json:"confidence"`
	Change     bool          `json:"change"`
	Impact     string        `json:"impact"`
	Reason     string        `json:"reason"`
}

type detSide struct {
	ID    string       `json:"id"`
	Line  llmjson.Int  `json:"line"`
	Value detLooseText `json:"value"`
}

// detConfidence reads "high", "medium", "low" or a number in [0, 1] (or
// a percentage); 0 when absent.
type detConfidence float64

func (c *detConfidence) UnmarshalJSON(b []byte) error {
	s := strings.Trim(strings.TrimSpace(string(b)), `"`)
	switch strings.ToLower(s) {
	case "high", "certain":
		*c = 0.9
	case "medium", "moderate":
		*c = 0.7
	case "low":
		*c = 0.3
	case "", "null":
		*c = 0
	default:
		f, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil {
			return fmt.Errorf("confidence %s is neither high, medium, low nor a number", b)
		}
		if f > 1 {
			f /= 100
		}
		*c = detConfidence(f)
	}
	return nil
}

// detLooseText reads a string, or a number written without quotes.
type detLooseText string

func (t *detLooseText) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if strings.HasPrefix(s, `"`) {
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return err
		}
		*t = detLooseText(str)
		return nil
	}
	if s == "null" {
		return nil
	}
	*t = detLooseText(s)
	return nil
}

// ask sends one request and reads the reply. Only a reply without the
// list is unusable (and asked again once); what is wrong with single
// findings is the verification's business.
func (m *ModelDetector) ask(ctx context.Context, req provider.Request) (detReply, error) {
	var reply detReply
	validate := func() error {
		if reply.Contradictions == nil {
			return errors.New(`the reply has no "contradictions" field; give it, as an empty list when there are none`)
		}
		return nil
	}
	if _, err := llmjson.Ask(ctx, m.provider, req, &reply, validate); err != nil {
		return detReply{}, err
	}
	return reply, nil
}

// variantLines lists the variants for the prefix.
func variantLines(docs []*Document) string {
	var b strings.Builder
	for v, d := range docs {
		title := ""
		if d.Title != "" {
			title = fmt.Sprintf(", titled %q", d.Title)
		}
		fmt.Fprintf(&b, "- Variant %s: %s%s, %d lines\n", Label(v), d.Name, title, d.Lines)
	}
	return b.String()
}

// revisionLine names the revision order: "A (earliest), then B".
func revisionLine(order []int) string {
	if len(order) == 0 {
		return ""
	}
	var parts []string
	for i, v := range order {
		switch i {
		case 0:
			parts = append(parts, Label(v)+" (earliest)")
		case len(order) - 1:
			parts = append(parts, Label(v)+" (latest)")
		default:
			parts = append(parts, Label(v))
		}
	}
	return strings.Join(parts, ", then ")
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

func (m *ModelDetector) render(name string, data any) (string, error) {
	var b strings.Builder
	if err := m.tmpl.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("diff: contradiction prompt %q: %w", name, err)
	}
	return strings.TrimSpace(b.String()), nil
}
