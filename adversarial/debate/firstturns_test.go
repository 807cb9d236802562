package debate

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

// opened reports whether f has opened.
func opened(f *firstTurns) bool {
	select {
	case <-f.open:
		return true
	default:
		return false
	}
}

func TestFirstTurnsOpensOnceEveryAdvocateIsAsked(t *testing.T) {
	tests := []struct {
		name   string
		labels []string
		asked  []string
		open   bool
	}{
		{"nobody to wait for", nil, nil, true},
		{"none asked", []string{"A", "B", "C"}, nil, false},
		{"some asked", []string{"A", "B", "C"}, []string{"A", "C"}, false},
		{"one asked twice is still one", []string{"A", "B"}, []string{"A", "A"}, false},
		{"an advocate not waited for does not count", []string{"A", "B"}, []string{"A", "Z"}, false},
		{"all asked", []string{"A", "B", "C"}, []string{"C", "A", "B"}, true},
		{"all asked, again", []string{"A", "B"}, []string{"A", "B", "A"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFirstTurns(tt.labels)
			for _, l := range tt.asked {
				f.asked(l)
			}
			assert.Equal(t, tt.open, opened(f))
		})
	}
}

func TestFirstTurnsWaitEndsWithItsContext(t *testing.T) {
	f := newFirstTurns([]string{"A", "B"})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	f.wait(ctx) // returns although B was never asked
	assert.False(t, opened(f))

	var none *firstTurns // a debate outside an orchestrated run's eliminations
	none.asked("A")
	none.wait(t.Context())
}
