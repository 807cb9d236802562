package adversarial

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial/challenge"
	"github.com/crucible-go/crucible/adversarial/critic"
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/anthropic"
	"github.com/crucible-go/crucible/provider/llmjson"
	"github.com/crucible-go/crucible/provider/openai"
	"github.com/crucible-go/crucible/scoring"
)

type wireKey struct{}

// wireCall is what the scripted model answers a request with, and what
// the vendor's server received for it.
type wireCall struct {
	req   provider.Request
	reply string
	body  map[string]any
}

// vendorServer stands in for a vendor's HTTP API below an adapter: it
// records the body the adapter sent and answers, in the vendor's format,
// with the scripted reply the request's context carries.
type vendorServer struct {
	vendor string
	mu     sync.Mutex
	calls  []*wireCall
}

func (s *vendorServer) RoundTrip(r *http.Request) (*http.Response, error) {
	call, _ := r.Context().Value(wireKey{}).(*wireCall)
	if call == nil {
		return nil, fmt.Errorf("no scripted call in the request's context")
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &call.body); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.calls = append(s.calls, call)
	s.mu.Unlock()
	text, _ := json.Marshal(call.reply)
	var body string
	switch s.vendor {
	case "openai":
		body = fmt.Sprintf(`{"id": "chatcmpl-1", "object": "chat.completion", "created": 1741570283, "model": "gpt-test",
  "choices": [{"index": 0, "message": {"role": "assistant", "content": %s, "refusal": null}, "finish_reason": "stop"}],
  "usage": {"prompt_tokens": %d, "completion_tokens": %d, "total_tokens": 0}}`, text, len(raw)/4, len(call.reply)/4)
	default:
		body = fmt.Sprintf(`{"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
  "content": [{"type": "text", "text": %s}], "stop_reason": "end_turn", "stop_sequence": null,
  "usage": {"input_tokens": %d, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": %d}}`,
			text, len(raw)/4, len(call.reply)/4)
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewBufferString(body)), Request: r}, nil
}

// TestRequestsOnTheWire runs the model-backed pipeline — Mode A with
// every model seam and the merger sent every change, then Mode B — through
// each vendor adapter down to its HTTP body, and checks what every seam
// asks for there: its output limit, its temperature, its reply schema
// (native structured output) and, on Anthropic, the cache marks.
func TestRequestsOnTheWire(t *testing.T) {
	cases := chaosCases(t)
	for _, vendor := range []string{"openai", "anthropic"} {
		t.Run(vendor, func(t *testing.T) {
			srv := &vendorServer{vendor: vendor}
			hc := &http.Client{Transport: srv}
			var adapter provider.Provider
			if vendor == "openai" {
				adapter = openai.New(openai.WithAPIKey("sk-test"), openai.WithBaseURL("http://vendor.test/v1"), openai.WithHTTPClient(hc))
			} else {
				adapter = anthropic.New(anthropic.WithAPIKey("sk-ant-test"), anthropic.WithBaseURL("http://vendor.test"), anthropic.WithHTTPClient(hc))
			}
			for _, cc := range []*chaosCase{cases[1], cases[2]} {
				scripted := scriptedModel(cc.drafts, cc.agree)
				wired := provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
					resp, err := scripted.Complete(ctx, req)
					if err != nil {
						return resp, err
					}
					return adapter.Complete(context.WithValue(ctx, wireKey{}, &wireCall{req: req, reply: resp.Text}), req)
				})
				ctx := context.WithValue(context.Background(), injectorKey{}, provider.Middleware(func(provider.Provider) provider.Provider { return wired }))
				res, err := cc.runner(t).Run(ctx, cc.in)
				require.NoError(t, err)
				require.NotEqual(t, StatusFailed, res.Status, "%q", res.Warnings)
			}

			seen := map[string]bool{}
			for _, c := range srv.calls {
				role := c.req.Tag(provider.TagRole)
				if seen[role] || c.req.Tag(llmjson.TagAttempt) != "" {
					continue
				}
				seen[role] = true
				want := wantOnTheWire(t, c.req)
				// OpenAI-compatible servers other than OpenAI's own read
				// max_tokens; OpenAI's reads max_completion_tokens.
				limitKey := "max_tokens"
				if _, ok := c.body["max_completion_tokens"]; ok {
					limitKey = "max_completion_tokens"
				}
				switch {
				case want.maxTokens > 0:
					assert.EqualValues(t, want.maxTokens, c.body[limitKey], "%s: output limit", role)
				case vendor == "anthropic":
					assert.EqualValues(t, 8192, c.body[limitKey], "%s: the adapter's default limit", role)
				default:
					assert.Nil(t, c.body[limitKey], "%s: no limit", role)
				}
				if want.temperature != nil {
					assert.InDelta(t, *want.temperature, c.body["temperature"], 1e-9, "%s: temperature", role)
				} else {
					assert.Nil(t, c.body["temperature"], "%s: the provider's temperature", role)
				}
				schema := wireSchema(vendor, c.body)
				if want.schema == "" {
					assert.Nil(t, schema, "%s: a Markdown reply has no schema", role)
				} else {
					require.NotNil(t, schema, "%s: schema on the wire", role)
					assert.Contains(t, string(mustJSON(t, schema)), `"`+want.schema+`"`, "%s: the reply type's schema", role)
				}
				if vendor == "anthropic" {
					assert.Equal(t, markedMessages(c.req), cacheMarks(c.body), "%s: cache marks on the wire", role)
				}
				t.Logf("%-22s max tokens %v, temperature %v, schema %v", role, c.body[limitKey], c.body["temperature"], schema != nil)
			}
			// The challenge adversary and the critic, outside the pipeline.
			answer := func(reply string) provider.Provider {
				return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
					return adapter.Complete(context.WithValue(ctx, wireKey{}, &wireCall{req: req, reply: reply}), req)
				})
			}
			adv, err := challenge.NewModelAdversary(answer("## NO OBJECTIONS\n\n**Round:** 1/3\n\nNothing to add.\n"), challenge.WithModel("opus"))
			require.NoError(t, err)
			_, err = adv.Challenge(context.Background(), challenge.Request{Type: challenge.Plan, Artifact: "# Plan\n\n- Ship it.\n", Round: 1, MaxRounds: 3})
			require.NoError(t, err)
			eng, err := critic.NewModelEngine(answer(`{"challenges": []}`), critic.WithModel("opus"))
			require.NoError(t, err)
			sel, err := critic.SelectExplicit("devils-advocate", "C2", critic.Facts{})
			require.NoError(t, err)
			_, err = critic.New(critic.WithEngine(eng)).Run(context.Background(), critic.PipelineInput{Selection: sel,
				Artifact: critic.Artifact{Path: "plan.md", Content: "# Plan\n\nThe service will never lose an event.\n"}})
			require.NoError(t, err)
			for _, c := range srv.calls[len(srv.calls)-2:] {
				limitKey := "max_tokens"
				if _, ok := c.body["max_completion_tokens"]; ok {
					limitKey = "max_completion_tokens"
				}
				role := c.req.Tag(provider.TagRole)
				seen[role] = true
				schema := wireSchema(vendor, c.body)
				if role == challenge.RoleAdversary {
					assert.EqualValues(t, challenge.DefaultMaxTokens, c.body[limitKey])
					assert.InDelta(t, challenge.DefaultTemperature, c.body["temperature"], 1e-9)
					assert.Nil(t, schema, "the adversary answers in the seed's Markdown")
				} else {
					assert.EqualValues(t, critic.DefaultMaxTokens, c.body[limitKey])
					assert.InDelta(t, critic.DefaultTemperature, c.body["temperature"], 1e-9)
					require.NotNil(t, schema, "%s: schema on the wire", role)
					assert.Contains(t, string(mustJSON(t, schema)), `"challenges"`)
				}
				t.Logf("%-22s max tokens %v, temperature %v, schema %v", role, c.body[limitKey], c.body["temperature"], schema != nil)
			}

			for _, role := range []string{"generator", "advocate", "judge", "contradiction-detector", "merge-executor", challenge.RoleAdversary, "devils-advocate"} {
				assert.True(t, seen[role], "no %s call reached the wire", role)
			}
		})
	}
}

type wireWant struct {
	maxTokens   int
	temperature *float64
	schema      string // a property the reply schema must name; "" for none
}

// wantOnTheWire is each seam's documented default.
func wantOnTheWire(t *testing.T, req provider.Request) wireWant {
	switch req.Tag(provider.TagRole) {
	case "generator":
		return wireWant{DefaultGenerateMaxTokens, provider.Temperature(DefaultGenerateTemperature), ""}
	case "advocate":
		// Sized from the turn's points: more than the prose alone.
		assert.Greater(t, req.MaxTokens, debate.AdvocateMaxTokens(0))
		return wireWant{req.MaxTokens, provider.Temperature(debate.DefaultAdvocateTemperature), "positions"}
	case "judge":
		return wireWant{scoring.DefaultJudgeMaxTokens, provider.Temperature(scoring.DefaultJudgeTemperature), "verdicts"}
	case "merge-executor":
		assert.GreaterOrEqual(t, req.MaxTokens, merge.ChangeMaxTokens(0), "sized from the change")
		return wireWant{req.MaxTokens, provider.Temperature(0), ""}
	}
	// The contradiction detector (package diff) sets none of its own yet.
	w := wireWant{req.MaxTokens, req.Temperature, ""}
	if req.Schema != nil {
		w.schema = "contradictions"
	}
	return w
}

func wireSchema(vendor string, body map[string]any) any {
	if vendor == "openai" {
		rf, _ := body["response_format"].(map[string]any)
		js, _ := rf["json_schema"].(map[string]any)
		if js == nil {
			return nil
		}
		return js["schema"]
	}
	oc, _ := body["output_config"].(map[string]any)
	f, _ := oc["format"].(map[string]any)
	if f == nil {
		return nil
	}
	return f["schema"]
}

func markedMessages(req provider.Request) []bool {
	out := make([]bool, len(req.Messages))
	for i, m := range req.Messages {
		out[i] = m.Cache
	}
	return out
}

func cacheMarks(body map[string]any) []bool {
	msgs, _ := body["messages"].([]any)
	out := make([]bool, len(msgs))
	for i, m := range msgs {
		content, _ := m.(map[string]any)["content"].([]any)
		for _, b := range content {
			if _, ok := b.(map[string]any)["cache_control"]; ok {
				out[i] = true
			}
		}
	}
	return out
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
