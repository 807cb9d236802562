package adversarial

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/scoring"
)

// Checkpoints are the protocol's interactive decision points (after the
// diff analysis, the debate, the scoring and the refactoring plan), which a
// host implements (on a terminal, in a UI). The pipeline consults them only for
// an Input with Interactive set; every override is recorded in the
// artifact it affects as "Approval: user-overridden".
type Checkpoints interface {
	// AfterDiff may return the diff points to debate — the user's priority
	// areas; nil debates them all.
	AfterDiff(ctx context.Context, a *diff.Analysis) (points []string, err error)
	// AfterDebate may return unresolved points the user marks resolved,
	// overriding the computed convergence; nil accepts it.
	AfterDebate(ctx context.Context, d *debate.Result) (resolved []string, err error)
	// AfterScoring may return the label of another base variant; ""
	// accepts the selection.
	AfterScoring(ctx context.Context, card *scoring.Scorecard) (base string, err error)
	// AfterPlan may return a modified plan; nil approves it as it is.
	AfterPlan(ctx context.Context, plan merge.Plan) (*merge.Plan, error)
}

// AutoCheckpoints accepts every decision: the non-interactive default,
// and a base to embed when a host overrides only some checkpoints.
type AutoCheckpoints struct{}

var _ Checkpoints = AutoCheckpoints{}

// AfterDiff implements [Checkpoints].
func (AutoCheckpoints) AfterDiff(context.Context, *diff.Analysis) ([]string, error) { return nil, nil }

// AfterDebate implements [Checkpoints].
func (AutoCheckpoints) AfterDebate(context.Context, *debate.Result) ([]string, error) {
	return nil, nil
}

// AfterScoring implements [Checkpoints].
func (AutoCheckpoints) AfterScoring(context.Context, *scoring.Scorecard) (string, error) {
	return "", nil
}

// AfterPlan implements [Checkpoints].
func (AutoCheckpoints) AfterPlan(context.Context, merge.Plan) (*merge.Plan, error) { return nil, nil }

// EventKind says what an [Event] reports.
type EventKind string

// Kinds of [Event].
const (
	StepStarted  EventKind = "step-started"
	StepFinished EventKind = "step-finished"
	StepSkipped  EventKind = "step-skipped"
	// StepFailed closes a started step that failed; Err says why.
	StepFailed EventKind = "step-failed"
	ModelCall  EventKind = "model-call"
)

// Event is progress a host can show: a step starting, finishing or being
// skipped, or one model call with its usage.
type Event struct {
	Kind EventKind
	Step Stage // StageDiff, StageDebate, …
	// Detail says what happened in a line: why a step was skipped, what a
	// step produced.
	Detail string
	// For model calls: the agent, the usage and how long it took.
	Agent    string
	Usage    provider.Usage
	Duration time.Duration
	Err      error
}

// Observer receives a run's events as they happen, each with the context
// it happened in: a step's events carry the step's context (see
// [StepTracer]), a model call's the call's. Every StepStarted is closed by
// exactly one StepFinished or StepFailed. An Observer must be safe for
// concurrent use: model calls of round 1 report from several goroutines.
// It must not block for long; the run waits for it.
type Observer interface {
	Observe(ctx context.Context, e Event)
}

// ObserverFunc adapts a function to the [Observer] interface.
type ObserverFunc func(context.Context, Event)

// Observe calls f(ctx, e).
func (f ObserverFunc) Observe(ctx context.Context, e Event) { f(ctx, e) }

// StepTracer is an optional extension of an [Observer]: StartStep returns
// the context a step's work runs in — the model calls it makes, the
// step's own events — so a tracer can open a span there and parent the
// model calls' spans on it. It is called just before the StepStarted
// event; the span ends with the step's StepFinished or StepFailed event,
// whose context is the one StartStep returned.
type StepTracer interface {
	StartStep(ctx context.Context, step Stage) context.Context
}

// MemoryRecord is what the memory hook persists after a run: its
// configuration, outcome, scores and the errors met, for learning across
// sessions.
type MemoryRecord struct {
	Mode        Mode               `json:"mode"`
	Depth       debate.Depth       `json:"depth"`
	Convergence float64            `json:"convergence"`
	Variants    []string           `json:"variants"`
	Status      Status             `json:"status"`
	Base        string             `json:"base,omitempty"`
	Scores      map[string]float64 `json:"scores,omitempty"`
	Unresolved  []string           `json:"unresolved,omitempty"`
	Errors      []string           `json:"errors,omitempty"`
	At          time.Time          `json:"at"`
}

// MemoryHook persists a run's outcome. Optional; a failing or slow hook
// never fails the run: after 4 failures or calls longer than 45 s the
// pipeline stops calling it and notes a warning.
type MemoryHook interface {
	Remember(ctx context.Context, rec MemoryRecord) error
}

// DomainFinding is a problem a domain validator reports in the merged
// document.
type DomainFinding struct {
	Message string `json:"message"`
	Section string `json:"section,omitempty"`
}

// DomainValidator checks the merged document against the conventions of
// its artifact type (a roadmap's structure, the usual practice of the
// generated type). Optional; its findings become warnings. After 5 failures
// or calls longer than 60 s the pipeline skips it and relies on the
// structural checks alone.
type DomainValidator interface {
	Validate(ctx context.Context, artifactType string, doc *diff.Document) ([]DomainFinding, error)
}

// breaker stops calling an optional service after it has failed too often
// or been too slow, so that an optional host service that is down costs a
// run a warning rather than its time.
type breaker struct {
	name      string
	threshold int
	timeout   time.Duration

	mu       sync.Mutex
	failures int
}

// call runs fn under the breaker's timeout. It reports whether the breaker
// is open (the service is no longer called) and fn's error.
func (b *breaker) call(ctx context.Context, fn func(context.Context) error) (open bool, err error) {
	b.mu.Lock()
	if b.failures >= b.threshold {
		b.mu.Unlock()
		return true, nil
	}
	b.mu.Unlock()
	cctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	err = fn(cctx)
	if err != nil && ctx.Err() == nil {
		b.mu.Lock()
		b.failures++
		b.mu.Unlock()
		if cctx.Err() != nil {
			err = fmt.Errorf("%s: no answer within %s: %w", b.name, b.timeout, err)
		}
	}
	return false, err
}

// reasoning is the reasoning-capacity circuit breaker: three
// consecutive failed or timed-out model calls in the debate or scoring
// steps lower the debate depth by one level (deep → standard → quick)
// instead of failing the run. It is provider middleware; the debate reads
// the current depth after each round.
//
// "Consecutive" is counted in the order of the logical calls — step,
// round, pass, variant, role, attempt, request — never in the order the
// concurrent calls of round 1 happen to finish, so whether the breaker
// trips depends on which calls failed, not on goroutine timing: the same
// run with the same replies trips it the same way, alone or beside other
// runs. The depth is worked out afresh from every call recorded when it is
// read (the debate reads it between rounds, when the calls of the round
// have all returned) and never rises again once lowered.
type reasoning struct {
	threshold int
	initial   debate.Depth

	mu       sync.Mutex
	depth    debate.Depth
	outcomes []callOutcome
	notes    []string
}

// callOutcome is one model call the breaker counts.
type callOutcome struct {
	key    string
	failed bool
	cause  string
}

func newReasoning(d debate.Depth) *reasoning {
	return &reasoning{threshold: 3, initial: d, depth: d}
}

// current returns the depth after the calls recorded so far.
func (r *reasoning) current() debate.Depth {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evaluate()
	return r.depth
}

func (r *reasoning) wrap(next provider.Provider) provider.Provider {
	return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
		resp, err := next.Complete(ctx, req)
		step := Stage(req.Tag(provider.TagStep))
		if step != StageDebate && step != StageScoring {
			return resp, err
		}
		if err != nil && ctx.Err() != nil {
			return resp, err // the caller's cancellation is no model failure
		}
		o := callOutcome{key: logicalKey(req), failed: err != nil}
		if err != nil {
			o.cause = err.Error()
		}
		r.mu.Lock()
		r.outcomes = append(r.outcomes, o)
		r.mu.Unlock()
		return resp, err
	})
}

// logicalKey orders a call among the others by what it is, not when it
// finished.
func logicalKey(req provider.Request) string {
	stepOrder := map[Stage]string{StageDebate: "1", StageScoring: "2"}[Stage(req.Tag(provider.TagStep))]
	return strings.Join([]string{stepOrder, req.Tag(provider.TagRound), req.Tag(scoring.TagPass), req.Tag(provider.TagVariant),
		req.Tag(provider.TagRole), req.Tag(provider.TagAttempt), provider.Key(req)}, "|")
}

// evaluate works the depth out from every recorded call in logical order.
// r.mu is held.
func (r *reasoning) evaluate() {
	calls := slices.Clone(r.outcomes)
	// The same request twice is a call and its retry: the failure came
	// first, or there would have been no retry.
	slices.SortStableFunc(calls, func(a, b callOutcome) int {
		if c := strings.Compare(a.key, b.key); c != 0 {
			return c
		}
		switch {
		case a.failed && !b.failed:
			return -1
		case b.failed && !a.failed:
			return 1
		}
		return 0
	})
	depth, run := r.initial, 0
	var notes []string
	for _, c := range calls {
		if !c.failed {
			run = 0
			continue
		}
		if run++; run < r.threshold {
			continue
		}
		run = 0
		to := lowerDepth(depth)
		if to == depth {
			continue
		}
		notes = append(notes, fmt.Sprintf("Reasoning circuit breaker: %d consecutive model failures (last: %s); depth reduced %s → %s",
			r.threshold, c.cause, depth, to))
		depth = to
	}
	if depth.MaxRounds() < r.depth.MaxRounds() {
		r.depth, r.notes = depth, notes
	}
}

func lowerDepth(d debate.Depth) debate.Depth {
	switch d {
	case debate.DepthDeep:
		return debate.DepthStandard
	case debate.DepthStandard:
		return debate.DepthQuick
	}
	return d
}

func (r *reasoning) log() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evaluate()
	return append([]string(nil), r.notes...)
}
