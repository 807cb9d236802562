package diff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// relatedFixture is a review whose summary names what two finding
// sections examine; one identifier, executor.py, is in every statement.
func relatedFixture(t *testing.T) ([]*Document, []detPart) {
	t.Helper()
	var src strings.Builder
	src.WriteString("# Review\n\n## Summary\n\nThe logger crashes on PASS_RECOVERED with a KeyError (executor.py).\n\n")
	src.WriteString("## Finding 1\n\nThe `GateDisplayState` enum is purely rendering metadata (executor.py).\n\n")
	for i := range maxIdentUses {
		fmt.Fprintf(&src, "Filler sentence %d about executor.py and nothing else of note.\n\n", i)
	}
	src.WriteString("## Finding 2\n\nThe logger uses if/elif and silently drops PASS_RECOVERED (executor.py).\n\n")
	src.WriteString("## Finding 3\n\n`GATE_DISPLAY_TRANSITIONS` makes `GateDisplayState` a state machine (executor.py).\n\n")
	src.WriteString("## Notes\n\nThe file under review is executor.py.\n")
	d, err := Parse("a.md", []byte(src.String()))
	require.NoError(t, err)
	docs := []*Document{d}
	stmts := buildStatements(d, 0)
	parts := make([]detPart, 0, len(d.Sections))
	for si := range d.Sections {
		p := detPart{topics: []string{d.Sections[si].Title}}
		for i := range stmts {
			if stmts[i].section == si {
				p.stmts = append(p.stmts, &stmts[i])
			}
		}
		if len(p.stmts) > 0 {
			p.tokens = estimateTokens(p.render(docs))
			parts = append(parts, p)
		}
	}
	return docs, parts
}

func partOf(parts []detPart, title string) *detPart {
	for i := range parts {
		if parts[i].topics[0] == title {
			return &parts[i]
		}
	}
	return nil
}

func lines(p *detPart) []int {
	var out []int
	for _, s := range p.stmts {
		out = append(out, s.line)
	}
	return out
}

func TestAddRelated(t *testing.T) {
	tests := []struct {
		name    string
		room    int
		part    string
		related []string // texts of statements added to part
	}{
		{"a summary gets the finding that names its identifier", 10000, "Summary", []string{"silently drops PASS_RECOVERED"}},
		{"a finding gets the other finding on the same type", 10000, "Finding 1", []string{"GATE_DISPLAY_TRANSITIONS"}},
		{"and that one the first", 10000, "Finding 3", []string{"purely rendering metadata"}},
		{"an identifier in every section links nothing", 10000, "Notes", nil},
		{"no room left in the request, nothing added", 1, "Summary", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, parts := relatedFixture(t)
			before := partOf(parts, tt.part)
			require.NotNil(t, before)
			own := len(before.stmts)
			ownTokens := before.tokens
			parts = addRelated(docs, parts, tt.room)
			p := partOf(parts, tt.part)
			assert.Equal(t, len(tt.related), p.related)
			require.Len(t, p.stmts, own+len(tt.related), "statements %v", lines(p))
			for i, want := range tt.related {
				assert.Contains(t, p.stmts[own+i].text, want)
			}
			if p.related == 0 {
				assert.Equal(t, ownTokens, p.tokens)
			}
			assert.LessOrEqual(t, p.tokens, max(tt.room, ownTokens), "the request stays within its room")
		})
	}
}

func TestAddRelatedLeavesTheFinalPart(t *testing.T) {
	docs, parts := relatedFixture(t)
	final := detPart{topics: []string{"summaries and totals"}, stmts: parts[0].stmts[:1], final: true}
	parts = append(parts, final)
	parts = addRelated(docs, parts, 10000)
	assert.Zero(t, parts[len(parts)-1].related)
	assert.Len(t, parts[len(parts)-1].stmts, 1)
}
