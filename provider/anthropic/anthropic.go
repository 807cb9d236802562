package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/internal/wire"
)

// Name is the adapter's name in [provider.Error.Provider].
const Name = "anthropic"

// DefaultBaseURL is Anthropic's API.
const DefaultBaseURL = "https://api.anthropic.com"

// DefaultMaxTokens is the max_tokens sent for a request that sets none.
const DefaultMaxTokens = 8192

// maxCacheMarks is how many cache_control breakpoints the API accepts in
// one request.
const maxCacheMarks = 4

// The environment variables read when the matching option is not given.
const (
	EnvAPIKey  = "ANTHROPIC_API_KEY"
	EnvBaseURL = "ANTHROPIC_BASE_URL"
)

// Provider is a [provider.Provider] backed by Anthropic's Messages API. It
// is safe for concurrent use.
type Provider struct {
	client  sdk.Client
	cfg     config
	baseURL string
}

var _ provider.Provider = (*Provider)(nil)

// New returns a Provider. With no options it talks to Anthropic with the
// key in ANTHROPIC_API_KEY (at ANTHROPIC_BASE_URL when set), sends model ids
// unchanged, makes no SDK-level retries and logs nothing; the Option
// functions document each default. Unlike the SDK's own client it reads no
// other credential source (profiles, federation): the key is explicit.
func New(opts ...Option) *Provider {
	cfg := config{
		logger:           slog.New(slog.DiscardHandler),
		defaultMaxTokens: DefaultMaxTokens,
		structured:       true,
		now:              time.Now,
		environment:      os.LookupEnv,
	}
	for _, o := range opts {
		o(&cfg)
	}
	key := wire.Resolve(cfg.apiKey, cfg.environment, EnvAPIKey, "")
	base := strings.TrimRight(wire.Resolve(cfg.baseURL, cfg.environment, EnvBaseURL, DefaultBaseURL), "/")
	clientOpts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(base + "/"),
		option.WithMaxRetries(cfg.maxRetries),
	}
	if key != "" {
		clientOpts = append(clientOpts, option.WithAPIKey(key))
	}
	if cfg.httpClient != nil {
		clientOpts = append(clientOpts, option.WithHTTPClient(cfg.httpClient))
	}
	if cfg.timeout > 0 {
		clientOpts = append(clientOpts, option.WithRequestTimeout(cfg.timeout))
	}
	clientOpts = append(clientOpts, cfg.sdkOptions...)
	return &Provider{client: sdk.NewClient(clientOpts...), cfg: cfg, baseURL: base}
}

// BaseURL returns the server the provider talks to, without a trailing
// slash.
func (p *Provider) BaseURL() string { return p.baseURL }

// Upstream returns the model name sent to the API for one of our ids.
func (p *Provider) Upstream(id string) string {
	if up, ok := p.cfg.models[norm(id)]; ok {
		return up
	}
	return id
}

// Complete sends req as one Messages API call.
//
// The system prompt goes in "system"; each message becomes one text block.
// A message marked [provider.Message.Cache] gets cache_control on its block,
// so the prefix up to it (system prompt included) is cached and later
// requests that share it read it back; the API takes at most four marks,
// so marks past the fourth are dropped (the earliest prefixes are the most
// widely shared). MaxTokens defaults to [WithDefaultMaxTokens]'s value;
// Temperature is clamped to the API's range [0, 1]; a Schema becomes
// output_config.format, Anthropic's structured outputs.
//
// A refusal (stop_reason "refusal") returns the Response (its Usage counts
// the tokens paid for) together with an error matching
// [provider.ErrRefusal]. Every other failure is an [*provider.Error]; see
// the package documentation for the mapping.
func (p *Provider) Complete(ctx context.Context, req provider.Request) (provider.Response, error) {
	if err := wire.Precheck(ctx, Name, req); err != nil {
		return provider.Response{}, err
	}
	params, err := p.params(req)
	if err != nil {
		return provider.Response{}, wire.Invalid(Name, req.Model, err)
	}
	start := p.cfg.now()
	var raw *http.Response
	out, err := p.client.Messages.New(ctx, params, option.WithResponseInto(&raw))
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
func (p *Provider) params(req provider.Request) (sdk.MessageNewParams, error) {
	upstream := p.Upstream(req.Model)
	maxTokens := req.MaxTokens
	if maxTokens == 0 {
		maxTokens = p.cfg.defaultMaxTokens
	}
	// The SDK refuses a non-streaming call that may outlast its HTTP
	// timeout; say so as an invalid request before anything is sent.
	var timeoutOpts []option.RequestOption
	if p.cfg.timeout > 0 {
		timeoutOpts = append(timeoutOpts, option.WithRequestTimeout(p.cfg.timeout))
	}
	if _, err := sdk.CalculateNonStreamingTimeout(maxTokens, upstream, timeoutOpts); err != nil {
		return sdk.MessageNewParams{}, fmt.Errorf("max tokens %d is too many for a non-streaming request to %s; lower it or set WithRequestTimeout: %w",
			maxTokens, upstream, err)
	}
	params := sdk.MessageNewParams{
		Model:     upstream,
		MaxTokens: int64(maxTokens),
		Messages:  make([]sdk.MessageParam, 0, len(req.Messages)),
	}
	if req.System != "" {
		params.System = []sdk.TextBlockParam{{Text: req.System}}
	}
	marks := 0
	for _, m := range req.Messages {
		block := sdk.TextBlockParam{Text: m.Content}
		if m.Cache && marks < maxCacheMarks {
			marks++
			block.CacheControl = sdk.NewCacheControlEphemeralParam()
			block.CacheControl.TTL = sdk.CacheControlEphemeralTTL(p.cfg.cacheTTL)
		}
		role := sdk.MessageParamRoleUser
		if m.Role == provider.RoleAssistant {
			role = sdk.MessageParamRoleAssistant
		}
		params.Messages = append(params.Messages, sdk.MessageParam{
			Role:    role,
			Content: []sdk.ContentBlockParamUnion{{OfText: &block}},
		})
	}
	if req.Temperature != nil {
		params.Temperature = sdk.Float(min(*req.Temperature, 1))
	}
	if req.Schema != nil && p.cfg.structured {
		schema, err := schemaObject(req.Schema)
		if err != nil {
			return sdk.MessageNewParams{}, err
		}
		params.OutputConfig = sdk.OutputConfigParam{Format: sdk.JSONOutputFormatParam{Schema: schema}}
	}
	return params, nil
}

// schemaObject splits a schema definition into its top-level members for
// the SDK, which wants a map. Each member keeps its original bytes, so
// nothing inside is re-encoded (numbers stay exact, key order survives).
func schemaObject(s *provider.Schema) (map[string]any, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(s.Definition, &members); err != nil || members == nil {
		return nil, fmt.Errorf("schema %q is not a JSON object", s.Name)
	}
	m := make(map[string]any, len(members))
	for k, v := range members {
		m[k] = v
	}
	return m, nil
}

func (p *Provider) response(model string, out *sdk.Message) (provider.Response, error) {
	if out == nil {
		return provider.Response{}, &provider.Error{Kind: provider.ErrUnavailable, Provider: Name, Model: model,
			Retryable: true, Message: "the reply is empty"}
	}
	var text strings.Builder
	for _, b := range out.Content {
		if b.Type == "text" {
			text.WriteString(b.Text)
		}
	}
	u := out.Usage
	// input_tokens excludes the tokens read from and written to the cache;
	// provider.Usage counts every prompt token in InputTokens.
	resp := provider.Response{
		Provider:     Name,
		Text:         text.String(),
		Model:        out.Model,
		FinishReason: finishReason(out.StopReason),
		Usage: provider.Usage{
			InputTokens:      u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens,
			OutputTokens:     u.OutputTokens,
			CachedTokens:     u.CacheReadInputTokens,
			CacheWriteTokens: u.CacheCreationInputTokens,
		},
	}
	if resp.FinishReason == provider.FinishRefusal {
		msg := out.StopDetails.Explanation
		if msg == "" {
			msg = "the model declined to answer"
		}
		return resp, &provider.Error{Kind: provider.ErrRefusal, Provider: Name, Model: model, Message: msg}
	}
	return resp, nil
}

// finishReason normalises the Messages API's stop_reason.
func finishReason(r sdk.StopReason) provider.FinishReason {
	switch r {
	case sdk.StopReasonEndTurn, sdk.StopReasonStopSequence:
		return provider.FinishStop
	case sdk.StopReasonMaxTokens, sdk.StopReasonModelContextWindowExceeded:
		return provider.FinishLength
	case sdk.StopReasonRefusal:
		return provider.FinishRefusal
	default: // tool_use, pause_turn, or a value newer than this adapter
		return provider.FinishOther
	}
}
