package debate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
)

func TestGroupVariants(t *testing.T) {
	groups := groupVariants([]Variant{{Label: "A"}, {Label: "B"}, {Label: "C"}, {Label: "D"}, {Label: "E"}, {Label: "F"}, {Label: "G"}, {Label: "H"}, {Label: "I"}, {Label: "J"}})
	assert.Len(t, groups, 4, "⌈10/3⌉ groups")
	total := 0
	for _, g := range groups {
		assert.LessOrEqual(t, len(g), 3)
		total += len(g)
	}
	assert.Equal(t, 10, total)
}

// failingAdvocate fails every turn, as an advocate whose model is down.
type failingAdvocate struct{}

func (failingAdvocate) Argue(context.Context, Turn) (Statement, error) {
	return Statement{}, &provider.Error{Kind: provider.ErrUnavailable, Provider: "fake", Retryable: true, Message: "down"}
}

// TestOrchestratorContinuesWithWhoeverRemains pins the error matrix at
// every level of the orchestrator: whichever advocate fails — the first
// variant's, a middle one's, the last group's, a whole group — the debate
// goes on while two or more advocates remain, a group left with one gives
// it a bye, and only fewer than two in all abort.
func TestOrchestratorContinuesWithWhoeverRemains(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		failing string
		abort   bool
		logHas  string
	}{
		{"first variant", 6, "A", false, ""},
		{"a middle one", 6, "C", false, ""},
		{"the last one", 6, "F", false, ""},
		{"one of a pair: bye", 5, "E", false, "advances by a bye"},
		{"two of seven", 7, "AG", false, ""},
		{"all but two", 6, "ABCD", false, ""},
		{"all but one", 6, "ABCDE", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := synthetic(t, tt.n, 5)
			for _, v := range in.Variants {
				if strings.Contains(tt.failing, v.Label) {
					in.Advocates = append(in.Advocates, failingAdvocate{})
				} else {
					in.Advocates = append(in.Advocates, NewHeuristicAdvocate())
				}
			}
			res, err := Run(context.Background(), in)
			if tt.abort {
				require.ErrorIs(t, err, ErrTooFewAdvocates)
				var de *Error
				require.ErrorAs(t, err, &de)
				require.NotNil(t, de.Result)
				assert.Len(t, de.Result.Dropped(), len(tt.failing))
				assert.NotPanics(t, func() { _ = de.Result.Markdown() })
				for _, d := range de.Result.Decisions {
					assert.NotEmpty(t, d.Evidence, "a group's matrix shown as the run's has its summaries")
				}
				return
			}
			require.NoError(t, err, "two or more advocates remain")
			dropped := res.Dropped()
			slices.Sort(dropped)
			assert.Equal(t, strings.Split(tt.failing, ""), dropped, "every failed advocate is dropped and named")
			var final []string
			for _, v := range res.Variants {
				final = append(final, v.Label)
			}
			for _, f := range res.EliminationFailures {
				assert.NotContains(t, final, f.Variant, "an advocate dropped in its group is not in the final")
			}
			assert.GreaterOrEqual(t, len(final), 2)
			for _, d := range res.Decisions {
				assert.NotEmpty(t, d.Evidence, "the final's matrix has its summaries")
			}
			md := res.Markdown()
			assert.Contains(t, md, "Orchestrator: final debate among")
			if tt.logHas != "" {
				assert.Contains(t, md, tt.logHas)
			}
			for _, l := range tt.failing {
				assert.Contains(t, md, "Variant "+string(l)+" advocate", "the failure is stated in the transcript")
			}
		})
	}
}
