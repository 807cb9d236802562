package diff

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/crucible-go/crucible/internal/words"
)

// The fast paths of the quantity reader against the plain forms they
// replace: each must give the same answer on every input.

// plainApproximate is approximate as first written: the window
// lower-cased with strings.ToLower.
func plainApproximate(before string) bool {
	before = strings.ToLower(tail(strings.TrimRight(before, " *_`("), 24))
	for _, m := range approxMarks {
		if strings.HasSuffix(before, m) && (len(m) == 1 || m == "≈" || len(before) == len(m) || !isWordByte(before[len(before)-len(m)-1])) {
			return true
		}
	}
	return false
}

// plainQuoted is quoted without the test for a curly quotation mark.
func plainQuoted(sent string, start, end int) bool {
	before, after := tail(sent[:start], quoteWindow), head(sent[end:], quoteWindow)
	if strings.Count(before, "\"")%2 == 1 && strings.Contains(after, "\"") {
		return true
	}
	return strings.LastIndex(before, "“") > strings.LastIndex(before, "”") && strings.Contains(after, "”")
}

var fastPathInputs = []string{
	"", "a", "About 30 ms", "ABOUT 30", "the latency is roughly 200 ms", "Approx. 5 days", "~ 3", "≈ 4", "some 10",
	"wholesome 10", "ÉTÉ About 5", "Ça. 5", "x, y; z: w. (v — u", "when 80% consumed", "If, when — once 5",
	"a—b", "a\xe2\x80", "\x94\x80\xe2", "\xe2\x80\x94", "x\xe2\xe2\x80\x94y", "\xe2\x80\x94\x80", "—,", ",—",
	"the “94% convergence” figure", "the “94% convergence figure", "said ”10 ms“", "\"10\" and \"20",
	strings.Repeat("word, ", 40) + "about 7", strings.Repeat("é", 30) + " roughly 9",
}

func TestQuantityFastPaths(t *testing.T) {
	for _, s := range fastPathInputs {
		assert.Equal(t, strings.LastIndexAny(s, ",;:.(—"), lastClauseMark(s), "lastClauseMark(%q)", s)
		assert.Equal(t, plainApproximate(s), approximate(s), "approximate(%q)", s)
		for i := 0; i <= len(s); i++ {
			for j := i; j <= len(s) && j <= i+4; j++ {
				assert.Equal(t, plainQuoted(s, i, j), quoted(s, i, j), "quoted(%q, %d, %d)", s, i, j)
			}
		}
	}
}

func FuzzQuantityFastPaths(f *testing.F) {
	for _, s := range fastPathInputs {
		f.Add(s, uint8(len(s)/2))
	}
	f.Fuzz(func(t *testing.T, s string, at uint8) {
		if got, want := lastClauseMark(s), strings.LastIndexAny(s, ",;:.(—"); got != want {
			t.Fatalf("lastClauseMark(%q) = %d, want %d", s, got, want)
		}
		if got, want := approximate(s), plainApproximate(s); got != want {
			t.Fatalf("approximate(%q) = %v, want %v", s, got, want)
		}
		if got, want := words.Tokens(strings.ToLower(s)), words.Tokens(s); !slices.Equal(got, want) {
			t.Fatalf("Tokens(ToLower(%q)) = %q, want %q", s, got, want)
		}
		i := min(int(at), len(s))
		if got, want := quoted(s, i, i), plainQuoted(s, i, i); got != want {
			t.Fatalf("quoted(%q, %d) = %v, want %v", s, i, got, want)
		}
	})
}

// TestWordClasses holds the joined lookup to the sets it is built from.
func TestWordClasses(t *testing.T) {
	sets := []struct {
		set   map[string]bool
		class wordClass
	}{
		{insignificant, classInsignificant}, {negationWords, classNegation}, {dependencyWords, classDependency},
		{constraintWords, classConstraint}, {modalWords, classModal},
	}
	probe := []string{"", "latency", "MUST", "must", "not", "can't", "until", "max", "cfg", "the", "depends", "limit", "é"}
	for _, s := range sets {
		for w := range s.set {
			probe = append(probe, w)
		}
	}
	for w := range synonyms {
		probe = append(probe, w)
	}
	for _, w := range probe {
		for _, s := range sets {
			assert.Equal(t, s.set[w], wordClasses[w].class&s.class != 0, "%q in class %b", w, s.class)
		}
		assert.Equal(t, synonyms[w], wordClasses[w].synonym, "synonym of %q", w)
	}
}

// TestTokensOfLower: classify tokenises the lower-cased sentence it
// already has; Tokens lower-cases again, and lower-casing twice is
// lower-casing once.
func TestTokensOfLower(t *testing.T) {
	for _, s := range append(fastPathInputs, "İstanbul ǅemal ΣΑΣ Straße K KELVIN", "\xff\xfeMAX-RETRY") {
		assert.Equal(t, words.Tokens(s), words.Tokens(strings.ToLower(s)), "%q", s)
	}
}
