package debate

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/golden"
)

var fixedClock = func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }

// loadSet parses the variants of one of the diff step's golden sets.
func loadSet(t testing.TB, name string) []*diff.Document {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "diff", "testdata", "sets", name, "[a-z].md"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var docs []*diff.Document
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		d, err := diff.Parse(filepath.Base(f), src)
		require.NoError(t, err)
		docs = append(docs, d)
	}
	return docs
}

// setInput analyses a golden set and prepares a debate over it with the
// given advocates (heuristic ones when nil).
func setInput(t testing.TB, name string, advocates []Advocate) Input {
	t.Helper()
	docs := loadSet(t, name)
	a, err := diff.Analyze(context.Background(), docs, diff.WithClock(fixedClock), diff.WithArtifactType("Specification"))
	require.NoError(t, err)
	in := Input{Analysis: a}
	for i, d := range docs {
		in.Variants = append(in.Variants, Variant{Label: diff.Label(i), Agent: "heuristic", Doc: d})
		if advocates == nil {
			in.Advocates = append(in.Advocates, NewHeuristicAdvocate())
		}
	}
	if advocates != nil {
		in.Advocates = advocates
	}
	return in
}

// golden compares got with testdata/name, rewriting it under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}
