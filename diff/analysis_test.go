package diff

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/internal/golden"
)

var fixedClock = func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }

// loadSet parses the variants of a test set in file order.
func loadSet(t testing.TB, name string) []*Document {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "sets", name, "[a-z].md"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var docs []*Document
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		d, err := Parse(filepath.Base(f), src)
		require.NoError(t, err)
		docs = append(docs, d)
	}
	return docs
}

// want describes a finding a set must contain.
type want struct {
	category Category
	kind     string
	rating   Rating // "" for any
	title    string // substring of the title, "" for any
	scope    Scope  // contradictions only
	variants []int  // nil for any
}

func (w want) matches(p Point) bool {
	return p.Category == w.category && (w.kind == "" || p.Kind == w.kind) && (w.rating == "" || p.Rating == w.rating) &&
		strings.Contains(strings.ToLower(p.Title), strings.ToLower(w.title)) && (w.scope == "" || p.Scope == w.scope) &&
		(w.variants == nil || fmt.Sprint(p.Variants) == fmt.Sprint(w.variants))
}

func TestAnalyzeSets(t *testing.T) {
	tests := []struct {
		set     string
		want    []want
		exactly map[Category]int // exact counts where the set pins them
	}{
		{"ordering", []want{
			{category: CategoryStructural, kind: "section-order", rating: Low},
			{category: CategoryStructural, kind: "hierarchy-depth", rating: Low},
			{category: CategoryStructural, kind: "heading-structure", rating: Low},
			{category: CategoryUnique, title: "Retries", variants: []int{1}},
		}, map[Category]int{CategoryContradiction: 0, CategoryContent: 0}},
		{"organization", []want{
			{category: CategoryStructural, kind: "section-grouping", rating: Medium},
			{category: CategoryStructural, kind: "organization-model", rating: High},
			{category: CategoryStructural, kind: "hierarchy-depth", rating: High},
			{category: CategoryStructural, kind: "heading-structure"},
		}, nil},
		{"content", []want{
			{category: CategoryContent, kind: "approach", rating: Medium, title: "Indexing"},
			{category: CategoryContent, kind: "coverage-gap", rating: Medium, title: "Relevance"},
			{category: CategoryContent, kind: "coverage-gap", rating: Medium, title: "Access Control"},
			{category: CategoryContent, title: "Query API"},
		}, nil},
		{"contradictions", []want{
			{category: CategoryContradiction, kind: "numeric", scope: CrossVariant, title: "retry timeout", variants: []int{0, 1, 2}},
			{category: CategoryContradiction, kind: "numeric", scope: CrossVariant, title: "cache limit", variants: []int{0, 1}},
			{category: CategoryContradiction, kind: "numeric", scope: CrossVariant, title: "delivery", variants: []int{0, 1}},
			{category: CategoryContradiction, kind: "opposing-claims", scope: CrossVariant, title: "TLS", rating: High},
			{category: CategoryContradiction, kind: "opposing-claims", scope: CrossVariant, title: "log request bodies", rating: High},
			{category: CategoryContradiction, kind: "exclusive-choice", scope: CrossVariant, title: "metadata store", rating: High},
			{category: CategoryContradiction, kind: "requirement-constraint", scope: CrossVariant, rating: High, variants: []int{0, 1, 2}},
			{category: CategoryContradiction, kind: "requirement-constraint", scope: IntraVariant, rating: High, variants: []int{2}},
			{category: CategoryContradiction, kind: "dependency-cycle", scope: IntraVariant, rating: High, variants: []int{0}},
			{category: CategoryContradiction, kind: "dependency-cycle", scope: CrossVariant, rating: High, variants: []int{1, 2}},
		}, nil},
		{"unique", []want{
			{category: CategoryUnique, title: "Dunning", rating: High, variants: []int{1}},
			{category: CategoryUnique, title: "Tax Calculation", rating: Medium, variants: []int{1}},
			{category: CategoryUnique, title: "Glossary", rating: Low, variants: []int{1}},
			{category: CategoryUnique, title: "Fraud Risk", rating: High, variants: []int{2}},
		}, map[Category]int{CategoryUnique: 4}},
		{"identical", nil, map[Category]int{CategoryStructural: 0, CategoryContent: 0, CategoryContradiction: 0, CategoryUnique: 0}},
		{"styles", []want{
			{category: CategoryStructural, kind: "hierarchy-depth"},
			{category: CategoryStructural, kind: "heading-structure"},
			{category: CategoryContradiction, kind: "numeric", scope: CrossVariant, title: "escalate", variants: []int{0, 1, 2}},
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.set, func(t *testing.T) {
			docs := loadSet(t, tt.set)
			a, err := Analyze(context.Background(), docs, WithClock(fixedClock), WithArtifactType("Specification"))
			require.NoError(t, err)
			md := a.Markdown()
			require.NoError(t, Validate(md), "the rendering must pass its own validation")
			checkGolden(t, filepath.Join("testdata", "sets", tt.set, "diff-analysis.golden.md"), md)
			for _, w := range tt.want {
				found := false
				for _, p := range a.Points {
					if w.matches(p) {
						found = true
						break
					}
				}
				assert.True(t, found, "missing finding %+v", w)
			}
			for c, n := range tt.exactly {
				assert.Len(t, a.ByCategory(c), n, "category %s", c)
			}
			checkAnalysisInvariants(t, docs, a)
		})
	}
}

func TestIdenticalSetIsSubstantiallyIdentical(t *testing.T) {
	a, err := Analyze(context.Background(), loadSet(t, "identical"), WithClock(fixedClock))
	require.NoError(t, err)
	assert.True(t, a.Similarity.Identical)
	assert.Contains(t, a.Markdown(), "variants substantially identical")

	b, err := Analyze(context.Background(), loadSet(t, "content"), WithClock(fixedClock))
	require.NoError(t, err)
	assert.False(t, b.Similarity.Identical)
}

func TestStylesWarnsAboutMissingHeadings(t *testing.T) {
	a, err := Analyze(context.Background(), loadSet(t, "styles"), WithClock(fixedClock))
	require.NoError(t, err)
	assert.Contains(t, a.Warnings, "Variant C (c.md) has no headings; it is compared as one body of text")
	for _, p := range a.ByCategory(CategoryStructural) {
		assert.NotEqual(t, "section-order", p.Kind, "A and B share their section layout")
	}
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	golden.Check(t, path, got)
}

// checkAnalysisInvariants asserts what holds for every analysis: ids
// contiguous per category, one position per variant, evidence quoting the
// variants' own text.
func checkAnalysisInvariants(t testing.TB, docs []*Document, a *Analysis) {
	t.Helper()
	next := map[Category]int{}
	for _, p := range a.Points {
		next[p.Category]++
		if want := fmt.Sprintf("%s-%03d", p.Category.Prefix(), next[p.Category]); p.ID != want {
			t.Fatalf("id %s; want %s", p.ID, want)
		}
		if len(p.Positions) != len(docs) {
			t.Fatalf("%s has %d positions for %d variants", p.ID, len(p.Positions), len(docs))
		}
		if p.Rating.Rank() == 0 || p.Reason == "" || p.Title == "" || len(p.Variants) == 0 {
			t.Fatalf("%s incomplete: %+v", p.ID, p)
		}
		for _, e := range p.Evidence {
			if e.Variant < 0 || e.Variant >= len(docs) || !strings.Contains(docs[e.Variant].Source, e.Quote) || e.Quote == "" {
				t.Fatalf("%s cites %q, which variant %d does not contain", p.ID, e.Quote, e.Variant)
			}
			if e.Line < 1 || e.Line > docs[e.Variant].Lines {
				t.Fatalf("%s cites line %d of variant %d", p.ID, e.Line, e.Variant)
			}
		}
		for v, pos := range p.Positions {
			if pos.Section >= len(docs[v].Sections) {
				t.Fatalf("%s refers to section %d of variant %d", p.ID, pos.Section, v)
			}
		}
	}
	if _, err := json.Marshal(a); err != nil {
		t.Fatalf("analysis does not encode: %v", err)
	}
}
