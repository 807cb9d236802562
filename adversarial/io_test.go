package adversarial

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoadVariants(t *testing.T) {
	fsys := fstest.MapFS{
		"specs/a.md":     {Data: []byte("# A\n")},
		"specs/b.md":     {Data: []byte("# B\n")},
		"other/a.md":     {Data: []byte("# other A\n")},
		"notes/plan.txt": {Data: []byte("plain text\n")},
	}
	tests := []struct {
		name      string
		paths     []string
		wantErr   string
		wantNames []string
		warnings  int
	}{
		{"two files", []string{"specs/a.md", "specs/b.md"}, "", []string{"a.md", "b.md"}, 0},
		{"one file", []string{"specs/a.md"}, "adversarial comparison requires at least 2 files, got 1", nil, 0},
		{"none", nil, "adversarial comparison requires at least 2 files, got 0", nil, 0},
		{"eleven", make([]string, 11), "maximum 10 files supported, got 11", nil, 0},
		{"missing", []string{"specs/a.md", "specs/zzz.md"}, "file not found: specs/zzz.md", nil, 0},
		{"escaping path", []string{"specs/a.md", "../etc/passwd"}, "file not found: ../etc/passwd", nil, 0},
		{"not markdown warns", []string{"specs/a.md", "notes/plan.txt"}, "", []string{"a.md", "plan.txt"}, 1},
		{"same base name keeps paths", []string{"specs/a.md", "other/a.md"}, "", []string{"specs/a.md", "other/a.md"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs, warns, err := LoadVariants(fsys, tt.paths)
			if tt.wantErr != "" {
				assert.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			var names []string
			for _, v := range vs {
				names = append(names, v.Name)
			}
			assert.Equal(t, tt.wantNames, names)
			assert.Len(t, warns, tt.warnings)
		})
	}
	_, _, err := LoadVariants(fsys, []string{"x.md"})
	assert.ErrorIs(t, err, ErrTooFewFiles)
	_, _, err = LoadVariants(fsys, []string{"specs/a.md", "nope.md"})
	assert.ErrorIs(t, err, ErrFileNotFound)
}

func TestSinks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, s := range []Sink{NewDirSink(dir), NewMemorySink()} {
		require.NoError(t, s.Write(ctx, DiffAnalysisFile, []byte("# Diff\n")))
		require.NoError(t, s.Write(ctx, DefaultMergedOutputFile, []byte("merged\n")))
		for _, bad := range []string{"../escape.md", "/abs.md", "a/../../b.md", "", "a\\b.md", "./x.md"} {
			assert.ErrorIs(t, s.Write(ctx, bad, nil), ErrUnsafeName, bad)
		}
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		assert.ErrorIs(t, s.Write(cctx, "late.md", nil), context.Canceled)
	}
	b, err := os.ReadFile(filepath.Join(dir, "adversarial", "diff-analysis.md"))
	require.NoError(t, err)
	assert.Equal(t, "# Diff\n", string(b))
	_, err = os.Stat(filepath.Join(filepath.Dir(dir), "escape.md"))
	assert.True(t, os.IsNotExist(err))

	m := NewMemorySink()
	require.NoError(t, m.Write(ctx, "b.md", []byte("1")))
	require.NoError(t, m.Write(ctx, "a.md", []byte("2")))
	require.NoError(t, m.Write(ctx, "b.md", []byte("3")))
	arts := m.Artifacts()
	assert.Equal(t, []Artifact{{"b.md", []byte("3")}, {"a.md", []byte("2")}}, arts)
	got, ok := m.Get("a.md")
	assert.True(t, ok)
	assert.Equal(t, "2", string(got))
}

func TestVariantFileName(t *testing.T) {
	tests := []struct {
		n              int
		model, persona string
		want           string
	}{
		{1, "", "", "adversarial/variant-1-original.md"},
		{2, "opus", "architect", "adversarial/variant-2-opus-architect.md"},
		{3, "sonnet", "", "adversarial/variant-3-sonnet-default.md"},
		{4, "../../etc", "pass/wd", "adversarial/variant-4-etc-pass-wd.md"},
		{5, "GPT 5.2", "Sec Ops!", "adversarial/variant-5-gpt-5.2-sec-ops.md"},
		{6, "...", "..", "adversarial/variant-6-model-default.md"},
	}
	for _, tt := range tests {
		got := variantFileName(tt.n, tt.model, tt.persona)
		assert.Equal(t, tt.want, got)
		assert.NoError(t, checkName(got))
	}
}
