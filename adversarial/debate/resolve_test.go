package debate

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// splitResult is a finished debate of two variants over three points: P1
// agreed for A, P2 led by B without agreement, P3 an even split.
func splitResult() *Result {
	return &Result{
		Threshold: 0.80,
		Variants:  []Participant{{Label: "A"}, {Label: "B"}},
		Points:    []string{"P1", "P2", "P3"},
		Rounds: []Round{{Number: 2, Tallies: []Tally{
			{Point: "P1", Votes: []Vote{{Advocate: "A", Prefer: "A"}, {Advocate: "B", Prefer: "A"}}, Leader: "A", Winner: "A", Agreed: true},
			{Point: "P2", Votes: []Vote{{Advocate: "A", Prefer: "B"}, {Advocate: "B", Prefer: "B"}}, Leader: "B"},
			{Point: "P3", Votes: []Vote{{Advocate: "A", Prefer: "B"}, {Advocate: "B", Prefer: "A"}}},
		}}},
		Decisions: []Decision{
			{Point: "P1", Winner: "A", Leader: "A"},
			{Point: "P2", Leader: "B"},
			{Point: "P3"},
		},
		Agreed: 1, Convergence: 1.0 / 3, Status: NotConverged,
		Unresolved: []string{"P2", "P3"},
		Wins:       []VariantWins{{Variant: "A", Won: 1}, {Variant: "B", Won: 0}},
	}
}

func TestMarkResolved(t *testing.T) {
	tests := []struct {
		name        string
		ids         []string
		winners     []string // P1, P2, P3 after the override
		unresolved  []string
		convergence float64
		status      ConvergenceStatus
		wins        []int // A, B
		logged      string
	}{
		{"the leader takes a point most advocates preferred", []string{"P2"}, []string{"A", "B", ""}, []string{"P3"}, 2.0 / 3, NotConverged, []int{1, 1},
			"Approval: user-overridden — marked resolved by the user: P2 (convergence now 67%)"},
		{"an even split goes to the first variant in input order", []string{"P3"}, []string{"A", "", "A"}, []string{"P2"}, 2.0 / 3, NotConverged, []int{2, 0},
			"Approval: user-overridden — marked resolved by the user: P3 (convergence now 67%)"},
		{"both reach the threshold", []string{"P3", "P2"}, []string{"A", "B", "A"}, []string{}, 1, Converged, []int{2, 1},
			"Approval: user-overridden — marked resolved by the user: P2, P3 (convergence now 100%)"},
		{"resolved and unknown points are left alone", []string{"P1", "P9"}, []string{"A", "", ""}, []string{"P2", "P3"}, 1.0 / 3, NotConverged, []int{1, 0}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := splitResult()
			r.MarkResolved(tt.ids)
			var winners []string
			for _, d := range r.Decisions {
				winners = append(winners, d.Winner)
			}
			assert.Equal(t, tt.winners, winners)
			assert.ElementsMatch(t, tt.unresolved, r.Unresolved)
			assert.InDelta(t, tt.convergence, r.Convergence, 1e-9)
			assert.Equal(t, tt.status, r.Status)
			assert.Equal(t, tt.wins, []int{r.PointsWon("A"), r.PointsWon("B")})
			if tt.logged == "" {
				assert.Empty(t, r.Log)
			} else {
				assert.Equal(t, []string{tt.logged}, r.Log)
			}
		})
	}
}
