package diff

import (
	"strings"

	"github.com/crucible-go/crucible/internal/words"
)

// Cheap tests the line rules run before a regular expression. Each is
// implied by the expressions it guards (a line failing it cannot match
// them), so skipping such a line changes nothing but the time: most lines
// of a large document are prose no rule reads.

// hasFold reports whether s contains sub, ignoring ASCII case; sub is
// lower-case. It lets the line rules skip, without a regular expression or
// an allocation, the many lines that cannot match.
func hasFold(s, sub string) bool {
	n := len(sub)
	if n == 0 {
		return true
	}
	// The places where sub's first byte can match are found with
	// strings.IndexByte (one search per case of a letter), and only
	// they are compared.
	c, other := sub[0], sub[0]
	switch {
	case 'a' <= c && c <= 'z':
		other = c - ('a' - 'A')
	case 'A' <= c && c <= 'Z':
		return false // s is compared lower-cased: never an upper-case byte
	}
	last := len(s) - n // the last place sub can start
	for i := 0; i <= last; i++ {
		k := strings.IndexByte(s[i:last+1], c)
		if other != c {
			limit := last + 1 - i
			if k >= 0 {
				limit = k
			}
			if u := strings.IndexByte(s[i:i+limit], other); u >= 0 {
				k = u
			}
		}
		if k < 0 {
			return false
		}
		i += k
		if words.EqualLowerASCII(s[i:i+n], sub) {
			return true
		}
	}
	return false
}

// hasColonDigit reports whether s holds ':' directly followed by an ASCII
// digit, as every "file.py:123" citation does.
func hasColonDigit(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == ':' && '0' <= s[i+1] && s[i+1] <= '9' {
			return true
		}
	}
	return false
}

// hasPercentile reports whether s could name a percentile: "p" and two
// digits ("p99"), or the word "percentile".
func hasPercentile(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if (s[i] == 'p' || s[i] == 'P') && isDigit(s[i+1]) && isDigit(s[i+2]) {
			return true
		}
	}
	return hasFold(s, "percentile")
}

// firstField is strings.Fields(s)[0], or "" when s has no field, without
// building the slice of every field.
func firstField(s string) string {
	f, _ := words.NextField(s)
	return f
}

// countFields is len(strings.Fields(s)) without the slice.
func countFields(s string) int { return words.CountFields(s, 0) }
