package roadmapcmd

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/examples/internal/cli"
	"github.com/crucible-go/crucible/examples/internal/models"
	"github.com/crucible-go/crucible/internal/golden"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

// goldenDir is absolute: the tests run in temporary working directories.
var goldenDir = func() string {
	d, err := filepath.Abs(filepath.Join("testdata", "golden"))
	if err != nil {
		panic(err)
	}
	return d
}()

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func fixed() time.Time { return time.Date(2026, 2, 13, 9, 0, 0, 0, time.UTC) }

// sample returns the absolute path of a bundled sample spec, so that tests
// can run in a temporary working directory.
func sample(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "samples", name))
	require.NoError(t, err)
	return p
}

type outcome struct {
	code           int
	stdout, stderr string
}

// runIn runs the program in a fresh working directory with stdin, and
// returns its outcome and the directory.
func runIn(t *testing.T, stdin string, args ...string) (outcome, string) {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	env := func(string) (string, bool) { return "", false }
	code := Main(context.Background(), cli.Env{Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, LookupEnv: env, Now: fixed, Adapters: fakeAdapters})
	return outcome{code, out.String(), errOut.String()}, dir
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// frontMatter returns the decoded front matter of a roadmap.md.
func frontMatter(t *testing.T, path string) map[string]any {
	t.Helper()
	d, err := diff.Parse(path, []byte(read(t, path)))
	require.NoError(t, err)
	require.NotNil(t, d.FrontMatter, "%s has front matter", path)
	return d.FrontMatter.Data
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join(goldenDir, name), got)
}

// files lists every file under dir, slash-separated and sorted.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return err
	}))
	return out
}

var pipelineArtifacts = []string{"adversarial/base-selection.md", "adversarial/debate-transcript.md", "adversarial/diff-analysis.md",
	"adversarial/merge-log.md", "adversarial/refactor-plan.md", "adversarial/return-contract.yaml"}

// approveLowConvergence answers the pipeline's four checkpoints with their
// defaults, then approves proceeding below the 60% routing threshold. The
// two refund drafts disagree on every topic both cover, and two offline
// advocates split 1–1 on each, so their consolidation converges at 50%.
const approveLowConvergence = "\n\n\n\ny\n"

func TestMultiSpec(t *testing.T) {
	specs := sample(t, "refunds-payments.md") + "," + sample(t, "refunds-platform.md")
	res, _ := runIn(t, "", "--specs", specs, "--output", "out")
	require.Equal(t, cli.ExitFailed, res.code, "below 60% the roadmap aborts unless approved")
	assert.Contains(t, res.stderr, "is below 60% threshold.\nUse --interactive to approve low-convergence results, or revise specifications.\n")

	res, dir := runIn(t, approveLowConvergence, "--specs", specs, "--output", "out", "--interactive")
	require.Equal(t, cli.ExitOK, res.code, res.stderr)
	out := filepath.Join(dir, "out")

	a := frontMatter(t, filepath.Join(out, "roadmap.md"))["adversarial"].(map[string]any)
	assert.Equal(t, "multi-spec", a["mode"], "the acceptance check")
	assert.Equal(t, []any{"heuristic", "heuristic"}, a["agents"], "the advocates the pipeline used")
	assert.Equal(t, "out/adversarial", a["artifacts_dir"])
	assert.NotContains(t, a, "base_variant")
	for _, f := range append([]string{"roadmap.md", "extraction.md", "unified-spec.md",
		"adversarial/variant-1-original.md", "adversarial/variant-2-original.md"}, pipelineArtifacts...) {
		assert.FileExists(t, filepath.Join(out, f))
	}
	ext := read(t, filepath.Join(out, "extraction.md"))
	assert.Contains(t, ext, "## Consolidation Warnings\n\n> **Warning**: Adversarial consolidation partial (convergence: ")
	assert.Contains(t, res.stderr, "msg=\"invoking the adversarial pipeline\" wave=1A")
	checkGolden(t, "multi-spec-stdout.txt", res.stdout)
	checkGolden(t, "multi-spec-roadmap.md", read(t, filepath.Join(out, "roadmap.md")))
	checkGolden(t, "multi-spec-extraction.md", ext)
}

func TestMultiRoadmap(t *testing.T) {
	// Model-only agents take the spec's primary persona (security for the
	// payments draft), so their roadmaps agree.
	res, dir := runIn(t, "", sample(t, "refunds-payments.md"), "--multi-roadmap", "--agents", "opus,sonnet,gpt52:security", "--depth", "quick", "--output", "out")
	require.Equal(t, cli.ExitOK, res.code, res.stderr)
	out := filepath.Join(dir, "out")
	a := frontMatter(t, filepath.Join(out, "roadmap.md"))["adversarial"].(map[string]any)
	assert.Equal(t, "multi-roadmap", a["mode"])
	assert.Equal(t, []any{"opus:security", "sonnet:security", "gpt52:security"}, a["agents"])
	assert.Equal(t, "opus:security", a["base_variant"])
	for _, f := range []string{"adversarial/variant-1-opus-security.md", "adversarial/variant-2-sonnet-security.md",
		"adversarial/variant-3-gpt52-security.md", "merged-roadmap.md", "extraction.md"} {
		assert.FileExists(t, filepath.Join(out, f))
	}
	assert.Contains(t, res.stderr, "--source refunds-payments.md --generate roadmap --agents opus:security,sonnet:security,gpt52:security --depth quick --output out")
	assert.NotContains(t, res.stderr, "--interactive", "propagated only when set")
	checkGolden(t, "multi-roadmap-stdout.txt", res.stdout)
	checkGolden(t, "multi-roadmap-roadmap.md", read(t, filepath.Join(out, "roadmap.md")))
}

func TestMultiRoadmapLowConvergence(t *testing.T) {
	portal := sample(t, "customer-portal.md")
	args := func(extra ...string) []string {
		return append([]string{portal, "--multi-roadmap", "--agents", "opus:security,sonnet:qa,haiku", "--output", "out"}, extra...)
	}
	// Mixed personas order their phases differently, which the offline
	// debate cannot settle: convergence stays below 60%.
	res, dir := runIn(t, "", args()...)
	assert.Equal(t, cli.ExitFailed, res.code)
	assert.Contains(t, res.stderr, "is below 60% threshold.\nUse --interactive to approve low-convergence results, or revise specifications.\n")
	assert.NoFileExists(t, filepath.Join(dir, "out", "roadmap.md"), "an aborted run writes no roadmap")
	assert.FileExists(t, filepath.Join(dir, "out", "adversarial", "debate-transcript.md"), "the artifacts stay for review")
	assert.Contains(t, res.stdout, "adversarial/return-contract.yaml")

	// The pipeline's four checkpoints ask first (empty answers accept its
	// defaults), then the roadmap asks whether to proceed.
	const acceptCheckpoints = "\n\n\n\n"
	res, dir = runIn(t, acceptCheckpoints+"n\n", args("--interactive")...)
	assert.Equal(t, cli.ExitFailed, res.code)
	for _, q := range []string{"Diff analysis complete.", "Debate complete.", "Base selected:", "Refactoring plan:"} {
		assert.Contains(t, res.stderr, q, "the pipeline's checkpoints ask on the terminal")
	}
	assert.Contains(t, res.stderr, "(below 60% threshold).\nProceed anyway? [Y/n] ")
	assert.Contains(t, res.stderr, "was not approved. Roadmap generation aborted.")
	assert.NoFileExists(t, filepath.Join(dir, "out", "roadmap.md"))

	res, dir = runIn(t, acceptCheckpoints+"y\n", args("--interactive")...)
	require.Equal(t, cli.ExitOK, res.code, res.stderr)
	assert.Contains(t, res.stderr, "--output out --interactive", "interactive propagates to the pipeline")
	ext := read(t, filepath.Join(dir, "out", "extraction.md"))
	assert.Contains(t, ext, "below the 60% threshold was approved interactively.")
	assert.Contains(t, ext, "> **Warning**: Specifications may be too divergent for meaningful consolidation.\n")
	a := frontMatter(t, filepath.Join(dir, "out", "roadmap.md"))["adversarial"].(map[string]any)
	assert.Equal(t, []any{"opus:security", "sonnet:qa", "haiku:frontend"}, a["agents"], "haiku takes the portal's primary persona")
}

func TestCombined(t *testing.T) {
	// Wave 1A's two refund drafts take opposite sides on every contested
	// point (0% convergence), so the consolidation needs the user's
	// approval; Wave 2 then runs on the unified spec.
	res, dir := runIn(t, approveLowConvergence+approveLowConvergence, "--specs", sample(t, "refunds-payments.md")+","+sample(t, "refunds-platform.md"),
		"--multi-roadmap", "--agents", "opus,sonnet", "--depth", "deep", "--output", "out", "--interactive")
	require.Equal(t, cli.ExitOK, res.code, res.stderr)
	out := filepath.Join(dir, "out")
	a := frontMatter(t, filepath.Join(out, "roadmap.md"))["adversarial"].(map[string]any)
	assert.Equal(t, "combined", a["mode"])
	assert.Contains(t, a, "base_variant")
	assert.Equal(t, "out/adversarial", a["artifacts_dir"])
	for _, f := range pipelineArtifacts {
		assert.FileExists(t, filepath.Join(out, f), "Wave 2")
		assert.FileExists(t, filepath.Join(out, "consolidation", f), "Wave 1A")
	}
	assert.FileExists(t, filepath.Join(out, "consolidation", "unified-spec.md"))
	assert.Contains(t, res.stderr, "--source unified-spec.md --generate roadmap")
	ext := read(t, filepath.Join(out, "extraction.md"))
	assert.Contains(t, ext, "### Wave 1A (multi-spec consolidation)")
	checkGolden(t, "combined-stdout.txt", res.stdout)
	checkGolden(t, "combined-extraction.md", ext)
}

func TestStandardPath(t *testing.T) {
	res, dir := runIn(t, "", sample(t, "customer-portal.md"), "--output", "out")
	require.Equal(t, cli.ExitOK, res.code, res.stderr)
	fm := frontMatter(t, filepath.Join(dir, "out", "roadmap.md"))
	assert.NotContains(t, fm, "adversarial")
	assert.Equal(t, "frontend", fm["primary_persona"])
	assert.Equal(t, []string{"out/extraction.md", "out/roadmap.md"}, files(t, dir), "no adversarial work")
	assert.Equal(t, "mode: none\nprimary persona: frontend\nwrote:\n  extraction.md\n  roadmap.md\n", res.stdout)
}

func TestBundledSamples(t *testing.T) {
	res, dir := runIn(t, approveLowConvergence, "--interactive")
	require.Equal(t, cli.ExitOK, res.code, res.stderr)
	assert.Contains(t, res.stderr, "No spec or --specs given: consolidating the bundled sample specs")
	assert.Equal(t, "multi-spec", frontMatter(t, filepath.Join(dir, "roadmap-output", "roadmap.md"))["adversarial"].(map[string]any)["mode"])
}

func TestDeterministic(t *testing.T) {
	args := []string{"--specs", sample(t, "refunds-payments.md") + "," + sample(t, "refunds-platform.md"), "--multi-roadmap", "--agents", "opus,gemini", "--output", "out"}
	_, a := runIn(t, "", args...)
	_, b := runIn(t, "", args...)
	names := files(t, a)
	require.Equal(t, names, files(t, b))
	for _, n := range names {
		assert.Equal(t, read(t, filepath.Join(a, n)), read(t, filepath.Join(b, n)), n)
	}
}

func TestBadInput(t *testing.T) {
	specs := func() string { return sample(t, "refunds-payments.md") + "," + sample(t, "refunds-platform.md") }
	tests := []struct {
		name string
		args func() []string
		env  map[string]string
		want string
	}{
		{"unknown model", func() []string {
			return []string{sample(t, "customer-portal.md"), "--multi-roadmap", "--agents", "opus,llama3"}
		}, nil, "roadmap: Unknown model 'llama3' in --agents. Available models: gemini, gpt52, haiku, opus, sonnet\n"},
		{"unknown model against a real provider's registry", func() []string {
			return []string{sample(t, "customer-portal.md"), "--multi-roadmap", "--agents", "gpt52,opus", "--provider", "openai"}
		}, map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"},
			"roadmap: Unknown model 'opus' in --agents. Available models: gpt-5.2, gpt-5.4-mini, gpt-5.5, gpt52, gpt54-mini, gpt55\n"},
		{"one agent", func() []string {
			return []string{sample(t, "customer-portal.md"), "--multi-roadmap", "--agents", "opus"}
		}, nil,
			"roadmap: Agent count must be 2-10. Provided: 1\n"},
		{"eleven agents", func() []string {
			return []string{sample(t, "customer-portal.md"), "--multi-roadmap", "--agents", strings.TrimSuffix(strings.Repeat("opus,", 11), ",")}
		}, nil, "roadmap: Agent count must be 2-10. Provided: 11\n"},
		{"agents without multi-roadmap", func() []string { return []string{sample(t, "customer-portal.md"), "--agents", "opus,sonnet"} }, nil,
			"roadmap: --agents requires --multi-roadmap\n"},
		{"one spec to consolidate", func() []string { return []string{"--specs", sample(t, "customer-portal.md")} }, nil,
			"roadmap: Adversarial comparison requires at least 2 files, got 1\n"},
		{"missing spec", func() []string { return []string{"--specs", sample(t, "customer-portal.md") + ",nope.md"} }, nil,
			"roadmap: File not found: nope.md\n"},
		{"missing single spec", func() []string { return []string{"nope.md"} }, nil, "roadmap: File not found: nope.md\n"},
		{"spec and specs", func() []string { return []string{sample(t, "customer-portal.md"), "--specs", specs()} }, nil,
			"roadmap: Give a spec file or --specs, not both: --specs replaces the spec file\n"},
		{"two specs", func() []string { return []string{"a.md", "b.md"} }, nil, "roadmap: one spec file at most, got: a.md b.md\n"},
		{"unknown provider", func() []string { return []string{"--provider", "gemini"} }, nil,
			"roadmap: unknown --provider \"gemini\"; want one of offline, anthropic, openai\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args()
			t.Chdir(t.TempDir())
			var out, errOut bytes.Buffer
			env := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
			code := Main(context.Background(), cli.Env{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, LookupEnv: env, Now: fixed, Adapters: fakeAdapters})
			assert.Equal(t, cli.ExitUsage, code)
			assert.Contains(t, errOut.String(), tt.want)
			assert.Empty(t, out.String())
		})
	}
}

func TestHelp(t *testing.T) {
	res, _ := runIn(t, "", "-h")
	assert.Equal(t, cli.ExitOK, res.code)
	assert.Contains(t, res.stdout, "usage: roadmap [flags] [spec.md|-]")
	assert.Contains(t, res.stdout, "-multi-roadmap")
	assert.Empty(t, res.stderr)
}

func TestOrchestratorForFiveAgents(t *testing.T) {
	res, dir := runIn(t, "\n\n\n\ny\n", sample(t, "refunds-platform.md"), "--multi-roadmap", "--agents",
		"opus:security,sonnet:qa,haiku:performance,gpt52:devops,gemini", "--interactive", "--output", "out")
	require.Equal(t, cli.ExitOK, res.code, res.stderr)
	out := filepath.Join(dir, "out")
	assert.Contains(t, read(t, filepath.Join(out, "extraction.md")), "- Orchestrator: added for 5 agents (≥ 5; not counted toward the 2-10 limit)\n")
	assert.Contains(t, read(t, filepath.Join(out, "adversarial", "debate-transcript.md")), "- Orchestrator: final debate among ",
		"the pipeline ran its orchestrator")
	a := frontMatter(t, filepath.Join(out, "roadmap.md"))["adversarial"].(map[string]any)
	assert.Len(t, a["agents"], 5, "the orchestrator is not an agent")
}

// fakeAdapters stand in for the SDK adapters the offline build does not
// link: the registry has the provider's model table, and no call reaches
// a network.
var fakeAdapters = map[string]models.Adapter{
	models.OpenAI: func(models.Env, []models.Model, models.AdapterConfig) (provider.Provider, error) {
		return providertest.NewFake(), nil
	},
}
