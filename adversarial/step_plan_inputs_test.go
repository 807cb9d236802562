package adversarial

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/merge"
)

func runOver(t *testing.T, docs ...[2]string) *run {
	t.Helper()
	x := &run{}
	for _, d := range docs {
		doc, err := diff.Parse(d[0], []byte(d[1]))
		require.NoError(t, err)
		x.docs = append(x.docs, doc)
	}
	return x
}

func TestLatestRevision(t *testing.T) {
	tests := []struct {
		name string
		docs [][2]string
		want int
	}{
		{"a title that says REVISED", [][2]string{{"plan.md", "# Plan\n"}, {"plan2.md", "# Plan (REVISED)\n"}}, 1},
		{"a file name that says revised", [][2]string{{"plan-revised.md", "# Plan\n"}, {"plan.md", "# Plan\n"}}, 0},
		{"version numbers order them", [][2]string{{"a.md", "# Spec v3\n"}, {"b.md", "# Spec v2\n"}, {"c.md", "# Spec\n"}}, 0},
		{"no marker: no order", [][2]string{{"a.md", "# Spec\n"}, {"b.md", "# Spec\n"}}, -1},
		{"every variant revised: no order", [][2]string{{"a.md", "# Spec (revised)\n"}, {"b.md", "# Spec (updated)\n"}}, -1},
		{"two of the same version: no order", [][2]string{{"a.md", "# Spec v2\n"}, {"b.md", "# Spec v2\n"}}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, runOver(t, tt.docs...).latestRevision())
		})
	}
}

func TestConflictWinner(t *testing.T) {
	values := func(vs ...string) []merge.ConflictValue {
		var out []merge.ConflictValue
		for i, v := range vs {
			out = append(out, merge.ConflictValue{Variant: label(i), Value: v})
		}
		return out
	}
	decided := &debate.Result{Decisions: []debate.Decision{{Point: "X-001", Winner: "C", Round: 2, Confidence: 85}}}
	plain := [][2]string{{"a.md", "# Spec\n"}, {"b.md", "# Spec\n"}, {"c.md", "# Spec\n"}}
	revised := [][2]string{{"a.md", "# Spec\n"}, {"b.md", "# Spec (REVISED)\n"}, {"c.md", "# Spec\n"}}
	tests := []struct {
		name   string
		docs   [][2]string
		d      *debate.Result
		k      merge.ResolvedConflict
		base   int
		keys   map[string]string
		winner string
		rule   string
	}{
		{"the debate's winner", plain, decided, merge.ResolvedConflict{Point: "X-001", Values: values("1", "2", "2")}, 0, nil, "C", "debate: Variant C won X-001 (round 2, confidence 85%)"},
		{"the later revision", revised, nil, merge.ResolvedConflict{Values: values("1", "2", "1")}, 0, nil, "B", `revision: Variant B is the later revision (its title says "REVISED")`},
		{"a strict majority", plain, nil, merge.ResolvedConflict{Values: values("MODIFY", "reject", "REJECT")}, 0, nil, "B", "majority: Variants B and C give the same value"},
		{"the base on a split", plain, nil, merge.ResolvedConflict{Values: values("1", "2", "3")}, 2, nil, "C", "the base"},
		{"the first when the base gives none", plain, nil, merge.ResolvedConflict{Values: values("1", "2")}, 2, nil, "A", "the first variant in input order"},
		{"a verdict's majority before the debate", plain, decided, merge.ResolvedConflict{Point: "X-001", Values: values("OVERSTATED", "CONFIRMED", "Overstated")}, 0, map[string]string{"A": "overstated", "B": "agree", "C": "overstated"}, "A", "majority: Variants A and C"},
		{"a verdict without a majority: the debate", plain, decided, merge.ResolvedConflict{Point: "X-001", Values: values("OVERSTATED", "CONFIRMED", "PARTIAL")}, 0, map[string]string{"A": "overstated", "B": "agree", "C": "partial"}, "C", "debate: Variant C won X-001"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, rule := runOver(t, tt.docs...).conflictWinner(tt.d, tt.k, tt.base, tt.keys)
			assert.Equal(t, tt.winner, w)
			assert.Contains(t, rule, tt.rule)
		})
	}
}

func TestSectionWinner(t *testing.T) {
	// A labelled choice that three variants answer three ways has no
	// contradiction point of its own; the debate's decision on the
	// content point comparing the sections that state it decides.
	a := &diff.Analysis{Points: []diff.Point{
		{ID: "C-001", Category: diff.CategoryContent, Positions: []diff.Position{{Section: 1}, {Section: 1}, {Section: 2}}},
		{ID: "C-002", Category: diff.CategoryContent, Positions: []diff.Position{{Section: 3}, {Section: 3}, {Section: 3}}},
	}}
	f := diff.FieldDisagreement{Item: "T1", Field: "Choice", Values: []diff.FieldValue{
		{Variant: 0, Section: 3, Value: "Option B"}, {Variant: 1, Section: 3, Value: "Option B with a checkpoint"}, {Variant: 2, Section: 3, Value: "Hybrid"},
	}}
	tests := []struct {
		name string
		d    *debate.Result
		want string
		ok   bool
	}{
		{"the debate decided the sections", &debate.Result{Decisions: []debate.Decision{{Point: "C-002", Winner: "B", Round: 1, Confidence: 72}}}, "B", true},
		{"left open", &debate.Result{Decisions: []debate.Decision{{Point: "C-002"}}}, "", false},
		{"a point about other sections", &debate.Result{Decisions: []debate.Decision{{Point: "C-001", Winner: "B"}}}, "", false},
		{"no debate", nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, rule, ok := sectionWinner(a, tt.d, f)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, w)
			if ok {
				assert.Contains(t, rule, "C-002")
			}
		})
	}
}

func TestEvidenceAmong(t *testing.T) {
	lines := []diff.Evidence{{Variant: 0, Line: 21}, {Variant: 1, Line: 30}, {Variant: 2, Line: 23}}
	assert.True(t, evidenceAmong([]diff.Evidence{{Variant: 0, Line: 21}, {Variant: 2, Line: 23}}, lines), "two of the three choices")
	assert.False(t, evidenceAmong([]diff.Evidence{{Variant: 0, Line: 21}, {Variant: 2, Line: 40}}, lines), "a line of another statement")
	assert.False(t, evidenceAmong([]diff.Evidence{{Variant: 1, Line: 21}}, lines), "the same line of another variant")
}

func TestValueOf(t *testing.T) {
	tests := []struct {
		value, class, want string
	}{
		{"OVERSTATED. The finding is correct, but overstated.", "disagree", "OVERSTATED"},
		{"CONFIRMED HIGH", "HIGH", "CONFIRMED HIGH"}, // rates HIGH: the label goes with it
		{"RECLASSIFY to CRITICAL", "CRITICAL", "RECLASSIFY to CRITICAL"},
		{"MEDIUM", "MEDIUM", "MEDIUM"},
		{"HIGH. Agree with the delta.", "HIGH", "HIGH"},
		{"Option B (background subprocess)", "", "Option B (background subprocess)"},
		{"64 KiB", "", "64 KiB"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, valueOf(tt.value, tt.class), "valueOf(%q, %q)", tt.value, tt.class)
	}
}
