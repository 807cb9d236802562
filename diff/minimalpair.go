package diff

import (
	"fmt"
	"slices"
	"strings"

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
	claim Claim
	toks  []string
}

// detectMinimalPairs reports cross-variant sentences in one aligned topic
// that differ in exactly one content word.
func detectMinimalPairs(in DetectInput) []Contradiction {
	if len(in.Topics) == 0 {
		return nil
	}
	place := newTopicIndex(in)
	bySig := map[string][]pairSentence{}
	var sigs []string
	for v, d := range in.Documents {
		forEachSentence(d, v, func(sent string, row *tableRow, locate func(*Claim)) {
			if row != nil || strings.HasSuffix(sent, "?") {
				return
			}
			toks := words.Tokens(withoutAsides(sent))
			if len(toks) < pairMinWords || len(toks) > pairMaxWords {
				return
			}
			var c Claim
			c.Text = sent
			locate(&c)
			if d.Blocks[c.Block].Kind == ListItem {
				return
			}
			where := place.of(v, c.Section)
			// the word that differs must come after the first content word:
			// a different subject ("The gateway …" / "The worker …") makes a
			// different claim, not a different choice
			first := slices.IndexFunc(toks, pairWord)
			for i := first + 1; first >= 0 && i < len(toks); i++ {
				if !pairWord(toks[i]) {
					continue
				}
				sig := where + "|" + strings.Join(toks[:i], " ") + " _ " + strings.Join(toks[i+1:], " ")
				if _, ok := bySig[sig]; !ok {
					sigs = append(sigs, sig)
				}
				bySig[sig] = append(bySig[sig], pairSentence{claim: c, toks: toks})
			}
		})
	}
	var out []Contradiction
	byChoice := map[string]int{} // the two words and variants → index in out: one choice stated in several sentences is one conflict
	seen := map[[2]string]bool{}
	for _, sig := range sigs {
		group := bySig[sig]
		for x := 0; x < len(group); x++ {
			for y := x + 1; y < len(group); y++ {
				a, b := group[x], group[y]
				if a.claim.Variant == b.claim.Variant {
					continue
				}
				i := differingWord(a.toks, b.toks)
				if i < 0 || !pairWord(a.toks[i]) || !pairWord(b.toks[i]) {
					continue
				}
				k := [2]string{a.claim.Quote, b.claim.Quote}
				if seen[k] {
					continue
				}
				seen[k] = true
				choice := fmt.Sprintf("%d:%s|%d:%s", a.claim.Variant, a.toks[i], b.claim.Variant, b.toks[i])
				if at, ok := byChoice[choice]; ok {
					out[at].Claims = append(out[at].Claims, a.claim, b.claim)
					sortClaims(out[at].Claims)
					continue
				}
				byChoice[choice] = len(out)
				subject := strings.Join(a.toks[:i], " ") + " …"
				out = append(out, Contradiction{Kind: ExclusiveChoice, Subject: subject,
					Claims: []Claim{a.claim, b.claim}, Impact: Medium,
					Key:    "pair:" + strings.Join(a.toks[:i], " ") + "|" + strings.Join(a.toks[i+1:], " "),
					Reason: "the same statement with a different choice: " + a.toks[i] + " vs " + b.toks[i]})
			}
		}
	}
	return out
}

// withoutAsides drops parenthesised remarks: "One subprocess per phase
// (unchanged architecture)." states what "One subprocess per phase." does.
func withoutAsides(s string) string {
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
