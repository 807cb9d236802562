package diff

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/internal/samplegen"
)

// dump renders a Document as stable text for golden files.
func dump(d *Document) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\ntitle: %q\nlines: %d\nwords: %d\n", d.Name, d.Title, d.Lines, d.Words)
	if fm := d.FrontMatter; fm != nil {
		data, _ := json.Marshal(fm.Data)
		fmt.Fprintf(&b, "front matter: [%d,%d) %s\n", fm.Span.Start, fm.Span.End, data)
	}
	fmt.Fprintf(&b, "top level: %v\nmax depth: %d\nheading counts: %v\n", d.TopLevel(), d.MaxDepth(), d.HeadingCounts())
	b.WriteString("sections:\n")
	for i, s := range d.Sections {
		fmt.Fprintf(&b, "  [%d] H%d %q number=%q depth=%d line=%d heading=[%d,%d) span=[%d,%d) parent=%d children=%v\n",
			i, s.Level, s.Title, s.Number, s.Depth, s.Line, s.Heading.Start, s.Heading.End, s.Span.Start, s.Span.End, s.Parent, s.Children)
		fmt.Fprintf(&b, "      heading source: %q\n", d.Text(s.Heading))
	}
	b.WriteString("blocks:\n")
	for _, blk := range d.Blocks {
		fmt.Fprintf(&b, "  %s L%d-%d [%d,%d) section=%d", blk.Kind, blk.Line, blk.EndLine, blk.Span.Start, blk.Span.End, blk.Section)
		if blk.Header {
			b.WriteString(" header")
		}
		if blk.Cells != nil {
			fmt.Fprintf(&b, " cells=%q", blk.Cells)
		}
		fmt.Fprintf(&b, "\n      text: %q\n      source: %q\n", blk.Text, d.Text(blk.Span))
	}
	return b.String()
}

func TestParseGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/docs/*.md")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			d, err := Parse(filepath.Base(path), src)
			require.NoError(t, err)
			checkInvariants(t, d)
			got := dump(d)
			checkGolden(t, strings.TrimSuffix(path, ".md")+".golden", got)
		})
	}
}

// checkInvariants asserts what must hold for every parsed document.
func checkInvariants(t testing.TB, d *Document) {
	t.Helper()
	n := len(d.Source)
	inside := func(what string, s Span) {
		if s.Start < 0 || s.End > n || s.Start > s.End {
			t.Fatalf("%s span [%d,%d) outside source of %d bytes", what, s.Start, s.End, n)
		}
	}
	atLineStart := func(what string, off int) {
		if off != 0 && off < n && d.Source[off-1] != '\n' {
			t.Fatalf("%s starts mid-line at %d", what, off)
		}
	}
	if norm, err := Normalize([]byte(d.Source)); err != nil || string(norm) != d.Source {
		t.Fatalf("Source is not normalised (err %v)", err)
	}
	for i, s := range d.Sections {
		what := fmt.Sprintf("section %d %q", i, s.Title)
		inside(what, s.Span)
		inside(what+" heading", s.Heading)
		atLineStart(what, s.Span.Start)
		if s.Heading.Start != s.Span.Start || !s.Span.Contains(s.Heading) {
			t.Fatalf("%s: heading [%d,%d) not at the start of span [%d,%d)", what, s.Heading.Start, s.Heading.End, s.Span.Start, s.Span.End)
		}
		if s.Level < 1 || s.Level > 6 {
			t.Fatalf("%s: level %d", what, s.Level)
		}
		if d.LineAt(s.Span.Start) != s.Line {
			t.Fatalf("%s: line %d, LineAt says %d", what, s.Line, d.LineAt(s.Span.Start))
		}
		if s.Parent >= 0 {
			p := d.Sections[s.Parent]
			if !p.Span.Contains(s.Span) || p.Level >= s.Level || s.Parent >= i {
				t.Fatalf("%s not properly inside its parent %d", what, s.Parent)
			}
		}
		for j := range i {
			o := d.Sections[j]
			disjoint := o.Span.End <= s.Span.Start
			if !disjoint && !o.Span.Contains(s.Span) {
				t.Fatalf("sections %d and %d overlap without nesting", j, i)
			}
			if o.Span.Contains(s.Span) && !isAncestor(d, j, i) {
				t.Fatalf("section %d contains %d but is not its ancestor", j, i)
			}
		}
	}
	for i, blk := range d.Blocks {
		what := fmt.Sprintf("block %d (%s %q)", i, blk.Kind, blk.Text)
		inside(what, blk.Span)
		atLineStart(what, blk.Span.Start)
		if i > 0 && d.Blocks[i-1].Span.End > blk.Span.Start {
			t.Fatalf("%s overlaps the block before it", what)
		}
		if blk.Text == "" {
			t.Fatalf("%s has no text", what)
		}
		if d.LineAt(blk.Span.Start) != blk.Line || blk.EndLine < blk.Line {
			t.Fatalf("%s: lines %d-%d inconsistent", what, blk.Line, blk.EndLine)
		}
		if got := d.SectionAt(blk.Span.Start); got != blk.Section {
			t.Fatalf("%s: section %d, SectionAt says %d", what, blk.Section, got)
		}
		if blk.Section >= 0 && !d.Sections[blk.Section].Span.Contains(blk.Span) {
			t.Fatalf("%s spills out of its section", what)
		}
		if d.FrontMatter != nil && blk.Span.Start < d.FrontMatter.Span.End {
			t.Fatalf("%s lies in the front matter", what)
		}
	}
}

func isAncestor(d *Document, a, b int) bool {
	for p := d.Sections[b].Parent; p >= 0; p = d.Sections[p].Parent {
		if p == a {
			return true
		}
	}
	return false
}

func TestBlockIndicators(t *testing.T) {
	d, err := Parse("v", []byte("# Plan\n\nRespond within 200 ms on PostgreSQL.\n\nScale as appropriate.\n\n```\ntimeout = 30s\n```\n"))
	require.NoError(t, err)
	got := d.BlockIndicators()
	require.Len(t, got, len(d.Blocks))
	want := map[string]Indicators{
		"Respond within 200 ms on PostgreSQL.": {Concrete: 2},
		"Scale as appropriate.":                {Vague: 1},
		"timeout = 30s":                        {},
	}
	seen := 0
	for i, b := range d.Blocks {
		if w, ok := want[strings.TrimSpace(b.Text)]; ok {
			seen++
			assert.Equal(t, w, got[i], "block %q", b.Text)
		}
	}
	assert.Equal(t, len(want), seen, "every block checked")
	assert.Same(t, &got[0], &d.BlockIndicators()[0], "the document counts once")
}

// TestLowerBlocks holds the document's lower-cased blocks, most of them
// cut from one string, to strings.ToLower of each block.
func TestLowerBlocks(t *testing.T) {
	srcs := [][]byte{
		[]byte("# Title\n\nPlain ASCII Text.\n\nÜber RÉSUMÉ and \u212a.\n\nno capitals here\n\n| A | B |\n|---|---|\n| X1 | y |\n"),
		samplegen.Spec(7, 16<<10),
	}
	for _, src := range srcs {
		d, err := Parse("v.md", src)
		require.NoError(t, err)
		lower := d.lowerBlocks()
		require.Len(t, lower, len(d.Blocks))
		for i, b := range d.Blocks {
			require.Equal(t, strings.ToLower(b.Text), lower[i], "block %d", i)
		}
	}
}
