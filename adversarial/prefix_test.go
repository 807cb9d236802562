package adversarial

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
)

// recording keeps every request the pipeline sends.
type recording struct {
	mu   sync.Mutex
	reqs []provider.Request
}

func (r *recording) wrap(next provider.Provider) provider.Provider {
	return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
		r.mu.Lock()
		r.reqs = append(r.reqs, req)
		r.mu.Unlock()
		return next.Complete(ctx, req)
	})
}

// prefixShare is P3 for one step: the share of the step's input tokens
// that sit in a prefix — the system prompt and whole messages from the
// first — that another call of the step sends too, i.e. what a vendor's
// prompt cache could serve; and the part of it that ends at a message
// marked for caching, which is what Anthropic's cache serves.
type prefixShare struct {
	calls          int
	input          int
	shared, marked int
}

func (p prefixShare) p3() float64       { return float64(p.shared) / float64(max(p.input, 1)) }
func (p prefixShare) p3Marked() float64 { return float64(p.marked) / float64(max(p.input, 1)) }

func prefixKey(req provider.Request, k int, perModel bool) string {
	var b strings.Builder
	if perModel {
		b.WriteString(req.Model + "\x00")
	}
	b.WriteString(req.System)
	for _, m := range req.Messages[:k] {
		b.WriteString("\x00" + string(m.Role) + "\x00" + m.Content)
	}
	return b.String()
}

// prefixShares measures the calls of one run. With perModel, a prefix
// counts as shared only between calls to the same model — what a vendor's
// cache can serve; without, it measures the layout alone (the agents of a
// run may ask different models).
func prefixShares(reqs []provider.Request, perModel bool) map[string]prefixShare {
	byStep := map[string][]provider.Request{}
	for _, r := range reqs {
		if r.Tag(provider.TagAttempt) == "" { // first attempts: retries only repeat them
			byStep[r.Tag(provider.TagStep)] = append(byStep[r.Tag(provider.TagStep)], r)
		}
	}
	out := map[string]prefixShare{}
	for step, rs := range byStep {
		seen := map[string]int{} // prefix key → calls sending it
		for _, r := range rs {
			for k := 0; k <= len(r.Messages); k++ {
				seen[prefixKey(r, k, perModel)]++
			}
		}
		ps := prefixShare{calls: len(rs)}
		for _, r := range rs {
			ps.input += provider.EstimateTokens(r.Prompt())
			shared, marked := 0, 0
			for k := len(r.Messages); k >= 0; k-- {
				if seen[prefixKey(r, k, perModel)] < 2 {
					continue
				}
				n := provider.EstimateTokens(provider.Request{System: r.System, Messages: r.Messages[:k]}.Prompt())
				if shared == 0 {
					shared = n
				}
				if k > 0 && r.Messages[k-1].Cache && marked == 0 {
					marked = n
				}
			}
			ps.shared += shared
			ps.marked += marked
		}
		out[step] = ps
	}
	return out
}

// TestCacheablePrefixes runs the model-backed pipeline over the samples —
// Mode A with every model seam, the merger sent every change, and Mode
// B — and reports P3 per step: every step with two or more calls keeps
// at least 60% of its input in a prefix other calls share.
func TestCacheablePrefixes(t *testing.T) {
	cases := chaosCases(t)
	layout, cached := map[string]prefixShare{}, map[string]prefixShare{}
	add := func(into map[string]prefixShare, from map[string]prefixShare) {
		for s, p := range from {
			q := into[s]
			q.calls, q.input, q.shared, q.marked = q.calls+p.calls, q.input+p.input, q.shared+p.shared, q.marked+p.marked
			into[s] = q
		}
	}
	for _, cc := range []*chaosCase{cases[1], cases[2]} {
		rec := &recording{}
		ctx := context.WithValue(context.Background(), injectorKey{}, provider.Middleware(rec.wrap))
		_, err := cc.runner(t).Run(ctx, cc.in)
		require.NoError(t, err)
		add(layout, prefixShares(rec.reqs, false))
		add(cached, prefixShares(rec.reqs, true))
	}
	steps := make([]string, 0, len(layout))
	for s := range layout {
		steps = append(steps, s)
	}
	sort.Strings(steps)
	var report strings.Builder
	for _, s := range steps {
		ps, pm := layout[s], cached[s]
		fmt.Fprintf(&report, "%-9s calls %3d  input %7d tokens  P3 %5.1f%% (marked %5.1f%%)  same model %5.1f%% (marked %5.1f%%)\n",
			s, ps.calls, ps.input, 100*ps.p3(), 100*ps.p3Marked(), 100*pm.p3(), 100*pm.p3Marked())
		if ps.calls >= 2 && s != string(StageDiff) {
			assert.GreaterOrEqual(t, ps.p3(), 0.60, "step %s", s)
		}
	}
	t.Logf("P3 per step (share of input in a prefix another call of the step sends):\n%s", report.String())
}
