package scoring

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

func quantOf(t *testing.T, source *diff.Document, docs ...*diff.Document) ([]QuantScore, Reference) {
	t.Helper()
	q, ref, err := New().Quantitative(context.Background(), Input{Variants: variants(docs...), Source: source})
	require.NoError(t, err)
	return q, ref
}

func TestRequirementCoverage(t *testing.T) {
	source := parse(t, "source", "# Source\n\n## Requirements\n\n"+
		"- FR-001: Issue a session token within 50 ms.\n"+
		"- FR-002: Expire sessions after 30 minutes of inactivity.\n"+
		"- FR-003: Reject invalid tokens with HTTP 401.\n"+
		"- FR-004: Log every session creation to the audit trail.\n")
	topicSource := parse(t, "topics", "# Source\n\n## Authentication\n\nText.\n\n## Caching\n\nText.\n\n## Logging\n\nText.\n")
	tests := []struct {
		name      string
		source    *diff.Document
		docs      []string
		want      []float64
		detail    string // of the first variant
		unmatched []string
		analyse   bool // give the scorer the step 1 analysis
	}{
		{
			name:   "Mode B ids, and a description matched by three consecutive words",
			source: source,
			docs: []string{"# V\n\n## Design\n\nFR-001 and FR-003 are met by the gateway. The service must log every session creation.\n",
				"# W\n\n## Design\n\nFR-002 only.\n"},
			want: []float64{0.75, 0.25}, detail: "3/4 requirements matched", unmatched: []string{"FR-002"},
		},
		{
			name:   "Mode B id matching is case-insensitive",
			source: source,
			docs:   []string{"# V\n\nfr-001, Fr-002, FR-003 and FR-004.\n", "# W\n\nNothing.\n"},
			want:   []float64{1, 0}, detail: "4/4 requirements matched",
		},
		{
			name:   "Mode B source without ids: section-level topics",
			source: topicSource,
			docs:   []string{"# V\n\n## Authentication Flow\n\nText.\n\n### Logging\n\nText.\n", "# W\n\n## Billing\n\nText.\n"},
			want:   []float64{2.0 / 3, 0}, detail: "2/3 topics matched", unmatched: []string{"Caching"},
		},
		{
			name:   "Mode A: the union of the variants' requirements is the reference",
			source: nil,
			docs: []string{"# V\n\n- FR-001: Issue tokens.\n- FR-002: Expire sessions.\n",
				"# W\n\n- FR-002: Expire sessions.\n- FR-003: Reject invalid tokens with HTTP 401.\n"},
			want: []float64{2.0 / 3, 2.0 / 3}, detail: "2/3 requirements matched", unmatched: []string{"FR-003"},
		},
		{
			name:   "Mode A without ids: the union of the top-level topics",
			source: nil,
			docs:   []string{"# V\n\n## Scope\n\nText.\n\n## Risks\n\nText.\n", "# W\n\n## Scope\n\nText.\n\n## Timeline\n\nText.\n"},
			want:   []float64{2.0 / 3, 2.0 / 3}, detail: "2/3 topics matched", unmatched: []string{"Timeline"},
		},
		{
			name: "Mode B: standards, hashes and encodings in the source are not requirements",
			source: parse(t, "std", "# Source\n\n## Export\n\n- FR-001: Write every export file as UTF-8.\n"+
				"- FR-002: Sign each file with its SHA-256 digest.\n\nTimestamps follow ISO-8601; uploads use TLS 1.3 and HTTP/2.\n"),
			docs: []string{"# V\n\nFR-001 holds. Stamps are ISO-8601, digests SHA-256, text UTF-8.\n", "# W\n\nNothing.\n"},
			want: []float64{0.5, 0}, detail: "1/2 requirements matched", unmatched: []string{"FR-002"},
		},
		{
			name:   "Mode A: one variant's own numbering is no shared requirement; the topics are",
			source: nil,
			docs: []string{"# V\n\n## Findings\n\n- MF-1: The cache is unbounded.\n- MF-2: Retries never stop.\n",
				"# W\n\n## Findings\n\nThe cache has no bound.\n"},
			want: []float64{1, 1}, detail: "1/1 topics matched",
		},
		{
			name:   "Mode A: a lone number-like token is not a requirement",
			source: nil,
			docs: []string{"# V\n\n## Gate\n\nPhase N reads the report of phase N-1; see UC-2.\n",
				"# W\n\n## Gate\n\nEach phase reads the previous report.\n\n## Tier\n\nDeep.\n"},
			want: []float64{0.5, 1}, detail: "1/2 topics matched", unmatched: []string{"Tier"},
		},
		{
			name:   "Mode A: a scheme two variants use counts every id of it",
			source: nil,
			docs:   []string{"# V\n\nCovers FR-001, FR-002 and FR-003.\n", "# W\n\nCovers FR-001.\n"},
			want:   []float64{1, 1.0 / 3}, detail: "3/3 requirements matched",
		},
		{
			name:   "Mode A: heading tallies are not topics — an empty heading covers nothing",
			source: nil,
			docs: []string{"# V\n\n## Scope\n\nThree services.\n\n## Risks\n\n## Timeline\n\n## Budget\n",
				"# W\n\n## Scope\n\nTwo services.\n\n## Timeline\n\nQ3.\n"},
			want: []float64{0.5, 1}, detail: "1/2 topics matched", unmatched: []string{"Timeline"},
		},
		{
			name:   "Mode A with the step 1 analysis: its aligned topics are the reference",
			source: nil, analyse: true,
			docs: []string{"# V\n\n## Key Risks\n\nThe queue may overflow at 10k msgs/s.\n\n## Rollout Plan\n\nCanary 5% for 2 days.\n",
				"# W\n\n## Risks & Mitigations\n\nThe queue may overflow at 10k msgs/s; shed load.\n"},
			want: []float64{1, 0.5}, detail: "2/2 topics matched",
		},
		{
			name:   "an empty reference scores 1.0",
			source: nil,
			docs:   []string{"Just text.\n", "More text.\n"},
			want:   []float64{1, 1}, detail: "no requirements in the reference",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var docs []*diff.Document
			for _, s := range tc.docs {
				docs = append(docs, parse(t, "v", s))
			}
			in := Input{Variants: variants(docs...), Source: tc.source}
			if tc.analyse {
				in = analysed(t, docs...)
			}
			q, ref, err := New().Quantitative(context.Background(), in)
			require.NoError(t, err)
			assert.Equal(t, tc.analyse, ref.Aligned)
			for i, w := range tc.want {
				assert.InDelta(t, w, q[i].RC.Score, 1e-9, "variant %d: %s", i, q[i].RC.Detail)
			}
			assert.Equal(t, tc.detail, q[0].RC.Detail)
			assert.Equal(t, tc.unmatched, q[0].Unmatched)
		})
	}
}

func TestInternalConsistency(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		want   float64
		detail string
	}{
		{"one numeric contradiction among three claims",
			"# T\n\n## A\n\nThe request timeout is 30 seconds.\n\nThe request timeout is 60 seconds.\n\nUse PostgreSQL for the session store.\n",
			1 - 1.0/3, "1 contradiction in 3 claims"},
		{"consistent claims", "# T\n\n## A\n\nThe request timeout is 30 seconds.\n\nUse PostgreSQL for the session store.\n",
			1, "0 contradictions in 2 claims"},
		{"vague statements are not claims", "# T\n\nTeams should consider best practices as appropriate.\n",
			1, "no scorable claims"},
		{"table of contents entries are not claims",
			"# T\n\n## Contents\n\n1. [Timeouts of 30 seconds](#a)\n\n## A\n\nThe request timeout is 60 seconds.\n",
			1, "0 contradictions in 1 claim"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, _ := quantOf(t, nil, parse(t, "v", tc.src), parse(t, "w", "# W\n"))
			assert.InDelta(t, tc.want, q[0].IC.Score, 1e-9)
			assert.Equal(t, tc.detail, q[0].IC.Detail)
		})
	}
}

func TestSpecificityRatio(t *testing.T) {
	tests := []struct {
		name           string
		src            string
		concrete, vage int
		want           float64
	}{
		{"concrete and vague indicators; ids and section references are not quantities",
			"# T\n\n## A\n\nUse PostgreSQL 16 for storage. Teams might consider options as appropriate.\n\n- FR-001: Respond within 200 ms.\n\nSee Section 2.1 for details.\n",
			3, 2, 0.6},
		{"headings, metadata lines, code and tables of contents are excluded",
			"# Plan 2026\n\nStatus: Draft\nDate: 2026-01-01\n\n## Contents\n\n- [Step 1 in 5 days](#a)\n\n## 3 Steps in 10 days\n\n```\nretries: 5\n```\n\nIt might work.\n",
			0, 1, 0},
		{"no indicators at all scores 0", "# T\n\nPlain words here.\n", 0, 0, 0},
		{"only concrete", "# T\n\nThe cache holds 512 MiB.\n", 1, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, _ := quantOf(t, nil, parse(t, "v", tc.src), parse(t, "w", "# W\n"))
			assert.Equal(t, tc.concrete, q[0].SR.Num, "concrete")
			assert.Equal(t, tc.concrete+tc.vage, q[0].SR.Den, "concrete + vague")
			assert.InDelta(t, tc.want, q[0].SR.Score, 1e-9)
		})
	}
}

func TestDependencyCompleteness(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		want   float64
		detail string
	}{
		{"one of two internal references resolves; URLs are excluded",
			"# T\n\n## 1. Scope\n\nSee Section 2 and Section 9. Read https://example.com/spec and [the guide](guide.md).\n\n## 2. Design\n\nText.\n",
			0.5, "1/2 references resolved"},
		{"milestones and titles resolve", "# T\n\n## Milestone M1\n\nSee [Design] before Milestone M1.\n\n## Design\n\nText.\n",
			1, "2/2 references resolved"},
		{"no internal references scores 1.0", "# T\n\nNothing refers to anything.\n", 1, "no internal references"},
		{"an unresolved deliverable", "# T\n\nDeliverable D1.2 ships first.\n", 0, "0/1 references resolved"},
		{"step numbers in a code block or a shell command are not section references",
			"# T\n\n## 1. Setup\n\nSee Section 2.\n\n```bash\n# section 7: seed the database\n./seed.sh --section 7\n```\n\n" +
				"$ ./migrate.sh --step 3  # section 5\n\n## 2. Use\n\nText.\n",
			1, "1/1 references resolved"},
		{"another document's sections, beyond an unnumbered outline, are external",
			"# Proposal\n\n## Gate\n\nReuse the rubric of §14.5 and the checks of §11.3.\n\n## Tier\n\nSee the \"Gate\" section.\n",
			1, "1/1 references resolved"},
		{"another document's sections, within the count of an unnumbered outline of series items, are external",
			"# Proposal\n\n## T1 — Gate\n\nReuse the rubric of §2.1.\n\n## T2 — Tier\n\nText.\n\n## T3 — Cost\n\nText.\n",
			1, "no internal references"},
		{"a number a heading discusses is still the document's own when a heading claims it",
			"# Review\n\n## 1. Scope\n\n### 1.1 Notes on the analysis (Section 2)\n\nSee Section 2 below.\n\n## 2. Design\n\nText.\n",
			1, "1/1 references resolved"},
		{"in an unnumbered document, Section 9 is still a broken reference",
			"# Notes\n\n## Gate\n\nSee Section 9 for more.\n\n## Tier\n\nText.\n", 0, "0/1 references resolved"},
		{"a review's § references name the reviewed document's sections",
			"# Review\n\n## 1. Findings\n\n### 1.1 §4.4 Replacement Text\n\n§4.4 and §1.1 are both vague; see Section 2.\n\n## 2. Verdict\n\nText.\n",
			1, "1/1 references resolved"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, _ := quantOf(t, nil, parse(t, "v", tc.src), parse(t, "w", "# W\n"))
			assert.InDelta(t, tc.want, q[0].DC.Score, 1e-9)
			assert.Equal(t, tc.detail, q[0].DC.Detail)
		})
	}
}

// analysed returns an input of docs with their step 1 analysis.
func analysed(t *testing.T, docs ...*diff.Document) Input {
	t.Helper()
	an, err := diff.Analyze(context.Background(), docs)
	require.NoError(t, err)
	return Input{Variants: variants(docs...), Analysis: an}
}

// TestSectionCoverage: SC counts the topics a variant covers, not its H2
// headings — with the step 1 alignment when the input carries it, else by
// the variants' top-level titles.
func TestSectionCoverage(t *testing.T) {
	body := func(titles ...string) string {
		s := "# Plan\n\n"
		for _, ti := range titles {
			s += ti + "\n\nThe " + strings.ToLower(strings.TrimLeft(ti, "# ")) + " work takes 3 days and needs 2 engineers.\n\n"
		}
		return s
	}
	tests := []struct {
		name    string
		docs    []string
		analyse bool
		want    []float64
		detail  string // of the second variant
	}{
		{name: "heading tallies are not counted: empty headings cover nothing",
			docs: []string{body("## Scope", "## Design", "## Rollout"),
				"# Plan\n\n## Scope\n\nThe scope is 3 services.\n\n## A\n\n## B\n\n## C\n\n## D\n\n## E\n"},
			want: []float64{1, 1.0 / 3}, detail: "1/3 topics covered, of 3 top-level topics"},
		{name: "a subject split over several headings covers one topic per title",
			docs: []string{body("## Scope", "## Design", "## Rollout"), body("## Scope", "## Scope Details", "## Design")},
			want: []float64{1, 2.0 / 3}, detail: "2/3 topics covered, of 3 top-level topics"},
		{name: "aligned topics: H1 phases meet H2 phases",
			analyse: true,
			docs: []string{body("## Phase 1: Schema migration", "## Phase 2: Backfill", "## Phase 3: Cut-over"),
				"# Phase 1: Schema migration\n\nThe schema migration work takes 3 days.\n\n# Phase 2: Backfill\n\nThe backfill work takes 3 days.\n"},
			want: []float64{1, 2.0 / 3}, detail: "2/3 topics covered, of 3 aligned topics"},
		{name: "no topics anywhere scores 1.0",
			docs: []string{"# T\n\nText.\n", "Text.\n"},
			want: []float64{1, 1}, detail: "no topics in any variant"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var docs []*diff.Document
			for i, src := range tc.docs {
				docs = append(docs, parse(t, diff.Label(i), src))
			}
			in := Input{Variants: variants(docs...)}
			if tc.analyse {
				in = analysed(t, docs...)
			}
			q, _, err := New().Quantitative(context.Background(), in)
			require.NoError(t, err)
			for i, w := range tc.want {
				assert.InDelta(t, w, q[i].SC.Score, 1e-9, "variant %d: %s", i, q[i].SC.Detail)
			}
			assert.Equal(t, tc.detail, q[1].SC.Detail)
		})
	}
}

func TestQuantScoreFormula(t *testing.T) {
	q, _ := quantOf(t, nil, load(t, "strong.md"), load(t, "weak.md"))
	for _, s := range q {
		want := s.RC.Score*0.30 + s.IC.Score*0.25 + s.SR.Score*0.15 + s.DC.Score*0.15 + s.SC.Score*0.15
		assert.InDelta(t, want, s.Score, 1e-12)
		assert.GreaterOrEqual(t, s.Score, 0.0)
		assert.LessOrEqual(t, s.Score, 1.0)
	}
	assert.Greater(t, q[0].Score, q[1].Score, "the strong variant outscores the weak one")
	assert.Equal(t, "0/1 references resolved", q[1].DC.Detail, "the weak variant's Section 9 does not exist")
}

func TestQuantitativeDeterministic(t *testing.T) {
	docs := []*diff.Document{load(t, "strong.md"), load(t, "weak.md"), load(t, "source.md")}
	a, _ := quantOf(t, nil, docs...)
	b, _ := quantOf(t, nil, docs...)
	assert.Equal(t, a, b, "running twice on the same input gives identical scores")
}

// failingDetector fails for one document, by name.
type failingDetector struct{ name string }

var errDetector = errors.New("detector unavailable")

func (f failingDetector) Detect(_ context.Context, in diff.DetectInput) ([]diff.Contradiction, error) {
	if in.Documents[0].Name == f.name {
		return nil, errDetector
	}
	return nil, nil
}

func TestQuantitativeParallelMatchesSerial(t *testing.T) {
	docs := []*diff.Document{load(t, "strong.md"), load(t, "weak.md"), load(t, "source.md")}
	serial, _, err := New(WithConcurrency(1)).Quantitative(context.Background(), Input{Variants: variants(docs...)})
	require.NoError(t, err)
	parallel, _, err := New(WithConcurrency(8)).Quantitative(context.Background(), Input{Variants: variants(docs...)})
	require.NoError(t, err)
	assert.Equal(t, serial, parallel, "measuring variants at once changes nothing but the time")
}

func TestQuantitativeErrors(t *testing.T) {
	docs := []*diff.Document{load(t, "strong.md"), load(t, "weak.md")}
	t.Run("a detector fails", func(t *testing.T) {
		_, _, err := New(WithDetectors(failingDetector{name: docs[0].Name})).
			Quantitative(context.Background(), Input{Variants: variants(docs...)})
		require.ErrorIs(t, err, errDetector)
		assert.Contains(t, err.Error(), docs[0].Name, "the error names the variant")
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, _, err := New().Quantitative(ctx, Input{Variants: variants(docs...)})
		require.ErrorIs(t, err, context.Canceled)
		// The documents memoise their consistency; a cancelled run must
		// not leave its failure behind.
		q, _, err := New().Quantitative(context.Background(), Input{Variants: variants(docs...)})
		require.NoError(t, err)
		assert.Greater(t, q[0].IC.Den, 0, "claims counted after the cancelled run")
	})
}

func TestPrepareThenScoreEqualsScore(t *testing.T) {
	fresh := func() Input {
		return Input{Variants: variants(load(t, "strong.md"), load(t, "weak.md"), load(t, "source.md"))}
	}
	plain, err := New().Score(context.Background(), fresh())
	require.NoError(t, err)

	s := New()
	in := fresh()
	require.NoError(t, s.Prepare(context.Background(), in))
	prepared, err := s.Score(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, plain.Markdown(), prepared.Markdown())
	assert.Equal(t, plain.Variants, prepared.Variants)

	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		in := fresh()
		require.ErrorIs(t, New().Prepare(ctx, in), context.Canceled)
		again, err := New().Score(context.Background(), in)
		require.NoError(t, err, "a cancelled preparation leaves nothing broken behind")
		assert.Equal(t, plain.Markdown(), again.Markdown())
	})
}
