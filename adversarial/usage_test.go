package adversarial

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
)

// billing is what the provider reported, call by call, under the
// pipeline's middleware; it fails the first attempt of some calls in ways
// that are billed (a truncated reply) and that are not (an outage).
type billing struct {
	mu     sync.Mutex
	calls  int
	billed provider.Usage
}

func (b *billing) wrap(next provider.Provider) provider.Provider {
	return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
		first := req.Tag(provider.TagAttempt) == ""
		var resp provider.Response
		var err error
		switch {
		case first && req.Tag(provider.TagRole) == "judge" && req.Tag(provider.TagVariant) == "A":
			resp = provider.Response{Text: `{"verdicts": [`, FinishReason: provider.FinishLength, Model: req.Model,
				Usage: provider.Usage{InputTokens: 1500, OutputTokens: int64(req.MaxTokens)}}
		case first && req.Tag(provider.TagRole) == "merge-executor":
			err = &provider.Error{Kind: provider.ErrUnavailable, Provider: "fake", Retryable: true, Message: "outage"}
		default:
			resp, err = next.Complete(ctx, req)
		}
		b.mu.Lock()
		b.calls++
		b.billed = b.billed.Add(resp.Usage)
		b.mu.Unlock()
		return resp, err
	})
}

// TestUsageEqualsWhatWasBilled: with calls failing along the way, the
// contract's totals are the sum the provider reported, every call is
// attributed to a step and to an agent (the judge, detector and merger
// included), and the per-step and per-agent call counts add up.
func TestUsageEqualsWhatWasBilled(t *testing.T) {
	cc := chaosCases(t)[1]
	require.Equal(t, "samples-agreeing", cc.name)
	b := &billing{}
	ctx := context.WithValue(context.Background(), injectorKey{}, provider.Middleware(b.wrap))
	res, err := cc.runner(t).Run(ctx, cc.in)
	require.NoError(t, err)

	u := res.Usage
	assert.Equal(t, b.calls, u.Calls, "every call sent counts, failed attempts included")
	assert.Equal(t, b.billed, u.Total, "the totals are what the provider billed")
	sumCalls := func(m map[string]int) (n int) {
		for _, c := range m {
			n += c
		}
		return n
	}
	sumUsage := func(m map[string]provider.Usage) (s provider.Usage) {
		for _, x := range m {
			s = s.Add(x)
		}
		return s
	}
	assert.Equal(t, u.Calls, sumCalls(u.StepCalls), "every call belongs to a step")
	assert.Equal(t, u.Calls, sumCalls(u.AgentCalls), "every call belongs to an agent")
	assert.Equal(t, u.Total, sumUsage(u.ByStep))
	assert.Equal(t, u.Total, sumUsage(u.ByAgent))
	for _, who := range []string{"judge (opus)", "contradiction-detector (sonnet)", "merge-executor (opus)", "opus:architect"} {
		assert.Positive(t, u.AgentCalls[who], who)
	}
	for _, step := range []string{string(StageDiff), string(StageDebate), string(StageScoring), string(StageMerge)} {
		assert.Positive(t, u.StepCalls[step], step)
	}
	contract, ok := res.Artifact(ReturnContractFile)
	require.True(t, ok)
	assert.Contains(t, string(contract), "name: judge (opus)\n          calls: ")
	t.Logf("usage: %d calls, %s; by step %v", u.Calls, u.Total, u.StepCalls)
}

// TestLedgerCountsOnlySentCalls: a call whose context ended before it
// reached the ledger — cancelled while it waited for its turn — was never
// sent, and does not count.
func TestLedgerCountsOnlySentCalls(t *testing.T) {
	l := newLedger()
	sent := 0
	p := l.wrap(provider.Func(func(context.Context, provider.Request) (provider.Response, error) {
		sent++
		return provider.Response{Usage: provider.Usage{InputTokens: 10, OutputTokens: 2}}, nil
	}))
	req := provider.Request{Model: "opus", Messages: []provider.Message{{Role: provider.RoleUser, Content: "x"}},
		Tags: map[string]string{provider.TagStep: string(StageScoring), provider.TagRole: "judge"}}
	_, err := p.Complete(context.Background(), req)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = p.Complete(ctx, req)
	require.ErrorIs(t, err, context.Canceled)
	u := l.usage()
	assert.Equal(t, 1, sent)
	assert.Equal(t, 1, u.Calls)
	assert.Equal(t, map[string]int{string(StageScoring): 1}, u.StepCalls)
	assert.Equal(t, map[string]int{"judge (opus)": 1}, u.AgentCalls)
	assert.Equal(t, provider.Usage{InputTokens: 10, OutputTokens: 2}, u.Total)
}
