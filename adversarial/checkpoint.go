package adversarial

import (
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/scoring"
)

// Checkpoint holds the typed outputs of the steps a run completed. It
// encodes to JSON, so a host can save it after any step (an Observer sees
// each step end) and pass it back as Input.Resume: the run then starts
// after the last completed step, and with a response cache on the provider
// (provider.Cache) repeats no model call.
type Checkpoint struct {
	// Mode and Variants record the input the steps were computed from:
	// the variants' normalised texts, names and agents, in order.
	Mode     Mode    `json:"mode"`
	Variants []Draft `json:"variants"`
	// Analysis is step 1's output.
	Analysis *diff.Analysis `json:"analysis,omitempty"`
	// Debate is step 2's output; nil when the debate was skipped.
	Debate *debate.Result `json:"debate,omitempty"`
	// Scorecard is step 3's output; nil when scoring was skipped.
	Scorecard *scoring.Scorecard `json:"scorecard,omitempty"`
	// Plan is step 4's output.
	Plan *merge.Plan `json:"plan,omitempty"`
	// Merged is step 5's output.
	Merged *merge.Merged `json:"merged,omitempty"`
}
