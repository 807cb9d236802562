package merge

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
