package merge

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The model merger's options are ModelOptions only: the type system, not
// documentation, keeps them away from the plan and the section merger.
// Every Option is also a ModelOption.
func TestOptionKinds(t *testing.T) {
	var _ ModelOption = WithClock(nil)
	for name, o := range map[string]ModelOption{
		"WithModel": WithModel("x"), "WithPrompts": WithPrompts(nil), "WithAllChanges": WithAllChanges(),
		"WithMaxTokens": WithMaxTokens(10), "WithTemperature": WithTemperature(0.2),
	} {
		_, isOption := o.(Option)
		assert.False(t, isOption, "%s must not be usable where an Option is expected", name)
	}
	// The common options reach both mergers: a clock set through either
	// constructor is the one its merges use.
	now := func() time.Time { return time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC) }
	assert.Equal(t, now(), newConfig([]Option{WithClock(now)}).now())
	assert.Equal(t, now(), newModelConfig([]ModelOption{WithClock(now), WithModel("m")}).now())
	assert.Equal(t, "m", newModelConfig([]ModelOption{WithModel("m")}).model)
}
