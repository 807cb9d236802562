package adversarial

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
)

// firstCallFaults fails the calls a matcher selects: the first attempt
// always, the retry (attempt 2) too when twice is set. It counts the
// matching calls.
type firstCallFaults struct {
	match func(provider.Request) bool
	fault func(provider.Request) (provider.Response, error, bool) // response, error, replace
	twice bool

	mu    sync.Mutex
	calls int
}

func (f *firstCallFaults) wrap(next provider.Provider) provider.Provider {
	return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
		if !f.match(req) {
			return next.Complete(ctx, req)
		}
		f.mu.Lock()
		f.calls++
		f.mu.Unlock()
		if a := req.Tag(provider.TagAttempt); a == "" || a == "2" && f.twice {
			if resp, err, ok := f.fault(req); ok {
				return resp, err
			}
		}
		return next.Complete(ctx, req)
	})
}

// TestSeamFaultsFollowTheMatrix is the table test of every model-backed
// seam of the pipeline against a provider failing its first call in each
// way: a retryable error (the retry recovers), the same error twice, a
// non-retryable error (no retry) and an unusable reply (the retry
// recovers, or twice). Where a call is lost the seam degrades as the
// error matrix says, with a warning naming seam, model and cause in the
// step's artifact and the contract, and the run partial — never a silent
// success, never a failed run while two variants remain.
func TestSeamFaultsFollowTheMatrix(t *testing.T) {
	outage := func(provider.Request) (provider.Response, error, bool) {
		return provider.Response{}, &provider.Error{Kind: provider.ErrUnavailable, Provider: "fake", Retryable: true, Message: "outage"}, true
	}
	auth := func(provider.Request) (provider.Response, error, bool) {
		return provider.Response{}, &provider.Error{Kind: provider.ErrAuth, Provider: "fake", Message: "bad key"}, true
	}
	garbage := func(req provider.Request) (provider.Response, error, bool) {
		r := provider.Response{Text: "{ not json", FinishReason: provider.FinishStop, Model: req.Model}
		return r, nil, true
	}
	truncated := func(req provider.Request) (provider.Response, error, bool) {
		return provider.Response{Text: "# Draft\n\n## Sco", FinishReason: provider.FinishLength, Model: req.Model}, nil, true
	}
	refusal := func(req provider.Request) (provider.Response, error, bool) {
		return provider.Response{Text: "I'm sorry, but I can't help with that.", FinishReason: provider.FinishStop, Model: req.Model}, nil, true
	}
	role := func(r string, tags ...string) func(provider.Request) bool {
		return func(req provider.Request) bool {
			if req.Tag(provider.TagRole) != r {
				return false
			}
			for i := 0; i+1 < len(tags); i += 2 {
				if req.Tag(tags[i]) != tags[i+1] {
					return false
				}
			}
			return true
		}
	}
	seams := []struct {
		name    string
		modeB   bool
		match   func(provider.Request) bool
		warning string // what a lost call leaves; "" when the run fails
		file    string // the step's artifact that must carry it too
	}{
		{"judge pass 1", false, role("judge", "pass", "1"), "Scoring: the judge agent (model opus) failed on pass 1", BaseSelectionFile},
		{"contradiction agent", false, role("contradiction-detector"), "Diff analysis: the contradiction agent (model sonnet) failed", DiffAnalysisFile},
		{"merge executor", false, role("merge-executor"), "Merge: the merge executor (model opus) failed on change #1", MergeLogFile},
		{"advocate B round 1", false, role("advocate", provider.TagVariant, "B", provider.TagRound, "1"), "Debate: the advocate of Variant B (sonnet:security) failed in round 1", DebateTranscriptFile},
		{"generator sonnet", true, role("generator", provider.TagAgent, "sonnet:security"), "Agent sonnet:security failed to generate a variant", ""},
	}
	faults := []struct {
		name  string
		fault func(provider.Request) (provider.Response, error, bool)
		twice bool
		lost  bool // the call is lost: fallback
		calls int  // calls of the first logical call (0: not checked)
		cause string
	}{
		{"retryable once", outage, false, false, 2, ""},
		{"retryable twice", outage, true, true, 2, "outage"},
		{"not retryable", auth, false, true, 1, "bad key"},
		{"unusable once", garbage, false, false, 2, ""},
		{"unusable twice", garbage, true, true, 2, ""},
		{"truncated twice", truncated, true, true, 2, "truncated"},
		{"refusal", refusal, false, true, 1, "refused"},
	}
	cases := chaosCases(t)
	agreeing, modeB := cases[1], cases[2]
	require.Equal(t, "samples-agreeing", agreeing.name)
	for _, seam := range seams {
		for _, f := range faults {
			t.Run(seam.name+"/"+f.name, func(t *testing.T) {
				cc := agreeing
				if seam.modeB {
					cc = modeB
				}
				ff := &firstCallFaults{match: seam.match, fault: f.fault, twice: f.twice}
				ctx := context.WithValue(context.Background(), injectorKey{}, provider.Middleware(ff.wrap))
				sink := NewMemorySink()
				in := cc.in
				in.Sink = sink
				res, err := cc.runner(t).Run(ctx, in)
				require.NoError(t, err)
				if seam.name != "merge executor" && seam.name != "judge pass 1" {
					assert.Equal(t, f.calls, ff.calls, "calls of the logical call")
				}
				if !f.lost {
					assert.Empty(t, warningsWith(res, "failed"), "a recovered retry leaves no degradation")
					if !seam.modeB {
						assert.Equal(t, StatusSuccess, res.Status)
					}
					return
				}
				assert.NotEqual(t, StatusSuccess, res.Status, "never a silent success")
				assert.NotEqual(t, StatusFailed, res.Status, "two or more variants remain: %q", res.Warnings)
				warning := seam.warning
				if seam.name == "advocate B round 1" && f.name == "refusal" {
					// A refused turn is argued by the heuristic advocate:
					// the variant keeps its advocate, the run says so.
					warning = "Debate: the advocate of Variant B (sonnet:security) refused round 1"
				}
				ws := warningsWith(res, warning)
				require.NotEmpty(t, ws, "the contract names seam, model and cause: %q", res.Warnings)
				if warning != seam.warning {
					assert.Contains(t, ws[0], "the heuristic advocate argued that turn")
				}
				assert.Contains(t, ws[0], f.cause)
				contract, ok := sink.Get(ReturnContractFile)
				require.True(t, ok)
				assert.Contains(t, string(contract), warning[:20])
				if seam.file != "" {
					art, ok := sink.Get(seam.file)
					require.True(t, ok)
					want := warning
					if seam.file == DebateTranscriptFile {
						want = "Variant B advocate"
					}
					assert.Contains(t, string(art), want, "the step's artifact says so too")
				}
			})
		}
	}
}

func warningsWith(res *Result, s string) []string {
	var out []string
	for _, w := range res.Warnings {
		if strings.Contains(w, s) {
			out = append(out, w)
		}
	}
	return out
}

// TestCancelKeepsFinishedStepsInTheSink cancels a model-backed run right
// after each step finishes: whatever the Result holds is in the sink too,
// the contract included, and it names nothing that does not exist.
func TestCancelKeepsFinishedStepsInTheSink(t *testing.T) {
	cc := chaosCases(t)[1]
	for _, step := range []string{string(StageDiff), string(StageDebate), string(StageScoring), string(StagePlan)} {
		t.Run(step, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r := cc.runner(t)
			r.observer = ObserverFunc(func(_ context.Context, e Event) {
				if e.Kind == StepFinished && string(e.Step) == step {
					cancel()
				}
			})
			sink := NewMemorySink()
			in := cc.in
			in.Sink = sink
			res, err := r.Run(ctx, in)
			require.ErrorIs(t, err, context.Canceled)
			require.NotNil(t, res)
			assert.Empty(t, namedButMissing(res, sink))
			_, ok := sink.Get(DiffAnalysisFile)
			assert.True(t, ok, "step 1 finished before the cancel")
		})
	}
}
