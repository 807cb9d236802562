package diff

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/internal/samplegen"
	"github.com/crucible-go/crucible/internal/words"
)

func TestMinimalPairs(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want []string // reasons of the minimal-pair contradictions
	}{
		{"one word differs in the predicate",
			"# P\n\nOne subprocess per phase (unchanged architecture). The runner allocates turns.\n",
			"# P\n\nOne subprocess per task. The runner allocates turns.\n",
			[]string{"the same statement with a different choice: phase vs task"}},
		{"the subject differs: another claim, not another choice",
			"# P\n\n## Limits\n\nThe gateway retries failed calls twice.\n",
			"# P\n\n## Limits\n\nThe worker retries failed calls twice.\n",
			nil},
		{"list items are enumerations, not choices",
			"# P\n\n## Risks\n\n- Vendor outage during peak hours.\n",
			"# P\n\n## Risks\n\n- Vendor lockin during peak hours.\n",
			nil},
		{"two words differ",
			"# P\n\n## Rollout\n\nShip the canary to one region first.\n",
			"# P\n\n## Rollout\n\nShip the beta to all regions first.\n",
			nil},
		{"a choice another rule names is reported once",
			"# P\n\n## Storage\n\nUse PostgreSQL for the metadata store.\n",
			"# P\n\n## Storage\n\nUse MongoDB for the metadata store.\n",
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Parse("a.md", []byte(tt.a))
			require.NoError(t, err)
			b, err := Parse("b.md", []byte(tt.b))
			require.NoError(t, err)
			an, err := Analyze(context.Background(), []*Document{a, b})
			require.NoError(t, err)
			var got []string
			for _, p := range an.ByCategory(CategoryContradiction) {
				if p.Kind == string(ExclusiveChoice) && len(p.Reason) > 0 && p.Reason[:8] == "the same" {
					got = append(got, p.Reason)
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// detectMinimalPairsPlain is detectMinimalPairs as it was before it read
// each sentence text once (readPairShape): every sentence tokenised and
// signed where it occurs. The two must find the same pairs.
func detectMinimalPairsPlain(in DetectInput) []Contradiction {
	if len(in.Topics) == 0 {
		return nil
	}
	place := newTopicIndex(in)
	// A signature is the sentence's place and its words with one left
	// out, kept as a hash: the sum of each word's hash weighted by its
	// position, less the word left out. Sentences whose signatures
	// collide are still compared word by word below.
	//
	// The signatures are sorted rather than filed in a map: nearly every
	// one is unique, and a map entry for each cost more than the sort.
	// A place is numbered in the order it first comes.
	type entry struct {
		words     uint64
		where     int32 // the place's number
		sent, seq int32 // the sentence in sents; the entry's order of coming
	}
	whereID := map[string]int32{}
	var entries []entry
	var sents []pairSentence
	var weighted []uint64
	var slab []string // the tokens of every sentence kept
	for v, d := range in.Documents {
		lowerBlocks := d.lowerBlocks()
		for bi := range d.Blocks {
			b := &d.Blocks[bi]
			if b.Kind != Paragraph { // lists enumerate, tables tabulate, code is code
				continue
			}
			where := int32(-1)
			ascii := isASCII(b.Text)
			eachSentence(b, func(sent string) {
				if strings.HasSuffix(sent, "?") {
					return
				}
				plain := withoutAsides(sent)
				if isASCII(plain) {
					// ASCII lower-cases without changing what a word is,
					// so the count says whether Tokens would be kept.
					if n := words.Count(plain); n < pairMinWords || n > pairMaxWords {
						return
					}
				}
				// A sentence without asides of an ASCII block is read
				// from the block's lower-cased text, as claims are.
				if ascii && plain == sent {
					if k := strings.Index(b.Text, sent); k >= 0 {
						plain = lowerBlocks[bi][k : k+len(sent)]
					}
				}
				// The tokens go to one slab for all sentences: a sentence
				// kept holds its stretch of it (a stretch left in an array
				// the slab has outgrown stays valid); one dropped gives its
				// stretch back.
				start := len(slab)
				slab = words.AppendTokens(slab, plain)
				toks := slab[start:len(slab):len(slab)]
				keep := false
				defer func() {
					if !keep {
						slab = slab[:start]
					}
				}()
				if len(toks) < pairMinWords || len(toks) > pairMaxWords {
					return
				}
				if where < 0 {
					w := place.of(v, b.Section)
					id, ok := whereID[w]
					if !ok {
						id = int32(len(whereID))
						whereID[w] = id
					}
					where = id
				}
				// the word that differs must come after the first content
				// word: a different subject ("The gateway …" / "The worker …")
				// makes a different claim, not a different choice
				first := slices.IndexFunc(toks, pairWord)
				if first < 0 {
					return
				}
				weighted = weighted[:0]
				total := uint64(len(toks))
				for j, t := range toks {
					weighted = append(weighted, wordHash(t)*(mix64(uint64(j)+1)|1)) // an odd weight per position
					total += weighted[j]
				}
				si := int32(-1)
				for i := first + 1; i < len(toks); i++ {
					if !pairWord(toks[i]) {
						continue
					}
					if si < 0 {
						si = int32(len(sents))
						sents = append(sents, pairSentence{variant: v, block: bi, sent: sent, toks: toks})
						keep = true
					}
					entries = append(entries, entry{total - weighted[i], where, si, int32(len(entries))})
				}
			})
		}
	}
	// Sorted by signature, entries of one signature in their order of
	// coming; the groups of two or more are then taken in the order their
	// signatures first came.
	slices.SortFunc(entries, func(a, b entry) int {
		if a.where != b.where {
			return cmp.Compare(a.where, b.where)
		}
		if a.words != b.words {
			return cmp.Compare(a.words, b.words)
		}
		return cmp.Compare(a.seq, b.seq)
	})
	type run struct{ lo, hi int }
	var runs []run
	for i := 0; i < len(entries); {
		j := i + 1
		for j < len(entries) && entries[j].where == entries[i].where && entries[j].words == entries[i].words {
			j++
		}
		if j-i >= 2 {
			runs = append(runs, run{i, j})
		}
		i = j
	}
	slices.SortFunc(runs, func(a, b run) int { return cmp.Compare(entries[a.lo].seq, entries[b.lo].seq) })
	var out []Contradiction
	byChoice := map[string]int{} // the two words and variants → index in out: one choice stated in several sentences is one conflict
	seen := map[[2]string]bool{}
	var group []pairSentence
	for _, r := range runs {
		group = group[:0]
		for _, e := range entries[r.lo:r.hi] {
			group = append(group, sents[e.sent])
		}
		for x := 0; x < len(group); x++ {
			for y := x + 1; y < len(group); y++ {
				a, b := group[x], group[y]
				if a.variant == b.variant {
					continue
				}
				i := differingWord(a.toks, b.toks) // also rules out colliding signatures
				if i < 0 || !pairWord(a.toks[i]) || !pairWord(b.toks[i]) {
					continue
				}
				k := [2]string{a.sent, b.sent}
				if seen[k] {
					continue
				}
				seen[k] = true
				ca, cb := a.claim(in.Documents), b.claim(in.Documents)
				choice := fmt.Sprintf("%d:%s|%d:%s", a.variant, a.toks[i], b.variant, b.toks[i])
				if at, ok := byChoice[choice]; ok {
					out[at].Claims = append(out[at].Claims, ca, cb)
					sortClaims(out[at].Claims)
					continue
				}
				byChoice[choice] = len(out)
				subject := strings.Join(a.toks[:i], " ") + " …"
				out = append(out, Contradiction{Kind: ExclusiveChoice, Subject: subject,
					Claims: []Claim{ca, cb}, Impact: Medium,
					Key:    "pair:" + strings.Join(a.toks[:i], " ") + "|" + strings.Join(a.toks[i+1:], " "),
					Reason: "the same statement with a different choice: " + a.toks[i] + " vs " + b.toks[i]})
			}
		}
	}
	return out
}

// detectorSets returns the variant sets the rules are held to their
// plain forms on, aligned: generated variants, which repeat sentences,
// and every set under testdata/sets.
func detectorSets(t *testing.T) []DetectInput {
	t.Helper()
	var sets [][]*Document
	var gen []*Document
	for i := range 4 {
		d, err := Parse(fmt.Sprintf("v%d.md", i+1), samplegen.Spec(uint64(i+1), 24<<10))
		require.NoError(t, err)
		gen = append(gen, d)
	}
	sets = append(sets, gen)
	dirs, err := filepath.Glob("testdata/sets/*")
	require.NoError(t, err)
	for _, dir := range dirs {
		paths, err := filepath.Glob(filepath.Join(dir, "*.md"))
		require.NoError(t, err)
		var docs []*Document
		for _, p := range paths {
			src, err := os.ReadFile(p)
			require.NoError(t, err)
			d, err := Parse(filepath.Base(p), src)
			require.NoError(t, err)
			docs = append(docs, d)
		}
		if len(docs) >= 2 {
			sets = append(sets, docs)
		}
	}
	var out []DetectInput
	for _, docs := range sets {
		in := NewDetectInput(docs...)
		in.Topics = exportTopics(docs, alignSections(docs))
		out = append(out, in)
	}
	return out
}

func TestMinimalPairsShapesChangeNothing(t *testing.T) {
	found := 0
	for _, in := range detectorSets(t) {
		want := detectMinimalPairsPlain(in)
		found += len(want)
		require.Equal(t, want, detectMinimalPairs(in))
	}
	require.Positive(t, found, "no set has a minimal pair: the test compares nothing")
}

// detectOpposingPlain is detectOpposing as it was before it left out the
// places where no claim denies anything: every claim clustered.
func detectOpposingPlain(in DetectInput) []Contradiction {
	place := newTopicIndex(in)
	n := 0 // at most every claim: sized once rather than grown by doubling
	for v := range in.Claims {
		n += len(in.Claims[v])
	}
	refs, items := make([]*Claim, 0, n), make([]keyed, 0, n)
	for v := range in.Claims {
		where, whereOf := "", -2 // the place of section whereOf: claims come section by section
		for ci := range in.Claims[v] {
			c := &in.Claims[v][ci]
			// A table cell is a value, not a statement: "No (final step)"
			// in a column denies nothing said elsewhere.
			if len(c.sig) == 0 || c.Type == Dependency || in.Documents[v].Blocks[c.Block].Kind == TableRow {
				continue
			}
			if c.Section != whereOf {
				where, whereOf = place.of(v, c.Section), c.Section
			}
			refs = append(refs, c)
			items = append(items, keyed{group: where, words: c.sig})
		}
	}
	var out []Contradiction
	for _, members := range groupClusters(cluster(items, 0.8)) {
		var pos, neg []*Claim
		for _, m := range members {
			if refs[m].Negated {
				neg = append(neg, refs[m])
			} else {
				pos = append(pos, refs[m])
			}
		}
		if len(pos) == 0 || len(neg) == 0 {
			continue
		}
		out = append(out, polarityContradictions(pos, neg)...)
	}
	return out
}

func TestOpposingPlacesChangeNothing(t *testing.T) {
	found := 0
	for _, in := range detectorSets(t) {
		want := detectOpposingPlain(in)
		found += len(want)
		require.Equal(t, want, detectOpposing(in))
	}
	require.Positive(t, found, "no set has opposing claims: the test compares nothing")
}
