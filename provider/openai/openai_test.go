package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/internal/wiretest"
	"github.com/crucible-go/crucible/provider/providertest"
)

func TestConformance(t *testing.T) {
	ok := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, completion))
	failing := wiretest.NewServer(t, wiretest.Answer(http.StatusTooManyRequests,
		`{"error":{"message":"Rate limit reached for gpt-5.2 on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}`,
		"retry-after", "2"))
	slow := wiretest.NewServer(t, wiretest.Block)
	providertest.Run(t, newTestProvider(ok),
		providertest.WithFailing(newTestProvider(failing)),
		providertest.WithSlow(newTestProvider(slow)))
}

func TestRequestBody(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"winner":{"type":"string"}},"required":["winner"],"additionalProperties":false}`)
	conversation := []provider.Message{
		{Role: provider.RoleUser, Content: "Shared context: variants A and B.", Cache: true},
		{Role: provider.RoleAssistant, Content: "Understood."},
		{Role: provider.RoleUser, Content: "Which variant wins?"},
	}
	tests := []struct {
		name string
		opts []Option
		req  provider.Request
		want string
	}{
		{
			name: "full request to OpenAI",
			opts: []Option{WithLegacyMaxTokens(false), WithModel("gpt52", "gpt-5.2")},
			req: provider.Request{
				Model: "gpt52", System: "You are a judge.", Messages: conversation,
				MaxTokens: 800, Temperature: provider.Temperature(0.2),
				Schema: &provider.Schema{Name: "verdict", Definition: schema},
				Tags:   map[string]string{provider.TagStep: "scoring"},
			},
			want: `{
				"model": "gpt-5.2",
				"messages": [
					{"role": "system", "content": "You are a judge."},
					{"role": "user", "content": "Shared context: variants A and B."},
					{"role": "assistant", "content": "Understood."},
					{"role": "user", "content": "Which variant wins?"}
				],
				"max_completion_tokens": 800,
				"temperature": 0.2,
				"response_format": {"type": "json_schema", "json_schema": {"name": "verdict", "schema": ` + string(schema) + `}}
			}`,
		},
		{
			name: "compatible server: max_tokens, no system, unmapped model",
			opts: []Option{WithLegacyMaxTokens(true)},
			req:  provider.Request{Model: "llama3.1:8b", Messages: conversation[2:], MaxTokens: 64},
			want: `{"model": "llama3.1:8b", "messages": [{"role": "user", "content": "Which variant wins?"}], "max_tokens": 64}`,
		},
		{
			name: "strict schema",
			opts: []Option{WithStrictSchemas(true)},
			req:  provider.Request{Model: "m", Messages: conversation[2:], Schema: &provider.Schema{Name: "verdict", Definition: schema}},
			want: `{"model": "m", "messages": [{"role": "user", "content": "Which variant wins?"}],
				"response_format": {"type": "json_schema", "json_schema": {"name": "verdict", "strict": true, "schema": ` + string(schema) + `}}}`,
		},
		{
			name: "structured output off",
			opts: []Option{WithStructuredOutput(false)},
			req:  provider.Request{Model: "m", Messages: conversation[2:], Schema: &provider.Schema{Name: "verdict", Definition: schema}},
			want: `{"model": "m", "messages": [{"role": "user", "content": "Which variant wins?"}]}`,
		},
		{
			name: "temperature dropped by our id",
			opts: []Option{WithModel("mini", "gpt-5-mini"), WithoutTemperature("MINI")},
			req:  provider.Request{Model: "mini", Messages: conversation[2:], Temperature: provider.Temperature(0.7)},
			want: `{"model": "gpt-5-mini", "messages": [{"role": "user", "content": "Which variant wins?"}]}`,
		},
		{
			name: "temperature dropped by upstream name",
			opts: []Option{WithModels(map[string]string{"mini": "gpt-5-mini"}), WithoutTemperature("gpt-5-mini")},
			req:  provider.Request{Model: "Mini", Messages: conversation[2:], Temperature: provider.Temperature(0)},
			want: `{"model": "gpt-5-mini", "messages": [{"role": "user", "content": "Which variant wins?"}]}`,
		},
		{
			name: "zero temperature is sent",
			req:  provider.Request{Model: "m", Messages: conversation[2:], Temperature: provider.Temperature(0)},
			want: `{"model": "m", "messages": [{"role": "user", "content": "Which variant wins?"}], "temperature": 0}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, completion))
			_, err := newTestProvider(s, tt.opts...).Complete(context.Background(), tt.req)
			require.NoError(t, err)
			got := s.Last(t)
			assert.Equal(t, http.MethodPost, got.Method)
			assert.Equal(t, "/v1/chat/completions", got.Path)
			assert.Equal(t, "Bearer sk-test", got.Header.Get("Authorization"))
			assert.JSONEq(t, tt.want, string(got.Body))
		})
	}
}

func TestSchemaBytesSentVerbatim(t *testing.T) {
	// Key order and spacing of the caller's schema survive: the bytes are
	// passed through, not re-encoded from a map.
	def := `{"type":"object","required":["z","a"],"properties":{"z":{"type":"string"},"a":{"type":"integer"}}}`
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, completion))
	_, err := newTestProvider(s).Complete(context.Background(), provider.Request{
		Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "x"}},
		Schema: &provider.Schema{Name: "s", Definition: json.RawMessage(def)},
	})
	require.NoError(t, err)
	assert.Contains(t, string(s.Last(t).Body), `"schema":`+def)
}

func TestResponse(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    provider.Response
		wantErr error
	}{
		{
			name: "text with cached prompt",
			body: completion,
			want: provider.Response{Text: "Hello, caller.", Model: "gpt-5.2-2025-12-11", FinishReason: provider.FinishStop,
				Usage: provider.Usage{InputTokens: 1117, OutputTokens: 46, CachedTokens: 1024}},
		},
		{
			name: "cut at max tokens, cache writes reported",
			body: reply(`{"role":"assistant","content":"The first half"}`, "length",
				`{"prompt_tokens":300,"completion_tokens":64,"total_tokens":364,"prompt_tokens_details":{"cached_tokens":0,"cache_write_tokens":256}}`),
			want: provider.Response{Text: "The first half", Model: "gpt-5.2", FinishReason: provider.FinishLength,
				Usage: provider.Usage{InputTokens: 300, OutputTokens: 64, CacheWriteTokens: 256}},
		},
		{
			name: "refusal",
			body: reply(`{"role":"assistant","content":null,"refusal":"I can't help with that."}`, "stop",
				`{"prompt_tokens":20,"completion_tokens":7,"total_tokens":27}`),
			want: provider.Response{Text: "I can't help with that.", Model: "gpt-5.2", FinishReason: provider.FinishRefusal,
				Usage: provider.Usage{InputTokens: 20, OutputTokens: 7}},
			wantErr: provider.ErrRefusal,
		},
		{
			name: "content filter",
			body: reply(`{"role":"assistant","content":"Partial"}`, "content_filter",
				`{"prompt_tokens":20,"completion_tokens":1,"total_tokens":21}`),
			want: provider.Response{Text: "Partial", Model: "gpt-5.2", FinishReason: provider.FinishRefusal,
				Usage: provider.Usage{InputTokens: 20, OutputTokens: 1}},
			wantErr: provider.ErrRefusal,
		},
		{
			name: "tool calls and a server without details",
			body: reply(`{"role":"assistant","content":""}`, "tool_calls", `{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}`),
			want: provider.Response{Model: "gpt-5.2", FinishReason: provider.FinishOther, Usage: provider.Usage{InputTokens: 5, OutputTokens: 2}},
		},
		{
			name:    "no choices",
			body:    `{"id":"x","object":"chat.completion","created":1,"model":"gpt-5.2","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":0,"total_tokens":5}}`,
			wantErr: provider.ErrUnavailable,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, tt.body))
			resp, err := newTestProvider(s).Complete(context.Background(), provider.Request{
				Model: "gpt52", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				var pe *provider.Error
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, Name, pe.Provider)
				assert.Equal(t, "gpt52", pe.Model)
				assert.False(t, pe.Retryable && errors.Is(err, provider.ErrRefusal), "a refusal is not retryable")
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

func reply(message, finish, usage string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion","created":1741570283,"model":"gpt-5.2","choices":[{"index":0,"message":` +
		message + `,"logprobs":null,"finish_reason":"` + finish + `"}],"usage":` + usage + `}`
}

func TestErrors(t *testing.T) {
	now := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
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
		{"rate limited, retry-after seconds", 429, []string{"retry-after", "20"},
			`{"error":{"message":"Rate limit reached for gpt-5.2 in organization org-1 on requests per min (RPM): Limit 500, Used 500, Requested 1.","type":"requests","param":null,"code":"rate_limit_exceeded"}}`,
			provider.ErrRateLimited, true, 20 * time.Second, "Rate limit reached for gpt-5.2 in organization org-1 on requests per min (RPM): Limit 500, Used 500, Requested 1."},
		{"rate limited, retry-after-ms wins", 429, []string{"retry-after", "20", "retry-after-ms", "1500"},
			`{"error":{"message":"slow down","type":"requests","param":null,"code":"rate_limit_exceeded"}}`,
			provider.ErrRateLimited, true, 1500 * time.Millisecond, "slow down"},
		{"rate limited, retry-after date", 429, []string{"retry-after", now.Add(90 * time.Second).Format(http.TimeFormat)},
			`{"error":{"message":"slow down","type":"requests","param":null,"code":"rate_limit_exceeded"}}`,
			provider.ErrRateLimited, true, 90 * time.Second, "slow down"},
		{"out of quota", 429, nil,
			`{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`,
			provider.ErrRateLimited, false, 0, "You exceeded your current quota, please check your plan and billing details."},
		{"context length", 400, nil,
			`{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
			provider.ErrContextLength, false, 0, "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages."},
		{"llama.cpp context size", 400, nil,
			`{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}`,
			provider.ErrContextLength, false, 0, "the request exceeds the available context size, try increasing it"},
		{"invalid request", 400, nil,
			`{"error":{"message":"Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}`,
			provider.ErrInvalidRequest, false, 0, "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported."},
		{"content policy", 400, nil,
			`{"error":{"message":"Invalid prompt: your prompt was flagged as potentially violating our usage policy.","type":"invalid_request_error","param":null,"code":"invalid_prompt"}}`,
			provider.ErrRefusal, false, 0, "Invalid prompt: your prompt was flagged as potentially violating our usage policy."},
		{"bad key", 401, nil,
			`{"error":{"message":"Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			provider.ErrAuth, false, 0, "Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys."},
		{"unknown model", 404, nil,
			`{"error":{"message":"The model 'gpt-9' does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`,
			provider.ErrUnknownModel, false, 0, "The model 'gpt-9' does not exist or you do not have access to it."},
		{"server error", 500, nil,
			`{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}`,
			provider.ErrUnavailable, true, 0, "The server had an error while processing your request. Sorry about that!"},
		{"overloaded with retry-after", 503, []string{"retry-after", "3"},
			`{"error":{"message":"The engine is currently overloaded, please try again later","type":"server_error","param":null,"code":null}}`,
			provider.ErrUnavailable, true, 3 * time.Second, "The engine is currently overloaded, please try again later"},
		{"server says do not retry", 500, []string{"x-should-retry", "false"},
			`{"error":{"message":"boom","type":"server_error","param":null,"code":null}}`,
			provider.ErrUnavailable, false, 0, "boom"},
		{"ollama string error", 404, nil, `{"error":"model \"llama9\" not found, try pulling it first"}`,
			provider.ErrUnknownModel, false, 0, `model "llama9" not found, try pulling it first`},
		{"html from a wrong base URL", 502, []string{"Content-Type", "text/html"}, "<html>\n<body>Bad Gateway</body></html>",
			provider.ErrUnavailable, true, 0, "<html>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := wiretest.NewServer(t, wiretest.Answer(tt.status, tt.body, tt.header...))
			p := newTestProvider(s, withClock(func() time.Time { return now }))
			resp, err := p.Complete(context.Background(), provider.Request{
				Model: "gpt52", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
			assert.Zero(t, resp)
			pe := wiretest.CheckError(t, err, wiretest.WantError{Kind: tt.kind, Provider: Name, Model: "gpt52",
				Status: tt.status, Retryable: tt.retryable, RetryAfter: tt.after, Message: tt.message})
			assert.NotNil(t, pe.Err, "the SDK's error is kept")
			assert.Len(t, s.Requests(), 1, "the SDK must not retry by default")
		})
	}
}

func TestSDKErrorIsKept(t *testing.T) {
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusBadRequest,
		`{"error":{"message":"bad","type":"invalid_request_error","param":"messages","code":"invalid_value"}}`))
	_, err := newTestProvider(s).Complete(context.Background(), provider.Request{
		Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	var apiErr *sdk.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "invalid_value", apiErr.Code)
	assert.Equal(t, "messages", apiErr.Param)
}

func TestNetworkError(t *testing.T) {
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, completion))
	p := newTestProvider(s)
	s.Close() // nothing listens any more
	_, err := p.Complete(context.Background(), provider.Request{
		Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	require.ErrorIs(t, err, provider.ErrUnavailable)
	assert.True(t, provider.IsRetryable(err))
	var pe *provider.Error
	require.ErrorAs(t, err, &pe)
	assert.Zero(t, pe.StatusCode)
}

func TestUndecodableReply(t *testing.T) {
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, `{"choices": [`))
	_, err := newTestProvider(s).Complete(context.Background(), provider.Request{
		Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	require.ErrorIs(t, err, provider.ErrUnavailable)
	var pe *provider.Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, http.StatusOK, pe.StatusCode)
}

func TestSDKRetries(t *testing.T) {
	// WithMaxRetries hands retries to the SDK; it honours retry-after-ms.
	calls := 0
	s := wiretest.NewServer(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		calls++
		if calls == 1 {
			wiretest.Answer(http.StatusTooManyRequests, `{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}`,
				"retry-after-ms", "1")(w, r, body)
			return
		}
		wiretest.Answer(http.StatusOK, completion)(w, r, body)
	})
	resp, err := newTestProvider(s, WithMaxRetries(1)).Complete(context.Background(), provider.Request{
		Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	require.NoError(t, err)
	assert.Equal(t, "Hello, caller.", resp.Text)
	assert.Len(t, s.Requests(), 2)
}

func TestValidateFirst(t *testing.T) {
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, completion))
	p := newTestProvider(s)
	for _, req := range []provider.Request{
		{Model: "m"},
		{Model: "m", Messages: []provider.Message{{Role: "system", Content: "x"}}},
		{Model: "", Messages: []provider.Message{{Role: provider.RoleUser, Content: "x"}}},
		{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "x"}}, Temperature: provider.Temperature(3)},
	} {
		_, err := p.Complete(context.Background(), req)
		require.ErrorIs(t, err, provider.ErrInvalidRequest)
		var pe *provider.Error
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, Name, pe.Provider)
	}
	assert.Empty(t, s.Requests(), "invalid requests must not reach the server")
}

func TestCanceledBeforeSend(t *testing.T) {
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, completion))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newTestProvider(s).Complete(ctx, provider.Request{
		Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	require.ErrorIs(t, err, context.Canceled)
	assert.False(t, provider.IsRetryable(err))
	assert.Empty(t, s.Requests())
}

func TestEnvironmentDefaults(t *testing.T) {
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, completion))
	env := map[string]string{EnvBaseURL: s.URL + "/v1/", EnvAPIKey: "sk-from-env"}
	p := New(withEnvironment(func(k string) (string, bool) { v, ok := env[k]; return v, ok }), WithHTTPClient(s.Client()))
	assert.Equal(t, s.URL+"/v1", p.BaseURL())
	_, err := p.Complete(context.Background(), provider.Request{
		Model: "m", MaxTokens: 10, Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	require.NoError(t, err)
	got := s.Last(t)
	assert.Equal(t, "/v1/chat/completions", got.Path)
	assert.Equal(t, "Bearer sk-from-env", got.Header.Get("Authorization"))
	assert.Contains(t, string(got.Body), `"max_tokens":10`, "a non-OpenAI base URL defaults to max_tokens")

	// Options win over the environment; without a key no Authorization
	// header goes out (what local servers expect).
	p = New(withEnvironment(func(k string) (string, bool) { v, ok := env[k]; return v, ok }),
		WithHTTPClient(s.Client()), WithAPIKey(""), WithBaseURL(s.URL+"/api/v1"))
	_, err = p.Complete(context.Background(), provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	require.NoError(t, err)
	got = s.Last(t)
	assert.Equal(t, "/api/v1/chat/completions", got.Path)
	assert.Empty(t, got.Header.Get("Authorization"))
}

func TestOfficialBaseURLDefaults(t *testing.T) {
	// With nothing configured the adapter targets OpenAI and uses
	// max_completion_tokens. A transport stands in for the network.
	var body []byte
	var host string
	hc := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		host = r.URL.Host + r.URL.Path
		body, _ = readAll(r)
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: nopCloser(completion), Request: r}, nil
	})}
	p := New(withEnvironment(func(string) (string, bool) { return "", false }), WithHTTPClient(hc))
	assert.Equal(t, DefaultBaseURL, p.BaseURL())
	_, err := p.Complete(context.Background(), provider.Request{
		Model: "gpt-5.2", MaxTokens: 10, Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	require.NoError(t, err)
	assert.Equal(t, "api.openai.com/v1/chat/completions", host)
	assert.Contains(t, string(body), `"max_completion_tokens":10`)
	assert.NotContains(t, string(body), `"max_tokens"`)
}

func TestRequestOptionsAndLogger(t *testing.T) {
	s := wiretest.NewServer(t, wiretest.Answer(http.StatusOK, completion))
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	p := newTestProvider(s, WithRequestOptions(option.WithHeader("HTTP-Referer", "https://example.com")), WithLogger(logger))
	_, err := p.Complete(context.Background(), provider.Request{
		Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}, Tags: map[string]string{provider.TagStep: "debate"}})
	require.NoError(t, err)
	assert.Equal(t, "https://example.com", s.Last(t).Header.Get("HTTP-Referer"))
	out := logs.String()
	for _, want := range []string{"model call", "provider=openai", "model=m", "step=debate", "usage=\"in=1117 out=46 cached=1024\"", "finish=stop"} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "sk-test", "the key is never logged")
}

func TestUpstream(t *testing.T) {
	p := New(withEnvironment(func(string) (string, bool) { return "", false }), WithModel(" GPT52 ", "gpt-5.2"))
	assert.Equal(t, "gpt-5.2", p.Upstream("gpt52"))
	assert.Equal(t, "other", p.Upstream("other"))
	assert.True(t, strings.HasSuffix(p.BaseURL(), "/v1"))
}
