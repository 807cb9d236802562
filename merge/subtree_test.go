package merge

import (
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
		{Base: "1.2 Constants", Fate: SubsectionKept},
	}, c.Subsections)
	assert.Contains(t, c.Integration, `Subsections kept as they are: "Constants"; replaced by the source's of the same title: "Schema"; added from the source: "Indexes", "Eviction".`)
	checkJSONRoundTrip(t, p)

	// the merge does what the plan says
	m := merge(t, in.Base.Doc, c)
	assert.Equal(t, []string{"# S [base]", "## 1. Storage [B 1 #1]", "### 1.1 Indexes [B 1.1 #1]", "### 1.2 Schema [B 1.2 #1]", "### 1.3 Eviction [B 1.3 #1]", "### 1.4 Constants [modified]", "## 2. Ops [base]"}, headings(m))
	assert.Contains(t, m.Output, "TTL = 30.", "the kept subsection keeps its text")
	assert.NotContains(t, m.Output, "\nT.\n", "the replaced subsection takes the source's text")
}

func TestMergeOrder(t *testing.T) {
	tests := []struct {
		name  string
		nBase int
		pair  []int
		want  []slot
	}{
		{"no source subsections", 2, nil, []slot{{0, -1}, {1, -1}}},
		{"only new ones keep their order", 1, []int{-1, -1}, []slot{{-1, 0}, {-1, 1}, {0, -1}}},
		{"a new one follows its previous sibling's match", 3, []int{1, -1, 0}, []slot{{0, 2}, {1, 0}, {-1, 1}, {2, -1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, mergeOrder(tt.nBase, tt.pair))
		})
	}
}
