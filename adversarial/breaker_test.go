package adversarial

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/provider"
)

// TestReasoningBreakerIgnoresCompletionOrder pins item 5 of the error
// matrix work: the breaker counts consecutive failures in the order of the
// logical calls, so round 1's calls finishing in any order trip it the
// same way.
func TestReasoningBreakerIgnoresCompletionOrder(t *testing.T) {
	tests := []struct {
		name    string
		failing string // variants whose round-1 call fails
		want    debate.Depth
	}{
		{"three logically consecutive", "BCD", debate.DepthQuick},
		{"three, not consecutive", "ACE", debate.DepthStandard},
		{"none", "", debate.DepthStandard},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := range uint64(20) {
				r := newReasoning(debate.DepthStandard)
				p := r.wrap(provider.Func(func(_ context.Context, req provider.Request) (provider.Response, error) {
					if strings.Contains(tt.failing, req.Tag(provider.TagVariant)) {
						return provider.Response{}, errors.New("down")
					}
					return provider.Response{Text: "ok"}, nil
				}))
				order := []string{"A", "B", "C", "D", "E", "F"}
				rand.New(rand.NewPCG(seed, 1)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
				for _, v := range order {
					req := provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "turn " + v}},
						Tags: map[string]string{provider.TagStep: string(StageDebate), provider.TagRound: "1", provider.TagVariant: v, provider.TagRole: "advocate"}}
					_, _ = p.Complete(context.Background(), req)
				}
				assert.Equal(t, tt.want, r.current(), "completion order %v", order)
			}
		})
	}
}
