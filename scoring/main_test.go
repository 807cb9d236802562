package scoring

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/golden"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// parse parses Markdown text into a document.
func parse(t testing.TB, name, src string) *diff.Document {
	t.Helper()
	d, err := diff.Parse(name, []byte(src))
	require.NoError(t, err)
	return d
}

// load parses a document under testdata/docs.
func load(t testing.TB, name string) *diff.Document {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "docs", name))
	require.NoError(t, err)
	return parse(t, name, string(src))
}

// golden compares got with testdata/golden/name, or rewrites the file
// with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "golden", name), got)
}

// variants builds an input's variants from documents, agents "original".
func variants(docs ...*diff.Document) []Variant {
	out := make([]Variant, len(docs))
	for i, d := range docs {
		out[i] = Variant{Doc: d}
	}
	return out
}
