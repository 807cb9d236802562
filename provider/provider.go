package provider

import (
	"context"
	"encoding/json"
	"fmt"
)

// Provider completes a conversation with a language model.
//
// Implementations must be safe for concurrent use by multiple goroutines.
// Complete must return promptly once ctx is done, with an error that wraps
// ctx.Err(). It must not modify req, nor retain req's slices after it
// returns. Errors should be, or wrap, an [*Error] so that callers can tell a
// rate limit from a refusal; a request that fails [Request.Validate] should
// yield an error that matches [ErrInvalidRequest].
type Provider interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// Func adapts an ordinary function to the [Provider] interface, as
// http.HandlerFunc does for handlers. The function must itself be safe for
// concurrent use.
type Func func(ctx context.Context, req Request) (Response, error)

// Complete calls f(ctx, req).
func (f Func) Complete(ctx context.Context, req Request) (Response, error) {
	return f(ctx, req)
}

// Role says who wrote a [Message].
type Role string

// The roles of a conversation. The system prompt is not a message; it is
// [Request.System].
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one turn of a conversation.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content"`
	// Cache marks the end of a prefix — the system prompt and the messages up
	// to and including this one — that other requests share (the variants and
	// the diff analysis, say). Providers with prompt caching may cache it;
	// others ignore the mark.
	Cache bool `json:"cache,omitempty"`
}

// Schema is a hint that the reply should be a JSON document conforming to a
// JSON Schema. Providers with native structured output use it; the caller
// validates the reply either way.
type Schema struct {
	// Name identifies the schema to providers that require one, e.g.
	// "advocate_positions". Letters, digits, '_' and '-'.
	Name string `json:"name"`
	// Definition is the JSON Schema document.
	Definition json.RawMessage `json:"definition"`
}

// Well-known tag keys. Tags describe a call for observers (meters, loggers,
// fakes that answer by step); they are part of the cache key, so two calls
// that differ only in their tags are cached separately.
const (
	TagStep    = "step"    // pipeline step: "generate", "debate", "scoring", "merge", …
	TagRole    = "role"    // the agent's role: "advocate", "judge", "merge-executor", …
	TagVariant = "variant" // the variant the call is about, e.g. "A"
	TagRound   = "round"   // debate round, "1"…"3"
	TagAgent   = "agent"   // the agent spec, e.g. "opus:architect"
	// TagAttempt is the tag a retry carries ("2"). The first attempt
	// carries none, so a request's identity — its cache key, what a
	// recorded transcript answers — is the same as a single call's; the
	// retry differs from it, so a cache never replays the first answer to
	// the retry and a fault injector decides the retry's fate
	// independently.
	TagAttempt = "attempt"
)

// Request is one call to a model.
type Request struct {
	// Model is the model identifier or alias, as a [Registry] knows it.
	Model string `json:"model"`
	// System is the system prompt; empty for none.
	System string `json:"system,omitempty"`
	// Messages is the conversation, oldest first; at least one.
	Messages []Message `json:"messages"`
	// MaxTokens caps the reply's length; zero leaves it to the provider.
	MaxTokens int `json:"max_tokens,omitempty"`
	// Temperature is the sampling temperature in [0, 2]; nil leaves it to
	// the provider.
	Temperature *float64 `json:"temperature,omitempty"`
	// Schema, when set, asks for a JSON reply conforming to it.
	Schema *Schema `json:"schema,omitempty"`
	// Tags describe the call for observers; see TagStep and friends.
	Tags map[string]string `json:"tags,omitempty"`
}

// Validate reports whether the request is well formed. The error matches
// [ErrInvalidRequest].
func (r Request) Validate() error {
	if len(r.Messages) == 0 {
		return invalidf("request has no messages")
	}
	for i, m := range r.Messages {
		if m.Role != RoleUser && m.Role != RoleAssistant {
			return invalidf("message %d has role %q; want %q or %q", i, m.Role, RoleUser, RoleAssistant)
		}
	}
	if r.MaxTokens < 0 {
		return invalidf("max tokens %d is negative", r.MaxTokens)
	}
	if t := r.Temperature; t != nil && (*t < 0 || *t > 2) {
		return invalidf("temperature %g is outside [0, 2]", *t)
	}
	if r.Schema != nil {
		if r.Schema.Name == "" {
			return invalidf("schema has no name")
		}
		if !json.Valid(r.Schema.Definition) {
			return invalidf("schema %q is not valid JSON", r.Schema.Name)
		}
	}
	return nil
}

// Prompt returns the text of the system prompt and every message, joined by
// blank lines — what a fake or a log matches against.
func (r Request) Prompt() string {
	n := len(r.System)
	for _, m := range r.Messages {
		n += len(m.Content) + 2
	}
	b := make([]byte, 0, n)
	b = append(b, r.System...)
	for _, m := range r.Messages {
		if len(b) > 0 {
			b = append(b, '\n', '\n')
		}
		b = append(b, m.Content...)
	}
	return string(b)
}

// Tag returns the value of the tag key, or "" when it is not set.
func (r Request) Tag(key string) string { return r.Tags[key] }

// WithTag returns a copy of r with the tag key set to value. The copy has
// its own tag map, so r's map is never modified.
func (r Request) WithTag(key, value string) Request {
	tags := make(map[string]string, len(r.Tags)+1)
	for k, v := range r.Tags {
		tags[k] = v
	}
	tags[key] = value
	r.Tags = tags
	return r
}

// Temperature returns a pointer to t, for [Request.Temperature].
func Temperature(t float64) *float64 { return &t }

// FinishReason says why the model stopped.
type FinishReason string

// Finish reasons, normalised across providers.
const (
	FinishStop    FinishReason = "stop"    // the model finished its reply
	FinishLength  FinishReason = "length"  // MaxTokens or the context window cut it short
	FinishRefusal FinishReason = "refusal" // the model or a content filter declined
	FinishOther   FinishReason = "other"   // anything else the provider reported
)

// Response is a model's reply.
type Response struct {
	Text  string `json:"text"`
	Model string `json:"model,omitempty"` // the model that answered, as the provider names it
	// Provider names the service that answered ("openai", "anthropic"),
	// for logs and traces; empty when the provider does not say.
	Provider     string       `json:"provider,omitempty"`
	FinishReason FinishReason `json:"finish_reason,omitempty"`
	Usage        Usage        `json:"usage"`
	// Cached reports that the reply came from a response cache ([Cache])
	// rather than the model; its Usage is zero because nothing was paid.
	Cached bool `json:"cached,omitempty"`
}

// Usage counts the tokens of one or more calls.
type Usage struct {
	// InputTokens counts every prompt token, including those served from a
	// prompt cache.
	InputTokens int64 `json:"input_tokens"`
	// OutputTokens counts the reply's tokens.
	OutputTokens int64 `json:"output_tokens"`
	// CachedTokens is the part of InputTokens read from a prompt cache.
	CachedTokens int64 `json:"cached_tokens,omitempty"`
	// CacheWriteTokens is the part of InputTokens written to a prompt cache.
	CacheWriteTokens int64 `json:"cache_write_tokens,omitempty"`
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:      u.InputTokens + v.InputTokens,
		OutputTokens:     u.OutputTokens + v.OutputTokens,
		CachedTokens:     u.CachedTokens + v.CachedTokens,
		CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens,
	}
}

// Total returns input plus output tokens.
func (u Usage) Total() int64 { return u.InputTokens + u.OutputTokens }

// IsZero reports whether no tokens were counted.
func (u Usage) IsZero() bool { return u == Usage{} }

// String formats the usage compactly, e.g. "in=1200 out=300 cached=800".
func (u Usage) String() string {
	s := fmt.Sprintf("in=%d out=%d", u.InputTokens, u.OutputTokens)
	if u.CachedTokens != 0 {
		s += fmt.Sprintf(" cached=%d", u.CachedTokens)
	}
	if u.CacheWriteTokens != 0 {
		s += fmt.Sprintf(" cache_write=%d", u.CacheWriteTokens)
	}
	return s
}
