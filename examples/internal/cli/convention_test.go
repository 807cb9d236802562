package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/crucible-go/crucible/examples/internal/adversarialcmd"
	"github.com/crucible-go/crucible/examples/internal/challengecmd"
	"github.com/crucible-go/crucible/examples/internal/cli"
	"github.com/crucible-go/crucible/examples/internal/criticcmd"
	"github.com/crucible-go/crucible/examples/internal/roadmapcmd"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func sample(name string) string { return filepath.Join("..", "..", "samples", name) }

// command describes how one example takes an input file, so that one table
// can hold all four to the same convention.
type command struct {
	name string
	main func(context.Context, cli.Env) int
	// file returns the arguments that make the command read path as its
	// input file; out is an empty output directory.
	file func(path, out string) []string
}

var commands = []command{
	{"adversarial", adversarialcmd.Main, func(path, out string) []string {
		return []string{"--compare", path + "," + sample("ingest-spec-security.md"), "--output", out}
	}},
	{"challenge", challengecmd.Main, func(path, _ string) []string { return []string{path} }},
	{"critic", criticcmd.Main, func(path, _ string) []string { return []string{path} }},
	{"roadmap", roadmapcmd.Main, func(path, out string) []string { return []string{path, "--output", out} }},
}

type result struct {
	code           int
	stdout, stderr string
}

func run(t *testing.T, c command, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	env := cli.Env{Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut,
		LookupEnv: func(string) (string, bool) { return "", false },
		Now:       func() time.Time { return time.Date(2026, 2, 13, 9, 0, 0, 0, time.UTC) }}
	code := c.main(context.Background(), env)
	return result{code, out.String(), errOut.String()}
}

// TestConvention runs every example with -h, an unknown flag, a missing
// file, a directory, standard input (-) and --json, and holds each to the
// shared convention.
func TestConvention(t *testing.T) {
	spec, err := os.ReadFile(sample("ingest-spec-architect.md"))
	require.NoError(t, err)
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			t.Run("-h", func(t *testing.T) {
				for _, h := range []string{"-h", "--help"} {
					r := run(t, c, "", h)
					assert.Equal(t, cli.ExitOK, r.code)
					assert.True(t, strings.HasPrefix(r.stdout, "usage: "+c.name), "usage on stdout:\n%s", r.stdout)
					assert.Contains(t, r.stdout, "-json")
					assert.Empty(t, r.stderr)
				}
			})
			t.Run("unknown flag", func(t *testing.T) {
				r := run(t, c, "", "--no-such-flag")
				assert.Equal(t, cli.ExitUsage, r.code)
				assert.True(t, strings.HasPrefix(r.stderr, c.name+": flag provided but not defined: -no-such-flag\n"), "stderr:\n%s", r.stderr)
				assert.Contains(t, r.stderr, "usage: "+c.name, "a usage error prints the usage")
				assert.Empty(t, r.stdout)
			})
			t.Run("missing file", func(t *testing.T) {
				missing := filepath.Join(t.TempDir(), "nope.md")
				r := run(t, c, "", c.file(missing, t.TempDir())...)
				assert.Equal(t, cli.ExitUsage, r.code)
				assert.Equal(t, c.name+": File not found: "+missing+"\n", r.stderr)
				assert.Empty(t, r.stdout)
			})
			t.Run("directory", func(t *testing.T) {
				dir := t.TempDir()
				r := run(t, c, "", c.file(dir, t.TempDir())...)
				assert.Equal(t, cli.ExitUsage, r.code)
				assert.Equal(t, c.name+": "+dir+" is a directory; give a file\n", r.stderr, "one clean line")
				assert.Empty(t, r.stdout)
			})
			t.Run("standard input", func(t *testing.T) {
				r := run(t, c, string(spec), c.file("-", t.TempDir())...)
				assert.Equal(t, cli.ExitOK, r.code, "stderr:\n%s", r.stderr)
				assert.NotEmpty(t, r.stdout)
				// The file given as - was read: the same run from the file
				// prints the same result, up to the input's name.
				f := run(t, c, "", c.file(sample("ingest-spec-architect.md"), t.TempDir())...)
				require.Equal(t, cli.ExitOK, f.code, "stderr:\n%s", f.stderr)
				assert.Equal(t, lineCount(f.stdout), lineCount(r.stdout))
			})
			t.Run("--json", func(t *testing.T) {
				r := run(t, c, "", append(c.file(sample("ingest-spec-architect.md"), t.TempDir()), "--json")...)
				assert.Equal(t, cli.ExitOK, r.code, "stderr:\n%s", r.stderr)
				var v map[string]any
				require.NoError(t, json.Unmarshal([]byte(r.stdout), &v), "stdout is one JSON object:\n%s", r.stdout)
				assert.NotEmpty(t, v)
			})
			t.Run("model without adapters", func(t *testing.T) {
				if c.name == "critic" {
					return // the critic runs offline only: no --provider
				}
				args := []string{"--provider", "anthropic"}
				if c.name != "challenge" {
					args = append(args, "--output", t.TempDir())
				}
				r := run(t, c, "", args...)
				assert.Equal(t, cli.ExitUsage, r.code)
				last := r.stderr[strings.LastIndex(strings.TrimSuffix(r.stderr, "\n"), "\n")+1:]
				assert.Equal(t, c.name+": --provider anthropic: this build has no model adapters (the SDK adapters are modules of their own); "+
					"run the model-enabled build: go -C examples/withmodels run . "+c.name+" --provider anthropic …\n", last)
				assert.Empty(t, r.stdout)
			})
			t.Run("stray argument", func(t *testing.T) {
				r := run(t, c, "", append(c.file(sample("ingest-spec-architect.md"), t.TempDir()), "a.md", "b.md")...)
				assert.Equal(t, cli.ExitUsage, r.code)
				assert.Contains(t, r.stderr, "usage: "+c.name)
				assert.Empty(t, r.stdout)
			})
		})
	}
}

func lineCount(s string) int { return strings.Count(s, "\n") }

// TestStdinOnce: standard input holds one file.
func TestStdinOnce(t *testing.T) {
	r := run(t, commands[0], "# A\n", "--compare", "-,-", "--output", t.TempDir())
	assert.Equal(t, cli.ExitUsage, r.code)
	assert.Contains(t, r.stderr, "standard input (-) can be read only once")
}

// TestInteractiveNeedsStdin: - and --interactive cannot share the input.
func TestInteractiveNeedsStdin(t *testing.T) {
	r := run(t, commands[0], "# A\n", "--compare", "-,"+sample("ingest-spec-security.md"), "--interactive", "--output", t.TempDir())
	assert.Equal(t, cli.ExitUsage, r.code)
	assert.Contains(t, r.stderr, "--interactive asks on standard input")
}
