package merge

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

func TestRuleScannerSignaturesIgnoreDocuments(t *testing.T) {
	parse := func(name, src string) *diff.Document {
		d, err := diff.Parse(name, []byte(src))
		require.NoError(t, err)
		return d
	}
	a := parse("a.md", "## Limits\n\nThe retry timeout is 30 seconds.\n")
	b := parse("b.md", "## Limits\n\nThe retry timeout is 60 seconds.\n")
	merged := parse("merged.md", "## Limits\n\nThe retry timeout is 30 seconds.\n\n## Extra\n\nThe retry timeout is 60 seconds.\n")

	before, err := RuleScanner{}.Scan(context.Background(), []*diff.Document{a, b})
	require.NoError(t, err)
	after, err := RuleScanner{}.Scan(context.Background(), []*diff.Document{merged})
	require.NoError(t, err)
	require.Len(t, before, 1, "across the variants")
	require.Len(t, after, 1, "within the merged document")
	assert.Equal(t, before[0].Signature, after[0].Signature, "the same conflict, whatever the documents")
	assert.Contains(t, after[0].Description, `"The retry timeout is 30 seconds." (line 3)`)

	other := parse("c.md", "## Limits\n\nThe cache limit is 64 MiB.\n\nThe cache limit is 256 MB.\n")
	found, err := RuleScanner{}.Scan(context.Background(), []*diff.Document{other})
	require.NoError(t, err)
	require.Len(t, found, 1)
	assert.NotEqual(t, before[0].Signature, found[0].Signature)
}

// flakyCtx is a context whose Err turns to Canceled after its first call:
// the scan starts, then finds itself cancelled.
type flakyCtx struct {
	context.Context
	calls int
}

func (c *flakyCtx) Err() error {
	c.calls++
	if c.calls > 1 {
		return context.Canceled
	}
	return nil
}

// TestRuleScannerMemo checks that the memoised scan of one document gives
// what a fresh scan gives, and that a scan cancelled for its first caller
// is not what a later caller gets.
func TestRuleScannerMemo(t *testing.T) {
	src := "# T\n\n## A\n\nThe retry timeout is 30 seconds.\n\n## B\n\nThe retry timeout is 90 seconds.\n"
	fresh := func() *diff.Document {
		d, err := diff.Parse("d.md", []byte(src))
		require.NoError(t, err)
		return d
	}
	want, err := scanRules(context.Background(), []*diff.Document{fresh()})
	require.NoError(t, err)
	require.NotEmpty(t, want, "the document contradicts itself")

	d := fresh()
	_, err = RuleScanner{}.Scan(&flakyCtx{Context: context.Background()}, []*diff.Document{d})
	require.ErrorIs(t, err, context.Canceled)
	for range 2 {
		got, err := RuleScanner{}.Scan(context.Background(), []*diff.Document{d})
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
}
