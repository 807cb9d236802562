package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/internal/wiretest"
	"github.com/crucible-go/crucible/provider/providertest"
)

func TestConformance(t *testing.T) {
	ok := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, message))
	failing := wiretest.NewServer(t, wiretest.Answer(http.StatusTooManyRequests,
		`{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 50,000 input tokens per minute."},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`,
		"retry-after", "2"))
	slow := wiretest.NewServer(t, wiretest.Block)
	providertest.Run(t, newTestProvider(ok),
		providertest.WithFailing(newTestProvider(failing)),
		providertest.WithSlow(newTestProvider(slow)))
}

var hi = []provider.Message{{Role: provider.RoleUser, Content: "hi"}}

func TestRequestBody(t *testing.T) {
	schema := `{"type":"object","properties":{"winner":{"type":"string","maxLength":64}},"required":["winner"],"additionalProperties":false}`
	conversation := []provider.Message{
		{Role: provider.RoleUser, Content: "Shared context: variants A and B.", Cache: true},
		{Role: provider.RoleAssistant, Content: "Understood."},
		{Role: provider.RoleUser, Content: "Which variant wins?"},
	}
	last := `{"role":"user","content":[{"type":"text","text":"Which variant wins?"}]}`
	marked := func(n int) []provider.Message {
		var ms []provider.Message
		for i := range n {
			ms = append(ms, provider.Message{Role: provider.RoleUser, Content: fmt.Sprint("part ", i), Cache: true})
		}
		return ms
	}
	tests := []struct {
		name string
		opts []Option
		req  provider.Request
		want string
	}{
		{
			name: "full request",
			opts: []Option{WithModel("sonnet", "claude-sonnet-5-5")},
			req: provider.Request{
				Model: "sonnet", System: "You are a judge.", Messages: conversation,
				MaxTokens: 800, Temperature: provider.Temperature(0.2),
				Schema: &provider.Schema{Name: "verdict", Definition: json.RawMessage(schema)},
				Tags:   map[string]string{provider.TagStep: "scoring"},
			},
			want: `{
				"model": "claude-sonnet-5-5",
				"max_tokens": 800,
				"system": [{"type": "text", "text": "You are a judge."}],
				"messages": [
					{"role": "user", "content": [{"type": "text", "text": "Shared context: variants A and B.", "cache_control": {"type": "ephemeral"}}]},
					{"role": "assistant", "content": [{"type": "text", "text": "Understood."}]},
					` + last + `
				],
				"temperature": 0.2,
				"output_config": {"format": {"type": "json_schema", "schema": ` + schema + `}}
			}`,
		},
		{
			name: "defaults: max tokens, no system, temperature clamped, unmapped model",
			req:  provider.Request{Model: "claude-haiku-5-5", Messages: conversation[2:], Temperature: provider.Temperature(1.5)},
			want: `{"model": "claude-haiku-5-5", "max_tokens": 8192, "messages": [` + last + `], "temperature": 1}`,
		},
		{
			name: "own default max tokens and an hour-long cache",
			opts: []Option{WithDefaultMaxTokens(100), WithCacheTTL(CacheTTL1h)},
			req:  provider.Request{Model: "m", Messages: conversation},
			want: `{"model": "m", "max_tokens": 100, "messages": [
				{"role": "user", "content": [{"type": "text", "text": "Shared context: variants A and B.", "cache_control": {"type": "ephemeral", "ttl": "1h"}}]},
				{"role": "assistant", "content": [{"type": "text", "text": "Understood."}]},
				` + last + `]}`,
		},
		{
			name: "at most four cache marks, the earliest kept",
			req:  provider.Request{Model: "m", MaxTokens: 10, Messages: marked(6)},
			want: `{"model": "m", "max_tokens": 10, "messages": [
				{"role": "user", "content": [{"type": "text", "text": "part 0", "cache_control": {"type": "ephemeral"}}]},
				{"role": "user", "content": [{"type": "text", "text": "part 1", "cache_control": {"type": "ephemeral"}}]},
				{"role": "user", "content": [{"type": "text", "text": "part 2", "cache_control": {"type": "ephemeral"}}]},
				{"role": "user", "content": [{"type": "text", "text": "part 3", "cache_control": {"type": "ephemeral"}}]},
				{"role": "user", "content": [{"type": "text", "text": "part 4"}]},
				{"role": "user", "content": [{"type": "text", "text": "part 5"}]}]}`,
		},
		{
			name: "structured output off",
			opts: []Option{WithStructuredOutput(false)},
			req:  provider.Request{Model: "m", MaxTokens: 10, Messages: conversation[2:], Schema: &provider.Schema{Name: "verdict", Definition: json.RawMessage(schema)}},
			want: `{"model": "m", "max_tokens": 10, "messages": [` + last + `]}`,
		},
		{
			name: "zero temperature is sent",
			req:  provider.Request{Model: "m", MaxTokens: 10, Messages: conversation[2:], Temperature: provider.Temperature(0)},
			want: `{"model": "m", "max_tokens": 10, "messages": [` + last + `], "temperature": 0}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, message))
			_, err := newTestProvider(s, tt.opts...).Complete(context.Background(), tt.req)
			require.NoError(t, err)
			got := s.Last(t)
			assert.Equal(t, http.MethodPost, got.Method)
			assert.Equal(t, "/v1/messages", got.Path)
			assert.Equal(t, "sk-ant-test", got.Header.Get("X-Api-Key"))
			assert.Equal(t, "2023-06-01", got.Header.Get("Anthropic-Version"))
			assert.JSONEq(t, tt.want, string(got.Body))
		})
	}
}

func TestSchemaMustBeObject(t *testing.T) {
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, message))
	_, err := newTestProvider(s).Complete(context.Background(), provider.Request{
		Model: "m", Messages: hi, Schema: &provider.Schema{Name: "anything", Definition: json.RawMessage(`true`)}})
	require.ErrorIs(t, err, provider.ErrInvalidRequest)
	assert.Contains(t, err.Error(), `schema "anything" is not a JSON object`)
	assert.Empty(t, s.Requests())
}

func TestTooManyTokensForOneRequest(t *testing.T) {
	// The SDK refuses a non-streaming call that could outlast its timeout;
	// the adapter reports that as an invalid request before sending.
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, message))
	req := provider.Request{Model: "m", Messages: hi, MaxTokens: 64000}
	_, err := newTestProvider(s).Complete(context.Background(), req)
	require.ErrorIs(t, err, provider.ErrInvalidRequest)
	assert.Contains(t, err.Error(), "max tokens 64000 is too many for a non-streaming request")
	assert.Empty(t, s.Requests())

	// An explicit request timeout lifts the refusal.
	_, err = newTestProvider(s, WithRequestTimeout(time.Hour)).Complete(context.Background(), req)
	require.NoError(t, err)
	assert.Contains(t, string(s.Last(t).Body), `"max_tokens":64000`)
}

func TestResponse(t *testing.T) {
	usage := func(in, write, read, out int) string {
		return fmt.Sprintf(`{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"output_tokens":%d}`, in, write, read, out)
	}
	reply := func(content, stop, usage string, extra ...string) string {
		return `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-5-5","content":` + content +
			`,"stop_reason":"` + stop + `","stop_sequence":null,"usage":` + usage + strings.Join(extra, "") + `}`
	}
	tests := []struct {
		name    string
		body    string
		want    provider.Response
		wantErr error
	}{
		{
			name: "cache read counted in input",
			body: message,
			want: provider.Response{Text: "Hello, caller.", Model: "claude-sonnet-5-5", FinishReason: provider.FinishStop,
				Usage: provider.Usage{InputTokens: 1821, OutputTokens: 12, CachedTokens: 1800}},
		},
		{
			name: "cache write counted in input",
			body: reply(`[{"type":"text","text":"ok"}]`, "end_turn", usage(50, 2000, 0, 3)),
			want: provider.Response{Text: "ok", Model: "claude-sonnet-5-5", FinishReason: provider.FinishStop,
				Usage: provider.Usage{InputTokens: 2050, OutputTokens: 3, CacheWriteTokens: 2000}},
		},
		{
			name: "text blocks joined, thinking skipped, cut at max tokens",
			body: reply(`[{"type":"thinking","thinking":"Let me see.","signature":"sig"},{"type":"text","text":"First, "},{"type":"text","text":"second"}]`,
				"max_tokens", usage(10, 0, 0, 64)),
			want: provider.Response{Text: "First, second", Model: "claude-sonnet-5-5", FinishReason: provider.FinishLength,
				Usage: provider.Usage{InputTokens: 10, OutputTokens: 64}},
		},
		{
			name: "stop sequence",
			body: reply(`[{"type":"text","text":"done"}]`, "stop_sequence", usage(10, 0, 0, 1)),
			want: provider.Response{Text: "done", Model: "claude-sonnet-5-5", FinishReason: provider.FinishStop,
				Usage: provider.Usage{InputTokens: 10, OutputTokens: 1}},
		},
		{
			name: "context window exhausted",
			body: reply(`[{"type":"text","text":"trunc"}]`, "model_context_window_exceeded", usage(10, 0, 0, 1)),
			want: provider.Response{Text: "trunc", Model: "claude-sonnet-5-5", FinishReason: provider.FinishLength,
				Usage: provider.Usage{InputTokens: 10, OutputTokens: 1}},
		},
		{
			name: "tool use",
			body: reply(`[{"type":"tool_use","id":"toolu_1","name":"f","input":{}}]`, "tool_use", usage(10, 0, 0, 5)),
			want: provider.Response{Model: "claude-sonnet-5-5", FinishReason: provider.FinishOther,
				Usage: provider.Usage{InputTokens: 10, OutputTokens: 5}},
		},
		{
			name: "refusal",
			body: reply(`[]`, "refusal", usage(30, 0, 0, 2),
				`,"stop_details":{"type":"refusal","category":"cyber","explanation":"This request touches on a restricted category."}`),
			want: provider.Response{Model: "claude-sonnet-5-5", FinishReason: provider.FinishRefusal,
				Usage: provider.Usage{InputTokens: 30, OutputTokens: 2}},
			wantErr: provider.ErrRefusal,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, tt.body))
			resp, err := newTestProvider(s).Complete(context.Background(), provider.Request{Model: "sonnet", Messages: hi})
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				var pe *provider.Error
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, Name, pe.Provider)
				assert.Equal(t, "sonnet", pe.Model)
				assert.False(t, pe.Retryable)
				assert.Equal(t, "This request touches on a restricted category.", pe.Message)
			} else {
				require.NoError(t, err)
			}
			want := tt.want
			if want != (provider.Response{}) {
				want.Provider = Name // every reply names the adapter
			}
			assert.Equal(t, want, resp)
		})
	}
}

func TestErrors(t *testing.T) {
	now := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	body := func(typ, msg string) string {
		return `{"type":"error","error":{"type":"` + typ + `","message":"` + msg + `"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`
	}
	tests := []struct {
		name      string
		status    int
		header    []string
		body      string
		kind      error
		retryable bool
		after     time.Duration
		message   string
	}{
		{"rate limited", 429, []string{"retry-after", "30", "anthropic-ratelimit-input-tokens-remaining", "0"},
			body("rate_limit_error", "This request would exceed the rate limit for your organization of 50,000 input tokens per minute."),
			provider.ErrRateLimited, true, 30 * time.Second, "This request would exceed the rate limit for your organization of 50,000 input tokens per minute."},
		{"rate limited, date", 429, []string{"retry-after", now.Add(5 * time.Second).Format(http.TimeFormat)},
			body("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"),
			provider.ErrRateLimited, true, 5 * time.Second, "Number of request tokens has exceeded your per-minute rate limit"},
		{"overloaded", 529, nil, body("overloaded_error", "Overloaded"), provider.ErrUnavailable, true, 0, "Overloaded"},
		{"api error", 500, nil, body("api_error", "Internal server error"), provider.ErrUnavailable, true, 0, "Internal server error"},
		{"prompt too long", 400, nil, body("invalid_request_error", "prompt is too long: 215012 tokens > 200000 maximum"),
			provider.ErrContextLength, false, 0, "prompt is too long: 215012 tokens > 200000 maximum"},
		{"request too large", 413, nil, body("request_too_large", "Request exceeds the maximum allowed number of bytes."),
			provider.ErrContextLength, false, 0, "Request exceeds the maximum allowed number of bytes."},
		{"invalid", 400, nil, body("invalid_request_error", "messages: text content blocks must be non-empty"),
			provider.ErrInvalidRequest, false, 0, "messages: text content blocks must be non-empty"},
		{"bad key", 401, nil, body("authentication_error", "invalid x-api-key"), provider.ErrAuth, false, 0, "invalid x-api-key"},
		{"no permission", 403, nil, body("permission_error", "Your API key does not have permission to use the specified resource."),
			provider.ErrAuth, false, 0, "Your API key does not have permission to use the specified resource."},
		{"billing", 400, nil, body("billing_error", "Your credit balance is too low to access the Anthropic API."),
			provider.ErrAuth, false, 0, "Your credit balance is too low to access the Anthropic API."},
		{"unknown model", 404, nil, body("not_found_error", "model: claude-opus-9"), provider.ErrUnknownModel, false, 0, "model: claude-opus-9"},
		{"server asks for a retry", 400, []string{"x-should-retry", "true"}, body("invalid_request_error", "try again"),
			provider.ErrInvalidRequest, false, 0, "try again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := wiretest.NewServer(t, wiretest.Answer(tt.status, tt.body, tt.header...))
			p := newTestProvider(s, withClock(func() time.Time { return now }))
			resp, err := p.Complete(context.Background(), provider.Request{Model: "sonnet", Messages: hi})
			assert.Zero(t, resp)
			wiretest.CheckError(t, err, wiretest.WantError{Kind: tt.kind, Provider: Name, Model: "sonnet",
				Status: tt.status, Retryable: tt.retryable, RetryAfter: tt.after, Message: tt.message})
			var apiErr *sdk.Error
			require.ErrorAs(t, err, &apiErr, "the SDK's error is kept")
			assert.Equal(t, tt.status, apiErr.StatusCode)
			assert.Len(t, s.Requests(), 1, "the SDK must not retry by default")
		})
	}
}

func TestNetworkError(t *testing.T) {
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, message))
	p := newTestProvider(s)
	s.Close()
	_, err := p.Complete(context.Background(), provider.Request{Model: "m", Messages: hi})
	require.ErrorIs(t, err, provider.ErrUnavailable)
	assert.True(t, provider.IsRetryable(err))
}

func TestUndecodableReply(t *testing.T) {
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, `{"content": [`))
	_, err := newTestProvider(s).Complete(context.Background(), provider.Request{Model: "m", Messages: hi})
	require.ErrorIs(t, err, provider.ErrUnavailable)
}

func TestValidateFirst(t *testing.T) {
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, message))
	p := newTestProvider(s)
	for _, req := range []provider.Request{
		{Model: "m"},
		{Model: "m", Messages: []provider.Message{{Role: "system", Content: "x"}}},
		{Model: " ", Messages: hi},
		{Model: "m", Messages: hi, MaxTokens: -1},
		{Model: "m", Messages: hi, Schema: &provider.Schema{Name: "s", Definition: json.RawMessage(`{`)}},
	} {
		_, err := p.Complete(context.Background(), req)
		require.ErrorIs(t, err, provider.ErrInvalidRequest)
	}
	assert.Empty(t, s.Requests(), "invalid requests must not reach the server")
}

func TestCanceledBeforeSend(t *testing.T) {
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, message))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newTestProvider(s).Complete(ctx, provider.Request{Model: "m", Messages: hi})
	require.ErrorIs(t, err, context.Canceled)
	assert.False(t, provider.IsRetryable(err))
	assert.Empty(t, s.Requests())
}

func TestEnvironmentDefaults(t *testing.T) {
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, message))
	env := map[string]string{EnvBaseURL: s.URL + "/", EnvAPIKey: "sk-ant-env"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	p := New(withEnvironment(lookup), WithHTTPClient(s.Client()))
	assert.Equal(t, s.URL, p.BaseURL())
	_, err := p.Complete(context.Background(), provider.Request{Model: "m", Messages: hi})
	require.NoError(t, err)
	assert.Equal(t, "sk-ant-env", s.Last(t).Header.Get("X-Api-Key"))

	p = New(withEnvironment(lookup), WithHTTPClient(s.Client()), WithAPIKey("sk-ant-option"), WithBaseURL(s.URL+"/proxy"))
	_, err = p.Complete(context.Background(), provider.Request{Model: "m", Messages: hi})
	require.NoError(t, err)
	assert.Equal(t, "sk-ant-option", s.Last(t).Header.Get("X-Api-Key"))
	assert.Equal(t, "/proxy/v1/messages", s.Last(t).Path)

	assert.Equal(t, DefaultBaseURL, New(withEnvironment(func(string) (string, bool) { return "", false })).BaseURL())
}

func TestSDKRetries(t *testing.T) {
	calls := 0
	s := wiretest.NewServer(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		calls++
		if calls == 1 {
			wiretest.Answer(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "retry-after-ms", "1")(w, r, body)
			return
		}
		wiretest.Answer(http.StatusOK, message)(w, r, body)
	})
	resp, err := newTestProvider(s, WithMaxRetries(1)).Complete(context.Background(), provider.Request{Model: "m", Messages: hi})
	require.NoError(t, err)
	assert.Equal(t, "Hello, caller.", resp.Text)
	assert.Len(t, s.Requests(), 2)
}

func TestRequestOptionsAndLogger(t *testing.T) {
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, message))
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	p := newTestProvider(s, WithRequestOptions(option.WithHeader("anthropic-beta", "test-beta")), WithLogger(logger),
		WithModel("sonnet", "claude-sonnet-5-5"))
	_, err := p.Complete(context.Background(), provider.Request{Model: "sonnet", Messages: hi, Tags: map[string]string{provider.TagStep: "merge"}})
	require.NoError(t, err)
	assert.Equal(t, "test-beta", s.Last(t).Header.Get("anthropic-beta"))
	out := logs.String()
	for _, want := range []string{"model call", "provider=anthropic", "model=sonnet", "upstream=claude-sonnet-5-5", "step=merge", `usage="in=1821 out=12 cached=1800"`, "finish=stop"} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "sk-ant-test")
}

func TestSchemaMembersSentVerbatim(t *testing.T) {
	// Inside each top-level member the caller's bytes survive: numbers are
	// not turned into floats or strings, nested key order is kept.
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, message))
	def := `{"type":"object","properties":{"z":{"type":"integer","maximum":9007199254740993},"a":{"type":"string"}}}`
	_, err := newTestProvider(s).Complete(context.Background(), provider.Request{
		Model: "m", Messages: hi, Schema: &provider.Schema{Name: "s", Definition: json.RawMessage(def)}})
	require.NoError(t, err)
	assert.Contains(t, string(s.Last(t).Body), `"properties":{"z":{"type":"integer","maximum":9007199254740993},"a":{"type":"string"}}`)
}
