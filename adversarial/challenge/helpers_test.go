package challenge

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crucible-go/crucible/internal/golden"
)

func fixedClock() func() time.Time {
	return func() time.Time { return time.Date(2026, 2, 13, 9, 0, 0, 0, time.UTC) }
}

// golden compares got with testdata/name, rewriting it under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
