package debate

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// splitResult is a finished debate of two variants over three contested
// points and a unique contribution: C-1 agreed for A, C-2 led by B without
// agreement, C-3 an even split, U-1 agreed for B.
func splitResult() *Result {
	return &Result{
		Threshold: 0.80,
		Variants:  []Participant{{Label: "A"}, {Label: "B"}},
		Points:    []string{"C-1", "C-2", "C-3", "U-1"},
		Rounds: []Round{{Number: 2, Tallies: []Tally{
			{Point: "C-1", Votes: []Vote{{Advocate: "A", Prefer: "A"}, {Advocate: "B", Prefer: "A"}}, Leader: "A", Winner: "A", Agreed: true},
			{Point: "C-2", Votes: []Vote{{Advocate: "A", Prefer: "B"}, {Advocate: "B", Prefer: "B"}}, Leader: "B"},
			{Point: "C-3", Votes: []Vote{{Advocate: "A", Prefer: "B"}, {Advocate: "B", Prefer: "A"}}},
			{Point: "U-1", Votes: []Vote{{Advocate: "A", Prefer: "B"}, {Advocate: "B", Prefer: "B"}}, Leader: "B", Winner: "B", Agreed: true},
		}}},
		Decisions: []Decision{
			{Point: "C-1", Winner: "A", Leader: "A"},
			{Point: "C-2", Leader: "B"},
			{Point: "C-3"},
			{Point: "U-1", Winner: "B", Leader: "B"},
		},
		Consensus: Consensus{Agreed: 2, Contested: 3, ContestedAgreed: 1, Convergence: 1.0 / 3, Overall: 0.5}, Status: NotConverged,
		Unresolved: []string{"C-2", "C-3"},
		Wins:       []VariantWins{{Variant: "A", Won: 1}, {Variant: "B", Won: 1}},
	}
}

func TestMarkResolved(t *testing.T) {
	tests := []struct {
		name        string
		ids         []string
		winners     []string // C-1, C-2, C-3, U-1 after the override
		unresolved  []string
		convergence float64 // contested points
		overall     float64
		status      ConvergenceStatus
		wins        []int // A, B
		logged      string
	}{
		{"the leader takes a point most advocates preferred", []string{"C-2"}, []string{"A", "B", "", "B"}, []string{"C-3"}, 2.0 / 3, 0.75, NotConverged, []int{1, 2},
			"Approval: user-overridden — marked resolved by the user: C-2 (convergence now 67%)"},
		{"an even split goes to the first variant in input order", []string{"C-3"}, []string{"A", "", "A", "B"}, []string{"C-2"}, 2.0 / 3, 0.75, NotConverged, []int{2, 1},
			"Approval: user-overridden — marked resolved by the user: C-3 (convergence now 67%)"},
		{"both reach the threshold", []string{"C-3", "C-2"}, []string{"A", "B", "A", "B"}, []string{}, 1, 1, Converged, []int{2, 2},
			"Approval: user-overridden — marked resolved by the user: C-2, C-3 (convergence now 100%)"},
		{"resolved and unknown points are left alone", []string{"C-1", "C-9"}, []string{"A", "", "", "B"}, []string{"C-2", "C-3"}, 1.0 / 3, 0.5, NotConverged, []int{1, 1}, ""},
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
			assert.InDelta(t, tt.overall, r.Overall, 1e-9)
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
