package diff

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkFinding runs the detectors on doc (beside an unrelated variant) and
// checks that the findings whose key has prefix are one intra-variant
// contradiction citing lines, each quote verbatim, or none when lines is
// nil.
func checkFinding(t *testing.T, prefix, doc string, lines []int) []Contradiction {
	t.Helper()
	got := tallyFindings(t, prefix, doc, "# Other\n\nNothing.\n")
	if lines == nil {
		assert.Empty(t, got)
		return got
	}
	require.Len(t, got, 1, "%+v", got)
	assert.Equal(t, IntraVariant, got[0].Scope())
	var have []int
	for _, cl := range got[0].Claims {
		have = append(have, cl.Line)
		assert.Contains(t, strings.Split(doc, "\n")[cl.Line-1], cl.Quote, "quoted verbatim")
	}
	assert.Equal(t, lines, have)
	return got
}

func TestSelfCorrections(t *testing.T) {
	tests := []struct {
		name, row string
		lines     []int
	}{
		{"a value retracted", "STALL=22, TIMEOUT=23, CRASH=24. Actually: line 21 is `STALL = \"stall\"`, not line 22.", []int{6, 6}},
		{"another thing corrected", "STALL=22, TIMEOUT=23. Actually: line 21 is `ERROR = \"error\"`, not line 22.", nil},
		{"another value retracted", "STALL=22, TIMEOUT=23. Actually: line 21 is `STALL = \"stall\"`, not line 20.", nil},
		{"no correction", "STALL=22, TIMEOUT=23, CRASH=24.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "# Review\n\n| Cited | Claimed | Actual |\n|---|---|---|\n| `a.py:1` | x | y |\n| `diagnostics.py:22-26` | enum | " + tt.row + " |\n"
			got := checkFinding(t, "self-correction:", doc, tt.lines)
			if len(got) == 1 {
				assert.Equal(t, "the value of STALL", got[0].Subject)
				assert.Equal(t, "STALL=22, TIMEOUT=23, CRASH=24.", got[0].Claims[0].Quote)
			}
		})
	}
}
