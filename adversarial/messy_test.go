package adversarial

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

// TestSeamReplyStyles is the seam × reply-style table of issue 17: every
// model-backed seam of the pipeline, its replies written in each shape
// real models use — once on the first attempt, and (for the styles that
// carry no answer) on every attempt. Each cell ends recovered (the
// artifacts byte-identical to the clean run's), degraded with a warning
// naming the seam (status not success), or — never — silently wrong:
// different artifacts and nothing said.
func TestSeamReplyStyles(t *testing.T) {
	if testing.Short() {
		t.Skip("the full seam × style table")
	}
	cases := chaosCases(t)
	agreeing, modeB := cases[1], cases[2]
	role := func(r string) func(provider.Request) bool {
		return func(req provider.Request) bool { return req.Tag(provider.TagRole) == r }
	}
	seams := []struct {
		name    string
		cc      *chaosCase
		match   func(provider.Request) bool
		warning string
	}{
		{"judge", agreeing, role("judge"), "judge agent"},
		{"contradiction agent", agreeing, role("contradiction-detector"), "contradiction agent"},
		{"merge executor", agreeing, role("merge-executor"), "merge executor"},
		{"advocate", agreeing, role("advocate"), "advocate"},
		{"generator", modeB, role("generator"), "failed to generate"},
	}
	// Styles that hold the answer must be recovered, without a retry.
	answered := []providertest.Style{providertest.StyleClean, providertest.StyleProse, providertest.StyleThink,
		providertest.StyleThinkDraft, providertest.StyleTrailingCommas, providertest.StyleNumberStrings}
	noAnswer := []providertest.Style{providertest.StyleTruncated, providertest.StyleRefusalText,
		providertest.StyleRefusalError, providertest.StyleEmpty}
	type cell struct {
		style providertest.Style
		every bool
	}
	var cells []cell
	for _, s := range providertest.Styles {
		cells = append(cells, cell{s, false})
	}
	for _, s := range noAnswer {
		cells = append(cells, cell{s, true})
	}
	var silent, recovered, degraded int
	for _, seam := range seams {
		clean, _, err := seam.cc.run(t, -1, nil)
		require.NoError(t, err)
		for _, c := range cells {
			name := seam.name + "/" + string(c.style)
			if c.every {
				name += "/every-attempt"
			}
			t.Run(name, func(t *testing.T) {
				mw := providertest.Messy(providertest.MessyOptions{Style: c.style, Match: seam.match, EveryAttempt: c.every})
				ctx := context.WithValue(context.Background(), injectorKey{}, mw)
				in := seam.cc.in
				sink := NewMemorySink()
				in.Sink = sink
				res, err := seam.cc.runner(t).Run(ctx, in)
				requireRunOutcome(t, res, err)
				assert.Empty(t, namedButMissing(res, sink))
				same := sameArtifacts(clean, res) && res.Status == clean.Status && slices.Equal(res.Warnings, clean.Warnings)
				var said []string
				for _, w := range res.Warnings {
					if !slices.Contains(clean.Warnings, w) && strings.Contains(w, seam.warning) {
						said = append(said, w)
					}
				}
				switch {
				case same:
					recovered++
				case len(said) > 0 && res.Status != StatusSuccess:
					degraded++
				default:
					silent++
					t.Errorf("silently different: status %s, warnings %q", res.Status, res.Warnings)
				}
				if slices.Contains(answered, c.style) {
					assert.True(t, same, "a reply that holds the answer is recovered: %q", res.Warnings)
					assert.Equal(t, clean.Usage.Calls, res.Usage.Calls, "and needs no retry")
				}
				if c.style == providertest.StyleTruncated && !c.every {
					assert.True(t, same, "a truncated first reply is retried and recovered: %q", res.Warnings)
				}
				if c.style == providertest.StyleTruncated && c.every && seam.name != "generator" {
					assert.Contains(t, strings.Join(said, "\n"), "truncated")
				}
			})
		}
	}
	t.Logf("seam × style: %d cells recovered, %d degraded with a warning, %d silently wrong", recovered, degraded, silent)
}

// sameArtifacts compares two runs' artifacts but the contract, whose
// usage counts the messier replies' tokens.
func sameArtifacts(a, b *Result) bool {
	strip := func(r *Result) []Artifact {
		var out []Artifact
		for _, x := range r.Artifacts {
			if x.Name != ReturnContractFile {
				out = append(out, x)
			}
		}
		return out
	}
	x, y := strip(a), strip(b)
	// A change the merge executor got right on its retry says so in the
	// merge log ("valid on attempt 2 (attempt 1 rejected: …)"): visible,
	// not silent. The merged document must still be the same.
	for i := range y {
		k := slices.IndexFunc(x, func(p Artifact) bool { return p.Name == MergeLogFile })
		if y[i].Name == MergeLogFile && k >= 0 && strings.Contains(string(y[i].Content), "attempt 1 rejected") {
			y[i] = x[k]
		}
	}
	return slices.EqualFunc(x, y, func(p, q Artifact) bool { return p.Name == q.Name && string(p.Content) == string(q.Content) }) &&
		a.MergedOutput == b.MergedOutput
}

// TestSeededMessyMix runs the model-backed pipeline with about half of
// its calls (some 300 in all) written in a seeded mix of every reply
// style, on any attempt: no run ends with a variant, verdict,
// contradiction or merged section the model did not finally say — each
// is the clean run's, or the run says what it lost.
func TestSeededMessyMix(t *testing.T) {
	cases := chaosCases(t)[:3]
	mix := append(slices.Clone(providertest.Styles), slices.Repeat([]providertest.Style{providertest.StyleClean}, 6)...)
	calls, runs := 0, 0
	for seed := int64(0); calls < 300; seed++ {
		cc := cases[seed%int64(len(cases))]
		clean, _, err := cc.run(t, -1, nil)
		require.NoError(t, err)
		mw := providertest.Messy(providertest.MessyOptions{Mix: mix, Seed: seed, EveryAttempt: true})
		ctx := context.WithValue(context.Background(), injectorKey{}, mw)
		res, err := cc.runner(t).Run(ctx, cc.in)
		requireRunOutcome(t, res, err)
		calls += res.Usage.Calls
		runs++
		if sameArtifacts(clean, res) {
			continue
		}
		var said []string
		for _, w := range res.Warnings {
			if !slices.Contains(clean.Warnings, w) {
				said = append(said, w)
			}
		}
		assert.NotEmpty(t, said, "%s seed %d: artifacts differ from the clean run's and nothing says why", cc.name, seed)
		assert.NotEqual(t, StatusSuccess, res.Status, "%s seed %d", cc.name, seed)
	}
	t.Logf("seeded mix: %d runs, %d calls", runs, calls)
}
