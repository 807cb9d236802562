package roadmap

import (
	"context"
	"errors"
	"os"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	yaml "go.yaml.in/yaml/v3"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
)

func fixedClock() time.Time { return time.Date(2026, 2, 13, 9, 30, 0, 0, time.UTC) }

func notifications(t *testing.T) adversarial.Draft {
	t.Helper()
	b, err := os.ReadFile("testdata/specs/notifications.md")
	require.NoError(t, err)
	return adversarial.Draft{Name: "notifications.md", Content: b}
}

// variantB is a second draft of the notifications spec, for multi-spec runs.
const variantB = "# Notification Delivery Service\n\n## Requirements\n\n- FR-001: Services submit notifications through a queue.\n- NFR-001: Notifications should be fast.\n"

func frontMatter(t *testing.T, doc []byte) map[string]any {
	t.Helper()
	d, err := diff.Parse("roadmap.md", doc)
	require.NoError(t, err)
	require.NotNil(t, d.FrontMatter, "roadmap.md has front matter")
	return d.FrontMatter.Data
}

func sinkNames(s *adversarial.MemorySink) []string {
	var out []string
	for _, a := range s.Artifacts() {
		out = append(out, a.Name)
	}
	return out
}

func TestRunStandardPath(t *testing.T) {
	sink := adversarial.NewMemorySink()
	spec := notifications(t)
	res, err := New(WithClock(fixedClock)).Run(context.Background(), Request{Spec: &spec, OutputDir: "out", Sink: sink})
	require.NoError(t, err)
	assert.Equal(t, ModeNone, res.Mode)
	assert.Nil(t, res.Adversarial)
	assert.Nil(t, res.Consolidation)
	assert.Nil(t, res.Generation)
	assert.Empty(t, res.Invocations)

	fm := frontMatter(t, res.Roadmap)
	assert.NotContains(t, fm, "adversarial", "entirely absent, not null")
	assert.Equal(t, "notifications.md", fm["spec_source"])
	assert.Equal(t, res.Persona.Primary, fm["primary_persona"])
	assert.Equal(t, "2026-02-13T09:30:00Z", fm["generated"])
	assert.Equal(t, []string{ExtractionFile, RoadmapFile}, sinkNames(sink))
	ext, _ := sink.Get(ExtractionFile)
	assert.NotContains(t, string(ext), "Consolidation Warnings")
	checkGolden(t, "planner/standard-roadmap.md", res.Roadmap)
	checkGolden(t, "planner/standard-extraction.md", ext)
}

func TestRunMultiSpec(t *testing.T) {
	spec := notifications(t)
	for _, tt := range []struct {
		depth, want string
		interactive bool
	}{
		{"quick", "quick", false}, {"standard", "standard", false}, {"deep", "deep", true}, {"", "standard", false},
	} {
		t.Run("depth "+tt.depth, func(t *testing.T) {
			fake := newFake(ok(adversarial.StatusSuccess, 0.84))
			sink := adversarial.NewMemorySink()
			p := New(WithPipeline(fake), WithClock(fixedClock), WithApprover(&answer{}))
			req := Request{Specs: []adversarial.Draft{spec, draft("b.md", variantB)}, Depth: debate.Depth(tt.depth), Interactive: tt.interactive, OutputDir: "out", Sink: sink}
			res, err := p.Run(context.Background(), req)
			require.NoError(t, err)

			calls := fake.calls()
			require.Len(t, calls, 1)
			in := calls[0]
			assert.Equal(t, req.Specs, in.Compare)
			assert.Nil(t, in.Source)
			assert.Empty(t, in.Generate)
			assert.Empty(t, in.Agents)
			assert.Equal(t, debate.Depth(tt.want), in.Depth)
			assert.Equal(t, tt.interactive, in.Interactive, "propagated only when set")
			assert.Equal(t, "out", in.OutputDir)
			assert.Equal(t, UnifiedSpecFile, in.MergedOutput)
			assert.Same(t, sink, in.Sink, "multi-spec artifacts at the top of the output")

			assert.Equal(t, ModeMultiSpec, res.Mode)
			assert.Equal(t, &Adversarial{Mode: ModeMultiSpec, Agents: []string{"sonnet:analyzer", "sonnet:analyzer"},
				ConvergenceScore: 0.84, ArtifactsDir: path.Join("out", "adversarial")}, res.Adversarial)
			fm := frontMatter(t, res.Roadmap)
			a := fm["adversarial"].(map[string]any)
			assert.Equal(t, "multi-spec", a["mode"])
			assert.NotContains(t, a, "base_variant")
			assert.Equal(t, []any{"notifications.md", "b.md"}, fm["spec_sources"])
			assert.Equal(t, UnifiedSpecFile, res.Extraction.Spec, "extracted from the unified spec")
			assert.Equal(t, []string{adversarial.ReturnContractFile, UnifiedSpecFile, ExtractionFile, RoadmapFile}, sinkNames(sink))
			wantCmd := "sc:adversarial --compare notifications.md,b.md --depth " + tt.want + " --output out"
			if tt.interactive {
				wantCmd += " --interactive"
			}
			assert.Equal(t, wantCmd, res.Invocations[0].CommandLine())
		})
	}
}

func TestRunMultiRoadmap(t *testing.T) {
	spec := notifications(t)
	rep := ok(adversarial.StatusSuccess, 0.9)
	rep.res.BaseVariant = "sonnet:architect"
	fake := newFake(rep)
	sink := adversarial.NewMemorySink()
	p := New(WithPipeline(fake), WithClock(fixedClock))
	res, err := p.Run(context.Background(), Request{Spec: &spec, MultiRoadmap: true, Agents: agentList(`opus,sonnet:architect,gpt52:"favour cost"`),
		Depth: "deep", OutputDir: "out", Sink: sink})
	require.NoError(t, err)

	primary := res.Persona.Primary
	require.NotEmpty(t, primary)
	calls := fake.calls()
	require.Len(t, calls, 1)
	in := calls[0]
	assert.Empty(t, in.Compare)
	require.NotNil(t, in.Source)
	assert.Equal(t, spec, *in.Source)
	assert.Equal(t, "roadmap", in.Generate)
	assert.Equal(t, "opus:"+primary+`,sonnet:architect,gpt52:`+primary+`:"favour cost"`, AgentList(in.Agents), "model-only agents inherit the primary persona")
	assert.Equal(t, debate.DepthDeep, in.Depth)
	assert.False(t, in.Interactive)
	assert.Equal(t, MergedRoadmapFile, in.MergedOutput)
	assert.False(t, res.Orchestrator)

	assert.Equal(t, &Adversarial{Mode: ModeMultiRoadmap, Agents: []string{"opus:" + primary, "sonnet:architect", "gpt52:" + primary + `:"favour cost"`},
		ConvergenceScore: 0.9, BaseVariant: "sonnet:architect", ArtifactsDir: path.Join("out", "adversarial")}, res.Adversarial)
	assert.True(t, strings.HasSuffix(string(res.Roadmap), "---\n# Roadmap: merged from notifications.md\n\n## Phase 1: Foundations\n\n- Build it ("+AgentList(in.Agents)+").\n"),
		"roadmap.md is the merged roadmap under the front matter:\n%s", res.Roadmap)
	a := frontMatter(t, res.Roadmap)["adversarial"].(map[string]any)
	assert.Equal(t, "sonnet:architect", a["base_variant"])
	assert.Equal(t, "sc:adversarial --source notifications.md --generate roadmap --agents "+AgentList(in.Agents)+" --depth deep --output out",
		res.Invocations[0].CommandLine())
}

func TestRunOrchestrator(t *testing.T) {
	spec := notifications(t)
	for n, want := range map[int]bool{4: false, 5: true, 10: true} {
		fake := newFake(ok(adversarial.StatusSuccess, 0.9))
		agents := strings.TrimSuffix(strings.Repeat("opus,", n), ",")
		res, err := New(WithPipeline(fake)).Run(context.Background(), Request{Spec: &spec, MultiRoadmap: true, Agents: agentList(agents)})
		require.NoError(t, err)
		assert.Equal(t, want, res.Orchestrator, n)
		assert.Equal(t, want, res.Extraction.Orchestrator, n)
		md := res.Extraction.Markdown()
		if want {
			assert.Contains(t, md, "- Orchestrator: added for ")
		} else {
			assert.Contains(t, md, "- Orchestrator: not needed (4 agents, < 5)")
		}
		assert.Len(t, res.Agents, n, "the orchestrator is not counted among the agents")
	}
}

func TestRunCombined(t *testing.T) {
	spec := notifications(t)
	unified := "# Unified Notifications\n\n## Security\n\n- SEC-001: Tokens are signed and encrypted; OAuth scopes and audit trails protect access.\n"
	wave1 := ok(adversarial.StatusPartial, 0.72, "C-003")
	wave1.res.MergedOutput = unified
	wave2 := ok(adversarial.StatusPartial, 0.45, "X-001", "C-002")
	wave2.res.BaseVariant = "opus:security"
	fake := newFake(wave1, wave2)
	sink := adversarial.NewMemorySink()
	approver := &answer{yes: true}
	p := New(WithPipeline(fake), WithClock(fixedClock), WithApprover(approver))
	res, err := p.Run(context.Background(), Request{Specs: []adversarial.Draft{spec, draft("b.md", variantB)}, MultiRoadmap: true,
		Agents: agentList("opus,haiku:qa"), Interactive: true, OutputDir: "out", Sink: sink})
	require.NoError(t, err)

	calls := fake.calls()
	require.Len(t, calls, 2, "Wave 1A then Wave 2")
	assert.Len(t, calls[0].Compare, 2)
	assert.Equal(t, path.Join("out", ConsolidationDir), calls[0].OutputDir)
	assert.True(t, calls[0].Interactive)
	require.NotNil(t, calls[1].Source)
	assert.Equal(t, adversarial.Draft{Name: UnifiedSpecFile, Content: []byte(unified)}, *calls[1].Source, "the unified spec is Wave 2's source")
	assert.Equal(t, "opus:security,haiku:qa", AgentList(calls[1].Agents), "the persona comes from the unified spec")
	assert.True(t, calls[1].Interactive, "interactive propagates to both invocations")
	assert.Equal(t, "out", calls[1].OutputDir)
	assert.Equal(t, []string{"consolidation/" + adversarial.ReturnContractFile, "consolidation/" + UnifiedSpecFile,
		adversarial.ReturnContractFile, MergedRoadmapFile, ExtractionFile, RoadmapFile}, sinkNames(sink),
		"Wave 1A's artifacts do not collide with Wave 2's")
	require.Len(t, approver.asked, 1, "only Wave 2 is below 60%")
	assert.Equal(t, Wave2, approver.asked[0].Wave)

	assert.Equal(t, &Adversarial{Mode: ModeCombined, Agents: []string{"opus:security", "haiku:qa"}, ConvergenceScore: 0.45,
		BaseVariant: "opus:security", ArtifactsDir: path.Join("out", "adversarial")}, res.Adversarial)
	ext, _ := sink.Get(ExtractionFile)
	checkGolden(t, "planner/combined-extraction.md", ext)
	checkGolden(t, "planner/combined-roadmap.md", res.Roadmap)
	assert.Equal(t, []WarningKind{WarnPartial, WarnUnresolved, WarnPartial, WarnApproved, WarnUnresolved, WarnDivergent}, kinds(res.Warnings))
}

func kinds(ws []Warning) []WarningKind {
	var out []WarningKind
	for _, w := range ws {
		out = append(out, w.Kind)
	}
	return out
}

func TestRunAborts(t *testing.T) {
	spec := notifications(t)
	two := []adversarial.Draft{spec, draft("b.md", variantB)}
	boom := errors.New("provider exploded")
	tests := []struct {
		name     string
		replies  []reply
		req      Request
		approver Approver
		calls    int
		wave     Wave
		reason   error
		msg      string
		warnings []WarningKind
	}{
		{"consolidation failed stops combined mode", []reply{func() reply {
			r := ok(adversarial.StatusFailed, 0.2, "C-001", "C-002")
			r.res.FailureStage = adversarial.StageDebate
			return r
		}()},
			Request{Specs: two, MultiRoadmap: true, Agents: agentList("opus,sonnet"), OutputDir: "out"}, nil, 1, Wave1A, ErrPipelineFailed,
			"sc:adversarial failed. Roadmap generation aborted.\nFailed at stage: debate\nUnresolved conflicts: 2\nReview adversarial artifacts at " +
				path.Join("out", "consolidation", "adversarial") + " for details.",
			[]WarningKind{WarnUnresolved, WarnDivergent}},
		{"low convergence in Wave 2 keeps Wave 1A's warnings", []reply{ok(adversarial.StatusPartial, 0.7), ok(adversarial.StatusPartial, 0.55)},
			Request{Specs: two, MultiRoadmap: true, Agents: agentList("opus,sonnet:wizard")}, nil, 2, Wave2, ErrLowConvergence,
			"Adversarial convergence 55% is below 60% threshold.\nUse --interactive to approve low-convergence results, or revise specifications.",
			[]WarningKind{WarnInput, WarnPartial}},
		{"declined", []reply{ok(adversarial.StatusPartial, 0.4)}, Request{Specs: two, Interactive: true}, &answer{}, 1, Wave1A, ErrNotApproved,
			"Adversarial convergence 40% is below 60% threshold and was not approved. Roadmap generation aborted.",
			[]WarningKind{WarnDivergent}},
		{"invocation failure", []reply{{err: boom}}, Request{Spec: &spec, MultiRoadmap: true, Agents: agentList("opus,sonnet")}, nil, 1, Wave2, ErrInvocationFailed,
			"sc:adversarial invocation failed. Check that the skill is properly installed and configured. Cause: provider exploded", nil},
		{"no result and no error", []reply{{}}, Request{Specs: two}, nil, 1, Wave1A, ErrInvocationFailed,
			"sc:adversarial invocation failed. Check that the skill is properly installed and configured.", nil},
		{"unreadable unified spec", []reply{func() reply {
			r := ok(adversarial.StatusSuccess, 0.9)
			r.res.MergedOutput = "bad\x00spec"
			return r
		}()}, Request{Specs: two}, nil, 1, Wave1A, ErrInvalidContract,
			"sc:adversarial returned an invalid return contract: the unified spec cannot be read (roadmap: unified-spec.md: line 1: binary content (NUL byte)). Roadmap generation aborted.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := newFake(tt.replies...)
			sink := adversarial.NewMemorySink()
			tt.req.Sink = sink
			res, err := New(WithPipeline(fake), WithApprover(tt.approver)).Run(context.Background(), tt.req)
			assert.Nil(t, res)
			require.Error(t, err)
			assert.Equal(t, tt.msg, err.Error())
			var abort *AbortError
			require.ErrorAs(t, err, &abort)
			assert.ErrorIs(t, err, ErrAborted)
			assert.ErrorIs(t, err, tt.reason)
			assert.Equal(t, tt.wave, abort.Wave)
			assert.Equal(t, tt.warnings, kinds(abort.Warnings))
			assert.Len(t, fake.calls(), tt.calls)
			for _, name := range sinkNames(sink) {
				assert.NotEqual(t, RoadmapFile, name, "an aborted run writes no roadmap")
				assert.NotEqual(t, ExtractionFile, name)
			}
			if tt.reason == ErrInvocationFailed && len(tt.replies) > 0 && tt.replies[0].err != nil {
				assert.ErrorIs(t, err, boom)
			}
		})
	}
}

func TestRunInputWarnings(t *testing.T) {
	spec := notifications(t)
	fake := newFake(ok(adversarial.StatusSuccess, 0.9))
	res, err := New(WithPipeline(fake), WithClock(fixedClock)).Run(context.Background(),
		Request{Spec: &spec, MultiRoadmap: true, Agents: agentList("opus:wizard,sonnet")})
	require.NoError(t, err)
	assert.Equal(t, debate.DepthStandard, fake.calls()[0].Depth)
	assert.Equal(t, []string{"Unknown persona wizard, using model defaults"}, messages(res.Warnings))
	md := res.Extraction.Markdown()
	assert.Contains(t, md, "## Input Warnings\n\n- Unknown persona wizard, using model defaults\n")
	assert.Contains(t, md, "## Consolidation Warnings\n\nNone.\n")
}

func TestRunHostCollaborators(t *testing.T) {
	spec := notifications(t)
	detector := PersonaDetectorFunc(func(_ context.Context, d *diff.Document) (Detection, error) {
		return Detection{Primary: "performance", Reason: "the team said so"}, nil
	})
	var asked []AuthorRequest
	author := AuthorFunc(func(_ context.Context, req AuthorRequest) ([]byte, error) {
		asked = append(asked, req)
		return []byte("---\nowner: perf-team\n---\n# Plan\n"), nil
	})
	fake := newFake(ok(adversarial.StatusSuccess, 0.9))
	p := New(WithPipeline(fake), WithPersonaDetector(detector), WithAuthor(author), WithClock(fixedClock))

	res, err := p.Run(context.Background(), Request{Spec: &spec, MultiRoadmap: true, Agents: agentList("opus,sonnet")})
	require.NoError(t, err)
	assert.Equal(t, "performance", res.Persona.Primary)
	assert.Equal(t, "the team said so", res.Extraction.Persona.Reason)
	assert.Equal(t, "opus:performance,sonnet:performance", AgentList(fake.calls()[0].Agents))
	assert.Empty(t, asked, "multi-roadmap takes the pipeline's roadmap")

	res, err = p.Run(context.Background(), Request{Specs: []adversarial.Draft{spec, draft("b.md", variantB)}})
	require.NoError(t, err)
	require.Len(t, asked, 1)
	assert.Equal(t, debate.AgentSpec{Persona: "performance"}, asked[0].Agent)
	assert.Equal(t, UnifiedSpecFile, asked[0].Spec.Name)
	fm := frontMatter(t, res.Roadmap)
	assert.Equal(t, "perf-team", fm["owner"], "the author's keys are kept")
	assert.Contains(t, fm, "adversarial")

	for name, d := range map[string]PersonaDetector{
		"error": PersonaDetectorFunc(func(context.Context, *diff.Document) (Detection, error) {
			return Detection{}, errors.New("no idea")
		}),
		"empty":     PersonaDetectorFunc(func(context.Context, *diff.Document) (Detection, error) { return Detection{}, nil }),
		"separator": PersonaDetectorFunc(func(context.Context, *diff.Document) (Detection, error) { return Detection{Primary: "a:b"}, nil }),
		"quoted":    PersonaDetectorFunc(func(context.Context, *diff.Document) (Detection, error) { return Detection{Primary: `"x"`}, nil }),
	} {
		_, err := New(WithPersonaDetector(d)).Run(context.Background(), Request{Spec: &spec})
		assert.Error(t, err, name)
	}
	_, err = New(WithAuthor(AuthorFunc(func(context.Context, AuthorRequest) ([]byte, error) {
		return nil, errors.New("writer's block")
	}))).Run(context.Background(), Request{Spec: &spec})
	assert.ErrorContains(t, err, "writer's block")
}

func TestRunDeterministic(t *testing.T) {
	spec := notifications(t)
	run := func() (*Result, []adversarial.Artifact) {
		sink := adversarial.NewMemorySink()
		fake := newFake(ok(adversarial.StatusPartial, 0.66, "C-001"), ok(adversarial.StatusSuccess, 0.9))
		res, err := New(WithPipeline(fake), WithClock(fixedClock)).Run(context.Background(),
			Request{Specs: []adversarial.Draft{spec, draft("b.md", variantB)}, MultiRoadmap: true, Agents: agentList("opus,sonnet,haiku"), OutputDir: "o", Sink: sink})
		require.NoError(t, err)
		return res, sink.Artifacts()
	}
	a, aa := run()
	b, bb := run()
	assert.Equal(t, a.Roadmap, b.Roadmap)
	assert.Equal(t, aa, bb)
}

func TestRunCancelled(t *testing.T) {
	spec := notifications(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New(WithPipeline(newFake(ok(adversarial.StatusSuccess, 1)))).Run(ctx, Request{Specs: []adversarial.Draft{spec, draft("b.md", variantB)}})
	assert.ErrorIs(t, err, context.Canceled)
	_, err = New().Run(ctx, Request{Spec: &spec})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestRoadmapFrontMatterIsYAML(t *testing.T) {
	spec := notifications(t)
	res, err := New(WithPipeline(newFake(ok(adversarial.StatusSuccess, 0.5))), WithClock(fixedClock)).Run(context.Background(),
		Request{Spec: &spec, MultiRoadmap: true, Agents: agentList(`opus:"say: \"hi\", twice",sonnet`)})
	require.NoError(t, err)
	d, err := diff.Parse("roadmap.md", res.Roadmap)
	require.NoError(t, err)
	var fm struct {
		Adversarial Adversarial `yaml:"adversarial"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(d.FrontMatter.Raw), &fm))
	assert.Equal(t, *res.Adversarial, fm.Adversarial, "the block round-trips through YAML")
}
