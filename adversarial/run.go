package adversarial

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/scoring"
)

// run is one execution of the pipeline: its input, settings and the state
// the steps hand on.
type run struct {
	r   *Runner
	in  Input
	res *Result

	mode         Mode
	depth        debate.Depth
	threshold    float64
	artifactType string
	outDir       string
	mergedName   string

	drafts []Draft            // normalised variant texts
	specs  []debate.AgentSpec // one per variant
	docs   []*diff.Document
	source *diff.Document // Mode B

	prov      provider.Provider // the registry behind middleware; nil offline
	ledger    *ledger
	reasoning *reasoning

	sc     scoring.Scorer  // step 3's, built once (see scorer)
	judged *judgeFallbacks // the model judge's calls the rule judge answered
	prep   *preparing      // step 3's work started during step 2

	rendering []*rendering // artifacts rendered in the background, in emit order
	// firstOut opens once the debate has handed out its first turns (see
	// gate): the diff analysis is rendered in the wait for them.
	firstOut     chan struct{}
	firstOutOnce sync.Once

	latest *int // latestRevision's answer, once found
	// decisions indexes a debate result's decisions by point (see decision)
	decisions struct {
		of *debate.Result
		by map[string]debate.Decision
	}

	failed bool
	cause  error // why the run failed, for Run's error

	// The step started last and its context, until it finishes or fails.
	stepCtx context.Context
	step    Stage
}

// rendering is an artifact whose text is being rendered in the background
// (see emitLater).
type rendering struct {
	name    string
	content []byte
	done    chan struct{}
}

// emitLater renders a finished step's artifact while the next step runs
// — with model calls in flight, rendering there is off the critical path
// — and emits it before the next artifact, or at the end of the run, so
// the artifacts, their order and the sink's writes are those of emit. An
// interactive run emits at once: its host may read the artifact at the
// next checkpoint.
func (x *run) emitLater(ctx context.Context, name string, render func() string) error {
	if x.in.Interactive || x.r.serialSteps {
		return x.emit(ctx, name, []byte(render()))
	}
	r := &rendering{name: name, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.content = []byte(render())
	}()
	x.rendering = append(x.rendering, r)
	return nil
}

// emitDuringDebate is emitLater for a text rendered once the debate's
// first model calls are in flight (see openFirstOut), not beside the
// debate's set-up: with the cores busy, a render there holds back the
// first calls. Emitting anything first opens the wait.
func (x *run) emitDuringDebate(ctx context.Context, name string, render func() string) error {
	if x.in.Interactive || x.r.serialSteps {
		return x.emit(ctx, name, []byte(render()))
	}
	if x.firstOut == nil {
		x.firstOut = make(chan struct{})
	}
	open := x.firstOut
	r := &rendering{name: name, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		select {
		case <-open:
		case <-ctx.Done(): // a run cut short still writes what it finished
		}
		r.content = []byte(render())
	}()
	x.rendering = append(x.rendering, r)
	return nil
}

// openFirstOut lets the renders waiting for the debate's first turns
// begin.
func (x *run) openFirstOut() {
	if x.firstOut != nil {
		x.firstOutOnce.Do(func() { close(x.firstOut) })
	}
}

// flush emits the artifacts rendered in the background, in order.
func (x *run) flush(ctx context.Context) error {
	x.openFirstOut()
	pending := x.rendering
	x.rendering = nil
	var first error
	for _, r := range pending {
		<-r.done
		if err := x.emitNow(ctx, r.name, r.content); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// execute runs the steps, stopping at the first that fails.
func (x *run) execute(ctx context.Context) {
	steps := []func(context.Context) error{x.stepVariants, x.stepDiff, x.stepDebate, x.stepScoring, x.stepPlan, x.stepMerge}
	for _, step := range steps {
		if x.failed {
			return
		}
		if err := ctx.Err(); err != nil {
			x.fail(x.res.FailureStage, err)
			return
		}
		if err := step(ctx); err != nil {
			if x.res.FailureStage == "" {
				x.res.FailureStage = StageInput
			}
			x.fail(x.res.FailureStage, err)
			return
		}
		if x.stepCtx != nil && !x.failed {
			x.finished(x.step, "") // every started step is closed
		}
	}
}

// fail marks the run failed at stage with a warning.
func (x *run) fail(stage Stage, err error) {
	x.failed = true
	if x.cause == nil {
		x.cause = err
	}
	x.stepFailed(err)
	x.res.Status = StatusFailed
	if x.res.FailureStage == "" {
		x.res.FailureStage = stage
	}
	if err != nil {
		x.warn(fmt.Sprintf("%s failed: %v", stageName(x.res.FailureStage), err))
	}
}

func stageName(stage Stage) string {
	switch stage {
	case StageGenerate:
		return "Variant generation"
	case StageDiff:
		return "Diff analysis"
	case StageDebate:
		return "Debate"
	case StageScoring:
		return "Scoring"
	case StagePlan:
		return "Refactoring plan"
	case StageMerge:
		return "Merge"
	}
	return "Input"
}

// stageDone clears the stage a step set, unless the run failed there.
func (x *run) stageDone() {
	if !x.failed {
		x.res.FailureStage = ""
	}
}

// partial lowers a successful run to partial with a warning.
func (x *run) partial(reason string) {
	if x.res.Status == StatusSuccess {
		x.res.Status = StatusPartial
	}
	if reason != "" {
		x.warn(reason)
	}
}

func (x *run) warn(w string) {
	if !slices.Contains(x.res.Warnings, w) {
		x.res.Warnings = append(x.res.Warnings, w)
	}
}

// emit records an artifact and hands it to the host's sink, after those
// still rendering.
func (x *run) emit(ctx context.Context, name string, content []byte) error {
	if err := x.flush(ctx); err != nil {
		return err
	}
	return x.emitNow(ctx, name, content)
}

func (x *run) emitNow(ctx context.Context, name string, content []byte) error {
	a := Artifact{Name: name, Content: content}
	replaced := false
	for i := range x.res.Artifacts {
		if x.res.Artifacts[i].Name == name {
			x.res.Artifacts[i], replaced = a, true
		}
	}
	if !replaced {
		x.res.Artifacts = append(x.res.Artifacts, a)
	}
	if x.in.Sink != nil {
		// A finished step's artifact is written even when the run is
		// being cancelled: a run cut short keeps everything it finished,
		// in the sink as in the Result.
		if err := x.in.Sink.Write(context.WithoutCancel(ctx), name, content); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return nil
}

// started reports a step's start and returns the context its work runs
// in: the observer's, when it traces steps (StepTracer).
func (x *run) started(ctx context.Context, step Stage) context.Context {
	if t, ok := x.r.observer.(StepTracer); ok {
		ctx = t.StartStep(ctx, step)
	}
	x.stepCtx, x.step = ctx, step
	x.r.event(ctx, Event{Kind: StepStarted, Step: step})
	return ctx
}

func (x *run) finished(step Stage, detail string) {
	x.r.event(x.stepContext(step), Event{Kind: StepFinished, Step: step, Detail: detail})
	x.stepCtx, x.step = nil, ""
}

func (x *run) skipped(step Stage, detail string) {
	x.r.event(context.Background(), Event{Kind: StepSkipped, Step: step, Detail: detail})
}

// stepFailed closes the started step, if one is open, as failed.
func (x *run) stepFailed(err error) {
	if x.stepCtx == nil {
		return
	}
	if err == nil {
		err = x.cause
	}
	x.r.event(x.stepCtx, Event{Kind: StepFailed, Step: x.step, Err: err})
	x.stepCtx, x.step = nil, ""
}

// stepContext is the context the step's StepStarted event carried.
func (x *run) stepContext(step Stage) context.Context {
	if x.stepCtx != nil && x.step == step {
		return x.stepCtx
	}
	return context.Background()
}

// observe is provider middleware reporting each model call.
func (x *run) observe(next provider.Provider) provider.Provider {
	return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
		start := time.Now()
		resp, err := next.Complete(ctx, req)
		x.r.event(ctx, Event{Kind: ModelCall, Step: Stage(req.Tag(provider.TagStep)), Agent: req.Tag(provider.TagAgent),
			Usage: resp.Usage, Duration: time.Since(start), Err: err})
		return resp, err
	})
}

// ---- the end of a run ----

// finish fills in usage, consults the memory hook and writes the return
// contract. It runs for failed runs too.
func (x *run) finish(ctx context.Context) {
	if err := x.flush(ctx); err != nil {
		x.warn(err.Error())
	}
	if x.ledger != nil {
		x.res.Usage = x.ledger.usage()
	}
	if len(x.res.Agents) == 0 {
		for i := range x.docs {
			x.res.Agents = append(x.res.Agents, x.advocateOf(i))
		}
	}
	if x.res.Status != StatusFailed {
		x.res.FailureStage = ""
	}
	x.nameWhatExists(ctx)
	x.remember(ctx)
	if b, err := x.res.ContractYAML(); err == nil {
		_ = x.emit(ctx, ReturnContractFile, b)
	}
}

// nameWhatExists makes the contract name only what was written: a merged
// output (or a surviving variant returned as is) not yet in the sink is
// written now; without one, merged_output_path is empty rather than
// naming a file that does not exist.
func (x *run) nameWhatExists(ctx context.Context) {
	if x.res.MergedOutput == "" {
		x.res.MergedOutputPath = ""
		return
	}
	if got, ok := x.res.Artifact(x.mergedName); ok && string(got) == x.res.MergedOutput {
		return
	}
	if err := x.emit(ctx, x.mergedName, []byte(x.res.MergedOutput)); err != nil {
		x.warn(fmt.Sprintf("Writing %s failed: %v", x.mergedName, err))
		x.res.MergedOutputPath = ""
	}
}

// remember hands the outcome to the memory hook behind its circuit breaker.
func (x *run) remember(ctx context.Context) {
	m := x.r.memory
	if m == nil || ctx.Err() != nil {
		return
	}
	rec := MemoryRecord{Mode: x.mode, Depth: x.depth, Convergence: x.res.ConvergenceScore, Status: x.res.Status,
		Base: x.res.BaseVariant, Unresolved: x.res.UnresolvedConflicts, Errors: x.res.Warnings, At: x.r.clock().UTC()}
	for _, d := range x.drafts {
		rec.Variants = append(rec.Variants, d.Name)
	}
	if card := x.res.Steps.Scorecard; card != nil {
		rec.Scores = map[string]float64{}
		for _, v := range card.Variants {
			rec.Scores[v.Label] = v.Final
		}
	}
	open, err := x.r.memoryBreaker.call(ctx, func(ctx context.Context) error { return m.Remember(ctx, rec) })
	switch {
	case open:
		x.warn("Memory persistence skipped (circuit open after 4 failures)")
	case err != nil:
		x.warn(fmt.Sprintf("Memory persistence failed, skipped: %v", err))
	}
}
