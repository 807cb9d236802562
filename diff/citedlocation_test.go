package diff

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLocationCorrections(t *testing.T) {
	const correction = "# Review A\n\n## Delta 2.9\n\n**Challenge**: Verified with a correction. The `stall_status` property is at `models.py:449-463` (not 452-463 as claimed; the decorator is at 449). The threshold is at 454.\n"
	tests := []struct {
		name  string
		other string
		want  []int // cited lines, empty for no finding
	}{
		{"another reviewer confirms the denied place",
			"# Review B\n\n## Delta 2.9\n\n- `sprint/models.py:452-463`: `MonitorState.stall_status` property -- CONFIRMED.\n", []int{5, 5}},
		{"another reviewer corrects it elsewhere",
			"# Review B\n\n## Delta 2.9\n\nThe `stall_status` property is at `models.py:450-463` (not 452-463; 450 is the def).\n", []int{5, 5}},
		{"another reviewer confirms the corrected place",
			"# Review B\n\n## Delta 2.9\n\n- `sprint/models.py:449-463`: `stall_status` property -- CONFIRMED.\n", nil},
		{"the denied place quoted without a reviewer's word",
			"# Review B\n\n## Delta 2.9\n\n**Original claim**: `stall_status` lives at `sprint/models.py:452-463` with a 120 s threshold.\n", nil},
		{"another name confirmed at that place",
			"# Review B\n\n## Delta 2.9\n\n- `sprint/models.py:452-463`: `MonitorState.events` field -- CONFIRMED.\n", nil},
		{"the same place in another file",
			"# Review B\n\n## Delta 2.9\n\n- `sprint/monitor.py:452-463`: `stall_status` property -- CONFIRMED.\n", nil},
		{"a confirmation that is negated",
			"# Review B\n\n## Delta 2.9\n\n- `sprint/models.py:452-463`: `stall_status` is not there -- CONFIRMED missing.\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tallyFindings(t, "location:", correction, tt.other)
			if tt.want == nil {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1, "%+v", got)
			c := got[0]
			assert.Equal(t, CrossVariant, c.Scope())
			assert.Contains(t, c.Subject, "stall_status")
			var lines []int
			for i, cl := range c.Claims {
				lines = append(lines, cl.Line)
				src := []string{correction, tt.other}[cl.Variant]
				assert.Contains(t, strings.Split(src, "\n")[cl.Line-1], cl.Quote, "claim %d quotes its line", i)
			}
			assert.Equal(t, tt.want, lines)
			assert.True(t, strings.HasPrefix(c.Claims[0].Quote, "The `stall_status` property is at"), c.Claims[0].Quote)
		})
	}

	t.Run("one reviewer's correction and its own quoted claim are no contradiction", func(t *testing.T) {
		doc := correction + "\n- `sprint/models.py:452-463`: `stall_status` property -- CONFIRMED.\n"
		assert.Empty(t, tallyFindings(t, "location:", doc, "# Review B\n\n## Other\n\nNothing.\n"))
	})
}

func TestRowCorrections(t *testing.T) {
	tests := []struct {
		name string
		row  []string
		want []string // name=value
	}{
		{"should be", []string{"`executor.py:764-768` (signature)", "3-arg", "Line 764 is blank.", "**INACCURATE** -- should be 765-769"},
			[]string{"Corrected range=765-769"}},
		{"actual lines", []string{"OV-3: `executor.py:764-768` current signature", "3-arg", "Actual: lines 765-768. Line 765: `def f(`", "**REFUTED**"},
			[]string{"Corrected range=765-768"}},
		{"the row's subject spans lines, and should be agrees", []string{"`executor.py:764-768` (signature)", "x", "Signature spans lines 765-769 (def on 765).", "should be 765-769"},
			[]string{"Corrected range=765-769"}},
		{"a named part", []string{"`commands.py:34-170` (run)", "range", "The function body is lines 140-170.", "**INACCURATE**"},
			[]string{"Function body=140-170"}},
		{"a range, not the cited one", []string{"OV-4: `executor.py:200-209` status", "x", "y", "**REFUTED** -- 201-210, not 200-209"},
			[]string{"Corrected range=201-210"}},
		{"the citation confirmed is no correction", []string{"`executor.py:658-663` (call site)", "x", "Lines 658-663: comment at 658.", "should be 658-663"}, nil},
		{"two different corrections say nothing certain", []string{"`executor.py:764-768` (signature)", "x", "Signature spans lines 765-769.", "should be 765-770"}, nil},
		{"a row without a citation", []string{"Signature", "x", "should be 765-769"}, nil},
		{"a single line is not a range", []string{"`executor.py:764` (signature)", "x", "should be 765"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range fldRowCorrections(tt.row) {
				got = append(got, f.Name+"="+f.Value)
				assert.True(t, f.lines)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestCorrectedRangesCompared(t *testing.T) {
	const a = "# Review A\n\n## Line citations\n\n| Reference | Claimed | Actual | Verdict |\n|---|---|---|---|\n" +
		"| `executor.py:764-768` (signature) | 3-arg | Signature spans lines 765-769. | **INACCURATE** -- should be 765-769 |\n" +
		"| `executor.py:243-281` (to_markdown) | range | `def to_markdown` at 244. | **INACCURATE** -- should be 244-282 |\n"
	const b = "# Review B\n\n## References\n\n| Reference | Claimed | Actual | Verdict |\n|---|---|---|---|\n" +
		"| OV-3: `executor.py:764-768` current signature | 3-arg | Actual: lines 765-768. | **REFUTED** -- 765, not 764 |\n" +
		"| OV-4: `executor.py:243-281` to_markdown | exists | Actual: lines 244-282. | **REFUTED** |\n"
	_, an := analyseFields(t, a, b)
	require.Len(t, an.Fields, 1, "%+v", an.Fields)
	fd := an.Fields[0]
	assert.Equal(t, "Corrected range", fd.Field)
	assert.Equal(t, []int{7, 7}, []int{fd.Values[0].Line, fd.Values[1].Line})
	assert.Equal(t, []string{"765-769", "765-768"}, []string{fd.Values[0].Value, fd.Values[1].Value}, "768 and 769 are different lines")
	found := 0
	for _, p := range an.ByCategory(CategoryContradiction) {
		if strings.Contains(p.Title, "Corrected range") {
			found++
		}
	}
	assert.Equal(t, 1, found, "one contradiction, for the signature; to_markdown's corrections agree")
}
