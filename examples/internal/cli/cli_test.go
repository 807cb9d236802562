package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSplitList(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{" , ,", nil},
		{" a.md, ,b.md ,", []string{"a.md", "b.md"}},
		{"security,performance", []string{"security", "performance"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, SplitList(tt.in), "%q", tt.in)
	}
}
