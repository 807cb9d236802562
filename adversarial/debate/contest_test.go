package debate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

// Which content points the debate counts as conflicts: each case gives
// two variants' text under the compared heading (section 1 of each).
func TestContestedContentPoints(t *testing.T) {
	tests := []struct {
		name       string
		a, b       string // the sections, heading included
		contested  bool
		conflictAt int // > 0: a cross-variant contradiction quotes this line of both
	}{
		{name: "competing prescriptions",
			a:         "## Token store\n\nTokens must be kept in Redis with a 15 minute expiry.\n",
			b:         "## Token store\n\nTokens should live in signed cookies so the service stays stateless.\n",
			contested: true},
		{name: "different mechanisms described",
			a:         "## Backups\n\nA nightly snapshot of the volume is copied to cold storage in another region.\n",
			b:         "## Backups\n\nWrite-ahead log shipping streams every committed transaction to a warm standby replica.\n",
			contested: true},
		{name: "one labelled value against another",
			a:         "## Retry budget\n\n- **Verdict**: SAFE\n\nThe budget caps retries per request.\n",
			b:         "## Retry budget\n\n- **Verdict**: UNSAFE\n\nUnder load the budget multiplies the traffic.\n",
			contested: true},
		{name: "a contradiction inside the sections",
			a:         "## Limits\n\nUploads are capped at 64 MiB per file.\n",
			b:         "## Limits\n\nUploads are capped at 16 MiB, enforced by the gateway.\n",
			contested: true, conflictAt: 5},
		{name: "the same statement in other words",
			a:         "## Audience\n\nThe guide is written for operators who run the service in production.\n",
			b:         "## Audience\n\nThis guide is written for the operators running the service in production today.\n",
			contested: false},
		{name: "different questions under different labels",
			a:         "## Step 4: add the cache\n\n- **Safety**: SAFE\n",
			b:         "## Step 4: add the cache\n\n- **Depends on**: nothing\n",
			contested: false},
		{name: "only one variant writes under the heading",
			a:         "## Rollout\n\nThe rollout must reach 5% of tenants before the flag is removed.\n",
			b:         "## Rollout\n\n### Canary\n\nOne region first.\n",
			contested: false},
		{name: "descriptions that commit to nothing",
			a:         "## Background\n\nTeams asked for a shared view of incidents across the platform and its tools.\n",
			b:         "## Background\n\nOperators asked for one shared place to follow incidents on the platform as they happen.\n",
			contested: false},
		{name: "headings about different items",
			a:         "## Token expiry\n\nTokens must expire after 15 minutes.\n",
			b:         "## Audit trail\n\nEvery login must be written to the audit log within 2 seconds.\n",
			contested: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := contestInput(t, tt.a, tt.b, tt.conflictAt)
			got := contestedPoints(in, in.Analysis.Points, nil)
			assert.Equal(t, tt.contested, contains(got, "C-001"), "contested: %v", got)
			assert.Contains(t, got, "S-001", "a structural point is contested")
			assert.NotContains(t, got, "U-001", "a unique contribution is not")
		})
	}
}

// contestInput builds a debate input over two one-section documents with
// a structural point, the content point C-001 on their section, a unique
// contribution and, when conflictAt > 0, a contradiction quoting that line
// of both.
func contestInput(t *testing.T, a, b string, conflictAt int) Input {
	t.Helper()
	var docs []*diff.Document
	for i, body := range []string{a, b} {
		d, err := diff.Parse(diff.Label(i)+".md", []byte("# Design\n\n"+body))
		require.NoError(t, err)
		docs = append(docs, d)
	}
	an := &diff.Analysis{Variants: []diff.VariantInfo{{Label: "A"}, {Label: "B"}}}
	both := []diff.Position{{Section: 1}, {Section: 1}}
	an.Points = []diff.Point{
		{ID: "S-001", Category: diff.CategoryStructural, Positions: both},
		{ID: "C-001", Category: diff.CategoryContent, Positions: both},
	}
	if conflictAt > 0 {
		an.Points = append(an.Points, diff.Point{ID: "X-001", Category: diff.CategoryContradiction, Scope: diff.CrossVariant,
			Positions: both, Evidence: []diff.Evidence{{Variant: 0, Line: conflictAt}, {Variant: 1, Line: conflictAt}}})
	}
	an.Points = append(an.Points, diff.Point{ID: "U-001", Category: diff.CategoryUnique, Positions: []diff.Position{{Section: 1}, {Section: -1}}})
	in := Input{Analysis: an}
	for i, d := range docs {
		in.Variants = append(in.Variants, Variant{Label: diff.Label(i), Doc: d})
	}
	return in
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// A variant left out of the debate (an elimination round) takes no
// position: the point is contested only among the variants debated.
func TestContestedAmongDebatedVariantsOnly(t *testing.T) {
	in := contestInput(t, "## Token store\n\nTokens must be kept in Redis with a 15 minute expiry.\n",
		"## Token store\n\nTokens should live in signed cookies so the service stays stateless.\n", 0)
	require.Contains(t, contestedPoints(in, in.Analysis.Points, nil), "C-001")
	in.Variants = in.Variants[:1]
	assert.NotContains(t, contestedPoints(in, in.Analysis.Points, nil), "C-001")
}

// A Result from before ContestedPoints existed counts every point but the
// unique contributions.
func TestContestedSetWithoutList(t *testing.T) {
	r := &Result{Unresolved: []string{"C-001", "U-001"}}
	assert.Equal(t, []string{"C-001"}, r.UnresolvedConflicts())
	r.ContestedPoints = []string{}
	assert.Equal(t, []string{}, r.UnresolvedConflicts())
}

// Outcome says what the transcript's assessment and the return contract
// say: both convergence figures, the status and the open conflicts only.
func TestOutcomeNamesTheContestedFigures(t *testing.T) {
	r := &Result{Threshold: 0.8, Status: NotConverged, ContestedPoints: []string{"S-001", "X-001"},
		Unresolved: []string{"X-001", "C-002"}, Consensus: Consensus{Convergence: 0.5, Overall: 2.0 / 3}}
	assert.Equal(t, "convergence 50% of contested points (66% of all points), NOT_CONVERGED at the 80% threshold; unresolved conflicts: X-001", r.Outcome())
	r.Unresolved = []string{"C-002"}
	assert.Equal(t, "convergence 50% of contested points (66% of all points), NOT_CONVERGED at the 80% threshold; no unresolved conflicts", r.Outcome())
	assert.Contains(t, r.Markdown(), "- Uncontested points left open: C-002 (not conflicts)")
	assert.Contains(t, r.Markdown(), "- Unresolved points: none")
}

// TestNewSectionLists checks the grouping of (section, index) pairs,
// given in index order: each section's indexes in order, each once, and
// pairs outside the sections dropped.
func TestNewSectionLists(t *testing.T) {
	l := newSectionLists(3, [][2]int{{2, 0}, {0, 0}, {2, 0}, {1, 1}, {-1, 1}, {2, 1}, {0, 2}, {0, 2}, {3, 2}, {2, 2}})
	assert.Equal(t, []int{0, 2}, l.under(0, 1))
	assert.Equal(t, []int{1}, l.under(1, 2))
	assert.Equal(t, []int{0, 1, 2}, l.under(2, 3))
	assert.Equal(t, []int{0, 2, 1, 0, 1, 2}, l.under(0, 3))
	assert.Empty(t, newSectionLists(2, nil).under(0, 2))
}
