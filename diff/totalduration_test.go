package diff

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTotalDurations(t *testing.T) {
	const table = "# Roadmap A\n\n## Timeline\n\n| Phase | Duration |\n|---|---|\n| P1 | 3-4 days |\n| P2 | 5-7 days |\n| **Total** | **8-11 days** | ~7-9 with overlap |\n"
	tests := []struct {
		name  string
		other string
		lines []int // cited lines; nil for no finding
	}{
		{"a total section far below the total row",
			"# Roadmap B\n\n## Timeline\n\n| Phase | Estimate |\n|---|---|\n| 1 | 1 day |\n| 2 | 1.5-2 days |\n\n## Total Estimated Delivery Window\n- **Baseline:** 2.5 days\n- **Likely range:** 3-4 working days including review\n",
			[]int{9, 12}},
		{"a total row far above",
			"# Roadmap B\n\n## Schedule\n\n| Phase | Days |\n|---|---|\n| P1 | 10 days |\n| P2 | 12 days |\n| Total | 22-25 days |\n",
			[]int{9, 9}},
		{"totals that overlap",
			"# Roadmap B\n\n## Total estimated timeline\n- **9-12 engineering days**\n", nil},
		{"totals a little apart",
			"# Roadmap B\n\n## Total estimated timeline\n- **12-13 days**\n", nil},
		{"another unit is not compared",
			"# Roadmap B\n\n## Total estimated timeline\n- **4-5 weeks**\n", nil},
		{"a total of something else",
			"# Roadmap B\n\n## Token budget\n\n| Phase | Tokens |\n|---|---|\n| P1 | 300 |\n| Total | 2,560 |\n", nil},
		{"a phase's duration is no total",
			"# Roadmap B\n\n## Phase 1\n- **Duration:** 1 day\n", nil},
		{"reasoning in a total section is no total",
			"# Roadmap B\n\n## Total timeline\nThe first phase takes 1 day\nand the rest follows in 2 days.\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tallyFindings(t, "total-duration", table, tt.other)
			if tt.lines == nil {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1, "%+v", got)
			c := got[0]
			assert.Equal(t, CrossVariant, c.Scope())
			assert.Equal(t, "total duration of the work", c.Subject)
			var lines []int
			for _, cl := range c.Claims {
				lines = append(lines, cl.Line)
				src := []string{table, tt.other}[cl.Variant]
				assert.Equal(t, strings.TrimSpace(strings.Split(src, "\n")[cl.Line-1]), cl.Quote)
			}
			assert.Equal(t, tt.lines, lines)
		})
	}
}
