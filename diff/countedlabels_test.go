package diff

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCountedLabels(t *testing.T) {
	body := "# Review\n\n## NR-3 — Prerequisite\n\n**Assessment: PARTIALLY REDUNDANT.** Implied.\n\n" +
		"## NR-5 — Freshness\n\n**Assessment: PARTIALLY REDUNDANT.** Implied by latest.\n\n" +
		"## NR-6 — Binding\n\n**Assessment: %s.** The mechanism.\n\n" +
		"## NR-7 — Mainline\n\n**Assessment: NOT A SPEC REQUIREMENT.** Guidance.\n\n" +
		"## Counts\n\n| Category | Count |\n|---|---|\n| Redundancies found (NRs implied by existing spec) | %s |\n"
	tests := []struct {
		name, nr6, row string
		lines          []int // cited lines; nil for no finding
	}{
		{"an item labelled so is left out", "PARTIALLY REDUNDANT", "3 (NR-3 partially, NR-5 partially, NR-7 fully)", []int{13, 23}},
		{"every item labelled so is listed", "PARTIALLY REDUNDANT", "3 (NR-3 partially, NR-5 partially, NR-6)", nil},
		{"a negated label is not counted", "NOT REDUNDANT", "3 (NR-3 partially, NR-5 partially, NR-7 fully)", nil},
		{"another label", "GENUINE NEW REQUIREMENT", "3 (NR-3 partially, NR-5 partially, NR-7 fully)", nil},
		{"a count without its items", "PARTIALLY REDUNDANT", "3", nil},
		{"prose in the parentheses", "PARTIALLY REDUNDANT", "3 (see the sections above for details)", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := strings.Replace(strings.Replace(body, "%s", tt.nr6, 1), "%s", tt.row, 1)
			got := tallyFindings(t, "counted-label:", doc, "# Other\n\nNothing.\n")
			if tt.lines == nil {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1, "%+v", got)
			c := got[0]
			assert.Equal(t, IntraVariant, c.Scope())
			assert.Equal(t, "the items counted as “Redundancies found (NRs implied by existing spec)”", c.Subject)
			assert.Contains(t, c.Reason, "NR-6")
			var lines []int
			for _, cl := range c.Claims {
				lines = append(lines, cl.Line)
				assert.Contains(t, strings.Split(doc, "\n")[cl.Line-1], cl.Quote)
			}
			assert.Equal(t, tt.lines, lines)
		})
	}
}

func TestSameRoot(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"redundancies", "REDUNDANT", true},
		{"rejections", "rejected", true},
		{"confirmations", "CONFIRMED", true},
		{"requirements", "REQUIRED", true},
		{"gaps", "gap", false}, // too short to tell a root
		{"overstated", "overlooked", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, sameRoot(tt.a, tt.b), "%s / %s", tt.a, tt.b)
	}
}
