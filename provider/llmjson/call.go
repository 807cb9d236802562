package llmjson

import (
	"context"
	"errors"

	"github.com/crucible-go/crucible/provider"
)

// Outcome is what [Call] spent and saw.
type Outcome struct {
	Usage    provider.Usage
	Attempts int
	// Reply is the last reply's text (reasoning removed), for the host's
	// log.
	Reply string
	// Unusable is set when the call failed for its reply (unparsable,
	// truncated, a refusal) rather than a provider error.
	Unusable bool
}

// Call is [Ask] for a seam that reads its replies itself (the challenge
// adversary, the critic): the same one retry per agent call — after a
// retryable provider error, the same request tagged attempt 2; after an
// unusable reply (parse fails, truncated, empty), the reply and
// feedback(problem) appended — and none after a non-retryable error or a
// refusal. Replies reach parse with reasoning blocks removed and their
// finish reason checked. A reply still unusable returns the last problem,
// matching [ErrInvalidReply] when it was the reader's own (truncation,
// refusal) and as parse returned it otherwise; provider errors are
// returned as they are.
func Call(ctx context.Context, p provider.Provider, req provider.Request, parse func(text string) error,
	feedback func(problem error) (string, error)) (Outcome, error) {
	var out Outcome
	attempt := func(r provider.Request) error {
		out.Attempts++
		resp, err := Complete(ctx, p, r)
		out.Usage = out.Usage.Add(resp.Usage)
		out.Reply = resp.Text
		out.Unusable = errors.Is(err, ErrInvalidReply)
		if err != nil {
			return err
		}
		if err := parse(resp.Text); err != nil {
			out.Unusable = true
			return &unusable{err}
		}
		return nil
	}
	err := attempt(req)
	if err == nil {
		return out, nil
	}
	var bad *unusable
	replyProblem := errors.As(err, &bad) || errors.Is(err, ErrInvalidReply)
	if ctx.Err() != nil || Refused(err) || !replyProblem && !Retryable(err) {
		return out, unwrapUnusable(err)
	}
	retry := Retry(req, err)
	if replyProblem {
		msg, ferr := feedback(unwrapUnusable(err))
		if ferr != nil {
			return out, ferr
		}
		retry.Messages = append(append([]provider.Message(nil), req.Messages...),
			provider.Message{Role: provider.RoleAssistant, Content: out.Reply},
			provider.Message{Role: provider.RoleUser, Content: msg})
	}
	return out, unwrapUnusable(attempt(retry))
}

// unusable marks a parse failure inside Call.
type unusable struct{ err error }

func (u *unusable) Error() string { return u.err.Error() }
func (u *unusable) Unwrap() error { return u.err }

func unwrapUnusable(err error) error {
	var u *unusable
	if errors.As(err, &u) {
		return u.err
	}
	return err
}

// SpentError is an agent call that failed after the provider had billed
// some of its attempts — a first reply that could not be used, then a
// provider error, say. The failure is Err; Usage is what the attempts
// cost, so a caller that reports usage counts failed calls too.
type SpentError struct {
	Usage provider.Usage
	Err   error
}

func (e *SpentError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *SpentError) Unwrap() error { return e.Err }

// Spent returns the usage err reports its call spent: the Spent method
// of the first error in its chain that has one ([*SpentError], a seam's
// own reply error), or zero.
func Spent(err error) provider.Usage {
	var s interface{ Spent() provider.Usage }
	if errors.As(err, &s) {
		return s.Spent()
	}
	return provider.Usage{}
}

// Spent implements the interface [Spent] looks for.
func (e *SpentError) Spent() provider.Usage { return e.Usage }
