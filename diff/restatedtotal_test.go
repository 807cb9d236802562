package diff

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRestatedTotals(t *testing.T) {
	tests := []struct {
		name, summary, heading, total string
		lines                         []int
	}{
		{"the summary and the total differ", "| Token budget | 2,560 (optimistic) | **3,300** (with 30% buffer) |", "Token Budget Estimate (REVISED)", "| **Total** | **5 tasks** | **2,060** | **618** | **2,678** |", []int{7, 16}},
		{"the same figure", "| Token budget | 2,560 (optimistic) | **2,678** (with 30% buffer) |", "Token Budget Estimate (REVISED)", "| **Total** | **5 tasks** | **2,060** | **618** | **2,678** |", nil},
		{"the heading names another figure", "| Token budget | 2,560 (optimistic) | **3,300** (with 30% buffer) |", "Test Time Estimate", "| **Total** | **5 tasks** | **2,060** | **618** | **2,678** |", nil},
		{"an estimate in the summary", "| Token budget | 2,560 (optimistic) | ~3,300 (with 30% buffer) |", "Token Budget Estimate", "| **Total** | **5 tasks** | **2,060** | **618** | **2,678** |", nil},
		{"different units", "| Token budget | 2 days | 3 days |", "Token Budget Estimate", "| **Total** | **5 tasks** | **2,060** | **618** | **2,678** |", nil},
		{"no total row", "| Token budget | 2,560 (optimistic) | **3,300** (with 30% buffer) |", "Token Budget Estimate", "| 5 | 5.1 | 100 | 30 | 130 |", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "# Plan\n\n## Revision Notes\n\n| Issue | Original | Revised |\n|---|---|---|\n" + tt.summary + "\n\n## Summary\n\n### " + tt.heading +
				"\n| Phase | Tasks | Est. Tokens | Contingency | Total |\n|---|---|---|---|---|\n| 1 | 1.1 | 60 | 18 | 78 |\n| 2 | 2.1 | 1,400 | 420 | 1,820 |\n" + tt.total + "\n"
			got := checkFinding(t, "restated-total:", doc, tt.lines)
			if len(got) == 1 {
				assert.Equal(t, "token budget", got[0].Subject)
			}
		})
	}
}
