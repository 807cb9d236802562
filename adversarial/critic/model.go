package critic

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"text/template"

	"github.com/crucible-go/crucible/internal/prompt"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/llmjson"
)

//go:embed prompts/*.tmpl
var defaultPrompts embed.FS

// Tag keys the model engine sets besides provider.TagStep and
// provider.TagRole (which carry "critic" and the mode).
const (
	TagStrategy  = "strategy"  // the strategy id, "S-001"
	TagIteration = "iteration" // the cycle iteration, "1", "2", …
)

// ModelEngine runs the modes through a language model: one call per mode,
// prompted from embedded text/template files, with the reply's fenced JSON
// block validated against the mode's result type. An invalid reply is
// retried once with the validation error; a second failure is a
// [*ReplyError]. Evidence must quote the artifact verbatim, so a model
// cannot cite text that is not there.
type ModelEngine struct {
	p           provider.Provider
	model       string
	maxTokens   int
	temperature *float64
	prompts     fs.FS
	tmpl        *template.Template
}

// ModelOption configures a [ModelEngine].
type ModelOption func(*ModelEngine)

// WithModel sets the model name requests carry (as a provider.Registry
// knows it). Default "".
func WithModel(name string) ModelOption { return func(e *ModelEngine) { e.model = name } }

// Defaults of a [ModelEngine]'s requests.
const (
	// DefaultMaxTokens bounds one mode's reply: 10–25 findings (claims,
	// checks, FMEA rows, scores) of 80–150 tokens each with their line
	// citations, 1.5–3.5k tokens.
	DefaultMaxTokens = 4096
	// DefaultTemperature is low: the modes verify, check and score,
	// where sampling adds noise to figures the pipeline compares.
	DefaultTemperature = 0.2
)

// WithMaxTokens caps each reply. Default [DefaultMaxTokens]; 0 leaves it
// to the provider.
func WithMaxTokens(n int) ModelOption { return func(e *ModelEngine) { e.maxTokens = max(n, 0) } }

// WithTemperature sets the sampling temperature. Default
// [DefaultTemperature].
func WithTemperature(t float64) ModelOption {
	return func(e *ModelEngine) { e.temperature = provider.Temperature(t) }
}

// WithPrompts overrides prompt templates: a file in fsys named like an
// embedded one ("system.tmpl", "red-team.tmpl", "retry.tmpl", …) replaces
// it; the others keep their defaults. Mode templates may use
// {{template "context.tmpl" .}}.
func WithPrompts(fsys fs.FS) ModelOption { return func(e *ModelEngine) { e.prompts = fsys } }

// NewModelEngine returns an engine that calls p. It fails if an overriding
// template does not parse.
func NewModelEngine(p provider.Provider, opts ...ModelOption) (*ModelEngine, error) {
	if p == nil {
		return nil, fmt.Errorf("%w: model engine needs a provider", ErrInvalidInput)
	}
	e := &ModelEngine{p: p, maxTokens: DefaultMaxTokens, temperature: provider.Temperature(DefaultTemperature)}
	for _, o := range opts {
		o(e)
	}
	t, err := loadPrompts(e.prompts)
	if err != nil {
		return nil, err
	}
	e.tmpl = t
	return e, nil
}

func loadPrompts(override fs.FS) (*template.Template, error) {
	entries, err := fs.ReadDir(defaultPrompts, "prompts")
	if err != nil {
		return nil, err
	}
	root := template.New("prompts")
	for _, ent := range entries {
		name := ent.Name()
		def, err := fs.ReadFile(defaultPrompts, "prompts/"+name)
		if err != nil {
			return nil, err
		}
		src, _, err := prompt.Override(override, name, string(def))
		if err != nil {
			return nil, fmt.Errorf("critic: %w", err)
		}
		if _, err := root.New(name).Option("missingkey=error").Parse(src); err != nil {
			return nil, fmt.Errorf("critic: prompt %s: %w", name, err)
		}
	}
	return root, nil
}

// promptData is what the templates see.
type promptData struct {
	Mode            Mode
	Strategy        StrategyID
	Title           string
	Path            string
	Criticality     Criticality
	Vector          *Vector
	Iteration       int
	Threshold       float64
	Rubric          Rubric
	Principles      []Principle
	Artifact        string // numbered lines
	ArtifactBegin   string
	ArtifactEnd     string
	PipelineContext string
	ContextBegin    string
	ContextEnd      string
	Error           string
}

// fence returns BEGIN/END marker lines for untrusted text. The label
// carries a hash of the text, so the text cannot contain its own end
// marker except by finding a hash fixed point.
func fence(label, text string) (begin, end string) {
	sum := sha256.Sum256([]byte(text))
	tag := hex.EncodeToString(sum[:6])
	return fmt.Sprintf("-----BEGIN UNTRUSTED %s %s-----", label, tag), fmt.Sprintf("-----END UNTRUSTED %s %s-----", label, tag)
}

func numbered(d *document) string {
	var b strings.Builder
	for i, l := range d.lines {
		fmt.Fprintf(&b, "%4d | %s\n", i+1, l)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func (e *ModelEngine) render(name string, data promptData) (string, error) {
	var b bytes.Buffer
	if err := e.tmpl.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("critic: prompt %s: %w", name, err)
	}
	return strings.TrimSpace(b.String()), nil
}

// Critique implements [Engine].
func (e *ModelEngine) Critique(ctx context.Context, req ModeRequest) (*ModeOutput, error) {
	name := string(req.Mode) + ".tmpl"
	if e.tmpl.Lookup(name) == nil {
		return nil, fmt.Errorf("%w: no prompt for %s", ErrModeUnavailable, req.Mode)
	}
	doc := parseDocument(req.Artifact.Content)
	data := promptData{Mode: req.Mode, Strategy: req.Mode.Strategy(), Title: req.Mode.Title(), Path: req.Artifact.Path,
		Criticality: req.Criticality, Iteration: max(req.Iteration, 1), Threshold: req.Threshold, Rubric: req.Rubric,
		Principles: req.Constitution, Artifact: numbered(doc), PipelineContext: strings.TrimSpace(req.PipelineContext)}
	if req.Vector != (Vector{}) {
		v := req.Vector
		data.Vector = &v
	}
	if len(req.Prior) == 0 {
		data.PipelineContext = ""
	}
	data.ArtifactBegin, data.ArtifactEnd = fence("ARTIFACT", data.Artifact)
	data.ContextBegin, data.ContextEnd = fence("PIPELINE CONTEXT", data.PipelineContext)

	system, err := e.render("system.tmpl", data)
	if err != nil {
		return nil, err
	}
	shared, err := e.render("artifact.tmpl", data)
	if err != nil {
		return nil, err
	}
	instruction, err := e.render(name, data)
	if err != nil {
		return nil, err
	}
	// The artifact goes first: every mode of the pipeline shares it. It is
	// marked for prompt caching only when long enough for a vendor to
	// cache it — below that the mark buys nothing.
	first := provider.Message{Role: provider.RoleUser, Content: shared}
	first.Cache = provider.Cacheable(system, first)
	base := provider.Request{Model: e.model, System: system, MaxTokens: e.maxTokens, Temperature: e.temperature,
		Messages: []provider.Message{first, {Role: provider.RoleUser, Content: instruction}},
		Schema:   replySchema(req.Mode),
		Tags: map[string]string{provider.TagStep: "critic", provider.TagRole: string(req.Mode),
			TagStrategy: string(req.Mode.Strategy()), TagIteration: strconv.Itoa(data.Iteration)},
	}

	// One retry per call, as the error matrix has it (llmjson.Call):
	// after an invalid reply with the problem, after a retryable error as
	// it was; never after authentication, an invalid request or a
	// refusal. Reasoning blocks — and any draft inside them — are removed
	// and the finish reason checked before the reply is decoded.
	var r result
	res, err := llmjson.Call(ctx, e.p, base.WithTag(provider.TagAttempt, "1"),
		func(text string) error {
			var verr error
			r, verr = decodeReply(text, req, doc)
			return verr
		},
		func(problem error) (string, error) {
			data.Error = problem.Error()
			return e.render("retry.tmpl", data)
		})
	switch {
	case err == nil:
	case res.Unusable:
		return nil, &ReplyError{Mode: req.Mode, Attempts: res.Attempts, Err: err, Usage: res.Usage}
	case res.Attempts > 1:
		return nil, &llmjson.SpentError{Usage: res.Usage, Err: fmt.Errorf("critic: %s retry: %w", req.Mode, err)}
	default:
		return nil, &llmjson.SpentError{Usage: res.Usage, Err: fmt.Errorf("critic: %s: %w", req.Mode, err)}
	}
	out := newOutput(req.Mode, r)
	out.Usage = res.Usage
	return out, nil
}

var reFenced = regexp.MustCompile("(?s)```[ \t]*([A-Za-z]*)[ \t]*\r?\n(.*?)```")

// extractJSON returns the reply's last fenced json block, else its last
// fenced block of any kind, else the reply itself when it is a bare JSON
// object.
func extractJSON(text string) (string, error) {
	blocks := reFenced.FindAllStringSubmatch(text, -1)
	for i := len(blocks) - 1; i >= 0; i-- {
		if strings.EqualFold(blocks[i][1], "json") {
			return blocks[i][2], nil
		}
	}
	if len(blocks) > 0 {
		return blocks[len(blocks)-1][2], nil
	}
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") {
		return t, nil
	}
	return "", errors.New("the reply has no fenced ```json block")
}

// decodeReply parses and validates a reply for the request's mode.
// replySchema is the schema of a mode's reply, from its result type.
// Fields the engine works out itself (an FMEA row's RPN, a principle's
// text and hardness, which come from the constitution) are not required
// of the model.
func replySchema(m Mode) *provider.Schema {
	r := resultFor(m)
	if r == nil {
		return nil
	}
	return llmjson.Schema(strings.ReplaceAll(string(m), " ", "_")+"_result", r, "rpn", "principle", "hard")
}

func decodeReply(text string, req ModeRequest, doc *document) (result, error) {
	raw, err := extractJSON(text)
	if err != nil {
		return nil, err
	}
	r := resultFor(req.Mode)
	if r == nil {
		return nil, fmt.Errorf("%w: %s", ErrModeUnavailable, req.Mode)
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	if err := dec.Decode(r); err != nil {
		return nil, fmt.Errorf("the JSON block does not decode: %v", err)
	}
	if err := r.validate(doc); err != nil {
		return nil, err
	}
	switch v := r.(type) {
	case *ConstitutionalResult:
		if err := v.validatePrinciples(req.Constitution); err != nil {
			return nil, err
		}
	case *JudgeResult:
		if err := v.conform(req.Rubric, req.Threshold); err != nil {
			return nil, err
		}
	}
	return r, nil
}
