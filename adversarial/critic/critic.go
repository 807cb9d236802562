package critic

import (
	"log/slog"
	"time"
)

// Critic runs adversarial review pipelines. It is safe for concurrent use;
// per-run state lives in the run.
type Critic struct {
	engine          Engine
	logger          *slog.Logger
	now             func() time.Time
	modeTimeout     time.Duration
	pipelineTimeout time.Duration
	constitution    []Principle
}

// Option configures a [Critic].
type Option func(*Critic)

// DefaultModeTimeout is the time one mode may take; a mode that overruns
// it is flagged incomplete and its partial results are kept.
const DefaultModeTimeout = 60 * time.Second

// New returns a Critic. Defaults: the [Offline] engine, a logger that
// discards, time.Now, a 60-second limit per mode, no limit for the whole
// pipeline and [DefaultConstitution].
func New(opts ...Option) *Critic {
	c := &Critic{
		engine:       Offline(),
		logger:       slog.New(slog.DiscardHandler),
		now:          time.Now,
		modeTimeout:  DefaultModeTimeout,
		constitution: DefaultConstitution(),
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

// WithEngine sets the engine that runs the modes, e.g. a [ModelEngine].
// Nil keeps the default.
func WithEngine(e Engine) Option {
	return func(c *Critic) {
		if e != nil {
			c.engine = e
		}
	}
}

// WithLogger sets the logger for diagnostics. Nil keeps the default.
func WithLogger(l *slog.Logger) Option {
	return func(c *Critic) {
		if l != nil {
			c.logger = l
		}
	}
}

// WithClock sets the clock that stamps results and measures the pipeline
// timeout. Nil keeps time.Now.
func WithClock(now func() time.Time) Option {
	return func(c *Critic) {
		if now != nil {
			c.now = now
		}
	}
}

// WithModeTimeout limits each mode; a mode that runs past it is flagged
// incomplete and the pipeline goes on. Zero or less disables the limit.
func WithModeTimeout(d time.Duration) Option { return func(c *Critic) { c.modeTimeout = d } }

// WithPipelineTimeout is the orchestrator's limit for a whole pipeline: when
// it has passed, the mode in progress completes and the rest are skipped,
// returning partial results. Zero or less disables it.
func WithPipelineTimeout(d time.Duration) Option { return func(c *Critic) { c.pipelineTimeout = d } }

// WithConstitution sets the principles the constitutional mode checks.
// Nil keeps [DefaultConstitution]; an empty, non-nil slice checks none.
func WithConstitution(ps []Principle) Option {
	return func(c *Critic) {
		if ps != nil {
			c.constitution = append([]Principle(nil), ps...)
		}
	}
}
