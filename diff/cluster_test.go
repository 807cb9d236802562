package diff

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCluster(t *testing.T) {
	k := func(group string, ws ...string) keyed { return keyed{group: group, words: ws} }
	tests := []struct {
		name  string
		items []keyed
		same  [][2]int // pairs in one cluster
		apart [][2]int // pairs in different clusters
	}{
		{"identical sets", []keyed{k("g", "cache", "size"), k("g", "cache", "size")}, [][2]int{{0, 1}}, nil},
		{"one word more", []keyed{k("g", "buffer", "pipe", "size"), k("g", "buffer", "pipe", "size", "total")}, [][2]int{{0, 1}}, nil},
		{"one word swapped, Dice too low", []keyed{k("g", "buffer", "pipe"), k("g", "buffer", "prompt")}, nil, [][2]int{{0, 1}}},
		{"one word swapped of four", []keyed{k("g", "a", "b", "c", "d"), k("g", "a", "b", "c", "e")}, [][2]int{{0, 1}}, nil},
		{"other group", []keyed{k("g", "cache", "size"), k("h", "cache", "size")}, nil, [][2]int{{0, 1}}},
		{"transitive", []keyed{k("g", "a", "b", "c", "d"), k("g", "a", "b", "c", "d", "e"), k("g", "a", "b", "c", "e")}, [][2]int{{0, 1}, {1, 2}, {0, 2}}, nil},
		{"disjoint", []keyed{k("g", "a", "b"), k("g", "c", "d")}, nil, [][2]int{{0, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ids := cluster(tt.items, 0.75)
			for _, p := range tt.same {
				assert.Equal(t, ids[p[0]], ids[p[1]], "items %d and %d", p[0], p[1])
			}
			for _, p := range tt.apart {
				assert.NotEqual(t, ids[p[0]], ids[p[1]], "items %d and %d", p[0], p[1])
			}
		})
	}
}

func TestDropOneMeets(t *testing.T) {
	shared := func(a, b keyed) bool {
		in := map[uint64]bool{}
		for _, s := range dropOne(a, nil) {
			in[s] = true
		}
		for _, s := range dropOne(b, nil) {
			if in[s] {
				return true
			}
		}
		return false
	}
	assert.True(t, shared(keyed{"g", []string{"a", "b"}}, keyed{"g", []string{"a", "b", "c"}}), "a set and its superset by one word")
	assert.True(t, shared(keyed{"g", []string{"a", "b", "c"}}, keyed{"g", []string{"a", "b", "d"}}), "equal sizes, one word apart")
	assert.False(t, shared(keyed{"g", []string{"a", "b"}}, keyed{"g", []string{"c", "d"}}), "no word in common")
	assert.False(t, shared(keyed{"g", []string{"a", "b"}}, keyed{"h", []string{"a", "b"}}), "other group")
}
