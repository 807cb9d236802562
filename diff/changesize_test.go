package diff

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestChangeSizes(t *testing.T) {
	tests := []struct {
		name, design, cost string
		lines              []int
	}{
		{"two new lines against thirty", "The executor itself is unchanged except for two new lines: queue init and queue.put.",
			"executor.py (+~30 LOC for worker lifecycle), notify.py (+~10 LOC)", []int{5, 9}},
		{"a single-line change of a listed file", "- **`notify.py`**: extend the hook to publish to the queue. Single-line change.",
			"executor.py (+~30 LOC), notify.py (+~10 LOC for queue.put)", []int{5, 9}},
		{"sizes within a factor of three", "The executor itself is unchanged except for 12 new lines.",
			"executor.py (+~30 LOC for worker lifecycle)", nil},
		{"another file", "The scheduler itself is unchanged except for two new lines.",
			"executor.py (+~30 LOC for worker lifecycle)", nil},
		{"a size without a file", "Only two new lines are needed.", "executor.py (+~30 LOC)", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "# Proposal\n\n## Design\n\n" + tt.design + "\n\n## Cost\n\n" + tt.cost + "\n"
			got := checkFinding(t, "change-size:", doc, tt.lines)
			if len(got) == 1 {
				assert.Contains(t, got[0].Subject, "the size of the change to ")
			}
		})
	}
	t.Run("sizes of two options weighed side by side are not compared", func(t *testing.T) {
		doc := "# Design\n\n## Option A: worker\n\nexecutor.py (+~80 LOC for the worker)\n\n## Option B: hook\n\nexecutor.py (+~5 LOC for the hook)\n"
		assert.Empty(t, tallyFindings(t, "change-size:", doc, "# Other\n\nNothing.\n"))
	})
	t.Run("sizes in two variants are not compared", func(t *testing.T) {
		got := tallyFindings(t, "change-size:", "# A\n\nexecutor.py (+~30 LOC)\n", "# B\n\nThe executor itself is unchanged except for two new lines.\n")
		assert.Empty(t, got)
	})
}
