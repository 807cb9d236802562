package diff

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStatedCounts(t *testing.T) {
	const stats = "\n## Summary Statistics\n\n- **VERIFIED**: 62\n- **Sycophantic agreements detected**: 4 (scores accepted uncritically)\n- **Unverified \"superior\" judgments**: 3\n"
	tests := []struct {
		name, summary string
		lines         []int // cited lines; nil for no finding
	}{
		{"the summary counts otherwise", "Two instances of sycophantic agreement on unverified scores were detected.", []int{3, 8}},
		{"a digit", "We found 2 sycophantic agreements in total.", []int{3, 8}},
		{"the second count of a sentence", "We found 2 gaps and 3 sycophantic agreements.", []int{3, 8}},
		{"a part of them, of a whole", "Two of the 4 sycophantic agreements concern scores.", nil},
		{"the same count", "Four instances of sycophantic agreement were detected.", nil},
		{"a part of them", "Two of the sycophantic agreements concern scores.", nil},
		{"a part of them, counted", "Another 2 sycophantic agreements were borderline.", nil},
		{"a one-word label is too vague", "Only 33 were verified.", nil},
		{"other things counted", "Two instances of unverified convergence were detected.", nil},
		{"a quoted label word", "Two unverified superior judgments stand out.", []int{3, 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "# Review\n\n" + tt.summary + "\n" + stats
			got := tallyFindings(t, "stated-count:", doc, "# Other\n\nNothing.\n")
			if tt.lines == nil {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1, "%+v", got)
			c := got[0]
			assert.Equal(t, IntraVariant, c.Scope())
			var lines []int
			for _, cl := range c.Claims {
				lines = append(lines, cl.Line)
				assert.Contains(t, strings.Split(doc, "\n")[cl.Line-1], cl.Quote)
			}
			assert.Equal(t, tt.lines, lines)
		})
	}

	t.Run("a count row of a table", func(t *testing.T) {
		doc := "# Review\n\nWe found 5 ambiguities in the proposed spec language.\n\n## Counts\n\n| Category | Count |\n|---|---|\n| Ambiguities found in proposed spec language | 10 |\n"
		got := tallyFindings(t, "stated-count:", doc, "# Other\n\nNothing.\n")
		require.Len(t, got, 1)
		assert.Equal(t, []int{3, 9}, []int{got[0].Claims[0].Line, got[0].Claims[1].Line})
	})
}

func TestStatedCountSubject(t *testing.T) {
	got := tallyFindings(t, "stated-count:", "# R\n\nTwo instances of sycophantic agreement were detected.\n\n- **Sycophantic agreements detected**: 4\n", "# O\n\nNothing.\n")
	require.Len(t, got, 1)
	assert.Equal(t, "the count of “Sycophantic agreements detected”", got[0].Subject)
}
