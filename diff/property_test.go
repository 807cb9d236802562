package diff

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/internal/samplegen"
)

var allSets = []string{"ordering", "organization", "content", "contradictions", "unique", "identical", "styles"}

// fingerprint summarises an analysis independently of variant labels.
func fingerprint(a *Analysis) []string {
	var out []string
	for _, p := range a.Points {
		out = append(out, fmt.Sprintf("%s/%s/%s/%s/%s", p.Category, p.Kind, p.Rating, p.Scope, p.Signature))
	}
	slices.Sort(out)
	return out
}

func TestVariantComparedWithItselfHasNoDifferences(t *testing.T) {
	for _, set := range allSets {
		for i, d := range loadSet(t, set) {
			a, err := Analyze(context.Background(), []*Document{d, d}, WithClock(fixedClock))
			require.NoError(t, err)
			for _, p := range a.Points {
				assert.Equal(t, IntraVariant, p.Scope, "%s variant %d: %s %s %q is not a difference", set, i, p.ID, p.Kind, p.Title)
			}
			assert.True(t, a.Similarity.Identical, "%s variant %d", set, i)
			assert.Zero(t, a.Similarity.Differences)
		}
	}
}

func TestVariantOrderOnlyRelabels(t *testing.T) {
	for _, set := range allSets {
		docs := loadSet(t, set)
		base, err := Analyze(context.Background(), docs, WithClock(fixedClock))
		require.NoError(t, err)
		rev := slices.Clone(docs)
		slices.Reverse(rev)
		other, err := Analyze(context.Background(), rev, WithClock(fixedClock))
		require.NoError(t, err)
		assert.Equal(t, fingerprint(base), fingerprint(other), set)
	}
}

func TestAnalyzeIsDeterministic(t *testing.T) {
	docs := loadSet(t, "contradictions")
	var first string
	for i := range 5 {
		a, err := Analyze(context.Background(), docs, WithClock(fixedClock))
		require.NoError(t, err)
		b, err := json.Marshal(a)
		require.NoError(t, err)
		if i == 0 {
			first = string(b)
			continue
		}
		require.Equal(t, first, string(b), "run %d differs", i)
	}
}

func TestAnalyzeBadInput(t *testing.T) {
	parse := func(name, src string) *Document {
		d, err := Parse(name, []byte(src))
		require.NoError(t, err)
		return d
	}
	spec := parse("spec.md", "# Spec\n\n## Scope\n\nThe API must answer within 200 ms.\n\n## Risks\n\nVendor outage; mitigation: fail over within 5 minutes.\n")
	ctx := context.Background()

	t.Run("too few", func(t *testing.T) {
		_, err := Analyze(ctx, []*Document{spec})
		assert.ErrorIs(t, err, ErrTooFewVariants)
		assert.EqualError(t, err, "adversarial comparison requires at least 2 variants, got 1")
	})
	t.Run("too many", func(t *testing.T) {
		_, err := Analyze(ctx, slices.Repeat([]*Document{spec}, 11))
		assert.ErrorIs(t, err, ErrTooManyVariants)
		assert.EqualError(t, err, "maximum 10 variants supported, got 11")
	})
	t.Run("nil variant", func(t *testing.T) {
		_, err := Analyze(ctx, []*Document{spec, nil})
		assert.EqualError(t, err, "diff: variant B is nil")
	})
	t.Run("cancelled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := Analyze(cctx, []*Document{spec, spec})
		assert.ErrorIs(t, err, context.Canceled)
	})
	cases := map[string][]*Document{
		"one empty":   {spec, parse("empty.md", "")},
		"both empty":  {parse("e1", ""), parse("e2", "")},
		"no headings": {parse("list.md", "- The API must answer within 300 ms.\n- Vendor outage is a risk.\n"), spec},
		"tables only": {parse("t.md", "| Metric | Target |\n|---|---|\n| API latency | 250 ms |\n"), parse("u.md", "| Metric | Target |\n|---|---|\n| API latency | 200 ms |\n")},
		"long lines":  {parse("long.md", "## Scope\n\n"+strings.Repeat("The API must answer within 200 ms and ", 5000)+"\n"), spec},
		"h1 vs h2":    {spec, parse("h2.md", "## Scope\n\nThe API must answer within 200 ms.\n\n## Risks\n\nVendor outage; mitigation: fail over within 5 minutes.\n")},
		"ten variants": func() []*Document {
			var ds []*Document
			for i := range 10 {
				ds = append(ds, parse(fmt.Sprintf("v%d.md", i), string(samplegen.Spec(uint64(i), 6000))))
			}
			return ds
		}(),
	}
	for name, docs := range cases {
		t.Run(name, func(t *testing.T) {
			a, err := Analyze(ctx, docs, WithClock(fixedClock))
			require.NoError(t, err)
			checkAnalysisInvariants(t, docs, a)
			require.NoError(t, Validate(a.Markdown()))
		})
	}
	t.Run("empty vs spec is all unique", func(t *testing.T) {
		a, err := Analyze(ctx, cases["one empty"], WithClock(fixedClock))
		require.NoError(t, err)
		assert.Len(t, a.ByCategory(CategoryUnique), 2)
		assert.False(t, a.Similarity.Identical)
	})
	t.Run("tables only numeric conflict", func(t *testing.T) {
		a, err := Analyze(ctx, cases["tables only"], WithClock(fixedClock))
		require.NoError(t, err)
		x := a.ByCategory(CategoryContradiction)
		require.Len(t, x, 1)
		assert.Equal(t, "Target (API latency)", x[0].Title)
	})
}

func TestFocus(t *testing.T) {
	docs := loadSet(t, "contradictions")
	all, err := Analyze(context.Background(), docs, WithClock(fixedClock))
	require.NoError(t, err)
	a, err := Analyze(context.Background(), docs, WithClock(fixedClock), WithFocus("TLS", "structural"))
	require.NoError(t, err)
	require.NotEmpty(t, a.Points)
	for _, p := range a.Points {
		if p.Category != CategoryStructural {
			assert.Contains(t, strings.ToLower(p.Title+fmt.Sprint(p.Positions)), "tls", p.ID)
		}
	}
	assert.Less(t, len(a.Points), len(all.Points))
	assert.Equal(t, all.Similarity, a.Similarity, "the similarity check ignores the focus")
	assert.Equal(t, []string{"TLS", "structural"}, a.Focus)
	require.NoError(t, Validate(a.Markdown()), "ids stay contiguous after filtering")
}

func TestValidateCatchesBrokenArtifacts(t *testing.T) {
	a, err := Analyze(context.Background(), loadSet(t, "contradictions"), WithClock(fixedClock))
	require.NoError(t, err)
	md := a.Markdown()
	x := len(a.ByCategory(CategoryContradiction))
	tests := []struct {
		name, old, new, want string
	}{
		{"gap in ids", "| X-002 |", "| X-009 |", "ids not contiguous"},
		{"missing rating", "| Medium — values differ by 74%", "| Maybe — values differ by 74%", "is not rated"},
		{"count mismatch", fmt.Sprintf("contradictions (%d)", x), fmt.Sprintf("contradictions (%d)", x+1), fmt.Sprintf("metadata counts %d X items", x+1)},
		{"missing section", "## Unique Contributions", "## Extras", `missing section "Unique Contributions"`},
		{"summary mismatch", fmt.Sprintf("- Total contradictions: %d", x), "- Total contradictions: 3", "summary lacks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Contains(t, md, tt.old)
			err := Validate(strings.Replace(md, tt.old, tt.new, 1))
			require.ErrorIs(t, err, ErrInvalidArtifact)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
