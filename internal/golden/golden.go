// Package golden checks what a test produced against a file under
// testdata, and rewrites the file when the test binary runs with -update:
//
//	go test ./merge -run TestGolden -update
//
// It is imported by tests only. It registers the -update flag once for
// the whole test binary, so a package using it does not define its own;
// tests that keep other expected output up to date (digests, prompts) ask
// [Updating].
package golden

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

var update = flag.Bool("update", false, "rewrite golden files with what the tests produce")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// Check compares got with the file at path. With -update it writes got
// there instead (creating the directories), so that the diff of the
// commit shows what changed. A missing file fails the test with the
// command that creates it.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s is missing; run go test -update to create it", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, string(want), got, "%s differs; check the output, then run go test -update", path)
}
