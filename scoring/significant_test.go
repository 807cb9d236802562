package scoring

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

var significantInputs = []string{"", "The FR-001 requirement: Strategies for the caching layers.",
	"Ünïcode ÉTÉ and R-005 NR-6 risks' API’s", "a an the", "3.2 Retry-Policy v1.2 don't"}

// TestAppendSignificant holds the gram index's buffered form to
// significant, including when the buffer holds an earlier block's words.
func TestAppendSignificant(t *testing.T) {
	buf := []string{"left", "over"}
	for _, s := range significantInputs {
		buf = appendSignificant(buf[:0], s)
		assert.Equal(t, significant(s), buf, "%q", s)
	}
}

func FuzzAppendSignificant(f *testing.F) {
	for _, s := range significantInputs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendSignificant([]string{"x"}, s), append([]string{"x"}, significant(s)...); !slices.Equal(got, want) {
			t.Fatalf("appendSignificant(%q) = %q, want %q", s, got, want)
		}
	})
}
