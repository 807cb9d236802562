package adversarial

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial/challenge"
	"github.com/crucible-go/crucible/adversarial/critic"
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/scoring"
)

// TestRequestsCarrySeamSettings: every seam sends its documented output
// limit, temperature and (for JSON replies) schema on its requests. How
// an adapter writes them on the wire (max_tokens, response_format,
// output_config, cache_control) is each adapter module's own test.
func TestRequestsCarrySeamSettings(t *testing.T) {
	cases := chaosCases(t)
	var mu sync.Mutex
	var calls []provider.Request
	record := func(next provider.Provider) provider.Provider {
		return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
			mu.Lock()
			calls = append(calls, req)
			mu.Unlock()
			return next.Complete(ctx, req)
		})
	}
	for _, cc := range []*chaosCase{cases[1], cases[2]} {
		scripted := scriptedModel(cc.drafts, cc.agree)
		ctx := context.WithValue(context.Background(), injectorKey{}, provider.Middleware(func(provider.Provider) provider.Provider { return record(scripted) }))
		res, err := cc.runner(t).Run(ctx, cc.in)
		require.NoError(t, err)
		require.NotEqual(t, StatusFailed, res.Status, "%q", res.Warnings)
	}
	seen := map[string]bool{}
	check := func(req provider.Request, want wireWant) {
		role := req.Tag(provider.TagRole)
		assert.Equal(t, want.maxTokens, req.MaxTokens, "%s: output limit", role)
		if want.temperature != nil {
			require.NotNil(t, req.Temperature, "%s: temperature", role)
			assert.InDelta(t, *want.temperature, *req.Temperature, 1e-9, "%s: temperature", role)
		} else {
			assert.Nil(t, req.Temperature, "%s: the provider's temperature", role)
		}
		if want.schema == "" {
			assert.Nil(t, req.Schema, "%s: a Markdown reply has no schema", role)
		} else {
			require.NotNil(t, req.Schema, "%s: schema", role)
			assert.Contains(t, string(mustJSON(t, req.Schema.Definition)), `"`+want.schema+`"`, "%s: the reply type's schema", role)
		}
		t.Logf("%-22s max tokens %v, temperature %v, schema %v", role, req.MaxTokens, req.Temperature != nil, req.Schema != nil)
	}
	for _, c := range calls {
		role := c.Tag(provider.TagRole)
		if seen[role] || c.Tag(provider.TagAttempt) != "" {
			continue
		}
		seen[role] = true
		check(c, wantOnTheWire(t, c))
	}
	// The challenge adversary and the critic, outside the pipeline.
	calls = nil
	answer := func(reply string) provider.Provider {
		return record(provider.Func(func(_ context.Context, req provider.Request) (provider.Response, error) {
			return provider.Response{Text: reply, Model: req.Model, FinishReason: provider.FinishStop}, nil
		}))
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
	require.Len(t, calls, 2)
	for _, c := range calls {
		role := c.Tag(provider.TagRole)
		seen[role] = true
		if role == challenge.RoleAdversary {
			check(c, wireWant{challenge.DefaultMaxTokens, provider.Temperature(challenge.DefaultTemperature), ""})
		} else {
			check(c, wireWant{critic.DefaultMaxTokens, provider.Temperature(critic.DefaultTemperature), "challenges"})
		}
	}
	for _, role := range []string{"generator", "advocate", "judge", "contradiction-detector", "merge-executor", challenge.RoleAdversary, "devils-advocate"} {
		assert.True(t, seen[role], "no %s call was made", role)
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
	case "contradiction-detector":
		return wireWant{diff.DefaultDetectorMaxTokens, provider.Temperature(0), "contradictions"}
	}
	t.Errorf("no documented settings for the role %q", req.Tag(provider.TagRole))
	return wireWant{req.MaxTokens, req.Temperature, ""}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
