package providertest

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"maps"
	"strconv"
	"sync"
	"time"

	"github.com/crucible-go/crucible/provider"
)

// Faults describes failures to inject into calls. Rates are probabilities
// in [0, 1]; they are tried in the order Error, Timeout, Malformed, Empty,
// RateLimited, Auth, Truncated, so their sum should not exceed 1.
//
// Whether a call fails is decided by a SHA-256 of Seed, the call's
// identity (its [provider.Key] without the "attempt" tag) and its attempt
// number — the "attempt" tag a retry carries, or else how many times that
// same request was seen before. Each attempt of a call therefore gets an
// independent fate: at a 30% rate a call and its retry both fail 9% of
// the time, as independent faults would, not 30%. Nothing depends on the
// order in which concurrent calls arrive, so a test with a fixed seed
// injects the same faults on every run.
type Faults struct {
	Seed int64
	// Error is the rate of calls that fail with a retryable
	// provider.ErrUnavailable.
	Error float64
	// Timeout is the rate of calls that wait TimeoutAfter (or until their
	// context ends) and fail with a retryable provider.ErrTimeout.
	Timeout float64
	// TimeoutAfter is how long a timed-out call waits; zero fails at once.
	TimeoutAfter time.Duration
	// Malformed is the rate of calls whose reply is cut to its first half
	// and prefixed with an unclosed brace, so that nothing parses it.
	Malformed float64
	// Empty is the rate of calls whose reply text is empty.
	Empty float64
	// RateLimited is the rate of calls that fail with a retryable
	// provider.ErrRateLimited (HTTP 429).
	RateLimited float64
	// Auth is the rate of calls that fail with a non-retryable
	// provider.ErrAuth (HTTP 401).
	Auth float64
	// Truncated is the rate of calls whose reply is cut to its first half
	// with finish reason length, as a reply cut at the output limit.
	Truncated float64
}

// Fault names what was injected into a call.
type Fault string

// The faults [InjectFaults] can inject.
const (
	FaultNone      Fault = ""
	FaultError     Fault = "error"
	FaultTimeout   Fault = "timeout"
	FaultMalformed Fault = "malformed"
	FaultEmpty     Fault = "empty"
	FaultRateLimit Fault = "rate-limited"
	FaultAuth      Fault = "auth"
	FaultTruncated Fault = "truncated"
)

// Injector is the middleware [InjectFaults] returns, with a log of what it
// injected.
type Injector struct {
	faults Faults

	mu       sync.Mutex
	seen     map[string]int
	injected map[Fault]int
}

// InjectFaults returns an injector; use its Wrap method as middleware.
func InjectFaults(f Faults) *Injector {
	return &Injector{faults: f, seen: make(map[string]int), injected: make(map[Fault]int)}
}

// Injected returns how many calls got each fault so far.
func (in *Injector) Injected() map[Fault]int {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := make(map[Fault]int, len(in.injected))
	for k, v := range in.injected {
		out[k] = v
	}
	return out
}

// Wrap is the injector's [provider.Middleware].
func (in *Injector) Wrap(next provider.Provider) provider.Provider {
	return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
		fault := in.decide(req)
		switch fault {
		case FaultError:
			return provider.Response{}, &provider.Error{Kind: provider.ErrUnavailable, Provider: "fault-injector",
				Model: req.Model, Retryable: true, Message: "injected fault"}
		case FaultRateLimit:
			return provider.Response{}, &provider.Error{Kind: provider.ErrRateLimited, Provider: "fault-injector",
				Model: req.Model, StatusCode: 429, Retryable: true, Message: "injected rate limit"}
		case FaultAuth:
			return provider.Response{}, &provider.Error{Kind: provider.ErrAuth, Provider: "fault-injector",
				Model: req.Model, StatusCode: 401, Message: "injected authentication failure"}
		case FaultTimeout:
			if err := wait(ctx, in.faults.TimeoutAfter); err != nil {
				return provider.Response{}, err
			}
			return provider.Response{}, &provider.Error{Kind: provider.ErrTimeout, Provider: "fault-injector",
				Model: req.Model, Retryable: true, Message: "injected timeout"}
		}
		resp, err := next.Complete(ctx, req)
		if err != nil {
			return resp, err
		}
		switch fault {
		case FaultMalformed:
			resp.Text = "{" + resp.Text[:len(resp.Text)/2]
		case FaultEmpty:
			resp.Text = ""
		case FaultTruncated:
			resp.Text = resp.Text[:len(resp.Text)/2]
			resp.FinishReason = provider.FinishLength
		}
		return resp, nil
	})
}

func (in *Injector) decide(req provider.Request) Fault {
	attempt := req.Tag(provider.TagAttempt)
	identity := req
	if attempt != "" {
		identity.Tags = maps.Clone(req.Tags)
		delete(identity.Tags, provider.TagAttempt)
	}
	key := provider.Key(identity)
	in.mu.Lock()
	defer in.mu.Unlock()
	if attempt == "" {
		// An untagged repeat of a request is its next attempt.
		n := in.seen[key]
		in.seen[key] = n + 1
		attempt = strconv.Itoa(n + 1)
	}
	h := sha256.New()
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], uint64(in.faults.Seed))
	h.Write(buf[:])
	h.Write([]byte(key))
	h.Write([]byte{0})
	h.Write([]byte(attempt))
	sum := h.Sum(nil)
	u := float64(binary.LittleEndian.Uint64(sum[:8])>>11) / (1 << 53) // uniform in [0, 1)

	fault := FaultNone
	f := in.faults
	for _, c := range []struct {
		rate  float64
		fault Fault
	}{{f.Error, FaultError}, {f.Timeout, FaultTimeout}, {f.Malformed, FaultMalformed}, {f.Empty, FaultEmpty},
		{f.RateLimited, FaultRateLimit}, {f.Auth, FaultAuth}, {f.Truncated, FaultTruncated}} {
		if u < c.rate {
			fault = c.fault
			break
		}
		u -= c.rate
	}
	if fault != FaultNone {
		in.injected[fault]++
	}
	return fault
}

// Latency returns middleware that delays every call by d before passing it
// on. The delay ends early, with the context's error, if ctx ends first.
func Latency(d time.Duration) provider.Middleware {
	return LatencyFunc(func(provider.Request) time.Duration { return d })
}

// LatencyFunc is like [Latency] with a delay chosen per request, e.g. longer
// for one model or one step.
func LatencyFunc(delay func(provider.Request) time.Duration) provider.Middleware {
	return func(next provider.Provider) provider.Provider {
		return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
			if err := wait(ctx, delay(req)); err != nil {
				return provider.Response{}, err
			}
			return next.Complete(ctx, req)
		})
	}
}

func wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
