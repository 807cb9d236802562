package adversarial

import "fmt"

// RunError is the error [Runner.Run] returns when the run failed: the
// stage that failed and why. The [Result] returned beside it still holds
// every artifact finished before the failure, with status failed.
//
// Err is the cause as the step met it, so a host can match it with
// errors.Is and errors.As: a provider's typed errors
// (provider.ErrAuth, *provider.Error), [debate.ErrTooFewAdvocates] and the
// advocates' failures behind it, [diff.ErrTooFewVariants] (with the
// generating agents' errors) when Mode B produced fewer than two
// variants, llmjson.ErrInvalidReply, a checkpoint's own error.
type RunError struct {
	Stage Stage // StageGenerate, StageDiff, … or StageInput
	Err   error
}

func (e *RunError) Error() string {
	return fmt.Sprintf("adversarial: run failed at %s: %v", e.Stage, e.Err)
}

// Unwrap returns the cause.
func (e *RunError) Unwrap() error { return e.Err }
