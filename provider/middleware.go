package provider

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"
)

// Middleware wraps a Provider with extra behaviour. The Provider it returns
// must keep the contract of [Provider]: safe for concurrent use, prompt on
// cancellation.
type Middleware func(Provider) Provider

// Chain wraps p in the middleware, the first one outermost:
// Chain(p, a, b) calls a, which calls b, which calls p.
func Chain(p Provider, mw ...Middleware) Provider {
	for i := len(mw) - 1; i >= 0; i-- {
		p = mw[i](p)
	}
	return p
}

// RetryOption configures [Retry].
type RetryOption func(*retryConfig)

type retryConfig struct {
	maxRetries int
	base, max  time.Duration
	retryable  func(error) bool
	jitter     func() float64 // a fraction in [0, 1); nil waits exactly
}

// WithMaxRetries sets how many times a failed call is tried again after the
// first attempt. The default is 2.
func WithMaxRetries(n int) RetryOption {
	return func(c *retryConfig) { c.maxRetries = max(n, 0) }
}

// WithBackoff sets the wait before the first retry (doubled before each
// later one) and its cap. The defaults are 500ms and 30s. A provider's
// Retry-After wins when it is longer, up to the cap.
func WithBackoff(base, maxWait time.Duration) RetryOption {
	return func(c *retryConfig) { c.base, c.max = max(base, 0), max(maxWait, 0) }
}

// WithJitter sets the source of the random fraction that spreads the
// backoff: each wait is drawn from [d/2, d) for the computed wait d
// ("equal jitter"), so callers that failed together do not retry
// together. A provider's Retry-After is a minimum and is not shortened.
// The default source is math/rand/v2's; nil turns jitter off (exact
// waits, for tests that check them).
func WithJitter(fraction func() float64) RetryOption {
	return func(c *retryConfig) { c.jitter = fraction }
}

// WithRetryIf replaces the test for whether an error is worth retrying. The
// default is [IsRetryable].
func WithRetryIf(retryable func(error) bool) RetryOption {
	return func(c *retryConfig) {
		if retryable != nil {
			c.retryable = retryable
		}
	}
}

// Retry returns middleware that tries a failed call again, for errors that
// are retryable, with exponential backoff and jitter (see [WithJitter]). It honours ctx while waiting and
// returns the last error, annotated with the number of attempts, when the
// retries run out. Retry is opt-in: nothing in Crucible adds it on its own.
func Retry(opts ...RetryOption) Middleware {
	cfg := retryConfig{maxRetries: 2, base: 500 * time.Millisecond, max: 30 * time.Second, retryable: IsRetryable, jitter: rand.Float64}
	for _, o := range opts {
		o(&cfg)
	}
	return func(next Provider) Provider {
		return Func(func(ctx context.Context, req Request) (Response, error) {
			wait := cfg.base
			for attempt := 0; ; attempt++ {
				resp, err := next.Complete(ctx, req)
				if err == nil || attempt == cfg.maxRetries || !cfg.retryable(err) || ctx.Err() != nil {
					if err != nil && attempt > 0 {
						err = fmt.Errorf("after %d attempts: %w", attempt+1, err)
					}
					return resp, err
				}
				d := wait
				if cfg.jitter != nil {
					d = wait/2 + time.Duration(cfg.jitter()*float64(wait/2))
				}
				if ra, ok := RetryAfter(err); ok && ra > d {
					d = ra
				}
				if cfg.max > 0 && d > cfg.max {
					d = cfg.max
				}
				if err := sleep(ctx, d); err != nil {
					return Response{}, err
				}
				wait *= 2
			}
		})
	}
}

// Limit returns middleware that lets at most n calls run at once; the others
// wait their turn (or until their context ends). n < 1 means 1.
func Limit(n int) Middleware {
	if n < 1 {
		n = 1
	}
	return func(next Provider) Provider {
		sem := make(chan struct{}, n)
		return Func(func(ctx context.Context, req Request) (Response, error) {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return Response{}, ctx.Err()
			}
			defer func() { <-sem }()
			return next.Complete(ctx, req)
		})
	}
}

// Timeout returns middleware that gives each call at most d. A call that
// runs out of time fails with an [*Error] of kind [ErrTimeout], which is
// retryable; the caller's own cancellation is passed through unchanged.
// d <= 0 disables the limit.
func Timeout(d time.Duration) Middleware {
	if d <= 0 {
		return func(next Provider) Provider { return next }
	}
	return TimeoutFor(func(Request) time.Duration { return d })
}

// TimeoutFor is [Timeout] with the limit worked out per request — from
// its output limit, say, so that a long reply gets the time it needs and
// a short one does not wait as long to be declared lost. A limit <= 0
// leaves that call unlimited.
func TimeoutFor(limit func(Request) time.Duration) Middleware {
	return func(next Provider) Provider {
		return Func(func(ctx context.Context, req Request) (Response, error) {
			d := limit(req)
			if d <= 0 {
				return next.Complete(ctx, req)
			}
			cctx, cancel := context.WithTimeout(ctx, d)
			defer cancel()
			resp, err := next.Complete(cctx, req)
			if err != nil && ctx.Err() == nil && cctx.Err() == context.DeadlineExceeded {
				return Response{}, &Error{Kind: ErrTimeout, Model: req.Model, Retryable: true,
					Message: fmt.Sprintf("no reply within %s", d), Err: err}
			}
			return resp, err
		})
	}
}

// sleep waits for d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
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
