package diff

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRatingTallies(t *testing.T) {
	table := "| Item | Assigned | My Assessment | Rationale |\n|---|---|---|---|\n" +
		"| Auto-resume | HIGH -- P0 blocker | **MEDIUM** | Bounded. |\n" +
		"| States absent | HIGH -- P1 core | **HIGH** | Agree. |\n" +
		"| Lease model | HIGH -- P2 core | **HIGH** | Agree. |\n" +
		"| Policy unwired | HIGH -- P2 core | **LOW** | A stub. |\n" +
		"| TUI guard | MEDIUM -- P3 | **MEDIUM** | Agree. |\n"
	tests := []struct {
		name, summary string
		lines         []int
	}{
		{"both counts wrong", "**Summary**: 3 items are rated too HIGH, 1 item is rated correctly HIGH.", []int{7, 10, 13}},
		{"one count wrong", "**Summary**: 2 items are rated too HIGH, 1 item is rated correctly HIGH.", []int{8, 9, 13}},
		{"counts right", "**Summary**: 2 items are rated too HIGH, 2 items are rated correctly HIGH.", nil},
		{"another level", "**Summary**: 1 item is rated correctly MEDIUM.", nil},
		{"none rated so: the rows of the level are cited", "**Summary**: 1 item is rated too MEDIUM.", []int{11, 13}},
		{"a level the table never gives", "**Summary**: 1 item is rated too CRITICAL.", nil},
		{"no such clause", "**Summary**: 4 items were challenged.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "# Review\n\n## Severity\n\n" + table + "\n" + tt.summary + "\n"
			checkFinding(t, "rating-tally:", doc, tt.lines)
		})
	}
	t.Run("a table in another section", func(t *testing.T) {
		doc := "# Review\n\n## Severity\n\n" + table + "\n## Summary\n\n3 items are rated too HIGH.\n"
		assert.Empty(t, tallyFindings(t, "rating-tally:", doc, "# Other\n\nNothing.\n"))
	})
}

func TestRecounts(t *testing.T) {
	table := "| Item | Assigned | My Assessment | Rationale |\n|---|---|---|---|\n" +
		"| Auto-resume | HIGH -- P0 blocker | **MEDIUM** | Bounded. |\n" +
		"| States absent | HIGH -- P1 core | **HIGH** | Agree. |\n" +
		"| Lease model | HIGH -- P2 core | **HIGH** | Agree. |\n" +
		"| Policy unwired | HIGH -- P2 core | **LOW** | A stub. |\n" +
		"| Gate unwired | HIGH -- P0 | **LOW** | False dependency. |\n"
	tests := []struct {
		name, summary string
		want          []Recount
	}{
		{"both counts restated", "**Summary**: 4 items are rated too HIGH, 3 items are rated correctly HIGH.", []Recount{
			{Line: 13, Said: "4 items are rated too HIGH", Count: "3 items are rated too HIGH", Reason: "the table rates 3 of its HIGH rows too HIGH"},
			{Line: 13, Said: "3 items are rated correctly HIGH", Count: "2 items are rated correctly HIGH", Reason: "the table rates 2 of its HIGH rows correctly HIGH"},
		}},
		{"a spelled count stays spelled", "Four items are rated too HIGH.", []Recount{
			{Line: 13, Said: "Four items are rated too HIGH", Count: "Three items are rated too HIGH", Reason: "the table rates 3 of its HIGH rows too HIGH"},
		}},
		{"right counts", "3 items are rated too HIGH, 2 items are rated correctly HIGH.", nil},
		{"one against many: the noun would change number", "1 item is rated too HIGH.", nil},
		{"a level the table never gives", "2 items are rated too CRITICAL.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse("r.md", []byte("# Review\n\n## Severity\n\n"+table+"\n"+tt.summary+"\n"))
			assert.NoError(t, err)
			assert.Equal(t, tt.want, Recounts(d))
		})
	}
	assert.Nil(t, Recounts(nil))
}
