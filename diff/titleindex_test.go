package diff

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/crucible-go/crucible/internal/words"
)

// randomTitles draws titles from a small vocabulary, so that equal word
// sets, near sets, case variants and titles without significant words
// ("1.", "The") are common.
func randomTitles(r *rand.Rand, n int) []string {
	vocab := []string{"Rate", "limits", "Limit", "API", "api", "Storage", "storage", "Retention", "Policy", "policies",
		"Security", "Model", "Threat", "the", "and", "of", "1.", "2.3", "Overview", "Data", "Flow", "K", "\u212a", "ſ", "s"}
	out := make([]string, n)
	for i := range out {
		k := r.IntN(5)
		var ws []string
		for range k {
			ws = append(ws, vocab[r.IntN(len(vocab))])
		}
		t := strings.Join(ws, " ")
		if r.IntN(4) == 0 {
			t = " " + t + " "
		}
		out[i] = t
	}
	return out
}

// TestTitleIndexAgreesWithTheScan checks the index's answers against a
// scan of every title with titleOverlap: the first title at sameSection
// or more, and the best unused one as the structural clusters take it.
func TestTitleIndexAgreesWithTheScan(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for trial := range 300 {
		titles := randomTitles(r, 1+r.IntN(60))
		sets := make([]words.Set, len(titles))
		for i, tt := range titles {
			sets[i] = words.NewSet(tt)
		}
		x := newTitleIndex(sets)
		n := len(titles) / 2
		var repTitles []string
		var repSets []words.Set
		for i := range n {
			x.add(i, titles[i], sets[i])
			repTitles, repSets = append(repTitles, titles[i]), append(repSets, sets[i])
		}
		used := map[int]bool{}
		next := map[int]int{}
		for q := n; q < len(titles); q++ {
			want := -1
			for i := range repTitles {
				if titleOverlap(titles[q], sets[q], repTitles[i], repSets[i]) >= sameSection {
					want = i
					break
				}
			}
			assert.Equal(t, want, x.first(titles[q], sets[q]), "trial %d: first for %q", trial, titles[q])
			// The best unused title, as structuralPoints scans the
			// clusters; a query matching none becomes one, used at once.
			wantBest, bestScore := -1, sameSection
			for i := range repTitles {
				if used[i] {
					continue
				}
				score := titleOverlap(titles[q], sets[q], repTitles[i], repSets[i])
				if score >= bestScore && (wantBest < 0 || score > bestScore) {
					wantBest, bestScore = i, score
				}
			}
			got, _ := x.bestUnused(titles[q], sets[q], used, next)
			assert.Equal(t, wantBest, got, "trial %d: best unused for %q", trial, titles[q])
			if got < 0 {
				got = len(repTitles)
				x.add(got, titles[q], sets[q])
				repTitles, repSets = append(repTitles, titles[q]), append(repSets, sets[q])
			}
			used[got] = true
		}
	}
}
