package scoring

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/internal/samplegen"
)

// TestValueLabelPrefilter checks that skipping blocks without a label core
// never loses a match: valueLabelMatches agrees with the pattern on every
// line of generated specifications and on texts that only case folding
// makes labels.
func TestValueLabelPrefilter(t *testing.T) {
	texts := []string{
		"**Verdict**: **REFUTED**", "one verdict: ACCEPT, REJECT or MODIFY", "7 values (NONE, CHECKING, PASS)",
		"Status: BLOCKED until the TQ drains", "STATUS PASS", "ſtatus PASS", "reſult: PASS", "mar\u212aed as DONE", "MARKED AS DONE",
		"Set To ON", "the gateway returns OK", "no label here: FOO BAR", "", "Ratings\n: HIGH",
	}
	for seed := range uint64(3) {
		texts = append(texts, strings.Split(string(samplegen.Spec(seed+1, 20<<10)), "\n\n")...)
		texts = append(texts, strings.Split(string(samplegen.Sections(seed+1, 200)), "\n\n")...)
	}
	hits := 0
	for _, s := range texts {
		want := reValueLabel.FindAllStringSubmatch(s, -1)
		require.Equal(t, want, valueLabelMatches(s), "%q", s)
		hits += len(want)
	}
	require.Positive(t, hits, "the texts hold labels")
	require.NotEmpty(t, valueLabelMatches("reſult: PASS"), "case folding makes a label of the long s")
}

// FuzzValueLabelPrefilter checks that the one-pass prefilter is implied by
// the pattern: wherever reValueLabel matches, mayHoldValueLabel holds.
func FuzzValueLabelPrefilter(f *testing.F) {
	for _, s := range []string{"**Verdict**: **REFUTED**", "x_status: A", "reſult: PASS", "mar\u212aed as DONE",
		"Set To ON", "7 values (NONE)", "(one of A, B)", "ÉTAT status X", "returns\tOK"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if reValueLabel.MatchString(s) && !mayHoldValueLabel(s) {
			t.Fatalf("the prefilter rules out a text the pattern matches: %q", s)
		}
	})
}

// FuzzValueLabelMatches checks valueLabelMatches, which runs the pattern
// from the first label core only, against the pattern run on the whole
// text.
func FuzzValueLabelMatches(f *testing.F) {
	for _, s := range []string{"**Verdict**: **REFUTED**", "x_status: A", "reſult: PASS", "mar\u212aed as DONE",
		"Set To ON", "7 values (NONE)", "(one of A, B)", "ÉTAT status X", "returns\tOK", "the result: A; status (B)",
		"é\u212aresult: X", "ſet to ON, status: B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		require.Equal(t, reValueLabel.FindAllStringSubmatch(s, -1), valueLabelMatches(s), "%q", s)
	})
}

var leadingCapsInputs = []string{"", "A", "AB", "Ab", "ABc", "AB c", "✅ PROCEED", "**VERIFIED**", "- NOT A SPEC", "9AB", "éAB",
	"AB_1", "A_", "A9x", "AB\u00e9", "  \t(AB)", "\xffAB", "\u0661AB", "ⅫAB", "_AB", "AB-CD", "aAB", "A B"}

// TestLeadingCaps checks the scanner against the pattern it stands in
// for.
func TestLeadingCaps(t *testing.T) {
	checkAgainstPattern(t, "leadingCaps", reLeadingCaps, leadingCaps, leadingCapsInputs)
}

func FuzzLeadingCaps(f *testing.F) {
	fuzzAgainstPattern(f, "leadingCaps", reLeadingCaps, leadingCaps, leadingCapsInputs)
}
