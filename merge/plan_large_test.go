package merge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/samplegen"
)

// largePlanInput takes every section of a document of n short sections
// into a short base, as the base selection does when a huge inventory
// loses to a normal document: one change per section.
func largePlanInput(t testing.TB, n int) PlanInput {
	base, err := diff.Parse("base.md", samplegen.Spec(1, 8<<10))
	require.NoError(t, err)
	big, err := diff.Parse("big.md", samplegen.Sections(1, n))
	require.NoError(t, err)
	in := PlanInput{Base: Variant{Label: "A", Agent: "original", Doc: base},
		Variants: []Variant{{Label: "B", Agent: "original", Doc: big}}}
	for i, s := range big.Sections {
		if s.Depth == 1 {
			in.Strengths = append(in.Strengths, Strength{Variant: "B", Section: refOf(big, i),
				Description: "Variant B's section " + s.Title, Why: "unique contribution"})
		}
	}
	return in
}

func TestLargePlanSaysSo(t *testing.T) {
	tests := []struct {
		name     string
		sections int
		large    bool
	}{
		{"reviewable", 100, false},
		{"too large to review", 1500, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewPlan(largePlanInput(t, tt.sections), WithClock(fixedClock))
			require.NoError(t, err)
			md := p.Markdown()
			if !tt.large {
				require.LessOrEqual(t, len(p.Changes), LargePlan)
				assert.Empty(t, p.Warning())
				assert.NotContains(t, md, "Warning")
				assert.NotContains(t, p.Summary(), "Warning")
				return
			}
			require.Greater(t, len(p.Changes), LargePlan)
			assert.Contains(t, p.Warning(), "a person can review one by one")
			assert.Contains(t, p.Summary(), "Warning: the refactoring plan has")
			overview := md[:strings.Index(md, "## Planned Changes")]
			assert.Contains(t, overview, "- **Warning:** The refactoring plan has ")
			// the group table comes first, bounded, and accounts for every change
			changes := md[strings.Index(md, "## Planned Changes"):strings.Index(md, "### Change 1:")]
			assert.Contains(t, changes, "| Changes | Count | Approach | Target | From | Risk |")
			rows := strings.Count(changes, "\n| ") - 1 // the header's separator row starts with "|-"
			assert.LessOrEqual(t, rows, maxGroupRows+1)
			total := 0
			for _, g := range p.changeGroups() {
				total += len(g.numbers)
			}
			assert.Equal(t, len(p.Changes), total)
			// every change is still listed in full
			assert.Equal(t, len(p.Changes), strings.Count(md, "\n### Change "))
		})
	}
}

func TestNumberRanges(t *testing.T) {
	tests := []struct {
		in   []int
		want string
	}{
		{[]int{4}, "#4"},
		{[]int{1, 2, 3, 7, 9, 10}, "#1–#3, #7, #9–#10"},
		{[]int{1, 3, 5, 7, 9, 11, 13}, "#1, #3, #5, #7, #9, … (7 ranges)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, numberRanges(tt.in))
	}
}

// BenchmarkNewPlanLarge builds the plan of one change per top-level
// section of a document of n short sections: the plan's cost per change
// must not grow with the plan ("ns/change" stays flat across sizes).
func BenchmarkNewPlanLarge(b *testing.B) {
	for _, n := range []int{1000, 5000, 20000} {
		in := largePlanInput(b, n)
		b.Run(fmt.Sprintf("sections=%d", n), func(b *testing.B) {
			var changes int
			for b.Loop() {
				p, err := NewPlan(in, WithClock(fixedClock))
				if err != nil {
					b.Fatal(err)
				}
				changes = len(p.Changes)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(max(changes, 1)), "ns/change")
			b.ReportMetric(float64(changes), "changes")
		})
	}
}

// BenchmarkPlanMarkdownLarge renders the plan of BenchmarkNewPlanLarge:
// rendering costs the same per change whatever the plan's size
// ("ns/change" stays flat across sizes).
func BenchmarkPlanMarkdownLarge(b *testing.B) {
	for _, n := range []int{1000, 5000, 20000} {
		p, err := NewPlan(largePlanInput(b, n), WithClock(fixedClock))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("sections=%d", n), func(b *testing.B) {
			for b.Loop() {
				_ = p.Markdown()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(max(len(p.Changes), 1)), "ns/change")
		})
	}
}
