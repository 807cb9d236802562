// Package llmjson is Crucible's one reader of model replies, public so a
// host's own seams read replies the way the library's do. It takes the
// model's final answer out of a reply — reasoning blocks (<think> and the
// like, drafts inside them included) removed, the last JSON value taken
// whether fenced or in prose, trailing commas and comments read through a
// JWCC standardiser — decodes it strictly into a Go value and validates
// it; it checks the finish reason (a reply cut at the output limit is
// never complete) and recognises refusals. Ask and Call follow the
// design's protocol: one retry after a retryable error or an unusable
// reply, none after authentication, invalid request or a refusal. Every
// unusable reply, in every seam, matches [ErrInvalidReply].
package llmjson

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/crucible-go/crucible/provider"
)

// ErrInvalidReply reports a reply that did not hold a valid JSON block,
// even after the one retry.
var ErrInvalidReply = errors.New("invalid model reply")

// ReplyError is an invalid reply: what was wrong, and the reply itself so a
// host can log it.
type ReplyError struct {
	Reason string
	Reply  string
	// Refusal is set when the reply declined the task (a refusal sentence
	// or finish reason): not retried, never kept as content.
	Refusal bool
}

func (e *ReplyError) Error() string { return fmt.Sprintf("%v: %s", ErrInvalidReply, e.Reason) }

// Is reports whether target is ErrInvalidReply.
func (e *ReplyError) Is(target error) bool { return target == ErrInvalidReply }

// lastFence returns the body of the last ``` fenced block of a reply
// whose info string is empty or "json", scanning by hand: replies run to
// many kilobytes and this runs on every model call. Fences count only at
// the start of a line (after indentation), so ``` inside a JSON string is
// text, not the end of the block.
func lastFence(reply string) (string, bool) {
	body, found := "", false
	for i := 0; i < len(reply); {
		open := lineFence(reply, i)
		if open < 0 {
			break
		}
		nl := strings.IndexByte(reply[open:], '\n')
		if nl < 0 {
			break
		}
		info := strings.TrimSpace(reply[open+3 : open+nl])
		start := open + nl + 1
		closing := lineFence(reply, start)
		if closing < 0 {
			break
		}
		if info == "" || strings.EqualFold(info, "json") {
			body, found = reply[start:closing], true
		}
		i = closing + 3
	}
	return body, found
}

// lineFence returns the index of the next ``` at or after from that only
// whitespace precedes on its line, or -1.
func lineFence(s string, from int) int {
	for i := from; i < len(s); {
		k := strings.Index(s[i:], "```")
		if k < 0 {
			return -1
		}
		k += i
		lineStart := strings.LastIndexByte(s[:k], '\n') + 1
		if strings.TrimSpace(s[lineStart:k]) == "" {
			return k
		}
		i = k + 3
	}
	return -1
}

// Extract finds the JSON in a reply — after removing reasoning blocks
// (<think>…</think>), the last ```json fenced block, the whole reply when
// it is bare JSON, or the last complete JSON object in prose — and decodes it into v, rejecting
// trailing data. Fields v does not have are ignored.
func Extract(reply string, v any) error {
	answer := StripReasoning(reply)
	body := strings.TrimSpace(answer)
	if fenced, ok := lastFence(answer); ok {
		body = strings.TrimSpace(fenced)
	} else if !strings.HasPrefix(body, "{") && !strings.HasPrefix(body, "[") {
		last, ok := lastValue(body)
		if !ok {
			last, ok = lenientValue(body)
		}
		if !ok {
			return &ReplyError{Reason: "no ```json block in the reply", Reply: reply}
		}
		body = last
	}
	// Unknown fields are ignored: models add keys of their own, and the
	// caller's validation checks what matters.
	if json.Unmarshal([]byte(body), v) == nil {
		return nil // the common case, and the fastest decoder for it
	}
	// Trailing commas and comments, as models write them, are standardised
	// by a JWCC (HuJSON) parser, not repaired by hand; the result is
	// decoded as strictly as before.
	if std, err := hujson.Standardize([]byte(body)); err == nil && json.Unmarshal(std, v) == nil {
		return nil
	}
	// Unmarshal rejects data after the value as a syntax error; a decoder
	// tells the two failures apart, for a reason the model can act on.
	dec := json.NewDecoder(strings.NewReader(body))
	if err := dec.Decode(v); err != nil {
		return &ReplyError{Reason: "the JSON block does not decode: " + err.Error(), Reply: reply}
	}
	return &ReplyError{Reason: "the JSON block has data after its value", Reply: reply}
}

// Ask sends req and decodes the reply's JSON block into v, then calls
// validate (which may be nil). It makes at most two attempts (an agent call
// is retried once, never more): after an unusable reply (no JSON, one that
// fails validation, a truncated one) it asks once more, appending the reply
// and the problem to the conversation; after a retryable provider error
// (rate limit, unavailable, timeout) it sends the same request again. A
// non-retryable error (authentication, invalid request, a refusal) is
// returned at once. A second unusable reply returns a [*ReplyError] or
// [*TruncatedError]; provider errors are returned as they are. The
// responses of the attempts that got a reply are returned for usage
// accounting.
func Ask(ctx context.Context, p provider.Provider, req provider.Request, v any, validate func() error) ([]provider.Response, error) {
	return ask(ctx, p, req, v, validate, true)
}

// AskReply is [Ask] for a caller that retries failed calls itself (the
// debate retries an advocate's turn, and says so in its transcript): it
// retries an unusable reply once with the problem, and returns provider
// errors at once.
func AskReply(ctx context.Context, p provider.Provider, req provider.Request, v any, validate func() error) ([]provider.Response, error) {
	return ask(ctx, p, req, v, validate, false)
}

func ask(ctx context.Context, p provider.Provider, req provider.Request, v any, validate func() error, retryErrors bool) ([]provider.Response, error) {
	var resps []provider.Response
	resp, err := Complete(ctx, p, req)
	if resp.Text != "" || resp.Usage != (provider.Usage{}) {
		resps = append(resps, resp)
	}
	if err == nil {
		if problem := decode(resp.Text, v, validate); problem != nil {
			err = problem
		} else {
			return resps, nil
		}
	}
	if !Retryable(err) || Refused(err) || ctx.Err() != nil || !retryErrors && !errors.Is(err, ErrInvalidReply) {
		return resps, err
	}
	retry := Retry(req, err)
	var re *ReplyError
	if errors.As(err, &re) || errors.Is(err, ErrTruncated) {
		reason := err.Error()
		if re != nil {
			reason = re.Reason
		}
		retry.Messages = append(append([]provider.Message(nil), req.Messages...),
			provider.Message{Role: provider.RoleAssistant, Content: resp.Text},
			provider.Message{Role: provider.RoleUser, Content: "Your reply could not be used: " + reason +
				"\nReply again with the complete answer as one ```json fenced block that follows the required format."})
	}
	resp, err = Complete(ctx, p, retry)
	if resp.Text != "" || resp.Usage != (provider.Usage{}) {
		resps = append(resps, resp)
	}
	if err != nil {
		return resps, err
	}
	if problem := decode(resp.Text, v, validate); problem != nil {
		return resps, problem
	}
	return resps, nil
}

// Refused reports an error that is a refusal (a refusal sentence, finish
// reason or provider error): retrying it asks the same question of a
// model that has declined it, so it is not retried.
func Refused(err error) bool {
	var re *ReplyError
	return errors.As(err, &re) && re.Refusal || errors.Is(err, provider.ErrRefusal)
}

// decode resets v, extracts the reply into it and validates it.
func decode(reply string, v any, validate func() error) *ReplyError {
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv.Elem().SetZero() // nothing from an earlier attempt survives
	}
	if err := Extract(reply, v); err != nil {
		var re *ReplyError
		errors.As(err, &re)
		return re
	}
	if validate != nil {
		if err := validate(); err != nil {
			return &ReplyError{Reason: err.Error(), Reply: reply}
		}
	}
	return nil
}

// lastValue returns the last complete JSON object in prose: a model that
// writes "Here is my answer: {…} Let me know" means the object.
func lastValue(text string) (string, bool) {
	found, best := false, ""
	for i := 0; i < len(text); i++ {
		if text[i] != '{' {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			continue
		}
		best, found = string(raw), true
		i += int(dec.InputOffset()) - 1
	}
	return best, found
}

// lenientValue returns the object from the first '{' to the last '}' of
// prose when JWCC (trailing commas, comments) makes it one value.
func lenientValue(text string) (string, bool) {
	i, j := strings.IndexByte(text, '{'), strings.LastIndexByte(text, '}')
	if i < 0 || j < i {
		return "", false
	}
	std, err := hujson.Standardize([]byte(text[i : j+1]))
	if err != nil {
		return "", false
	}
	return string(std), true
}

// Int is an integer field a model may write as a number or as a string
// of one ("80", "80%"): accepted where the field's type leaves no doubt
// what the string means. Anything else fails to decode.
type Int int

// UnmarshalJSON implements [json.Unmarshaler].
func (n *Int) UnmarshalJSON(b []byte) error {
	var i int
	if err := json.Unmarshal(b, &i); err == nil {
		*n = Int(i)
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err == nil && f == float64(int(f)) {
		*n = Int(int(f))
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("want an integer, got %s", b)
	}
	t := strings.TrimSuffix(strings.TrimSpace(s), "%")
	if err := json.Unmarshal([]byte(strings.TrimSpace(t)), &i); err != nil {
		return fmt.Errorf("want an integer, got %q", s)
	}
	*n = Int(i)
	return nil
}
