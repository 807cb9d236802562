package challenge

import (
	"context"
	"embed"
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

// Tag values and keys the model adversary puts on its requests, besides
// provider.TagRound (the round number).
const (
	StepChallenge = "challenge" // provider.TagStep
	RoleAdversary = "adversary" // provider.TagRole
)

// promptNames are the templates a host may override.
// context.tmpl holds what every round shares (artifact type, artifact,
// project context) and is sent first, so that vendors cache it;
// request.tmpl what changes per round. A host that overrides request.tmpl
// alone writes the whole message itself, and context.tmpl is not sent.
var promptNames = []string{"system.tmpl", "context.tmpl", "request.tmpl", "retry.tmpl"}

// ModelAdversary asks a language model to challenge the artifact. Each
// round is one request: a system prompt with the adversary's role, the
// type's challenge categories and the reply format, and a message of tagged
// elements (<artifact_type>, <artifact>, <project_context>,
// <previous_challenges>, <defense>, <round>, <max_rounds>) in which every
// piece of untrusted text — artifact, context, previous challenges, defense
// — sits in a hash-tagged block it cannot close. The reply is parsed with
// [Parse]; a reply that does not parse, or answers another round, is sent
// back once with the problem, then fails with a [*ReplyError].
//
// A ModelAdversary is safe for concurrent use.
type ModelAdversary struct {
	p           provider.Provider
	model       string
	maxTokens   int
	temperature *float64
	prompts     fs.FS
	tmpl        map[string]*template.Template
	// ownRequest and ownContext say the host overrode those templates.
	ownRequest, ownContext bool
}

// ModelOption configures a [ModelAdversary].
type ModelOption func(*ModelAdversary)

// WithModel sets the model requests ask for, as a provider.Registry knows
// it. Default "": the provider decides.
func WithModel(name string) ModelOption { return func(a *ModelAdversary) { a.model = name } }

// Defaults of a [ModelAdversary]'s requests.
const (
	// DefaultMaxTokens bounds a round's reply: up to about ten
	// challenges of 150–250 tokens each (concern, evidence, severity,
	// suggestion) with the assessment tables, 1.5–3k tokens.
	DefaultMaxTokens = 4096
	// DefaultTemperature keeps the adversary on the artifact's text while
	// leaving it room to find objections a greedy reading repeats past.
	DefaultTemperature = 0.3
)

// WithMaxTokens caps each reply. Default [DefaultMaxTokens]; 0 leaves it
// to the provider.
func WithMaxTokens(n int) ModelOption { return func(a *ModelAdversary) { a.maxTokens = max(n, 0) } }

// WithTemperature sets the sampling temperature. Default
// [DefaultTemperature].
func WithTemperature(t float64) ModelOption {
	return func(a *ModelAdversary) { a.temperature = provider.Temperature(t) }
}

// WithPrompts overrides prompt templates: a file in fsys named like an
// embedded one — "system.tmpl", "context.tmpl", "request.tmpl",
// "retry.tmpl" — replaces
// it. Templates may use the functions fence, rules and join.
func WithPrompts(fsys fs.FS) ModelOption { return func(a *ModelAdversary) { a.prompts = fsys } }

// NewModelAdversary returns an adversary that calls p. It fails if p is
// nil or an overriding template does not parse.
func NewModelAdversary(p provider.Provider, opts ...ModelOption) (*ModelAdversary, error) {
	if p == nil {
		return nil, fmt.Errorf("%w: the model adversary needs a provider", ErrInvalidInput)
	}
	a := &ModelAdversary{p: p, tmpl: map[string]*template.Template{}, maxTokens: DefaultMaxTokens,
		temperature: provider.Temperature(DefaultTemperature)}
	for _, o := range opts {
		o(a)
	}
	for _, name := range promptNames {
		def, err := fs.ReadFile(defaultPrompts, "prompts/"+name)
		if err != nil {
			return nil, err
		}
		src, own, err := prompt.Override(a.prompts, name, string(def))
		if err != nil {
			return nil, fmt.Errorf("challenge: %w", err)
		}
		a.ownRequest = a.ownRequest || (own && name == "request.tmpl")
		a.ownContext = a.ownContext || (own && name == "context.tmpl")
		t, err := prompt.Parse(name, src)
		if err != nil {
			return nil, fmt.Errorf("challenge: prompt %s: %w", name, err)
		}
		a.tmpl[name] = t
	}
	return a, nil
}

// NewModelAdversaryFor returns an adversary for the configured model —
// Config.Model, else the profile's alias (quality → opus, balanced →
// sonnet, budget → haiku) — resolved through reg, which also serves the
// calls.
func NewModelAdversaryFor(reg *provider.Registry, cfg Config, opts ...ModelOption) (*ModelAdversary, error) {
	id, err := cfg.ResolveModel(reg)
	if err != nil {
		return nil, err
	}
	return NewModelAdversary(reg, append([]ModelOption{WithModel(id)}, opts...)...)
}

type categoryInfo struct {
	Name     Category
	Question string
}

// promptData is what the templates see.
type promptData struct {
	Type       ArtifactType
	Categories []categoryInfo
	Artifact   string
	Context    string
	// Previous and Defense are the previous round's challenges and their
	// defense, rendered as Markdown; empty in round 1.
	Previous  string
	Defense   string
	Round     int
	MaxRounds int
	// Error is the problem with the last reply, for retry.tmpl.
	Error string
}

func (a *ModelAdversary) render(name string, data promptData) (string, error) {
	s, err := prompt.Execute(a.tmpl[name], data)
	if err != nil {
		return "", fmt.Errorf("challenge: prompt %s: %w", name, err)
	}
	return strings.TrimSpace(s), nil
}

// Challenge implements [Adversary].
func (a *ModelAdversary) Challenge(ctx context.Context, req Request) (*Reply, error) {
	if !req.Type.Valid() {
		return nil, fmt.Errorf("%w: unknown artifact type %q", ErrInvalidInput, req.Type)
	}
	data := promptData{Type: req.Type, Artifact: req.Artifact, Context: strings.TrimSpace(req.Context),
		Round: req.Round, MaxRounds: req.MaxRounds}
	for _, c := range req.Type.Categories() {
		data.Categories = append(data.Categories, categoryInfo{Name: c, Question: c.Question(req.Type)})
	}
	if req.Previous != nil {
		data.Previous = req.Previous.Markdown()
		data.Defense = "(no defense was given)"
		if req.Defense != nil {
			data.Defense = req.Defense.Markdown(req.Previous)
		}
	}
	system, err := a.render("system.tmpl", data)
	if err != nil {
		return nil, err
	}
	user, err := a.render("request.tmpl", data)
	if err != nil {
		return nil, err
	}
	msgs := []provider.Message{{Role: provider.RoleUser, Content: user}}
	if !a.ownRequest || a.ownContext {
		shared, err := a.render("context.tmpl", data)
		if err != nil {
			return nil, err
		}
		// Every round of the loop shares the artifact: first, and marked
		// when the loop has more than one round and a vendor would cache
		// it. The rounds run one after another, so the later ones read
		// what the first wrote.
		first := provider.Message{Role: provider.RoleUser, Content: shared}
		first.Cache = req.MaxRounds > 1 && provider.Cacheable(system, first)
		msgs = []provider.Message{first, msgs[0]}
	}
	base := provider.Request{Model: a.model, System: system, MaxTokens: a.maxTokens, Temperature: a.temperature,
		Messages: msgs,
		Tags: map[string]string{provider.TagStep: StepChallenge, provider.TagRole: RoleAdversary,
			provider.TagRound: strconv.Itoa(req.Round)}}

	// One retry per call, as the error matrix has it (llmjson.Call):
	// after an unusable reply with the problem, after a retryable error
	// as it was; never after authentication, an invalid request or a
	// refusal. Reasoning blocks are removed and the finish reason checked
	// before the reply is parsed.
	var reply *Reply
	out, err := llmjson.Call(ctx, a.p, base.WithTag(provider.TagAttempt, "1"),
		func(text string) error {
			r, problem := usable(text, req)
			reply = r
			return problem
		},
		func(problem error) (string, error) {
			data.Error = problem.Error()
			return a.render("retry.tmpl", data)
		})
	switch {
	case err == nil:
		reply.Usage, reply.Attempts = out.Usage, out.Attempts
		return reply, nil
	case out.Unusable:
		return nil, &ReplyError{Round: req.Round, Attempts: out.Attempts, Reply: out.Reply, Err: err, Usage: out.Usage}
	case out.Attempts > 1:
		return nil, &llmjson.SpentError{Usage: out.Usage, Err: fmt.Errorf("challenge: adversary model retry: %w", err)}
	}
	return nil, &llmjson.SpentError{Usage: out.Usage, Err: fmt.Errorf("challenge: adversary model: %w", err)}
}

// usable parses a reply and checks that it answers the request's round.
func usable(text string, req Request) (*Reply, error) {
	r, err := Parse(text)
	if err != nil {
		return nil, err
	}
	if r.Round != 0 && r.Round != req.Round {
		return nil, fmt.Errorf("the reply is for round %d, but this is round %d", r.Round, req.Round)
	}
	if r.MaxRounds != 0 && req.MaxRounds != 0 && r.MaxRounds != req.MaxRounds {
		return nil, fmt.Errorf("the reply counts %d rounds, but the debate has %d", r.MaxRounds, req.MaxRounds)
	}
	return r, nil
}
