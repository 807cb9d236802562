package adversarial

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/scoring"
)

// Step 3: hybrid scoring and base selection (package scoring) →
// base-selection.md, and the part of scoring prepared while the debate
// runs.

func (x *run) stepScoring(ctx context.Context) error {
	a := x.res.Steps.Analysis
	if a.Similarity.Identical {
		x.skipped(StageScoring, "variants substantially identical")
		return x.emit(ctx, BaseSelectionFile, []byte(skippedSelection(x)))
	}
	if c := x.in.Resume; c != nil && c.Scorecard != nil {
		x.res.Steps.Scorecard = c.Scorecard
		x.skipped(StageScoring, "resumed from the checkpoint")
		return x.emit(ctx, BaseSelectionFile, []byte(c.Scorecard.Markdown()))
	}
	x.res.FailureStage = StageScoring
	ctx = x.started(ctx, StageScoring)
	scorer, err := x.scorer()
	if err != nil {
		return err
	}
	x.awaitPreparing()
	in := x.scoringInput()
	in.Debate = scoringDebate(x.res.Steps.Debate)
	card, err := scorer.Score(ctx, in)
	if err != nil {
		return err
	}
	if x.judged != nil {
		for _, w := range x.judged.warnings() {
			card.Warnings = append(card.Warnings, w)
			x.partial(w)
		}
	}
	if x.in.Interactive {
		base, err := x.r.checkpoints.AfterScoring(ctx, card)
		if err != nil {
			return fmt.Errorf("checkpoint after base selection: %w", err)
		}
		if base != "" && base != card.Selection.Base {
			if err := card.Override(base); err != nil {
				return fmt.Errorf("checkpoint after base selection: %w", err)
			}
		}
	}
	x.res.Steps.Scorecard = card
	x.stageDone()
	x.finished(StageScoring, "base: Variant "+card.Selection.Base)
	return x.emitLater(ctx, BaseSelectionFile, card.Markdown)
}

// scoringDebate converts the debate's scoring matrix for step 3.
func scoringDebate(d *debate.Result) *scoring.Debate {
	if d == nil {
		return nil
	}
	out := &scoring.Debate{Outcome: d.Outcome()}
	for _, dec := range d.Decisions {
		if dec.Round == 0 && !dec.Resolved() {
			continue // not debated
		}
		out.Points = append(out.Points, scoring.PointOutcome{Point: dec.Point, Winner: dec.Winner,
			Confidence: dec.Confidence, Evidence: dec.Evidence, Round: dec.Round})
	}
	return out
}

// baseIndex returns the index of the base variant.
func (x *run) baseIndex() int {
	if card := x.res.Steps.Scorecard; card != nil {
		for i := range x.docs {
			if label(i) == card.Selection.Base {
				return i
			}
		}
	}
	return 0 // the first in input order, when scoring was skipped
}

// scorer returns step 3's scorer: the Runner's, or the default built from
// the Runner's options. It is built once per run, so the work a
// [scoring.Preparer] does ahead lands where Score will look for it.
func (x *run) scorer() (scoring.Scorer, error) {
	if x.sc != nil {
		return x.sc, nil
	}
	if x.r.scorer != nil {
		x.sc = x.r.scorer
		return x.sc, nil
	}
	opts := []scoring.Option{scoring.WithConcurrency(x.r.concurrency), scoring.WithLogger(x.r.logger)}
	if x.r.judgeModel != "" {
		j, err := scoring.NewModelJudge(x.prov, x.r.judgeModel,
			append([]scoring.ModelJudgeOption{scoring.WithJudgeConcurrency(x.r.concurrency)}, x.r.judgeOpts...)...)
		if err != nil {
			return nil, err
		}
		x.judged = &judgeFallbacks{model: x.r.judgeModel}
		opts = append(opts, scoring.WithJudge(scoring.FallbackJudge{Primary: j, Fallback: scoring.RuleJudge{}, OnFallback: x.judged.record}))
	}
	x.sc = scoring.New(opts...)
	return x.sc, nil
}

// scoringInput is step 3's input without the debate's outcome, which
// stepScoring adds.
func (x *run) scoringInput() scoring.Input {
	in := scoring.Input{Source: x.source, Analysis: x.res.Steps.Analysis, Focus: x.in.Focus}
	for i, d := range x.docs {
		in.Variants = append(in.Variants, scoring.Variant{Label: label(i), Agent: x.agentOf(i), Doc: d})
	}
	return in
}

// preparing is scoring work running ahead of step 3.
type preparing struct {
	cancel context.CancelFunc
	done   chan struct{}
	// begin is closed when the work may start: when gate lets it go,
	// once the debate's model calls are in flight, so that the debate's
	// own set-up — the CPU before its calls — does not share the cores
	// with it.
	begin chan struct{}
	open  sync.Once
}

// release lets the work start, if it has not yet.
func (p *preparing) release() { p.open.Do(func() { close(p.begin) }) }

// startPreparing lets a scorer that implements [scoring.Preparer] do the
// part of step 3 that depends on the variants alone while step 2 waits on
// advocates (and on a user answering the checkpoint after the diff). The
// work waits until the debate has handed out its first turns (see gate)
// or step 3 needs it. The scorecard does not change; only the critical path gets
// shorter. The goroutine ends when it is done, when the run's context
// ends, or when stopPreparing is called.
func (x *run) startPreparing(ctx context.Context) {
	if x.prep != nil || x.r.serialSteps || (x.in.Resume != nil && x.in.Resume.Scorecard != nil) {
		return
	}
	sc, err := x.scorer()
	if err != nil {
		return // stepScoring reports it
	}
	p, ok := sc.(scoring.Preparer)
	if !ok {
		return
	}
	pctx, cancel := context.WithCancel(ctx)
	prep := &preparing{cancel: cancel, done: make(chan struct{}), begin: make(chan struct{})}
	x.prep = prep
	in := x.scoringInput()
	go func() {
		defer close(prep.done)
		select {
		case <-prep.begin:
		case <-pctx.Done():
			return
		}
		// An error only means Score does the work itself.
		_ = p.Prepare(pctx, in)
	}()
}

// releasePreparing lets the work started ahead begin now.
func (x *run) releasePreparing() {
	if x.prep != nil {
		x.prep.release()
	}
}

// gate wraps the debate's advocates so that the work that waits for the
// debate's model calls is let go while the calls are in flight — in the
// debate's set-up, or in the next round's, a busy goroutine would hold
// back the calls still to start:
//
//   - the renders waiting for the first turns (see emitDuringDebate),
//     once every advocate has been handed a turn or any has answered
//     (an advocate an orchestrated run's elimination round passes over is
//     asked only in the final);
//   - the scoring work started ahead (see startPreparing): at the same
//     moment in a debate without an orchestrator, whose first round may
//     be its only one; with an orchestrator, once an advocate is handed
//     its second turn — the final's first — so that it runs in the
//     final's waits rather than beside the elimination rounds' own
//     background work, which the final waits for.
func (x *run) gate(advocates []debate.Advocate) []debate.Advocate {
	prep := func() {}
	if x.prep != nil {
		prep = x.prep.release
	}
	g := &askedGate{asked: make([]int, len(advocates)), left: len(advocates), firstOut: x.openFirstOut, prep: prep,
		orchestrated: len(advocates) >= debate.OrchestratorThreshold}
	out := make([]debate.Advocate, len(advocates))
	for i, a := range advocates {
		out[i] = releasingAdvocate{Advocate: a, gate: g, i: i}
	}
	return out
}

// askedGate counts the turns handed to each advocate.
type askedGate struct {
	mu           sync.Mutex
	asked        []int
	left         int // advocates not asked yet
	orchestrated bool
	firstOut     func()
	prep         func()
}

func (g *askedGate) ask(i int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.asked[i]++
	switch g.asked[i] {
	case 1:
		if g.left--; g.left == 0 {
			g.opened()
		}
	case 2:
		if g.orchestrated {
			g.prep()
		}
	}
}

// answered records that an advocate has answered a turn.
func (g *askedGate) answered() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.opened()
}

// opened lets go what waits for the first turns.
func (g *askedGate) opened() {
	g.firstOut()
	if !g.orchestrated {
		g.prep()
	}
}

// releasingAdvocate is an advocate that counts its turns towards the
// gate.
type releasingAdvocate struct {
	debate.Advocate
	gate *askedGate
	i    int
}

func (a releasingAdvocate) Argue(ctx context.Context, turn debate.Turn) (debate.Statement, error) {
	a.gate.ask(a.i)
	defer a.gate.answered()
	return a.Advocate.Argue(ctx, turn)
}

// awaitPreparing waits for the work started ahead to finish, starting it
// if no advocate did.
func (x *run) awaitPreparing() {
	if x.prep != nil {
		x.prep.release()
		<-x.prep.done
	}
}

// stopPreparing cancels the work started ahead, if any, and waits for it:
// a run that ends early leaves no goroutine behind.
func (x *run) stopPreparing() {
	if x.prep != nil {
		x.prep.cancel()
		<-x.prep.done
	}
}

// skippedSelection is base-selection.md when scoring was skipped: the first
// variant in input order is the base: with substantially identical
// variants either would do, and input order is deterministic.
func skippedSelection(x *run) string {
	var b strings.Builder
	a := x.res.Steps.Analysis
	b.WriteString("# Base Selection Report\n\n")
	fmt.Fprintf(&b, "Scoring skipped: the variants are substantially identical (%d differences across %d comparable items, under 10%%).\n\n",
		a.Similarity.Differences, a.Similarity.Comparable)
	fmt.Fprintf(&b, "## Selected Base: Variant %s (%s)\n\n### Selection Rationale\n\n", label(0), x.agentOf(0))
	b.WriteString("The variants say the same thing, so any of them serves as the base; the first in input order is selected, which keeps the choice deterministic.\n\n")
	b.WriteString("**Approval**: Auto-approved\n\n### Strengths to Preserve from Base\n\n1. The whole variant: the others add nothing it lacks.\n\n")
	b.WriteString("### Strengths to Incorporate from Non-Base Variants\n\nNone: the variants are substantially identical.\n")
	return b.String()
}
