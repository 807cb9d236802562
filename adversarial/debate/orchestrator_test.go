package debate

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
