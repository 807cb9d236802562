package adversarial

import (
	"context"
	"sort"
	"sync"

	"github.com/crucible-go/crucible/provider"
)

// ledger counts the model calls of a run: overall, per step and per
// agent. It is provider middleware placed below the concurrency limit, so
// a call cancelled while it waited for its turn is not counted, and it
// skips a call whose context ended before it got there: neither was sent.
// A sent call counts with the usage the provider reported, whether it
// succeeded, failed after a reply (truncated, refused) or was retried.
type ledger struct {
	mu      sync.Mutex
	calls   int
	total   provider.Usage
	byStep  map[string]*tally
	byAgent map[string]*tally
}

type tally struct {
	calls int
	usage provider.Usage
}

func newLedger() *ledger {
	return &ledger{byStep: map[string]*tally{}, byAgent: map[string]*tally{}}
}

// who names the agent a call is attributed to: the agent spec of a
// generator or advocate ("opus:architect"); for the pipeline's other
// roles, which serve no one agent, the role and its model ("judge
// (opus)", "contradiction-detector (opus)", "merge-executor (sonnet)").
func who(req provider.Request) string {
	if a := req.Tag(provider.TagAgent); a != "" {
		return a
	}
	role := req.Tag(provider.TagRole)
	if role == "" {
		role = "model"
	}
	return role + " (" + req.Model + ")"
}

func (l *ledger) wrap(next provider.Provider) provider.Provider {
	return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
		if err := ctx.Err(); err != nil {
			return provider.Response{}, err // never sent
		}
		resp, err := next.Complete(ctx, req)
		l.mu.Lock()
		defer l.mu.Unlock()
		l.calls++
		l.total = l.total.Add(resp.Usage)
		for _, k := range []struct {
			m   map[string]*tally
			key string
		}{{l.byStep, req.Tag(provider.TagStep)}, {l.byAgent, who(req)}} {
			if k.key == "" {
				continue
			}
			t := k.m[k.key]
			if t == nil {
				t = &tally{}
				k.m[k.key] = t
			}
			t.calls++
			t.usage = t.usage.Add(resp.Usage)
		}
		return resp, err
	})
}

// usage returns the run's usage as the contract reports it.
func (l *ledger) usage() Usage {
	l.mu.Lock()
	defer l.mu.Unlock()
	u := Usage{Calls: l.calls, Total: l.total, ByStep: map[string]provider.Usage{}, ByAgent: map[string]provider.Usage{},
		StepCalls: map[string]int{}, AgentCalls: map[string]int{}}
	for k, t := range l.byStep {
		u.ByStep[k], u.StepCalls[k] = t.usage, t.calls
	}
	for k, t := range l.byAgent {
		u.ByAgent[k], u.AgentCalls[k] = t.usage, t.calls
	}
	return u
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
