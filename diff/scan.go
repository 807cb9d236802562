package diff

import (
	"strings"
	"unicode/utf8"
)

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

// restOfLine is (.*)$ at i after a greedy \s*: the text from the first
// non-blank at or after i to the end, which must hold no newline (. does
// not match one). Giving back blanks cannot help: the newline stays.
func restOfLine(s string, i int) (string, bool) {
	i = skipRESpace(s, i)
	if strings.IndexByte(s[i:], '\n') >= 0 {
		return "", false
	}
	return s[i:], true
}

// fullWidthColon is '：' (U+FF1A), which labels accept as a colon.
const fullWidthColon = "\uFF1A"

// colonAt returns the end of ':' or '：' at i, or -1.
func colonAt(s string, i int) int {
	if i < len(s) && s[i] == ':' {
		return i + 1
	}
	if strings.HasPrefix(s[i:], fullWidthColon) {
		return i + len(fullWidthColon)
	}
	return -1
}

// colonBefore returns where a ':' or '：' ending at j starts, or -1.
func colonBefore(s string, j int) int {
	if j > 0 && s[j-1] == ':' {
		return j - 1
	}
	if strings.HasSuffix(s[:j], fullWidthColon) {
		return j - len(fullWidthColon)
	}
	return -1
}

// labelKeyMatch is the submatches key, value of the label patterns
// fldLabelKeyREs (k indexes them, in their order):
//
//	^M([^m\n]+?)M\s*[:：]\s*(.*)$   (k even: the colon after the markup)
//	^M([^m\n]+?)[:：]M\s*(.*)$      (k odd: the colon inside it)
//
// where M is "**", "__" or "*" and m its character. The key holds
// neither m nor a newline, so the markup that closes it is the first m;
// whether its lazy repetition stops earlier changes nothing, since
// the closing markup must follow.
func labelKeyMatch(s string, k int) (key, value string, ok bool) {
	open := fldLabelKeyOpen[k]
	if !strings.HasPrefix(s, open) {
		return "", "", false
	}
	m := open[0]
	from := len(open)
	j := from
	for j < len(s) && s[j] != m && s[j] != '\n' {
		j++
	}
	if j == len(s) || s[j] != m || !strings.HasPrefix(s[j:], open) {
		return "", "", false
	}
	after := j + len(open)
	if k%2 == 0 {
		key = s[from:j]
		c := colonAt(s, skipRESpace(s, after))
		if c < 0 {
			return "", "", false
		}
		after = c
	} else {
		c := colonBefore(s, j)
		if c < 0 {
			return "", "", false
		}
		key = s[from:c]
	}
	if key == "" {
		return "", "", false
	}
	value, ok = restOfLine(s, after)
	return key, value, ok
}

// labelSpanMatch is fldLabelSpanRE.FindStringSubmatch(s)[1:]:
//
//	^\*\*([^*:\n]+?):\s+([^*\n]+?)\*\*(.*)$
//
// The key ends at the first '*', ':' or newline, which must be the
// colon; the value at the first '*' or newline, which must open "**".
// When the blanks after the colon run up to that "**", the value is the
// last blank, given back by \s+ (unless it is a newline, which the value
// cannot hold).
func labelSpanMatch(s string) (key, value, rest string, ok bool) {
	if !strings.HasPrefix(s, "**") {
		return "", "", "", false
	}
	c := 2
	for c < len(s) && s[c] != '*' && s[c] != ':' && s[c] != '\n' {
		c++
	}
	if c == 2 || c == len(s) || s[c] != ':' {
		return "", "", "", false
	}
	p := c + 1
	w := skipRESpace(s, p)
	if w == p {
		return "", "", "", false
	}
	q := w
	for q < len(s) && s[q] != '*' && s[q] != '\n' {
		q++
	}
	if !strings.HasPrefix(s[q:], "**") {
		return "", "", "", false
	}
	start := w
	if q == w { // no value after the blanks: the last blank is the value
		if w-1 < p+1 || s[w-1] == '\n' {
			return "", "", "", false
		}
		start = w - 1
	}
	if strings.IndexByte(s[q+2:], '\n') >= 0 {
		return "", "", "", false
	}
	return s[2:c], s[start:q], s[q+2:], true
}

// plainKeyMatch is fldPlainKeyRE.FindStringSubmatch(s)[1:]:
//
//	^([A-Za-z][A-Za-z0-9 _./()&'-]*?)\s*:\s+(\S.*)$
//
// Neither the key nor the blanks hold a colon, so the colon is the first
// one; the lazy key ends at the last non-blank before it, and every
// character before that must be a key's.
func plainKeyMatch(s string) (key, value string, ok bool) {
	c := strings.IndexByte(s, ':')
	if c < 1 || !isLetterByte(s[0]) {
		return "", "", false
	}
	end := c
	for end > 1 && isRESpace(s[end-1]) {
		end--
	}
	for i := 1; i < end; i++ {
		switch ch := s[i]; {
		case isLetterByte(ch), isDigit(ch):
		case strings.IndexByte(" _./()&'-", ch) >= 0:
		default:
			return "", "", false
		}
	}
	v := skipRESpace(s, c+1)
	if v == c+1 || v == len(s) || strings.IndexByte(s[v:], '\n') >= 0 {
		return "", "", false
	}
	return s[:end], s[v:], true
}

// listMarkEnd is fldListMarkRE.FindStringIndex(s)[1]:
//
//	^(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?
//
// A fourth digit leaves a digit where [.)] must follow, and no blank can
// be given back to a checkbox that opens with '['.
func listMarkEnd(s string) (int, bool) {
	i := 0
	switch {
	case s == "":
		return 0, false
	case s[0] == '-' || s[0] == '*' || s[0] == '+':
		i = 1
	default:
		d := skipDigits(s, 0)
		if d == 0 || d > 3 || d == len(s) || s[d] != '.' && s[d] != ')' {
			return 0, false
		}
		i = d + 1
	}
	w := skipRESpace(s, i)
	if w == i {
		return 0, false
	}
	if w+3 < len(s) && s[w] == '[' && (s[w+1] == ' ' || s[w+1] == 'x' || s[w+1] == 'X') && s[w+2] == ']' && isRESpace(s[w+3]) {
		return skipRESpace(s, w+3), true
	}
	return w, true
}

// statementLabelEnd is statementLabel.FindStringIndex(s)[1]:
//
//	^[\s>*_\-+\d.)]*[A-Za-z][A-Za-z0-9]*[-_.]?\d[\w.-]*[*_]*\s*:
//
// No part before the final colon holds a colon, so a match ends at the
// first one, and there is one when the text before that colon, t, is
// P* L A* S? D W* M* B* (P the opening marks, L a letter, A a letter or
// digit, S one of -_., D a digit, W a word character, '.' or '-', M one of
// *_, B a blank). Blanks occur in P only, before the letter, so B* is t's
// trailing blanks; the M* at its end may all be taken as M (a '_' given
// to W* instead changes nothing); what is left must end in a digit D
// followed by W*, preceded by the letter's A* S?; P holds no letter, so L
// is the first letter.
func statementLabelEnd(s string) (int, bool) {
	c := strings.IndexByte(s, ':')
	if c < 0 {
		return 0, false
	}
	t := s[:c]
	e := len(t)
	for e > 0 && isRESpace(t[e-1]) {
		e--
	}
	for e > 0 && (t[e-1] == '*' || t[e-1] == '_') {
		e--
	}
	t = t[:e]
	f := 0
	for f < len(t) && !isLetterByte(t[f]) {
		if !isRESpace(t[f]) && strings.IndexByte(">*_-+.)", t[f]) < 0 && !isDigit(t[f]) {
			return 0, false
		}
		f++
	}
	if f == len(t) {
		return 0, false
	}
	a := f + 1 // the end of the letter's A*
	for a < len(t) && (isLetterByte(t[a]) || isDigit(t[a])) {
		a++
	}
	w := len(t) // the start of t's trailing run of W
	for w > 0 && (isWordByte(t[w-1]) || t[w-1] == '.' || t[w-1] == '-') {
		w--
	}
	// D at k: after the letter, with W* after it (k+1 >= w), and A* S?
	// before it (k < a, or k == a+1 after an S at a).
	for k := max(f+1, w-1); k < a; k++ {
		if isDigit(t[k]) {
			return c + 1, true
		}
	}
	if a < len(t) && (t[a] == '-' || t[a] == '_' || t[a] == '.') && a+1 < len(t) && a+1 >= w-1 && isDigit(t[a+1]) {
		return c + 1, true
	}
	return 0, false
}
