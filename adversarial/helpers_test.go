package adversarial

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/internal/golden"
)

var fixedClock = func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }

// golden compares got with testdata/name, rewriting it under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

// requireRunOutcome checks Run's error contract: a *RunError exactly when
// the run failed (its stage the Result's), nil otherwise.
func requireRunOutcome(t *testing.T, res *Result, err error, msgAndArgs ...any) {
	t.Helper()
	require.NotNil(t, res, msgAndArgs...)
	if res.Status != StatusFailed {
		require.NoError(t, err, msgAndArgs...)
		return
	}
	var re *RunError
	require.ErrorAs(t, err, &re, msgAndArgs...)
	require.Equal(t, res.FailureStage, re.Stage, msgAndArgs...)
}

// runOutcomeErr is requireRunOutcome for loops that count rather than
// stop: it returns what is wrong with the pair, or nil.
func runOutcomeErr(res *Result, err error) error {
	var re *RunError
	switch {
	case res == nil:
		return err
	case res.Status != StatusFailed:
		return err
	case !errors.As(err, &re):
		return fmt.Errorf("a failed run returned %v, not a *RunError", err)
	case re.Stage != res.FailureStage:
		return fmt.Errorf("RunError stage %q, result's %q", re.Stage, res.FailureStage)
	}
	return nil
}
