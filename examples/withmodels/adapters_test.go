package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/examples/internal/models"
	"github.com/crucible-go/crucible/provider"
)

// env is a fake environment.
func env(kv ...string) models.Env { return models.MapEnv(kv...) }

func ask(t *testing.T, reg *provider.Registry, model string) provider.Response {
	t.Helper()
	resp, err := reg.Complete(context.Background(), provider.Request{
		Model: model, Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	require.NoError(t, err)
	return resp
}

func TestOpenKeyErrors(t *testing.T) {
	tests := []struct {
		name  string
		flags models.Flags
		env   models.Env
		want  string
	}{
		{"anthropic without key", models.Flags{Provider: "anthropic"}, env("ANTHROPIC_BASE_URL", "http://localhost:1"),
			"--provider anthropic needs ANTHROPIC_API_KEY in the environment"},
		{"openai without key or server", models.Flags{Provider: "openai"}, env(),
			"--provider openai needs OPENAI_API_KEY in the environment (or OPENAI_BASE_URL for a local server that needs no key)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, err := models.Open(tt.flags, tt.env, adapters())
			require.Error(t, err)
			assert.Nil(t, reg)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

// server records what each request asked for and answers in the API's
// shape: Messages API under /v1/messages, Chat Completions otherwise.
type server struct {
	*httptest.Server
	mu    sync.Mutex
	seen  []seen
	fails int // answer this many requests with 503 first
}

type seen struct {
	path, model, auth string
}

func newServer(t *testing.T) *server {
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body struct {
			Model string `json:"model"`
		}
		_ = json.Unmarshal(b, &body)
		auth := r.Header.Get("X-Api-Key")
		if a := r.Header.Get("Authorization"); a != "" {
			auth = a
		}
		s.mu.Lock()
		s.seen = append(s.seen, seen{r.URL.Path, body.Model, auth})
		fail := s.fails > 0
		s.fails--
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if fail {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `{"error":{"message":"busy","type":"server_error"}}`)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/v1/messages") {
			_, _ = io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"`+body.Model+`",
				"content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,
				"usage":{"input_tokens":3,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}`)
			return
		}
		_, _ = io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"`+body.Model+`",
			"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],
			"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}`)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) last(t *testing.T) seen {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	require.NotEmpty(t, s.seen, "no request reached the server")
	return s.seen[len(s.seen)-1]
}

func (s *server) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen)
}

func TestOpenAnthropic(t *testing.T) {
	s := newServer(t)
	reg, err := models.Open(models.Flags{Provider: "anthropic"}, env("ANTHROPIC_API_KEY", "sk-ant-x", "ANTHROPIC_BASE_URL", s.URL), adaptersWith(s.Client()))
	require.NoError(t, err)
	assert.Equal(t, []string{"claude-haiku-5-5", "claude-opus-5-5", "claude-sonnet-5-5", "haiku", "opus", "sonnet"}, reg.Names())
	for alias, upstream := range map[string]string{"opus": "claude-opus-5-5", "Sonnet": "claude-sonnet-5-5", "claude-haiku-5-5": "claude-haiku-5-5"} {
		ask(t, reg, alias)
		assert.Equal(t, seen{"/v1/messages", upstream, "sk-ant-x"}, s.last(t), alias)
	}
	_, err = reg.Complete(context.Background(), provider.Request{Model: "gpt52", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	assert.ErrorIs(t, err, provider.ErrUnknownModel)
}

func TestOpenAIWithLocalServer(t *testing.T) {
	// A local server: a base URL, no key, and a model name of its own with
	// capitals in it, which must reach the server exactly as written.
	s := newServer(t)
	reg, err := models.Open(models.Flags{Provider: "openai", Model: "Qwen/Qwen2.5-7B-Instruct"}, env("OPENAI_BASE_URL", s.URL+"/v1"), adaptersWith(s.Client()))
	require.NoError(t, err)
	assert.True(t, reg.Has("gpt52"))
	assert.True(t, reg.Has("gpt-5.2"))
	ask(t, reg, "Qwen/Qwen2.5-7B-Instruct")
	assert.Equal(t, seen{"/v1/chat/completions", "Qwen/Qwen2.5-7B-Instruct", ""}, s.last(t))
	ask(t, reg, "gpt52")
	assert.Equal(t, seen{"/v1/chat/completions", "gpt-5.2", ""}, s.last(t))
}

func TestOpenAIKnownModelNotDuplicated(t *testing.T) {
	s := newServer(t)
	reg, err := models.Open(models.Flags{Provider: "openai", Model: "gpt-5.5"}, env("OPENAI_API_KEY", "sk-x", "OPENAI_BASE_URL", s.URL+"/v1"), adaptersWith(s.Client()))
	require.NoError(t, err)
	assert.Len(t, reg.Names(), 6, "an upstream name already in the table adds no entry")
	ask(t, reg, "gpt-5.5")
	assert.Equal(t, seen{"/v1/chat/completions", "gpt-5.5", "Bearer sk-x"}, s.last(t))
}

func TestRetryByDefault(t *testing.T) {
	s := newServer(t)
	s.fails = 1
	reg, err := models.Open(models.Flags{Provider: "openai"}, env("OPENAI_API_KEY", "sk-x", "OPENAI_BASE_URL", s.URL+"/v1"), adaptersWith(s.Client()))
	require.NoError(t, err)
	assert.Equal(t, "ok", ask(t, reg, "gpt52").Text)
	assert.Equal(t, 2, s.count(), "one failure, one retry by provider.Retry")

	// WithMiddleware replaces the default: no retry.
	s.fails = 1
	reg, err = models.Open(models.Flags{Provider: "openai"}, env("OPENAI_API_KEY", "sk-x", "OPENAI_BASE_URL", s.URL+"/v1"),
		adaptersWith(s.Client()), models.WithMiddleware())
	require.NoError(t, err)
	_, err = reg.Complete(context.Background(), provider.Request{Model: "gpt52", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	assert.ErrorIs(t, err, provider.ErrUnavailable)
	assert.Equal(t, 3, s.count())
}

func TestMiniModelDropsTemperature(t *testing.T) {
	var bodies []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"m",
			"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],
			"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}`)
	}))
	defer srv.Close()
	reg, err := models.Open(models.Flags{Provider: "openai"}, env("OPENAI_API_KEY", "sk-x", "OPENAI_BASE_URL", srv.URL+"/v1"), adaptersWith(srv.Client()))
	require.NoError(t, err)
	for _, model := range []string{"gpt54-mini", "gpt52"} {
		_, err := reg.Complete(context.Background(), provider.Request{Model: model, Temperature: provider.Temperature(0.3),
			Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
		require.NoError(t, err)
	}
	require.Len(t, bodies, 2)
	assert.NotContains(t, bodies[0], "temperature")
	assert.Contains(t, bodies[1], `"temperature":0.3`)
}
