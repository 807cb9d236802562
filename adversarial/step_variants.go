package adversarial

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"runtime"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/llmjson"
)

// ErrResumeMismatch reports a checkpoint taken from other variants than
// the run's.
var ErrResumeMismatch = errors.New("the checkpoint was taken for other variants")

// prepare validates the input and settles the run's settings. Its errors
// are input errors (mode, counts, files, agent specs); nothing has run yet.
func (r *Runner) prepare(ctx context.Context, in Input) (*run, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	mode, err := in.Mode()
	if err != nil {
		return nil, err
	}
	x := &run{r: r, in: in, mode: mode, res: &Result{Status: StatusSuccess}}
	switch x.depth = in.Depth; {
	case x.depth == "":
		x.depth = debate.DepthStandard
	case x.depth.MaxRounds() == 0:
		return nil, fmt.Errorf("%w: unknown depth %q: quick, standard or deep", ErrInvalidInput, in.Depth)
	}
	if !debate.ValidConvergence(in.Convergence) {
		return nil, fmt.Errorf("%w: convergence %v out of range [0.50, 0.99]", ErrInvalidInput, in.Convergence)
	}
	x.threshold = debate.DefaultConvergence
	if in.Convergence != 0 {
		x.threshold = in.Convergence
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

	if r.registry != nil {
		x.ledger = newLedger()
		x.reasoning = newReasoning(x.depth)
		x.prov = provider.Chain(r.registry,
			x.observe, x.reasoning.wrap, provider.Limit(r.concurrency), x.ledger.wrap, r.timeouts())
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
	if len(in.Agents) > 0 {
		if len(in.Agents) != len(in.Compare) {
			return fmt.Errorf("%w: %d agents for %d variants; name one per variant or none", ErrInvalidInput, len(in.Agents), len(in.Compare))
		}
		warnings, err := debate.CheckAgents(in.Agents, x.r.registry)
		if err != nil {
			return err
		}
		x.specs = in.Agents
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
	// The variants are parsed at once (at most one goroutine per CPU):
	// parsing is on the critical path of every run, before any model
	// call. The documents keep their input order, and the error reported
	// is the first variant's that fails, as parsing in order would.
	docs := make([]*diff.Document, len(in.Compare))
	errs := make([]error, len(in.Compare))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, d := range in.Compare {
		g.Go(func() error {
			docs[i], errs[i] = diff.Parse(d.Name, d.Content)
			return nil
		})
	}
	_ = g.Wait() // the errors are in errs, by variant
	for i, d := range in.Compare {
		if errs[i] != nil {
			return errs[i]
		}
		x.docs = append(x.docs, docs[i])
		x.drafts = append(x.drafts, Draft{Name: d.Name, Content: []byte(docs[i].Source), Agent: d.Agent})
	}
	return nil
}

// prepareGenerate parses Mode B's agents and source.
func (x *run) prepareGenerate() error {
	warnings, err := debate.CheckAgents(x.in.Agents, x.r.registry)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		x.warn(w)
	}
	x.specs = x.in.Agents
	name := x.in.Source.Name
	if name == "" {
		name = "source.md"
	}
	src, err := diff.Parse(name, x.in.Source.Content)
	if err != nil {
		return err
	}
	if len(src.Source) == 0 {
		return fmt.Errorf("%w: the source %s is empty", ErrInvalidInput, name)
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

// The run's input and its variants: the checks of Mode A and Mode B, the
// checkpoint a run resumes from, Mode B's generation (one draft per agent,
// retried once, dropped when unusable) and the names each variant goes by.

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
		if err := x.emit(ctx, variantFileName(i+1, "", ""), []byte(doc.Source)); err != nil {
			return err
		}
	}
	return nil
}

// generate writes Mode B's variants in parallel, retrying each failed
// agent once; the run goes on with the agents that succeeded if at least
// two did.
func (x *run) generate(ctx context.Context) error {
	ctx = x.started(ctx, StageGenerate)
	gen := x.r.generator
	if gen == nil {
		if x.prov != nil {
			mg, err := NewModelGenerator(x.prov, x.r.generatorOpts...)
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
			for attempt := 1; attempt <= 2; attempt++ {
				req.Attempt = attempt
				var text string
				text, errs[i] = gen.Generate(gctx, req)
				if errs[i] == nil {
					errs[i] = validVariant(text)
				}
				if errs[i] == nil {
					texts[i] = text
					return nil
				}
				if gctx.Err() != nil || !retryGeneration(errs[i]) {
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
			// N-1 variants: the run completes with a warning, so partial.
			x.partial(fmt.Sprintf("Agent %s failed to generate a variant (retried once): %v", spec, errs[i]))
			continue
		}
		drafts = append(drafts, Draft{Name: spec.String(), Content: []byte(texts[i]), Agent: spec.String()})
		specs = append(specs, spec)
	}
	switch len(drafts) {
	case 0:
		return fmt.Errorf("%w: no agent generated a variant: %w", diff.ErrTooFewVariants, errors.Join(errs...))
	case 1:
		x.single(drafts[0], errors.Join(errs...))
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

// retryGeneration reports whether a failed generation gets its one
// retry: an unusable draft, a retryable provider error or a host
// generator's own error does; an error no retry can mend (a provider's
// authentication or invalid-request error, a refusal) does not.
func retryGeneration(err error) bool {
	if llmjson.Refused(err) {
		return false
	}
	var pe *provider.Error
	if errors.As(err, &pe) {
		return pe.Retryable
	}
	return true
}

// validVariant checks a generated variant: non-empty, not a refusal,
// readable Markdown with at least one heading — a draft without one is
// prose, not a document the pipeline can compare.
func validVariant(text string) error {
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("%w: empty", ErrInvalidVariant)
	}
	if llmjson.IsRefusal(text) {
		return fmt.Errorf("%w: the agent refused: %q", ErrInvalidVariant, firstLine(text))
	}
	d, err := diff.Parse("variant", []byte(text))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidVariant, err)
	}
	if len(d.Sections) == 0 {
		return fmt.Errorf("%w: no heading: %q", ErrInvalidVariant, firstLine(text))
	}
	return nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
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
		if err := x.emit(ctx, variantFileName(i+1, x.specs[i].Model, x.specs[i].Persona), []byte(doc.Source)); err != nil {
			return err
		}
	}
	return nil
}

// single ends the run with one surviving variant, returned as it is —
// and written, as the merged output the contract names.
func (x *run) single(d Draft, causes error) {
	x.cause = fmt.Errorf("%w: one agent generated a variant: %w", diff.ErrTooFewVariants, causes)
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
