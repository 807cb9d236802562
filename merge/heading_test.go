package merge

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReplacedTitle(t *testing.T) {
	tests := []struct {
		name, base, src, want string // want "": the base's heading stays
	}{
		{"nearly the same title", "3. Risk Assessment and Mitigation", "Risk Assessment & Mitigation", ""},
		{"the same words", "2.1 Goals", "goals", ""},
		{"no labels: the source's title, the base's number", "8.2 Critical issues requiring correction", "Overall assessment", "8.2 Overall assessment"},
		{"the same label, another description", "3.1 Bug 1 Fix: Agent Mismatch Guard", "Bug 1: Restore Agents from State File", "3.1 Bug 1 Fix: Restore Agents from State File"},
		{"the base numbers its items its own way", "Phase 6. Test hardening and rollback proof", "Phase 5: Polish & Validation", "Phase 6. Polish & Validation"},
		{"the base's separator", "3.2 Bug 2 Fix -- State-Driven Paths", "Fix 2: Distinguish missing files", "3.2 Bug 2 Fix -- Distinguish missing files"},
		{"a label alone in the source", "Phase 6. Test hardening", "Phase 5", "Phase 6"},
		{"one separator mark", "3.1 Phase 6. Guard", "Phase 5: --resume restores agents", "3.1 Phase 6. --resume restores agents"},
		{"a verdict in the base's title", "1.8 Delta 2.1 (spec-patch) — Finding is accurate", "Delta 2.1 -- Spec-patch auto-resume still present", "1.8 Delta 2.1 -- Spec-patch auto-resume still present"},
		{"labels of different kinds", "C-1: Pre-write dead-man's switch (MEDIUM)", "SOL-D: DISCARD", ""},
		{"a bug's fix and the fix of the same number", "3.2 Bug 2 Fix: State-Driven Paths", "Fix 2: Distinguish missing files", "3.2 Bug 2 Fix: Distinguish missing files"},
		{"a fix of another number", "3.2 Bug 2 Fix: State-Driven Paths", "Fix 3: Distinguish missing files", ""},
		{"a bug against a fix", "3.2 Bug 2: State-Driven Paths", "Fix 2: Distinguish missing files", ""},
		{"a section sign against capitals", "3.1 §4.4 Replacement Text — Detailed Critique", "SS4.4 Replacement Language", ""},
		{"a label on one side only", "OV-4: Pre-writing the result file", "Claim Under Challenge", ""},
		{"a label on the source's side only", "Testing", "Phase 5: Polish & Validation", ""},
		{"an empty source title", "2. Scope", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := replacedTitle(tt.base, tt.src)
			assert.Equal(t, tt.want != "", ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestReplaceTakesTheSourceTitle: the merged heading keeps the base's
// number and item label and takes the source's words, code spans kept;
// the plan says so.
func TestReplaceTakesTheSourceTitle(t *testing.T) {
	in := PlanInput{
		Base: Variant{Label: "A", Doc: mustParse(t, "a.md", "# Fixes\n\n## 3. Fixes\n\n### 3.1 Bug 1 Fix: Agent Mismatch Guard in `run()`\n\nRefuse to resume.\n")},
		Variants: []Variant{{Label: "B", Doc: mustParse(t, "b.md",
			"# Fixes\n\n## Bug 1: `--resume` Restores Agents from State\n\nRestore the agents from the state file.\n")}},
		Strengths: []Strength{{Variant: "B", Section: SectionRef{Title: "Bug 1: --resume Restores Agents from State"},
			Target: SectionRef{Title: "Bug 1 Fix: Agent Mismatch Guard in run()"}, Approach: Replace}},
	}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	require.Len(t, p.Changes, 1)
	c := p.Changes[0]
	assert.Equal(t, "3.1 Bug 1 Fix: --resume Restores Agents from State", c.Heading)
	assert.Contains(t, c.Integration, `the heading becomes "3.1 Bug 1 Fix: --resume Restores Agents from State": the base's title describes the text replaced`)
	m := merge(t, in.Base.Doc, c)
	assert.Contains(t, m.Output, "### 3.1 Bug 1 Fix: `--resume` Restores Agents from State\n")
	assert.NotContains(t, m.Output, "Agent Mismatch Guard")
}

// TestReplaceKeepsTheHeadingAnchor: a retitled heading keeps its explicit
// anchor, which references name.
func TestReplaceKeepsTheHeadingAnchor(t *testing.T) {
	base := mustParse(t, "a.md", "# Doc\n\n## 2. Guard Design {#guard}\n\nRefuse.\n\n## 3. Notes\n\nSee [the fix](#guard).\n")
	m := merge(t, base, Change{Number: 1, Title: "Restore", Approach: Replace, Target: SectionRef{Number: "2", Title: "2. Guard Design"},
		Heading: "2. Restore From State", Source: SourceSection{Variant: VariantRef{Label: "B"}, Section: SectionRef{Title: "Restore From State"},
			Text: "## Restore From State\n\nRestore the agents.\n"}})
	assert.Contains(t, m.Output, "## 2. Restore From State {#guard}\n")
	assert.True(t, m.Log.Validation.References.Passed, "%+v", m.Log.Validation.References)
}
