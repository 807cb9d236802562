package providertest_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

func req(model, text string, tags ...string) provider.Request {
	r := provider.Request{Model: model, Messages: []provider.Message{{Role: provider.RoleUser, Content: text}}}
	for i := 0; i+1 < len(tags); i += 2 {
		r = r.WithTag(tags[i], tags[i+1])
	}
	return r
}

func TestFakeRules(t *testing.T) {
	f := providertest.NewFake()
	f.On(providertest.Model("opus"), providertest.Tag("step", "debate")).Reply("opus debates")
	f.On(providertest.Contains("steelman")).Reply("steelmanned").Times(2)
	f.On(providertest.Any(providertest.Model("haiku"), providertest.Tag("role", "judge"))).Reply("cheap or judge")
	f.On(providertest.Not(providertest.Model("sonnet"))).Fail(errors.New("only sonnet left"))
	ctx := context.Background()

	tests := []struct {
		req     provider.Request
		want    string
		wantErr string
	}{
		{req("OPUS", "x", "step", "debate"), "opus debates", ""},
		{req("opus", "x", "step", "scoring"), "", "only sonnet left"},
		{req("sonnet", "please steelman B"), "steelmanned", ""},
		{req("sonnet", "steelman again"), "steelmanned", ""},
		{req("sonnet", "steelman thrice"), "", "no rule matches"}, // Times(2) used up; no default
		{req("haiku", "x"), "cheap or judge", ""},
		{req("sonnet", "x", "role", "judge"), "cheap or judge", ""},
	}
	for i, tt := range tests {
		resp, err := f.Complete(ctx, tt.req)
		if tt.wantErr != "" {
			assert.ErrorContains(t, err, tt.wantErr, "call %d", i)
			continue
		}
		require.NoError(t, err, "call %d", i)
		assert.Equal(t, tt.want, resp.Text, "call %d", i)
		assert.Equal(t, provider.FinishStop, resp.FinishReason)
		assert.Equal(t, tt.req.Model, resp.Model)
		assert.Equal(t, providertest.EstimateUsage(tt.req, tt.want), resp.Usage)
	}
	calls := f.Calls()
	require.Len(t, calls, len(tests))
	assert.Equal(t, "steelman thrice", calls[4].Request.Messages[0].Content)
	assert.ErrorIs(t, calls[4].Err, providertest.ErrNoRule)
	assert.Contains(t, calls[4].Err.Error(), `(model "sonnet", tags {})`)
	assert.Equal(t, 2, f.CallCount(providertest.Contains("steelman"), providertest.Model("sonnet"), func(r provider.Request) bool {
		return r.Messages[0].Content != "steelman thrice"
	}))
}

func TestFakeDefaultAndValidation(t *testing.T) {
	f := providertest.Echo()
	resp, err := f.Complete(context.Background(), req("m", "echo me"))
	require.NoError(t, err)
	assert.Equal(t, "echo me", resp.Text)
	assert.Equal(t, provider.Usage{InputTokens: 2, OutputTokens: 2}, resp.Usage)

	_, err = f.Complete(context.Background(), provider.Request{Model: "m"})
	assert.ErrorIs(t, err, provider.ErrInvalidRequest)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = f.Complete(ctx, req("m", "x"))
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 3, f.CallCount(), "failed calls are recorded too")
}

func TestFakeConcurrentTimes(t *testing.T) {
	f := providertest.NewFake()
	f.On().Reply("limited").Times(10)
	f.Default = func(_ context.Context, r provider.Request) (provider.Response, error) {
		return providertest.TextResponse(r, "default"), nil
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	counts := map[string]int{}
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := f.Complete(context.Background(), req("m", fmt.Sprint(i)))
			assert.NoError(t, err)
			mu.Lock()
			counts[resp.Text]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	assert.Equal(t, map[string]int{"limited": 10, "default": 40}, counts)
}

func TestInjectFaultsDeterministic(t *testing.T) {
	run := func(seed int64) ([]providertest.Fault, map[providertest.Fault]int) {
		in := providertest.InjectFaults(providertest.Faults{Seed: seed, Error: 0.2, Timeout: 0.1, Malformed: 0.1, Empty: 0.1})
		p := in.Wrap(providertest.Echo())
		var got []providertest.Fault
		for i := range 400 {
			r := req("m", fmt.Sprintf(`{"n": %d, "padding": "some longer reply text"}`, i))
			resp, err := p.Complete(context.Background(), r)
			switch {
			case errors.Is(err, provider.ErrUnavailable):
				got = append(got, providertest.FaultError)
			case errors.Is(err, provider.ErrTimeout):
				got = append(got, providertest.FaultTimeout)
			case err != nil:
				t.Fatalf("unexpected error %v", err)
			case resp.Text == "":
				got = append(got, providertest.FaultEmpty)
			case resp.Text != r.Messages[0].Content:
				assert.Equal(t, byte('{'), resp.Text[0])
				assert.Less(t, len(resp.Text), len(r.Messages[0].Content))
				got = append(got, providertest.FaultMalformed)
			default:
				got = append(got, providertest.FaultNone)
			}
		}
		return got, in.Injected()
	}
	a, injected := run(42)
	b, _ := run(42)
	c, _ := run(7)
	assert.Equal(t, a, b, "same seed, same faults")
	assert.NotEqual(t, a, c, "another seed, other faults")

	counts := map[providertest.Fault]int{}
	for _, f := range a {
		counts[f]++
	}
	delete(counts, providertest.FaultNone)
	assert.Equal(t, injected, counts, "the injector's log matches what callers saw")
	// 400 draws: each rate within a generous band of its expectation.
	assert.InDelta(t, 80, counts[providertest.FaultError], 30)
	assert.InDelta(t, 40, counts[providertest.FaultTimeout], 22)
	assert.InDelta(t, 40, counts[providertest.FaultMalformed], 22)
	assert.InDelta(t, 40, counts[providertest.FaultEmpty], 22)
	assert.True(t, provider.IsRetryable(&provider.Error{Kind: provider.ErrTimeout, Retryable: true}))
}

func TestInjectFaultsRepeatsDiffer(t *testing.T) {
	// The same request asked again draws again: a retry can succeed.
	in := providertest.InjectFaults(providertest.Faults{Seed: 1, Error: 0.5})
	p := in.Wrap(providertest.Echo())
	var outcomes []bool
	for range 40 {
		_, err := p.Complete(context.Background(), req("m", "same"))
		outcomes = append(outcomes, err == nil)
	}
	assert.Contains(t, outcomes, true)
	assert.Contains(t, outcomes, false)
}

func TestTimeoutFaultWaitsAndHonoursContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in := providertest.InjectFaults(providertest.Faults{Timeout: 1, TimeoutAfter: 30 * time.Second})
		p := in.Wrap(providertest.Echo())
		start := time.Now()
		_, err := p.Complete(context.Background(), req("m", "x"))
		assert.ErrorIs(t, err, provider.ErrTimeout)
		assert.Equal(t, 30*time.Second, time.Since(start))

		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err = p.Complete(ctx, req("m", "x"))
		assert.ErrorIs(t, err, context.DeadlineExceeded)
	})
}

func TestLatency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := providertest.LatencyFunc(func(r provider.Request) time.Duration {
			if r.Model == "slow" {
				return 3 * time.Second
			}
			return 100 * time.Millisecond
		})(providertest.Echo())
		start := time.Now()
		_, err := p.Complete(context.Background(), req("slow", "x"))
		require.NoError(t, err)
		assert.Equal(t, 3*time.Second, time.Since(start))

		start = time.Now()
		_, err = p.Complete(context.Background(), req("fast", "x"))
		require.NoError(t, err)
		assert.Equal(t, 100*time.Millisecond, time.Since(start))

		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start = time.Now()
		_, err = p.Complete(ctx, req("slow", "x"))
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, time.Second, time.Since(start))
	})
}

func TestConformanceFake(t *testing.T) {
	failing := providertest.NewFake()
	failing.On().Fail(&provider.Error{Kind: provider.ErrRateLimited, Retryable: true, RetryAfter: time.Second})
	slow := provider.Chain(providertest.Echo(), providertest.Latency(time.Hour))
	providertest.Run(t, providertest.Echo(), providertest.WithFailing(failing), providertest.WithSlow(slow))
}

func TestConformanceFaultInjectorPassThrough(t *testing.T) {
	// With all rates at zero the injector is transparent and keeps the contract.
	providertest.Run(t, providertest.InjectFaults(providertest.Faults{}).Wrap(providertest.Echo()))
}

// The suite must catch providers that break the contract.
func TestCheckCatchesViolations(t *testing.T) {
	good := func(ctx context.Context, r provider.Request) (provider.Response, error) {
		if err := ctx.Err(); err != nil {
			return provider.Response{}, err
		}
		if err := r.Validate(); err != nil {
			return provider.Response{}, err
		}
		return providertest.TextResponse(r, "hi"), nil
	}
	tests := []struct {
		name string
		p    provider.Provider
		opts []providertest.Option
		want string
	}{
		{"no usage", provider.Func(func(ctx context.Context, r provider.Request) (provider.Response, error) {
			resp, err := good(ctx, r)
			resp.Usage = provider.Usage{}
			return resp, err
		}), nil, "Complete: Response.Usage is zero"},
		{"cached exceeds input", provider.Func(func(ctx context.Context, r provider.Request) (provider.Response, error) {
			resp, err := good(ctx, r)
			resp.Usage.CachedTokens = resp.Usage.InputTokens + 1
			return resp, err
		}), nil, "exceed input tokens"},
		{"ignores context", provider.Func(func(_ context.Context, r provider.Request) (provider.Response, error) {
			return good(context.Background(), r)
		}), nil, "CanceledContext: Complete with a cancelled context"},
		{"skips validation", provider.Func(func(ctx context.Context, r provider.Request) (provider.Response, error) {
			return providertest.TextResponse(r, "hi"), ctx.Err()
		}), nil, "InvalidRequest"},
		{"modifies request", provider.Func(func(ctx context.Context, r provider.Request) (provider.Response, error) {
			if r.Tags != nil {
				r.Tags["touched"] = "yes"
			}
			return good(ctx, r)
		}), nil, "RequestUnmodified: Complete modified its request"},
		{"untyped errors", provider.Func(good), []providertest.Option{providertest.WithFailing(provider.Func(
			func(context.Context, provider.Request) (provider.Response, error) {
				return provider.Response{}, errors.New("500")
			}))},
			"TypedErrors: failure is *errors.errorString"},
		{"stuck on cancel", provider.Func(good), []providertest.Option{providertest.WithCancelGrace(50 * time.Millisecond),
			providertest.WithSlow(provider.Func(func(context.Context, provider.Request) (provider.Response, error) {
				time.Sleep(300 * time.Millisecond)
				return provider.Response{}, nil
			}))}, "CancelMidCall: Complete did not return within 50ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := providertest.Check(tt.p, tt.opts...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	assert.NoError(t, providertest.Check(provider.Func(good)))
}

// TestInjectFaultsIndependentPerAttempt pins that a call and its retry
// get independent fates: at a 30% rate both attempts fail about 9% of
// the time (not 30%, as when the fate hangs on the request alone),
// whether the retry is tagged or a plain repeat.
func TestInjectFaultsIndependentPerAttempt(t *testing.T) {
	for _, tagged := range []bool{true, false} {
		inj := providertest.InjectFaults(providertest.Faults{Seed: 7, Error: 0.3})
		p := inj.Wrap(providertest.Echo())
		const n = 4000
		first, both := 0, 0
		for i := range n {
			req := provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: fmt.Sprint("call ", i)}}}
			_, err1 := p.Complete(context.Background(), req)
			retry := req
			if tagged {
				retry = req.WithTag(provider.TagAttempt, "2")
			}
			_, err2 := p.Complete(context.Background(), retry)
			if err1 != nil {
				first++
				if err2 != nil {
					both++
				}
			}
		}
		assert.InDelta(t, 0.30, float64(first)/n, 0.03, "tagged=%v", tagged)
		assert.InDelta(t, 0.09, float64(both)/n, 0.02, "tagged=%v: both attempts fail as independent faults would", tagged)
	}
	// the same seed injects the same faults, whatever the arrival order
	fates := func(order []int) map[int]bool {
		inj := providertest.InjectFaults(providertest.Faults{Seed: 3, Error: 0.5})
		p := inj.Wrap(providertest.Echo())
		out := map[int]bool{}
		for _, i := range order {
			req := provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: fmt.Sprint(i)}}}
			_, err := p.Complete(context.Background(), req.WithTag(provider.TagAttempt, "2"))
			out[i] = err != nil
		}
		return out
	}
	assert.Equal(t, fates([]int{0, 1, 2, 3, 4, 5}), fates([]int{5, 3, 1, 0, 2, 4}))
}
