package diff

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/crucible-go/crucible/internal/words"
)

// Minimal pairs. Two variants that state the same sentence on one topic
// but for one word ("One subprocess per phase." / "One subprocess per
// task.") make the same claim with a different choice in it. The rule is
// narrow on purpose: sentences of four to twelve words outside lists and
// tables, the same words in the same order but one, that one a content
// word in both (not a number, not a stop word), and not the sentence's
// first content word (a different subject makes a different claim, not a
// different choice).

const (
	pairMinWords = 4
	pairMaxWords = 12
)

type pairSentence struct {
	variant, block int
	sent           string
	toks           []string
}

// claim locates the sentence in its block, for quoting: done only for the
// sentences that pair up.
func (ps pairSentence) claim(docs []*Document) Claim {
	d := docs[ps.variant]
	b := d.Blocks[ps.block]
	c := Claim{Variant: ps.variant, Section: b.Section, Block: ps.block, Line: b.Line, Text: ps.sent, Type: Factual}
	src := d.Text(b.Span)
	if i, j, ok := locate(ps.sent, src); ok {
		c.Quote, c.Line = src[i:j], d.LineAt(b.Span.Start+i)
	} else {
		c.Quote = strings.TrimSpace(src)
	}
	return c
}

// detectMinimalPairs reports cross-variant sentences in one aligned topic
// that differ in exactly one content word.
func detectMinimalPairs(in DetectInput) []Contradiction {
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
	// A sentence's tokens and signatures depend on its text alone:
	// variants repeat many sentences, and each is read once. shapes holds
	// the reading of every sentence met, by its text.
	shapes := map[string]pairShape{}
	var sigSlab []uint64 // the signatures of every shape
	for v, d := range in.Documents {
		if v == 1 {
			// Variants are alike: the first one's entries and sentences
			// size the lists for the others, which then grow once rather
			// than double a dozen times.
			rest := len(in.Documents) - 1
			entries = slices.Grow(entries, len(entries)*rest+len(entries)*rest/8)
			sents = slices.Grow(sents, len(sents)*rest+len(sents)*rest/8)
		}
		lowerBlocks := d.lowerBlocks()
		for bi := range d.Blocks {
			b := &d.Blocks[bi]
			if b.Kind != Paragraph { // lists enumerate, tables tabulate, code is code
				continue
			}
			where := int32(-1)
			ascii := isASCII(b.Text)
			eachSentence(b, func(sent string) {
				shape, seen := shapes[sent]
				if !seen {
					shape = readPairShape(sent, b, lowerBlocks[bi], ascii, &slab, &sigSlab, &weighted)
					shapes[sent] = shape
				}
				if !shape.sized {
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
				if len(shape.sigs) == 0 {
					return
				}
				si := int32(len(sents))
				sents = append(sents, pairSentence{variant: v, block: bi, sent: sent, toks: shape.toks})
				for _, sig := range shape.sigs {
					entries = append(entries, entry{sig, where, si, int32(len(entries))})
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

// pairShape is what detectMinimalPairs reads of a sentence's text.
type pairShape struct {
	sized bool     // it is no question and has pairMinWords to pairMaxWords tokens
	toks  []string // its tokens, when it has signatures
	// sigs are its signatures, one per word that may carry a choice: the
	// words with their positions, less that word (see detectMinimalPairs).
	sigs []uint64
}

// readPairShape reads a sentence of block b (lower, the block's text
// lower-cased; ascii, whether the block is ASCII). The tokens of a
// sentence with signatures go to *slab and the signatures to *sigSlab,
// each holding its stretch (a stretch left in an array the slab has
// outgrown stays valid); weighted is scratch.
func readPairShape(sent string, b *Block, lower string, ascii bool, slab *[]string, sigSlab *[]uint64, weighted *[]uint64) pairShape {
	if strings.HasSuffix(sent, "?") {
		return pairShape{}
	}
	plain := withoutAsides(sent)
	if isASCII(plain) {
		// ASCII lower-cases without changing what a word is, so the count
		// says whether Tokens would be kept.
		if n := words.Count(plain); n < pairMinWords || n > pairMaxWords {
			return pairShape{}
		}
	}
	// A sentence without asides of an ASCII block is read from the
	// block's lower-cased text, as claims are.
	if ascii && plain == sent {
		if k := strings.Index(b.Text, sent); k >= 0 {
			plain = lower[k : k+len(sent)]
		}
	}
	start := len(*slab)
	*slab = words.AppendTokens(*slab, plain)
	toks := (*slab)[start:len(*slab):len(*slab)]
	if len(toks) < pairMinWords || len(toks) > pairMaxWords {
		*slab = (*slab)[:start]
		return pairShape{}
	}
	shape := pairShape{sized: true}
	// the word that differs must come after the first content word: a
	// different subject ("The gateway …" / "The worker …") makes a
	// different claim, not a different choice
	first := slices.IndexFunc(toks, pairWord)
	if first < 0 {
		*slab = (*slab)[:start]
		return shape
	}
	w := (*weighted)[:0]
	total := uint64(len(toks))
	for j, t := range toks {
		w = append(w, wordHash(t)*(mix64(uint64(j)+1)|1)) // an odd weight per position
		total += w[j]
	}
	*weighted = w
	from := len(*sigSlab)
	for i := first + 1; i < len(toks); i++ {
		if pairWord(toks[i]) {
			*sigSlab = append(*sigSlab, total-w[i])
		}
	}
	if len(*sigSlab) == from {
		*slab = (*slab)[:start]
		return shape
	}
	shape.toks, shape.sigs = toks, (*sigSlab)[from:len(*sigSlab):len(*sigSlab)]
	return shape
}

// withoutAsides drops parenthesised remarks: "One subprocess per phase
// (unchanged architecture)." states what "One subprocess per phase." does.
func withoutAsides(s string) string {
	if strings.IndexByte(s, '(') < 0 && utf8.ValidString(s) {
		return s // nothing to drop; the loop below would copy s rune by rune
	}
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// pairWord reports whether a token can carry a choice: a word with
// letters that is not a stop word.
func pairWord(t string) bool {
	return hasLetter(t) && !words.IsStopWord(t) && !containsDigit(t)
}

// differingWord returns the one position where two equally long token
// lists differ, or -1 when they differ in none or several.
func differingWord(a, b []string) int {
	if len(a) != len(b) {
		return -1
	}
	at := -1
	for i := range a {
		if a[i] != b[i] {
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	return at
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
