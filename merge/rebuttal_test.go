package merge

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewPlanRebuttal(t *testing.T) {
	// B's "Why not Proposal A's choice" argues against the base by the
	// name A's title gives it: an argument about a variant, not content.
	// B's other unique section is taken as usual.
	const (
		a       = "# Proposal A — Sidecar\n\nLead.\n\n## T1 — Boundary\n\nSidecar.\n"
		bRebut  = "# Proposal B — Gate\n\nLead.\n\n## T1 — Boundary\n\nGate.\n\n## Risks\n\nStalls.\n\n## Why not Proposal A's choice\n\nIt delays the value.\n"
		bNested = "# Proposal B — Gate\n\nLead.\n\n## T1 — Boundary\n\nGate.\n\n## Risks\n\nStalls.\n\n## Against Proposal A\n\n### Cost\n\nIt delays the value.\n"
	)
	tests := []struct {
		name      string
		base, src string
		section   string
		rejected  bool
		source    string // the section the rejection names, when not section
	}{
		{"heading names the base", a, bRebut, "Why not Proposal A's choice", true, ""},
		// a subsection the base has no place for comes with its parent
		{"a parent heading names the base", a, bNested, "Cost", true, "Against Proposal A"},
		{"an unnamed section", a, bRebut, "Risks", false, ""},
		// the base's title gives no designation: "Proposal A" names nothing the
		// variants call themselves
		{"designation no title uses", "# Sidecar design\n\nLead.\n\n## T1 — Boundary\n\nSidecar.\n", bRebut, "Why not Proposal A's choice", false, ""},
		// "Option A" where the titles say "Proposal": content
		{"another word", a, "# Proposal B — Gate\n\nLead.\n\n## Why not Option A\n\nIt blocks.\n", "Why not Option A", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := PlanInput{
				Base:     Variant{Label: "A", Doc: mustParse(t, "a.md", tt.base)},
				Variants: []Variant{{Label: "B", Doc: mustParse(t, "b.md", tt.src)}},
				Strengths: []Strength{{Variant: "B", Section: SectionRef{Title: tt.section},
					Description: "Variant B's section " + tt.section, Why: "unique contribution"}},
			}
			p, err := NewPlan(in, WithClock(fixedClock))
			require.NoError(t, err)
			if !tt.rejected {
				require.Len(t, p.Changes, 1)
				for _, r := range p.Rejected {
					assert.NotContains(t, r.Rationale, "argues about")
				}
				return
			}
			assert.Empty(t, p.Changes)
			require.Len(t, p.Rejected, 1)
			assert.Contains(t, p.Rejected[0].Rationale, "argues about Proposal A (Variant A)")
			want := tt.source
			if want == "" {
				want = tt.section
			}
			assert.Contains(t, p.Rejected[0].NonBase, want)
		})
	}
}
