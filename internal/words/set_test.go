package words

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/internal/samplegen"
)

// TestNewSetDeduped holds the long-text path of NewSet to its plain form.
func TestNewSetDeduped(t *testing.T) {
	for _, s := range []string{
		"",
		"3.2 The Handling of Strategies",
		"Risks, risk & RISK risks' api's API’s strategies strategy",
		"1. the and 2.3 4",
		"FR-001 fr-001 v1.2 V1.2 read/write don't DON'T",
		"é É ünïcode ÜNÏCODE \xff\xfe",
		"Don’t DON’T don’t—Risk → risks… the API’s x’ ’y z’’w",
		strings.Repeat("Requirements and requirement; the caching layers cache. ", 100),
		string(samplegen.Spec(1, 8<<10)),
		string(samplegen.Spec(7, 64<<10)),
	} {
		assert.Equal(t, newSetPlain(s), newSetDeduped(s), "%.60q", s)
	}
	long := string(samplegen.Spec(3, 16<<10))
	require.GreaterOrEqual(t, len(long), dedupeFrom)
	assert.Equal(t, newSetPlain(long), NewSet(long), "NewSet takes the deduplicating path on long texts")
}

func FuzzNewSetDeduped(f *testing.F) {
	for _, s := range []string{"Error Handling", "Risks risk RISK", "3.2 Caching 3.2", "FR-001 fr-001", "\xff é É",
		"Don’t DON’T don’t—Risk → risks…", "x’ ’y z’’w a’b’C", "Ⓐ ⓐ A—a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if plain, fast := newSetPlain(s), newSetDeduped(s); !equalSets(plain, fast) {
			t.Fatalf("newSetDeduped(%q) = %q, plain form %q", s, fast, plain)
		}
	})
}

func equalSets(a, b Set) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func BenchmarkNewSetDocument(b *testing.B) {
	doc := string(samplegen.Spec(1, 100<<10))
	for _, bb := range []struct {
		name string
		fn   func(string) Set
	}{{"plain", newSetPlain}, {"deduped", newSetDeduped}} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bb.fn(doc)
			}
		})
	}
}

// TestNewSetASCIIDistinctWords fills newSetASCII's table past its first
// size: every word distinct.
func TestNewSetASCIIDistinctWords(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "W%dx Word%d ", i, i%7)
	}
	s := b.String()
	assert.Equal(t, newSetPlain(s), newSetDeduped(s))
}

// intersectByMap is the plain form of Intersect: the words of a found in
// b, counted through a map.
func intersectByMap(a, b Set) int {
	in := map[string]bool{}
	for _, w := range b {
		in[w] = true
	}
	n := 0
	for _, w := range a {
		if in[w] {
			n++
		}
	}
	return n
}

// TestIntersect holds Intersect's merge to the plain count, on sets made
// from text (sorted and distinct, as NewSet makes them).
func TestIntersect(t *testing.T) {
	texts := []string{"", "a", "the retry timeout is thirty seconds", "retry budget: thirty attempts",
		"Über résumé naïve café", "café naïve", "zeta alpha beta", "alpha beta gamma delta zeta"}
	for _, x := range texts {
		for _, y := range texts {
			a, b := NewSet(x), NewSet(y)
			assert.Equal(t, intersectByMap(a, b), a.Intersect(b), "%q ∩ %q", x, y)
		}
	}
}

func FuzzIntersect(f *testing.F) {
	f.Add("the retry timeout", "retry budget timeout")
	f.Add("Über café", "café über")
	f.Fuzz(func(t *testing.T, x, y string) {
		a, b := NewSet(x), NewSet(y)
		if got, want := a.Intersect(b), intersectByMap(a, b); got != want {
			t.Errorf("NewSet(%q).Intersect(NewSet(%q)) = %d, want %d", x, y, got, want)
		}
	})
}
