package challenge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/crucible-go/crucible/provider/llmjson"
)

// Loop runs the single-adversary challenge loop over one artifact. It is
// safe for concurrent use: each Run keeps its own state.
type Loop struct {
	cfg       Config
	adversary Adversary
	defender  Defender
	decider   Decider
	now       func() time.Time
	logger    *slog.Logger
}

// Option configures a [Loop].
type Option func(*Loop)

// New returns a loop. Defaults: the zero [Config] (disabled, 3 rounds, all
// checkpoints, balanced profile), the [Offline] adversary, [RuleDefender],
// [RuleDecider], time.Now and a logger that discards.
func New(opts ...Option) *Loop {
	l := &Loop{
		adversary: Offline(),
		defender:  RuleDefender{},
		decider:   RuleDecider{},
		now:       time.Now,
		logger:    slog.New(slog.DiscardHandler),
	}
	for _, o := range opts {
		o(l)
	}
	return l
}

// WithConfig sets the configuration; Run validates it.
func WithConfig(c Config) Option { return func(l *Loop) { l.cfg = c } }

// WithAdversary sets the adversary, e.g. a [ModelAdversary]. Nil keeps the
// default.
func WithAdversary(a Adversary) Option {
	return func(l *Loop) {
		if a != nil {
			l.adversary = a
		}
	}
}

// WithDefender sets the host's defender. Nil keeps [RuleDefender].
func WithDefender(d Defender) Option {
	return func(l *Loop) {
		if d != nil {
			l.defender = d
		}
	}
}

// WithDecider sets the host's final decider. Nil keeps [RuleDecider].
func WithDecider(d Decider) Option {
	return func(l *Loop) {
		if d != nil {
			l.decider = d
		}
	}
}

// WithClock sets the clock that stamps the outcome. Nil keeps time.Now.
func WithClock(now func() time.Time) Option {
	return func(l *Loop) {
		if now != nil {
			l.now = now
		}
	}
}

// WithLogger sets the logger for diagnostics. Nil keeps the default.
func WithLogger(lg *slog.Logger) Option {
	return func(l *Loop) {
		if lg != nil {
			l.logger = lg
		}
	}
}

// Input is one artifact to challenge.
type Input struct {
	Type ArtifactType
	// Name names the artifact for people and the log ("PLAN.md").
	Name string
	// Artifact is the Markdown text.
	Artifact string
	// Context is the project context (what is being built, constraints,
	// core value); optional.
	Context string
}

// Run challenges the artifact: each round the adversary challenges it (or
// raises no objections); below the last round the defender answers and may
// revise it. The debate stops on no objections, on deadlock, or at the
// maximum rounds; if concerns remain then, the decider makes the final
// call. A disabled adversary, or a type outside the checkpoints, skips the
// debate.
//
// The adversary is advisory: Run never blocks the host. It always returns
// an [*Outcome] holding the artifact — revised, or as given — even when it
// also returns an error: invalid input, a failed adversary, defender or
// decider call, or ctx ending (the error then wraps ctx.Err()). The
// outcome's status is then StatusInterrupted and it keeps every round
// completed.
func (l *Loop) Run(ctx context.Context, in Input) (*Outcome, error) {
	o := &Outcome{Type: in.Type, Name: in.Name, Artifact: in.Artifact, Started: l.now().UTC()}
	var led ledger
	artifact := in.Artifact
	fail := func(err error) (*Outcome, error) { return l.interrupt(ctx, o, &led, in.Artifact, artifact, err) }
	if err := l.cfg.Validate(); err != nil {
		return fail(err)
	}
	if !in.Type.Valid() {
		return fail(fmt.Errorf("%w: unknown artifact type %q; want requirements, roadmap, plan or verification", ErrInvalidInput, in.Type))
	}
	o.MaxRounds = l.cfg.Rounds()
	switch {
	case !l.cfg.Enabled:
		return l.skip(o, "adversary disabled")
	case !l.cfg.Checkpoint(in.Type):
		return l.skip(o, fmt.Sprintf("the %s checkpoint is not enabled", in.Type))
	}
	if strings.TrimSpace(in.Artifact) == "" {
		return fail(fmt.Errorf("%w: the artifact is empty", ErrInvalidInput))
	}

	artIdx, ctxIdx := newTextIndex(artifact), newTextIndex(in.Context)
	var prev *Reply
	var prevDefense *Defense
	for r := 1; r <= o.MaxRounds; r++ {
		if err := ctx.Err(); err != nil {
			return fail(fmt.Errorf("challenge: before round %d: %w", r, err))
		}
		req := Request{Type: in.Type, Name: in.Name, Artifact: artifact, Context: in.Context, Round: r, MaxRounds: o.MaxRounds,
			Previous: prev, Defense: prevDefense, Settled: led.settled()}
		got, err := l.adversary.Challenge(ctx, req)
		if err == nil && got == nil {
			err = fmt.Errorf("%w: the adversary returned no reply", ErrInvalidInput)
		}
		if err != nil {
			// A failed round was billed all the same.
			o.Usage = o.Usage.Add(llmjson.Spent(err))
			return fail(fmt.Errorf("challenge: round %d: adversary: %w", r, err))
		}
		reply := got.clone()
		led.receive(r, reply, artIdx, ctxIdx)
		o.Usage = o.Usage.Add(reply.Usage)
		round := Round{Number: r, Reply: reply}
		l.logger.InfoContext(ctx, "adversary round", "type", in.Type, "round", r, "no_objections", reply.NoObjections,
			"challenges", len(reply.Challenges), "status", reply.Convergence.Status)

		switch {
		case reply.NoObjections:
			o.Status = StatusConverged
		case reply.Convergence.Status == Deadlock:
			o.Status = StatusDeadlock
		case r == o.MaxRounds:
			o.Status = StatusMaxRounds
		}
		if o.Status != "" {
			o.Rounds = append(o.Rounds, round)
			break
		}

		d, err := l.defender.Defend(ctx, DefenseRequest{Type: in.Type, Name: in.Name, Artifact: artifact, Context: in.Context,
			Round: r, MaxRounds: o.MaxRounds, Reply: reply.clone(), Challenges: snapshotRound(&led, r)})
		if err == nil {
			err = d.validate(reply)
		}
		if err != nil {
			o.Rounds = append(o.Rounds, round)
			return fail(fmt.Errorf("challenge: round %d: defender: %w", r, err))
		}
		d.Responses = slices.Clone(d.Responses)
		led.defend(r, d)
		if d.Revised != "" && d.Revised != artifact {
			artifact = d.Revised
			artIdx = newTextIndex(artifact)
			round.Revised = true
		}
		round.Defense = &d
		o.Rounds = append(o.Rounds, round)
		prev, prevDefense = reply, &d
	}

	o.Artifact = artifact
	o.Challenges = led.snapshot()
	if rem := led.remaining(); len(rem) > 0 && (o.Status == StatusDeadlock || o.Status == StatusMaxRounds) {
		dec, err := l.decider.Decide(ctx, DecisionRequest{Type: in.Type, Name: in.Name, Artifact: artifact, Context: in.Context,
			Status: o.Status, Rounds: len(o.Rounds), MaxRounds: o.MaxRounds, Remaining: rem, Last: o.Rounds[len(o.Rounds)-1].Reply.clone()})
		if err != nil {
			return fail(fmt.Errorf("challenge: final decision: %w", err))
		}
		if dec.Verdict == "" {
			dec.Verdict = AcceptWithRisks
		}
		if dec.Revised != "" {
			o.Artifact = dec.Revised
		}
		o.Decision = &dec
		l.logger.InfoContext(ctx, "adversary final decision", "type", in.Type, "verdict", dec.Verdict, "rationale", dec.Rationale)
	}
	o.Revised = o.Artifact != in.Artifact
	o.Finished = l.now().UTC()
	return o, nil
}

func (l *Loop) skip(o *Outcome, reason string) (*Outcome, error) {
	o.Status, o.Reason = StatusSkipped, reason
	o.Finished = l.now().UTC()
	return o, nil
}

// interrupt ends a run early, keeping what it did.
func (l *Loop) interrupt(ctx context.Context, o *Outcome, led *ledger, original, artifact string, err error) (*Outcome, error) {
	o.Artifact = artifact
	o.Challenges = led.snapshot()
	o.Revised = artifact != original
	o.Status, o.Error = StatusInterrupted, err.Error()
	o.Finished = l.now().UTC()
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		l.logger.InfoContext(ctx, "adversary review cancelled", "type", o.Type, "rounds", len(o.Rounds))
	} else {
		l.logger.WarnContext(ctx, "adversary review interrupted", "type", o.Type, "rounds", len(o.Rounds), "err", err)
	}
	return o, err
}

func snapshotRound(led *ledger, r int) []Tracked {
	var out []Tracked
	for _, e := range led.round(r) {
		out = append(out, *e)
	}
	return out
}

// clone copies a reply deeply enough that the loop's changes (located
// quotes) never reach the adversary's value.
func (r *Reply) clone() *Reply {
	c := *r
	c.Challenges = slices.Clone(r.Challenges)
	for i := range c.Challenges {
		c.Challenges[i].Quotes = slices.Clone(c.Challenges[i].Quotes)
	}
	c.Assessments = slices.Clone(r.Assessments)
	c.Summary = slices.Clone(r.Summary)
	return &c
}
