package adversarial

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/samplegen"
	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
	"github.com/crucible-go/crucible/scoring"
)

var sampleNames = []string{"ingest-spec-architect.md", "ingest-spec-security.md", "ingest-spec-performance.md"}

// sampleDrafts reads the bundled sample variants.
func sampleDrafts(t testing.TB) []Draft {
	t.Helper()
	var out []Draft
	for _, n := range sampleNames {
		b, err := os.ReadFile(filepath.Join("..", "examples", "samples", n))
		require.NoError(t, err)
		out = append(out, Draft{Name: n, Content: b})
	}
	return out
}

func newPipeline(opts ...Option) *Runner {
	return New(append([]Option{WithClock(fixedClock)}, opts...)...)
}

// artifactNames lists a result's artifact names in order.
func artifactNames(r *Result) []string {
	var out []string
	for _, a := range r.Artifacts {
		out = append(out, a.Name)
	}
	return out
}

func TestPipelineGoldenOnTheSamples(t *testing.T) {
	in := Input{Compare: sampleDrafts(t), ArtifactType: "Specification", OutputDir: "out"}
	res, err := newPipeline().Run(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, StatusSuccess, res.Status)
	assert.Equal(t, []string{
		"adversarial/variant-1-original.md", "adversarial/variant-2-original.md", "adversarial/variant-3-original.md",
		DiffAnalysisFile, DebateTranscriptFile, BaseSelectionFile, RefactorPlanFile, MergeLogFile, "merged-output.md", ReturnContractFile,
	}, artifactNames(res))
	require.NoError(t, diff.Validate(string(mustArtifact(t, res, DiffAnalysisFile))))
	assert.Equal(t, "out/merged-output.md", res.MergedOutputPath)
	assert.Equal(t, "out/adversarial", res.ArtifactsDir)
	assert.Equal(t, res.MergedOutput, string(mustArtifact(t, res, "merged-output.md")))
	assert.Contains(t, res.MergedOutput, "<!-- Provenance: This document was produced by crucible adversarial merge -->")

	for _, a := range res.Artifacts {
		checkGolden(t, filepath.Join("pipeline", strings.ReplaceAll(a.Name, "/", "_")), string(a.Content))
	}

	again, err := newPipeline().Run(context.Background(), in)
	require.NoError(t, err)
	require.Equal(t, len(res.Artifacts), len(again.Artifacts))
	for i := range res.Artifacts {
		assert.True(t, bytes.Equal(res.Artifacts[i].Content, again.Artifacts[i].Content), "%s differs between runs", res.Artifacts[i].Name)
	}
}

func mustArtifact(t testing.TB, r *Result, name string) []byte {
	t.Helper()
	b, ok := r.Artifact(name)
	require.True(t, ok, "no artifact %s among %v", name, artifactNames(r))
	return b
}

func TestPipelineWritesToTheSinkAsItGoes(t *testing.T) {
	sink := NewMemorySink()
	res, err := newPipeline().Run(context.Background(), Input{Compare: sampleDrafts(t), Sink: sink})
	require.NoError(t, err)
	assert.Equal(t, len(res.Artifacts), len(sink.Artifacts()))
	dir := t.TempDir()
	res, err = newPipeline().Run(context.Background(), Input{Compare: sampleDrafts(t), Sink: NewDirSink(dir), OutputDir: dir})
	require.NoError(t, err)
	b, err := os.ReadFile(res.MergedOutputPath)
	require.NoError(t, err)
	assert.Equal(t, res.MergedOutput, string(b))
}

func TestPipelineInputErrors(t *testing.T) {
	src := &Draft{Name: "spec.md", Content: []byte("# Spec\n\n## Scope\n\nThe API must answer within 200 ms.\n")}
	two := sampleDrafts(t)[:2]
	tests := []struct {
		name string
		in   Input
		opts []Option
		want string
		is   error
	}{
		{"no mode", Input{}, nil, "must provide --compare (Mode A) or --source + --generate + --agents (Mode B)", ErrNoMode},
		{"both modes", Input{Compare: two, Source: src}, nil, "cannot use --compare with --source/--generate/--agents", ErrModeConflict},
		{"mode B missing", Input{Source: src, Agents: agentList("opus,sonnet")}, nil, "mode B requires all three flags: --source, --generate, --agents. Missing: --generate", ErrModeBFlags},
		{"one file", Input{Compare: two[:1]}, nil, "adversarial comparison requires at least 2 files, got 1", ErrTooFewFiles},
		{"eleven files", Input{Compare: slices.Repeat(two[:1], 11)}, nil, "maximum 10 files supported, got 11", ErrTooManyFiles},
		{"one agent", Input{Source: src, Generate: "spec", Agents: agentList("opus")}, nil, "adversarial comparison requires at least 2 agents, got 1", debate.ErrTooFewAgents},
		{"malformed agent", Input{Source: src, Generate: "spec", Agents: []debate.AgentSpec{{Model: "opus:x"}, {Model: "sonnet"}}}, nil, "Unknown model: opus:x", debate.ErrInvalidAgentSpec},
		{"unknown depth", Input{Compare: two, Depth: "bottomless"}, nil, `invalid input: unknown depth "bottomless"`, ErrInvalidInput},
		{"convergence out of range", Input{Compare: two, Convergence: 1.5}, nil, "invalid input: convergence 1.5 out of range [0.50, 0.99]", ErrInvalidInput},
		{"binary file", Input{Compare: []Draft{two[0], {Name: "b.md", Content: []byte{0, 1}}}}, nil, "b.md: line 1: binary content (NUL byte)", diff.ErrBinary},
		{"agents per file", Input{Compare: two, Agents: agentList("opus,sonnet,haiku")}, nil, "invalid input: 3 agents for 2 variants", ErrInvalidInput},
		{"models without registry", Input{Compare: two}, []Option{WithModelAdvocates()}, "need a provider registry", ErrNoRegistry},
		{"escaping merged name", Input{Compare: two, MergedOutput: "../x.md"}, nil, "escapes the output directory", ErrUnsafeName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := newPipeline(tt.opts...).Run(context.Background(), tt.in)
			assert.Nil(t, res, "bad input yields no result")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
		})
	}
}

// ---- the error matrix ----

func TestErrorMatrixVariantsTooSimilar(t *testing.T) {
	d := sampleDrafts(t)[0]
	twin := Draft{Name: "twin.md", Content: bytes.ReplaceAll(d.Content, []byte("\n"), []byte("  \r\n"))}
	res, err := newPipeline().Run(context.Background(), Input{Compare: []Draft{d, twin}})
	require.NoError(t, err)
	assert.Equal(t, StatusPartial, res.Status)
	assert.Contains(t, res.Warnings, "variants substantially identical: debate and scoring skipped; the first variant is the base")
	assert.Equal(t, d.Name, res.BaseVariant, "the first variant in input order is the base")
	assert.Nil(t, res.Steps.Debate)
	assert.Nil(t, res.Steps.Scorecard)
	transcript := string(mustArtifact(t, res, DebateTranscriptFile))
	assert.Contains(t, transcript, "Debate skipped: variants substantially identical")
	assert.Contains(t, transcript, "- Stopped: before round 1 — the variants are substantially identical, so no debate is needed\n")
	assert.Contains(t, string(mustArtifact(t, res, BaseSelectionFile)), "Scoring skipped")
	assert.Contains(t, string(mustArtifact(t, res, MergeLogFile)), "variants substantially identical")
	assert.Empty(t, res.Steps.Plan.Changes, "a minimal merge: nothing to take from an identical variant")
	assert.Equal(t, 1.0, res.ConvergenceScore)
}

func TestErrorMatrixNoConvergence(t *testing.T) {
	// Advocates that never move: each argues as the heuristic advocate
	// would, but holds its own variant superior on every point.
	heuristic := debate.NewHeuristicAdvocate()
	stubborn := func(spec debate.AgentSpec) debate.Advocate {
		return debate.AdvocateFunc(func(ctx context.Context, turn debate.Turn) (debate.Statement, error) {
			st, err := heuristic.Argue(ctx, turn)
			for i := range st.Positions {
				st.Positions[i].Prefer, st.Positions[i].Concede = turn.Self.Label, false
			}
			for i := range st.Responses {
				st.Responses[i].Conceded = false
			}
			return st, err
		})
	}
	res, err := newPipeline(WithAdvocates(stubborn)).Run(context.Background(), Input{Compare: sampleDrafts(t), Depth: "deep"})
	require.NoError(t, err)
	assert.Equal(t, StatusPartial, res.Status)
	assert.Equal(t, debate.NotConverged, res.Steps.Debate.Status)
	assert.NotEmpty(t, res.UnresolvedConflicts)
	assert.Equal(t, res.Steps.Debate.UnresolvedConflicts(), res.UnresolvedConflicts)
	for _, id := range res.UnresolvedConflicts {
		assert.False(t, strings.HasPrefix(id, "U-"), "%s: a unique contribution is no conflict", id)
	}
	assert.Less(t, len(res.UnresolvedConflicts), len(res.Steps.Debate.Unresolved), "the unresolved unique contributions stay in the transcript")
	assert.NotEmpty(t, res.Steps.Scorecard.Selection.Base, "the base is force-selected by score")
	assert.True(t, slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.HasPrefix(w, "Debate did not converge") }))
	assert.Contains(t, string(mustArtifact(t, res, DebateTranscriptFile)), "NOT_CONVERGED")
}

func TestErrorMatrixMergeFailure(t *testing.T) {
	broken := merge.Func(func(ctx context.Context, in merge.Input) (*merge.Merged, error) {
		return nil, errors.New("merge executor crashed")
	})
	res, err := newPipeline(WithMerger(broken)).Run(context.Background(), Input{Compare: sampleDrafts(t)})
	var re *RunError
	require.ErrorAs(t, err, &re, "a failed merge is a result and a *RunError")
	assert.ErrorContains(t, err, "merge executor crashed")
	assert.Equal(t, StatusFailed, res.Status)
	assert.Equal(t, StageMerge, res.FailureStage)
	for _, name := range []string{DiffAnalysisFile, DebateTranscriptFile, BaseSelectionFile, RefactorPlanFile, ReturnContractFile} {
		mustArtifact(t, res, name)
	}
	assert.Contains(t, res.Warnings, "The refactoring plan is preserved in adversarial/refactor-plan.md for manual execution")
	assert.Contains(t, string(mustArtifact(t, res, ReturnContractFile)), "failure_stage: merge")
}

func TestErrorMatrixSingleVariantRemaining(t *testing.T) {
	src := &Draft{Name: "spec.md", Content: sampleDrafts(t)[0].Content}
	var calls sync.Map
	gen := GeneratorFunc(func(ctx context.Context, req GenerateRequest) (string, error) {
		n, _ := calls.LoadOrStore(req.Agent.Model, new(int))
		*(n.(*int))++
		if req.Agent.Model != "opus" {
			return "", fmt.Errorf("%s is down", req.Agent.Model)
		}
		return "# Draft by opus\n\n## Scope\n\nThe API must answer within 200 ms.\n", nil
	})
	res, err := newPipeline(WithGenerator(gen)).Run(context.Background(),
		Input{Source: src, Generate: "spec", Agents: agentList("opus:architect,sonnet:security,haiku")})
	requireRunOutcome(t, res, err)
	assert.ErrorIs(t, err, diff.ErrTooFewVariants)
	assert.Equal(t, StatusFailed, res.Status)
	assert.Equal(t, StageGenerate, res.FailureStage)
	assert.Contains(t, res.Warnings, "Adversarial comparison requires minimum 2 variants")
	assert.Equal(t, "# Draft by opus\n\n## Scope\n\nThe API must answer within 200 ms.\n", res.MergedOutput, "the surviving variant, as it is")
	assert.Equal(t, "opus:architect", res.BaseVariant)
	n, _ := calls.Load("sonnet")
	assert.Equal(t, 2, *(n.(*int)), "a failed agent is retried once")
	assert.True(t, slices.ContainsFunc(res.Warnings, func(w string) bool {
		return strings.HasPrefix(w, "Agent sonnet:security failed to generate a variant (retried once)")
	}))
}

// ---- Mode B ----

func TestModeBThroughTheRegistry(t *testing.T) {
	fake := providertest.NewFake()
	fake.On(providertest.Tag(provider.TagStep, string(StageGenerate)), providertest.Model("opus")).
		Reply("```markdown\n# Event Ingestion Roadmap\n\n## Phase 1\n\nShip the write path with Kafka in 3 weeks.\n\n## Phase 2\n\nAdd schema validation.\n```")
	fake.On(providertest.Tag(provider.TagStep, string(StageGenerate)), providertest.Model("sonnet")).Fail(&provider.Error{Kind: provider.ErrUnavailable, Retryable: true}).Once()
	fake.On(providertest.Tag(provider.TagStep, string(StageGenerate)), providertest.Model("sonnet")).
		Reply("# Event Ingestion Roadmap\n\n## Phase 1\n\nShip the write path with RabbitMQ in 5 weeks.\n\n## Security\n\nTokens expire after 15 minutes.\n")
	fake.On(providertest.Tag(provider.TagStep, string(StageGenerate)), providertest.Model("haiku")).Reply("")
	reg := provider.NewRegistry()
	for _, m := range []string{"opus", "sonnet", "haiku"} {
		require.NoError(t, reg.Register(m, fake))
	}
	src := &Draft{Name: "spec.md", Content: sampleDrafts(t)[0].Content}
	res, err := newPipeline(WithRegistry(reg)).Run(context.Background(),
		Input{Source: src, Generate: "roadmap", Agents: agentList(`opus:architect,sonnet:security:"focus on tokens",haiku`)})
	require.NoError(t, err)
	assert.NotEqual(t, StatusFailed, res.Status)
	assert.Equal(t, []string{"adversarial/variant-1-opus-architect.md", "adversarial/variant-2-sonnet-security.md"}, artifactNames(res)[:2],
		"haiku's empty draft is dropped; the run goes on with N−1")
	assert.True(t, slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.HasPrefix(w, "Agent haiku failed") }))
	assert.Equal(t, "# Event Ingestion Roadmap\n\n## Phase 1\n\nShip the write path with Kafka in 3 weeks.\n\n## Phase 2\n\nAdd schema validation.\n",
		string(mustArtifact(t, res, "adversarial/variant-1-opus-architect.md")), "the fence around the document is removed")
	assert.Contains(t, []string{"opus:architect", "sonnet:security"}, res.BaseVariant)

	// The seed's generation prompt, with persona, instruction and fenced source.
	// The source, shared by every agent, comes first; the persona last.
	var sonnetPrompt, sonnetSource string
	for _, c := range fake.Calls() {
		if c.Request.Model == "sonnet" {
			require.Len(t, c.Request.Messages, 2)
			sonnetSource, sonnetPrompt = c.Request.Messages[0].Content, c.Request.Messages[1].Content
			assert.Equal(t, DefaultGenerateMaxTokens, c.Request.MaxTokens)
		}
	}
	assert.Contains(t, sonnetPrompt, "Generate a roadmap artifact from the source material above.")
	assert.Contains(t, sonnetPrompt, "Use your expertise as a security")
	assert.Contains(t, sonnetPrompt, "focus on tokens")
	assert.Contains(t, sonnetSource, "<<<BEGIN SOURCE")
	assert.NotContains(t, sonnetSource, "security")
	assert.Equal(t, 5, res.Usage.Calls, "opus once, sonnet twice (retried), haiku twice (retried)")
	assert.Positive(t, res.Usage.ByStep[string(StageGenerate)].InputTokens)
	assert.Equal(t, res.Usage.Total, res.Usage.ByStep[string(StageGenerate)], "only generation called a model")
}

func TestModeBOffline(t *testing.T) {
	src := &Draft{Name: "spec.md", Content: sampleDrafts(t)[0].Content}
	res, err := newPipeline().Run(context.Background(),
		Input{Source: src, Generate: "spec", Agents: agentList("opus:architect,sonnet:security,haiku:performance")})
	require.NoError(t, err)
	assert.NotEqual(t, StatusFailed, res.Status)
	v3 := string(mustArtifact(t, res, "adversarial/variant-3-haiku-performance.md"))
	assert.Contains(t, v3, "agent: \"haiku:performance\"")
	assert.Contains(t, v3, "## Performance Considerations")
	assert.Contains(t, v3, "- Accept 50,000 events per second at peak with p99 ingest latency under 200 ms.")
	assert.Equal(t, []string{"opus:architect", "sonnet:security", "haiku:performance"}, res.Agents)
}

// ---- the orchestrator ----

func TestOrchestratorForFiveOrMoreAdvocates(t *testing.T) {
	var drafts []Draft
	for i := range 6 {
		drafts = append(drafts, Draft{Name: fmt.Sprintf("v%d.md", i+1), Content: samplegen.Spec(uint64(i%3+1), 4000)})
	}
	res, err := newPipeline().Run(context.Background(), Input{Compare: drafts})
	require.NoError(t, err)
	assert.NotEqual(t, StatusFailed, res.Status)
	log := strings.Join(res.Steps.Debate.Log, "\n")
	assert.Contains(t, log, "Orchestrator: group 1")
	assert.Contains(t, log, "Orchestrator: group 2")
	assert.Contains(t, log, "Orchestrator: final debate among")
	assert.Len(t, res.Steps.Debate.Variants, 2, "two groups send two finalists")
	assert.Contains(t, string(mustArtifact(t, res, DebateTranscriptFile)), "Orchestrator: group 1")
}

// ---- interactive checkpoints ----

type scriptedCheckpoints struct {
	AutoCheckpoints
	points   []string
	resolved []string
	base     string
	dropPlan bool
}

func (c *scriptedCheckpoints) AfterDiff(context.Context, *diff.Analysis) ([]string, error) {
	return c.points, nil
}

func (c *scriptedCheckpoints) AfterDebate(context.Context, *debate.Result) ([]string, error) {
	return c.resolved, nil
}

func (c *scriptedCheckpoints) AfterScoring(context.Context, *scoring.Scorecard) (string, error) {
	return c.base, nil
}

func (c *scriptedCheckpoints) AfterPlan(_ context.Context, p merge.Plan) (*merge.Plan, error) {
	if !c.dropPlan || len(p.Changes) == 0 {
		return nil, nil
	}
	q := p
	q.Changes = p.Changes[1:]
	return &q, nil
}

func TestInteractiveOverridesAreRecorded(t *testing.T) {
	auto, err := newPipeline().Run(context.Background(), Input{Compare: sampleDrafts(t)})
	require.NoError(t, err)
	require.NotEmpty(t, auto.UnresolvedConflicts)
	cp := &scriptedCheckpoints{resolved: auto.UnresolvedConflicts[:1], base: "C", dropPlan: true}
	res, err := newPipeline(WithCheckpoints(cp)).Run(context.Background(), Input{Compare: sampleDrafts(t), Interactive: true})
	require.NoError(t, err)
	assert.Contains(t, string(mustArtifact(t, res, DebateTranscriptFile)), "Approval: user-overridden — marked resolved by the user: "+auto.UnresolvedConflicts[0])
	assert.Greater(t, res.ConvergenceScore, auto.ConvergenceScore)
	assert.Equal(t, "C", res.Steps.Scorecard.Selection.Base)
	assert.Contains(t, string(mustArtifact(t, res, BaseSelectionFile)), "user-overridden")
	assert.Equal(t, sampleNames[2], res.BaseVariant)
	assert.Equal(t, merge.UserModified, res.Steps.Plan.Review.State)

	// Without Interactive the checkpoints are not consulted.
	quiet, err := newPipeline(WithCheckpoints(cp)).Run(context.Background(), Input{Compare: sampleDrafts(t)})
	require.NoError(t, err)
	assert.Equal(t, auto.BaseVariant, quiet.BaseVariant)
}

func TestInteractivePrioritisedPoints(t *testing.T) {
	cp := &scriptedCheckpoints{points: []string{"X-001"}}
	res, err := newPipeline(WithCheckpoints(cp)).Run(context.Background(), Input{Compare: sampleDrafts(t), Interactive: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"X-001"}, res.Steps.Debate.Points)
}

// ---- resume and cancellation ----

func TestResumeAfterTheDebate(t *testing.T) {
	first, err := newPipeline().Run(context.Background(), Input{Compare: sampleDrafts(t)})
	require.NoError(t, err)
	cp := Checkpoint{Mode: first.Steps.Mode, Variants: first.Steps.Variants, Analysis: first.Steps.Analysis, Debate: first.Steps.Debate}
	// The checkpoint survives JSON, as a host would store it.
	raw, err := jsonRoundTrip(cp)
	require.NoError(t, err)

	refuse := func(debate.AgentSpec) debate.Advocate {
		return debate.AdvocateFunc(func(context.Context, debate.Turn) (debate.Statement, error) {
			return debate.Statement{}, errors.New("the debate must not run again")
		})
	}
	res, err := newPipeline(WithAdvocates(refuse)).Run(context.Background(), Input{Compare: sampleDrafts(t), Resume: &raw})
	require.NoError(t, err)
	require.Equal(t, len(first.Artifacts), len(res.Artifacts))
	for i := range first.Artifacts {
		assert.Equal(t, string(first.Artifacts[i].Content), string(res.Artifacts[i].Content), first.Artifacts[i].Name)
	}

	other := sampleDrafts(t)
	other[1].Content = append(other[1].Content, []byte("\nOne more line.\n")...)
	_, err = newPipeline().Run(context.Background(), Input{Compare: other, Resume: &raw})
	assert.ErrorIs(t, err, ErrResumeMismatch)
}

func TestCancellationMidDebate(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	var once sync.Once
	blocking := func(debate.AgentSpec) debate.Advocate {
		return debate.AdvocateFunc(func(ctx context.Context, _ debate.Turn) (debate.Statement, error) {
			once.Do(func() { close(started) })
			<-ctx.Done()
			return debate.Statement{}, ctx.Err()
		})
	}
	go func() {
		<-started
		cancel()
	}()
	done := make(chan struct{})
	var res *Result
	var err error
	go func() {
		res, err = newPipeline(WithAdvocates(blocking)).Run(ctx, Input{Compare: sampleDrafts(t)})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its context was cancelled")
	}
	require.ErrorIs(t, err, context.Canceled)
	require.NotNil(t, res)
	assert.Equal(t, StatusFailed, res.Status)
	assert.Equal(t, StageDebate, res.FailureStage)
	mustArtifact(t, res, DiffAnalysisFile)
	_, ok := res.Artifact(BaseSelectionFile)
	assert.False(t, ok)
}

// ---- hooks ----

type recordingMemory struct {
	mu   sync.Mutex
	recs []MemoryRecord
	err  error
}

func (m *recordingMemory) Remember(_ context.Context, rec MemoryRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recs = append(m.recs, rec)
	return m.err
}

func TestMemoryHookAndItsBreaker(t *testing.T) {
	mem := &recordingMemory{}
	p := newPipeline(WithMemory(mem))
	res, err := p.Run(context.Background(), Input{Compare: sampleDrafts(t)})
	require.NoError(t, err)
	require.Len(t, mem.recs, 1)
	rec := mem.recs[0]
	assert.Equal(t, res.Status, rec.Status)
	assert.Equal(t, sampleNames, rec.Variants)
	assert.Len(t, rec.Scores, 3)

	failing := &recordingMemory{err: errors.New("store offline")}
	p = newPipeline(WithMemory(failing))
	var last *Result
	for range 5 {
		last, err = p.Run(context.Background(), Input{Compare: sampleDrafts(t)[:2]})
		require.NoError(t, err, "a failing memory hook never fails a run")
	}
	assert.Len(t, failing.recs, 4, "after 4 failures the hook is no longer called")
	assert.Contains(t, last.Warnings, "Memory persistence skipped (circuit open after 4 failures)")
}

func TestDomainValidatorFindingsMakeTheRunPartial(t *testing.T) {
	v := domainFunc(func(_ context.Context, typ string, doc *diff.Document) ([]DomainFinding, error) {
		return []DomainFinding{{Message: typ + " has no glossary", Section: doc.Title}}, nil
	})
	res, err := newPipeline(WithDomainValidator(v)).Run(context.Background(), Input{Compare: sampleDrafts(t), ArtifactType: "Specification"})
	require.NoError(t, err)
	assert.Equal(t, StatusPartial, res.Status)
	assert.True(t, slices.ContainsFunc(res.Warnings, func(w string) bool {
		return strings.HasPrefix(w, "Domain validation: Specification has no glossary")
	}))
}

type domainFunc func(context.Context, string, *diff.Document) ([]DomainFinding, error)

func (f domainFunc) Validate(ctx context.Context, typ string, d *diff.Document) ([]DomainFinding, error) {
	return f(ctx, typ, d)
}

func TestReasoningBreakerLowersDepth(t *testing.T) {
	r := newReasoning(debate.DepthDeep)
	fail := provider.Func(func(context.Context, provider.Request) (provider.Response, error) {
		return provider.Response{}, &provider.Error{Kind: provider.ErrTimeout}
	})
	p := r.wrap(fail)
	req := provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "x"}}}
	call := func(step string) { _, _ = p.Complete(context.Background(), req.WithTag(provider.TagStep, step)) }
	call(string(StageGenerate)) // other steps do not count
	call(string(StageDebate))
	call(string(StageDebate))
	assert.Equal(t, debate.DepthDeep, r.current())
	call(string(StageScoring))
	assert.Equal(t, debate.DepthStandard, r.current(), "three consecutive failures lower the depth")
	for range 3 {
		call(string(StageDebate))
	}
	assert.Equal(t, debate.DepthQuick, r.current())
	for range 3 {
		call(string(StageDebate))
	}
	assert.Equal(t, debate.DepthQuick, r.current(), "quick is the floor")
	assert.Len(t, r.log(), 2)
	assert.Contains(t, r.log()[0], "depth reduced deep → standard")
}

func TestObserverSeesTheSteps(t *testing.T) {
	var mu sync.Mutex
	var events []string
	obs := ObserverFunc(func(_ context.Context, e Event) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, string(e.Kind)+" "+string(e.Step))
	})
	_, err := newPipeline(WithObserver(obs)).Run(context.Background(), Input{Compare: sampleDrafts(t)})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"step-started diff", "step-finished diff", "step-started debate", "step-finished debate",
		"step-started scoring", "step-finished scoring", "step-started plan", "step-finished plan",
		"step-started merge", "step-finished merge",
	}, events)
}

func jsonRoundTrip(c Checkpoint) (Checkpoint, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return Checkpoint{}, err
	}
	var out Checkpoint
	err = json.Unmarshal(b, &out)
	return out, err
}
