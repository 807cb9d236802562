package roadmap

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

func draft(name, text string) adversarial.Draft {
	return adversarial.Draft{Name: name, Content: []byte(text)}
}

const tinySpec = "# Upload Service\n\n## Requirements\n\n- FR-001: Uploads must be encrypted with TLS 1.3.\n"

func specs(n int) []adversarial.Draft {
	out := make([]adversarial.Draft, n)
	for i := range out {
		out[i] = draft(fmt.Sprintf("spec-%d.md", i+1), tinySpec)
	}
	return out
}

func TestValidate(t *testing.T) {
	spec := draft("spec.md", tinySpec)
	withPipeline := []Option{WithPipeline(newFake(ok(adversarial.StatusSuccess, 1)))}
	eleven := strings.TrimSuffix(strings.Repeat("opus,", 11), ",")
	tests := []struct {
		name string
		opts []Option
		req  Request
		want string
		is   []error
	}{
		{"specs without a pipeline", nil, Request{Specs: specs(2)},
			"sc:adversarial pipeline not configured. Required for --specs/--multi-roadmap flags. Configure via: roadmap.WithPipeline",
			[]error{ErrPipelineNotConfigured}},
		{"multi-roadmap without a pipeline", nil, Request{Spec: &spec, MultiRoadmap: true, Agents: agentList("opus,sonnet")},
			"sc:adversarial pipeline not configured. Required for --specs/--multi-roadmap flags. Configure via: roadmap.WithPipeline",
			[]error{ErrPipelineNotConfigured}},
		{"combined without a pipeline", nil, Request{Specs: specs(2), MultiRoadmap: true, Agents: agentList("opus,sonnet")},
			"sc:adversarial pipeline not configured. Required for --specs/--multi-roadmap flags. Configure via: roadmap.WithPipeline",
			[]error{ErrPipelineNotConfigured}},
		{"agents without multi-roadmap", withPipeline, Request{Spec: &spec, Agents: agentList("opus,sonnet")},
			"--agents requires --multi-roadmap", []error{ErrAgentsWithoutMultiRoadmap}},
		{"no spec", nil, Request{}, "a specification is required: give a spec file, or --specs for multi-spec consolidation", []error{ErrNoSpec}},
		{"multi-roadmap without a spec", withPipeline, Request{MultiRoadmap: true, Agents: agentList("opus,sonnet")},
			"a specification is required: give a spec file, or --specs for multi-spec consolidation", []error{ErrNoSpec}},
		{"spec and specs", withPipeline, Request{Spec: &spec, Specs: specs(2)},
			"give a spec file or --specs, not both: --specs replaces the spec file", []error{ErrSpecAndSpecs}},
		{"one spec to consolidate", withPipeline, Request{Specs: specs(1)},
			"adversarial comparison requires at least 2 files, got 1", []error{adversarial.ErrTooFewFiles}},
		{"eleven specs", withPipeline, Request{Specs: specs(11)},
			"maximum 10 files supported, got 11", []error{adversarial.ErrTooManyFiles}},
		{"empty spec", nil, Request{Spec: &adversarial.Draft{Name: "empty.md", Content: []byte("\n \n")}},
			"specification is empty: empty.md", []error{ErrEmptySpec}},
		{"binary spec", withPipeline, Request{Specs: []adversarial.Draft{draft("a.md", tinySpec), draft("b.md", "x\x00y")}},
			"roadmap: b.md: line 1: binary content (NUL byte)", []error{diff.ErrBinary}},
		{"multi-roadmap without agents", withPipeline, Request{Spec: &spec, MultiRoadmap: true},
			"agent count must be 2-10. Provided: 0", []error{ErrAgentCount, debate.ErrTooFewAgents}},
		{"one agent", withPipeline, Request{Spec: &spec, MultiRoadmap: true, Agents: agentList("opus:architect")},
			"agent count must be 2-10. Provided: 1", []error{ErrAgentCount, debate.ErrTooFewAgents}},
		{"eleven agents", withPipeline, Request{Spec: &spec, MultiRoadmap: true, Agents: agentList(eleven)},
			"agent count must be 2-10. Provided: 11", []error{ErrAgentCount, debate.ErrTooManyAgents}},
		{"unknown model", append([]Option{WithRegistry(seedModels(t))}, withPipeline...), Request{Specs: specs(2), MultiRoadmap: true, Agents: agentList("opus,llama3:security")},
			"Unknown model 'llama3' in --agents. Available models: gemini, gpt52, haiku, opus, sonnet",
			[]error{provider.ErrUnknownModel, debate.ErrInvalidAgentSpec}},
		{"malformed agent keeps the debate package's message", withPipeline,
			Request{Spec: &spec, MultiRoadmap: true, Agents: []debate.AgentSpec{{Model: "opus", Persona: "be brief"}, {Model: "sonnet"}}},
			"Invalid persona be brief in agent spec: opus:be brief", []error{debate.ErrInvalidAgentSpec}},
		{"unknown depth", withPipeline, Request{Specs: specs(2), Depth: "extreme"},
			`invalid input: unknown depth "extreme": quick, standard or deep`, []error{adversarial.ErrInvalidInput}},
		{"interactive without an approver", withPipeline, Request{Specs: specs(2), Interactive: true},
			"--interactive needs an approver to ask when convergence is below 60%. Configure via: roadmap.WithApprover", []error{ErrNoApprover}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New(tt.opts...)
			err := p.Validate(tt.req)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			for _, target := range tt.is {
				assert.ErrorIs(t, err, target)
			}
			// Run validates first and does no work.
			res, runErr := p.Run(context.Background(), tt.req)
			assert.Nil(t, res)
			assert.Equal(t, err.Error(), runErr.Error())
			if fake, ok := p.pipeline.(*fakePipeline); ok {
				assert.Empty(t, fake.calls(), "validation failed, so the pipeline must not run")
			}
		})
	}
}

func TestValidateUnknownModelListsTheRegistry(t *testing.T) {
	reg := provider.NewRegistry()
	require.NoError(t, reg.Register("claude-opus", providertest.Echo(), "opus"))
	require.NoError(t, reg.Register("gpt-5.2", providertest.Echo(), "gpt52"))
	p := New(WithPipeline(newFake(ok(adversarial.StatusSuccess, 1))), WithRegistry(reg))
	spec := draft("spec.md", tinySpec)
	err := p.Validate(Request{Spec: &spec, MultiRoadmap: true, Agents: agentList("opus,gemini:security")})
	require.Error(t, err)
	assert.Equal(t, "Unknown model 'gemini' in --agents. Available models: claude-opus, gpt-5.2, gpt52, opus", err.Error())
	var unknown *UnknownModelError
	require.ErrorAs(t, err, &unknown)
	assert.Equal(t, "gemini", unknown.Model)
	var inner *provider.UnknownModelError
	assert.ErrorAs(t, err, &inner, "the registry's error stays reachable")

	assert.NoError(t, p.Validate(Request{Spec: &spec, MultiRoadmap: true, Agents: agentList("OPUS:architect,gpt52")}), "names are case-insensitive")

	// A nil registry accepts any model.
	p = New(WithPipeline(newFake(ok(adversarial.StatusSuccess, 1))), WithRegistry(nil))
	assert.NoError(t, p.Validate(Request{Spec: &spec, MultiRoadmap: true, Agents: agentList("llama3,mistral")}))
}

func TestValidateAccepts(t *testing.T) {
	spec := draft("spec.md", tinySpec)
	p := New(WithPipeline(newFake(ok(adversarial.StatusSuccess, 1))), WithApprover(&answer{}))
	for _, req := range []Request{
		{Spec: &spec},
		{Spec: &spec, Interactive: true},
		{Specs: specs(2)},
		{Specs: specs(10), Interactive: true},
		{Spec: &spec, MultiRoadmap: true, Agents: agentList("opus,sonnet")},
		{Spec: &spec, MultiRoadmap: true, Agents: agentList(strings.Repeat("haiku,", 9) + "gemini")},
		{Specs: specs(3), MultiRoadmap: true, Agents: agentList(`opus:"be brief",gpt52:security`), Depth: "deep"},
	} {
		assert.NoError(t, p.Validate(req), "%+v", req)
	}
	// The standard path needs neither a pipeline nor an approver.
	assert.NoError(t, New().Validate(Request{Spec: &spec, Interactive: true}))
}
