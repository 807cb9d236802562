package provider

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Kinds of failure. An [*Error] carries one of them as its Kind, so
// errors.Is(err, ErrRateLimited) holds for a rate-limited call whatever the
// adapter's underlying error was.
var (
	ErrInvalidRequest = errors.New("invalid request")
	ErrRateLimited    = errors.New("rate limited")
	ErrUnavailable    = errors.New("provider unavailable") // server errors, overload, network
	ErrTimeout        = errors.New("model call timed out")
	ErrContextLength  = errors.New("context length exceeded")
	ErrRefusal        = errors.New("model refused")
	ErrAuth           = errors.New("authentication failed")
	ErrUnknownModel   = errors.New("unknown model")
	// ErrNotRecorded is returned by a [Replayer] asked for a call its
	// transcript does not hold.
	ErrNotRecorded = errors.New("call not in transcript")
)

// kinds lists the sentinels by name, for transcripts.
var kinds = map[string]error{
	"invalid_request": ErrInvalidRequest,
	"rate_limited":    ErrRateLimited,
	"unavailable":     ErrUnavailable,
	"timeout":         ErrTimeout,
	"context_length":  ErrContextLength,
	"refusal":         ErrRefusal,
	"auth":            ErrAuth,
	"unknown_model":   ErrUnknownModel,
	"not_recorded":    ErrNotRecorded,
}

func kindName(kind error) string {
	for name, k := range kinds {
		if k == kind {
			return name
		}
	}
	return ""
}

// Error is a failed model call.
//
// Unwrap returns both Kind and Err, so errors.Is matches the kind's sentinel
// as well as anything in the underlying cause (an SDK error, a context
// error).
type Error struct {
	// Kind is one of the package's sentinels (ErrRateLimited, …), or nil
	// when the failure fits none.
	Kind error
	// Provider names the implementation ("openai", "anthropic", "fake").
	Provider string
	// Model is the model the call was for.
	Model string
	// StatusCode is the HTTP status when there was one.
	StatusCode int
	// Message is the provider's own explanation, if any.
	Message string
	// Retryable says whether the same call may succeed if tried again.
	Retryable bool
	// RetryAfter is how long the provider asked the caller to wait; zero
	// when it did not say.
	RetryAfter time.Duration
	// Err is the underlying cause, if any.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Provider != "" {
		b.WriteString(e.Provider)
		b.WriteString(": ")
	}
	switch {
	case e.Kind != nil:
		b.WriteString(e.Kind.Error())
	case e.Err != nil:
		b.WriteString(e.Err.Error())
	default:
		b.WriteString("model call failed")
	}
	if e.Model != "" {
		fmt.Fprintf(&b, " (model %s)", e.Model)
	}
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, " [HTTP %d]", e.StatusCode)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, "; retry after %s", e.RetryAfter)
	}
	if e.Kind != nil && e.Err != nil && e.Message == "" {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the kind and the cause.
func (e *Error) Unwrap() []error {
	var errs []error
	if e.Kind != nil {
		errs = append(errs, e.Kind)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// IsRetryable reports whether a call that failed with err may succeed if
// tried again: an [*Error] that says so, or a rate limit, an unavailable
// provider or a model-call timeout. The caller's own cancellation is never
// retryable.
func IsRetryable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	var pe *Error
	if errors.As(err, &pe) {
		return pe.Retryable
	}
	return errors.Is(err, ErrRateLimited) || errors.Is(err, ErrUnavailable) || errors.Is(err, ErrTimeout)
}

// RetryAfter returns the wait the provider asked for, if err carries one.
func RetryAfter(err error) (time.Duration, bool) {
	var pe *Error
	if errors.As(err, &pe) && pe.RetryAfter > 0 {
		return pe.RetryAfter, true
	}
	return 0, false
}

func invalidf(format string, args ...any) error {
	return &Error{Kind: ErrInvalidRequest, Message: fmt.Sprintf(format, args...)}
}

// UnknownModelError reports a model name no [Registry] entry answers to.
// It matches [ErrUnknownModel].
type UnknownModelError struct {
	Model     string   // the name asked for
	Available []string // the names the registry knows, sorted
}

// Error reads "Unknown model '<model>'. Available models: a, b, c": a
// user-facing message, which command-line hosts print as it is.
func (e *UnknownModelError) Error() string {
	avail := "none"
	if len(e.Available) > 0 {
		avail = strings.Join(e.Available, ", ")
	}
	return fmt.Sprintf("Unknown model '%s'. Available models: %s", e.Model, avail)
}

// Is reports whether target is [ErrUnknownModel].
func (e *UnknownModelError) Is(target error) bool { return target == ErrUnknownModel }

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
