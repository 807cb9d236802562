package merge

import (
	"testing"

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
	for name, o := range map[string]Option{"WithClock": WithClock(nil), "WithLogger": WithLogger(nil),
		"WithScanner": WithScanner(nil), "WithTopicMatcher": WithTopicMatcher(nil)} {
		assert.NotNil(t, o, name)
	}
}
