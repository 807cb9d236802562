package adversarial

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/provider"
)

// Speeds of the simulated model: a realistic one, not a slow one — the
// default timeouts allow for half this speed.
const (
	simTokensPerSecond = 60
	simReadPerSecond   = 5000 // prompt tokens read per second before the first output token
)

// realisticTokens is how long a real model's reply to req runs, by role,
// from what the scripted reply holds: the scripted replies carry the right
// items with terse text, real ones the same items at their usual length.
func realisticTokens(req provider.Request, reply string) int {
	n := provider.EstimateTokens(reply)
	switch req.Tag(provider.TagRole) {
	case "judge": // a claim, a quote or two with sections, a note: ~100 tokens a verdict
		n = max(n, 100*strings.Count(reply, `"verdict"`))
	case "advocate": // prose sections, then ~70 tokens a position
		n = max(n, 1200+70*strings.Count(reply, `"point"`))
	case "contradiction-detector":
		n = max(n, 1500)
	case "merge-executor": // the rewritten section with its tags
		n = max(n, n+n/4)
	}
	return n
}

// slowModel answers like a model at simTokensPerSecond on the bubble's
// clock: it reads the prompt, then writes the realistic reply — and, like
// a real model, stops at the request's output limit with finish reason
// length when the reply would run past it.
type slowModel struct {
	next provider.Provider

	mu        sync.Mutex
	calls     int
	cut       int
	longest   time.Duration
	longestOf string
}

func (s *slowModel) Complete(ctx context.Context, req provider.Request) (provider.Response, error) {
	resp, err := s.next.Complete(ctx, req)
	if err != nil {
		return resp, err
	}
	out := realisticTokens(req, resp.Text)
	truncated := req.MaxTokens > 0 && out > req.MaxTokens
	if truncated {
		out = req.MaxTokens
		resp.Text, resp.FinishReason = resp.Text[:len(resp.Text)/2], provider.FinishLength
	}
	in := provider.EstimateTokens(req.Prompt())
	d := time.Duration(in)*time.Second/simReadPerSecond + time.Duration(out)*time.Second/simTokensPerSecond
	resp.Usage = provider.Usage{InputTokens: int64(in), OutputTokens: int64(out)}
	s.mu.Lock()
	s.calls++
	if truncated {
		s.cut++
	}
	if d > s.longest {
		s.longest, s.longestOf = d, fmt.Sprintf("%s (%d output tokens)", req.Tag(provider.TagRole), out)
	}
	s.mu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return resp, nil
	case <-ctx.Done():
		return provider.Response{}, ctx.Err()
	}
}

var targetBlock = regexp.MustCompile(`(?s)<<<UNTRUSTED TARGET [0-9a-f]+\n(.*?)\nUNTRUSTED TARGET [0-9a-f]+>>>`)

// groupModel answers like the scripted model, except that its advocates
// agree on the first variant of their group (the orchestrator's groups
// leave out Variant A), and a replace keeps the target's heading line, as
// the executor's prompt asks.
func groupModel(next provider.Provider) provider.Provider {
	return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
		resp, err := next.Complete(ctx, req)
		if err != nil {
			return resp, err
		}
		switch req.Tag(provider.TagRole) {
		case "advocate":
			resp.Text = agreeOnFirst(req, resp.Text)
		case "merge-executor":
			body := req.Messages[min(1, len(req.Messages)-1)].Content
			if strings.Contains(body, "approach replace") || strings.Contains(body, "approach restructure") {
				if m := targetBlock.FindStringSubmatch(body); m != nil {
					heading, _, _ := strings.Cut(m[1], "\n")
					text := strings.TrimPrefix(resp.Text, "```markdown\n")
					_, rest, _ := strings.Cut(text, "\n")
					resp.Text = "```markdown\n" + heading + "\n" + rest
				}
			}
		}
		return resp, nil
	})
}

// agreeOnFirst rewrites a statement to prefer, on every point, the first
// variant shown to the advocate, conceding when it argues for another.
func agreeOnFirst(req provider.Request, text string) string {
	first := ""
	if m := identityVariant.FindStringSubmatch(req.Messages[0].Content); m != nil {
		first = m[1]
	}
	body := text[strings.Index(text, "```json\n")+8 : strings.LastIndex(text, "```")]
	var reply map[string]any
	if first == "" || json.Unmarshal([]byte(body), &reply) != nil {
		return text
	}
	self := req.Tag(provider.TagVariant)
	var concessions []any
	positions, _ := reply["positions"].([]any)
	for _, p := range positions {
		pos := p.(map[string]any)
		pos["prefer"], pos["concede"], pos["confidence"] = first, self != first, 90
		if self != first {
			concessions = append(concessions, fmt.Sprint(pos["point"], " goes to Variant ", first))
		}
	}
	reply["concessions"] = concessions
	b, _ := json.MarshalIndent(reply, "", "  ")
	return "```json\n" + string(b) + "\n```\n"
}

// TestRealisticLatency runs the model-backed pipeline with 5 and with 10
// variants of realistic size against a model writing 60 tokens/s with
// replies of realistic length, under the default output limits and
// timeouts: every run ends in success, with no call cut at its output
// limit and none timed out. Time is the synctest bubble's, so the
// minutes of simulated model time take milliseconds, and nothing is
// asserted about durations.
func TestRealisticLatency(t *testing.T) {
	for _, tc := range []struct {
		n       int
		timeout time.Duration // 0: the default
	}{{5, 0}, {10, 0}, {5, 30 * time.Second}} {
		n := tc.n
		name := fmt.Sprintf("%d variants", n)
		if tc.timeout > 0 {
			name += fmt.Sprintf(", every call limited to %s", tc.timeout)
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				// The bundled samples, each variant with a note of its own so
				// that no two are the same document.
				samples := sampleDrafts(t)
				var drafts []Draft
				for i := range n {
					text := string(samples[i%len(samples)].Content) + fmt.Sprintf(
						"\n## Operational Note %d\n\nThe on-call rotation reviews this specification every %d weeks and records the outcome.\n", i+1, i+2)
					drafts = append(drafts, Draft{Name: fmt.Sprintf("v%d.md", i+1), Content: []byte(text)})
				}
				slow := &slowModel{next: groupModel(scriptedModel(nil, false))}
				reg := provider.NewRegistry()
				for _, m := range []string{"opus", "sonnet", "haiku"} {
					require.NoError(t, reg.Register(m, slow))
				}
				specs := []string{"opus:architect", "sonnet:security", "haiku:performance", "opus:qa", "sonnet:analyzer"}
				var agents []string
				for i := range n {
					agents = append(agents, specs[i%len(specs)])
				}
				opts := []Option{WithClock(fixedClock), WithRegistry(reg), WithModelAdvocates(), WithModelJudge("opus"),
					WithModelDetector("sonnet"), WithModelMerger("opus"), WithMergerOptions(merge.WithAllChanges())}
				if tc.timeout > 0 {
					opts = append(opts, WithCallTimeout(tc.timeout))
				}
				r := New(opts...)
				start := time.Now()
				res, err := r.Run(context.Background(), Input{Compare: drafts, Agents: agentList(strings.Join(agents, ","))})
				elapsed := time.Since(start)
				requireRunOutcome(t, res, err)
				if tc.timeout > 0 {
					// The old fixed limit, the seed's 30 s breaker timeout,
					// cuts the advocates and the judge off mid-reply.
					assert.NotEqual(t, StatusSuccess, res.Status)
					assert.True(t, slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "no reply within 30s") }), "%q", res.Warnings)
					return
				}
				for _, w := range res.Warnings {
					assert.NotContains(t, w, "timed out")
					assert.NotContains(t, w, "truncated")
				}
				assert.Zero(t, slow.cut, "no reply ran past its output limit")
				if os.Getenv("CRUCIBLE_LATENCY_DUMP") != "" {
					for _, a := range res.Artifacts {
						_ = os.MkdirAll(filepath.Dir(filepath.Join(os.Getenv("CRUCIBLE_LATENCY_DUMP"), a.Name)), 0o755)
						_ = os.WriteFile(filepath.Join(os.Getenv("CRUCIBLE_LATENCY_DUMP"), a.Name), a.Content, 0o644)
					}
				}
				if !assert.Equal(t, StatusSuccess, res.Status, "%q", res.Warnings) {
					log, _ := res.Artifact(MergeLogFile)
					if i := strings.LastIndex(string(log), "## Post-Merge Validation"); i >= 0 {
						t.Logf("%s", string(log)[i:min(len(log), i+1500)])
					}
				}
				t.Logf("%d variants: %d calls, %s; simulated time %s, longest call %s: %s",
					n, slow.calls, res.Usage.Total, elapsed.Round(time.Second), slow.longest.Round(time.Second), slow.longestOf)
			})
		})
	}
}
