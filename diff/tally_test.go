package diff

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tallyFindings runs the rule detector over docs and keeps the
// contradictions whose key starts with prefix.
func tallyFindings(t *testing.T, prefix string, docs ...string) []Contradiction {
	t.Helper()
	var parsed []*Document
	for i, src := range docs {
		d, err := Parse(string(rune('a'+i))+".md", []byte(src))
		require.NoError(t, err)
		parsed = append(parsed, d)
	}
	cs, err := DetectContradictions(context.Background(), parsed...)
	require.NoError(t, err)
	var out []Contradiction
	for _, c := range cs {
		if strings.HasPrefix(c.Key, prefix) {
			out = append(out, c)
		}
	}
	return out
}

func TestTallies(t *testing.T) {
	const head = "# Plan\n\n## Budget\n\n"
	tests := []struct {
		name, table string
		want        []string // reasons, in order
		lines       [][]int  // cited lines per finding
	}{
		{
			name: "a total that is the sum of its rows",
			table: "| Stage | Days | Cost |\n|---|---|---|\n| Build | 3-4 days | 1,200 |\n| Test | 2 days | 800 |\n| Ship | 1-2 days | 500 |\n" +
				"| **Total** | **6-8 days** | **2,500** |\n",
		},
		{
			name: "a total that is not",
			table: "| Stage | Days | Cost |\n|---|---|---|\n| Build | 3-4 days | 1,200 |\n| Test | 2 days | 800 |\n| Ship | 1-2 days | 500 |\n" +
				"| **Total** | **6-8 days** | **2,400** |\n",
			want:  []string{"the total row says 2,400, the rows above it add up to 2500"},
			lines: [][]int{{7, 8, 9, 10}},
		},
		{
			name:  "a count of items the rows list differently",
			table: "| Phase | Tasks | Tokens |\n|---|---|---|\n| 1 | 1.1 | 60 |\n| 2 | 2.1-2.4 | 1,400 |\n| 3 | 3.1, 3.2 | 900 |\n| Total | 6 tasks | 2,360 |\n",
			want:  []string{"the total row says 6 tasks, the rows above it list 7"},
			lines: [][]int{{7, 8, 9, 10}},
		},
		{
			name: "a wrong count restated in prose is cited with it, another id's digits are not",
			table: "| Phase | Tasks |\n|---|---|\n| 1 | 1.1 |\n| 2 | 2.1-2.4 |\n| 3 | 3.1, 3.2 |\n| Total | 6 tasks |\n\n" +
				"- Result: 9 tasks → 6 tasks after merging.\n- T5.8 depends on all other M6 tasks.\n",
			want:  []string{"the total row says 6 tasks, the rows above it list 7"},
			lines: [][]int{{7, 8, 9, 10, 12}},
		},
		{
			name:  "a count that matches its ranges",
			table: "| Phase | Tasks | Tokens |\n|---|---|---|\n| 1 | 1.1 | 60 |\n| 2 | 2.1-2.4 | 1,400 |\n| 3 | 3.1, 3.2 | 900 |\n| Total | 7 tasks | 2,360 |\n",
		},
		{
			name:  "an estimate is never summed",
			table: "| Stage | Days |\n|---|---|\n| Build | ~3 days |\n| Test | 2 days |\n| Ship | 1 day |\n| Total | 9 days |\n",
		},
		{
			name:  "an average column is not a sum",
			table: "| Stage | Avg latency |\n|---|---|\n| Build | 30 |\n| Test | 20 |\n| Ship | 10 |\n| Total | 20 |\n",
		},
		{
			name:  "different units are not added",
			table: "| Stage | Effort |\n|---|---|\n| Build | 3 days |\n| Test | 16 hours |\n| Ship | 1 day |\n| Total | 1 week |\n",
		},
		{
			name:  "a row's count against the items it lists",
			table: "| Rating | Count | Items |\n|---|---|---|\n| HIGH | 3 | R-1, R-4, R-7, R-9 |\n| LOW | 2 | R-2, R-3 |\n| NONE | 0 | |\n",
			want:  []string{"the row counts 3 and lists 4"},
			lines: [][]int{{7, 7}},
		},
		{
			name: "the items the body labels so but the row leaves out are cited with it; 2.11 is not 2.1",
			table: "| Rating | Count | Items |\n|---|---|---|\n| OVERSTATED | 2 | Delta 2.1, 2.4, NR-1 |\n\n" +
				"## Delta 2.1 -- A\n\n**Verdict**: OVERSTATED. x\n\n## Delta 2.4 -- B\n\n**Verdict**: OVERSTATED.\n\n" +
				"## Delta 2.11 -- C\n\n**Verdict**: OVERSTATED. The absence is real.\n\n## NR-1 -- D\n\n**Verdict**: OVERSTATED.\n\n" +
				"## NR-2 -- E\n\n**Verdict**: ACCURATE.\n",
			want:  []string{"the row counts 2 and lists 3"},
			lines: [][]int{{7, 7, 19}},
		},
		{
			name: "a row whose count and list agree is not checked against the body",
			table: "| Rating | Count | Items |\n|---|---|---|\n| OVERSTATED | 2 | Delta 2.1, 2.4 |\n\n" +
				"## Delta 2.11 -- C\n\n**Verdict**: OVERSTATED. The absence is real.\n",
		},
		{
			name:  "prose beside a count is not a list",
			table: "| Rating | Count | Notes |\n|---|---|---|\n| HIGH | 3 | mostly storage, some network |\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tallyFindings(t, "tally:", head+tt.table)
			require.Len(t, got, len(tt.want), "%+v", got)
			for i, c := range got {
				assert.Equal(t, tt.want[i], c.Reason)
				assert.Contains(t, c.Subject, "in the table of “Budget”")
				assert.Equal(t, IntraVariant, c.Scope())
				var lines []int
				for _, cl := range c.Claims {
					lines = append(lines, cl.Line)
					assert.Contains(t, head+tt.table, cl.Quote, "quotes are verbatim")
				}
				assert.Equal(t, tt.lines[i], lines)
			}
		})
	}
}

func TestCountItems(t *testing.T) {
	tests := []struct {
		cell string
		n    int
		ok   bool
	}{
		{"1.1", 1, true},
		{"2.1-2.4", 4, true},
		{"Delta 2.1, 2.4, NR-1, NR-6", 4, true},
		{"T3-T7", 5, true},
		{"**3.1, 3.2**", 2, true},
		{"2.1-3.4", 0, false}, // the ids differ in more than their last number
		{"storage, network", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		n, ok := countItems(tt.cell)
		assert.Equal(t, tt.ok, ok, tt.cell)
		assert.Equal(t, tt.n, n, tt.cell)
	}
}

func TestLineContent(t *testing.T) {
	const a = "# Review A\n\n| Cited | Actual | Status |\n|---|---|---|\n| `models.py:203-241` | Class at 204. Line 203 is the end of `to_summary`. | WRONG |\n| `cli.py:34` | Line 34 is `pass`. | WRONG |\n"
	tests := []struct {
		name string
		b    string
		want []string // subjects
	}{
		{"blank against code", "# Review B\n\n| Cited | Actual | Status |\n|---|---|---|\n| `models.py:203-241` | Line 203 is blank. | WRONG |\n", []string{"what line 203 of models.py holds"}},
		{"the same line of another file", "# Review B\n\n| Cited | Actual | Status |\n|---|---|---|\n| `executor.py:203` | Line 203 is blank. | WRONG |\n", nil},
		{"two descriptions of code are wording", "# Review B\n\n| Cited | Actual | Status |\n|---|---|---|\n| `cli.py:34` | Line 34 is the end of the group. | WRONG |\n", nil},
		{"a negation says what the line is not", "# Review B\n\n| Cited | Actual | Status |\n|---|---|---|\n| `cli.py:34` | Line 34 is not the run command. Line 34 is empty. | WRONG |\n", []string{"what line 34 of cli.py holds"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tallyFindings(t, "line-content:", a, tt.b)
			var subjects []string
			for _, c := range got {
				subjects = append(subjects, c.Subject)
				require.Len(t, c.Claims, 2)
				assert.Equal(t, CrossVariant, c.Scope())
				assert.NotEqual(t, c.Claims[0].Variant, c.Claims[1].Variant)
			}
			assert.Equal(t, tt.want, subjects)
		})
	}
}
