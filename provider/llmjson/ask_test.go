package llmjson

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

// TestAskRetryPolicy pins the one retry per agent call: after a retryable
// error or an unusable reply, never after a non-retryable error or a
// refusal, and a truncated reply asked again with a larger limit.
func TestAskRetryPolicy(t *testing.T) {
	good := "```json\n{\"verdict\": \"MET\"}\n```"
	truncated := func(_ context.Context, req provider.Request) (provider.Response, error) {
		r := providertest.TextResponse(req, "{\"verdict\": \"ME")
		r.FinishReason = provider.FinishLength
		return r, nil
	}
	tests := []struct {
		name      string
		first     func(*providertest.Rule)
		second    func(*providertest.Rule)
		wantCalls int
		wantErr   error
		wantMsg   string
	}{
		{"rate limited, then fine", func(r *providertest.Rule) {
			r.Fail(&provider.Error{Kind: provider.ErrRateLimited, Retryable: true})
		}, func(r *providertest.Rule) { r.Reply(good) }, 2, nil, ""},
		{"unavailable twice", func(r *providertest.Rule) {
			r.Fail(&provider.Error{Kind: provider.ErrUnavailable, Retryable: true})
		}, func(r *providertest.Rule) { r.Fail(&provider.Error{Kind: provider.ErrUnavailable, Retryable: true}) }, 2, provider.ErrUnavailable, ""},
		{"authentication not retried", func(r *providertest.Rule) {
			r.Fail(&provider.Error{Kind: provider.ErrAuth})
		}, func(r *providertest.Rule) { r.Reply(good) }, 1, provider.ErrAuth, ""},
		{"invalid request not retried", func(r *providertest.Rule) {
			r.Fail(&provider.Error{Kind: provider.ErrInvalidRequest})
		}, func(r *providertest.Rule) { r.Reply(good) }, 1, provider.ErrInvalidRequest, ""},
		{"refusal sentence not retried, not content", func(r *providertest.Rule) {
			r.Reply("I'm sorry, but I can't help with that.")
		}, func(r *providertest.Rule) { r.Reply(good) }, 1, ErrInvalidReply, "refused"},
		{"empty, then fine", func(r *providertest.Rule) { r.Reply("") },
			func(r *providertest.Rule) { r.Reply(good) }, 2, nil, ""},
		{"truncated, then fine", func(r *providertest.Rule) { r.ReplyFunc(truncated) },
			func(r *providertest.Rule) { r.Reply(good) }, 2, nil, ""},
		{"truncated twice", func(r *providertest.Rule) { r.ReplyFunc(truncated) },
			func(r *providertest.Rule) { r.ReplyFunc(truncated) }, 2, ErrTruncated, "truncated at 200 output tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := providertest.NewFake()
			tt.first(fake.On(providertest.Not(providertest.Tag(provider.TagAttempt, "2"))))
			tt.second(fake.On(providertest.Tag(provider.TagAttempt, "2")))
			var v verdict
			req := provider.Request{Model: "m", MaxTokens: 100, Messages: []provider.Message{{Role: provider.RoleUser, Content: "judge"}}}
			_, err := Ask(context.Background(), fake, req, &v, nil)
			assert.Len(t, fake.Calls(), tt.wantCalls)
			if tt.wantErr == nil {
				require.NoError(t, err)
				assert.Equal(t, "MET", v.Verdict)
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
			assert.Contains(t, err.Error(), tt.wantMsg)
			assert.Empty(t, v.Verdict, "nothing unusable is kept")
		})
	}
}

func TestAskRetryAfterTruncationRaisesTheLimit(t *testing.T) {
	fake := providertest.NewFake()
	fake.On(providertest.Not(providertest.Tag(provider.TagAttempt, "2"))).ReplyFunc(func(_ context.Context, req provider.Request) (provider.Response, error) {
		r := providertest.TextResponse(req, "{")
		r.FinishReason = provider.FinishLength
		return r, nil
	})
	fake.On(providertest.Tag(provider.TagAttempt, "2")).Reply(`{"verdict": "MET"}`)
	var v verdict
	_, err := Ask(context.Background(), fake, provider.Request{Model: "m", MaxTokens: 100,
		Messages: []provider.Message{{Role: provider.RoleUser, Content: "x"}}}, &v, nil)
	require.NoError(t, err)
	calls := fake.Calls()
	require.Len(t, calls, 2)
	assert.Equal(t, 200, calls[1].Request.MaxTokens)
	assert.Contains(t, calls[1].Request.Messages[2].Content, "truncated")
}
