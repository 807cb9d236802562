package llmjson

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/crucible-go/crucible/provider"
)

// ErrTruncated reports a reply cut at the output limit (finish reason
// length): whatever it holds is a fragment, never an answer.
var ErrTruncated = errors.New("reply truncated")

// TruncatedError is a reply cut at the output limit. It matches
// [ErrTruncated] and [ErrInvalidReply].
type TruncatedError struct {
	MaxTokens    int   // the limit of the request, 0 when the provider's
	OutputTokens int64 // what the reply used
}

func (e *TruncatedError) Error() string {
	n := int64(e.MaxTokens)
	if n == 0 {
		n = e.OutputTokens
	}
	return fmt.Sprintf("%v: reply truncated at %d output tokens", ErrInvalidReply, n)
}

// Is reports whether target is ErrTruncated or ErrInvalidReply.
func (e *TruncatedError) Is(target error) bool {
	return target == ErrTruncated || target == ErrInvalidReply
}

// Retryable reports whether an agent call that failed with err is worth
// its one retry: a reply that could not be used (invalid, truncated), or a
// provider error that says the same call may succeed (rate limit,
// unavailable, timeout). Authentication, invalid requests, refusals and
// the caller's own cancellation are not: the second call would fail the
// same way and only cost time and tokens.
func Retryable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, provider.ErrTimeout) {
		return false
	}
	if errors.Is(err, ErrInvalidReply) {
		return true
	}
	return provider.IsRetryable(err)
}

// Retry returns the request to send as the retry of req: tagged as the
// second attempt, with a larger output limit when the first reply was cut
// at it.
func Retry(req provider.Request, cause error) provider.Request {
	retry := req.WithTag(provider.TagAttempt, strconv.Itoa(2))
	var te *TruncatedError
	if errors.As(cause, &te) && req.MaxTokens > 0 {
		retry.MaxTokens = req.MaxTokens * 2
	}
	return retry
}

// Complete makes one attempt of an agent call and checks what came back
// is a reply at all: not a refusal, not cut at the output limit, not
// empty once reasoning is removed. The reply's text is returned with any
// reasoning blocks removed.
func Complete(ctx context.Context, p provider.Provider, req provider.Request) (provider.Response, error) {
	resp, err := p.Complete(ctx, req)
	if err != nil {
		return resp, err
	}
	if err := CheckFinish(req, resp); err != nil {
		return resp, err
	}
	resp.Text = StripReasoning(resp.Text)
	if IsRefusal(resp.Text) {
		return resp, &ReplyError{Reason: "the model refused: " + clip(resp.Text, 120), Reply: resp.Text, Refusal: true}
	}
	return resp, nil
}

// CheckFinish reports a reply the model did not finish: cut at the output
// limit ([*TruncatedError]) or declined ([*ReplyError] with Refusal set).
func CheckFinish(req provider.Request, resp provider.Response) error {
	switch resp.FinishReason {
	case provider.FinishLength:
		return &TruncatedError{MaxTokens: req.MaxTokens, OutputTokens: resp.Usage.OutputTokens}
	case provider.FinishRefusal:
		return &ReplyError{Reason: "the model refused", Reply: resp.Text, Refusal: true}
	}
	return nil
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
