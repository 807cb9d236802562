package merge

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

func TestStructureProblems(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // "rule: detail"
	}{
		{"clean", "# T\n## 1. A\n### 1.1 B\n## 2. C\n", nil},
		{"starts with H3", "### A\n## B\n", []string{`start: the document starts with H3 "A", not H1 or H2`}},
		{"level gap", "# T\n## A\n#### B\n", []string{`level-gap: H2 "A" → H4 "B" without H3`}},
		{"orphan", "## A\n# T\n### B\n", []string{`level-gap: H1 "T" → H3 "B" without H2`}},
		{"orphan without any parent", "## A\n\ntext\n\n# T\n\n", nil},
		{"numbers out of order", "## 1. A\n## 3. C\n## 2. B\n", []string{`order: "2. B" (2) comes after section 3`}},
		{"duplicate numbers", "## 1. A\n## 1. B\n", []string{`order: "1. B" (1) comes after section 1`}},
		{"child numbered under another parent", "## 2. A\n### 3.1 B\n", []string{`order: "3.1 B" is numbered 3.1 under "2. A"`}},
		{"subsection numbers ascend", "## 2. A\n### 2.2 B\n### 2.10 C\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range structureProblems(mustParse(t, "x.md", tt.src)) {
				got = append(got, p.Rule+": "+p.Detail)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestValidationOnlyFailsOnWhatTheMergeIntroduced(t *testing.T) {
	// The base already has a level gap and a broken reference; the merge
	// adds an H4 under an H2 and a reference to a section it then lacks.
	// The replace keeps subsection 2.1, which its source lacks.
	base := mustParse(t, "a.md", "# T\n\n## 1. A\n\nSee Section 9.\n\n#### Deep\n\nx\n\n## 2. B\n\nSee Section 2.1.\n\n### 2.1 C\n\ny\n")
	m := merge(t, base,
		change(1, Replace, SectionRef{Number: "2"}, "## B\n\nNo subsections in the source; see Section 7.\n"),
		change(2, Append, SectionRef{Number: "2"}, "## Z\n\n#### Gap\n\nz\n"))
	v := m.Log.Validation
	assert.Equal(t, StatusPartial, m.Status())

	require.Len(t, v.Structure.Problems, 2)
	assert.True(t, v.Structure.Problems[0].InBase)
	assert.False(t, v.Structure.Problems[1].InBase)
	assert.Equal(t, `H2 "3. Z" → H4 "3.1 Gap" without H3`, v.Structure.Problems[1].Detail)
	assert.False(t, v.Structure.Passed)

	assert.False(t, v.References.Passed)
	assert.Equal(t, 2, v.References.Total)
	assert.Equal(t, 0, v.References.Resolved)
	require.Len(t, v.References.Broken, 2)
	assert.Equal(t, BrokenRef{Kind: "section", Text: "Section 9", Target: "9", Line: 11, InBase: true}, v.References.Broken[0])
	assert.Equal(t, "7", v.References.Broken[1].Target)
	assert.False(t, v.References.Broken[1].InBase)

	md := m.Log.Markdown()
	assert.Contains(t, md, "### Structural Integrity\n\n❌ Fail\n\n- Line 13 (level-gap): H2 \"1. A\" → H4 \"Deep\" without H3 — present in the base already\n- Line 31 (level-gap): H2 \"3. Z\" → H4 \"3.1 Gap\" without H3\n")
	assert.Contains(t, md, "- **Broken:** 2\n  - `Section 7` (line 21, section)\n  - present in the base already (1): `Section 9`\n")
	assert.Contains(t, md, "- **Post-merge validation:** FAIL\n")

	// the same base merged with nothing passes: nothing new
	clean := merge(t, base)
	assert.True(t, clean.Log.Validation.Passed())
	assert.Equal(t, StatusSuccess, clean.Status())
}

// A reference that was broken in the variant its text came from (it names
// a section of the document the variants discuss) is not the merge's
// doing; one that resolved there and does not in the merged document is.
func TestReferencesBrokenInTheirSource(t *testing.T) {
	base := mustParse(t, "a.md", "# T\n\n## 1. A\n\nx\n\n## 2. B\n\ny\n")
	variant := mustParse(t, "b.md", "# T\n\n## 1. A\n\nx\n\n## 2. Gates\n\nScore by the reviewed spec's §5.3 rubric; see §4 for the rest.\n\n## 4. Rest\n\nz\n")
	src := "## Gates\n\nScore by the reviewed spec's §5.3 rubric; see §4 for the rest.\n"
	m, err := NewSectionMerger(WithClock(fixedClock)).Merge(context.Background(), Input{
		Base: base, Variants: []*diff.Document{variant}, Plan: planOf(base, change(1, Append, SectionRef{Number: "2"}, src)),
	})
	require.NoError(t, err)
	r := m.Log.Validation.References
	require.Len(t, r.Broken, 2, "%+v", r.Broken)
	byTarget := map[string]BrokenRef{}
	for _, b := range r.Broken {
		byTarget[b.Target] = b
	}
	assert.True(t, byTarget["5.3"].InSource, "§5.3 was broken in variant B already")
	assert.False(t, byTarget["4"].InSource, "§4 resolved in variant B; the merge did not bring it")
	assert.False(t, r.Passed)
	assert.Contains(t, m.Log.Markdown(), "  - broken already in the variant the text came from, or cited the same way by the base (1): `§5.3`\n")

	// without the one the merge broke, the check passes
	m, err = NewSectionMerger(WithClock(fixedClock)).Merge(context.Background(), Input{
		Base: base, Variants: []*diff.Document{variant},
		Plan: planOf(base, change(1, Append, SectionRef{Number: "2"}, strings.Replace(src, "; see §4 for the rest", "", 1))),
	})
	require.NoError(t, err)
	assert.True(t, m.Log.Validation.References.Passed, "%+v", m.Log.Validation.References)

	// incorporated text in another variant's words (a rationale moved
	// with its value) citing what the base cites outside itself too
	cites := mustParse(t, "a.md", "# T\n\n## 1. A\n\nAs the spec's §9.1 says.\n\n## 2. B\n\ny\n")
	m, err = NewSectionMerger(WithClock(fixedClock)).Merge(context.Background(), Input{
		Base: cites, Variants: []*diff.Document{variant},
		Plan: planOf(cites, change(1, Append, SectionRef{Number: "2"}, "## Gates\n\nOnly a file added to §9.1.\n")),
	})
	require.NoError(t, err)
	r = m.Log.Validation.References
	require.Len(t, r.Broken, 2, "%+v", r.Broken)
	assert.True(t, r.Broken[0].InBase)
	assert.True(t, r.Broken[1].InSource, "the base cites §9.1 the same way")
	assert.True(t, r.Passed)
}

func TestRescan(t *testing.T) {
	// the scanner reports every "use X" it sees with X as signature
	scanner := ScannerFunc(func(_ context.Context, docs []*diff.Document) ([]Contradiction, error) {
		var out []Contradiction
		for _, d := range docs {
			for _, w := range strings.Fields(d.Source) {
				if strings.HasPrefix(w, "DB=") {
					out = append(out, Contradiction{Signature: w, Description: "database " + strings.TrimPrefix(w, "DB=")})
				}
			}
		}
		return out, nil
	})
	base := mustParse(t, "a.md", "## A\n\nDB=postgres\n")
	pg := []Contradiction{{"DB=postgres", "database postgres"}}
	variant := mustParse(t, "b.md", "## A\n\nDB=mongo\n")
	run := func(s ContradictionScanner, variants []*diff.Document, src string) *Merged {
		t.Helper()
		m, err := NewSectionMerger(WithClock(fixedClock), WithScanner(s)).Merge(context.Background(), Input{
			Base: base, Variants: variants, Plan: planOf(base, change(1, Append, SectionRef{Title: "A"}, src)),
		})
		require.NoError(t, err)
		return m
	}

	m := run(scanner, []*diff.Document{variant}, "## B\n\nDB=mongo\n")
	assert.Equal(t, ContradictionRescan{State: RescanFailed, Baseline: 1, New: []Contradiction{{"DB=mongo", "database mongo"}}, Unresolved: pg}, m.Log.Validation.Rescan,
		"a conflict between the variants that the merge imports is new: the baseline is the base alone")
	assert.Equal(t, StatusPartial, m.Status())

	m = run(scanner, []*diff.Document{variant}, "## B\n\nDB=postgres\n")
	assert.Equal(t, ContradictionRescan{State: RescanPassed, Baseline: 1, Unresolved: pg}, m.Log.Validation.Rescan, "what the base had is not new, and is listed as unresolved")
	assert.Contains(t, m.Log.Markdown(), "- **Unresolved, from the base:** 1 — the base states both sides")
	assert.Equal(t, StatusSuccess, m.Status())

	m = run(scanner, nil, "## B\n\nDB=mongo DB=sqlite DB=sqlite\n")
	assert.Equal(t, RescanFailed, m.Log.Validation.Rescan.State)
	assert.Equal(t, []Contradiction{{"DB=mongo", "database mongo"}, {"DB=sqlite", "database sqlite"}}, m.Log.Validation.Rescan.New, "without the variants, only the base counts; each new one once")
	assert.Equal(t, StatusPartial, m.Status())
	assert.Contains(t, m.Log.Markdown(), "❌ Fail\n\n- **Contradictions in the base:** 1\n- **New contradictions introduced:** 2\n  - database mongo\n  - database sqlite\n- **Unresolved, from the base:** 1")

	failing := ScannerFunc(func(context.Context, []*diff.Document) ([]Contradiction, error) {
		return nil, errors.New("detector offline")
	})
	m = run(failing, nil, "## B\n")
	assert.Equal(t, ContradictionRescan{State: RescanError, Err: "scanning the base: detector offline"}, m.Log.Validation.Rescan)
	assert.Equal(t, StatusPartial, m.Status(), "an unchecked merge is not a success")

	m = run(nil, nil, "## B\n")
	assert.Equal(t, RescanNotRun, m.Log.Validation.Rescan.State)
	assert.Equal(t, StatusSuccess, m.Status())
	md := m.Log.Markdown()
	assert.Contains(t, md, "### Contradiction Re-Scan\n\nNot run: no contradiction scanner is configured (merge.WithScanner).\n")
	assert.Contains(t, md, "- **Post-merge validation:** PASS (contradiction re-scan not run)\n")
}
