package adversarial

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestInputMode(t *testing.T) {
	src := &Draft{Name: "spec.md", Content: []byte("# Spec\n")}
	two := []Draft{{Name: "a.md"}, {Name: "b.md"}}
	tests := []struct {
		name string
		in   Input
		want Mode
		err  string
	}{
		{"mode A", Input{Compare: two}, ModeCompare, ""},
		{"mode A with agents names advocates", Input{Compare: two, Agents: agentList("opus,sonnet")}, ModeCompare, ""},
		{"mode B", Input{Source: src, Generate: "roadmap", Agents: agentList("opus,sonnet")}, ModeGenerate, ""},
		{"both", Input{Compare: two, Source: src, Generate: "roadmap"}, "", "cannot use --compare with --source/--generate/--agents"},
		{"neither", Input{}, "", "must provide --compare (Mode A) or --source + --generate + --agents (Mode B)"},
		{"mode B missing agents", Input{Source: src, Generate: "roadmap"}, "", "mode B requires all three flags: --source, --generate, --agents. Missing: --agents"},
		{"mode B missing source and generate", Input{Agents: agentList("opus,sonnet")}, "", "mode B requires all three flags: --source, --generate, --agents. Missing: --source, --generate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.Mode()
			if tt.err != "" {
				assert.EqualError(t, err, tt.err)
				return
			}
			assert.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestContractYAML(t *testing.T) {
	r := &Result{Status: StatusPartial, MergedOutputPath: "out/merged-output.md", ConvergenceScore: 0.75, ConvergenceAllPoints: 0.8125,
		ArtifactsDir: "out/adversarial", UnresolvedConflicts: []string{"C-002", "X-001"}, BaseVariant: "opus:architect"}
	r.Usage.Calls = 3
	b, err := r.ContractYAML()
	assert.NoError(t, err)
	assert.Equal(t, `status: partial
merged_output_path: out/merged-output.md
convergence_score: 0.75
convergence_all_points: 0.8125
artifacts_dir: out/adversarial
unresolved_conflicts:
    - C-002
    - X-001
base_variant: opus:architect
usage:
    calls: 3
    input_tokens: 0
    output_tokens: 0
`, string(b))
	empty, err := (&Result{Status: StatusSuccess}).ContractYAML()
	assert.NoError(t, err)
	assert.Contains(t, string(empty), "unresolved_conflicts: []\n", "an empty list, not a missing key")
}

func TestCallTimeoutFitsTheReply(t *testing.T) {
	tests := []struct {
		maxTokens int
		want      time.Duration
	}{
		{0, 10 * time.Minute},
		{4096, 60*time.Second + 4096*time.Second/30*6/5},
		{8192, 60*time.Second + 8192*time.Second/30*6/5},
	}
	for _, tc := range tests {
		got := CallTimeout(tc.maxTokens)
		assert.InDelta(t, tc.want.Seconds(), got.Seconds(), 0.01, "max tokens %d", tc.maxTokens)
		if tc.maxTokens > 0 {
			atSlowSpeed := time.Duration(tc.maxTokens) * time.Second / SlowTokensPerSecond
			assert.Greater(t, got, atSlowSpeed, "the whole reply fits at a slow model's speed")
		}
	}
}

func TestUnwrapMarkdownKeepsCodeBlocks(t *testing.T) {
	const code = "```go\nfunc main() {}\n```\n"
	doc := "# Spec\n\n## Build\n\n" + code + "\nDone.\n"
	tests := []struct{ name, reply, want string }{
		{"bare", doc, doc},
		{"prose then the document", "Here is the spec.\n\n" + doc, doc},
		{"fenced, inner fence of the same length", "Draft:\n\n```markdown\n" + doc + "```\n\nHope it helps.", doc},
		{"prose then an unlabelled code block inside the document", "Here it is.\n\n# Spec\n\n```\nplain\n```\n", "# Spec\n\n```\nplain\n```\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, unwrapMarkdown(tc.reply))
		})
	}
}
