package critic

import (
	"errors"
	"fmt"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/llmjson"
)

// Sentinels. Errors the package returns match one of them with errors.Is;
// the typed errors below carry the details.
var (
	// ErrInvalidInput matches input the critic cannot work with: a malformed
	// value, "standard" mixed with other modes, a checkpoint for another
	// artifact.
	ErrInvalidInput = errors.New("invalid input")
	// ErrArtifactRequired: no artifact path was given. A command prints it
	// as "Artifact path required".
	ErrArtifactRequired = errors.New("artifact path required")
	// ErrArtifactNotFound matches an [*ArtifactNotFoundError].
	ErrArtifactNotFound = errors.New("artifact not found")
	// ErrRejected matches a [*RejectedError]: the decision tree refused the
	// review.
	ErrRejected = errors.New("review rejected")
	// ErrSequence matches a [*SequenceError]: no order satisfies the
	// sequencing constraints.
	ErrSequence = errors.New("impossible mode order")
	// ErrModeUnavailable is returned by an [Engine] that cannot run a mode;
	// the pipeline skips the mode and runs the rest (graceful degradation).
	ErrModeUnavailable = errors.New("mode unavailable")
	// ErrCheckpoint matches a checkpoint that cannot resume this run.
	ErrCheckpoint = errors.New("checkpoint does not match")
)

// ArtifactNotFoundError reports an artifact path that does not exist.
type ArtifactNotFoundError struct {
	Path string
	Err  error // the file system's error, if any
}

// Error reads "Artifact not found at '<path>'", the user-facing message.
func (e *ArtifactNotFoundError) Error() string {
	return fmt.Sprintf("Artifact not found at '%s'", e.Path)
}

// Unwrap returns [ErrArtifactNotFound] and the underlying cause.
func (e *ArtifactNotFoundError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrArtifactNotFound, e.Err}
	}
	return []error{ErrArtifactNotFound}
}

// RejectedError is a decision-tree rejection, such as a C4 review for a
// single-agent team. Selection holds the trace up to the rejection so that
// a host can show why.
type RejectedError struct {
	Rule      string // the rule that rejected, e.g. "TEAM-CHECK"
	Reason    string // the user-facing message
	Selection *Selection
}

func (e *RejectedError) Error() string { return e.Reason }

// Is reports whether target is [ErrRejected].
func (e *RejectedError) Is(target error) bool { return target == ErrRejected }

// teamRejection is the message for a C4 review with a single agent.
const teamRejection = "C4 review NOT PERMITTED for TEAM-SINGLE. Escalate to TEAM-MULTI + TEAM-HIL."

// ReplyError reports a model reply that failed validation on the first try
// and on the retry.
type ReplyError struct {
	Mode     Mode
	Attempts int
	Err      error // the last validation error
	// Usage is what the attempts cost: a failed call is billed too.
	Usage provider.Usage
}

// Spent returns what the attempts cost (see llmjson.Spent).
func (e *ReplyError) Spent() provider.Usage { return e.Usage }

func (e *ReplyError) Error() string {
	return fmt.Sprintf("critic: %s: reply invalid after %d attempts: %v", e.Mode, e.Attempts, e.Err)
}

// Unwrap returns [llmjson.ErrInvalidReply] and the validation error.
func (e *ReplyError) Unwrap() []error { return []error{llmjson.ErrInvalidReply, e.Err} }
