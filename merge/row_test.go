package merge

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRestateRow(t *testing.T) {
	tests := []struct {
		name      string
		lose, win ConflictValue
		want      string // "" when the row is not restated cell by cell
		rationale bool
	}{
		{
			name: "only the value's cell, and the rationale comes along",
			lose: ConflictValue{Variant: "A", Value: "MEDIUM", Text: "| Trailing gate | MEDIUM -- P2 | **MEDIUM** | Agree. Infrastructure exists; wiring is work. |"},
			win:  ConflictValue{Variant: "C", Value: "LOW", Text: "| Trailing gate | MEDIUM — Phase 2 | LOW | Implementation gap, no spec text change needed. |"},
			want: "| Trailing gate | MEDIUM -- P2 | **LOW** | Implementation gap, no spec text change needed. |", rationale: true,
		},
		{
			name: "the winner gives its value in another column: the value alone",
			lose: ConflictValue{Variant: "A", Value: "MEDIUM", Text: "| Trailing gate | MEDIUM -- P2 | **MEDIUM** | Agree. Infrastructure exists; wiring is work. |"},
			win:  ConflictValue{Variant: "C", Value: "LOW", Text: "| Trailing gate | LOW | Phase 2 | Implementation gap, no spec text change needed. |"},
			want: "| Trailing gate | MEDIUM -- P2 | **LOW** | Agree. Infrastructure exists; wiring is work. |",
		},
		{
			name: "a last cell that is another field stays",
			lose: ConflictValue{Variant: "A", Value: "High", Text: "| R-2 | Parser breaks | High | Low |"},
			win:  ConflictValue{Variant: "B", Value: "Medium", Text: "| R-2 | Parser breaks | Medium | High |"},
			want: "| R-2 | Parser breaks | Medium | Low |",
		},
		{
			name: "a value in the middle of a cell, escaped pipes kept",
			lose: ConflictValue{Variant: "A", Value: "30 s", Text: `| a \| b | timeout 30 s | x |`},
			win:  ConflictValue{Variant: "B", Value: "60 s", Text: "| a | 60 s | x |"},
			want: `| a \| b | timeout 60 s | x |`,
		},
		{
			name: "the value in two cells: not this rule's to choose",
			lose: ConflictValue{Variant: "A", Value: "MEDIUM", Text: "| x | MEDIUM | MEDIUM |"},
			win:  ConflictValue{Variant: "B", Value: "LOW", Text: "| x | LOW | LOW |"},
		},
		{
			name: "not a row",
			lose: ConflictValue{Variant: "A", Value: "MEDIUM", Text: "**Severity**: MEDIUM"},
			win:  ConflictValue{Variant: "B", Value: "LOW", Text: "**Severity**: LOW"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := restateRow(tt.lose, tt.win)
			assert.Equal(t, tt.want != "", ok)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.rationale, movesRationale(tt.lose, tt.win))
			if tt.want != "" {
				text := "before\n" + tt.lose.Text + "\nafter\n"
				stated, ok := stateWinner(text, tt.lose, tt.win)
				assert.True(t, ok)
				assert.Equal(t, "before\n"+tt.want+"\nafter\n", stated, "stateWinner restates the row cell by cell")
			}
		})
	}
}

// FuzzSplitRow: a row splits into cells that put it back together
// unchanged, and never more cells than it has pipes.
func FuzzSplitRow(f *testing.F) {
	for _, s := range []string{"| a | b |", `| a \| b | c`, "  |x||", "|", `| \`, "| **MEDIUM** | Agree. |  "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, ok := splitRow(s)
		if !ok {
			return
		}
		if got := r.String(); got != s {
			t.Fatalf("splitRow(%q).String() = %q", s, got)
		}
		if len(r.cells) > strings.Count(s, "|") {
			t.Fatalf("%d cells from %d pipes in %q", len(r.cells), strings.Count(s, "|"), s)
		}
	})
}
