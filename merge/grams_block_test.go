package merge

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blockConflictsInput is a plan of n changes from Variant B, each stating
// a latency, and a conflict for every fifth change whose losing value is
// B's statement there, in that change and sometimes repeated in a later
// one: most losing values stand in one change of many.
func blockConflictsInput(n int) (PlanInput, []Change) {
	r := rand.New(rand.NewPCG(7, 11))
	in := PlanInput{Base: Variant{Label: "A"}}
	var changes []Change
	for i := range n {
		text := fmt.Sprintf("### Service %d\n\nService %d must answer within %d ms at the 95th percentile.\n", i, i, 10*(1+r.IntN(50)))
		changes = append(changes, Change{Number: i + 1, Source: SourceSection{Variant: VariantRef{Label: "B"}, Text: text}})
	}
	for i := 0; i < n; i += 5 {
		lose := fmt.Sprintf("Service %d must answer within 999 ms at the 95th percentile.", i)
		changes[i].Source.Text += lose + "\n"
		if r.IntN(4) == 0 && i+3 < n {
			// a later change repeats the statement: both must be edited
			changes[i+3].Source.Text += lose + "\n"
		}
		in.Conflicts = append(in.Conflicts, ResolvedConflict{Subject: fmt.Sprintf("service %d latency", i), Winner: "A",
			Rule: "debate", Values: []ConflictValue{
				{Variant: "A", Value: "200 ms", Text: fmt.Sprintf("Service %d must answer within 200 ms at the 95th percentile.", i)},
				{Variant: "B", Value: "999 ms", Text: lose},
			}})
	}
	return in, changes
}

// TestResolveConflictsBlocks holds the block filters to probing every
// change: one block per change, one block for all, and the blocks the
// plan uses edit the same changes and reject the same values.
func TestResolveConflictsBlocks(t *testing.T) {
	const n = 300
	in, base := blockConflictsInput(n)
	run := func(block int) ([]Change, []Rejection, []Amendment) {
		changes := append([]Change(nil), base...)
		rej, am := resolveConflictsBlocks(in, changes, block)
		return changes, rej, am
	}
	want, wantRej, wantAm := run(1)
	edited := 0
	for i := range want {
		if want[i].Source.Text != base[i].Source.Text {
			edited++
		}
	}
	require.Greater(t, edited, n/5, "the losing statements are in the changes and get restated")
	for _, block := range []int{gramBlock, 7, n + 1} {
		t.Run(fmt.Sprint(block), func(t *testing.T) {
			got, rej, am := run(block)
			assert.Equal(t, want, got)
			assert.Equal(t, wantRej, rej)
			assert.Equal(t, wantAm, am)
		})
	}
}

// TestBlockGramsHoldEveryMember checks a block's set against every
// member's text, and that it still rules out text that no member holds.
func TestBlockGramsHoldEveryMember(t *testing.T) {
	_, changes := blockConflictsInput(200)
	list := make([]int, len(changes))
	for i := range list {
		list[i] = i
	}
	bs := blockGrams(changes, list, gramBlock)
	require.Len(t, bs, (len(changes)+gramBlock-1)/gramBlock)
	for i, c := range changes {
		b := bs[i/gramBlock]
		for lo := 0; lo+gramLen <= len(c.Source.Text); lo += 5 {
			needle := c.Source.Text[lo:min(lo+24, len(c.Source.Text))]
			require.True(t, b.mayContain(needle), "change %d, %q", i, needle)
		}
	}
	ruledOut := 0
	for _, b := range bs {
		if !b.mayContain("a statement no change makes, 12345 km") {
			ruledOut++
		}
	}
	assert.Equal(t, len(bs), ruledOut)
}
