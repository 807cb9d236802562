package merge

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/internal/samplegen"
	"github.com/crucible-go/crucible/internal/words"
)

// locateScan is locate as it was before the index: every question scans
// every section. The index must give the same answer to every question.
func locateScan(d *diff.Document, r SectionRef) (int, bool) {
	if d == nil || r.IsZero() {
		return -1, false
	}
	numberMatches := func(i int) bool {
		if r.Number == "" {
			return false
		}
		ref := refOf(d, i)
		return ref.Number == r.Number || d.Sections[i].Number == r.Number
	}
	if r.Title == "" {
		for i, s := range d.Sections {
			if n, _, _, ok := refs.HeadingNumber(s.Title); ok && n == r.Number {
				return i, true
			}
		}
		for i, s := range d.Sections {
			if s.Number == r.Number {
				return i, true
			}
		}
		return -1, false
	}
	want := normTitle(refs.StripNumber(r.Title))
	full := normTitle(r.Title)
	best := -1
	for i, s := range d.Sections {
		if normTitle(s.Title) == full || normTitle(refs.StripNumber(s.Title)) == want {
			if numberMatches(i) {
				return i, true
			}
			if best < 0 {
				best = i
			}
		}
	}
	if best >= 0 {
		return best, true
	}
	set := words.NewSet(refs.StripNumber(r.Title))
	bestScore := 0.0
	for i, s := range d.Sections {
		score := set.Dice(words.NewSet(refs.StripNumber(s.Title)))
		if score < refs.SameTitle {
			continue
		}
		if numberMatches(i) {
			score++
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best, best >= 0
}

// TestLocateIndexMatchesScan asks the indexed locate and the scan the
// same questions — every section's own reference, its title or number
// alone, and altered titles (words dropped, added or reordered, numbers
// changed) that only the word overlap can match — over documents with
// repeated titles and numbers.
func TestLocateIndexMatchesScan(t *testing.T) {
	docs := map[string][]byte{
		"spec":     samplegen.Spec(3, 40<<10),
		"sections": samplegen.Sections(4, 400),
		"repeats": []byte("# T\n\n## 1. Error Handling\n\n### 1.1 Retry Policy\n\n## 2. Error Handling Strategy\n\n" +
			"### 2.1 Retry Policy\n\n## Retry\n\n## 3. Error Handling\n\n### Section 3.1 Retry policy\n\n## 1. Notes\n\n## The\n\n## 4\n" +
			"## 5. Alpha Beta Delta\n\n## 6. Alpha Beta Gamma\n\n## 7. Alpha Beta Gamma\n"),
		// one title under more numbers than a word group lists before it
		// keeps them in a map
		"one title": []byte(strings.Repeat("## Open Questions and Risks\n\nText.\n\n### Open Risks and Questions\n\n", 2*maxNumbered+3)),
	}
	r := rand.New(rand.NewPCG(7, 11))
	extra := []string{"strategy", "policy", "of", "the", "plan", "3.2", "Item", "Data"}
	for name, src := range docs {
		d, err := diff.Parse(name, src)
		require.NoError(t, err)
		var questions []SectionRef
		for i, s := range d.Sections {
			ref := refOf(d, i)
			questions = append(questions, ref, SectionRef{Title: s.Title}, SectionRef{Number: ref.Number},
				SectionRef{Number: s.Number}, SectionRef{Number: fmt.Sprint(r.IntN(30)), Title: s.Title})
			ws := strings.Fields(refs.StripNumber(s.Title))
			if len(ws) > 1 {
				drop := r.IntN(len(ws))
				questions = append(questions, SectionRef{Number: ref.Number, Title: strings.Join(append(append([]string{}, ws[:drop]...), ws[drop+1:]...), " ")})
			}
			added := append(append([]string{}, ws...), extra[r.IntN(len(extra))])
			r.Shuffle(len(added), func(a, b int) { added[a], added[b] = added[b], added[a] })
			questions = append(questions, SectionRef{Title: strings.Join(added, " ")},
				SectionRef{Number: d.Sections[r.IntN(len(d.Sections))].Number, Title: strings.Join(added, " ")})
		}
		questions = append(questions, SectionRef{Title: "nothing like it"}, SectionRef{Number: "99.9"}, SectionRef{Title: "the of"},
			SectionRef{Title: "Alpha Beta Gamma Delta"}, SectionRef{Number: "7", Title: "Gamma Alpha Delta Beta"})
		// the first child of each title under each parent
		x := indexOf(d)
		parents := map[int][]int{-1: d.TopLevel()}
		for p, s := range d.Sections {
			parents[p] = s.Children
		}
		for p, ks := range parents {
			for _, k := range ks {
				title := normTitle(refs.StripNumber(d.Sections[k].Title))
				want := k
				for _, j := range ks {
					if normTitle(refs.StripNumber(d.Sections[j].Title)) == title {
						want = j
						break
					}
				}
				got, ok := x.childTitled(p, title)
				require.True(t, ok)
				require.Equal(t, want, got, "%s: child %q of %d", name, title, p)
			}
		}
		for _, q := range questions {
			wi, wok := locateScan(d, q)
			gi, gok := locate(d, q)
			require.Equal(t, [2]any{wi, wok}, [2]any{gi, gok}, "%s: locate(%+v)", name, q)
		}
	}
}
