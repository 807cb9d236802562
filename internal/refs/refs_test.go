package refs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/samplegen"
)

func parse(t testing.TB, src string) *diff.Document {
	t.Helper()
	d, err := diff.Parse("t.md", []byte(src))
	require.NoError(t, err)
	return d
}

// brief renders refs as "kind:target=text" for compact table tests.
func brief(rs []Ref) []string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s:%s=%s", r.Kind, r.Target, r.Text))
	}
	return out
}

// findCase is a body under a heading, and the references Find must return
// in brief form (kind:target=text).
type findCase struct {
	name string
	body string
	want []string
}

// checkFind runs Find on each case's body and checks the references and
// that every span and line points at the reference's text.
func checkFind(t *testing.T, tests []findCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := parse(t, "# Doc\n\n## Intro\n\n"+tt.body+"\n")
			got := Find(d)
			assert.Equal(t, tt.want, brief(got))
			for _, r := range got {
				assert.Equal(t, r.Text, d.Text(r.Span), "span covers the text")
				assert.Equal(t, d.LineAt(r.Span.Start), r.Line)
			}
		})
	}
}

func TestFind(t *testing.T) {
	checkFind(t, []findCase{
		{"section", "As Section 3.2 says.", []string{"section:3.2=Section 3.2"}},
		{"lower case and sentence end", "see section 4.", []string{"section:4=section 4"}},
		{"sign", "Per §3.2 and §§ 4.", []string{"section:3.2=§3.2", "section:4=§§ 4"}},
		{"sec abbreviation", "Sec. 5 covers it.", []string{"section:5=Sec. 5"}},
		{"list", "Sections 2, 3.1 and 4 apply.", []string{"section:2=Sections 2", "section:3.1=3.1", "section:4=4"}},
		{"milestone", "Milestone M2 follows Milestone 1.", []string{"milestone:M2=Milestone M2", "milestone:M1=Milestone 1"}},
		{"milestone list", "Milestones M1 and m3.", []string{"milestone:M1=Milestones M1", "milestone:M3=m3"}},
		{"deliverable", "Deliverable D1.2 and deliverables 2, D3.", []string{"deliverable:D1.2=Deliverable D1.2", "deliverable:D2=deliverables 2", "deliverable:D3=D3"}},
		{"see brackets", "See [Error Handling] first.", []string{"title:Error Handling=See [Error Handling]"}},
		{"see also the quotes", `See also the "Retry Policy" section.`, []string{`title:Retry Policy=See also the "Retry Policy"`}},
		{"see curly quotes", "see “Data  Model”", []string{"title:Data Model=see “Data  Model”"}},
		{"see bracketed section is a section ref", "See [Section 3] for more.", []string{"section:3=Section 3"}},
		{"anchor", "Read [the cache](#caching-strategy).", []string{"anchor:caching-strategy=[the cache](#caching-strategy)"}},
		{"anchor encoded", "[x](#caf%C3%A9)", []string{"anchor:café=[x](#caf%C3%A9)"}},
		{"anchor link text is one reference", "[Section 3.2](#32-caching)", []string{"anchor:32-caching=[Section 3.2](#32-caching)"}},
		{"see link is an anchor", "See [Caching](#caching).", []string{"anchor:caching=[Caching](#caching)"}},
		{"external link hides its text", "See [Section 4](other.md#x) and [spec](https://x.io/#y).", nil},
		{"url", "https://example.com/Section 3.2 is a page, Section 4 is not", []string{"section:4=Section 4"}},
		{"url path", "Read https://example.com/sec/§4 now.", nil},
		{"autolink", "<https://example.com/#section-1>", nil},
		{"inline code", "Run `Section 3.2` literally; Section 1 counts.", []string{"section:1=Section 1"}},
		{"of another document", "Section 4 of RFC 9110 and §2 in [the guide](g.md).", nil},
		{"of this document", "Section 4 of this document.", []string{"section:4=Section 4"}},
		{"in detail is internal", "Section 3 in detail.", []string{"section:3=Section 3"}},
		{"rfc before", "RFC 9110 Section 4.", nil},
		{"image is not a link", "![diagram](#fig)", nil},
		{"reference link to an anchor", "See [Caching][c].\n\n[c]: #caching", []string{"anchor:caching=[Caching][c]"}},
		{"no words", "Nothing to see here.", nil},
		{"year is not a milestone", "Milestones matter in 2026.", nil},
	})
}

func TestFindSkipsCodeAndHeadings(t *testing.T) {
	d := parse(t, "---\nsee: Section 9\n---\n# Section 1 title\n\n```\nSection 2\n```\n\n    Section 3 indented\n\n<!-- Section 4 -->\n\n- item per Section 5\n\n| a | b |\n|---|---|\n| see §6 | x |\n\n> quoted Milestone M7\n")
	assert.Equal(t, []string{"section:5=Section 5", "section:6=§6", "milestone:M7=Milestone M7"}, brief(Find(d)))
}

func TestHeadingNumber(t *testing.T) {
	tests := []struct {
		title, num, rest string
		ok               bool
	}{
		{"3.2 Caching", "3.2", "Caching", true},
		{"3. Caching", "3", "Caching", true},
		{"3.2. Caching", "3.2", "Caching", true},
		{"Section 3.2: Caching", "3.2", "Caching", true},
		{"§4 Risks", "4", "Risks", true},
		{"4) Risks", "4", "Risks", true},
		{"4 — Risks", "4", "Risks", true},
		{"12.", "12", "", true},
		{"2026 Roadmap", "", "2026 Roadmap", false},
		{"Caching 3.2", "", "Caching 3.2", false},
		{"3.2Caching", "", "3.2Caching", false},
		{"v1.2 notes", "", "v1.2 notes", false},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			n, start, rest, ok := HeadingNumber(tt.title)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.num, n)
			if ok {
				assert.Equal(t, tt.num, tt.title[start:start+len(n)])
				assert.Equal(t, tt.rest, tt.title[rest:])
			}
			if tt.rest != "" {
				assert.Equal(t, tt.rest, StripNumber(tt.title))
			} else {
				assert.Equal(t, tt.title, StripNumber(tt.title), "nothing but a number is kept whole")
			}
		})
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Error Handling":         "error-handling",
		"3.2 Caching & Eviction": "32-caching--eviction",
		"API (v2) — Overview":    "api-v2--overview",
		"snake_case-and-dash":    "snake_case-and-dash",
		"Café Über":              "café-über",
		"Design — Overview":      "design--overview",
		"x² and Ⅻ":               "x-and-ⅻ",
		"Launch 🚀 plan":          "launch--plan",
		"  trimmed  ":            "trimmed",
	} {
		assert.Equal(t, want, Slug(in), in)
	}
}

const resolveDoc = `# Platform Plan

## Table of Contents

1. [Caching](#2-caching)
2. [Risks](#risks)
3. [Missing](#nowhere)

## 1. Overview

See Section 2.1 and Section 3. Section 4 is the FAQ. See §1. Section 9 is missing.

## 2. Caching

### 2.1 Eviction

### Warm-up

The unnumbered subsection is Section 2.2.

## Risks

## FAQ

## FAQ

Jump to [the second FAQ](#faq-1) or [the custom one](#custom) or [the html one](#HTML-Target).

## Custom anchor {#custom}

<a id="html-target"></a>

## Milestones

### Milestone M1: Foundation

| Id | Deliverable | Due |
|----|-------------|-----|
| D1.1 | Schema | Q1 |
| M2 | Launch | Q2 |

Milestone M1, Milestone M2 and Milestone M3. Deliverable D1.1 and Deliverable D1.2.

See [Error Handling] and see [Caching] and see the "warm up" section.
See [Eviction policy] too.
`

func TestCheck(t *testing.T) {
	d := parse(t, resolveDoc)
	rep := Check(d)
	var lines []string
	for _, r := range rep.Refs {
		where := "-"
		if r.Resolved && r.Section >= 0 {
			where = d.Sections[r.Section].Title
		}
		lines = append(lines, fmt.Sprintf("%v %s:%s -> %s", r.Resolved, r.Kind, r.Target, where))
	}
	want := []string{
		"true anchor:2-caching -> 2. Caching",
		"true anchor:risks -> Risks",
		"false anchor:nowhere -> -",
		"true section:2.1 -> 2.1 Eviction",
		"true section:3 -> Risks", // counted on from "2. Caching"
		"true section:4 -> FAQ",
		"true section:1 -> 1. Overview",
		"false section:9 -> -",
		"true section:2.2 -> Warm-up",
		"true anchor:faq-1 -> FAQ",
		"true anchor:custom -> Custom anchor {#custom}",
		"true anchor:HTML-Target -> Custom anchor {#custom}",
		"true milestone:M1 -> Milestone M1: Foundation",
		"true milestone:M2 -> Milestone M1: Foundation",
		"false milestone:M3 -> -",
		"true deliverable:D1.1 -> Milestone M1: Foundation",
		"false deliverable:D1.2 -> -",
		"false title:Error Handling -> -",
		"true title:Caching -> 2. Caching",
		"true title:warm up -> Warm-up",
		"false title:Eviction policy -> -",
	}
	assert.Equal(t, want, lines)
	assert.Equal(t, len(want), rep.Total)
	assert.Equal(t, 15, rep.Resolved)
	assert.Len(t, rep.Broken(), rep.Total-rep.Resolved)
	assert.InDelta(t, 15.0/21, rep.Ratio(), 1e-9)
}

func TestResolveOutlineNumbersWithoutExplicitOnes(t *testing.T) {
	d := parse(t, "# T\n\n## Intro\n\nSee Section 2.1 and Section 3.\n\n## Design\n\n### Cache\n")
	rep := Check(d)
	require.Len(t, rep.Refs, 2)
	assert.True(t, rep.Refs[0].Resolved)
	assert.Equal(t, "Cache", d.Sections[rep.Refs[0].Section].Title)
	assert.False(t, rep.Refs[1].Resolved)
}

func TestFindTitleFuzzy(t *testing.T) {
	x := NewIndex(parse(t, "## 4. Error Handling Strategy\n\n## Retry\n"))
	for title, want := range map[string]bool{
		"error handling strategy":    true,
		"4. Error Handling Strategy": true,
		"Error Handling":             true, // overlap 0.8
		"Handling":                   false,
		"Retry":                      true,
		"Retries":                    true, // stemmed
		"Retrying":                   false,
	} {
		_, ok := x.FindTitle(title)
		assert.Equal(t, want, ok, title)
	}
}

func TestEmpty(t *testing.T) {
	assert.Empty(t, Find(nil))
	rep := Check(parse(t, ""))
	assert.Zero(t, rep.Total)
	assert.Equal(t, 1.0, rep.Ratio())
	_, ok := NewIndex(nil).Resolve(Ref{Kind: Section, Target: "1"})
	assert.False(t, ok)
}

func TestSamplegen(t *testing.T) {
	d := parse(t, string(samplegen.Spec(3, 20000)))
	rep := Check(d)
	// samplegen writes "See Section N.1 …; Milestone MK depends on it." and
	// a table of contents whose anchors omit the heading numbers.
	kinds := map[Kind]int{}
	for _, r := range rep.Refs {
		kinds[r.Kind]++
		if r.Kind == Section {
			assert.True(t, r.Resolved, r.String())
			assert.True(t, strings.HasSuffix(r.Target, ".1"))
		}
		if r.Kind == Anchor {
			assert.False(t, r.Resolved, "GitHub slugs keep the number: %s", r.String())
		}
	}
	assert.Equal(t, 8, kinds[Anchor])
	assert.Positive(t, kinds[Section])
	assert.Equal(t, kinds[Section], kinds[Milestone])
}

func BenchmarkCheck(b *testing.B) {
	src := samplegen.Spec(1, 100<<10)
	d, err := diff.Parse("bench", src)
	require.NoError(b, err)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	// Check is memoised per document: measure the work itself.
	for b.Loop() {
		rd := newReading(d)
		find(d, rd)
		newIndex(d, rd)
	}
}

// TestSeriesHeadingsTakeNoOutlineNumber: a heading numbered in its own
// series ("Phase 5") is not the "§2.5" a reader would count for it, so a
// "§2.5" beside it cites another document and stays unresolved, while
// plain unnumbered headings still answer to their counted numbers.
func TestSeriesHeadingsTakeNoOutlineNumber(t *testing.T) {
	d := parse(t, "# Roadmap\n\n## 1. Scope\n\nPer §2.5 of the spec; see §3.1.\n\n## 2. Plan\n\n### Phase 1: Models\n\n### Phase 2: Parser\n\n### Phase 3: Gate\n\n### Phase 4: CLI\n\n### Phase 5: Release\n\n## 3. Risks\n\n### Parser drift\n")
	got := map[string]bool{}
	for _, r := range Check(d).Refs {
		got[r.Target] = r.Resolved
	}
	assert.Equal(t, map[string]bool{"2.5": false, "3.1": true}, got)
}

// TestHeadingNumbersOutsideTheOutline: a heading whose number does not
// extend its numbered parent's ("4.4 MAJOR_REWRITE Assessment" under "3.
// Spec Update Language") names a section of the reviewed document, so a
// "§4.4" in the text cites that and stays unresolved; numbers that nest,
// or that stand under no numbered heading, still resolve.
func TestHeadingNumbersOutsideTheOutline(t *testing.T) {
	d := parse(t, "# Review\n\n## 3. Spec Update Language\n\nThe §4.4 text and §3.1 below; see §10.2.\n\n### 3.1 Overview\n\nx\n\n### 4.4 MAJOR_REWRITE Assessment\n\ny\n\n### 10.2 MAJOR_REWRITE Assessment\n\nz\n\n## Appendix\n\n### 7.1 Terms\n\nSee §7.1.\n")
	got := map[string]bool{}
	for _, r := range Check(d).Refs {
		got[r.Target] = r.Resolved
	}
	assert.Equal(t, map[string]bool{"4.4": false, "3.1": true, "10.2": false, "7.1": true}, got)
}
