package merge

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

// mergeWith merges changes from Variant B (whose document is b) into
// base.
func mergeWith(t *testing.T, base, b *diff.Document, changes ...Change) *Merged {
	t.Helper()
	in := Input{Base: base, Plan: planOf(base, changes...)}
	if b != nil {
		in.Variants = []*diff.Document{b}
	}
	m, err := NewSectionMerger(WithClock(fixedClock), WithScanner(nil)).Merge(context.Background(), in)
	require.NoError(t, err)
	checkMerged(t, base, m)
	return m
}

func TestNumberingFollowsTheBase(t *testing.T) {
	tests := []struct {
		name    string
		base    string
		changes []Change
		want    []string
	}{
		{"unnumbered base: incorporated headings lose their numbers",
			"# S\n\n## Intro\n\nx\n\n## Ops\n\ny\n",
			[]Change{change(1, Append, SectionRef{Title: "Intro"}, "## 4. Security\n\nz\n\n### 4.1 Keys\n\nk\n")},
			[]string{"# S [base]", "## Intro [base]", "## Security [B 9 #1]", "### Keys [B 4.1 #1]", "## Ops [base]"}},
		{"numbering from 0 stays from 0",
			"# S\n\n## 0. Summary\n\nx\n\n## 1. Ops\n\ny\n",
			[]Change{change(1, Append, SectionRef{Number: "0"}, "## Security\n\nz\n")},
			[]string{"# S [base]", "## 0. Summary [base]", "## 1. Security [B 9 #1]", "## 2. Ops [modified]"}},
		{"unnumbered appendix in a numbered list keeps no number",
			"# S\n\n## 1. Intro\n\nx\n\n## 2. Ops\n\ny\n\n## Appendix\n\nz\n",
			[]Change{change(1, Append, SectionRef{Title: "Appendix"}, "## Glossary\n\ng\n")},
			[]string{"# S [base]", "## 1. Intro [base]", "## 2. Ops [base]", "## Appendix [base]", "## 3. Glossary [B 9 #1]"}},
		{"the base's number style: prefix and separator",
			"# S\n\n## Section 1: Intro\n\nx\n\n## Section 2: Ops\n\ny\n",
			[]Change{change(1, Append, SectionRef{Title: "Intro"}, "## Security\n\nz\n")},
			[]string{"# S [base]", "## Section 1: Intro [base]", "## Section 2: Security [B 9 #1]", "## Section 3: Ops [modified]"}},
		{"an incorporated heading takes the base's separator, and a level the base never numbers the parent level's",
			"# S\n\n## 1. Args\n\n### 1.1 Context\n\nx\n\n### 1.2 Cost\n\ny\n",
			[]Change{
				change(1, Insert, SectionRef{Number: "1.1"}, "## 8. Trade-Off\n\nz\n"),
				change(2, Append, SectionRef{Number: "1.2"}, "### 5: Overhead\n\nw\n"),
			},
			[]string{"# S [base]", "## 1. Args [base]", "### 1.1 Context [base]", "#### 1.1.1 Trade-Off [B 9 #1]", "### 1.2 Cost [base]", "### 1.3 Overhead [B 9 #2]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mergeWith(t, mustParse(t, "a.md", tt.base), nil, tt.changes...)
			assert.Equal(t, tt.want, headings(m))
			assert.True(t, m.Log.Validation.Structure.Passed, m.Log.Markdown())
		})
	}
}

func TestReferencesFollowTheirSections(t *testing.T) {
	const base = "# S\n\n## 1. Intro\n\nSee Section 2 and §2.1, see 2.1 again, and [ops](#2-ops).\n\n## 2. Ops\n\nRun.\n\n### 2.1 Alerts\n\nPage.\n"
	variant := "# S\n\n## 1. Intro\n\nv\n\n## 2. Security\n\nAlerts are in §3.1; keys in §2.1.\n\n### 2.1 Keys\n\nRotate.\n\n## 3. Ops\n\n### 3.1 Alerts\n\nPage.\n\n## 4. Audit\n\nLog.\n\n## 5. Notes\n\n### Extra\n\nx\n"
	tests := []struct {
		name         string
		changes      []Change
		contains     []string
		broken       []string // "text: reason"
		referencesOK bool
	}{
		{"base references follow an insertion",
			[]Change{change(1, Append, SectionRef{Number: "1"}, "## Security\n\nz\n")},
			[]string{"See Section 3 and §3.1, see 3.1 again, and [ops](#3-ops).", "references rewritten to the merged numbering"},
			nil, true},
		{"incorporated references follow the variant's sections to the merged ones",
			[]Change{change(1, Append, SectionRef{Number: "1"}, "## 2. Security\n\nAlerts are in §3.1; keys in §2.1.\n\n### 2.1 Keys\n\nRotate.\n")},
			[]string{"Alerts are in §3.1; keys in §2.1.", "## 2. Security", "### 2.1 Keys", "## 3. Ops", "### 3.1 Alerts"},
			nil, true},
		{"an incorporated reference to a section the merge did not bring is broken",
			[]Change{change(1, Append, SectionRef{Number: "2"}, "## 2. Security\n\nAudit rules are in §4.\n")},
			nil,
			[]string{`§4: it names Variant B's section "4. Audit", which the merged document does not have`}, false},
		{"a number that is only an outline count in its variant is not followed",
			[]Change{change(1, Append, SectionRef{Number: "2"}, "## 2. Security\n\nAs the spec's §5.1 says.\n")},
			[]string{"As the spec's §5.1 says."},
			[]string{"§5.1: "}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mergeWith(t, mustParse(t, "a.md", base), mustParse(t, "b.md", variant), tt.changes...)
			for _, c := range tt.contains {
				assert.Contains(t, m.Output, c)
			}
			var broken []string
			for _, b := range m.Log.Validation.References.Broken {
				broken = append(broken, b.Text+": "+b.Reason)
			}
			assert.Equal(t, tt.broken, broken)
			assert.Equal(t, tt.referencesOK, m.Log.Validation.References.Passed)
			if !tt.referencesOK {
				assert.Equal(t, StatusPartial, m.Status())
			}
		})
	}
}

// TestReferencesInCodeStay: a "see 2.1" or "§2" inside inline code is code,
// not a reference, so the renumbering leaves it as written.
func TestReferencesInCodeStay(t *testing.T) {
	base := mustParse(t, "a.md", "# S\n\n## 1. Intro\n\nSee Section 2; the flag `--see 2.1` and `§2` stay.\n\n## 2. Ops\n\nRun.\n\n### 2.1 Alerts\n\nPage.\n")
	m := mergeWith(t, base, nil, change(1, Append, SectionRef{Number: "1"}, "## Security\n\nz\n"))
	assert.Contains(t, m.Output, "See Section 3; the flag `--see 2.1` and `§2` stay.")
}
