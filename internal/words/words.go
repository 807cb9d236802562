// Package words tokenises text into words and measures how much two pieces
// of text share. The diff, scoring and merge steps use it to decide that
// two headings name the same section (≥ 80% overlap) or the same topic
// (≥ 60%), and to count words.
//
// Overlap is the Sørensen–Dice coefficient over sets of significant words:
// 2·|A∩B| / (|A|+|B|). Significant words are lower-cased, lightly stemmed
// ("requirements" → "requirement"), with stop words ("the", "and", …) and
// section numbers ("3.2", "1.") removed. Dice rather than Jaccard because
// one added qualifier should not split a section: "Error Handling" and
// "Error Handling Strategy" overlap 0.80 (Jaccard would say 0.67).
package words

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokens splits s into lower-cased words: runs of letters and digits,
// joined through a single inner '-', '_', '.', '/' or '\” so that
// "FR-001", "v1.2", "don't" and "read/write" stay whole. Everything else
// separates words.
func Tokens(s string) []string {
	out := make([]string, 0, len(s)/6+1) // English averages a word per six bytes
	// Lower-case the whole text once; the tokens are then substrings of it
	// and cost no allocation each.
	forEachToken(strings.ToLower(s), func(tok string) { out = append(out, tok) })
	return out
}

// AppendTokens appends Tokens(s) to dst and returns the result: a caller
// that reads the tokens and drops them can keep them in a buffer of its
// own.
func AppendTokens(dst []string, s string) []string {
	forEachToken(strings.ToLower(s), func(tok string) { dst = append(dst, tok) })
	return dst
}

// Each calls fn with each token of s, lower-cased, in order: Tokens
// without the slice, for callers that only fold over the words.
func Each(s string, fn func(tok string)) { forEachToken(strings.ToLower(s), fn) }

// EachLower is Each for text the caller has already lower-cased with
// strings.ToLower: a text read by several steps is lower-cased once.
func EachLower(lower string, fn func(tok string)) { forEachToken(lower, fn) }

// Count returns the number of tokens in s without allocating them.
func Count(s string) int {
	// forEachToken's walk with a counter for fn: the parser counts every
	// document's words, and the call per token was most of the cost.
	n, in := 0, false // in: inside a token
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case isWordRune(r):
			if !in {
				in = true
				n++
			}
		case in && isJoiner(r) && i+size < len(s) && nextIsWordRune(s[i+size:]):
			// inner joiner: keep going
		default:
			in = false
		}
		i += size
	}
	return n
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiWord[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// asciiWord marks the ASCII letters and digits: the common case, answered
// without the unicode tables.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	return t
}()

func isJoiner(r rune) bool {
	return r == '-' || r == '_' || r == '.' || r == '/' || r == '\'' || r == '’'
}

// forEachToken calls fn with each token of s, in order, as a substring of s.
func forEachToken(s string, fn func(string)) {
	start := -1 // start of the current token, or -1
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case isWordRune(r):
			if start < 0 {
				start = i
			}
		case start >= 0 && isJoiner(r) && i+size < len(s) && nextIsWordRune(s[i+size:]):
			// inner joiner: keep going
		default:
			if start >= 0 {
				fn(s[start:i])
				start = -1
			}
		}
		i += size
	}
	if start >= 0 {
		fn(s[start:])
	}
}

func nextIsWordRune(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isWordRune(r)
}

var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true,
	"for": true, "from": true, "in": true, "into": true, "is": true, "it": true, "its": true,
	"of": true, "on": true, "or": true, "the": true, "to": true, "vs": true, "via": true,
	"with": true, "our": true, "this": true, "that": true, "&": true,
}

// StopWords returns the stop words, sorted.
func StopWords() []string {
	out := make([]string, 0, len(stopWords))
	for w := range stopWords {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

// IsStopWord reports whether the lower-cased word w carries no topic.
//
// It is stopWords as a switch: every word of every section passes here,
// and comparing a short string with a few others of its length costs less
// than hashing it (TestIsStopWordIsTheMap keeps the two the same).
func IsStopWord(w string) bool {
	switch len(w) {
	case 1:
		return w == "a" || w == "&"
	case 2:
		switch w {
		case "an", "as", "at", "be", "by", "in", "is", "it", "of", "on", "or", "to", "vs":
			return true
		}
	case 3:
		switch w {
		case "and", "are", "for", "its", "the", "via", "our":
			return true
		}
	case 4:
		switch w {
		case "from", "into", "with", "this", "that":
			return true
		}
	}
	return false
}

// Stem reduces a lower-cased word to a crude singular stem: "requirements"
// → "requirement", "strategies" → "strategy". It leaves words ending in
// "ss", "us" or "is" ("process", "status", "analysis") alone.
func Stem(w string) string {
	w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") &&
		!strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// isNumbering reports whether a token is a section number such as "3",
// "3.2" used as a numbering prefix; those say where a heading sits,
// not what it is about.
func isNumbering(tok string) bool {
	for _, r := range tok {
		if !unicode.IsDigit(r) && r != '.' {
			return false
		}
	}
	return true
}

// Set is the set of significant words of a text, sorted and without
// duplicates. Build one with [NewSet] when a text is compared many times.
type Set []string

// NewSet returns the significant words of s.
func NewSet(s string) Set {
	if len(s) >= dedupeFrom {
		return newSetDeduped(s)
	}
	return newSetPlain(s)
}

// dedupeFrom is the length from which NewSet drops repeated words before
// sorting. A whole document (the debate groups variants by theirs) repeats
// most of its words many times: sorting every occurrence cost more than
// tokenising, while a map lookup per word is cheap. Short texts (headings,
// sentences) repeat few words, and the map would cost more than it saves.
const dedupeFrom = 2048

// newSetPlain is NewSet's plain form: every significant word stemmed,
// sorted, duplicates removed.
func newSetPlain(s string) Set {
	set := make(Set, 0, len(s)/8+1)
	forEachToken(strings.ToLower(s), func(w string) {
		set = addWord(set, w)
	})
	slices.Sort(set)
	return slices.Compact(set)
}

// addWord appends w, a lower-cased word, to set stemmed, unless it is a
// stop word or a numbering: the one rule of what a Set holds, shared by
// NewSet's paths.
func addWord(set Set, w string) Set {
	if IsStopWord(w) || isNumbering(w) {
		return set
	}
	return append(set, Stem(w))
}

// newSetDeduped is newSetPlain for long texts: a word already seen is
// skipped before it is stemmed and sorted. The result is the same set,
// since Stem depends on the word alone.
func newSetDeduped(s string) Set {
	if asciiWords(s) {
		return newSetASCII(s)
	}
	return newSetDedupedMap(s)
}

// newSetASCII is newSetDeduped for text whose words are ASCII (see
// [asciiWords]), which is most text: lower-casing it changes only the
// letters A-Z and moves no word boundary, so s is tokenised as it is and
// its words are told apart without case through a table of their
// own (an open-addressed array of indexes, cheaper than a map of
// strings); only the distinct words are lower-cased, into one string.
// Lower-casing the whole text and a map lookup per word were most of the
// cost of grouping variants by their words.
func newSetASCII(s string) Set {
	type span struct{ start, end int32 }
	var distinct []span
	size := 64
	for size < len(s)/8 {
		size <<= 1
	}
	table := make([]int32, size) // index+1 into distinct, 0 for empty
	mask := uint64(size - 1)
	lowLen := 0
	forEachTokenSpan(s, func(i, j int) {
		w := s[i:j]
		h := foldHash(w)
		for k := h & mask; ; k = (k + 1) & mask {
			d := table[k]
			if d == 0 {
				distinct = append(distinct, span{int32(i), int32(j)})
				table[k] = int32(len(distinct))
				lowLen += j - i
				if 2*len(distinct) > len(table) { // at most half full: probes stay short, and end
					table = make([]int32, 2*len(table))
					mask = uint64(len(table) - 1)
					for x, sp := range distinct {
						k := foldHash(s[sp.start:sp.end]) & mask
						for table[k] != 0 {
							k = (k + 1) & mask
						}
						table[k] = int32(x + 1)
					}
				}
				return
			}
			if sp := distinct[d-1]; equalFoldASCII(s[sp.start:sp.end], w) {
				return
			}
		}
	})
	// The distinct words, lower-cased, in one string.
	buf := make([]byte, 0, lowLen)
	for _, sp := range distinct {
		for _, c := range []byte(s[sp.start:sp.end]) {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf = append(buf, c)
		}
	}
	low := string(buf)
	set := make(Set, 0, len(distinct))
	at := 0
	for _, sp := range distinct {
		n := int(sp.end - sp.start)
		w := low[at : at+n]
		at += n
		set = addWord(set, w)
	}
	slices.Sort(set)
	return slices.Compact(set)
}

// foldHash hashes an ASCII word without its case: FNV-1a over the
// lower-cased bytes, with a final mix for the table's low bits.
func foldHash(w string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h ^= uint64(c)
		h *= 1099511628211
	}
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>32
}

func isASCIIWordByte(c byte) bool { return c < utf8.RuneSelf && asciiWord[c] }

// equalFoldASCII reports whether two ASCII words are equal without case.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// asciiWords reports whether every rune of s outside ASCII is valid
// UTF-8, neither a letter nor a digit, and its own lower case, '’'
// excepted: such runes ('—', '→', '…') separate words and
// strings.ToLower leaves them alone, so the words of s and of its
// lower-cased form are the same ASCII words ('’' inside a word as a
// joiner) at the same offsets.
func asciiWords(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < utf8.RuneSelf {
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.ToLower(r) != r {
			return false
		}
		i += size - 1
	}
	return true
}

// forEachTokenSpan is forEachToken for text of ASCII words (see
// [asciiWords]), giving each token's start and end in s.
func forEachTokenSpan(s string, fn func(i, j int)) {
	start := -1 // start of the current token, or -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < utf8.RuneSelf && asciiWord[c]:
			if start < 0 {
				start = i
			}
		case start >= 0 && (c == '-' || c == '_' || c == '.' || c == '/' || c == '\'') && i+1 < len(s) && isASCIIWordByte(s[i+1]):
			// inner joiner: keep going
		case start >= 0 && c == 0xe2 && strings.HasPrefix(s[i:], "’") && i+3 < len(s) && isASCIIWordByte(s[i+3]):
			i += len("’") - 1 // the joiner '’': keep going
		default:
			if start >= 0 {
				fn(start, i)
				start = -1
			}
		}
	}
	if start >= 0 {
		fn(start, len(s))
	}
}

// newSetDedupedMap is newSetDeduped for any text.
func newSetDedupedMap(s string) Set {
	seen := make(map[string]struct{}, len(s)/32+1)
	set := make(Set, 0, len(s)/32+1)
	forEachToken(strings.ToLower(s), func(w string) {
		if _, ok := seen[w]; ok {
			return
		}
		seen[w] = struct{}{}
		set = addWord(set, w)
	})
	slices.Sort(set)
	return slices.Compact(set)
}

// Has reports whether w (a normalised word, as NewSet stores them) is in
// the set.
func (a Set) Has(w string) bool {
	_, ok := slices.BinarySearch(a, w)
	return ok
}

// Intersect returns the number of words a and b share.
func (a Set) Intersect(b Set) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		// One comparison a step: == and < each compared the bytes again.
		switch c := strings.Compare(a[i], b[j]); {
		case c == 0:
			n++
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	return n
}

// Dice returns 2·|a∩b| / (|a|+|b|), in [0, 1]. Two empty sets score 0: a
// text with no significant words matches nothing, not even itself, so
// callers that must treat identical texts as matching compare the texts
// first (see [Overlap]).
func (a Set) Dice(b Set) float64 {
	if len(a)+len(b) == 0 {
		return 0
	}
	return 2 * float64(a.Intersect(b)) / float64(len(a)+len(b))
}

// Overlap returns the word overlap of two texts (see the package
// documentation). Texts equal up to case and surrounding space overlap 1
// even when they have no significant words ("1." and "1.").
func Overlap(a, b string) float64 {
	if strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) {
		return 1
	}
	return NewSet(a).Dice(NewSet(b))
}

// OneLine collapses every run of white space (as [unicode.IsSpace] has
// it) to one space and trims both ends: strings.Join(strings.Fields(s),
// " "). Renderers put every cell and quotation through it, mostly text
// that is one line already; that text is returned as it is, without the
// word slice and the copy.
func OneLine(s string) string {
	if isOneLine(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	start := -1 // start of the current field, or -1 between fields
	for i, r := range s {
		if isSpace(r) {
			if start >= 0 {
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s[start:])
	}
	return b.String()
}

// isOneLine reports whether OneLine leaves s as it is: no white space
// but single spaces between words.
//
// Renderers pass every cell through OneLine, so the common byte (ASCII,
// not a space) is skipped by one table load in a tight loop; spaces,
// other ASCII white space and multi-byte runes take the slow branch.
func isOneLine(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if oneLineByte[c] == 0 {
			continue
		}
		switch {
		case c == ' ':
			if s[i+1] == ' ' { // s does not end with a space: i+1 < len(s)
				return false
			}
		case c < utf8.RuneSelf:
			return false // '\t', '\n', '\v', '\f', '\r'
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				return false
			}
			i += size - 1
		}
	}
	return true
}

// oneLineByte marks the bytes isOneLine must look at: the space, the
// other ASCII white space, and the bytes of multi-byte runes.
var oneLineByte = func() (t [256]uint8) {
	for _, c := range " \t\n\v\f\r" {
		t[c] = 1
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = 1
	}
	return t
}()

func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r'
	}
	return unicode.IsSpace(r)
}

// NextField returns the first of strings.Fields(s) and the text after
// it, without building the slice of every field; "" when s has none.
func NextField(s string) (field, rest string) {
	start := -1
	for i, r := range s {
		switch {
		case !unicode.IsSpace(r):
			if start < 0 {
				start = i
			}
		case start >= 0:
			return s[start:i], s[i:]
		}
	}
	if start < 0 {
		return "", ""
	}
	return s[start:], ""
}

// CountFields returns len(strings.Fields(s)) without the slice, counting
// no further than limit when limit > 0 (whether s has limit fields).
func CountFields(s string, limit int) int {
	n, in := 0, false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			in = false
		case !in:
			in, n = true, n+1
			if n == limit {
				return n
			}
		}
	}
	return n
}
