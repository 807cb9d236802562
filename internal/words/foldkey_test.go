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
