package provider_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

func TestChainOrder(t *testing.T) {
	var order []string
	mark := func(name string) provider.Middleware {
		return func(next provider.Provider) provider.Provider {
			return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
				order = append(order, name)
				return next.Complete(ctx, req)
			})
		}
	}
	_, err := provider.Chain(providertest.Echo(), mark("a"), mark("b"), mark("c")).Complete(context.Background(), userReq("m", "x"))
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c"}, order)
}

func TestRetry(t *testing.T) {
	retryable := &provider.Error{Kind: provider.ErrUnavailable, Retryable: true}
	tests := []struct {
		name       string
		failures   []error // errors returned by the first calls, then success
		opts       []provider.RetryOption
		wantCalls  int
		wantErr    error
		wantWaited time.Duration
	}{
		{"success first time", nil, nil, 1, nil, 0},
		{"retries then succeeds with doubling backoff", []error{retryable, retryable}, nil, 3, nil, 500*time.Millisecond + time.Second},
		{"gives up after max retries", []error{retryable, retryable, retryable}, nil, 3, provider.ErrUnavailable, 1500 * time.Millisecond},
		{"does not retry permanent errors", []error{&provider.Error{Kind: provider.ErrRefusal}}, nil, 1, provider.ErrRefusal, 0},
		{"honours retry-after", []error{&provider.Error{Kind: provider.ErrRateLimited, Retryable: true, RetryAfter: 7 * time.Second}}, nil, 2, nil, 7 * time.Second},
		{"caps the wait", []error{&provider.Error{Kind: provider.ErrRateLimited, Retryable: true, RetryAfter: time.Hour}},
			[]provider.RetryOption{provider.WithBackoff(time.Second, 10*time.Second)}, 2, nil, 10 * time.Second},
		{"zero retries", []error{retryable}, []provider.RetryOption{provider.WithMaxRetries(0)}, 1, provider.ErrUnavailable, 0},
		{"custom predicate", []error{errors.New("odd")}, []provider.RetryOption{provider.WithRetryIf(func(error) bool { return true })}, 2, nil, 500 * time.Millisecond},
		{"jitter draws each wait from its upper half", []error{retryable, retryable},
			[]provider.RetryOption{provider.WithJitter(func() float64 { return 0.5 })}, 3, nil, 375*time.Millisecond + 750*time.Millisecond},
		{"jitter never shortens retry-after", []error{&provider.Error{Kind: provider.ErrRateLimited, Retryable: true, RetryAfter: 7 * time.Second}},
			[]provider.RetryOption{provider.WithJitter(func() float64 { return 0 })}, 2, nil, 7 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				fake := providertest.NewFake()
				for _, e := range tt.failures {
					fake.On().Fail(e).Once()
				}
				fake.On().Reply("ok")
				// exact waits unless the case sets a jitter source
				opts := append([]provider.RetryOption{provider.WithJitter(nil)}, tt.opts...)
				p := provider.Chain(fake, provider.Retry(opts...))
				start := time.Now()
				resp, err := p.Complete(context.Background(), userReq("m", "x"))
				waited := time.Since(start)
				assert.Equal(t, tt.wantCalls, fake.CallCount())
				assert.Equal(t, tt.wantWaited, waited)
				if tt.wantErr != nil {
					require.ErrorIs(t, err, tt.wantErr)
					if tt.wantCalls > 1 {
						assert.Contains(t, err.Error(), fmt.Sprintf("after %d attempts", tt.wantCalls))
					}
					return
				}
				require.NoError(t, err)
				assert.Equal(t, "ok", resp.Text)
			})
		})
	}
}

func TestRetryStopsWhenContextEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := providertest.NewFake()
		fake.On().Fail(&provider.Error{Kind: provider.ErrRateLimited, Retryable: true, RetryAfter: time.Minute})
		p := provider.Chain(fake, provider.Retry(provider.WithMaxRetries(5), provider.WithBackoff(time.Second, time.Hour)))
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		start := time.Now()
		_, err := p.Complete(ctx, userReq("m", "x"))
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, 5*time.Second, time.Since(start), "the wait must end with the context")
		assert.Equal(t, 1, fake.CallCount())
	})
}

func TestLimit(t *testing.T) {
	var running, peak atomic.Int32
	release := make(chan struct{})
	slow := provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		<-release
		running.Add(-1)
		return providertest.TextResponse(req, "ok"), nil
	})
	p := provider.Chain(slow, provider.Limit(2))
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := p.Complete(context.Background(), userReq("m", "x"))
			assert.NoError(t, err)
		}()
	}
	// Let the goroutines pile up against the limit, then drain them.
	for running.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	assert.Equal(t, int32(2), peak.Load())
}

func TestLimitWaitHonoursContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		block := make(chan struct{})
		p := provider.Chain(provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
			<-block
			return providertest.TextResponse(req, "ok"), nil
		}), provider.Limit(1))
		go func() { _, _ = p.Complete(context.Background(), userReq("m", "first")) }()
		synctest.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err := p.Complete(ctx, userReq("m", "second"))
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		close(block)
	})
}

func TestTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		slow := provider.Chain(providertest.Echo(), providertest.Latency(time.Minute))
		p := provider.Chain(slow, provider.Timeout(10*time.Second))
		_, err := p.Complete(context.Background(), userReq("m", "x"))
		require.ErrorIs(t, err, provider.ErrTimeout)
		assert.True(t, provider.IsRetryable(err))
		assert.ErrorIs(t, err, context.DeadlineExceeded, "the cause stays reachable")

		// The caller's own cancellation is not turned into a timeout.
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err = p.Complete(ctx, userReq("m", "x"))
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.NotErrorIs(t, err, provider.ErrTimeout)

		fast := provider.Chain(providertest.Echo(), provider.Timeout(10*time.Second))
		resp, err := fast.Complete(context.Background(), userReq("m", "x"))
		require.NoError(t, err)
		assert.Equal(t, "x", resp.Text)
	})
}

func TestTimeoutFor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		slow := provider.Chain(providertest.Echo(), providertest.Latency(time.Minute))
		// The limit grows with the request's output limit: a call that may
		// write more gets longer.
		p := provider.Chain(slow, provider.TimeoutFor(func(r provider.Request) time.Duration {
			return time.Duration(r.MaxTokens) * time.Second / 30
		}))
		short := userReq("m", "x")
		short.MaxTokens = 300 // 10 s
		_, err := p.Complete(context.Background(), short)
		require.ErrorIs(t, err, provider.ErrTimeout)
		long := userReq("m", "x")
		long.MaxTokens = 3000 // 100 s
		_, err = p.Complete(context.Background(), long)
		require.NoError(t, err)
		_, err = p.Complete(context.Background(), userReq("m", "x"))
		require.NoError(t, err, "no limit when the function gives none")
	})
}

func TestKey(t *testing.T) {
	a := userReq("m", "x")
	a.Tags = map[string]string{"step": "debate", "round": "1", "variant": "A"}
	b := userReq("m", "x")
	b.Tags = map[string]string{"variant": "A", "round": "1", "step": "debate"}
	assert.Equal(t, provider.Key(a), provider.Key(b), "map insertion order must not matter")
	assert.Len(t, provider.Key(a), 64)

	c := a.WithTag("round", "2")
	assert.NotEqual(t, provider.Key(a), provider.Key(c), "tags are part of the key")
	d := a
	d.Temperature = provider.Temperature(0)
	assert.NotEqual(t, provider.Key(a), provider.Key(d), "an explicit zero temperature differs from the default")
	e := a
	e.Messages = []provider.Message{{Role: provider.RoleUser, Content: "x", Cache: true}}
	assert.NotEqual(t, provider.Key(a), provider.Key(e))
}

func TestCache(t *testing.T) {
	fake := providertest.NewFake()
	fake.On(providertest.Contains("flaky")).Fail(&provider.Error{Kind: provider.ErrUnavailable, Retryable: true}).Once()
	fake.On().ReplyFunc(func(_ context.Context, req provider.Request) (provider.Response, error) {
		return providertest.TextResponse(req, "answer to "+req.Messages[0].Content), nil
	})
	store := provider.NewMemoryStore()
	p := provider.Chain(fake, provider.Cache(store))
	ctx := context.Background()

	first, err := p.Complete(ctx, userReq("m", "q1"))
	require.NoError(t, err)
	assert.False(t, first.Cached)
	assert.False(t, first.Usage.IsZero())

	again, err := p.Complete(ctx, userReq("m", "q1"))
	require.NoError(t, err)
	assert.True(t, again.Cached)
	assert.True(t, again.Usage.IsZero(), "a cached reply costs nothing")
	assert.Equal(t, first.Text, again.Text)
	assert.Equal(t, 1, fake.CallCount(), "the second call must not reach the model")

	// Errors are not cached: the rerun reaches the model and succeeds.
	_, err = p.Complete(ctx, userReq("m", "flaky"))
	require.Error(t, err)
	resp, err := p.Complete(ctx, userReq("m", "flaky"))
	require.NoError(t, err)
	assert.Equal(t, "answer to flaky", resp.Text)
	assert.Equal(t, 2, store.Len())

	// A rerun of the whole "pipeline" over the same store pays nothing.
	fresh := providertest.Echo()
	rerun := provider.Chain(fresh, provider.Cache(store))
	for _, q := range []string{"q1", "flaky"} {
		_, err := rerun.Complete(ctx, userReq("m", q))
		require.NoError(t, err)
	}
	assert.Zero(t, fresh.CallCount())
}

type brokenStore struct{}

func (brokenStore) Get(context.Context, string) (provider.Response, bool, error) {
	return provider.Response{}, false, errors.New("disk gone")
}
func (brokenStore) Put(context.Context, string, provider.Response) error {
	return errors.New("disk gone")
}

func TestCacheBypassesBrokenStore(t *testing.T) {
	p := provider.Chain(providertest.Echo(), provider.Cache(brokenStore{}))
	resp, err := p.Complete(context.Background(), userReq("m", "x"))
	require.NoError(t, err)
	assert.Equal(t, "x", resp.Text)
}

func TestRecordReplay(t *testing.T) {
	fake := providertest.NewFake()
	fake.On(providertest.Contains("fail")).Fail(&provider.Error{Kind: provider.ErrRateLimited, Retryable: true, RetryAfter: time.Second, StatusCode: 429})
	seq := 0
	var mu sync.Mutex
	fake.On().ReplyFunc(func(_ context.Context, req provider.Request) (provider.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		seq++
		return providertest.TextResponse(req, fmt.Sprintf("%s #%d", req.Messages[0].Content, seq)), nil
	})
	rec := provider.NewRecorder()
	p := provider.Chain(fake, rec.Wrap)
	ctx := context.Background()

	var want []string
	for _, q := range []string{"a", "b", "a"} {
		resp, err := p.Complete(ctx, userReq("m", q))
		require.NoError(t, err)
		want = append(want, resp.Text)
	}
	_, failErr := p.Complete(ctx, userReq("m", "fail"))
	require.Error(t, failErr)

	// A cancelled call is not recorded.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err := p.Complete(cctx, userReq("m", "cancelled"))
	require.Error(t, err)

	raw, err := json.Marshal(rec.Transcript())
	require.NoError(t, err)
	var tr provider.Transcript
	require.NoError(t, json.Unmarshal(raw, &tr))
	require.Len(t, tr.Exchanges, 4)

	replay, err := provider.NewReplayer(tr)
	require.NoError(t, err)
	// Replay in a different order: each key's answers still come in order.
	got := map[string][]string{}
	for _, q := range []string{"b", "a", "a"} {
		resp, err := replay.Complete(ctx, userReq("m", q))
		require.NoError(t, err)
		got[q] = append(got[q], resp.Text)
	}
	assert.Equal(t, []string{want[0], want[2]}, got["a"])
	assert.Equal(t, []string{want[1]}, got["b"])

	_, err = replay.Complete(ctx, userReq("m", "fail"))
	require.ErrorIs(t, err, provider.ErrRateLimited)
	assert.True(t, provider.IsRetryable(err))
	d, _ := provider.RetryAfter(err)
	assert.Equal(t, time.Second, d)

	_, err = replay.Complete(ctx, userReq("m", "a"))
	assert.ErrorIs(t, err, provider.ErrNotRecorded, "the transcript held two answers for a")
	_, err = replay.Complete(ctx, userReq("m", "never"))
	assert.ErrorIs(t, err, provider.ErrNotRecorded)

	_, err = provider.NewReplayer(provider.Transcript{Version: 99})
	assert.Error(t, err)
}

func TestMeter(t *testing.T) {
	fake := providertest.NewFake()
	fake.On(providertest.Tag(provider.TagRole, "judge")).Fail(errors.New("nope")).Once()
	fake.On().ReplyFunc(func(_ context.Context, req provider.Request) (provider.Response, error) {
		return provider.Response{Text: "ok", Usage: provider.Usage{InputTokens: 10, OutputTokens: 2}}, nil
	})
	m := provider.NewMeter()
	p := provider.Chain(fake, m.Wrap)
	ctx := context.Background()
	call := func(step, role string) {
		req := userReq("m", "x").WithTag(provider.TagStep, step).WithTag(provider.TagRole, role)
		_, _ = p.Complete(ctx, req)
	}
	call("debate", "advocate")
	call("debate", "advocate")
	call("scoring", "judge")
	call("scoring", "judge")

	total := m.Total()
	assert.Equal(t, provider.Totals{Calls: 4, Errors: 1, Usage: provider.Usage{InputTokens: 30, OutputTokens: 6}}, total)
	bySteps := m.ByTag(provider.TagStep)
	assert.Equal(t, provider.Usage{InputTokens: 20, OutputTokens: 4}, bySteps["debate"].Usage)
	assert.Equal(t, 2, bySteps["scoring"].Calls)
	assert.Equal(t, 1, bySteps["scoring"].Errors)
	assert.Equal(t, []string{"advocate", "judge"}, m.TagValues(provider.TagRole))
	assert.Empty(t, m.ByTag("missing"))
}

func TestRetryJittersByDefault(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := providertest.NewFake()
		fake.On().Fail(&provider.Error{Kind: provider.ErrUnavailable, Retryable: true}).Once()
		fake.On().Reply("ok")
		p := provider.Chain(fake, provider.Retry())
		start := time.Now()
		_, err := p.Complete(context.Background(), userReq("m", "x"))
		require.NoError(t, err)
		waited := time.Since(start)
		assert.GreaterOrEqual(t, waited, 250*time.Millisecond)
		assert.Less(t, waited, 500*time.Millisecond)
	})
}
