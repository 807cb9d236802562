package debate

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTopStableIsTheStableSortsHead checks topStable against the first k
// of a stable descending sort, over lists with many ties.
func TestTopStableIsTheStableSortsHead(t *testing.T) {
	type item struct {
		id  int
		key float64
	}
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		n, k := r.IntN(40), 1+r.IntN(6)
		items := make([]item, n)
		for i := range items {
			items[i] = item{i, float64(r.IntN(5)) / 4} // few distinct keys: ties everywhere
		}
		want := slices.Clone(items)
		slices.SortStableFunc(want, func(x, y item) int { return cmpFloatDesc(x.key, y.key) })
		want = want[:min(k, n)]
		got := topStable(items, k, func(x item) float64 { return x.key })
		assert.Equal(t, want, append([]item{}, got...), "trial %d: n=%d k=%d", trial, n, k)
	}
}
