package critic

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOfflineGolden(t *testing.T) {
	sel, err := SelectAutomatic(full(C4), Facts{})
	require.NoError(t, err)
	res, err := New(WithClock(fixedClock())).Run(context.Background(), PipelineInput{Selection: sel, Artifact: sample(t)})
	require.NoError(t, err)
	checkGolden(t, "sample-context.md", res.Context())
}

func TestParseDocument(t *testing.T) {
	text := "---\ntitle: x\n# not a heading\n---\n# Title\r\n\r\nIntro.\n\n```go\n# not a heading either\n```\n\nSetext Heading\n--------------\n\nBody.\n\n### Deep ###\n\n## Empty\n\n## Last\ntext\n"
	d := parseDocument(text)
	var got []string
	for _, h := range d.headings {
		got = append(got, fmt.Sprintf("%s %s@%d-%d", strings.Repeat("#", h.level), h.text, h.line, h.end))
	}
	assert.Equal(t, []string{"# Title@5-23", "## Setext Heading@13-19", "### Deep@18-19", "## Empty@20-21", "## Last@22-23"}, got)
	assert.False(t, d.isProse(2), "front matter")
	assert.False(t, d.isProse(10), "code")
	assert.Equal(t, []int{18, 20}, emptySections(d))
	assert.Empty(t, headingSkips(d))
	assert.Equal(t, []int{3}, headingSkips(parseDocument("# a\n\n### b\n")))
	assert.Equal(t, "Intro.", d.statement(7, nil))
	assert.Empty(t, parseDocument("").lines)
}

func TestDetectors(t *testing.T) {
	doc := parseDocument(`# Plan

## Summary

We will use Redis because reads dominate. TODO: confirm sizing.
The API is fast and always available. Studies show caching helps.
We decided to shard.
The cache TTL is 60 s.

## Design

The cache TTL is 5 minutes. The p99 latency is under 200 ms.
See [missing](#nowhere) and [design](#design).

## Design

| A | B |
|---|---|
| 1 | 2 | 3 |

- REQ-1: first.
- REQ-1: again.
- Uses ADR-9.
`)
	assert.Equal(t, []int{5}, placeholders(doc))
	assert.Equal(t, []int{15}, duplicateHeadings(doc))
	assert.Equal(t, []int{19}, badTableRows(doc))
	assert.Equal(t, []int{13}, brokenAnchors(doc))
	assert.Equal(t, []int{6}, vagueClaims(doc))
	assert.Equal(t, []int{6}, weaselCitations(doc))
	with, without := decisionsWithoutRationale(doc)
	assert.Equal(t, []int{5}, with)
	assert.Equal(t, []int{7}, without)
	cs := contradictions(doc)
	require.Len(t, cs, 1)
	assert.Equal(t, "cache ttl", cs[0].a.subject)
	assert.Equal(t, 8, cs[0].a.line)
	assert.Equal(t, 12, cs[0].b.line)
	ids := identifiers(doc)
	require.Len(t, ids, 2)
	assert.True(t, ids[0].defined)
	assert.False(t, ids[1].defined)
	r := critIDsDefinedOnce.check(doc)
	assert.Equal(t, NotMet, r.Status)
	assert.Equal(t, "REQ-1 defined 2 times", r.Note)
}

func TestOfflineModes(t *testing.T) {
	art := Artifact{Path: "p.md", Content: `# Upload service

## Summary

We will expose a public API for file uploads backed by a single database.
Deployments go out on Fridays.

## Risks

- The database may fill up.
- Vendor outage; mitigation: fall back to the queue.
`}
	run := func(m Mode) *ModeOutput {
		out, err := Offline().Critique(context.Background(), ModeRequest{Mode: m, Artifact: art, Rubric: AdversarialRubric(), Threshold: 0.92, Constitution: DefaultConstitution()})
		require.NoError(t, err)
		require.NotNil(t, out.result(), "%s", m)
		return out
	}
	rt := run(RedTeam).RedTeam
	require.NotEmpty(t, rt.Vulnerabilities)
	assert.Equal(t, SeverityCritical, rt.Vulnerabilities[0].Severity)
	assert.Contains(t, rt.Vulnerabilities[0].MissingControls, "authentication")
	assert.Equal(t, 5, rt.Vulnerabilities[0].Evidence[0].Line)

	inv := run(Inversion).Inversion
	names := map[string]string{}
	for _, a := range inv.AntiPatterns {
		names[a.Name] = a.Status
	}
	assert.Equal(t, Unaddressed, names["Single point of failure"])
	assert.Equal(t, Unaddressed, names["No way back"])

	pm := run(PreMortem).PreMortem
	var mitigated, bare int
	for _, s := range pm.Scenarios {
		if s.Cause == "Listed risk materialised" {
			if s.Mitigated {
				mitigated++
			} else {
				bare++
			}
		}
	}
	assert.Equal(t, 1, mitigated)
	assert.Equal(t, 1, bare)

	fm := run(FMEA).FMEA
	require.NotEmpty(t, fm.Rows)
	assert.Equal(t, "Database", fm.Rows[len(fm.Rows)-1].Component, "rows sorted by RPN, the database's data loss is rare")
	for i := 1; i < len(fm.Rows); i++ {
		assert.GreaterOrEqual(t, fm.Rows[i-1].RPN, fm.Rows[i].RPN)
	}

	sr := run(SelfRefine).SelfRefine
	assert.Empty(t, sr.Issues)
	st := run(Steelman).Steelman
	assert.Contains(t, st.Thesis.Text, "We will expose a public API")
	co := run(Constitutional).Constitutional
	assert.Nil(t, co.GovernanceViolation())

	_, err := Offline().Critique(context.Background(), ModeRequest{Mode: "chaos", Artifact: art})
	assert.ErrorIs(t, err, ErrModeUnavailable)
}

func TestJudgeOfflineLeniency(t *testing.T) {
	doc := parseDocument(`# Plan

## Summary

We will shard the table because it is large.

## Risks

- Hot shards; mitigation: rebalance weekly.
- Cross-shard joins.
`)
	j := judgeOffline(doc, AdversarialRubric(), 0.92, nil)
	var rigor DimensionScore
	for _, d := range j.Dimensions {
		if d.Name == "Methodological Rigor" {
			rigor = d
		}
	}
	require.NotNil(t, rigor.Alternative, "one of two risks mitigated is uncertain")
	assert.Less(t, rigor.Score, *rigor.Alternative)
	assert.Contains(t, rigor.Rationale, "uncertain: scored as not met")
	var sum float64
	for _, d := range j.Dimensions {
		sum += d.Weight * d.Score
	}
	assert.Equal(t, floorScore(sum), j.Score)
	assert.LessOrEqual(t, j.Score, sum, "totals round down")
	assert.Equal(t, VerdictRevise, j.Verdict)
	assert.Equal(t, 0.91, floorScore(0.9199999))
	assert.Equal(t, 0.92, floorScore(0.9199999999999))
}

// FuzzOffline runs every offline mode over arbitrary text: nothing panics
// and every quote is the text of the line it cites.
func FuzzOffline(f *testing.F) {
	f.Add("# T\n\n## Summary\n\nWe will do X because Y. The p99 latency is 200 ms.\nThe p99 latency is 300 ms.\n")
	f.Add("Setext\n===\n```\n# code\n")
	f.Add("---\n# front\n")
	f.Add("| a |\n|---|\n| b | c |\n- REQ-1: x\n[l](#y)\n")
	f.Add("\r\n\r# \xff\n")
	f.Fuzz(func(t *testing.T, text string) {
		art := Artifact{Path: "f.md", Content: text}
		if art.Validate() != nil {
			return
		}
		doc := parseDocument(text)
		for _, m := range append(Modes(), Standard) {
			out, err := Offline().Critique(context.Background(), ModeRequest{Mode: m, Artifact: art, Rubric: AdversarialRubric(),
				Threshold: 0.92, Constitution: DefaultConstitution()})
			if err != nil {
				t.Fatalf("%s: %v", m, err)
			}
			for _, f := range out.Findings() {
				for _, e := range f.Evidence {
					if e.Line < 0 || e.Line > len(doc.lines) {
						t.Fatalf("%s: line %d out of range", m, e.Line)
					}
					if e.Line > 0 && e.Quote != quote(doc.line(e.Line)) {
						t.Fatalf("%s: quote %q is not line %d", m, e.Quote, e.Line)
					}
				}
			}
			_ = out.Markdown()
		}
	})
}

// FuzzDecodeReply: a model's reply, whatever it is, never panics the
// decoder, and an accepted reply quotes only the artifact.
func FuzzDecodeReply(f *testing.F) {
	f.Add("```json\n{\"challenges\": []}\n```", "devils-advocate")
	f.Add("{\"dimensions\": [{\"name\": \"Completeness\", \"score\": 0.5}]}", "llm-as-judge")
	f.Add("```\n{\"rows\": [{\"component\": \"a\", \"failure_mode\": \"b\", \"severity\": 1, \"occurrence\": 1, \"detection\": 1}]}\n```", "fmea")
	f.Add("```json\n{\"checks\": null}\n```", "constitutional")
	art := sampleText()
	doc := parseDocument(art)
	f.Fuzz(func(t *testing.T, reply, mode string) {
		req := ModeRequest{Mode: Mode(mode), Artifact: Artifact{Path: "a.md", Content: art}, Rubric: AdversarialRubric(), Threshold: 0.92, Constitution: DefaultConstitution()}
		r, err := decodeReply(reply, req, doc)
		if err != nil {
			return
		}
		out := newOutput(req.Mode, r)
		for _, f := range out.Findings() {
			for _, e := range f.Evidence {
				if e.Line > 0 && !doc.contains(e.Quote) {
					t.Fatalf("accepted a quote not in the artifact: %q", e.Quote)
				}
			}
		}
		_ = out.Markdown()
	})
}

func sampleText() string {
	return "# Design\n\n## Summary\n\nWe will replace the synchronous calls because they block.\n"
}

// TestBrokenAnchorsUseGitHubAnchors: the critic resolves "#fragment" links
// as internal/refs does — GitHub's slugs with repeats numbered, "{#id}"
// attributes, HTML ids — so it flags only what a reader would find broken.
func TestBrokenAnchorsUseGitHubAnchors(t *testing.T) {
	doc := parseDocument(`# Plan

## FAQ

## FAQ

## Design — Overview

## Custom {#own}

<a id="html-target"></a>

[a](#faq-1) [b](#design--overview) [c](#own) [d](#html-target)
[e](#faq-2)
[f](#design-—-overview)
` + "`[g](#nowhere)`" + ` [h](other.md#nowhere)
[i][ref]

[ref]: #missing
`)
	assert.Equal(t, []int{14, 15, 17}, brokenAnchors(doc), "a link in a code span or to another file is not checked; a reference link is")
}
