package merge

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDropTallies(t *testing.T) {
	base := "# R\n\n## 1. Item X\n\n**Verdict**: CONFIRMED. Holds.\n\n## 2. Item Y\n\n**Verdict**: ACCURATE. Holds.\n\n## 3. Summary\n\nAll checked.\n"
	other := "# R\n\n## Item X\n\n**Verdict**: OVERSTATED. Less than claimed.\n\n## Item Y\n\n**Verdict**: ACCURATE.\n\n" +
		"## Finding verdicts\n\n| Rating | Count | Items |\n|---|---|---|\n| OVERSTATED | 1 | X |\n| ACCURATE | 1 | Y |\n"
	verdicts := func(xWinner string) []ResolvedConflict {
		return []ResolvedConflict{
			{Subject: "Item X / Verdict", Winner: xWinner, Rule: "majority",
				Values: []ConflictValue{{Variant: "A", Value: "CONFIRMED"}, {Variant: "B", Value: "OVERSTATED"}}},
			{Subject: "Item Y / Verdict", Winner: "A", Rule: "agree",
				Values: []ConflictValue{{Variant: "A", Value: "ACCURATE"}, {Variant: "B", Value: "ACCURATE"}}},
		}
	}
	tests := []struct {
		name      string
		conflicts []ResolvedConflict
		table     string // replaces the tally's rows
		added     bool
	}{
		{"a tally of values its variant lost", verdicts("A"), "", false},
		{"its variant won every conflict of the field", verdicts("B"), "", true},
		{"a table of other things", verdicts("A"), "| Step | Days |\n|---|---|\n| Parse | 2 |\n| Merge | 3 |\n", true},
		{"values without counts", verdicts("A"), "| Rating | Meaning |\n|---|---|\n| OVERSTATED | less than claimed |\n| ACCURATE | as claimed |\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := other
			if tt.table != "" {
				src = other[:len(other)-len("| Rating | Count | Items |\n|---|---|---|\n| OVERSTATED | 1 | X |\n| ACCURATE | 1 | Y |\n")] + tt.table
			}
			in := PlanInput{
				Base:      Variant{Label: "A", Doc: mustParse(t, "a.md", base)},
				Variants:  []Variant{{Label: "B", Doc: mustParse(t, "b.md", src)}},
				Strengths: []Strength{{Variant: "B", Section: SectionRef{Title: "Finding verdicts"}, Description: "B's summary"}},
				Conflicts: tt.conflicts,
			}
			p, err := NewPlan(in, WithClock(fixedClock))
			require.NoError(t, err)
			var titles []string
			for _, c := range p.Changes {
				titles = append(titles, c.Source.Section.Title)
			}
			assert.Equal(t, tt.added, len(titles) == 1 && titles[0] == "Finding verdicts", "changes: %v; not made: %+v", titles, p.Rejected)
			if !tt.added {
				var why []string
				for _, r := range p.Rejected {
					why = append(why, r.Rationale)
				}
				assert.Contains(t, why, "Not added: it counts Variant B's own Verdict values (OVERSTATED, ACCURATE), and the merged document states another variant's value for 1 of its items, so the counts would not describe it.")
			}
		})
	}
}

func FuzzTallyOf(f *testing.F) {
	f.Add("| OVERSTATED | 8 | a |\n| ACCURATE | 7 | b |\n")
	f.Add("|||\n| overstated |1|\n|x")
	fields := []*lostField{{name: "Verdict", values: []string{"overstated", "accurate"}, lost: 1}}
	f.Fuzz(func(t *testing.T, text string) {
		fld, rows, ok := tallyOf(text, fields)
		if !ok {
			return
		}
		if fld != fields[0] || len(rows) < tallyRows {
			t.Fatalf("tally %v with rows %q", fld, rows)
		}
		for _, r := range rows {
			if !strings.Contains(text, r) {
				t.Errorf("row value %q is not in the text", r)
			}
		}
	})
}
