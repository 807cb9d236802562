package roadmap

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
)

func parse(t testing.TB, name, text string) *diff.Document {
	t.Helper()
	d, err := diff.Parse(name, []byte(text))
	require.NoError(t, err)
	return d
}

func readSpec(t testing.TB, name string) *diff.Document {
	t.Helper()
	b, err := os.ReadFile("testdata/specs/" + name)
	require.NoError(t, err)
	return parse(t, name, string(b))
}

func TestKeywordDetector(t *testing.T) {
	tests := []struct {
		name, text string
		det        KeywordDetector
		want       string
		reason     string
	}{
		{"security spec", "# Login\n\n## Authentication\n\nTokens are signed; passwords are hashed with a salt. OAuth scopes limit access.\n",
			KeywordDetector{}, "security", "highest domain keyword score (security 9)"},
		{"heading outweighs body text", "# S\n\n## Security\n\nLatency stays low and latency is measured.\n",
			KeywordDetector{}, "security", "highest domain keyword score (security 3, performance 2)"},
		{"tie goes to the earlier domain", "# S\n\nThe api needs security.\n",
			KeywordDetector{}, "backend", "highest domain keyword score (backend 1, security 1)"},
		{"phrases count", "# S\n\nPersonal data is removed. A load test runs weekly.\n",
			KeywordDetector{}, "security", "highest domain keyword score (security 1, performance 1, qa 1)"},
		{"code and requirement ids do not count", "# S\n\n- CI-001: the widget.\n\n```\ndeploy deploy deploy\n```\n",
			KeywordDetector{}, "architect", "no domain keywords matched; architect by default"},
		{"custom default", "# Plain\n\nNothing to see.\n", KeywordDetector{Default: "qa"}, "qa", "no domain keywords matched; qa by default"},
		{"frontend", "# Portal\n\n## User Interface\n\nThe React page meets WCAG 2.2 AA with keyboard navigation.\n",
			KeywordDetector{}, "frontend", "highest domain keyword score (frontend 7, architect 3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.det.DetectPersona(context.Background(), parse(t, "s.md", tt.text))
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.Primary)
			assert.Equal(t, tt.reason, got.Reason)
		})
	}
}

func TestKeywordDetectorScores(t *testing.T) {
	got, err := KeywordDetector{}.DetectPersona(context.Background(), readSpec(t, "notifications.md"))
	require.NoError(t, err)
	require.NotEmpty(t, got.Scores)
	assert.Equal(t, got.Primary, got.Scores[0].Persona)
	for i := 1; i < len(got.Scores); i++ {
		assert.GreaterOrEqual(t, got.Scores[i-1].Score, got.Scores[i].Score, "highest first")
	}
	for _, s := range got.Scores {
		assert.NotEmpty(t, s.Keywords, s.Persona)
		assert.LessOrEqual(t, len(s.Keywords), 5)
	}
	again, err := KeywordDetector{}.DetectPersona(context.Background(), readSpec(t, "notifications.md"))
	require.NoError(t, err)
	assert.Equal(t, got, again, "deterministic")
}

func TestKeywordDetectorEdges(t *testing.T) {
	got, err := KeywordDetector{}.DetectPersona(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, DefaultPersona, got.Primary)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = KeywordDetector{}.DetectPersona(ctx, parse(t, "s.md", "# S\n"))
	assert.ErrorIs(t, err, context.Canceled)
}

func TestDomainTable(t *testing.T) {
	// Every domain is a persona the adversarial package knows, so expanded
	// agents never carry an unknown persona.
	for _, p := range DomainPersonas() {
		assert.True(t, knownPersona(p), p)
	}
	assert.Equal(t, "architect", DomainPersonas()[0], "foundations break ties first")
}

func TestExpandAgents(t *testing.T) {
	agents, err := debate.ParseAgents(`opus,sonnet:architect,gpt52:"focus on cost",haiku:qa:"edge cases"`)
	require.NoError(t, err)
	got := ExpandAgents(agents, "security")
	assert.Equal(t, `opus:security,sonnet:architect,gpt52:security:"focus on cost",haiku:qa:"edge cases"`, AgentList(got))
	assert.Equal(t, "", agents[0].Persona, "the input is not modified")
}
