package debate

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/samplegen"
	"github.com/crucible-go/crucible/internal/words"
)

// TestConflictEvidenceAgreesWithPairwise checks that the statements a
// contradiction's variants share, worked out once per point as bits, give
// every variant the mark that comparing its own statements with each
// other variant's gives (the path of a variant index past the bits).
func TestConflictEvidenceAgreesWithPairwise(t *testing.T) {
	analyses := map[string]*diff.Analysis{}
	for _, set := range []string{"contradictions", "content", "styles"} {
		analyses[set] = setInput(t, set, nil).Analysis
	}
	// Synthetic specifications repeat statements across many variants:
	// contradictions with dozens of statements, many alike.
	var docs []*diff.Document
	for i := range 6 {
		d, err := diff.Parse(fmt.Sprintf("v%d.md", i), samplegen.Spec(uint64(i+1), 24<<10))
		require.NoError(t, err)
		docs = append(docs, d)
	}
	a, err := diff.Analyze(context.Background(), docs, diff.WithClock(fixedClock))
	require.NoError(t, err)
	analyses["synthetic"] = a
	for set, a := range analyses {
		checked := 0
		qs := newQuoteTable(0) // one per run, as conflictsOf keeps it
		for _, p := range a.Points {
			if p.Category != diff.CategoryContradiction || p.Scope == diff.IntraVariant {
				continue
			}
			fast := newConflictEvidence(&p, qs)
			slow := *fast
			slow.agrees = nil
			for _, e := range p.Evidence {
				slow.sets = append(slow.sets, words.NewSet(e.Quote))
			}
			for idx := range a.Variants {
				f := &docFacts{}
				require.Equal(t, contradictionMark(p, idx, f, &slow), contradictionMark(p, idx, f, fast), fmt.Sprintf("%s %s variant %d", set, p.ID, idx))
				checked++
			}
		}
		t.Logf("%s: %d marks", set, checked)
	}
}

// TestConflictEvidenceSameStatement covers the two ways statements agree:
// nearly the same words, or the same text but for case and surrounding
// space (which a set without significant words cannot tell).
func TestConflictEvidenceSameStatement(t *testing.T) {
	p := diff.Point{Category: diff.CategoryContradiction, Scope: diff.CrossVariant, Evidence: []diff.Evidence{
		{Variant: 0, Quote: "The cache holds entries for 5 minutes."},
		{Variant: 1, Quote: "  the cache holds entries for 5 minutes. "},
		{Variant: 2, Quote: "The queue drops stale messages after an hour."},
		{Variant: 3, Quote: "It is."},
		{Variant: 4, Quote: "IT IS."},
		{Variant: 5, Quote: "Raise the cache ſize"}, // long s: folds to s, though not lower-cased to it
		{Variant: 6, Quote: "raise the cache size "},
	}}
	c := newConflictEvidence(&p, newQuoteTable(0))
	others := make([]uint64, len(c.agrees)) // without the variant's own bit
	for k, bits := range c.agrees {
		others[k] = bits &^ (1 << c.variants[k])
	}
	require.Equal(t, []uint64{1 << 1, 1 << 0, 0, 1 << 4, 1 << 3, 1 << 6, 1 << 5}, others)
	require.Equal(t, []int{0, 1, 2, 3, 4, 5, 6}, c.variants)
}

// TestSharedExtracts checks that the read-only claims and fields the
// views read are what ExtractClaims and ExtractFields copy for variant 0.
func TestSharedExtracts(t *testing.T) {
	for _, d := range loadSet(t, "contradictions") {
		require.Equal(t, diff.ExtractClaims(d, 0), diff.SharedClaims(d), d.Name)
		require.Equal(t, diff.ExtractFields(d, 0), diff.SharedFields(d), d.Name)
		require.NotEmpty(t, diff.SharedClaims(d), d.Name)
	}
}

// TestDecidedWinners checks that an elimination round counts the points
// each variant won as its scoring matrix would have.
func TestDecidedWinners(t *testing.T) {
	for _, set := range []string{"contradictions", "content", "organization"} {
		in := setInput(t, set, nil)
		res, err := Run(context.Background(), in)
		require.NoError(t, err)
		for _, aborted := range []bool{false, true} {
			var want []string
			for _, d := range decide(in.Analysis, res, aborted) {
				want = append(want, d.Winner)
			}
			require.Equal(t, want, decidedWinners(in.Analysis, res, aborted), set)
		}
		require.NotEmpty(t, res.Wins, set)
	}
}
