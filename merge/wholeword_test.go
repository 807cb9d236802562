package merge

import (
	"testing"
	"unicode/utf8"
)

// wholeWordCases cover each side of the boundary test: text edges,
// letters, digits and dots in and out of ASCII, overlapping occurrences
// where only a later one stands alone, newlines and invalid UTF-8.
var wholeWordCases = []struct {
	text, value string
	want        bool
}{
	{"0.6", "0.6", true},
	{"drift 0.6.", "0.6", true},
	{"drift 0.6x", "0.6", false},
	{"drift 10.6", "0.6", false},
	{"drift 1.0.6", "0.6", false},
	{"v0.6", "0.6", false},
	{"é0.6", "0.6", false},
	{"0.6é", "0.6", false},
	{"0.6²", "0.6", false},
	{"½0.6", "0.6", false},
	{"٣0.6", "0.6", false},
	{"x0.6 and (0.6)", "0.6", true},
	{"x0.6\n0.6\n", "0.6", true},
	{"10.60 0.6", "0.6", true},
	{"64 KiB", "64 KiB", true},
	{"64 KiBs", "64 KiB", false},
	{"164 KiB", "64 KiB", false},
	{"-64 KiB-", "64 KiB", true},
	{"\xff0.6\xfe", "0.6", true},
	{"\xe2\x820.6", "0.6", true},
	{"—0.6—", "0.6", true},
	{"§5", "5", true},
	{"5 5", "5", true},
	{"55", "5", false},
	{"a5b5c", "5", false},
	{"ab", "a", false},
	{"", "5", false},
	{"5.5", "5.5", true},
	{"5.5.5", "5.5", true}, // a dot may follow, not precede
	{"x.5.5", "5.5", false},
	{"x .5", "5", false},
	{"x 5.", "5", true},
	{"$5", "$5", true},
	{"a$5", "$5", false},
	{"ª5", "5", false},
	{"Ⅻ5", "5", false},
}

func TestHasWholeWord(t *testing.T) {
	for _, c := range wholeWordCases {
		if got := hasWholeWord(c.text, c.value); got != c.want {
			t.Errorf("hasWholeWord(%q, %q) = %v, want %v", c.text, c.value, got, c.want)
		}
		if re := wholeWord(c.value).MatchString(c.text); re != c.want {
			t.Errorf("wholeWord(%q).MatchString(%q) = %v, want %v (the table is wrong)", c.value, c.text, re, c.want)
		}
	}
}

// FuzzHasWholeWord checks the hand-written test against the pattern it
// stands in front of: whenever it says no, the pattern must not match (and
// it should agree both ways).
func FuzzHasWholeWord(f *testing.F) {
	for _, c := range wholeWordCases {
		f.Add(c.text, c.value)
	}
	f.Fuzz(func(t *testing.T, text, value string) {
		if value == "" || !validPattern(value) {
			return // wholeWord panics on invalid UTF-8; values come from parsed text
		}
		got, want := hasWholeWord(text, value), wholeWord(value).MatchString(text)
		if got != want {
			t.Fatalf("hasWholeWord(%q, %q) = %v, pattern says %v", text, value, got, want)
		}
	})
}

func validPattern(value string) bool { return utf8.ValidString(value) }
