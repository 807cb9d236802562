package diff

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlacementConflicts(t *testing.T) {
	a := `# Roadmap A

## Phase 1: Data model and state

1. Extend ` + "`state.json`" + ` with the new step entries.
2. Add ` + "`Finding`" + ` dataclass.

## Phase 2: Orchestrator

1. Build the parallel executor on top of ` + "`Finding`" + `.
2. Generate ` + "`tasklist.md`" + ` from the findings.

## Phase 3: Resume support

1. Resume reads ` + "`state.json`" + ` after a crash.
`
	b := `# Roadmap B

## Phase 1 — Data model and state

1. Add ` + "`Finding`" + ` dataclass with stable ids.

## Phase 2 — Orchestrator

1. Generate ` + "`tasklist.md`" + ` from the findings.

## Phase 3 — Resume support

1. Extend ` + "`state.json`" + ` with additive fields only.
`
	da, err := Parse("a.md", []byte(a))
	require.NoError(t, err)
	db, err := Parse("b.md", []byte(b))
	require.NoError(t, err)
	an, err := Analyze(context.Background(), []*Document{da, db})
	require.NoError(t, err)
	var found []Point
	for _, p := range an.ByCategory(CategoryContradiction) {
		if p.Kind == string(ScopeConflict) {
			found = append(found, p)
		}
	}
	require.Len(t, found, 1, "Finding is built in two phases of A (no placement); tasklist.md in the same phase of both")
	p := found[0]
	assert.Equal(t, "Phase in which `state.json` is built", p.Title)
	assert.Equal(t, []int{5, 13}, []int{p.Evidence[0].Line, p.Evidence[1].Line}, "the building statements, not the use in A's Phase 3")
}

func TestLeadingIdentifier(t *testing.T) {
	for span, want := range map[string]string{
		`PhaseStatus.PREFLIGHT_PASS = "preflight_pass"`: "PhaseStatus.PREFLIGHT_PASS",
		".roadmap-state.json":                           ".roadmap-state.json",
		"run(config)":                                   "run",
		"  tasklist.md ":                                "tasklist.md",
	} {
		assert.Equal(t, want, leadingIdentifier(span), span)
	}
}
