package cli

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

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
