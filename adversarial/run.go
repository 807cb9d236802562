package adversarial

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/crucible-go/crucible/adversarial/debate"
	"path"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/merge"
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
	meter     *provider.Meter
	reasoning *reasoning

	sc   scoring.Scorer // step 3's, built once (see scorer)
	prep *preparing     // step 3's work started during step 2

	failed bool
}

// ErrResumeMismatch reports a checkpoint taken from other variants than
// the run's.
var ErrResumeMismatch = errors.New("the checkpoint was taken for other variants")

// prepare validates the input and settles the run's settings. Its errors
// are the seed's input errors; nothing has run yet.
func (r *Runner) prepare(ctx context.Context, in Input) (*run, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	mode, err := in.Mode()
	if err != nil {
		return nil, err
	}
	x := &run{r: r, in: in, mode: mode, res: &Result{Status: StatusSuccess}}
	var warn string
	if x.depth, warn = debate.ParseDepth(in.Depth); warn != "" {
		x.warn(warn)
	}
	x.threshold = debate.DefaultConvergence
	if in.Convergence != 0 {
		if x.threshold, warn = debate.CheckConvergence(in.Convergence); warn != "" {
			x.warn(warn)
		}
	}
	x.artifactType = in.ArtifactType
	if x.artifactType == "" {
		x.artifactType = titleCase(in.Generate)
		if in.Generate == "" {
			x.artifactType = "Artifact"
		}
	}
	x.outDir = in.OutputDir
	if x.outDir == "" {
		x.outDir = "."
	}
	x.mergedName = in.MergedOutput
	if x.mergedName == "" {
		x.mergedName = DefaultMergedOutputFile
	}
	if err := checkName(x.mergedName); err != nil {
		return nil, err
	}
	x.res.ArtifactsDir = path.Join(x.outDir, ArtifactsDir)
	x.res.MergedOutputPath = path.Join(x.outDir, x.mergedName)

	needModels := r.modelAdvocates || r.judgeModel != "" || r.mergerModel != "" || r.detectorModel != ""
	if needModels && r.registry == nil {
		return nil, ErrNoRegistry
	}
	if r.registry != nil {
		x.meter = provider.NewMeter()
		x.reasoning = newReasoning(x.depth)
		x.prov = provider.Chain(r.registry,
			x.meter.Wrap, x.observe, x.reasoning.wrap, provider.Limit(r.concurrency), provider.Timeout(r.callTimeout))
	}

	switch mode {
	case ModeCompare:
		if err := x.prepareCompare(); err != nil {
			return nil, err
		}
	case ModeGenerate:
		if err := x.prepareGenerate(); err != nil {
			return nil, err
		}
	}
	if in.Resume != nil {
		if err := x.checkResume(*in.Resume); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// prepareCompare parses Mode A's variants and their agents.
func (x *run) prepareCompare() error {
	in := x.in
	switch n := len(in.Compare); {
	case n < 2:
		return fmt.Errorf("%w, got %d", ErrTooFewFiles, n)
	case n > 10:
		return fmt.Errorf("%w, got %d", ErrTooManyFiles, n)
	}
	if in.Agents != "" {
		specs, warnings, err := debate.ParseAgents(in.Agents, x.r.registry)
		if err != nil {
			return err
		}
		if len(specs) != len(in.Compare) {
			return fmt.Errorf("adversarial: --agents names %d agents for %d files; name one per file or none", len(specs), len(in.Compare))
		}
		x.specs = specs
		for _, w := range warnings {
			x.warn(w)
		}
	} else {
		spec, err := debate.ParseAgentSpec(x.r.defaultAgent)
		if err != nil {
			return fmt.Errorf("adversarial: default agent: %w", err)
		}
		if x.r.modelAdvocates && x.r.defaultAgent == "heuristic" {
			return errors.New("adversarial: model advocates need --agents (one per file) or a default agent (adversarial.WithDefaultAgent)")
		}
		for range in.Compare {
			x.specs = append(x.specs, spec)
		}
	}
	for _, d := range in.Compare {
		doc, err := diff.Parse(d.Name, d.Content)
		if err != nil {
			return err
		}
		x.docs = append(x.docs, doc)
		x.drafts = append(x.drafts, Draft{Name: d.Name, Content: []byte(doc.Source), Agent: d.Agent})
	}
	return nil
}

// prepareGenerate parses Mode B's agents and source.
func (x *run) prepareGenerate() error {
	specs, warnings, err := debate.ParseAgents(x.in.Agents, x.r.registry)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		x.warn(w)
	}
	x.specs = specs
	name := x.in.Source.Name
	if name == "" {
		name = "source.md"
	}
	src, err := diff.Parse(name, x.in.Source.Content)
	if err != nil {
		return err
	}
	if len(src.Source) == 0 {
		return fmt.Errorf("adversarial: the source %s is empty", name)
	}
	x.source = src
	return nil
}

// checkResume accepts a checkpoint taken for the same variants.
func (x *run) checkResume(c Checkpoint) error {
	if c.Mode != x.mode {
		return fmt.Errorf("%w: it is for %s mode, the run is %s mode", ErrResumeMismatch, c.Mode, x.mode)
	}
	if x.mode == ModeCompare {
		if len(c.Variants) != len(x.drafts) {
			return fmt.Errorf("%w: %d variants, the run has %d", ErrResumeMismatch, len(c.Variants), len(x.drafts))
		}
		for i, d := range c.Variants {
			if d.Name != x.drafts[i].Name || !bytes.Equal(d.Content, x.drafts[i].Content) {
				return fmt.Errorf("%w: variant %d (%s) differs", ErrResumeMismatch, i+1, d.Name)
			}
		}
	}
	return nil
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
	}
}

// fail marks the run failed at stage with a warning.
func (x *run) fail(stage string, err error) {
	x.failed = true
	x.res.Status = StatusFailed
	if x.res.FailureStage == "" {
		x.res.FailureStage = stage
	}
	if err != nil {
		x.warn(fmt.Sprintf("%s failed: %v", stageName(x.res.FailureStage), err))
	}
}

func stageName(stage string) string {
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

// emit records an artifact and hands it to the host's sink.
func (x *run) emit(ctx context.Context, name string, content []byte) error {
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
		if err := x.in.Sink.Write(ctx, name, content); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return nil
}

func (x *run) started(step string) { x.r.event(Event{Kind: StepStarted, Step: step}) }

func (x *run) finished(step, detail string) {
	x.r.event(Event{Kind: StepFinished, Step: step, Detail: detail})
}

func (x *run) skipped(step, detail string) {
	x.r.event(Event{Kind: StepSkipped, Step: step, Detail: detail})
}

// observe is provider middleware reporting each model call.
func (x *run) observe(next provider.Provider) provider.Provider {
	return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
		start := time.Now()
		resp, err := next.Complete(ctx, req)
		x.r.event(Event{Kind: ModelCall, Step: req.Tag(provider.TagStep), Agent: req.Tag(provider.TagAgent),
			Usage: resp.Usage, Duration: time.Since(start), Err: err})
		return resp, err
	})
}

// ---- step 0: the variants ----

func (x *run) stepVariants(ctx context.Context) error {
	if x.mode == ModeGenerate {
		if c := x.in.Resume; c != nil && len(c.Variants) > 0 {
			return x.adoptGenerated(ctx, c.Variants)
		}
		x.res.FailureStage = StageGenerate
		if err := x.generate(ctx); err != nil {
			return err
		}
		x.stageDone()
		return nil
	}
	for i, doc := range x.docs {
		if err := x.emit(ctx, VariantFileName(i+1, "", ""), []byte(doc.Source)); err != nil {
			return err
		}
	}
	return nil
}

// generate writes Mode B's variants in parallel, retrying each failed
// agent once; the run goes on with the agents that succeeded if at least
// two did.
func (x *run) generate(ctx context.Context) error {
	x.started(StageGenerate)
	gen := x.r.generator
	if gen == nil {
		if x.prov != nil {
			mg, err := NewModelGenerator(x.prov)
			if err != nil {
				return err
			}
			gen = mg
		} else {
			gen = OutlineGenerator{}
		}
	}
	texts := make([]string, len(x.specs))
	errs := make([]error, len(x.specs))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(x.r.concurrency)
	for i, spec := range x.specs {
		g.Go(func() (err error) {
			defer func() {
				if p := recover(); p != nil {
					errs[i] = fmt.Errorf("generator panicked: %v", p)
				}
			}()
			req := GenerateRequest{Index: i + 1, Type: x.typeOrDefault(), Agent: spec, Source: x.source, Focus: x.in.Focus}
			for attempt := 0; attempt < 2; attempt++ {
				var text string
				text, errs[i] = gen.Generate(gctx, req)
				if errs[i] == nil {
					errs[i] = validVariant(text)
				}
				if errs[i] == nil {
					texts[i] = text
					return nil
				}
				if gctx.Err() != nil {
					return nil
				}
			}
			return nil
		})
	}
	_ = g.Wait() // failures are per agent, in errs
	if err := ctx.Err(); err != nil {
		return err
	}
	var drafts []Draft
	var specs []debate.AgentSpec
	for i, spec := range x.specs {
		if errs[i] != nil {
			x.warn(fmt.Sprintf("Agent %s failed to generate a variant (retried once): %v", spec, errs[i]))
			continue
		}
		drafts = append(drafts, Draft{Name: spec.String(), Content: []byte(texts[i]), Agent: spec.String()})
		specs = append(specs, spec)
	}
	switch len(drafts) {
	case 0:
		return errors.New("no agent generated a variant")
	case 1:
		x.single(drafts[0])
		return nil
	}
	x.specs = specs
	if err := x.adoptGenerated(ctx, drafts); err != nil {
		return err
	}
	x.finished(StageGenerate, fmt.Sprintf("%d variants generated", len(drafts)))
	return nil
}

func (x *run) typeOrDefault() string {
	if x.in.Generate != "" {
		return x.in.Generate
	}
	return "artifact"
}

// validVariant checks a generated variant: non-empty, readable Markdown.
func validVariant(text string) error {
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("%w: empty", ErrInvalidVariant)
	}
	if _, err := diff.Parse("variant", []byte(text)); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidVariant, err)
	}
	return nil
}

// adoptGenerated parses and writes Mode B's variants.
func (x *run) adoptGenerated(ctx context.Context, drafts []Draft) error {
	x.docs, x.drafts = nil, nil
	if len(x.specs) != len(drafts) {
		x.specs = nil
		for _, d := range drafts {
			spec, err := debate.ParseAgentSpec(d.Agent)
			if err != nil {
				return err
			}
			x.specs = append(x.specs, spec)
		}
	}
	for i, d := range drafts {
		doc, err := diff.Parse(d.Name, d.Content)
		if err != nil {
			return err
		}
		x.docs = append(x.docs, doc)
		x.drafts = append(x.drafts, Draft{Name: d.Name, Content: []byte(doc.Source), Agent: d.Agent})
		if err := x.emit(ctx, VariantFileName(i+1, x.specs[i].Model, x.specs[i].Persona), []byte(doc.Source)); err != nil {
			return err
		}
	}
	return nil
}

// single ends the run with one surviving variant, returned as it is.
func (x *run) single(d Draft) {
	x.fail(StageGenerate, nil)
	x.warn("Adversarial comparison requires minimum 2 variants")
	x.res.MergedOutput = string(d.Content)
	if spec, err := debate.ParseAgentSpec(d.Agent); err == nil {
		x.res.BaseVariant = modelPersona(spec)
	}
}

// label returns the letter of variant i.
func label(i int) string { return diff.Label(i) }

// baseName names variant i in the return contract: its agent spec in
// Mode B, its file name in Mode A.
func (x *run) baseName(i int) string {
	if x.mode == ModeGenerate {
		return modelPersona(x.specs[i])
	}
	return x.drafts[i].Name
}

// modelPersona is the return contract's form of an agent: model:persona.
func modelPersona(s debate.AgentSpec) string {
	if s.Persona == "" {
		return s.Model
	}
	return s.Model + ":" + s.Persona
}

// agentOf is the spec shown beside variant i's letter in scores and
// plans: who produced it — its agent in Mode B, "original" for a Mode A
// file.
func (x *run) agentOf(i int) string {
	if x.mode == ModeCompare {
		return "original"
	}
	return x.specs[i].String()
}

// advocateOf is the agent spec of variant i's advocate, as the debate
// transcript shows it.
func (x *run) advocateOf(i int) string { return x.specs[i].String() }

// ---- step 1: diff ----

func (x *run) stepDiff(ctx context.Context) error {
	steps := &x.res.Steps
	steps.Mode, steps.Variants = x.mode, x.drafts
	if c := x.in.Resume; c != nil && c.Analysis != nil {
		steps.Analysis = c.Analysis
		x.skipped(StageDiff, "resumed from the checkpoint")
		return x.emit(ctx, DiffAnalysisFile, []byte(c.Analysis.Markdown()))
	}
	x.res.FailureStage = StageDiff
	x.started(StageDiff)
	opts := []diff.Option{diff.WithClock(x.r.clock), diff.WithArtifactType(x.artifactType), diff.WithLogger(x.r.logger)}
	if len(x.in.Focus) > 0 {
		opts = append(opts, diff.WithFocus(x.in.Focus...))
	}
	if x.source != nil {
		opts = append(opts, diff.WithSource(x.source))
	}
	detectors := x.r.detectors
	if x.r.detectorModel != "" {
		md, err := diff.NewModelDetector(x.prov, x.r.detectorModel)
		if err != nil {
			return err
		}
		if len(detectors) == 0 {
			detectors = []diff.ContradictionDetector{diff.RuleDetector{}}
		}
		detectors = append(slices.Clone(detectors), md)
	}
	if len(detectors) > 0 {
		opts = append(opts, diff.WithDetectors(detectors...))
	}
	a, err := diff.Analyze(ctx, x.docs, opts...)
	if err != nil {
		return err
	}
	steps.Analysis = a
	x.stageDone()
	x.finished(StageDiff, fmt.Sprintf("%d differences", len(a.Points)))
	return x.emit(ctx, DiffAnalysisFile, []byte(a.Markdown()))
}

// ---- step 2: debate ----

func (x *run) stepDebate(ctx context.Context) error {
	a := x.res.Steps.Analysis
	if a.Similarity.Identical {
		x.skipped(StageDebate, "variants substantially identical")
		x.partial("variants substantially identical: debate and scoring skipped; the first variant is the base")
		x.res.ConvergenceScore = 1
		return x.emit(ctx, DebateTranscriptFile, []byte(debate.SkippedTranscript(a, x.depth, x.threshold)))
	}
	if c := x.in.Resume; c != nil && c.Debate != nil {
		x.res.Steps.Debate = c.Debate
		x.skipped(StageDebate, "resumed from the checkpoint")
		x.adoptDebate(c.Debate)
		return x.emit(ctx, DebateTranscriptFile, []byte(c.Debate.Markdown()))
	}
	x.startPreparing(ctx)
	var points []string
	if x.in.Interactive {
		p, err := x.r.checkpoints.AfterDiff(ctx, a)
		if err != nil {
			x.res.FailureStage = StageDebate
			return fmt.Errorf("checkpoint after diff analysis: %w", err)
		}
		points = p
	}
	x.res.FailureStage = StageDebate
	x.started(StageDebate)
	advocates, err := x.advocates()
	if err != nil {
		return err
	}
	variants := make([]debate.Variant, len(x.docs))
	for i, d := range x.docs {
		variants[i] = debate.Variant{Label: label(i), Agent: x.advocateOf(i), Doc: d}
	}
	in := debate.Input{Variants: variants, Advocates: advocates, Analysis: a, Depth: x.depth,
		Threshold: x.threshold, Focus: x.in.Focus, Points: points}
	result, err := debate.Run(ctx, in, x.debateOptions()...)
	if err != nil {
		var de *debate.Error
		if errors.As(err, &de) && de.Result != nil {
			x.res.Steps.Debate = de.Result
			_ = x.emit(ctx, DebateTranscriptFile, []byte(de.Result.Markdown()))
			if errors.Is(err, debate.ErrTooFewAdvocates) {
				x.warn("Adversarial comparison requires minimum 2 variants")
				if s := survivor(de.Result, x); s >= 0 {
					x.res.MergedOutput = x.docs[s].Source
					x.res.BaseVariant = x.baseName(s)
				}
			}
		}
		return err
	}
	for _, n := range x.reasoningLog() {
		result.Log = append(result.Log, n)
		x.warn(n)
	}
	if x.in.Interactive {
		resolved, err := x.r.checkpoints.AfterDebate(ctx, result)
		if err != nil {
			return fmt.Errorf("checkpoint after debate: %w", err)
		}
		if len(resolved) > 0 {
			result.MarkResolved(resolved)
		}
	}
	x.res.Steps.Debate = result
	x.adoptDebate(result)
	x.stageDone()
	x.finished(StageDebate, fmt.Sprintf("convergence %.0f%%, %s", result.Convergence*100, result.Status))
	return x.emit(ctx, DebateTranscriptFile, []byte(result.Markdown()))
}

// adoptDebate records the debate's outcome in the return contract.
func (x *run) adoptDebate(d *debate.Result) {
	x.res.ConvergenceScore = d.Convergence
	x.res.UnresolvedConflicts = slices.Clone(d.Unresolved)
	x.res.Agents = nil
	for _, v := range d.Variants {
		x.res.Agents = append(x.res.Agents, v.Agent)
	}
	if d.Status != debate.Converged {
		x.partial(fmt.Sprintf("Debate did not converge (%.0f%% < %.0f%%): base force-selected by score; unresolved points flagged for review",
			d.Convergence*100, d.Threshold*100))
	}
	if dropped := d.Dropped(); len(dropped) > 0 {
		x.partial(fmt.Sprintf("Advocates dropped after a failed retry: %s", strings.Join(dropped, ", ")))
	}
}

func (x *run) reasoningLog() []string {
	if x.reasoning == nil {
		return nil
	}
	return x.reasoning.log()
}

func (x *run) debateOptions() []debate.Option {
	opts := []debate.Option{debate.WithConcurrency(x.r.concurrency), debate.WithLogger(x.r.logger)}
	if x.reasoning != nil {
		opts = append(opts, debate.WithDepthLimit(x.reasoning.current))
	}
	return opts
}

// advocates makes one advocate per variant.
func (x *run) advocates() ([]debate.Advocate, error) {
	out := make([]debate.Advocate, len(x.specs))
	heuristic := debate.NewHeuristicAdvocate()
	for i, spec := range x.specs {
		switch {
		case x.r.advocates != nil:
			out[i] = x.r.advocates(spec)
		case x.r.modelAdvocates:
			a, err := debate.NewModelAdvocate(x.prov, spec)
			if err != nil {
				return nil, err
			}
			out[i] = a
		default:
			out[i] = heuristic
		}
	}
	return out, nil
}

// survivor returns the variant whose advocate is left, or -1.
func survivor(d *debate.Result, x *run) int {
	dropped := d.Dropped()
	for i := range x.docs {
		if !slices.Contains(dropped, label(i)) {
			return i
		}
	}
	return -1
}

// ---- step 3: scoring ----

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
	x.started(StageScoring)
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
	return x.emit(ctx, BaseSelectionFile, []byte(card.Markdown()))
}

// scoringDebate converts the debate's scoring matrix for step 3.
func scoringDebate(d *debate.Result) *scoring.Debate {
	if d == nil {
		return nil
	}
	out := &scoring.Debate{}
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

// ---- step 4: plan ----

func (x *run) stepPlan(ctx context.Context) error {
	base := x.baseIndex()
	x.res.BaseVariant = x.baseName(base)
	if c := x.in.Resume; c != nil && c.Plan != nil {
		x.res.Steps.Plan = c.Plan
		x.skipped(StagePlan, "resumed from the checkpoint")
		return x.emit(ctx, RefactorPlanFile, []byte(c.Plan.Markdown()))
	}
	x.res.FailureStage = StagePlan
	x.started(StagePlan)
	in := merge.PlanInput{Base: merge.Variant{Label: label(base), Agent: x.agentOf(base), Doc: x.docs[base]}}
	for i, d := range x.docs {
		if i != base {
			in.Variants = append(in.Variants, merge.Variant{Label: label(i), Agent: x.agentOf(i), Doc: d})
		}
	}
	if d := x.res.Steps.Debate; d != nil {
		in.Decisions = x.planDecisions(d, base)
	}
	if card := x.res.Steps.Scorecard; card != nil {
		in.Strengths = planStrengths(card.Selection.Incorporate)
	}
	plan, err := merge.NewPlan(in, merge.WithClock(x.r.clock), merge.WithLogger(x.r.logger))
	if err != nil {
		return err
	}
	if x.in.Interactive {
		reviewer := merge.ReviewerFunc(func(ctx context.Context, p merge.Plan) (merge.Verdict, error) {
			q, err := x.r.checkpoints.AfterPlan(ctx, p)
			return merge.Verdict{Plan: q}, err
		})
		if plan, err = merge.Review(ctx, plan, reviewer, merge.WithClock(x.r.clock)); err != nil {
			return fmt.Errorf("checkpoint after refactoring plan: %w", err)
		}
	}
	x.res.Steps.Plan = &plan
	x.stageDone()
	x.finished(StagePlan, fmt.Sprintf("%d changes planned", len(plan.Changes)))
	return x.emit(ctx, RefactorPlanFile, []byte(plan.Markdown()))
}

// planDecisions converts the scoring matrix, with the sections each point
// concerns in the base and in the winner.
func (x *run) planDecisions(d *debate.Result, base int) []merge.Decision {
	a := x.res.Steps.Analysis
	var out []merge.Decision
	for _, dec := range d.Decisions {
		p, ok := a.Point(dec.Point)
		if !ok {
			continue
		}
		md := merge.Decision{Point: dec.Point, Topic: p.Title, Winner: dec.Winner, Confidence: dec.Confidence,
			Evidence: dec.Evidence, Round: dec.Round}
		md.BaseSection = x.sectionRef(base, p.Positions[base].Section)
		if w := labelIndex(dec.Winner); w >= 0 && w < len(x.docs) {
			md.WinnerSection = x.sectionRef(w, p.Positions[w].Section)
		}
		for i, pos := range p.Positions {
			if pos.Text != "" && pos.Text != "—" {
				md.Positions = append(md.Positions, merge.Position{Variant: label(i), Summary: pos.Text})
			}
		}
		out = append(out, md)
	}
	return out
}

func labelIndex(label string) int {
	if len(label) != 1 || label[0] < 'A' || label[0] > 'Z' {
		return -1
	}
	return int(label[0] - 'A')
}

// sectionRef names section si of variant v for the plan.
func (x *run) sectionRef(v, si int) merge.SectionRef {
	if si < 0 || si >= len(x.docs[v].Sections) {
		return merge.SectionRef{}
	}
	s := x.docs[v].Sections[si]
	return merge.SectionRef{Number: s.Number, Title: s.Title}
}

// planStrengths converts step 3's strengths to incorporate.
func planStrengths(ss []scoring.Strength) []merge.Strength {
	var out []merge.Strength
	for _, s := range ss {
		if s.Section < 0 {
			continue // not about one section: nothing to take
		}
		why := "won debate point " + s.Point
		if s.Kind == scoring.FromUnique {
			why = "unique contribution " + s.Point
		}
		if s.Rating != "" {
			why += ", rated " + s.Rating
		}
		// The decision on the point supplies the evidence; the description
		// only says what the section is, so the plan does not repeat it.
		desc := fmt.Sprintf("Variant %s's section %q", s.Variant, s.SectionTitle)
		out = append(out, merge.Strength{Variant: s.Variant, Point: s.Point, Description: desc, Why: why,
			Section: merge.SectionRef{Number: s.SectionNumber, Title: s.SectionTitle}})
	}
	return out
}

// ---- step 5: merge ----

func (x *run) stepMerge(ctx context.Context) error {
	plan := x.res.Steps.Plan
	base := x.baseIndex()
	x.res.FailureStage = StageMerge
	x.started(StageMerge)
	merger := x.r.merger
	if merger == nil {
		opts := []merge.Option{merge.WithClock(x.r.clock), merge.WithLogger(x.r.logger)}
		if x.r.mergerModel != "" {
			mm, err := merge.NewModelMerger(x.prov, append(opts, merge.WithModel(x.r.mergerModel))...)
			if err != nil {
				return err
			}
			merger = mm
		} else {
			merger = merge.NewSectionMerger(opts...)
		}
	}
	var others []*diff.Document
	for i, d := range x.docs {
		if i != base {
			others = append(others, d)
		}
	}
	merged, err := merger.Merge(ctx, merge.Input{Base: x.docs[base], Plan: *plan, Variants: others})
	if merged != nil {
		if x.res.Steps.Analysis.Similarity.Identical {
			merged.Log.Notes = append(merged.Log.Notes, "variants substantially identical: debate and scoring were skipped and the first variant is the base")
		}
		x.res.Steps.Merged = merged
		x.res.MergedOutput = merged.Output
		if werr := x.emit(ctx, MergeLogFile, []byte(merged.Log.Markdown())); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		x.warn("The refactoring plan is preserved in " + RefactorPlanFile + " for manual execution")
		if merged != nil && merged.Output != "" {
			_ = x.emit(ctx, x.mergedName, []byte(merged.Output))
		}
		return err
	}
	if st := merged.Status(); st != merge.StatusSuccess {
		x.partial(fmt.Sprintf("Merge %s: %d of %d changes applied; post-merge validation %s",
			st, merged.Log.Count(merge.ChangeApplied), len(plan.Changes), passFail(merged)))
	}
	if err := x.validateDomain(ctx, merged); err != nil {
		return err
	}
	x.stageDone()
	x.finished(StageMerge, string(merged.Status()))
	return x.emit(ctx, x.mergedName, []byte(merged.Output))
}

func passFail(m *merge.Merged) string {
	if m.Log.Validation.Passed() {
		return "PASS"
	}
	return "FAIL"
}

// validateDomain consults the host's domain validator, if any, behind its
// circuit breaker. Findings make the run partial; a failing validator only
// warns, and after five failures is skipped.
func (x *run) validateDomain(ctx context.Context, merged *merge.Merged) error {
	v := x.r.domain
	if v == nil || merged.Doc == nil {
		return nil
	}
	var findings []DomainFinding
	open, err := x.r.domainBreaker.call(ctx, func(ctx context.Context) error {
		var err error
		findings, err = v.Validate(ctx, x.artifactType, merged.Doc)
		return err
	})
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case open:
		x.warn("Domain validation skipped (circuit open after 5 failures); structural checks only")
	case err != nil:
		x.warn(fmt.Sprintf("Domain validation failed, structural checks only: %v", err))
	}
	for _, f := range findings {
		where := ""
		if f.Section != "" {
			where = " (" + f.Section + ")"
		}
		x.partial("Domain validation: " + f.Message + where)
	}
	return nil
}

// ---- the end ----

// finish fills in usage, consults the memory hook and writes the return
// contract. It runs for failed runs too.
func (x *run) finish(ctx context.Context) {
	if x.meter != nil {
		t := x.meter.Total()
		x.res.Usage = Usage{Calls: t.Calls, Total: t.Usage, ByStep: usageBy(x.meter, provider.TagStep), ByAgent: usageBy(x.meter, provider.TagAgent)}
	}
	if len(x.res.Agents) == 0 {
		for i := range x.docs {
			x.res.Agents = append(x.res.Agents, x.advocateOf(i))
		}
	}
	if x.res.Status != StatusFailed {
		x.res.FailureStage = ""
	}
	x.remember(ctx)
	if ctx.Err() == nil {
		if b, err := x.res.ContractYAML(); err == nil {
			_ = x.emit(ctx, ReturnContractFile, b)
		}
	}
}

func usageBy(m *provider.Meter, tag string) map[string]provider.Usage {
	out := map[string]provider.Usage{}
	for k, t := range m.ByTag(tag) {
		out[k] = t.Usage
	}
	return out
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
