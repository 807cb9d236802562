package adversarial

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/scoring"
)

// Runner is the pipeline: diff → debate → scoring → plan → merge, with
// every collaborator replaceable. The zero configuration — New() — runs
// entirely offline and deterministically: heuristic advocates, the
// rule-based judge, the section merger, the rule-based contradiction
// detectors and, for Mode B, the outline generator. Give it a provider
// registry and the model-backed implementations to use models instead.
// A Runner is safe for concurrent use by separate runs.
type Runner struct {
	registry *provider.Registry

	advocates      func(debate.AgentSpec) debate.Advocate
	modelAdvocates bool
	defaultAgent   string
	scorer         scoring.Scorer
	judgeModel     string
	merger         merge.Merger
	mergerModel    string
	mergerOpts     []merge.ModelOption
	detectors      []diff.ContradictionDetector
	detectorModel  string
	generator      Generator

	// The host's settings for the model-backed collaborators the
	// pipeline builds on its own metered, limited, timed provider.
	generatorOpts []ModelGeneratorOption
	advocateOpts  []debate.ModelAdvocateOption
	judgeOpts     []scoring.ModelJudgeOption
	detectorOpts  []diff.ModelDetectorOption
	checkpoints   Checkpoints
	observer      Observer
	memory        MemoryHook
	domain        DomainValidator
	memoryBreaker *breaker
	domainBreaker *breaker

	clock        func() time.Time
	logger       *slog.Logger
	concurrency  int
	callTimeout  time.Duration
	fixedTimeout bool // callTimeout set by the host; else CallTimeout per call

	// serialSteps keeps every step's work inside the step: artifacts are
	// rendered when their step finishes and step 3 does not start ahead.
	// The artifacts are the same; only the critical path is longer. Set by
	// the per-step benchmarks, so that each step's time is its own.
	serialSteps bool
}

var _ Pipeline = (*Runner)(nil)

// Option configures a [Runner].
type Option func(*Runner)

// WithRegistry gives the pipeline its models: Mode B generates variants
// through the registry (by each agent's model id), and the model-backed
// collaborators ([WithModelAdvocates], [WithModelJudge], [WithModelMerger],
// [WithModelDetector]) ask through it. Calls are metered per step and per
// agent, observed, limited by [WithConcurrency] and timed out by
// [WithCallTimeout]. Default none: everything offline.
func WithRegistry(reg *provider.Registry) Option { return func(r *Runner) { r.registry = reg } }

// WithAdvocates sets how an advocate is made for a variant from its agent
// spec. Default: the heuristic advocate for every variant.
func WithAdvocates(make func(debate.AgentSpec) debate.Advocate) Option {
	return func(r *Runner) {
		if make != nil {
			r.advocates = make
		}
	}
}

// WithModelAdvocates makes every advocate a model-backed one, asking the
// agent's model through the registry. It needs [WithRegistry].
func WithModelAdvocates() Option { return func(r *Runner) { r.modelAdvocates = true } }

// WithDefaultAgent names the advocate of a Mode A variant when the input
// names none. Default "heuristic" (the offline advocate); with model
// advocates, a model id or agent spec such as "opus".
func WithDefaultAgent(spec string) Option { return func(r *Runner) { r.defaultAgent = spec } }

// WithScorer replaces step 3. Default scoring.New() with the rule-based
// judge (or the model judge of [WithModelJudge]).
func WithScorer(s scoring.Scorer) Option { return func(r *Runner) { r.scorer = s } }

// WithModelJudge judges the rubric with the model through the registry.
func WithModelJudge(model string) Option { return func(r *Runner) { r.judgeModel = model } }

// WithMerger replaces step 5. Default the offline section merger (or the
// model merger of [WithModelMerger]).
func WithMerger(m merge.Merger) Option { return func(r *Runner) { r.merger = m } }

// WithModelMerger merges with the model through the registry, which also
// makes restructure changes possible.
func WithModelMerger(model string) Option { return func(r *Runner) { r.mergerModel = model } }

// WithMergerOptions adds options to the default merger step 5 builds
// (the section merger, or the model merger of [WithModelMerger]) — e.g.
// merge.WithAllChanges() to send every change to the model, not only
// restructures, or merge.WithMaxTokens and merge.WithTemperature. The pipeline's clock and logger come first; these follow.
func WithMergerOptions(opts ...merge.ModelOption) Option {
	return func(r *Runner) { r.mergerOpts = append(r.mergerOpts, opts...) }
}

// WithGeneratorOptions adds options to the model generator Mode B builds
// when no [WithGenerator] is given — e.g. WithGenerateMaxTokens,
// WithGenerateTemperature. The generator still asks through the
// pipeline's provider, so its calls stay metered, limited, timed out
// and watched by the circuit breaker.
func WithGeneratorOptions(opts ...ModelGeneratorOption) Option {
	return func(r *Runner) { r.generatorOpts = append(r.generatorOpts, opts...) }
}

// WithAdvocateOptions adds options to the model advocates of
// [WithModelAdvocates] — e.g. debate.WithAdvocateMaxTokens,
// debate.WithAdvocateTemperature, debate.WithAdvocatePrompts — which the
// pipeline still builds on its own provider (metered, limited, timed
// out, behind the circuit breaker). A host that builds advocates itself
// with [WithAdvocates] gives up those.
func WithAdvocateOptions(opts ...debate.ModelAdvocateOption) Option {
	return func(r *Runner) { r.advocateOpts = append(r.advocateOpts, opts...) }
}

// WithJudgeOptions adds options to the model judge of [WithModelJudge] —
// e.g. scoring.WithJudgeMaxTokens, scoring.WithJudgeTemperature — built,
// like the others, on the pipeline's provider and behind its fallback to
// the rule judge.
func WithJudgeOptions(opts ...scoring.ModelJudgeOption) Option {
	return func(r *Runner) { r.judgeOpts = append(r.judgeOpts, opts...) }
}

// WithDetectorOptions adds options to the model contradiction detector of
// [WithModelDetector], built on the pipeline's provider.
func WithDetectorOptions(opts ...diff.ModelDetectorOption) Option {
	return func(r *Runner) { r.detectorOpts = append(r.detectorOpts, opts...) }
}

// WithDetectors replaces the contradiction detectors of step 1. Default
// the rule-based ones (diff.RuleDetector).
func WithDetectors(ds ...diff.ContradictionDetector) Option {
	return func(r *Runner) { r.detectors = ds }
}

// WithModelDetector adds a model-backed contradiction detector, asking the
// model through the registry, beside the rule-based one.
func WithModelDetector(model string) Option { return func(r *Runner) { r.detectorModel = model } }

// WithGenerator sets how Mode B variants are generated. Default: through
// the models with the package's generation prompt ([ModelGenerator]) when
// a registry is set, else the offline [OutlineGenerator].
func WithGenerator(g Generator) Option { return func(r *Runner) { r.generator = g } }

// WithCheckpoints sets the host's interactive checkpoints, consulted for
// an Input with Interactive set. Default [AutoCheckpoints].
func WithCheckpoints(c Checkpoints) Option {
	return func(r *Runner) {
		if c != nil {
			r.checkpoints = c
		}
	}
}

// WithObserver receives step and model-call events. Default none.
func WithObserver(o Observer) Option { return func(r *Runner) { r.observer = o } }

// WithMemory persists each run's outcome. Default none.
func WithMemory(m MemoryHook) Option { return func(r *Runner) { r.memory = m } }

// WithDomainValidator checks merged documents against their artifact
// type's conventions. Default none.
func WithDomainValidator(v DomainValidator) Option { return func(r *Runner) { r.domain = v } }

// WithClock sets the clock for timestamps in the artifacts. Default
// time.Now; fix it for byte-identical artifacts across runs.
func WithClock(now func() time.Time) Option {
	return func(r *Runner) {
		if now != nil {
			r.clock = now
		}
	}
}

// WithLogger sets the logger for diagnostics. Default: discard.
func WithLogger(l *slog.Logger) Option {
	return func(r *Runner) {
		if l != nil {
			r.logger = l
		}
	}
}

// WithConcurrency bounds the model calls and advocates running at once.
// Default 4.
func WithConcurrency(n int) Option { return func(r *Runner) { r.concurrency = max(n, 1) } }

// WithCallTimeout bounds every model call at d, whatever its reply's
// length. Zero or less disables the limit. Default: sized per call by
// [CallTimeout] from the request's output limit. A call that times out
// is retried once like any retryable failure and counts towards the
// reasoning circuit breaker; the whole run's budget is the host's
// context.
func WithCallTimeout(d time.Duration) Option {
	return func(r *Runner) { r.callTimeout, r.fixedTimeout = d, true }
}

// Figures behind [CallTimeout].
const (
	// SlowTokensPerSecond is the output speed the default timeouts allow
	// for: a slow model under load. Fast ones write 60–150 tokens/s.
	SlowTokensPerSecond = 30
	// FirstTokenAllowance is the time a model may take to read a long
	// prompt (the variants, the analysis) before it writes anything.
	FirstTokenAllowance = 60 * time.Second
	// unlimitedReplyTimeout is the limit of a call that sets no output
	// limit of its own.
	unlimitedReplyTimeout = 10 * time.Minute
)

// CallTimeout is the default limit of a model call whose reply may run to
// maxTokens: [FirstTokenAllowance], plus the whole reply written at
// [SlowTokensPerSecond], plus a fifth for margin — e.g. 224 s for the
// judge's 4,096 tokens, 388 s for a draft's 8,192. A call without an
// output limit gets 10 minutes. A retry whose limit was doubled after a
// truncated reply gets the time the larger reply needs.
//
// A fixed 30 s limit, as a circuit breaker for an auxiliary reasoning
// service consulted in steps 2–4 might use, is far too short for a model
// writing thousands of tokens, which takes minutes at a slow model's
// speed. Crucible calls no such service: its reasoning breaker counts
// failed model calls, each under this limit.
func CallTimeout(maxTokens int) time.Duration {
	if maxTokens <= 0 {
		return unlimitedReplyTimeout
	}
	write := time.Duration(maxTokens) * time.Second / SlowTokensPerSecond
	return FirstTokenAllowance + write + write/5
}

// New returns a pipeline. See [Runner] for the defaults.
func New(opts ...Option) *Runner {
	r := &Runner{
		defaultAgent: "heuristic",
		checkpoints:  AutoCheckpoints{},
		clock:        time.Now,
		logger:       slog.New(slog.DiscardHandler),
		concurrency:  4,
	}
	for _, o := range opts {
		if o != nil {
			o(r)
		}
	}
	r.memoryBreaker = &breaker{name: "memory hook", threshold: 4, timeout: 45 * time.Second}
	r.domainBreaker = &breaker{name: "domain validator", threshold: 5, timeout: 60 * time.Second}
	return r
}

// timeouts is the per-call time limit middleware.
func (r *Runner) timeouts() provider.Middleware {
	if r.fixedTimeout {
		return provider.Timeout(r.callTimeout)
	}
	return provider.TimeoutFor(func(req provider.Request) time.Duration { return CallTimeout(req.MaxTokens) })
}

// ErrNoRegistry reports a model-backed collaborator configured without
// the provider registry it needs.
var ErrNoRegistry = errors.New("model-backed collaborators need a provider registry (adversarial.WithRegistry)")

// ErrInvalidConfig is matched by every error [Runner.Validate] returns
// for a setting that cannot work: a model the registry does not know, an
// agent spec that does not parse.
var ErrInvalidConfig = errors.New("invalid pipeline configuration")

// Validate reports a configuration that cannot run, before any input is
// given: model-backed collaborators without a registry ([ErrNoRegistry]),
// models the registry does not know and a default agent that does not
// parse ([ErrInvalidConfig]). Run calls it first, so a host that builds a
// Runner at start-up can call it there and fail early; a nil error means
// every configured collaborator can be built.
func (r *Runner) Validate() error {
	var errs []error
	var models []string
	if r.modelAdvocates {
		models = append(models, "model advocates")
	}
	for _, m := range []struct{ option, model string }{
		{"WithModelJudge", r.judgeModel}, {"WithModelMerger", r.mergerModel}, {"WithModelDetector", r.detectorModel},
	} {
		if m.model == "" {
			continue
		}
		models = append(models, m.option+"("+strconv.Quote(m.model)+")")
		if r.registry != nil && !r.registry.Has(m.model) {
			errs = append(errs, fmt.Errorf("%w: %s: the registry has no model %q (it has %s)",
				ErrInvalidConfig, m.option, m.model, strings.Join(r.registry.Names(), ", ")))
		}
	}
	if len(models) > 0 && r.registry == nil {
		errs = append(errs, fmt.Errorf("%w: %s", ErrNoRegistry, strings.Join(models, ", ")))
	}
	if r.defaultAgent != "" {
		spec, err := debate.ParseAgentSpec(r.defaultAgent)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("%w: WithDefaultAgent(%q): %w", ErrInvalidConfig, r.defaultAgent, err))
		case r.modelAdvocates && r.registry != nil && r.defaultAgent != "heuristic" && !r.registry.Has(spec.Model):
			errs = append(errs, fmt.Errorf("%w: WithDefaultAgent(%q): the registry has no model %q",
				ErrInvalidConfig, r.defaultAgent, spec.Model))
		}
	}
	return errors.Join(errs...)
}

// Run implements [Pipeline].
func (r *Runner) Run(ctx context.Context, in Input) (*Result, error) {
	x, err := r.prepare(ctx, in)
	if err != nil {
		return nil, err
	}
	x.execute(ctx)
	x.stopPreparing()
	x.finish(ctx)
	if err := ctx.Err(); err != nil {
		return x.res, fmt.Errorf("adversarial: run cut short: %w", err)
	}
	if x.failed && x.cause != nil {
		return x.res, &RunError{Stage: x.res.FailureStage, Err: x.cause}
	}
	return x.res, nil
}

func (r *Runner) event(ctx context.Context, e Event) {
	if r.observer != nil {
		r.observer.Observe(ctx, e)
	}
}
