package merge

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewPlanReplaceSaysWhatHappensToSubsections(t *testing.T) {
	in := PlanInput{
		Base: Variant{Label: "A", Doc: mustParse(t, "a.md", "# S\n\n## 1. Storage\n\nx\n\n### 1.1 Schema\n\nT.\n\n### 1.2 Constants\n\nTTL = 30.\n\n## 2. Ops\n\ny\n")},
		Variants: []Variant{{Label: "B", Doc: mustParse(t, "b.md",
			"# S\n\n## Storage\n\nBetter.\n\n### Indexes\n\nI.\n\n### Schema\n\nT2.\n\n### Eviction\n\nLRU.\n")}},
		Strengths: []Strength{{Variant: "B", Section: SectionRef{Title: "Storage"}}},
	}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	require.Len(t, p.Changes, 1)
	c := p.Changes[0]
	assert.Equal(t, Replace, c.Approach)
	assert.Equal(t, []Subsection{
		{Source: "Indexes", Fate: SubsectionAdded},
		{Base: "1.1 Schema", Source: "Schema", Fate: SubsectionReplaced},
		{Source: "Eviction", Fate: SubsectionAdded},
		{Base: "1.2 Constants", Fate: SubsectionKept}, // it closed the base's list
	}, c.Subsections)
	assert.Contains(t, c.Integration, `Subsections kept as they are: "Constants"; replaced by the source's of the same title: "Schema"; added from the source: "Indexes", "Eviction".`)
	checkJSONRoundTrip(t, p)

	// the merge does what the plan says
	m := merge(t, in.Base.Doc, c)
	assert.Equal(t, []string{"# S [base]", "## 1. Storage [B 1 #1]", "### 1.1 Indexes [B 1.1 #1]", "### 1.2 Schema [B 1.2 #1]", "### 1.3 Eviction [B 1.3 #1]", "### 1.4 Constants [modified]", "## 2. Ops [base]"}, headings(m))
	assert.Contains(t, m.Output, "TTL = 30.", "the kept subsection keeps its text")
	assert.NotContains(t, m.Output, "\nT.\n", "the replaced subsection takes the source's text")
}

// TestNewPlanReplaceByAFlatSectionCoversRepeatedFacets: a base that
// splits each phase into the same facets ("Objectives", "Milestone"),
// replaced by a variant's phase that states the whole item in one
// section, loses those facets to the source (two milestones otherwise);
// a subsection that is not a repeated facet stays, and a source too
// short to cover the item keeps them all.
func TestNewPlanReplaceByAFlatSectionCoversRepeatedFacets(t *testing.T) {
	base := "# Plan\n\n## Phase 1\n\n### Objectives\n\nParse.\n\n### Milestone\n\nM1: parser done.\n\n" +
		"## Phase 2\n\n### Objectives\n\nShip.\n\n### Milestone\n\nM2: shipped in week 3.\n\n### Rollback drill\n\nRun the drill twice.\n"
	long := "**Milestone:** release candidate tagged. 1. Run the full suite of unit and integration tests. 2. Verify the latency " +
		"target on the staging cluster with production-sized data. 3. Run lint and format. 4. Update the execution log and the " +
		"operator runbook with the new flags. **Deliverables:** green suite, signed release notes, and a tagged build."
	tests := []struct {
		name string
		body string
		want []Subsection
	}{
		{"a flat section covering the item", long, []Subsection{
			{Base: "Objectives", Source: "Phase 2", Fate: SubsectionCovered},
			{Base: "Milestone", Source: "Phase 2", Fate: SubsectionCovered},
			{Base: "Rollback drill", Fate: SubsectionKept},
		}},
		{"a section too short to cover it", "Ship it.", []Subsection{
			{Base: "Objectives", Fate: SubsectionKept},
			{Base: "Milestone", Fate: SubsectionKept},
			{Base: "Rollback drill", Fate: SubsectionKept},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := PlanInput{
				Base:      Variant{Label: "A", Doc: mustParse(t, "a.md", base)},
				Variants:  []Variant{{Label: "B", Doc: mustParse(t, "b.md", "# Plan\n\n## Phase 2\n\n"+tt.body+"\n")}},
				Strengths: []Strength{{Variant: "B", Section: SectionRef{Title: "Phase 2"}}},
			}
			p, err := NewPlan(in, WithClock(fixedClock))
			require.NoError(t, err)
			require.Len(t, p.Changes, 1)
			c := p.Changes[0]
			require.Equal(t, Replace, c.Approach)
			assert.Equal(t, tt.want, c.Subsections)
			m := merge(t, in.Base.Doc, c)
			assert.Contains(t, m.Output, "Run the drill twice.", "a subsection that is not a facet stays")
			assert.Contains(t, m.Output, "M1: parser done.", "another phase keeps its facets")
			if tt.want[0].Fate == SubsectionCovered {
				assert.Contains(t, c.Integration, `replaced by the source section as a whole, which covers the item without subsections (the base repeats these headings under each item): "Objectives", "Milestone".`)
				assert.NotContains(t, m.Output, "M2: shipped in week 3.", "one milestone for the phase: the source's")
				assert.Contains(t, m.Output, "release candidate tagged")
			} else {
				assert.Contains(t, m.Output, "M2: shipped in week 3.")
			}
		})
	}
}

func TestMergeOrder(t *testing.T) {
	tests := []struct {
		name  string
		nBase int
		pair  []int
		want  []slot
	}{
		{"no source subsections", 2, nil, []slot{{0, -1}, {1, -1}}},
		{"a lone base subsection opens the list", 1, []int{-1, -1}, []slot{{0, -1}, {-1, 0}, {-1, 1}}},
		{"the source's order; a closing base subsection still closes", 3, []int{1, -1, 0}, []slot{{1, 0}, {-1, 1}, {0, 2}, {2, -1}}},
		{"a base subsection the source lacks follows the one it followed", 3, []int{2, 0}, []slot{{2, 0}, {0, 1}, {1, -1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, mergeOrder(tt.nBase, tt.pair))
		})
	}
}

// TestNewPlanReplaceLeavesWhatOtherChangesBring: a replace of a parent
// does not undo the change that rewrote one of its subsections, nor lay
// its own copy of a section another change adds there; the plan says
// which change has each, and the merged document holds that change's
// text once.
func TestNewPlanReplaceLeavesWhatOtherChangesBring(t *testing.T) {
	base := mustParse(t, "a.md", "# S\n\n## Summary\n\nBase summary.\n\n### Critical issues\n\nBase issues.\n\n### Counts\n\nThree.\n")
	in := PlanInput{
		Base: Variant{Label: "A", Doc: base},
		Variants: []Variant{
			{Label: "B", Doc: mustParse(t, "b.md", "# S\n\n## Critical issues\n\nB issues, the debate's choice.\n\n## Warm-up\n\nB warms the cache.\n\n## Counts\n\nFour, by B.\n")},
			{Label: "C", Doc: mustParse(t, "c.md", "# S\n\n## Summary\n\nC summary.\n\n### Critical issues\n\nC issues.\n\n### Warm-up\n\nC warms up.\n")},
		},
		Strengths: []Strength{
			{Variant: "B", Section: SectionRef{Title: "Critical issues"}},
			{Variant: "B", Section: SectionRef{Title: "Warm-up"}, Target: SectionRef{Title: "Summary"}, Approach: Insert},
			{Variant: "B", Section: SectionRef{Title: "Counts"}},
			{Variant: "C", Section: SectionRef{Title: "Summary"}},
		},
	}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	require.Len(t, p.Changes, 4)
	summary := p.Changes[3]
	require.Equal(t, Replace, summary.Approach)
	assert.Equal(t, []Subsection{
		{Base: "Critical issues", Source: "Critical issues", Fate: SubsectionKept, Change: 1},
		{Source: "Warm-up", Fate: SubsectionLeft, Change: 2},
		{Base: "Counts", Fate: SubsectionKept, Change: 3},
	}, summary.Subsections)
	assert.Contains(t, summary.Integration, `left to another change: "Critical issues" (Change #1 rewrites it; the source's "Critical issues" is not brought), the source's "Warm-up" (Change #2 brings this topic), "Counts" (Change #3 rewrites it)`)
	assert.NotContains(t, summary.Integration, "kept as they are")

	m := merge(t, base, p.Changes...)
	assert.Contains(t, m.Output, "B issues, the debate's choice.")
	assert.Contains(t, m.Output, "B warms the cache.")
	assert.Contains(t, m.Output, "C summary.")
	assert.Contains(t, m.Output, "Four, by B.")
	for _, gone := range []string{"C issues.", "C warms up.", "Base issues.", "Three."} {
		assert.NotContains(t, m.Output, gone)
	}
	assert.Equal(t, 1, strings.Count(m.Output, "Warm-up\n"), "one section per topic")
}
