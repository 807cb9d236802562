package adversarial

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"text/template"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/prompt"
	"github.com/crucible-go/crucible/internal/words"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/llmjson"
)

// GenerateRequest is one Mode B variant to generate.
type GenerateRequest struct {
	Index  int              // 1-based position among the agents
	Type   string           // the artifact type: "roadmap", "spec", "design", …
	Agent  debate.AgentSpec // who writes it
	Source *diff.Document   // the source material
	Focus  []string         // focus areas of the run
	// Attempt is 1, or 2 for the one retry after a failed or unusable
	// draft; a model generator tags the retry so that caches and fault
	// injectors tell it from the first call.
	Attempt int
}

// Generator writes one Mode B variant from the source. Implementations must
// be safe for concurrent use: the pipeline generates all variants at once.
type Generator interface {
	Generate(ctx context.Context, req GenerateRequest) (string, error)
}

// GeneratorFunc adapts a function to the [Generator] interface.
type GeneratorFunc func(ctx context.Context, req GenerateRequest) (string, error)

// Generate calls f(ctx, req).
func (f GeneratorFunc) Generate(ctx context.Context, req GenerateRequest) (string, error) {
	return f(ctx, req)
}

// ErrInvalidVariant reports a generated variant that is empty or not
// Markdown the pipeline can read.
var ErrInvalidVariant = errors.New("generated variant is not usable Markdown")

//go:embed prompts/generate.tmpl
var generateTemplate string

// ModelGenerator generates variants through a model, with the package's
// generation prompt: the agent's persona and instruction, then the source
// inside a fenced block. The model is the agent's model id, looked up by
// the provider (a provider.Registry routes it).
type ModelGenerator struct {
	p           provider.Provider
	tmpl        *template.Template
	prompts     fs.FS
	maxTokens   int
	temperature *float64
}

// Defaults of a [ModelGenerator]'s requests.
const (
	// DefaultGenerateMaxTokens bounds a draft: a full specification or
	// roadmap of a few hundred lines runs to 3–6k tokens; 8,192 leaves room
	// for a long one without letting a runaway reply cost without end.
	DefaultGenerateMaxTokens = 8192
	// DefaultGenerateTemperature samples the drafts moderately: the
	// pipeline wants variants that differ in substance for the debate to
	// weigh, which greedy decoding of the same source works against.
	DefaultGenerateTemperature = 0.7
)

// ModelGeneratorOption configures a [ModelGenerator].
type ModelGeneratorOption func(*ModelGenerator) error

// WithGeneratePrompts overrides the prompt: a file generate.tmpl in fsys
// replaces the embedded one (prompts/generate.tmpl). It must define the
// templates "system" and "user", and may define "context". The data has
// Type, Persona, Expertise, Instruction, Focus and Source. The system
// prompt and "context" should hold what every agent shares (the source):
// they are sent first, the context marked as a cacheable prefix, and
// "user" — the agent's persona and instruction — last.
func WithGeneratePrompts(fsys fs.FS) ModelGeneratorOption {
	return func(g *ModelGenerator) error { g.prompts = fsys; return nil }
}

// WithGenerateMaxTokens caps the length of a generated variant. The
// default is [DefaultGenerateMaxTokens]; 0 leaves it to the provider.
func WithGenerateMaxTokens(n int) ModelGeneratorOption {
	return func(g *ModelGenerator) error { g.maxTokens = max(n, 0); return nil }
}

// WithGenerateTemperature sets the sampling temperature of the drafts.
// The default is [DefaultGenerateTemperature].
func WithGenerateTemperature(t float64) ModelGeneratorOption {
	return func(g *ModelGenerator) error { g.temperature = provider.Temperature(t); return nil }
}

// NewModelGenerator returns a generator that asks models through p.
func NewModelGenerator(p provider.Provider, opts ...ModelGeneratorOption) (*ModelGenerator, error) {
	if p == nil {
		return nil, errors.New("adversarial: NewModelGenerator: nil provider")
	}
	g := &ModelGenerator{p: p, maxTokens: DefaultGenerateMaxTokens, temperature: provider.Temperature(DefaultGenerateTemperature)}
	for _, o := range opts {
		if err := o(g); err != nil {
			return nil, err
		}
	}
	text, _, err := prompt.Override(g.prompts, "generate.tmpl", generateTemplate)
	if err != nil {
		return nil, fmt.Errorf("adversarial: %w", err)
	}
	if g.tmpl, err = prompt.Parse("generate", text); err != nil {
		return nil, fmt.Errorf("adversarial: generation prompt: %w", err)
	}
	if err := prompt.Require(g.tmpl, "generate.tmpl", "system", "user"); err != nil {
		return nil, fmt.Errorf("adversarial: %w", err)
	}
	return g, nil
}

// Generate implements [Generator].
func (g *ModelGenerator) Generate(ctx context.Context, req GenerateRequest) (string, error) {
	persona, expertise := "general-purpose analyst", "a general-purpose analyst"
	if req.Agent.Persona != "" {
		persona = req.Agent.Persona
		expertise = "a " + req.Agent.Persona
		if focus, ok := debate.PersonaFocus(req.Agent.Persona); ok {
			expertise += " (" + focus + ")"
		}
	}
	data := map[string]any{"Type": req.Type, "Persona": persona, "Expertise": expertise,
		"Instruction": req.Agent.Instruction, "Focus": strings.Join(req.Focus, ", "), "Source": req.Source.Source}
	system, err := execute(g.tmpl, "system", data)
	if err != nil {
		return "", err
	}
	user, err := execute(g.tmpl, "user", data)
	if err != nil {
		return "", err
	}
	msgs := []provider.Message{{Role: provider.RoleUser, Content: user}}
	if g.tmpl.Lookup("context") != nil {
		shared, err := execute(g.tmpl, "context", data)
		if err != nil {
			return "", err
		}
		// The source is the same for every agent of the run: first, and
		// marked when long enough for a vendor to cache.
		first := provider.Message{Role: provider.RoleUser, Content: shared}
		first.Cache = provider.Cacheable(system, first)
		msgs = []provider.Message{first, msgs[0]}
	}
	// llmjson.Complete checks the finish reason (a draft cut at the
	// output limit is a fragment, not a variant), removes reasoning
	// blocks and recognises a refusal sentence.
	preq := provider.Request{
		Model: req.Agent.Model, System: system, MaxTokens: g.maxTokens, Temperature: g.temperature,
		Messages: msgs,
		Tags: map[string]string{provider.TagStep: string(StageGenerate), provider.TagRole: "generator",
			provider.TagAgent: req.Agent.String(), provider.TagVariant: fmt.Sprint(req.Index)},
	}
	if req.Attempt >= 2 {
		preq = preq.WithTag(provider.TagAttempt, fmt.Sprint(req.Attempt))
	}
	resp, err := llmjson.Complete(ctx, g.p, preq)
	if err != nil {
		return "", err
	}
	return unwrapMarkdown(resp.Text), nil
}

func execute(t *template.Template, name string, data any) (string, error) {
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("adversarial: prompt %q: %w", name, err)
	}
	return strings.TrimSpace(b.String()), nil
}

// unwrapMarkdown returns the document of a reply. A reply that is a bare
// document is kept as it is: its own code fences are content. Otherwise
// the document is read with llmjson.Markdown (goldmark): the body of its
// ```markdown (or ```md, or unlabelled) wrapper, or the reply from its
// first heading on, with the prose a model writes around it dropped — and
// a code block inside is never taken for the wrapper. A reply with no
// document is returned as it is, for validVariant to reject.
func unwrapMarkdown(s string) string {
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "#") || strings.HasPrefix(t, "---") {
		return s
	}
	if md, ok := llmjson.Markdown(s); ok {
		return strings.TrimSpace(md) + "\n"
	}
	return s
}

// personaKeywords are what each persona looks for first in a source. The
// debate's persona table (debate.PersonaFocus) names the focus; these words
// find it in text.
var personaKeywords = map[string][]string{
	"architect":   {"architecture", "component", "dependency", "design", "interface", "module", "boundary", "scalab"},
	"security":    {"security", "auth", "token", "encrypt", "privacy", "threat", "abuse", "secret", "permission", "personal"},
	"analyzer":    {"requirement", "evidence", "metric", "measure", "consisten", "assumption", "criteria"},
	"frontend":    {"user", "client", "ui", "ux", "accessib", "browser", "mobile", "web"},
	"backend":     {"data", "storage", "database", "api", "consisten", "queue", "integrity", "fault"},
	"performance": {"latency", "throughput", "load", "capacity", "p99", "cache", "cpu", "memory", "scale"},
	"qa":          {"test", "verification", "edge", "failure", "regression", "validation", "error"},
}

// OutlineGenerator is the offline Mode B generator: a deterministic
// baseline that a model replaces. It rewrites the source from the agent's
// persona: the sections that persona cares about first and in full, the
// others condensed to their opening block, and a closing section that
// gathers the source's statements on the persona's concerns. Its drafts
// differ the way personas' drafts differ — in order, emphasis and detail —
// so that the rest of the pipeline has something real to compare, but it
// invents nothing the source does not say.
type OutlineGenerator struct{}

var _ Generator = OutlineGenerator{}

// Generate implements [Generator].
func (OutlineGenerator) Generate(ctx context.Context, req GenerateRequest) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	src := req.Source
	persona := req.Agent.Persona
	if persona == "" {
		persona = "analyzer"
	}
	keys := personaKeywords[persona]
	if keys == nil {
		keys = personaKeywords["analyzer"]
	}
	type ranked struct {
		section int
		score   int
	}
	var tops []ranked
	for _, si := range src.TopLevel() {
		text := strings.ToLower(src.Text(src.Sections[si].Span))
		score := 0
		for _, k := range keys {
			score += strings.Count(text, k)
		}
		tops = append(tops, ranked{si, score})
	}
	sort.SliceStable(tops, func(i, j int) bool { return tops[i].score > tops[j].score })

	var b strings.Builder
	title := src.Title
	if title == "" {
		title = strings.TrimSuffix(src.Name, ".md")
	}
	fmt.Fprintf(&b, "---\ngenerated_by: crucible offline outline generator\nagent: %q\nsource: %q\n---\n", req.Agent.String(), src.Name)
	fmt.Fprintf(&b, "# %s: %s\n\n", titleCase(req.Type), title)
	for _, t := range tops {
		s := src.Sections[t.section]
		fmt.Fprintf(&b, "## %s\n\n", s.Title)
		blocks := src.BlocksIn(s.Span)
		if t.score == 0 && len(blocks) > 1 {
			blocks = opening(blocks) // not this persona's concern: its opening only
		}
		for _, blk := range blocks {
			b.WriteString(src.Text(blk.Span))
			b.WriteString("\n\n")
		}
	}
	var concerns []string
	for _, c := range diff.ExtractClaims(src, 0) {
		low := strings.ToLower(c.Text)
		for _, k := range keys {
			if strings.Contains(low, k) {
				concerns = append(concerns, "- "+strings.Join(strings.Fields(c.Text), " "))
				break
			}
		}
	}
	if len(concerns) > 0 {
		fmt.Fprintf(&b, "## %s Considerations\n\n%s\n", titleCase(persona), strings.Join(concerns, "\n"))
	}
	return b.String(), nil
}

// opening returns a section's first block — or, when it opens with a
// table, the whole table, so no table is cut to its header.
func opening(blocks []diff.Block) []diff.Block {
	n := 1
	if blocks[0].Kind == diff.TableRow {
		for n < len(blocks) && blocks[n].Kind == diff.TableRow && !blocks[n].Header {
			n++
		}
	}
	return blocks[:n]
}

func titleCase(s string) string {
	parts := words.Tokens(s)
	for i, p := range parts {
		parts[i] = strings.ToUpper(p[:1]) + p[1:]
	}
	if len(parts) == 0 {
		return "Artifact"
	}
	return strings.Join(parts, " ")
}
