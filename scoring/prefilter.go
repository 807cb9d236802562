package scoring

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// pattern is a regular expression with a cheap prefilter: lower-cased
// strings one of which every match must contain. The rule judge runs a
// few dozen expressions over every line of every variant, twice; most
// lines hold none of an expression's keywords, and a substring search
// rules them out far faster than the regexp engine can.
type pattern struct {
	re   *regexp.Regexp
	keys []string // nil: no prefilter, always run re
	// anchored: the expression holds ^ or \A, which would match wrongly at
	// the start of a window, so find always searches the whole line.
	anchored bool
	// grams are the keys' bytes and byte pairs, one set per key; nil
	// when there are no keys: see mayHold.
	grams []bigrams
	// groups are the keys grouped by their first two bytes, for mayHold.
	groups []gramGroup
	// starts indexes the keys by their first two bytes, for firstKey.
	starts *keyStarts
}

// keyStarts finds the earliest key of a pattern in a line in one pass:
// the bytes that start a key, the byte pairs that start one, and the keys
// by first byte. A line a pattern's byte pairs do not rule out (long
// lines hold most pairs) is scanned once, instead of once per key.
type keyStarts struct {
	first [4]uint64      // bytes that start a key
	pair  [256][4]uint64 // pair[a] holds b when a key starts with a, b
	short [4]uint64      // bytes that are a whole key of one byte
	keys  [256][]string  // by first byte, the keys of two bytes or more
}

func newKeyStarts(keys []string) *keyStarts {
	ks := &keyStarts{}
	for _, k := range keys {
		a := k[0]
		ks.first[a>>6] |= 1 << (a & 63)
		if len(k) == 1 {
			ks.short[a>>6] |= 1 << (a & 63)
			continue
		}
		b := k[1]
		ks.pair[a][b>>6] |= 1 << (b & 63)
		ks.keys[a] = append(ks.keys[a], k)
	}
	return ks
}

// firstKey returns where the earliest key starts in lower, or -1: the
// least i at which some key occurs.
func (ks *keyStarts) firstKey(lower string) int {
	for i := 0; i < len(lower); i++ {
		a := lower[i]
		if ks.first[a>>6]&(1<<(a&63)) == 0 {
			continue
		}
		if ks.short[a>>6]&(1<<(a&63)) != 0 {
			return i
		}
		if i+1 == len(lower) {
			break
		}
		if b := lower[i+1]; ks.pair[a][b>>6]&(1<<(b&63)) == 0 {
			continue
		}
		for _, k := range ks.keys[a] {
			if strings.HasPrefix(lower[i:], k) {
				return i
			}
		}
	}
	return -1
}

// compile builds a pattern, deriving its keys from the expression.
func compile(expr string) pattern {
	p := pattern{re: regexp.MustCompile(expr)}
	if t, err := syntax.Parse(expr, syntax.Perl); err == nil {
		t = t.Simplify()
		p.anchored = hasStartAnchor(t)
		if keys, _ := prefixes(t); len(keys) > 0 && !containsEmpty(keys) {
			p.keys = minimal(keys)
		}
	}
	for _, k := range p.keys {
		p.grams = append(p.grams, bigramsOf(k))
	}
	if p.keys != nil {
		p.starts = newKeyStarts(p.keys)
		p.groups = groupGrams(p.keys, p.grams)
	}
	return p
}

// gramGroup is the keys that start with the same two bytes, with what
// their signatures share: a text without the shared bytes and pairs holds
// none of them, so one test rules out the group ("empty list", "empty
// set", … and the other "empty" keys at once).
type gramGroup struct {
	common  bigrams
	members []int // indexes into grams
}

func groupGrams(keys []string, grams []bigrams) []gramGroup {
	var groups []gramGroup
	byStart := map[string]int{}
	for i, k := range keys {
		start := k[:min(2, len(k))]
		gi, ok := byStart[start]
		if !ok {
			gi = len(groups)
			byStart[start] = gi
			groups = append(groups, gramGroup{common: grams[i]})
		}
		g := &groups[gi]
		for w := range g.common.bytes {
			g.common.bytes[w] &= grams[i].bytes[w]
			g.common.pairs[w] &= grams[i].pairs[w]
		}
		g.members = append(g.members, i)
	}
	return groups
}

// bigrams is a signature of a text: the set of its bytes, and the set of
// its byte pairs hashed to 256 bits. It rules a pattern out for a line
// with a few word operations before find scans the line once per key. A
// text that holds a key holds every byte and byte pair of it, so its sets
// include the key's.
type bigrams struct {
	bytes, pairs [4]uint64
}

func bigramsOf(s string) bigrams {
	var g bigrams
	for i := 0; i < len(s); i++ {
		c := s[i]
		g.bytes[c>>6] |= 1 << (c & 63)
		if i+1 < len(s) {
			h := c*31 + s[i+1]
			g.pairs[h>>6] |= 1 << (h & 63)
		}
	}
	return g
}

func (g *bigrams) includes(k *bigrams) bool {
	return k.bytes[0]&^g.bytes[0]|k.bytes[1]&^g.bytes[1]|k.bytes[2]&^g.bytes[2]|k.bytes[3]&^g.bytes[3]|
		k.pairs[0]&^g.pairs[0]|k.pairs[1]&^g.pairs[1]|k.pairs[2]&^g.pairs[2]|k.pairs[3]&^g.pairs[3] == 0
}

// mayHold reports whether a text whose lower-cased form has byte pairs g
// may hold one of p's keys, and so a match; true when p has no such
// signature.
func (p *pattern) mayHold(g *bigrams) bool {
	if p.grams == nil {
		return true
	}
	for gi := range p.groups {
		grp := &p.groups[gi]
		if !g.includes(&grp.common) {
			continue // no key of the group: each holds what they share
		}
		if len(grp.members) == 1 {
			return true // the shared signature is the key's own
		}
		for _, i := range grp.members {
			if g.includes(&p.grams[i]) {
				return true
			}
		}
	}
	return false
}

func hasStartAnchor(r *syntax.Regexp) bool {
	if r.Op == syntax.OpBeginLine || r.Op == syntax.OpBeginText {
		return true
	}
	for _, s := range r.Sub {
		if hasStartAnchor(s) {
			return true
		}
	}
	return false
}

// minimal drops the keys that start with another key: a line where a
// match starts with "timeouts" has "timeout" at the same place. (Only
// prefixes are dropped, so the earliest key still marks where the
// earliest match can start.)
func minimal(keys []string) []string {
	var out []string
	for _, k := range keys {
		redundant := false
		for _, o := range keys {
			if o != k && strings.HasPrefix(k, o) {
				redundant = true
				break
			}
		}
		if !redundant {
			out = append(out, k)
		}
	}
	return out
}

func containsEmpty(ss []string) bool {
	for _, s := range ss {
		if s == "" {
			return true
		}
	}
	return false
}

// foldLower lower-cases s for the prefilter keys, and maps the long s
// to s as well: case folding makes "ſ" match an "s" of a case-insensitive
// expression, but strings.ToLower keeps it. (The other non-ASCII letter
// that folds to an ASCII one, the Kelvin sign, lower-cases to "k".)
func foldLower(s string) string {
	l := strings.ToLower(s)
	if strings.Contains(l, "ſ") {
		l = strings.ReplaceAll(l, "ſ", "s")
	}
	return l
}

// find returns the first match of p in s, whose lower-cased form is lower
// (foldLower(s)).
//
// Every match starts where a key occurs, so the expression only needs to
// run from the earliest key on, with one byte before it for \b. That holds
// while lower and s line up byte for byte up to that key, which an ASCII
// prefix guarantees.
func (p pattern) find(s, lower string) []int {
	if p.keys == nil {
		return p.re.FindStringIndex(s)
	}
	first := p.starts.firstKey(lower)
	if first < 0 {
		return nil
	}
	from := max(first-1, 0)
	if p.anchored || !isASCII(s[:min(first, len(s))]) {
		from = 0
	}
	loc := p.re.FindStringIndex(s[from:])
	if loc == nil {
		return nil
	}
	return []int{loc[0] + from, loc[1] + from}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// maxKeys bounds how far prefixes multiplies out alternatives.
const maxKeys = 64

// prefixes returns lower-cased strings one of which every match of r
// starts with (zero-width assertions aside), and whether each is the
// whole match. It returns nil when it cannot tell.
func prefixes(r *syntax.Regexp) ([]string, bool) {
	switch r.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		return []string{strings.ToLower(string(r.Rune))}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(r.Rune); i += 2 {
			if r.Rune[i+1]-r.Rune[i] > 8 {
				return nil, false
			}
			for c := r.Rune[i]; c <= r.Rune[i+1]; c++ {
				out = appendUnique(out, strings.ToLower(string(c)))
			}
		}
		if len(out) == 0 || len(out) > maxKeys {
			return nil, false
		}
		return out, true
	case syntax.OpCapture:
		return prefixes(r.Sub[0])
	case syntax.OpQuest:
		p, exact := prefixes(r.Sub[0])
		if p == nil {
			return []string{""}, false
		}
		return appendUnique(p, ""), exact
	case syntax.OpPlus:
		p, _ := prefixes(r.Sub[0])
		return p, false
	case syntax.OpAlternate:
		var out []string
		exact := true
		for _, s := range r.Sub {
			p, e := prefixes(s)
			if p == nil {
				return nil, false
			}
			exact = exact && e
			for _, x := range p {
				out = appendUnique(out, x)
			}
		}
		return out, exact
	case syntax.OpConcat:
		out := []string{""}
		for _, s := range r.Sub {
			switch s.Op {
			case syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginLine, syntax.OpBeginText:
				continue
			}
			p, e := prefixes(s)
			if p == nil || len(out)*len(p) > maxKeys {
				return out, false
			}
			var next []string
			for _, a := range out {
				for _, b := range p {
					next = appendUnique(next, a+b)
				}
			}
			out = next
			if !e {
				return out, false
			}
		}
		return out, true
	}
	return nil, false
}

func appendUnique(ss []string, s string) []string {
	for _, x := range ss {
		if x == s {
			return ss
		}
	}
	return append(ss, s)
}
