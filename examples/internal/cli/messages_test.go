package cli

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/roadmap"
)

func TestUserMessage(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"wrapped with detail", fmt.Errorf("%w, got 1", adversarial.ErrTooFewFiles),
			"Adversarial comparison requires at least 2 files, got 1"},
		{"under a prefix", fmt.Errorf("adversarial: %w", fmt.Errorf("%w: b.md", adversarial.ErrFileNotFound)),
			"adversarial: File not found: b.md"},
		{"debate abort", fmt.Errorf("run failed at debate: %w (round 1)", debate.ErrTooFewAdvocates),
			"run failed at debate: Debate aborted: fewer than 2 advocates remain (round 1)"},
		{"roadmap", fmt.Errorf("%w. Provided: 1", roadmap.ErrAgentCount), "Agent count must be 2-10. Provided: 1"},
		{"other errors keep their text", errors.New("disk full"), "disk full"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, UserMessage(tt.err))
		})
	}
}

// The commands keep the documented warn-and-default behaviour for --depth
// and --convergence; the library itself rejects such values.
func TestDepthAndConvergenceWarnAndDefault(t *testing.T) {
	var stderr strings.Builder
	c := New("x", Env{Stderr: &stderr})
	assert.Equal(t, debate.DepthDeep, c.Depth("DEEP"))
	assert.Equal(t, debate.DepthStandard, c.Depth(""))
	assert.Equal(t, debate.DepthStandard, c.Depth("bottomless"))
	assert.Equal(t, 0.9, c.Convergence(0.9))
	assert.Equal(t, 0.8, c.Convergence(0))
	assert.Equal(t, 0.8, c.Convergence(1.5))
	assert.Equal(t, "warning: Unknown depth bottomless, using standard\n"+
		"warning: Convergence 1.5 out of range [0.50, 0.99], using 0.80\n", stderr.String())

	agents, err := Agents(`opus:architect,sonnet:"be brief"`)
	require.NoError(t, err)
	assert.Equal(t, []debate.AgentSpec{{Model: "opus", Persona: "architect"}, {Model: "sonnet", Instruction: "be brief"}}, agents)
	_, err = Agents("opus:architect:unquoted")
	var ie *InputError
	assert.ErrorAs(t, err, &ie)
}
