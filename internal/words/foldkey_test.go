package words

import (
	"strings"
	"testing"
)

// foldKeyTexts are texts whose case folding is unusual: the long s and
// the Kelvin sign fold to ASCII letters, final and medial sigma, ß (which
// EqualFold does not equate with "ss"), dotted and dotless i, micro sign
// and mu, bytes that are not UTF-8 against U+FFFD.
var foldKeyTexts = []string{"Cache size", "CACHE SIZE", "cache ſize", "cache \u212Aey", "cache key", "CACHE KEY",
	"Σίσυφος", "σίσυφος", "ςίσυφος", "ΣΊΣΥΦΟΣ", "straße", "STRASSE", "strasse", "a\xffb", "a\xfeb", "a\uFFFDb",
	"", "İstanbul", "istanbul", "ı", "I", "µ", "μ", "Μ", "ß", "SS", "ss"}

func TestFoldKeyIsEqualFold(t *testing.T) {
	for _, a := range foldKeyTexts {
		for _, b := range foldKeyTexts {
			if got, want := FoldKey(a) == FoldKey(b), strings.EqualFold(a, b); got != want {
				t.Errorf("FoldKey(%q) == FoldKey(%q) is %v, EqualFold says %v", a, b, got, want)
			}
		}
	}
}

func FuzzFoldKey(f *testing.F) {
	for i := 0; i+1 < len(foldKeyTexts); i++ {
		f.Add(foldKeyTexts[i], foldKeyTexts[i+1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if got, want := FoldKey(a) == FoldKey(b), strings.EqualFold(a, b); got != want {
			t.Errorf("FoldKey(%q) == FoldKey(%q) is %v, EqualFold says %v", a, b, got, want)
		}
		if !strings.EqualFold(a, FoldKey(a)) {
			t.Errorf("FoldKey(%q) = %q, which EqualFold does not take for equal", a, FoldKey(a))
		}
	})
}

func TestEqualLowerASCII(t *testing.T) {
	tests := []struct {
		t, lower string
		want     bool
	}{
		{"Version", "version", true},
		{"VERSION", "version", true},
		{"version", "version", true},
		{"versioN:", "version", false}, // lengths differ
		{"Versiom", "version", false},
		{"", "", true},
		{"[", "{", false}, // '[' is not a capital of '{'
		{"@", "`", false},
	}
	for _, tt := range tests {
		if got := EqualLowerASCII(tt.t, tt.lower); got != tt.want {
			t.Errorf("EqualLowerASCII(%q, %q) = %v, want %v", tt.t, tt.lower, got, tt.want)
		}
	}
}

func FuzzEqualLowerASCII(f *testing.F) {
	f.Add("Version", "version")
	f.Add("ſ", "s")
	f.Fuzz(func(t *testing.T, s, lower string) {
		lower = strings.ToLower(lower)
		ascii := true
		for i := 0; i < len(s)+len(lower); i++ {
			if c := (s + lower)[i]; c >= 0x80 {
				ascii = false
			}
		}
		if !ascii {
			return // EqualFold folds runes beyond ASCII, which this does not claim to
		}
		if got, want := EqualLowerASCII(s, lower), strings.EqualFold(s, lower); got != want {
			t.Errorf("EqualLowerASCII(%q, %q) = %v, EqualFold says %v", s, lower, got, want)
		}
	})
}
