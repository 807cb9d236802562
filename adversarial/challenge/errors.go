package challenge

import (
	"errors"
	"fmt"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/llmjson"
)

// Sentinels. Every error the package returns matches one of them, or a
// provider or context error, with errors.Is; the typed errors carry the
// details.
var (
	// ErrInvalidInput matches input the loop cannot work with: an unknown
	// artifact type, an empty artifact, a nil adversary.
	ErrInvalidInput = errors.New("invalid input")
	// ErrInvalidConfig matches a configuration that breaks its rules.
	ErrInvalidConfig = errors.New("invalid adversary configuration")
	// ErrUnparseable matches a [*ParseError]: a reply that does not follow
	// the CHALLENGES / NO OBJECTIONS format.
	ErrUnparseable = errors.New("unparseable adversary reply")
	// ErrInvalidDefense matches a defense that answers challenges the
	// round does not have, or answers one twice.
	ErrInvalidDefense = errors.New("invalid defense")
)

// ReplyError reports an adversary reply that failed to parse, or to match
// its request, twice: once, and once more after being told why.
type ReplyError struct {
	Round    int
	Attempts int
	// Reply is the last reply's text, for the host's log.
	Reply string
	// Err is the last problem, usually a [*ParseError].
	Err error
	// Usage is what the attempts cost: a failed call is billed too.
	Usage provider.Usage
}

// Spent returns what the attempts cost (see llmjson.Spent).
func (e *ReplyError) Spent() provider.Usage { return e.Usage }

func (e *ReplyError) Error() string {
	return fmt.Sprintf("challenge: round %d: adversary reply unusable after %d attempts: %v", e.Round, e.Attempts, e.Err)
}

// Unwrap returns [llmjson.ErrInvalidReply] and the last problem.
func (e *ReplyError) Unwrap() []error { return []error{llmjson.ErrInvalidReply, e.Err} }

// ParseError reports a reply that does not follow the format. It matches
// [ErrUnparseable].
type ParseError struct {
	Line   int // 1-based line of the reply, 0 when the problem has none
	Reason string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%v: line %d: %s", ErrUnparseable, e.Line, e.Reason)
	}
	return fmt.Sprintf("%v: %s", ErrUnparseable, e.Reason)
}

// Is reports whether target is [ErrUnparseable].
func (e *ParseError) Is(target error) bool { return target == ErrUnparseable }
