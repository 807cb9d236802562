package merge

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRecountsTheTalliesTheMergeMadeStale: a section brought with a table
// and a sentence counting its rows otherwise gets the table's count, and
// the log says so; the base's own miscount elsewhere is left to
// validation.
func TestRecountsTheTalliesTheMergeMadeStale(t *testing.T) {
	table := func(own ...string) string {
		s := "| Item | Assigned | My Assessment | Rationale |\n|---|---|---|---|\n"
		for i, o := range own {
			s += "| Item " + string(rune('A'+i)) + " | HIGH -- P1 | **" + o + "** | Because. |\n"
		}
		return s
	}
	base := mustParse(t, "a.md", "# Review\n\n## 1. Severity\n\n"+table("HIGH", "LOW")+"\n1 item is rated too HIGH.\n\n"+
		"## 2. Notes\n\n"+table("LOW", "LOW", "HIGH")+"\n3 items are rated too HIGH.\n")
	src := "## Severity\n\n" + table("MEDIUM", "LOW", "LOW", "HIGH") + "\n**Summary**: 2 items are rated too HIGH, 1 item is rated correctly HIGH.\n"
	m := merge(t, base, change(1, Replace, SectionRef{Number: "1", Title: "1. Severity"}, src))
	assert.Contains(t, m.Output, "**Summary**: 3 items are rated too HIGH, 1 item is rated correctly HIGH.\n")
	require.Len(t, m.Log.Recounts, 1)
	assert.Equal(t, Recounted{Section: "1. Severity", Before: "2 items are rated too HIGH", After: "3 items are rated too HIGH",
		Reason: "the table rates 3 of its HIGH rows too HIGH"}, m.Log.Recounts[0])
	assert.Contains(t, m.Log.Markdown(), "## Recounted Tallies\n")
	assert.Contains(t, m.Output, "\n3 items are rated too HIGH.\n", "the base's own miscount (two rows) is not the merge's to restate")
}
