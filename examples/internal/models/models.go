package models

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/crucible-go/crucible/provider"
)

// The values --provider accepts.
const (
	Offline   = "offline"
	OpenAI    = "openai"
	Anthropic = "anthropic"
)

// Providers lists the values --provider accepts, the default first.
func Providers() []string { return []string{Offline, Anthropic, OpenAI} }

// Model is one model a provider registers: our id and the upstream name
// sent to the API.
type Model struct {
	ID       string
	Upstream string
	// NoTemperature marks a reasoning model that rejects a sampling
	// temperature at its default effort; the adapter drops it.
	NoTemperature bool
}

// The tables behind Models; read-only.
var (
	anthropicModels = []Model{
		{ID: "opus", Upstream: "claude-opus-5-5"},
		{ID: "sonnet", Upstream: "claude-sonnet-5-5"},
		{ID: "haiku", Upstream: "claude-haiku-5-5"},
	}
	openaiModels = []Model{
		{ID: "gpt52", Upstream: "gpt-5.2"},
		{ID: "gpt55", Upstream: "gpt-5.5"},
		{ID: "gpt54-mini", Upstream: "gpt-5.4-mini", NoTemperature: true},
	}
	defaults = map[string]string{Anthropic: "sonnet", OpenAI: "gpt52"}
)

// Models returns the models registered for a provider name, in a fresh
// slice; none for offline or an unknown name.
func Models(providerName string) []Model {
	switch norm(providerName) {
	case Anthropic:
		return slices.Clone(anthropicModels)
	case OpenAI:
		return slices.Clone(openaiModels)
	}
	return nil
}

// Flags holds the values of --provider and --model.
type Flags struct {
	Provider string
	Model    string
	// CallTimeout bounds every model call when positive; zero lets the
	// pipeline size each call's limit from its output limit.
	CallTimeout time.Duration
	// SectionMerger keeps the deterministic section merger when a
	// provider is given, instead of the model merger.
	SectionMerger bool
}

// RegisterFlags defines --provider (default "offline") and --model on fs
// and returns the Flags their values are parsed into.
func RegisterFlags(fs *flag.FlagSet) *Flags {
	f := &Flags{}
	fs.StringVar(&f.Provider, "provider", Offline,
		"where models come from: "+strings.Join(Providers(), ", ")+" (keys are read from the environment)")
	fs.StringVar(&f.Model, "model", "",
		"default model: an alias (anthropic: opus, sonnet, haiku; openai: gpt52, gpt55, gpt54-mini) or a name the server knows; empty for the provider's default")
	fs.DurationVar(&f.CallTimeout, "call-timeout", 0,
		"limit of each model call (e.g. 3m); 0 sizes each call's limit from the reply it expects")
	fs.BoolVar(&f.SectionMerger, "section-merger", false,
		"with --provider, merge with the deterministic section merger instead of the model merger")
	return f
}

// IsOffline reports whether the flags ask for the offline implementations.
func (f Flags) IsOffline() bool { p := norm(f.Provider); return p == "" || p == Offline }

// DefaultModel returns the model id a run uses when no agent names one:
// --model when set, else the provider's default ("sonnet", "gpt52"), else
// "" for offline.
func (f Flags) DefaultModel() string {
	if f.IsOffline() {
		return ""
	}
	if m := strings.TrimSpace(f.Model); m != "" {
		return m
	}
	return defaults[norm(f.Provider)]
}

// Env looks up an environment variable, as os.LookupEnv does.
type Env func(key string) (string, bool)

// MapEnv is an Env of the given key, value pairs, for tests and hosts
// that configure the commands without a process environment.
func MapEnv(kv ...string) Env {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// Option configures [Open].
type Option func(*config)

type config struct {
	logger     *slog.Logger
	middleware []provider.Middleware
}

// WithLogger sets the adapters' logger (one debug record per call). The
// default discards.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithMiddleware replaces the middleware every registered provider is
// wrapped in, the first outermost. The default is provider.Retry() with
// its defaults (two retries, backoff from 500ms, Retry-After honoured).
func WithMiddleware(mw ...provider.Middleware) Option {
	return func(c *config) { c.middleware = mw }
}

// Adapter builds the provider behind one --provider name from the
// environment (keys, base URLs) and the models to register. It returns an
// error that names the variable a run is missing. The offline build of the
// examples links no adapter; examples/withmodels supplies one per SDK
// adapter, so that the core module compiles no vendor SDK.
type Adapter func(env Env, table []Model, c AdapterConfig) (provider.Provider, error)

// AdapterConfig is what [Open]'s options pass on to an [Adapter]. It holds
// no HTTP client on purpose: naming net/http here would compile it (and
// crypto/tls) into the offline commands, which never dial; an adapter
// that needs one closes over it (see examples/withmodels).
type AdapterConfig struct {
	Logger *slog.Logger // nil: discard
}

// ErrNoAdapter is returned by [Open] when the flags name a provider this
// build has no adapter for.
var ErrNoAdapter = errors.New("this build has no model adapters")

// ModelCommand is the one command that runs an example with a real model:
// the model-enabled build, a module of its own.
const ModelCommand = "go -C examples/withmodels run ."

// Open returns the registry the flags ask for, or nil (and no error) for
// offline, meaning: use the library's offline implementations. adapters
// are the adapters this build links, by provider name; a provider without
// one is an error wrapping [ErrNoAdapter] that names the command to run
// instead.
func Open(f Flags, env Env, adapters map[string]Adapter, opts ...Option) (*provider.Registry, error) {
	cfg := config{middleware: []provider.Middleware{provider.Retry()}}
	for _, o := range opts {
		o(&cfg)
	}
	if f.CallTimeout > 0 {
		// Each attempt, retries included, within --call-timeout.
		cfg.middleware = append(cfg.middleware, provider.Timeout(f.CallTimeout))
	}
	name := norm(f.Provider)
	model := strings.TrimSpace(f.Model)
	if f.IsOffline() {
		if model != "" {
			return nil, fmt.Errorf("--model %q needs --provider %s or %s; the offline implementations use no model", model, Anthropic, OpenAI)
		}
		return nil, nil
	}
	if !slices.Contains(Providers(), name) {
		return nil, fmt.Errorf("unknown --provider %q; want one of %s", f.Provider, strings.Join(Providers(), ", "))
	}
	adapter := adapters[name]
	if adapter == nil {
		return nil, fmt.Errorf("--provider %s: %w (the SDK adapters are modules of their own); run the model-enabled build: %s <command> --provider %s …",
			name, ErrNoAdapter, ModelCommand, name)
	}
	if env == nil {
		env = func(string) (string, bool) { return "", false }
	}
	table := withExtra(Models(name), model)
	p, err := adapter(env, table, AdapterConfig{Logger: cfg.logger})
	if err != nil {
		return nil, err
	}
	p = provider.Chain(p, cfg.middleware...)
	reg := provider.NewRegistry()
	for _, m := range table {
		var aliases []string
		if !strings.EqualFold(m.Upstream, m.ID) {
			aliases = append(aliases, m.Upstream)
		}
		if err := reg.Register(m.ID, p, aliases...); err != nil {
			return nil, fmt.Errorf("models: %w", err)
		}
	}
	return reg, nil
}

// withExtra returns table plus, when model names none of its ids or
// upstream names, an entry that sends model upstream as written.
func withExtra(table []Model, model string) []Model {
	if model == "" {
		return table
	}
	for _, m := range table {
		if strings.EqualFold(m.ID, model) || strings.EqualFold(m.Upstream, model) {
			return table
		}
	}
	return append(slices.Clone(table), Model{ID: model, Upstream: model})
}

func norm(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// ErrValidationOnly is returned by the models of [OfflineRegistry] when
// something calls them: they exist to validate --agents, not to answer.
var ErrValidationOnly = errors.New("offline model registered for --agents validation only; no model is called offline")

// OfflineRegistry returns a registry of the model names the commands
// accept offline for --agents (opus, sonnet, haiku, gpt52, gemini), so that
// a typo is caught ("Unknown model 'llama' in --agents. Available models:
// …") even though the deterministic implementations play every agent.
// Calling one of its models fails with a *provider.Error of kind
// provider.ErrInvalidRequest that wraps [ErrValidationOnly].
func OfflineRegistry() *provider.Registry {
	reg := provider.NewRegistry()
	refuse := provider.Func(func(_ context.Context, req provider.Request) (provider.Response, error) {
		return provider.Response{}, &provider.Error{Kind: provider.ErrInvalidRequest, Provider: Offline, Model: req.Model, Err: ErrValidationOnly}
	})
	for _, m := range []string{"gemini", "gpt52", "haiku", "opus", "sonnet"} {
		// The names are distinct and the registry empty: Register cannot fail.
		_ = reg.Register(m, refuse)
	}
	return reg
}
