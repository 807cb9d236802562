package roadmap

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
)

func write(t *testing.T, spec *diff.Document, agent debate.AgentSpec) string {
	t.Helper()
	out, err := OfflineAuthor{}.WriteRoadmap(context.Background(), AuthorRequest{Spec: spec, Agent: agent})
	require.NoError(t, err)
	return string(out)
}

func TestOfflineAuthorGolden(t *testing.T) {
	spec := readSpec(t, "notifications.md")
	for _, tt := range []struct {
		name  string
		agent debate.AgentSpec
	}{
		{"security", debate.AgentSpec{Model: "opus", Persona: "security"}},
		{"performance", debate.AgentSpec{Model: "sonnet", Persona: "performance", Instruction: "plan the load tests early"}},
		{"primary-persona", debate.AgentSpec{Persona: "backend"}},
		{"unknown-persona", debate.AgentSpec{Model: "haiku", Persona: "wizard"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := write(t, spec, tt.agent)
			checkGolden(t, "author/notifications-"+tt.name+".md", []byte(got))
			assert.Equal(t, got, write(t, spec, tt.agent), "deterministic")
		})
	}
}

func TestOfflineAuthorPhasesFollowPersonaPriorities(t *testing.T) {
	spec := readSpec(t, "notifications.md")
	firstPhase := func(persona string) string {
		out := write(t, spec, debate.AgentSpec{Model: "opus", Persona: persona})
		i := strings.Index(out, "## Phase 1: ")
		require.GreaterOrEqual(t, i, 0, out)
		line, _, _ := strings.Cut(out[i:], "\n")
		return strings.TrimPrefix(line, "## Phase 1: ")
	}
	assert.Equal(t, "Security and Compliance", firstPhase("security"))
	assert.Equal(t, "Performance and Scalability", firstPhase("performance"))
	assert.Equal(t, "Backend Services and Data", firstPhase("backend"))
	assert.Equal(t, "Delivery and Operations", firstPhase("devops"))
	// A persona whose domain has no work here starts with the foundations.
	assert.Equal(t, "Architecture and Foundations", firstPhase("mentor"))

	// Every requirement of the spec is in the coverage table, and every
	// persona plans each requirement in the same phase: the personas differ
	// in order and emphasis, not in what is planned.
	var coverage string
	for _, p := range DomainPersonas() {
		out := write(t, spec, debate.AgentSpec{Model: "opus", Persona: p})
		_, table, ok := strings.Cut(out, "## Requirement Coverage")
		require.True(t, ok)
		for _, r := range ExtractRequirements(spec) {
			assert.Contains(t, table, "| "+r.ID+" | ", "%s: %s", p, r.ID)
			assert.NotContains(t, table, "| "+r.ID+" | Not planned", "%s: %s", p, r.ID)
		}
		if coverage == "" {
			coverage = table
		}
		assert.Equal(t, coverage, table, p)
	}
}

func TestOfflineAuthorOwnPhase(t *testing.T) {
	spec := readSpec(t, "notifications.md")
	out := write(t, spec, debate.AgentSpec{Model: "sonnet", Persona: "performance", Instruction: "plan the load tests early"})
	assert.Contains(t, out, "- NFR-001: load test at 1.5x the stated target, p95 and p99 recorded\n- NFR-002: load test at 1.5x the stated target, p95 and p99 recorded\n",
		"the persona checks each requirement of its own phase")
	assert.Contains(t, out, "- Agent instruction honoured: plan the load tests early\n")
	assert.Contains(t, out, "- FR-003, FR-004 verified by acceptance tests\n", "other phases keep the common criterion")

	// Work of the persona's domain found elsewhere is planned in its phase
	// too, with where it came from.
	d := parse(t, "s.md", "# S\n\n## Architecture\n\nThe API is a module behind an interface with a clear boundary. Its cache keeps p95 latency low.\n\n## Performance\n\n- NFR-1: 500 requests per second.\n")
	out = write(t, d, debate.AgentSpec{Model: "opus", Persona: "performance"})
	assert.Contains(t, out, "## Phase 1: Performance and Scalability\n")
	assert.Contains(t, out, "- **Architecture** (from Architecture and Foundations): Its cache keeps p95 latency low.\n")
	assert.NotContains(t, out, "(from Architecture and Foundations): The API is a module", "only the sentences of its domain")
	other := write(t, d, debate.AgentSpec{Model: "opus", Persona: "qa"})
	assert.NotContains(t, other, "(from ", "other personas do not copy it")
}

func TestOfflineAuthorEdges(t *testing.T) {
	// A spec without sections is one unit.
	out := write(t, parse(t, "notes.md", "Deploy the API behind a canary.\n\n- FR-9: rollback within 5 minutes\n"), debate.AgentSpec{Persona: "qa"})
	assert.Contains(t, out, "# Roadmap: notes\n")
	assert.Contains(t, out, "## Phase 1: Delivery and Operations\n")
	assert.Contains(t, out, "| FR-9 | Delivery and Operations |")

	// Only context: no phases, and the requirement it mentions is not planned.
	out = write(t, parse(t, "c.md", "# C\n\n## Overview\n\nIt does FR-1 things.\n"), debate.AgentSpec{Persona: "qa"})
	assert.Contains(t, out, "- **Phases**: 0, in order; each starts when the one before meets its exit criteria\n")
	assert.Contains(t, out, "| FR-1 | Not planned (mentioned in 1 Overview) |")
	assert.Contains(t, out, "- **Goal**: It does FR-1 things.\n")

	_, err := OfflineAuthor{}.WriteRoadmap(context.Background(), AuthorRequest{})
	assert.Error(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = OfflineAuthor{}.WriteRoadmap(ctx, AuthorRequest{Spec: parse(t, "c.md", "# C\n")})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestOfflineAuthorAsGenerator(t *testing.T) {
	src := parse(t, "spec.md", tinySpec)
	var g adversarial.Generator = OfflineAuthor{}
	text, err := g.Generate(context.Background(), adversarial.GenerateRequest{Index: 2, Type: "roadmap",
		Agent: debate.AgentSpec{Model: "gpt52", Persona: "security"}, Source: src})
	require.NoError(t, err)
	assert.Equal(t, write(t, src, debate.AgentSpec{Model: "gpt52", Persona: "security"}), text)
	assert.Contains(t, text, "## Phase 1: Security and Compliance")

	_, err = g.Generate(context.Background(), adversarial.GenerateRequest{Agent: debate.AgentSpec{Model: "opus"}})
	assert.Error(t, err, "no source")
}

func TestGeneratorAuthor(t *testing.T) {
	var got adversarial.GenerateRequest
	gen := adversarial.GeneratorFunc(func(_ context.Context, req adversarial.GenerateRequest) (string, error) {
		got = req
		return "# Model roadmap\n", nil
	})
	src := parse(t, "spec.md", tinySpec)
	out, err := GeneratorAuthor{Generator: gen, Model: "sonnet"}.WriteRoadmap(context.Background(),
		AuthorRequest{Spec: src, Agent: debate.AgentSpec{Persona: "security"}})
	require.NoError(t, err)
	assert.Equal(t, "# Model roadmap\n", string(out))
	assert.Equal(t, adversarial.GenerateRequest{Index: 1, Type: "roadmap", Agent: debate.AgentSpec{Model: "sonnet", Persona: "security"}, Source: src}, got)

	_, err = GeneratorAuthor{}.WriteRoadmap(context.Background(), AuthorRequest{Spec: src})
	assert.Error(t, err)
}

func TestSentences(t *testing.T) {
	assert.Equal(t, []string{"One.", "Two is 2.5 s long!", "3 more? no."}, sentences(" One. Two is 2.5 s long! 3 more? no. "))
	assert.Equal(t, []string{"e.g. this stays"}, sentences("e.g. this stays"))
	assert.Nil(t, sentences("  "))
}

func TestExtractRequirements(t *testing.T) {
	got := ExtractRequirements(readSpec(t, "notifications.md"))
	var ids []string
	for _, r := range got {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{"FR-001", "FR-002", "FR-003", "FR-004", "NFR-001", "NFR-002", "SEC-001"}, ids)
	assert.Equal(t, Requirement{ID: "FR-002", Section: "2 Requirements", Line: 11,
		Text: "FR-002: Each notification must be delivered at most once per channel, using the caller's idempotency key."}, got[1])
}
