package merge

import (
	"io/fs"
	"log/slog"
	"time"
)

// Option configures [NewPlan], [Review], [NewSectionMerger] and
// [NewModelMerger]. Each option says which of them it affects; the others
// ignore it. Every Option is also a [ModelOption].
type Option interface {
	ModelOption
	apply(*config)
}

// ModelOption configures [NewModelMerger]. The options that only the model
// merger can use (WithModel, WithPrompts, WithAllChanges, WithMaxTokens,
// WithTemperature) are ModelOptions and not Options, so passing one to
// [NewSectionMerger] does not compile.
type ModelOption interface {
	applyModel(*config)
}

// option is an Option; modelOption only a ModelOption.
type (
	option      func(*config)
	modelOption func(*config)
)

func (o option) apply(c *config)           { o(c) }
func (o option) applyModel(c *config)      { o(c) }
func (o modelOption) applyModel(c *config) { o(c) }

type config struct {
	clock   func() time.Time
	logger  *slog.Logger
	scanner ContradictionScanner
	topics  TopicMatcher
	model   string
	prompts fs.FS
	all     bool
	maxToks int
	// fixedMax says maxToks was set by the host; else it is sized per
	// change.
	fixedMax    bool
	temperature *float64
}

func defaultConfig() *config {
	return &config{clock: time.Now, logger: slog.New(slog.DiscardHandler), model: DefaultModel,
		scanner: RuleScanner{}}
}

func newConfig(opts []Option) *config {
	c := defaultConfig()
	for _, o := range opts {
		if o != nil {
			o.apply(c)
		}
	}
	return c
}

func newModelConfig(opts []ModelOption) *config {
	c := defaultConfig()
	for _, o := range opts {
		if o != nil {
			o.applyModel(c)
		}
	}
	return c
}

func (c *config) now() time.Time { return c.clock().UTC() }

// WithClock sets the clock for the plan's approval time and the merge
// date. Default time.Now. For everything that takes options.
func WithClock(now func() time.Time) Option {
	return option(func(c *config) {
		if now != nil {
			c.clock = now
		}
	})
}

// WithLogger sets the logger for diagnostics. Default: discard. For
// everything that takes options.
func WithLogger(l *slog.Logger) Option {
	return option(func(c *config) {
		if l != nil {
			c.logger = l
		}
	})
}

// WithScanner sets the contradiction scanner for the post-merge re-scan.
// Default [RuleScanner], the diff step's detectors; nil turns the re-scan
// off, and the merge log says it did not run. For both mergers.
func WithScanner(s ContradictionScanner) Option {
	return option(func(c *config) { c.scanner = s })
}

// DefaultModel is the model the model merger asks unless [WithModel] says
// otherwise: the merge executor runs on the highest-capability model.
const DefaultModel = "opus"

// WithModel sets the model identifier the model merger sends in its
// requests. Default [DefaultModel]. For the model merger.
func WithModel(id string) ModelOption {
	return modelOption(func(c *config) {
		if id != "" {
			c.model = id
		}
	})
}

// WithPrompts overrides the model merger's prompt: a file merge.tmpl in
// fsys replaces the embedded one (prompts/merge.tmpl). It must define the
// templates "system", "change" and "retry" (see the embedded file for the
// data they receive). For the model merger.
func WithPrompts(fsys fs.FS) ModelOption {
	return modelOption(func(c *config) { c.prompts = fsys })
}

// WithAllChanges makes the model merger send every change to the model,
// not only restructures. Default: only restructures. For the model
// merger.
func WithAllChanges() ModelOption {
	return modelOption(func(c *config) { c.all = true })
}

// WithMaxTokens caps the length of each model reply at n tokens,
// whatever the change. Default: sized from the change
// ([ChangeMaxTokens]). For the model merger.
func WithMaxTokens(n int) ModelOption {
	return modelOption(func(c *config) { c.maxToks, c.fixedMax = max(n, 0), true })
}

// WithTemperature sets the sampling temperature of the model merger's
// calls. Default 0: the executor moves and joins text it is given, where
// sampling only adds variation nobody asked for. For the model merger.
func WithTemperature(t float64) ModelOption {
	return modelOption(func(c *config) { c.temperature = &t })
}

// ChangeMaxTokens is the model merger's default output limit for a change
// whose target and source sections come to text bytes: the reply is the
// rewritten section — at most about the two together, at four bytes a
// token — with its tags, plus 1,024 tokens of slack; at least 2,048 and at
// most 16,384.
func ChangeMaxTokens(text int) int { return min(max((text+3)/4+1024, 2048), 16384) }
