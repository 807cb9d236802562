package diff

import (
	"os"
	"path/filepath"
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
