package diff

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEnumeratedCounts(t *testing.T) {
	list := "## Judgments\n\n1. **OV-1 \"Superior approach: Spec B\"**: a preference.\n\n2. **OV-4 \"Superior approach: Spec B\"**: an error.\n\n3. **OV-5 \"Superior approach: Spec B\"**: premature.\n\n"
	tests := []struct {
		name, before, sentence string
		lines                  []int
	}{
		{"the count and its group differ; the list is cited", list,
			"The analysis favors Spec B in 4 out of 5 comparisons (OV-1, OV-4, OV-5 favor Spec B; OV-2 recommends merge; OV-3 recommends merge).",
			[]int{5, 7, 9, 13}},
		{"no list elsewhere: the sentence is both sides", "",
			"The analysis favors Spec B in 4 out of 5 comparisons (OV-1, OV-4, OV-5 favor Spec B; OV-2 recommends merge; OV-3 recommends merge).",
			[]int{5, 5}},
		{"the count agrees", list,
			"The analysis favors Spec B in 3 out of 5 comparisons (OV-1, OV-4, OV-5 favor Spec B; OV-2 recommends merge; OV-3 recommends merge).", nil},
		{"the parentheses do not sort all of them", list,
			"The analysis favors Spec B in 4 out of 6 comparisons (OV-1, OV-4, OV-5 favor Spec B; OV-2 recommends merge; OV-3 recommends merge).", nil},
		{"no group does what is counted", list,
			"The analysis rejects Spec A in 4 out of 5 comparisons (OV-1, OV-4, OV-5 favor Spec B; OV-2 recommends merge; OV-3 recommends merge).", nil},
		{"prose in the parentheses", list,
			"The analysis favors Spec B in 4 out of 5 comparisons (see the table above for each of them).", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "# Review\n\n" + tt.before + "## Pattern\n\n" + tt.sentence + "\n"
			if tt.before == "" {
				doc = "# Review\n\n## Pattern\n\n" + tt.sentence + "\n"
			}
			got := checkFinding(t, "enumerated-count:", doc, tt.lines)
			if len(got) == 1 {
				assert.Contains(t, got[0].Reason, "counts 4 and names 3 (OV-1, OV-4, OV-5)")
			}
		})
	}
}
