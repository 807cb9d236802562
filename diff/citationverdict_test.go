package diff

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCitationVerdicts(t *testing.T) {
	const prose = "# Review A\n\n## Items\n\n3. **Item 6**: States \"the budget (`sprint/executor.py:73-79`)\" -- the line reference is correct (line 78 uses it), but the rest is an assumption.\n"
	const table = "# Review B\n\n## Citations\n\n| Claim | Actual | Verified? |\n|---|---|---|\n| \"Budget formula\" at `sprint/executor.py:73-79` | executor.py:78 | %s |\n"
	tests := []struct {
		name, other string
		want        bool
	}{
		{"a table row calls it an inaccuracy", strings.Replace(table, "%s", "**INACCURACY**: the formula is at line 78, not 73-79.", 1), true},
		{"a table row calls it wrong", strings.Replace(table, "%s", "WRONG -- 78 only", 1), true},
		{"a table row confirms it", strings.Replace(table, "%s", "CONFIRMED -- lines 73-79", 1), false},
		{"another citation judged wrong", strings.Replace(strings.Replace(table, "73-79", "80-85", 1), "%s", "WRONG", 1), false},
		{"another reviewer's prose agrees", "# Review B\n\nThe formula (`executor.py:73-79`) -- the line reference is accurate.\n", false},
		{"another reviewer's prose disagrees", "# Review B\n\nThe formula (`executor.py:73-79`) -- the line reference is wrong.\n", true},
		{"a line citing two places judges neither", "# Review B\n\nBoth `executor.py:73-79` and `models.py:1-9` -- the line reference is wrong.\n", false},
	}
	t.Run("the table first, the prose second", func(t *testing.T) {
		got := tallyFindings(t, "citation-verdict:", strings.Replace(table, "%s", "INCORRECT", 1), prose)
		require.Len(t, got, 1)
		assert.Equal(t, []int{0, 1}, []int{got[0].Claims[0].Variant, got[0].Claims[1].Variant})
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tallyFindings(t, "citation-verdict:", prose, tt.other)
			if !tt.want {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1, "%+v", got)
			c := got[0]
			assert.Equal(t, VerdictConflict, c.Kind)
			assert.Contains(t, c.Subject, "executor.py:73-79")
			for _, cl := range c.Claims {
				src := []string{prose, tt.other}[cl.Variant]
				assert.Contains(t, strings.Split(src, "\n")[cl.Line-1], cl.Quote)
			}
		})
	}
}
