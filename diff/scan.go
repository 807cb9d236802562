package diff

import "unicode/utf8"

// Hand-written matchers standing in for regular expressions on hot
// paths. Each answers exactly as the expression it replaces, which the
// tests keep as the oracle (scan_test.go, with a fuzz target); the
// expression is quoted in the doc comment. They read bytes: \d, \s and \b
// are ASCII in Go's expressions, and a byte of a multi-byte rune is never
// an ASCII word character.

// isRESpace reports whether c is in Go's \s: [\t\n\f\r ].
func isRESpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// skipRESpace returns the end of the run of \s at i.
func skipRESpace(s string, i int) int {
	for i < len(s) && isRESpace(s[i]) {
		i++
	}
	return i
}

// skipDigits returns the end of the run of ASCII digits at i.
func skipDigits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// headingNumberEnd is headingNumber.FindStringIndex(s)[1]:
//
//	^\d+(?:\.\d+)*[.)]?(?:\s|$)
//
// Each repetition must take all it can: giving back a digit or a ".2"
// leaves a digit or a dot where only [.)], \s or the end may follow.
func headingNumberEnd(s string) (int, bool) {
	i := skipDigits(s, 0)
	if i == 0 {
		return 0, false
	}
	for i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		i = skipDigits(s, i+1)
	}
	if i < len(s) && (s[i] == '.' || s[i] == ')') {
		i++
	}
	switch {
	case i == len(s):
		return i, true
	case isRESpace(s[i]):
		return i + 1, true
	}
	return 0, false
}

// foldByte reports whether s[i] is the ASCII letter lower (given in
// lower case) in either case.
func foldByte(s string, i int, lower byte) bool {
	return i < len(s) && s[i]|0x20 == lower && isLetterByte(s[i])
}

// foldWord returns the end of word (lower-case ASCII letters other than
// k and s, which case-fold to other runes too) at i, matched ignoring
// case, or -1.
func foldWord(s string, i int, word string) int {
	for k := 0; k < len(word); k++ {
		if !foldByte(s, i+k, word[k]) {
			return -1
		}
	}
	return i + len(word)
}

// foldS returns the end of an s at i under (?i): s, S or ſ (U+017F, which
// Unicode folds to s), or -1.
func foldS(s string, i int) int {
	if foldByte(s, i, 's') {
		return i + 1
	}
	if i+1 < len(s) && s[i] == 0xC5 && s[i+1] == 0xBF {
		return i + 2
	}
	return -1
}

// percentileMatch is percentileRE.FindStringSubmatch(s) joined as
// m[1]+m[2] ("" for no match):
//
//	(?i)^[^,;.]{0,24}?\b(?:at\s+(?:the\s+)?(\d{1,2}(?:\.\d+)?)(?:st|nd|rd|th)\s+percentile|p(\d{2}(?:\.\d+)?)\b)
//
// The lazy prefix makes the match the one at the first place it can
// start, trying the "at" form before the "p" form there.
func percentileMatch(s string) string {
	for i, n := 0, 0; ; n++ {
		if i == 0 || !isWordByte(s[i-1]) {
			if v, ok := percentileAt(s, i); ok {
				return v
			}
			if v, ok := percentileP(s, i); ok {
				return v
			}
		}
		if n == 24 || i >= len(s) {
			return ""
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == ',' || r == ';' || r == '.' {
			return ""
		}
		i += size
	}
}

// percentileAt matches at\s+(?:the\s+)?(\d{1,2}(?:\.\d+)?)(?:st|nd|rd|th)\s+percentile
// at i. Every part is deterministic: a run of blanks or digits given back
// leaves a blank or a digit where a letter or a dot must follow, and
// "the" cannot open the number.
func percentileAt(s string, i int) (string, bool) {
	j := foldWord(s, i, "at")
	if j < 0 {
		return "", false
	}
	k := skipRESpace(s, j)
	if k == j {
		return "", false
	}
	if t := foldWord(s, k, "the"); t >= 0 {
		if u := skipRESpace(s, t); u > t {
			k = u
		}
	}
	start := k
	end := skipDigits(s, k)
	if end == start || end-start > 2 {
		return "", false
	}
	if end+1 < len(s) && s[end] == '.' && isDigit(s[end+1]) {
		end = skipDigits(s, end+1)
	}
	p := -1
	switch {
	case foldByte(s, end, 'n'), foldByte(s, end, 'r'):
		if foldByte(s, end+1, 'd') {
			p = end + 2
		}
	case foldByte(s, end, 't'):
		if foldByte(s, end+1, 'h') {
			p = end + 2
		}
	default:
		if q := foldS(s, end); q >= 0 && foldByte(s, q, 't') {
			p = q + 1
		}
	}
	if p < 0 {
		return "", false
	}
	q := skipRESpace(s, p)
	if q == p || foldWord(s, q, "percentile") < 0 {
		return "", false
	}
	return s[start:end], true
}

// percentileP matches p(\d{2}(?:\.\d+)?)\b at i: the decimals count only
// when a boundary follows them; else the boundary before their dot ends
// the number.
func percentileP(s string, i int) (string, bool) {
	if !foldByte(s, i, 'p') || i+2 >= len(s) || !isDigit(s[i+1]) || !isDigit(s[i+2]) {
		return "", false
	}
	end := i + 3
	if end+1 < len(s) && s[end] == '.' && isDigit(s[end+1]) {
		if f := skipDigits(s, end+1); f == len(s) || !isWordByte(s[f]) {
			return s[i+1 : f], true
		}
		return s[i+1 : end], true
	}
	if end == len(s) || !isWordByte(s[end]) {
		return s[i+1 : end], true
	}
	return "", false
}
