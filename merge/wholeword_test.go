package merge

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// wholeWord is the pattern replaceWholeWord writes out: value as a whole
// word, not inside a longer number or word.
func wholeWord(value string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^\p{L}\p{N}.])` + regexp.QuoteMeta(value) + `($|[^\p{L}\p{N}])`)
}

// replaceByPattern is what replaceWholeWord must give.
func replaceByPattern(text, value, repl string) (string, bool) {
	re := wholeWord(value)
	if !re.MatchString(text) {
		return text, false
	}
	return re.ReplaceAllString(text, "${1}"+strings.ReplaceAll(repl, "$", "$$")+"${2}"), true
}

// wholeWordCases cover each side of the boundary test: text edges,
// letters, digits and dots in and out of ASCII, overlapping occurrences
// where only a later one stands alone, matches sharing a boundary,
// newlines and invalid UTF-8.
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
	{"5 5", "5", true}, // one boundary between two: only the first is replaced
	{"5 5 5", "5", true},
	{"(5)(5)", "5", true},
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
	{"1-1-1", "1-1", true}, // the second occurrence overlaps the first match
	{" 1-1 1-1 ", "1-1", true},
}

func TestReplaceWholeWord(t *testing.T) {
	for _, c := range wholeWordCases {
		got, ok := replaceWholeWord(c.text, c.value, "W$1")
		want, wantOK := replaceByPattern(c.text, c.value, "W$1")
		if ok != c.want || wantOK != c.want {
			t.Errorf("replaceWholeWord(%q, %q): ok %v, pattern %v, want %v", c.text, c.value, ok, wantOK, c.want)
		}
		if got != want {
			t.Errorf("replaceWholeWord(%q, %q) = %q, pattern gives %q", c.text, c.value, got, want)
		}
	}
}

// FuzzReplaceWholeWord checks replaceWholeWord against the pattern it
// writes out.
func FuzzReplaceWholeWord(f *testing.F) {
	for _, c := range wholeWordCases {
		f.Add(c.text, c.value, "0.8")
	}
	f.Fuzz(func(t *testing.T, text, value, repl string) {
		if value == "" || !utf8.ValidString(value) {
			return // the pattern cannot be compiled; values come from parsed text
		}
		got, ok := replaceWholeWord(text, value, repl)
		want, wantOK := replaceByPattern(text, value, repl)
		if got != want || ok != wantOK {
			t.Fatalf("replaceWholeWord(%q, %q, %q) = %q, %v; pattern gives %q, %v", text, value, repl, got, ok, want, wantOK)
		}
	})
}

func validPattern(value string) bool { return utf8.ValidString(value) }
