package debate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/llmjson"
)

// Input is what one debate works on.
type Input struct {
	// Variants are the variants to debate, 2–10, in the analysis's order;
	// each label must be a variant of Analysis. A subset of the analysed
	// variants may be debated (as elimination rounds do).
	Variants []Variant
	// Advocates holds one advocate per variant, in the same order.
	Advocates []Advocate
	Analysis  *diff.Analysis
	// Depth is quick, standard or deep; empty means standard. Any other
	// value is an error matching [ErrInvalidInput].
	Depth Depth
	// Threshold is the convergence threshold, 0.50–0.99; zero means 0.80.
	// A value out of range is an error matching [ErrInvalidInput].
	Threshold float64
	// Focus are the focus areas passed to the advocates; empty means all.
	Focus []string
	// Points restricts the debate to these diff point ids (an interactive
	// checkpoint's priorities); nil means every point of the analysis.
	// Points left out appear in the scoring matrix as not debated.
	Points []string
}

// Option configures [Run].
type Option func(*config)

type config struct {
	limit      int
	logger     *slog.Logger
	depthLimit func() Depth
	// shared is the memo of an orchestrated run, the parent of each of
	// its debates' memos; nil for a single debate.
	shared *memo
	// validateOnly makes newDebate check the input and select the points
	// without judging which are contested: the orchestrator's check of
	// the whole input, whose debates judge their own.
	validateOnly bool
	// eliminations, in an orchestrated run's elimination rounds, opens
	// when every group has handed round 1's turns to its advocates: the
	// groups' background work waits for it (see firstTurns).
	eliminations *firstTurns
}

// WithConcurrency bounds how many advocates speak at once in round 1.
// The default, 0, lets all of them.
func WithConcurrency(n int) Option {
	return func(c *config) { c.limit = max(n, 0) }
}

// WithLogger sets the logger for round skips, termination and agent
// failures. The default discards.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}

// WithDepthLimit lets the host lower the depth while the debate runs — a
// circuit breaker that sees the provider failing, say. limit is called
// after every round; when it returns a shallower depth than the debate's,
// the debate continues at that depth (never deeper than configured), notes
// the reduction among its warnings, and logs the skipped rounds with the
// new depth. The default is no limit.
func WithDepthLimit(limit func() Depth) Option {
	return func(c *config) { c.depthLimit = limit }
}

// ErrInvalidInput matches a [Input] the engine cannot run.
var ErrInvalidInput = errors.New("invalid debate input")

// Run runs step 2 and returns its result: the debate's rounds, the
// scoring matrix, convergence and why it stopped.
//
// With fewer than [OrchestratorThreshold] variants it is one debate: round
// 1 with every advocate in parallel, round 2 (standard and deep) with the
// advocates in input order, each seeing the statements before it and the
// criticisms of its variant, and round 3 (deep, when agreement is still
// under the threshold) on the unresolved points. After each round it
// tallies each advocate's preferred variant per point and stops on
// unanimity, a stable majority, oscillation or the depth's last round. It
// then builds the scoring matrix. From [OrchestratorThreshold] variants
// on, an orchestrator groups similar variants, runs a one-round
// elimination debate in each group (the groups at once) and debates the
// finalists; the result is the final debate's, its Log documenting the
// groups and eliminations.
//
// An advocate whose turn fails (an error, a panic or an invalid statement)
// is retried once; if it fails again the debate continues without it. When
// fewer than 2 advocates remain, or ctx ends, Run returns an [*Error]
// holding what was completed. An input the engine cannot run is an error
// matching [ErrInvalidInput] (or diff.ErrTooFewVariants /
// diff.ErrTooManyVariants), returned before any advocate is asked.
func Run(ctx context.Context, in Input, opts ...Option) (*Result, error) {
	cfg := config{logger: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(&cfg)
	}
	if len(in.Variants) >= OrchestratorThreshold {
		check := cfg
		check.validateOnly = true
		d, err := newDebate(in, check)
		if err != nil {
			return nil, err
		}
		cfg.shared = &memo{}
		return orchestrate(ctx, in, cfg, d.points)
	}
	return debateOnce(ctx, in, cfg)
}

// debateOnce runs one debate among all of in's variants.
func debateOnce(ctx context.Context, in Input, cfg config) (*Result, error) {
	d, err := newDebate(in, cfg)
	if err != nil {
		return nil, err
	}
	return d.run(ctx)
}

// debate is the state of one run.
type debate struct {
	in     Input
	cfg    config
	depth  Depth
	points []diff.Point
	labels []string
	active []bool
	usage  []AgentUsage
	res    *Result
	rounds int // the depth's maximum
	memo   *memo
	// dropped holds the last error of each advocate dropped after its
	// retry, so a debate that runs out of advocates says why.
	dropped []error
	// contested is open while warmBackground judges the contested
	// points; contestedIDs is its answer, read once contested is closed.
	contested    chan struct{}
	contestedIDs []string
	// first opens when round 1's turns are all handed out.
	first *firstTurns
	// order is each point's place in points (see pointOrder).
	orderOnce sync.Once
	order     map[string]int
}

// firstTurns opens once every one of a set of advocates has been handed
// its first turn. The CPU work a debate does beside its first model calls
// — judging the contested points, measuring the variants, the host's own
// preparation — waits for it: on a machine with few cores, a goroutine
// busy with that work holds a core for a whole time slice, and the
// advocates still to be asked (another group's, in an orchestrated run)
// would wait behind it, each call starting milliseconds late.
type firstTurns struct {
	mu   sync.Mutex
	left map[string]bool
	open chan struct{}
}

func newFirstTurns(labels []string) *firstTurns {
	f := &firstTurns{left: make(map[string]bool, len(labels)), open: make(chan struct{})}
	for _, l := range labels {
		f.left[l] = true
	}
	if len(f.left) == 0 {
		close(f.open)
	}
	return f
}

// asked records that the advocate of label has been handed a turn.
func (f *firstTurns) asked(label string) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.left[label] {
		delete(f.left, label)
		if len(f.left) == 0 {
			close(f.open)
		}
	}
}

// wait returns once every advocate has been asked, or ctx ends.
func (f *firstTurns) wait(ctx context.Context) {
	if f == nil {
		return
	}
	select {
	case <-f.open:
	case <-ctx.Done():
	}
}

func newDebate(in Input, cfg config) (*debate, error) {
	invalid := func(format string, args ...any) error {
		return fmt.Errorf("adversarial: %w: %s", ErrInvalidInput, fmt.Sprintf(format, args...))
	}
	switch n := len(in.Variants); {
	case n < 2:
		return nil, fmt.Errorf("%w, got %d", diff.ErrTooFewVariants, n)
	case n > 10:
		return nil, fmt.Errorf("%w, got %d", diff.ErrTooManyVariants, n)
	}
	if in.Analysis == nil {
		return nil, invalid("no diff analysis")
	}
	if len(in.Advocates) != len(in.Variants) {
		return nil, invalid("%d advocates for %d variants; want one per variant", len(in.Advocates), len(in.Variants))
	}
	res := &Result{Focus: in.Focus}
	d := &debate{in: in, cfg: cfg, res: res, memo: &memo{parent: cfg.shared}}
	last := -1
	for i, v := range in.Variants {
		idx := variantIndex(in.Analysis, v.Label)
		switch {
		case idx < 0:
			return nil, invalid("variant %q is not in the diff analysis", v.Label)
		case idx <= last:
			return nil, invalid("variant %s is out of order or repeated; list variants in the analysis's order", v.Label)
		case v.Doc == nil:
			return nil, invalid("variant %s has no document", v.Label)
		case in.Advocates[i] == nil:
			return nil, invalid("variant %s has no advocate", v.Label)
		}
		last = idx
		d.labels = append(d.labels, v.Label)
		res.Variants = append(res.Variants, Participant{Label: v.Label, Agent: v.Agent, Name: v.Doc.Name})
		d.usage = append(d.usage, AgentUsage{Variant: v.Label, Agent: v.Agent})
		d.active = append(d.active, true)
	}

	depth, threshold := in.Depth, in.Threshold
	if depth == "" {
		depth = DepthStandard
	}
	if depth.MaxRounds() == 0 {
		return nil, invalid("unknown depth %q: quick, standard or deep", in.Depth)
	}
	if !ValidConvergence(threshold) {
		return nil, invalid("convergence threshold %v out of range [0.50, 0.99]", threshold)
	}
	if threshold == 0 {
		threshold = DefaultConvergence
	}
	d.depth, d.rounds = depth, depth.MaxRounds()
	res.Depth, res.Threshold = depth, threshold

	want := map[string]bool{}
	for _, id := range in.Points {
		if _, ok := in.Analysis.Point(id); !ok {
			return nil, invalid("point %q is not in the diff analysis", id)
		}
		want[id] = true
	}
	if in.Points == nil && len(in.Analysis.Points) > 0 {
		// Every point: the analysis's own slice (capacity capped), which
		// the debate only reads, rather than a copy per debate of an
		// orchestrated run; nil stays nil.
		all := in.Analysis.Points
		d.points = all[:len(all):len(all)]
		res.Points = make([]string, 0, len(all))
	}
	for _, p := range in.Analysis.Points {
		switch {
		case in.Points == nil:
			res.Points = append(res.Points, p.ID)
		case want[p.ID]:
			d.points = append(d.points, p)
			res.Points = append(res.Points, p.ID)
		default:
			res.Excluded = append(res.Excluded, p.ID)
		}
	}
	if res.Points == nil {
		res.Points = []string{}
	}
	return d, nil
}

// warmBackground starts, in the background, the debate's work that
// round 1's turns do not wait for, so that its first model calls go out
// at once and the work runs while they are in flight — off the critical
// path, which with an orchestrator would otherwise hold back each
// group's calls, and the final's, by the work on its variants:
//
//   - judging which points are contested: awaitContested takes the
//     answer before anything reads it (the round's tally, an abort, the
//     result);
//   - the heuristic's assessment of the debate's variants on its points,
//     which the turns of heuristic advocates (and of any advocate that
//     falls back on one) read after their model calls.
//
// The returned function waits for the goroutine.
func (d *debate) warmBackground(ctx context.Context) (wait func()) {
	contested, done := make(chan struct{}), make(chan struct{})
	d.contested = contested
	go func() {
		defer close(done)
		// The judging does not stop with ctx (it is bounded, and the
		// result's transcript needs it): ctx only ends the wait.
		d.first.wait(ctx)
		d.cfg.eliminations.wait(ctx)
		d.contestedIDs = contestedPoints(d.in, d.points, d.memo.root())
		close(contested)
		if ctx.Err() == nil {
			debateAssessment(d.turn(1, 0, nil))
		}
	}()
	return func() { <-done }
}

// awaitContested waits for warmBackground to judge the contested points
// and records its answer.
func (d *debate) awaitContested() {
	if d.contested == nil {
		return
	}
	<-d.contested
	d.res.ContestedPoints, d.contested = d.contestedIDs, nil
}

func (d *debate) warn(ctx context.Context, w string) {
	if w != "" {
		d.res.Warnings = append(d.res.Warnings, w)
		d.cfg.logger.WarnContext(ctx, w)
	}
}

func (d *debate) log(ctx context.Context, line string) {
	d.res.Log = append(d.res.Log, line)
	d.cfg.logger.InfoContext(ctx, line)
}

func (d *debate) run(ctx context.Context) (*Result, error) {
	d.first = newFirstTurns(d.labels)
	defer d.warmBackground(ctx)() // no goroutine outlives the debate
	for r := 1; ; r++ {
		var err error
		if r == 1 {
			err = d.parallelRound(ctx)
		} else {
			err = d.sequentialRound(ctx, r)
		}
		if err != nil {
			return nil, d.abort(ctx, r, err)
		}
		d.limitDepth(ctx, r)
		if stop, ok := d.checkStop(r); ok {
			d.res.Stop = stop
			d.cfg.logger.InfoContext(ctx, stop.Log, "round", r)
			d.logSkips(ctx, r)
			break
		}
	}
	d.finish()
	return d.res, nil
}

// limitDepth applies the host's depth limit after round r.
func (d *debate) limitDepth(ctx context.Context, r int) {
	if d.cfg.depthLimit == nil {
		return
	}
	lim := d.cfg.depthLimit()
	if n := lim.MaxRounds(); n > 0 && n < d.rounds {
		d.warn(ctx, fmt.Sprintf("Depth reduced from %s to %s after round %d", d.depth, lim, r))
		d.depth, d.rounds = lim, n
	}
}

// parallelRound runs round 1: every advocate at once, within the
// concurrency limit.
func (d *debate) parallelRound(ctx context.Context) error {
	n := len(d.in.Variants)
	outs := make([]outcome, n)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(cmpOr(d.cfg.limit, n))
	if d.cfg.shared == nil { // an orchestrated run measures all its variants at once
		defer warmMeasures(gctx, d.first, d.memo, d.in, d.points)()
	}
	for i := range n {
		turn := d.turn(1, i, nil)
		g.Go(func() error {
			d.first.asked(d.labels[i])
			d.cfg.eliminations.asked(d.labels[i])
			outs[i] = d.attempt(gctx, i, turn)
			return outs[i].fatal
		})
	}
	err := g.Wait()
	round := Round{Number: 1}
	for i, o := range outs {
		d.record(ctx, &round, i, o)
	}
	d.res.Rounds = append(d.res.Rounds, round)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.closeRound(ctx)
}

// sequentialRound runs round 2 or 3: the active advocates one after
// another in input order, each seeing every statement made before it.
func (d *debate) sequentialRound(ctx context.Context, r int) error {
	d.res.Rounds = append(d.res.Rounds, Round{Number: r})
	round := &d.res.Rounds[len(d.res.Rounds)-1]
	for i := range d.in.Variants {
		if !d.active[i] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		o := d.attempt(ctx, i, d.turn(r, i, d.transcript()))
		d.record(ctx, round, i, o)
		if o.fatal != nil {
			return o.fatal
		}
		if d.activeCount() < 2 {
			return ErrTooFewAdvocates
		}
	}
	return d.closeRound(ctx)
}

// closeRound tallies the round just run, or aborts when fewer than two
// advocates are left.
func (d *debate) closeRound(ctx context.Context) error {
	d.awaitContested()
	round := &d.res.Rounds[len(d.res.Rounds)-1]
	if len(round.Statements) < 2 || d.activeCount() < 2 {
		return ErrTooFewAdvocates
	}
	round.Tallies = tallyRound(d.points, d.labels, round.Statements)
	round.Consensus = consensus(round.Tallies, d.res.contestedSet())
	round.Complete = true
	d.cfg.logger.InfoContext(ctx, "debate round", "round", round.Number, "statements", len(round.Statements),
		"agreed", round.Agreed, "points", len(d.points), "contested_agreed", round.ContestedAgreed,
		"contested", round.Contested, "convergence", round.Convergence)
	return nil
}

// outcome is one advocate's turn after its retry.
type outcome struct {
	st       Statement
	ok       bool
	failures []error // failed attempts
	fatal    error   // the context ended
	fellBack bool    // the heuristic advocate argued the turn the model refused
}

// attempt runs a turn, retrying it once if it fails. It touches only the
// advocate's own usage slot, so round 1's goroutines do not share state.
func (d *debate) attempt(ctx context.Context, i int, turn Turn) outcome {
	var o outcome
	adv, v := d.in.Advocates[i], d.in.Variants[i]
	for try := 1; try <= 2; try++ {
		d.usage[i].Calls++
		turn.Attempt = try
		st, err := safeArgue(ctx, adv, turn)
		var ae *ArgueError
		if err == nil {
			d.usage[i].Usage = d.usage[i].Usage.Add(st.Usage)
			err = ValidateStatement(turn, st)
		} else if errors.As(err, &ae) {
			d.usage[i].Usage = d.usage[i].Usage.Add(ae.Usage)
		}
		if err == nil {
			o.st, o.ok = d.normalise(turn, st), true
			return o
		}
		if ctx.Err() != nil {
			o.fatal = ctx.Err()
			return o
		}
		o.failures = append(o.failures, err)
		d.cfg.logger.WarnContext(ctx, "advocate turn failed", "variant", v.Label, "agent", v.Agent, "round", turn.Round,
			"attempt", try, "err", err)
		if !retryTurn(err) {
			break
		}
	}
	// A refusal is not a failure of the agent: the model declined this
	// turn, and the offline counterpart argues it instead, so the
	// variant keeps its advocate (an error or a timeout still drops it,
	// as the error matrix says).
	if last := o.failures[len(o.failures)-1]; llmjson.Refused(last) {
		if _, isHeuristic := adv.(*HeuristicAdvocate); !isHeuristic {
			st, err := safeArgue(ctx, NewHeuristicAdvocate(), turn)
			if err == nil {
				err = ValidateStatement(turn, st)
			}
			if err == nil {
				o.st, o.ok, o.fellBack = d.normalise(turn, st), true, true
			}
		}
	}
	return o
}

// retryTurn reports whether a failed turn gets the debate's one retry:
// not when the advocate has spent it already ([ArgueError] Final), nor
// after an error no retry can mend (authentication, an invalid request).
func retryTurn(err error) bool {
	var ae *ArgueError
	if errors.As(err, &ae) && ae.Final {
		return false
	}
	var pe *provider.Error
	if errors.As(err, &pe) && !pe.Retryable {
		return false
	}
	return true
}

// record adds an outcome to its round, and any failure to the result.
func (d *debate) record(ctx context.Context, round *Round, i int, o outcome) {
	v := d.in.Variants[i]
	if len(o.failures) > 0 {
		last := o.failures[len(o.failures)-1]
		f := AgentFailure{Variant: v.Label, Agent: v.Agent, Round: round.Number,
			Attempts: len(o.failures) + boolInt(o.ok && !o.fellBack), Error: last.Error(), Recovered: o.ok}
		if o.fellBack {
			f.Fallback = FallbackHeuristic
		}
		d.res.Failures = append(d.res.Failures, f)
	}
	switch {
	case o.ok:
		round.Statements = append(round.Statements, o.st)
	case o.fatal == nil:
		d.active[i] = false
		if len(o.failures) > 0 {
			d.dropped = append(d.dropped, fmt.Errorf("advocate for Variant %s: %w", v.Label, o.failures[len(o.failures)-1]))
		}
		d.cfg.logger.WarnContext(ctx, fmt.Sprintf("Advocate for Variant %s failed after a retry; proceeding with %d advocates", v.Label, d.activeCount()),
			"round", round.Number)
	}
}

func safeArgue(ctx context.Context, adv Advocate, turn Turn) (st Statement, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("advocate panicked: %v", r)
		}
	}()
	return adv.Argue(ctx, turn)
}

// normalise stamps the engine's fields and orders the positions as the
// points are ordered, whatever order the advocate used. What it changes
// it copies first; positions already in order are kept as the advocate
// returned them (see [Advocate]: a statement is the engine's once
// returned), not copied in every turn.
func (d *debate) normalise(turn Turn, st Statement) Statement {
	st.Round, st.Variant, st.Agent = turn.Round, turn.Self.Label, turn.Self.Agent
	if !d.inPointOrder(st.Positions) {
		st.Positions = slices.Clone(st.Positions)
		order := d.pointOrder()
		slices.SortFunc(st.Positions, func(a, b PointPosition) int { return order[a.Point] - order[b.Point] })
	}
	st.Weaknesses = slices.Clone(st.Weaknesses)
	for k := range st.Weaknesses {
		st.Weaknesses[k].From = turn.Self.Label
	}
	st.Responses = slices.Clone(st.Responses)
	for k, r := range st.Responses {
		c := turn.Criticisms[r.Criticism-1] // ValidateStatement checked the index
		st.Responses[k].About = &c
	}
	return st
}

// inPointOrder reports whether positions are one per point of the debate,
// in the points' order: what the sort in normalise would leave as it is
// (the points' ids are distinct), and what an advocate that answers point
// by point writes.
func (d *debate) inPointOrder(positions []PointPosition) bool {
	if len(positions) != len(d.points) {
		return false
	}
	for i := range positions {
		if positions[i].Point != d.points[i].ID {
			return false
		}
	}
	return true
}

// pointOrder returns each point's place in the debate's points, built
// once per debate (every turn's statement is put in this order).
func (d *debate) pointOrder() map[string]int {
	d.orderOnce.Do(func() {
		d.order = make(map[string]int, len(d.points))
		for i, p := range d.points {
			d.order[p.ID] = i
		}
	})
	return d.order
}

// turn builds what advocate i sees in round r. Its Points are the
// debate's own slice, shared by every turn (capacity capped, so that an
// append makes a copy), as its Analysis is.
func (d *debate) turn(r, i int, transcript []Statement) Turn {
	t := Turn{Round: r, Self: d.in.Variants[i], Analysis: d.in.Analysis, Points: d.points[:len(d.points):len(d.points)],
		Transcript: transcript, Focus: slices.Clone(d.in.Focus), memo: d.memo}
	for j, v := range d.in.Variants {
		if j != i {
			t.Others = append(t.Others, v)
		}
	}
	for _, st := range transcript {
		if st.Round != 1 {
			continue // the criticisms to answer are round 1's (rebuttals answer, they do not accuse)
		}
		for _, w := range st.Weaknesses {
			if w.Against == t.Self.Label {
				t.Criticisms = append(t.Criticisms, w)
			}
		}
	}
	if r > 1 {
		for _, tl := range d.res.Rounds[r-2].Tallies {
			if !tl.Agreed {
				t.Unresolved = append(t.Unresolved, tl.Point)
			}
		}
	}
	return t
}

// transcript returns every statement made so far, round by round.
func (d *debate) transcript() []Statement {
	var out []Statement
	for _, r := range d.res.Rounds {
		out = append(out, r.Statements...)
	}
	return out
}

func (d *debate) activeCount() int {
	n := 0
	for _, a := range d.active {
		n += boolInt(a)
	}
	return n
}

// abort ends the debate early, keeping what was completed.
func (d *debate) abort(ctx context.Context, r int, cause error) error {
	res := d.res
	res.Stop = Stop{Reason: StopAborted, Round: r}
	if errors.Is(cause, ErrTooFewAdvocates) {
		res.Stop.Log = fmt.Sprintf("Debate aborted in round %d: fewer than 2 advocates remain", r)
	} else {
		res.Stop.Log = fmt.Sprintf("Debate interrupted in round %d: %v", r, cause)
	}
	d.cfg.logger.WarnContext(ctx, res.Stop.Log)
	d.finish()
	e := &Error{Result: res, Err: cause}
	if errors.Is(cause, ErrTooFewAdvocates) {
		e.Causes = slices.Clone(d.dropped)
	}
	return e
}

// finish fills in the scoring matrix, the final agreement and the usage.
func (d *debate) finish() {
	d.awaitContested()
	res := d.res
	res.Usage = slices.Clone(d.usage)
	res.Unresolved = []string{}
	var final *Round
	for i := range res.Rounds {
		if res.Rounds[i].Complete {
			final = &res.Rounds[i]
		}
	}
	aborted := res.Stop.Reason == StopAborted
	if final != nil {
		res.Consensus = final.Consensus
		for _, t := range final.Tallies {
			if !t.Agreed {
				res.Unresolved = append(res.Unresolved, t.Point)
			}
		}
	}
	res.Status = NotConverged
	if final != nil && !aborted && res.Convergence >= res.Threshold {
		res.Status = Converged
	}
	// An elimination round goes without its scoring matrix: orchestrate
	// reads only who won each point, and decides the matrix of a round
	// that ends the run (too few advocates remaining).
	var winners []string
	if d.cfg.eliminations == nil {
		res.Decisions = decide(d.in.Analysis, res, aborted)
		winners = make([]string, len(res.Decisions))
		for i, dec := range res.Decisions {
			winners[i] = dec.Winner
		}
	} else {
		winners = decidedWinners(d.in.Analysis, res, aborted)
	}
	for _, l := range d.labels {
		w := VariantWins{Variant: l}
		for _, winner := range winners {
			if winner == l {
				w.Won++
			}
		}
		res.Wins = append(res.Wins, w)
	}
}

// warmMeasures measures the variants of in (see measureVariant, and
// docViewOf for the contested points) in the background, into m, while
// the advocates' first turns are in flight (from when first opens):
// the turns of heuristic advocates — and of any advocate that falls back
// on one — then find the measures ready instead of computing them after
// their model call. A measure an advocate asks for first is computed
// once, by whichever gets there first. The returned function waits for
// the goroutine, which stops early when ctx ends.
func warmMeasures(ctx context.Context, first *firstTurns, m *memo, in Input, points []diff.Point) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		first.wait(ctx)
		for _, v := range in.Variants {
			if ctx.Err() != nil || v.Doc == nil {
				return
			}
			measureVariant(m.root(), in.Analysis, points, v)
			if i := variantIndex(in.Analysis, v.Label); i >= 0 {
				docViewOf(m.root(), in.Analysis, v, i) // what the final's contested points read
			}
		}
	}()
	return func() { <-done }
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cmpOr(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}
