package roadmap

import (
	"path/filepath"
	"testing"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/internal/golden"
)

// golden compares got with testdata/<name>, rewriting it under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), string(got))
}

func knownPersona(p string) bool {
	for _, k := range debate.Personas() {
		if k == p {
			return true
		}
	}
	return false
}
