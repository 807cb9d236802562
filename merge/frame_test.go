package merge

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNeutralTitle(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Caching Design — Architect Perspective", "Caching Design"},
		{"Caching Design (Security Viewpoint)", "Caching Design"},
		{"Variant 1: Architect Validation -- Cross-Spec Overlap Analysis", "Cross-Spec Overlap Analysis"},
		{"Proposal A — Background Subprocess, Sidecar-Only, Opt-in Flag", "Background Subprocess, Sidecar-Only, Opt-in Flag"},
		{"Caching Design from the Guardian's perspective", "Caching Design"},
		{"Guardian Notes -- Caching", "Caching"},
		{"Project Roadmap", "Project Roadmap"},
		{"Architect Perspective", "Architect Perspective"}, // nothing would be left
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, neutralTitle(tt.in, []string{"guardian"}))
		})
	}
}

func TestDocumentFrame(t *testing.T) {
	base := mustParse(t, "a.md", "\n\n---\ntitle: S\n---\n# Caching — Architect Perspective\n\n## Intro\n\nx\n")
	m := merge(t, base, change(1, Append, SectionRef{Title: "Intro"}, "## Security\n\ny\n"))
	assert.True(t, strings.HasPrefix(m.Output, "---\ntitle: S\n---\n"+ProvenanceLine+"\n"), "front matter first, provenance after it:\n%s", m.Output)
	assert.Contains(t, m.Output, "# Caching\n<!-- Source: Base (original, modified) — title neutralised: it named one variant's perspective over merged content -->\n")

	plain := merge(t, base)
	assert.Contains(t, plain.Output, "# Caching — Architect Perspective\n<!-- Source: Base (original) -->", "nothing merged in: the base's title stays")
	assert.True(t, strings.HasPrefix(plain.Output, "---\n"))
}

// TestProvenanceHeaderBeforeABlankLine: a base that opens with blank
// lines gets the header, one blank line, then its first heading.
func TestProvenanceHeaderBeforeABlankLine(t *testing.T) {
	base := mustParse(t, "a.md", "\n\n# Caching\n\n## Intro\n\nx\n")
	m := merge(t, base, change(1, Append, SectionRef{Title: "Intro"}, "## Security\n\ny\n"))
	assert.Contains(t, m.Output, " -->\n\n# Caching\n")
	assert.NotContains(t, m.Output, "\n\n\n")
}

func TestDropReplacedParts(t *testing.T) {
	gate := Amendment{Old: "**Choice: Option A (sidecar-only) for v1.**", New: "**Choice: Option D (configurable) with sidecar as the default.**"}
	boundary := Amendment{Old: "Option B (background subprocess, never blocks)", New: "Option B (background subprocess), with a soft-join checkpoint"}
	tests := []struct {
		name, title string
		amendments  []Amendment
		want        string
		dropped     []string
	}{
		{"a choice the merge replaced", "Background Subprocess, Sidecar-Only, Opt-in Flag", []Amendment{gate, boundary}, "Background Subprocess, Opt-in Flag", []string{`"Sidecar-Only"`}},
		{"the last part", "Background Subprocess, Opt-in Flag, Sidecar-Only", []Amendment{gate}, "Background Subprocess, Opt-in Flag", []string{`"Sidecar-Only"`}},
		// the new text states it too: the choice stands
		{"a value the new text keeps", "Background Subprocess, Sidecar-Only", []Amendment{boundary}, "Background Subprocess, Sidecar-Only", nil},
		{"no list", "Sidecar-Only Integration", []Amendment{gate}, "Sidecar-Only Integration", nil},
		{"no amendments", "Background Subprocess, Sidecar-Only", nil, "Background Subprocess, Sidecar-Only", nil},
		// every part replaced: the title stays whole
		{"nothing would be left", "Sidecar-Only, Option A", []Amendment{gate}, "Sidecar-Only, Option A", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, dropped := dropReplacedParts(tt.title, tt.amendments)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.dropped, dropped)
		})
	}
}

// TestFrameTitleDropsReplacedChoice: the title's list names the base's
// gate choice, which the plan's amendment replaced; the merged title no
// longer names it, and its tag says why.
func TestFrameTitleDropsReplacedChoice(t *testing.T) {
	base := mustParse(t, "a.md", "# Proposal A — Subprocess, Sidecar-Only\n\n## Gate\n\n**Choice: sidecar-only.**\n\n## Risks\n\nx\n")
	p := planOf(base, change(1, Append, SectionRef{Title: "Risks"}, "## Security\n\ny\n"))
	p.Amendments = []Amendment{{Subject: "Gate / Choice", Section: SectionRef{Title: "Gate"},
		Old: "**Choice: sidecar-only.**", New: "**Choice: configurable, halting on regression.**"}}
	m, err := NewSectionMerger(WithClock(fixedClock)).Merge(context.Background(), Input{Base: base, Plan: p})
	require.NoError(t, err)
	assert.Contains(t, m.Output, "# Subprocess\n<!-- Source: Base (original, modified) — title neutralised: it named one variant's perspective over merged content; \"Sidecar-Only\" stated the base's value the merge replaced -->\n")
	assert.Contains(t, m.Output, "**Choice: configurable, halting on regression.**")
}

// FuzzTitleRewrites runs the title rewrites on arbitrary titles (they
// come from the variants): no panic, a title never empties, and the
// rewrites only remove text — every part kept is in the input.
func FuzzTitleRewrites(f *testing.F) {
	for _, s := range []string{"Proposal A — Background Subprocess, Sidecar-Only, Opt-in Flag", "Phase 6. Test hardening", ", , ,", " — ", "Bug 1 Fix: x"} {
		f.Add(s, "Phase 5: Polish & Validation", "**Choice: sidecar-only.**", "**Choice: configurable.**")
	}
	f.Fuzz(func(t *testing.T, title, src, old, nw string) {
		got, dropped := dropReplacedParts(title, []Amendment{{Old: old, New: nw}})
		if len(dropped) > 0 && strings.TrimSpace(got) == "" {
			t.Fatalf("dropReplacedParts(%q) emptied the title", title)
		}
		for _, p := range titleListRE.Split(got, -1) {
			if !strings.Contains(title, p) {
				t.Fatalf("dropReplacedParts(%q) = %q: part %q is not the title's", title, got, p)
			}
		}
		_, _ = replacedTitle(title, src)
		_ = neutralTitle(title, []string{src})
	})
}
