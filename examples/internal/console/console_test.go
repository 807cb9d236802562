package console

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial/debate"
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
