package diff

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/internal/samplegen"
)

// cacheDocs parses the documents the caches of the warm-up are checked
// on: generated variants, which repeat sentences, lines and titles, and
// the hand-written sets and documents under testdata.
func cacheDocs(t *testing.T) [][]byte {
	t.Helper()
	var srcs [][]byte
	for i := range 4 {
		srcs = append(srcs, samplegen.Spec(uint64(i+1), 24<<10))
	}
	for _, pat := range []string{"testdata/sets/*/*.md", "testdata/docs/*.md"} {
		paths, err := filepath.Glob(pat)
		require.NoError(t, err)
		for _, p := range paths {
			src, err := os.ReadFile(p)
			require.NoError(t, err)
			srcs = append(srcs, src)
		}
	}
	require.Greater(t, len(srcs), 10)
	return srcs
}

// TestWarmCachesChangeNothing reads every document's claims and fields
// through caches shared by all of them, as the warm-up does, and without,
// and wants the same values.
func TestWarmCachesChangeNothing(t *testing.T) {
	srcs := cacheDocs(t)
	claims, fields := newClaimCache(), newFieldCache()
	hits := 0
	for _, pass := range []string{"fill", "hit"} {
		for _, src := range srcs {
			cached, err := Parse("v.md", src)
			require.NoError(t, err)
			plain, err := Parse("v.md", src)
			require.NoError(t, err)
			require.Equal(t, extractClaims(plain, nil), sharedClaimsWith(cached, claims), pass)
			want, got := docFieldRefs(plain), docFieldRefsWith(cached, fields)
			require.Equal(t, want, got, pass)
			if pass == "hit" {
				hits += len(got)
			}
		}
	}
	require.Positive(t, hits)
	require.NotEmpty(t, claims.m)
	require.NotEmpty(t, claims.rows)
	require.NotEmpty(t, fields.lines)
	require.NotEmpty(t, fields.values)
	require.NotEmpty(t, fields.items)
}

// TestFieldCacheKeys asks the cache for one value under every bound and
// form, in turn: each must come back as normaliseFieldValue reads it
// (a short text is a value when bounded, not in a free line).
func TestFieldCacheKeys(t *testing.T) {
	fc := newFieldCache()
	raws := []string{"keep the current layout", "High", "Option B (background)", "5-7 days", "a b c d e", "yes"}
	differ := 0
	for _, raw := range raws {
		for _, bounded := range []bool{true, false} {
			for _, form := range []FieldForm{FormLabel, FormTable, FormYAML} {
				want := normaliseFieldValue(raw, bounded, form)
				require.Equal(t, want, fc.normalise(raw, bounded, form), "%q %v %v", raw, bounded, form)
				if want != normaliseFieldValue(raw, true, FormTable) {
					differ++
				}
			}
		}
	}
	require.Positive(t, differ, "the values must depend on the bound or form for the test to mean anything")
	require.Equal(t, newFldItemKey("Task T03.04 (2.1)"), *fc.itemKey("Task T03.04 (2.1)"))
	require.Equal(t, fldLabelledLine("- **Duration**: 5-7 days"), fc.labelledLine("- **Duration**: 5-7 days"))
	require.Nil(t, fc.labelledLine("no colon here"))
	classes := map[string]bool{}
	for _, name := range []string{"Verdict", "My Assessment", "Impact", "Duration"} {
		for _, raw := range []string{"MEDIUM", "CONFIRMED", "P1", "5 days", "some words"} {
			v := normaliseFieldValue(raw, true, FormLabel)
			want := fldClass(name, v)
			require.Equal(t, want, fc.class(name, v), "%q %q", name, raw)
			classes[want] = true
		}
	}
	require.Greater(t, len(classes), 4, "the classes must depend on the value for the test to mean anything")
}

// intraNumeric compares small clusters pair by pair and large ones through
// buckets: both ways find the same contradictions.
func TestIntraNumericDirectIsBuckets(t *testing.T) {
	var docs []*Document
	for _, src := range cacheDocs(t) {
		d, err := Parse("v.md", src)
		require.NoError(t, err)
		docs = append(docs, d)
	}
	inputs := []DetectInput{NewDetectInput(docs[:4]...)}
	for _, d := range docs {
		inputs = append(inputs, NewDetectInput(d)) // one variant alone, as the scorer reads it
	}
	intra := 0
	for _, in := range inputs {
		buckets := detectNumericUpTo(in, 0)
		require.Equal(t, buckets, detectNumericUpTo(in, 1<<20))
		require.Equal(t, buckets, detectNumeric(in))
		for _, c := range buckets {
			if c.Scope() != CrossVariant {
				intra++
			}
		}
	}
	require.Positive(t, intra, "no contradiction within a variant: the test compares nothing")
}

// Random clusters of values in a document whose headings name items: the
// pairwise and the bucketed comparison find the same contradictions.
func TestIntraNumericDirectIsBucketsRandom(t *testing.T) {
	doc, err := Parse("v.md", []byte("# Plan\n\n## Phase 1\n\nx\n\n## Phase 2\n\ny\n\n## Notes\n\nz\n\n## Risks\n\nw\n"))
	require.NoError(t, err)
	subjects := [][]string{{"phase", "duration"}, {"review", "time"}, {"duration"}, {"duration", "phase"}}
	quotes := []string{"Task T-1 takes 5 days", "T-2: takes 5 days", "It takes 5 days", "T-1 and T-2 take 5 days"}
	r := rand.New(rand.NewPCG(11, 12))
	intra := 0
	for range 400 {
		var claims []Claim
		for range 2 + r.IntN(14) {
			c := Claim{Section: r.IntN(len(doc.Sections)+1) - 1, Quote: quotes[r.IntN(len(quotes))], Type: Factual}
			for range 1 + r.IntN(2) {
				lo := float64(4 + r.IntN(3))
				c.Quantities = append(c.Quantities, Quantity{Subject: subjects[r.IntN(len(subjects))], Dim: "duration", Lo: lo * 86400, Hi: lo * 86400, Text: "5 days"})
			}
			c.Text, c.Line = c.Quote, len(claims)+1
			claims = append(claims, c)
		}
		in := DetectInput{Documents: []*Document{doc}, Claims: [][]Claim{claims}}
		buckets := detectNumericUpTo(in, 0)
		require.Equal(t, buckets, detectNumericUpTo(in, 1<<20))
		intra += len(buckets)
	}
	require.Positive(t, intra)
}

// TestRowKey wants the key of a table row to tell apart every header and
// row that differ, however their cells would join.
func TestRowKey(t *testing.T) {
	rows := []tableRow{
		{header: []string{"Setting", "Value"}, cells: []string{"Retry timeout", "30 s"}},
		{header: []string{"Setting", "Value"}, cells: []string{"Retry", "timeout 30 s"}},
		{header: []string{"Setting Value"}, cells: []string{"Retry timeout", "30 s"}},
		{header: []string{"Setting", "Value", ""}, cells: []string{"Retry timeout", "30 s"}},
		{header: []string{"Setting", "Value"}, cells: []string{"Retry timeout", "30 s", ""}},
		{header: []string{"1:a", "b"}, cells: []string{"c"}},
		{header: []string{"1:a"}, cells: []string{"b", "c"}},
		{header: nil, cells: []string{"x"}},
		{header: []string{}, cells: []string{"x", ""}},
	}
	seen := map[string]int{}
	for i := range rows {
		k := rowKey(&rows[i])
		if j, dup := seen[k]; dup {
			t.Errorf("rows %d and %d share the key %q", j, i, k)
		}
		seen[k] = i
		again := tableRow{header: slices.Clone(rows[i].header), cells: slices.Clone(rows[i].cells)}
		require.Equal(t, k, rowKey(&again), "the same row gives the same key")
	}
	// Two rows of one sentence, cached: each keeps its own reading.
	cache := newClaimCache()
	for _, r := range rows[:2] {
		sent := strings.Join(r.cells, " ")
		wc, wok := classifyLower(sent, "", &r)
		gc, gok := cache.classifyRow(sent, &r)
		require.Equal(t, wok, gok)
		require.Equal(t, wc, gc)
	}
}
