package openai

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/internal/wire"
)

// Name is the adapter's name in [provider.Error.Provider].
const Name = "openai"

// DefaultBaseURL is OpenAI's API.
const DefaultBaseURL = "https://api.openai.com/v1"

// The environment variables read when the matching option is not given.
const (
	EnvAPIKey  = "OPENAI_API_KEY"
	EnvBaseURL = "OPENAI_BASE_URL"
)

// Provider is a [provider.Provider] backed by the Chat Completions API of
// OpenAI or of an OpenAI-compatible server. It is safe for concurrent use.
type Provider struct {
	client    sdk.Client
	cfg       config
	baseURL   string
	legacyMax bool
}

var _ provider.Provider = (*Provider)(nil)

// New returns a Provider. With no options it talks to OpenAI with the key
// in OPENAI_API_KEY (or the server in OPENAI_BASE_URL), sends model ids
// unchanged, makes no SDK-level retries and logs nothing; the Option
// functions document each default. The SDK also honours its other
// environment variables (OPENAI_ORG_ID, OPENAI_PROJECT_ID, …).
func New(opts ...Option) *Provider {
	cfg := config{
		logger:      slog.New(slog.DiscardHandler),
		structured:  true,
		now:         time.Now,
		environment: os.LookupEnv,
	}
	for _, o := range opts {
		o(&cfg)
	}
	key := wire.Resolve(cfg.apiKey, cfg.environment, EnvAPIKey, "")
	base := strings.TrimRight(wire.Resolve(cfg.baseURL, cfg.environment, EnvBaseURL, DefaultBaseURL), "/")
	legacy := base != DefaultBaseURL
	if cfg.legacyMax != nil {
		legacy = *cfg.legacyMax
	}
	clientOpts := []option.RequestOption{
		option.WithAPIKey(key),
		option.WithBaseURL(base + "/"),
		option.WithMaxRetries(cfg.maxRetries),
	}
	if cfg.httpClient != nil {
		clientOpts = append(clientOpts, option.WithHTTPClient(cfg.httpClient))
	}
	if cfg.timeout > 0 {
		clientOpts = append(clientOpts, option.WithRequestTimeout(cfg.timeout))
	}
	clientOpts = append(clientOpts, cfg.sdkOptions...)
	return &Provider{client: sdk.NewClient(clientOpts...), cfg: cfg, baseURL: base, legacyMax: legacy}
}

// BaseURL returns the server the provider talks to, without a trailing
// slash.
func (p *Provider) BaseURL() string { return p.baseURL }

// Upstream returns the model name sent to the server for one of our ids.
func (p *Provider) Upstream(id string) string {
	if up, ok := p.cfg.models[norm(id)]; ok {
		return up
	}
	return id
}

// Complete sends req as one chat completion.
//
// The system prompt becomes a "system" message, followed by the
// conversation. MaxTokens goes in max_completion_tokens or max_tokens (see
// [WithLegacyMaxTokens]); a Schema becomes a json_schema response_format.
// Message.Cache marks are not sent: OpenAI caches shared prompt prefixes
// automatically, and the cached part is reported in Usage.CachedTokens.
//
// A refusal — the model's refusal field, or a content_filter finish —
// returns the Response (its Usage counts the tokens paid for) together with
// an error matching [provider.ErrRefusal]. Every other failure is an
// [*provider.Error]; see the package documentation for the mapping.
func (p *Provider) Complete(ctx context.Context, req provider.Request) (provider.Response, error) {
	if err := wire.Precheck(ctx, Name, req); err != nil {
		return provider.Response{}, err
	}
	params := p.params(req)
	start := p.cfg.now()
	var raw *http.Response
	out, err := p.client.Chat.Completions.New(ctx, params, option.WithResponseInto(&raw))
	if err != nil {
		err = wire.Failed(ctx, Name, req.Model, raw, err, p.cfg.now())
		wire.LogCall(ctx, p.cfg.logger, Name, req, params.Model, p.cfg.now().Sub(start), provider.Response{}, err)
		return provider.Response{}, err
	}
	resp, err := p.response(req.Model, out)
	wire.LogCall(ctx, p.cfg.logger, Name, req, params.Model, p.cfg.now().Sub(start), resp, err)
	return resp, err
}

// params builds the SDK request. It copies what it needs, so req is never
// modified or retained.
func (p *Provider) params(req provider.Request) sdk.ChatCompletionNewParams {
	upstream := p.Upstream(req.Model)
	msgs := make([]sdk.ChatCompletionMessageParamUnion, 0, len(req.Messages)+1)
	if req.System != "" {
		msgs = append(msgs, sdk.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		switch m.Role {
		case provider.RoleAssistant:
			msgs = append(msgs, sdk.AssistantMessage(m.Content))
		default: // Validate admits only user and assistant
			msgs = append(msgs, sdk.UserMessage(m.Content))
		}
	}
	params := sdk.ChatCompletionNewParams{Model: upstream, Messages: msgs}
	if req.MaxTokens > 0 {
		if p.legacyMax {
			params.MaxTokens = sdk.Int(int64(req.MaxTokens))
		} else {
			params.MaxCompletionTokens = sdk.Int(int64(req.MaxTokens))
		}
	}
	if req.Temperature != nil && !p.cfg.noTemp[norm(req.Model)] && !p.cfg.noTemp[norm(upstream)] {
		params.Temperature = sdk.Float(*req.Temperature)
	}
	if req.Schema != nil && p.cfg.structured {
		js := shared.ResponseFormatJSONSchemaJSONSchemaParam{
			Name:   req.Schema.Name,
			Schema: json.RawMessage(append([]byte(nil), req.Schema.Definition...)),
		}
		if p.cfg.strict {
			js.Strict = sdk.Bool(true)
		}
		params.ResponseFormat = sdk.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: js},
		}
	}
	return params
}

func (p *Provider) response(model string, out *sdk.ChatCompletion) (provider.Response, error) {
	if out == nil || len(out.Choices) == 0 {
		return provider.Response{}, &provider.Error{Kind: provider.ErrUnavailable, Provider: Name, Model: model,
			Retryable: true, Message: "the reply holds no choices"}
	}
	choice := out.Choices[0]
	u := out.Usage
	usage := provider.Usage{
		InputTokens:      u.PromptTokens,
		OutputTokens:     u.CompletionTokens,
		CachedTokens:     u.PromptTokensDetails.CachedTokens,
		CacheWriteTokens: u.PromptTokensDetails.CacheWriteTokens,
	}
	// prompt_tokens includes the cached part; keep the invariant even if a
	// compatible server counts otherwise.
	usage.InputTokens = max(usage.InputTokens, usage.CachedTokens+usage.CacheWriteTokens)
	resp := provider.Response{
		Provider:     Name,
		Text:         choice.Message.Content,
		Model:        out.Model,
		FinishReason: finishReason(choice.FinishReason),
		Usage:        usage,
	}
	refusal := choice.Message.Refusal
	if refusal != "" {
		resp.FinishReason = provider.FinishRefusal
		if resp.Text == "" {
			resp.Text = refusal
		}
	}
	if resp.FinishReason == provider.FinishRefusal {
		msg := refusal
		if msg == "" {
			msg = "the reply was stopped by a content filter"
		}
		return resp, &provider.Error{Kind: provider.ErrRefusal, Provider: Name, Model: model, Message: msg}
	}
	return resp, nil
}

// finishReason normalises Chat Completions' finish_reason.
func finishReason(r string) provider.FinishReason {
	switch r {
	case "stop":
		return provider.FinishStop
	case "length":
		return provider.FinishLength
	case "content_filter":
		return provider.FinishRefusal
	default: // tool_calls, function_call, or a compatible server's own value
		return provider.FinishOther
	}
}
