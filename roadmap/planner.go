package roadmap

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"strings"
	"time"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/provider"
)

// Planner runs sc:roadmap's adversarial integration: mode detection, Wave 0
// validation, the pipeline's waves with return-contract routing, the
// extraction and the roadmap with its front matter. A Planner is safe for
// concurrent use when its collaborators are.
type Planner struct {
	pipeline adversarial.Pipeline
	registry *provider.Registry
	detector PersonaDetector
	author   Author
	approver Approver
	now      func() time.Time
	logger   *slog.Logger
}

// Option configures a [Planner].
type Option func(*Planner)

// WithPipeline sets the adversarial pipeline the --specs and
// --multi-roadmap modes invoke. The default is none: those modes then fail
// validation with [ErrPipelineNotConfigured]; the standard path needs none.
func WithPipeline(p adversarial.Pipeline) Option { return func(c *Planner) { c.pipeline = p } }

// WithRegistry sets the registry --agents models are validated against.
// The default, nil, accepts any model name: offline the deterministic
// implementations play every agent and the model name only labels it.
func WithRegistry(reg *provider.Registry) Option {
	return func(c *Planner) { c.registry = reg }
}

// WithPersonaDetector sets how the primary persona is chosen. The default
// is [KeywordDetector] with architect as the fallback.
func WithPersonaDetector(d PersonaDetector) Option {
	return func(c *Planner) {
		if d != nil {
			c.detector = d
		}
	}
}

// WithAuthor sets the author of the roadmap in the standard and multi-spec
// paths (multi-roadmap generation takes the pipeline's merged roadmap). The
// default is [OfflineAuthor].
func WithAuthor(a Author) Option {
	return func(c *Planner) {
		if a != nil {
			c.author = a
		}
	}
}

// WithApprover sets who is asked, in interactive runs, whether to proceed
// below 60% convergence. The default is none: an interactive adversarial
// run then fails validation with [ErrNoApprover].
func WithApprover(a Approver) Option { return func(c *Planner) { c.approver = a } }

// WithClock sets the clock of the "generated" times. The default is
// time.Now.
func WithClock(now func() time.Time) Option {
	return func(c *Planner) {
		if now != nil {
			c.now = now
		}
	}
}

// WithLogger sets the logger for waves and routing decisions. The default
// discards.
func WithLogger(l *slog.Logger) Option {
	return func(c *Planner) {
		if l != nil {
			c.logger = l
		}
	}
}

// New returns a Planner. With no options it runs the standard path offline
// (keyword persona detection, the offline author) and refuses the
// adversarial modes until a pipeline is configured.
func New(opts ...Option) *Planner {
	p := &Planner{detector: KeywordDetector{}, author: OfflineAuthor{}, now: time.Now,
		logger: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Request is one roadmap run: sc:roadmap's inputs and flags.
type Request struct {
	// Spec is the specification of the standard path and of multi-roadmap
	// generation.
	Spec *adversarial.Draft
	// Specs are --specs: 2–10 specifications to consolidate (Wave 1A).
	// They replace Spec.
	Specs []adversarial.Draft
	// MultiRoadmap and Agents are --multi-roadmap --agents: 2–10 agent
	// specs model[:persona[:"instruction"]] generating competing roadmaps
	// (Wave 2).
	MultiRoadmap bool
	Agents       []debate.AgentSpec
	// Depth is --depth, passed to the pipeline: quick, standard or deep
	// (1, 2 or up to 3 debate rounds); empty means standard. Any other
	// value is an error matching adversarial.ErrInvalidInput.
	Depth debate.Depth
	// Interactive is --interactive: propagated to every pipeline
	// invocation, and the approver is asked below 60% convergence.
	Interactive bool
	// OutputDir is the output directory as the host names it; it appears
	// in the pipeline's paths (artifacts_dir). Empty means ".".
	OutputDir string
	// Sink receives roadmap.md, extraction.md and, through the pipeline,
	// the adversarial artifacts. Nil writes nothing: the Result holds the
	// roadmap and the extraction.
	Sink adversarial.Sink
}

// Mode detects the request's mode from the inputs present.
func (r Request) Mode() Mode { return DetectMode(len(r.Specs) > 0, r.MultiRoadmap) }

// Result is a finished roadmap run.
type Result struct {
	Mode Mode
	// Roadmap is roadmap.md, with its front matter.
	Roadmap []byte
	// Extraction is the extraction; Extraction.Markdown() is
	// extraction.md.
	Extraction *Extraction
	// Adversarial is the front matter's adversarial block; nil in ModeNone.
	Adversarial *Adversarial
	// Persona is the primary persona's detection.
	Persona Detection
	// Agents are the expanded --agents (multi-roadmap and combined).
	Agents []debate.AgentSpec
	// Orchestrator reports that the agents were enough (≥ 5) for the
	// pipeline to add its orchestrator.
	Orchestrator bool
	// Consolidation and Generation are the pipeline's results of Wave 1A
	// and Wave 2, nil for waves that did not run.
	Consolidation *adversarial.Result
	Generation    *adversarial.Result
	Invocations   []Invocation
	Warnings      []Warning
}

// Run validates req (Wave 0) and runs its mode:
//
//   - none: the spec's extraction and a roadmap by the Author from the
//     primary persona, without an adversarial block;
//   - multi-spec: Wave 1A compares the specs; the unified spec is
//     extracted and the Author writes the roadmap from it;
//   - multi-roadmap: the spec is extracted, the agents expanded with its
//     primary persona, and Wave 2 generates and merges competing roadmaps;
//   - combined: Wave 1A, then Wave 2 on the unified spec.
//
// Each wave's result is routed by [Route]. An error before any work is a
// validation error; a pipeline error or an abort is an [*AbortError]. On
// success, roadmap.md and extraction.md go to req.Sink. roadmap.md's front
// matter gets title, spec_source (spec_sources with --specs),
// primary_persona, generated and, in an adversarial mode, the adversarial
// block; other keys the roadmap's text already had are kept.
func (p *Planner) Run(ctx context.Context, req Request) (*Result, error) {
	w, err := p.validate(req)
	if err != nil {
		return nil, err
	}
	res := &Result{Mode: w.mode, Warnings: w.warnings}
	outDir := req.OutputDir
	if outDir == "" {
		outDir = "."
	}
	depth := w.depth

	spec := w.spec
	source := req.Spec
	if w.mode.Consolidates() {
		in := adversarial.Input{
			Compare:      req.Specs,
			ArtifactType: "Specification",
			Depth:        depth,
			Interactive:  req.Interactive,
			OutputDir:    outDir,
			MergedOutput: UnifiedSpecFile,
			Sink:         req.Sink,
		}
		if w.mode == ModeCombined {
			in.OutputDir = path.Join(outDir, ConsolidationDir)
			in.Sink = prefixSink(req.Sink, ConsolidationDir+"/")
		}
		r, err := p.invoke(ctx, Wave1A, in, res)
		if err != nil {
			return nil, err
		}
		res.Consolidation = r
		unified := adversarial.Draft{Name: UnifiedSpecFile, Content: []byte(r.MergedOutput)}
		source = &unified
		if spec, err = parseSpec(unified); err != nil {
			return nil, &AbortError{Wave: Wave1A, Reason: ErrInvalidContract, Result: r, Warnings: res.Warnings, Err: err,
				Message: fmt.Sprintf("%s: the unified spec cannot be read (%v). Roadmap generation aborted.", ErrInvalidContract, err)}
		}
	}

	// Wave 1B: the extraction, from the unified spec in multi-spec modes.
	det, err := p.detector.DetectPersona(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("roadmap: persona detection: %w", err)
	}
	if as, perr := debate.ParseAgentSpec("x:" + det.Primary); perr != nil || as.Persona != det.Primary || as.Instruction != "" {
		return nil, fmt.Errorf("roadmap: persona detection returned an unusable persona %q", det.Primary)
	}
	res.Persona = det
	p.logger.InfoContext(ctx, "primary persona", "persona", det.Primary, "reason", det.Reason)

	var text []byte
	if w.mode.Generates() {
		res.Agents = ExpandAgents(w.agents, det.Primary)
		res.Orchestrator = len(res.Agents) >= debate.OrchestratorThreshold
		in := adversarial.Input{
			Source:       source,
			Generate:     GenerateRoadmap,
			Agents:       res.Agents,
			ArtifactType: "Roadmap",
			Depth:        depth,
			Interactive:  req.Interactive,
			OutputDir:    outDir,
			MergedOutput: MergedRoadmapFile,
			Sink:         req.Sink,
		}
		r, err := p.invoke(ctx, Wave2, in, res)
		if err != nil {
			return nil, err
		}
		res.Generation = r
		text = []byte(r.MergedOutput)
	} else {
		text, err = p.author.WriteRoadmap(ctx, AuthorRequest{Spec: spec, Agent: debate.AgentSpec{Persona: det.Primary}})
		if err != nil {
			return nil, fmt.Errorf("roadmap: author: %w", err)
		}
	}

	now := p.now().UTC()
	res.Extraction = &Extraction{Spec: spec.Name, Title: spec.Title, Mode: w.mode, Generated: now,
		Requirements: ExtractRequirements(spec), Persona: det, Agents: agentStrings(res.Agents),
		Orchestrator: res.Orchestrator, Invocations: res.Invocations, Warnings: res.Warnings}
	res.Adversarial = p.block(w.mode, res)
	fields := []field{{"title", "Roadmap: " + orDefault(spec.Title, strings.TrimSuffix(spec.Name, ".md"))}}
	if w.mode.Consolidates() {
		names := make([]string, len(req.Specs))
		for i, s := range req.Specs {
			names[i] = s.Name
		}
		fields = append(fields, field{"spec_sources", names})
	} else {
		fields = append(fields, field{"spec_source", req.Spec.Name})
	}
	fields = append(fields, field{"primary_persona", det.Primary}, field{"generated", now.Format(time.RFC3339)})
	if res.Adversarial != nil {
		fields = append(fields, field{AdversarialKey, res.Adversarial.node()})
	} else {
		fields = append(fields, field{AdversarialKey, nil})
	}
	if res.Roadmap, err = setFrontMatter(text, fields); err != nil {
		return nil, err
	}

	if req.Sink != nil {
		if err := req.Sink.Write(ctx, ExtractionFile, []byte(res.Extraction.Markdown())); err != nil {
			return nil, fmt.Errorf("roadmap: write %s: %w", ExtractionFile, err)
		}
		if err := req.Sink.Write(ctx, RoadmapFile, res.Roadmap); err != nil {
			return nil, fmt.Errorf("roadmap: write %s: %w", RoadmapFile, err)
		}
	}
	return res, nil
}

// invoke runs one wave on the pipeline and routes its result, recording
// the invocation and the warnings on res.
func (p *Planner) invoke(ctx context.Context, wave Wave, in adversarial.Input, res *Result) (*adversarial.Result, error) {
	res.Invocations = append(res.Invocations, Invocation{Wave: wave, Input: in})
	p.logger.InfoContext(ctx, "invoking the adversarial pipeline", "wave", wave,
		"invocation", Invocation{Wave: wave, Input: in}.CommandLine())
	r, err := p.pipeline.Run(ctx, in)
	if err != nil {
		return nil, &AbortError{Wave: wave, Reason: ErrInvocationFailed, Message: ErrInvocationFailed.Error(),
			Result: r, Warnings: res.Warnings, Err: err}
	}
	warnings, err := Route(ctx, wave, r, in.Interactive, p.approver)
	if err != nil {
		var abort *AbortError
		if errors.As(err, &abort) {
			abort.Warnings = append(append([]Warning(nil), res.Warnings...), abort.Warnings...)
		}
		p.logger.InfoContext(ctx, "roadmap generation aborted", "wave", wave, "error", err)
		return nil, err
	}
	p.logger.InfoContext(ctx, "adversarial wave done", "wave", wave, "status", r.Status,
		"convergence", percent(r.ConvergenceScore), "warnings", len(warnings))
	res.Warnings = append(res.Warnings, warnings...)
	return r, nil
}

// block is the front matter's adversarial block, from the mode and the
// last wave's return contract.
func (p *Planner) block(mode Mode, res *Result) *Adversarial {
	switch mode {
	case ModeMultiSpec:
		r := res.Consolidation
		return &Adversarial{Mode: mode, Agents: nonNil(r.Agents), ConvergenceScore: r.ConvergenceScore, ArtifactsDir: r.ArtifactsDir}
	case ModeMultiRoadmap, ModeCombined:
		r := res.Generation
		return &Adversarial{Mode: mode, Agents: agentStrings(res.Agents), ConvergenceScore: r.ConvergenceScore,
			BaseVariant: r.BaseVariant, ArtifactsDir: r.ArtifactsDir}
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// prefixSink writes under a directory of another sink; nil stays nil.
func prefixSink(s adversarial.Sink, prefix string) adversarial.Sink {
	if s == nil {
		return nil
	}
	return prefixed{s, prefix}
}

type prefixed struct {
	sink   adversarial.Sink
	prefix string
}

func (p prefixed) Write(ctx context.Context, name string, content []byte) error {
	return p.sink.Write(ctx, p.prefix+name, content)
}
