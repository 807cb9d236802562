package refs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFindFromTree: what goldmark's tree decides — a link is a reference
// by its destination, code, HTML and headings hide their text, and the
// text of tables, lists and quotes is prose.
func TestFindFromTree(t *testing.T) {
	checkFind(t, []findCase{
		{"link inside a code span", "Write `[x](#a)` for a link; Section 1 counts.", []string{"section:1=Section 1"}},
		{"sign inside a code span", "The `§3` macro and ``Section `4` `` stay code.", nil},
		{"link to a URL", "[Section 2](https://example.com/#section-2)", nil},
		{"link to another file", "[Milestone M1](plan.md#m1) and [spec](spec.md)", nil},
		{"link in emphasis", "Read *[the cache](#cache)* now.", []string{"anchor:cache=[the cache](#cache)"}},
		{"link at a line end", "Read [the cache](#cache)\nand more.", []string{"anchor:cache=[the cache](#cache)"}},
		{"link with title and angle brackets", `[w](<#d e> "t") then [v](#x 'u')`, []string{`anchor:d e=[w](<#d e> "t")`, "anchor:x=[v](#x 'u')"}},
		{"empty anchor", "[](#)", []string{"anchor:=[](#)"}},
		{"inline HTML", `<span title="Section 3">x</span> and §4`, []string{"section:4=§4"}},
		{"emphasis markers are not text", "Section **3.2** applies.", []string{"section:3.2=Section **3.2"}},
		{"table cell", "| a | b |\n|---|---|\n| see Section 2 | [c](#c) |", []string{"section:2=Section 2", "anchor:c=[c](#c)"}},
		{"cells do not run together", "| Section 2 | and 3 |\n|---|---|\n| x | y |", []string{"section:2=Section 2"}},
		{"list item", "- first per Milestone M2\n  - nested, see [z](#z)", []string{"milestone:M2=Milestone M2", "anchor:z=[z](#z)"}},
		{"block quote", "> quoted [y](#y)\n> and §5", []string{"anchor:y=[y](#y)", "section:5=§5"}},
		{"heading in a list item", "- ## Section 3\n- see [x](#x)", []string{"anchor:x=[x](#x)"}},
		{"code block in a list item", "- item\n\n      Section 6 is code\n", nil},
	})
}

func TestProse(t *testing.T) {
	src := "---\nk: v\n---\n# Title `x`\n\nText `code` [l](u.md) <b>bold</b> *em*.\n\n```\ncode\n```\n\n| a | b |\n|---|---|\n| c | d |\n"
	d := parse(t, src)
	p := Prose(d)
	require.Len(t, p, len(d.Source))
	for i := range p {
		if p[i] != ' ' && p[i] != '\n' {
			assert.Equal(t, d.Source[i], p[i], "offset %d", i)
		}
	}
	words := strings.Fields(p)
	assert.Equal(t, []string{"Text", "bold", "em", ".", "a", "b", "c", "d"}, words)
	assert.Empty(t, Prose(nil))
}

func TestIndexAnchors(t *testing.T) {
	d := parse(t, "# Doc\n\n## FAQ\n\n## FAQ\n\n## FAQ\n\n## FAQ-1\n\n## Custom {#my-id}\n\n- ## In a list\n\n"+
		"```\n<a id=\"in-code\"></a>\n```\n\n<div id=\"block\"></div>\n\nText <a name=\"inline\"></a>.\n\n## Über “Quotes” — 2²\n")
	x := NewIndex(d)
	sec := func(title string) int {
		for i, s := range d.Sections {
			if s.Title == title {
				return i
			}
		}
		return -2
	}
	for target, want := range map[string]int{
		"faq":              sec("FAQ"),
		"faq-1":            sec("FAQ") + 1,
		"faq-2":            sec("FAQ") + 2,
		"faq-1-1":          sec("FAQ-1"), // GitHub: a taken "faq-1" is suffixed again
		"my-id":            sec("Custom {#my-id}"),
		"MY-ID":            sec("Custom {#my-id}"),
		"custom":           sec("Custom {#my-id}"),
		"in-a-list":        sec("Custom {#my-id}"), // nested headings are anchors too
		"block":            sec("Custom {#my-id}"),
		"inline":           sec("Custom {#my-id}"),
		"über-quotes--2":   sec("Über “Quotes” — 2²"),
		"in-code":          -2,
		"custom-my-id":     -2,
		"über-quotes--22":  -2,
		"faq-3":            -2,
		"doc":              sec("Doc"),
		"does-not-resolve": -2,
	} {
		got, ok := x.Resolve(Ref{Kind: Anchor, Target: target})
		if want == -2 {
			assert.False(t, ok, target)
			continue
		}
		assert.True(t, ok, target)
		assert.Equal(t, want, got, target)
	}
	// the attribute is not part of the title a reference names
	_, ok := x.FindTitle("Custom")
	assert.True(t, ok)
}

func TestSlugger(t *testing.T) {
	var s Slugger
	var got []string
	for _, h := range []string{"A", "a", "A-1", "a", "B", ""} {
		got = append(got, s.Next(h))
	}
	assert.Equal(t, []string{"a", "a-1", "a-1-1", "a-2", "b", ""}, got)
}
