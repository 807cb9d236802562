package adversarialcmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	"go.yaml.in/yaml/v3"

	"github.com/crucible-go/crucible/examples/internal/cli"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// noEnv is an empty process environment: no API keys, so every run is
// offline.
func noEnv(string) (string, bool) { return "", false }

type outcome struct {
	code           int
	stdout, stderr string
}

func runMain(t *testing.T, stdin string, args ...string) outcome {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(context.Background(), cli.Env{Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, LookupEnv: noEnv})
	return outcome{code, out.String(), errOut.String()}
}

// contract is the part of the printed return contract the tests check.
type contract struct {
	Status       string   `yaml:"status"`
	MergedOutput string   `yaml:"merged_output_path"`
	Convergence  float64  `yaml:"convergence_score"`
	ArtifactsDir string   `yaml:"artifacts_dir"`
	BaseVariant  string   `yaml:"base_variant"`
	Unresolved   []string `yaml:"unresolved_conflicts"`
}

func parseContract(t *testing.T, stdout string) contract {
	t.Helper()
	var c contract
	require.NoError(t, yaml.Unmarshal([]byte(stdout), &c), "stdout must be the YAML return contract:\n%s", stdout)
	return c
}

// sample is the path of a bundled sample variant.
func sample(name string) string { return filepath.Join("..", "..", "samples", name) }

var pipelineArtifacts = []string{
	"adversarial/diff-analysis.md",
	"adversarial/debate-transcript.md",
	"adversarial/base-selection.md",
	"adversarial/refactor-plan.md",
	"adversarial/merge-log.md",
	"adversarial/return-contract.yaml",
	"merged-output.md",
}

func TestRunWritesEveryArtifact(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		wantFiles []string // besides pipelineArtifacts
		wantBase  string
		wantErr   string // on stderr
	}{
		{
			name:     "bundled samples",
			wantErr:  "running on the bundled sample variants",
			wantBase: "ingest-spec-",
		},
		{
			name:     "mode A, two files",
			args:     []string{"--compare", sample("ingest-spec-architect.md") + "," + sample("ingest-spec-security.md")},
			wantBase: "ingest-spec-",
		},
		{
			name:      "mode B, offline outlines",
			args:      []string{"--source", sample("ingest-spec-architect.md"), "--generate", "spec", "--agents", "opus:architect,haiku:security"},
			wantFiles: []string{"adversarial/variant-1-opus-architect.md", "adversarial/variant-2-haiku-security.md"},
			wantBase:  "opus:architect",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			got := runMain(t, "", append(tt.args, "--output", dir)...)
			require.Equal(t, cli.ExitOK, got.code, "stderr:\n%s", got.stderr)
			assert.Contains(t, got.stderr, tt.wantErr)

			c := parseContract(t, got.stdout)
			assert.Contains(t, []string{"success", "partial"}, c.Status)
			assert.Equal(t, filepath.Join(dir, "merged-output.md"), c.MergedOutput)
			assert.Equal(t, filepath.Join(dir, "adversarial"), c.ArtifactsDir)
			assert.Contains(t, c.BaseVariant, tt.wantBase)
			assert.True(t, c.Convergence >= 0 && c.Convergence <= 1, "convergence %v", c.Convergence)

			for _, f := range append(slicesClone(pipelineArtifacts), tt.wantFiles...) {
				b, err := os.ReadFile(filepath.Join(dir, f))
				if assert.NoError(t, err, f) {
					assert.NotEmpty(t, b, f)
				}
			}
			written, err := os.ReadFile(filepath.Join(dir, "adversarial", "return-contract.yaml"))
			require.NoError(t, err)
			assert.Equal(t, c, parseContract(t, string(written)), "the printed contract is the one written")
		})
	}
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

func TestRunRejectsBadInput(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"one file", []string{"--compare", sample("ingest-spec-architect.md")}, "Adversarial comparison requires at least 2 files, got 1"},
		{"missing file", []string{"--compare", sample("ingest-spec-architect.md") + "," + sample("nope.md")}, "nope.md"},
		{"both modes", []string{"--compare", "a.md,b.md", "--source", "s.md"}, "--compare"},
		{"mode B without agents", []string{"--source", sample("ingest-spec-architect.md"), "--generate", "spec"}, "--agents"},
		{"stray argument", []string{"extra"}, "unexpected arguments: extra"},
		{"unknown flag", []string{"--nope"}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			got := runMain(t, "", append(tt.args, "--output", dir)...)
			assert.Equal(t, cli.ExitUsage, got.code)
			assert.Contains(t, got.stderr, tt.wantErr)
			assert.Empty(t, got.stdout, "no contract for input the pipeline never ran on")
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Empty(t, entries, "bad input writes nothing")
		})
	}
}

func TestRunInteractiveTakesDefaultsOnEmptyAnswers(t *testing.T) {
	dir := t.TempDir()
	got := runMain(t, "\n\n\n\n",
		"--interactive", "--output", dir,
		"--compare", sample("ingest-spec-architect.md")+","+sample("ingest-spec-performance.md"))
	require.Equal(t, cli.ExitOK, got.code, "stderr:\n%s", got.stderr)
	for _, question := range []string{
		"Diff analysis complete.",
		"Would you like to highlight priority areas for debate?",
	} {
		assert.Contains(t, got.stderr, question)
	}
	sel, err := os.ReadFile(filepath.Join(dir, "adversarial", "base-selection.md"))
	require.NoError(t, err)
	assert.NotContains(t, string(sel), "user-overridden", "empty answers accept the defaults")
}

func TestRunInteractiveOverrideIsRecorded(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--interactive", "--output", dir,
		"--compare", sample("ingest-spec-architect.md") + "," + sample("ingest-spec-performance.md")}
	// Answer the base-selection checkpoint with the variant the scorer
	// did not pick: the first run says which one that is.
	first := runMain(t, "\n\n\n\n", args...)
	require.Equal(t, cli.ExitOK, first.code, "stderr:\n%s", first.stderr)
	picked := parseContract(t, first.stdout).BaseVariant
	other := "B"
	if strings.Contains(picked, "performance") {
		other = "A"
	}
	got := runMain(t, "\n\n"+other+"\n\n", args...)
	require.Equal(t, cli.ExitOK, got.code, "stderr:\n%s", got.stderr)
	c := parseContract(t, got.stdout)
	assert.NotEqual(t, picked, c.BaseVariant, "the override changes the base")
	sel, err := os.ReadFile(filepath.Join(dir, "adversarial", "base-selection.md"))
	require.NoError(t, err)
	assert.Contains(t, string(sel), "user-overridden")
}

// TestRunInteractiveAsksAgain answers the base-selection question with "y"
// (the question reads as yes/no) and then with a letter no variant has:
// the run asks again each time rather than failing.
func TestRunInteractiveAsksAgain(t *testing.T) {
	dir := t.TempDir()
	got := runMain(t, "\n\ny\nZ\n\n\n",
		"--interactive", "--output", dir,
		"--compare", sample("ingest-spec-architect.md")+","+sample("ingest-spec-performance.md"))
	require.Equal(t, cli.ExitOK, got.code, "stderr:\n%s", got.stderr)
	assert.Contains(t, got.stderr, "Which variant should be the base? [A, B; Enter: accept]")
	assert.Contains(t, got.stderr, `(no variant "Z"; the variants are A, B)`)
	assert.NotEqual(t, "failed", parseContract(t, got.stdout).Status)
	sel, err := os.ReadFile(filepath.Join(dir, "adversarial", "base-selection.md"))
	require.NoError(t, err)
	assert.NotContains(t, string(sel), "user-overridden", "Enter after the invalid answers accepts the selection")
}
