package words

import (
	"strings"
	"unicode"
)

// FoldKey maps s to one text for all the texts strings.EqualFold takes
// for equal to it: each rune is replaced by the least rune of its simple
// case-folding orbit, so FoldKey(a) == FoldKey(b) exactly when
// strings.EqualFold(a, b). A byte that is not UTF-8 reads as U+FFFD, as
// it does to EqualFold. Texts compared many times over are keyed once
// and looked up in a map instead of compared pairwise.
func FoldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

// EqualLowerASCII reports whether t is lower, a lower-case ASCII text,
// with its ASCII letters in either case: strings.EqualFold for that case,
// without decoding runes. The scanners that stand in for case-insensitive
// expressions use it to compare a keyword where they found its first byte.
func EqualLowerASCII(t, lower string) bool {
	if len(t) != len(lower) {
		return false
	}
	for j := 0; j < len(lower); j++ {
		c := t[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[j] {
			return false
		}
	}
	return true
}
