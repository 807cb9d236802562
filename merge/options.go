package merge

import (
	"io"
	"log/slog"
	"text/template"
	"time"
)

// Option configures [NewPlan], [Review], [NewSectionMerger] and
// [NewModelMerger]. Each option says which of them it affects; the others
// ignore it.
type Option func(*config)

type config struct {
	clock   func() time.Time
	logger  *slog.Logger
	scanner ContradictionScanner
	topics  TopicMatcher
	model   string
	tmpl    *template.Template
	all     bool
	maxToks int
	// fixedMax says maxToks was set by the host; else it is sized per
	// change.
	fixedMax    bool
	temperature *float64
}

func newConfig(opts []Option) *config {
	c := &config{clock: time.Now, logger: slog.New(slog.NewTextHandler(io.Discard, nil)), model: DefaultModel,
		scanner: RuleScanner{}}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c
}

func (c *config) now() time.Time { return c.clock().UTC() }

// WithClock sets the clock for the plan's approval time and the merge
// date. Default time.Now. For everything that takes options.
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now != nil {
			c.clock = now
		}
	}
}

// WithLogger sets the logger for diagnostics. Default: discard. For
// everything that takes options.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}

// WithScanner sets the contradiction scanner for the post-merge re-scan.
// Default [RuleScanner], the diff step's detectors; nil turns the re-scan
// off, and the merge log says it did not run. For both mergers.
func WithScanner(s ContradictionScanner) Option {
	return func(c *config) { c.scanner = s }
}

// DefaultModel is the model the model merger asks unless [WithModel] says
// otherwise: the merge executor runs on the highest-capability model.
const DefaultModel = "opus"

// WithModel sets the model identifier the model merger sends in its
// requests. Default [DefaultModel]. For the model merger.
func WithModel(id string) Option {
	return func(c *config) {
		if id != "" {
			c.model = id
		}
	}
}

// WithTemplate replaces the model merger's prompt. t must define the
// templates "system" and "change" (see prompts/merge.tmpl for the data
// they receive). Default: [DefaultTemplate]. For the model merger.
func WithTemplate(t *template.Template) Option {
	return func(c *config) { c.tmpl = t }
}

// WithAllChanges makes the model merger send every change to the model,
// not only restructures. Default: only restructures. For the model
// merger.
func WithAllChanges() Option {
	return func(c *config) { c.all = true }
}

// WithMaxTokens caps the length of each model reply at n tokens,
// whatever the change. Default: sized from the change
// ([ChangeMaxTokens]). For the model merger.
func WithMaxTokens(n int) Option {
	return func(c *config) { c.maxToks, c.fixedMax = max(n, 0), true }
}

// WithTemperature sets the sampling temperature of the model merger's
// calls. Default 0: the executor moves and joins text it is given, where
// sampling only adds variation nobody asked for. For the model merger.
func WithTemperature(t float64) Option {
	return func(c *config) { c.temperature = &t }
}

// ChangeMaxTokens is the model merger's default output limit for a change
// whose target and source sections come to text bytes: the reply is the
// rewritten section — at most about the two together, at four bytes a
// token — with its tags, plus 1,024 tokens of slack; at least 2,048 and at
// most 16,384.
func ChangeMaxTokens(text int) int { return min(max((text+3)/4+1024, 2048), 16384) }
