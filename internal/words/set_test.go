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
