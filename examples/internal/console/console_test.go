package console

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/scoring"
)

func TestLinesTrimAndEndWithEmptyAnswers(t *testing.T) {
	next := NewLines(strings.NewReader("  b \n\nS-001, c-002\n"))
	for _, want := range []string{"b", "", "S-001, c-002", "", ""} {
		got, err := next()
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
}

func TestAfterDebate(t *testing.T) {
	tests := []struct {
		answer string
		want   []string
	}{
		{"", nil},
		{"s-001, C-002", []string{"S-001", "C-002"}},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		c := &Checkpoints{In: NewLines(strings.NewReader(tt.answer + "\n")), Out: &out}
		got, err := c.AfterDebate(context.Background(), &debate.Result{Consensus: debate.Consensus{Convergence: 0.5}, Unresolved: []string{"S-001", "C-002"}})
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "answer %q", tt.answer)
		assert.Contains(t, out.String(), "Would you like to override the convergence assessment?")
		assert.Contains(t, out.String(), "Convergence: 50%")
	}
}

func TestAskStopsWhenTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	c := &Checkpoints{In: NewLines(strings.NewReader("A\n")), Out: &out}
	_, err := c.Ask(ctx, "question? ")
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, out.String(), "no question once the run is over")
}

func TestAfterScoringAsksAgain(t *testing.T) {
	card := &scoring.Scorecard{
		Variants:  []scoring.VariantScore{{Label: "A", Name: "a.md", Final: 0.8}, {Label: "B", Name: "b.md", Final: 0.7}},
		Selection: scoring.Selection{Base: "A"},
	}
	tests := []struct {
		name    string
		answers string
		want    string
		asked   int // how many times a question was written
	}{
		{"enter accepts", "\n", "", 1},
		{"no accepts", "n\n", "", 1},
		{"a letter overrides", "b\n", "B", 1},
		{"yes asks which", "y\nB\n", "B", 2},
		{"yes, then enter accepts", "y\n\n", "", 2},
		{"an unknown letter asks again", "Z\nb\n", "B", 2},
		{"end of input takes the default", "y\n", "", 2},
		{"endless nonsense takes the default", strings.Repeat("zz\n", 10), "", maxAsks},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			c := &Checkpoints{In: NewLines(strings.NewReader(tt.answers)), Out: &out}
			got, err := c.AfterScoring(context.Background(), card)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			asked := strings.Count(out.String(), "Would you like to override the base selection?") + strings.Count(out.String(), "Which variant should be the base?")
			assert.Equal(t, tt.asked, asked, "output:\n%s", out.String())
		})
	}
}

func TestAfterDebateRejectsUnknownPoints(t *testing.T) {
	var out bytes.Buffer
	c := &Checkpoints{In: NewLines(strings.NewReader("X-999\ns-001\n")), Out: &out}
	got, err := c.AfterDebate(context.Background(), &debate.Result{Unresolved: []string{"S-001", "C-002"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"S-001"}, got)
	assert.Contains(t, out.String(), `"X-999" is not an unresolved point`)
}
