package scoring

import (
	"strings"
	"sync/atomic"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/internal/words"
)

// coverage is how much of the reference one variant covers.
type coverage struct {
	matched   int
	unmatched []string // ids or topic titles, in reference order
	// first is the byte offset in the variant's source of the text that
	// matched the first covered item, -1 when nothing matched.
	first int
}

// cover measures d, the variant labelled label, against ref: an id counts
// when the variant mentions it anywhere (a grep of the whole text); a
// requirement without its id counts when its description and the variant
// share a run of at least three consecutive significant words (a fuzzy
// match); a topic of the step 1 alignment counts when the variant's
// aligned section bears content; any other topic counts when a section of
// the variant with content is titled for it.
//
// items, when not nil, holds the reference's items' trigrams for every
// variant measured against it (see itemGrams).
func cover(d *diff.Document, label string, ref Reference, items *itemGrams) coverage {
	c := coverage{first: -1}
	if ref.Aligned {
		for _, item := range ref.Items {
			si, ok := item.Sections[label]
			if !ok || si < 0 || si >= len(d.Sections) {
				c.unmatched = append(c.unmatched, item.Text)
				continue
			}
			c.matched++
			if c.first < 0 {
				c.first = d.Sections[si].Heading.Start
			}
		}
		return c
	}
	if ref.ByTopic {
		var sets []words.Set
		for _, s := range d.Sections {
			sets = append(sets, words.NewSet(refs.StripNumber(s.Title)))
		}
		for _, item := range ref.Items {
			is := words.NewSet(item.Text)
			found := -1
			for i, s := range d.Sections {
				if s.Depth >= 1 && sameTopic(refs.StripNumber(s.Title), sets[i], item.Text, is) && bearsContent(d, i) {
					found = i
					break
				}
			}
			if found < 0 {
				c.unmatched = append(c.unmatched, item.Text)
				continue
			}
			c.matched++
			if c.first < 0 {
				c.first = d.Sections[found].Heading.Start
			}
		}
		return c
	}
	// A grep for the ids, in any case: upper-casing the text may turn
	// words into id-like strings ("top-10"), which is harmless, as only the
	// reference's ids are looked up.
	ids := requirementIDsOf(d)
	src := d.Source
	var grams gramIndex
	for i, item := range ref.Items {
		if ids[item.ID] {
			c.matched++
			if c.first < 0 {
				c.first = indexFold(src, item.ID)
			}
			continue
		}
		if grams == nil {
			grams = gramsOf(d)
		}
		if off, ok := grams.matchGrams(items.of(i, item.Text)); ok {
			c.matched++
			if c.first < 0 {
				c.first = off
			}
			continue
		}
		c.unmatched = append(c.unmatched, item.ID)
	}
	return c
}

type requirementIDsKey struct{}

// requirementIDsOf returns the set of requirement ids d mentions, in any
// case, computed once per document: the quantitative layer and the rule
// judge both measure coverage.
func requirementIDsOf(d *diff.Document) map[string]bool {
	return d.Memo(requirementIDsKey{}, func() any {
		ids := map[string]bool{}
		if strings.IndexByte(d.Source, '-') >= 0 {
			for _, id := range lexicon.RequirementIDs(strings.ToUpper(d.Source)) {
				ids[id] = true
			}
		}
		return ids
	}).(map[string]bool)
}

type gramsKey struct{}

// gramsOf is newGramIndex(d), computed once per document.
func gramsOf(d *diff.Document) gramIndex {
	return d.Memo(gramsKey{}, func() any { return newGramIndex(d) }).(gramIndex)
}

// indexFold returns the offset of the first occurrence of id (ASCII) in
// s, in any case, or -1.
func indexFold(s, id string) int {
	if i := strings.Index(s, id); i >= 0 {
		return i
	}
	for i := 0; i+len(id) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(id)], id) {
			return i
		}
	}
	return -1
}

// gramIndex maps every run of three consecutive significant words of a
// document (a trigram, hashed) to the offset of the heading or block it
// occurs in.
type gramIndex map[uint64]int

func newGramIndex(d *diff.Document) gramIndex {
	g := gramIndex{}
	var w []string // the block's significant words; one buffer for every block
	add := func(text string, off int) {
		w = appendSignificant(w[:0], text)
		for i := 0; i+3 <= len(w); i++ {
			h := trigram(w[i], w[i+1], w[i+2])
			if _, ok := g[h]; !ok {
				g[h] = off
			}
		}
	}
	for _, s := range d.Sections {
		add(s.Title, s.Heading.Start)
	}
	for _, b := range d.Blocks {
		if b.Kind != diff.Code && !b.Header {
			add(b.Text, b.Span.Start)
		}
	}
	return g
}

// matchGrams reports whether a text with the trigrams grams (see
// gramsOfText) shares one with the document, and the offset of the first
// block that holds one.
func (g gramIndex) matchGrams(grams []uint64) (int, bool) {
	best, ok := -1, false
	for _, h := range grams {
		if off, hit := g[h]; hit && (!ok || off < best) {
			best, ok = off, true
		}
	}
	return best, ok
}

// gramsOfText returns the trigrams of text's significant words, in order.
func gramsOfText(text string) []uint64 {
	w := significant(text)
	out := make([]uint64, 0, max(len(w)-2, 0))
	for i := 0; i+3 <= len(w); i++ {
		out = append(out, trigram(w[i], w[i+1], w[i+2]))
	}
	return out
}

// itemGrams keeps the trigrams of a reference's items, each computed the
// first time a variant needs it: the quantitative layer measures every
// variant against the same items, in parallel. A nil *itemGrams computes
// them on every call.
type itemGrams struct {
	grams []atomic.Pointer[[]uint64] // by item; nil until computed
}

func newItemGrams(ref Reference) *itemGrams {
	return &itemGrams{grams: make([]atomic.Pointer[[]uint64], len(ref.Items))}
}

// of returns gramsOfText(text) for item i, whose text is text. Two
// variants may compute an item at once; both store the same trigrams.
func (x *itemGrams) of(i int, text string) []uint64 {
	if x == nil || i >= len(x.grams) {
		return gramsOfText(text)
	}
	if g := x.grams[i].Load(); g != nil {
		return *g
	}
	g := gramsOfText(text)
	x.grams[i].Store(&g)
	return g
}

// significant returns the significant words of text in order: lower-cased,
// stemmed, without stop words and requirement ids.
func significant(text string) []string {
	toks := words.Tokens(text)
	out := toks[:0]
	for _, t := range toks {
		if words.IsStopWord(t) || lexicon.IsRequirementID(t) {
			continue
		}
		out = append(out, words.Stem(t))
	}
	return out
}

// appendSignificant appends significant(text) to dst, without the token
// slice Tokens would build: the gram index reads every block of every
// variant.
func appendSignificant(dst []string, text string) []string {
	words.Each(text, func(t string) {
		if words.IsStopWord(t) || lexicon.IsRequirementID(t) {
			return
		}
		dst = append(dst, words.Stem(t))
	})
	return dst
}

// trigram hashes three words with FNV-1a; deterministic across runs.
func trigram(a, b, c string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i, s := range [3]string{a, b, c} {
		if i > 0 {
			h *= prime // a zero byte between words: "ab c" and "a bc" differ
		}
		for j := 0; j < len(s); j++ {
			h ^= uint64(s[j])
			h *= prime
		}
	}
	return h
}
