package merge

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

func TestAmendmentsStateTheWinningValueInTheBase(t *testing.T) {
	base := mustParse(t, "a.md", "# Review\n\n## Delta 2.1\n\n**Verdict**: MODIFY. The cache needs a design.\n\n## Delta 2.2\n\n**Verdict**: ACCEPT.\n")
	other := mustParse(t, "b.md", "# Review\n\n## Delta 2.1\n\n**Verdict**: REJECT. Too risky.\n\n## Delta 2.2\n\n**Verdict**: ACCEPT.\n")
	third := mustParse(t, "c.md", "# Review\n\n## Delta 2.1\n\n**Verdict**: REJECT. No owner.\n\n## Delta 2.2\n\n**Verdict**: ACCEPT.\n")
	tests := []struct {
		name     string
		winner   string
		amended  bool
		contains string
	}{
		{"the base's minority verdict is amended to the majority's, with its rationale", "B", true, "**Verdict**: REJECT. Too risky."},
		{"a base that wins keeps its text", "A", false, "**Verdict**: MODIFY. The cache needs a design."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := PlanInput{Base: Variant{Label: "A", Doc: base},
				Variants: []Variant{{Label: "B", Doc: other}, {Label: "C", Doc: third}},
				Conflicts: []ResolvedConflict{{Point: "X-001", Subject: "Delta 2.1 / Verdict", Winner: tt.winner, Rule: "majority: Variants B and C give the same value",
					Values: []ConflictValue{{Variant: "A", Value: "MODIFY", Text: "**Verdict**: MODIFY. The cache needs a design."},
						{Variant: "B", Value: "REJECT", Text: "**Verdict**: REJECT. Too risky."}, {Variant: "C", Value: "REJECT", Text: "**Verdict**: REJECT. No owner."}}}}}
			p, err := NewPlan(in, WithClock(fixedClock))
			require.NoError(t, err)
			m, err := NewSectionMerger(WithClock(fixedClock)).Merge(context.Background(),
				Input{Base: base, Plan: p, Variants: []*diff.Document{other, third}})
			require.NoError(t, err)
			assert.Contains(t, m.Output, tt.contains)
			if !tt.amended {
				assert.Empty(t, p.Amendments)
				assert.NotContains(t, m.Log.Markdown(), "## Resolved Values")
				return
			}
			require.Len(t, p.Amendments, 1)
			assert.Equal(t, SectionRef{Title: "Delta 2.1", Number: "1"}, p.Amendments[0].Section)
			assert.NotContains(t, m.Output, "MODIFY", "the merged document states only the winning verdict")
			require.Len(t, m.Log.Amendments, 1)
			assert.True(t, m.Log.Amendments[0].Applied)
			assert.Contains(t, m.Log.Markdown(), "### Amendment 1: Delta 2.1 / Verdict")
			assert.Contains(t, m.Output, "<!-- Source: Base (original, modified) — states the winning value of Delta 2.1 / Verdict")
			assert.Contains(t, p.Rejected[0].Rationale, "The base's text is amended to state it (amendment 1).")
			assert.True(t, p.Rejected[0].Value)
			assert.Contains(t, m.Log.Markdown(), "## Values Not Taken", "merge-log.md says which values were not taken and why")
			assert.Contains(t, m.Log.Markdown(), "| X-001 | Variant A: Delta 2.1 / Verdict = MODIFY |")
		})
	}
}

func TestRestate(t *testing.T) {
	tests := []struct {
		name, text, lose, win, want string
	}{
		{"a sentence for a sentence", "Intro. The limit is 64 KiB. Outro.\n", "The limit is 64 KiB.", "The limit is 80 KB.", "Intro. The limit is 80 KB. Outro.\n"},
		{"a row for a row of as many cells", "| a | b |\n|---|---|\n| 50k | 350 ms |\n", "| 50k | 350 ms |", "| 50k | 200 ms |", "| a | b |\n|---|---|\n| 50k | 200 ms |\n"},
		{"a row cannot stand in for a sentence: removed", "| a | b |\n|---|---|\n| 50k | 350 ms |\n| 100k | 480 ms |\n", "| 50k | 350 ms |", "p99 stays under 200 ms.", "| a | b |\n|---|---|\n| 100k | 480 ms |\n"},
		{"a list item removed with its marker", "- keep\n- Retries: 5\n- also\n", "Retries: 5", "| retries | 3 |", "- keep\n- also\n"},
		{"a sentence inside a paragraph removed", "First. Retries: 5. Last.\n", "Retries: 5.", "| retries | 3 |", "First. Last.\n"},
		{"absent: nothing to do", "Nothing here.\n", "Retries: 5.", "x", "Nothing here.\n"},
		{"a paragraph between blank lines takes one of them along", "Evidence.\n\n**Verdict**: CONFIRMED.\n\n---\n", "**Verdict**: CONFIRMED.", "| x | y |", "Evidence.\n\n---\n"},
		{"a paragraph opening the text", "**Verdict**: CONFIRMED.\n\nEvidence.\n", "**Verdict**: CONFIRMED.", "| x | y |", "Evidence.\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := restate(tt.text, tt.lose, tt.win)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestMissingIdentifiers(t *testing.T) {
	base := mustParse(t, "a.md", "# Plan\n\n## Tests\n\nUnit tests only.\n")
	other := mustParse(t, "b.md", "# Plan\n\n## Fixtures\n\n```python\n@pytest.fixture\ndef state_dir(tmp_path):\n    return tmp_path\n\nMAX_RETRIES = 3\n```\n\n## Tests\n\nEach test takes `state_dir` and retries `MAX_RETRIES` times; `load_state()` is defined here:\n\n```python\ndef load_state(path):\n    pass\n```\n")
	in := PlanInput{Base: Variant{Label: "A", Doc: base}, Variants: []Variant{{Label: "B", Doc: other}},
		Strengths: []Strength{{Variant: "B", Section: SectionRef{Title: "Tests"}}}}
	p, err := NewPlan(in, WithClock(fixedClock))
	require.NoError(t, err)
	m, err := NewSectionMerger(WithClock(fixedClock)).Merge(context.Background(), Input{Base: base, Plan: p, Variants: []*diff.Document{other}})
	require.NoError(t, err)
	var names []string
	for _, id := range m.Log.Validation.Identifiers {
		names = append(names, id.Name)
		assert.Equal(t, "Fixtures", id.Section.Title)
	}
	assert.Equal(t, []string{"state_dir", "MAX_RETRIES"}, names, "load_state is defined in the imported text itself")
	assert.True(t, m.Log.Validation.Passed(), "a report, not a failure")
	assert.Contains(t, m.Log.Markdown(), "### Imported Identifiers")
}

func TestSameLabelText(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"**Verdict**: ", "**Verdict: ", true},
		{"- __Status__: ", "- Status:", true},
		{"Verdict: ", "Severity: ", false},
		{"Verdict", "Verdicts", false},
		{"** **", "__", false}, // nothing but marks is no label
		{"", "", false},
	}
	for _, tt := range tests {
		if got := sameLabelText(tt.a, tt.b); got != tt.want {
			t.Errorf("sameLabelText(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
