package words

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"Hello, World!", []string{"hello", "world"}},
		{"FR-001 and NFR-12 must hold", []string{"fr-001", "and", "nfr-12", "must", "hold"}},
		{"v1.2 don't read/write", []string{"v1.2", "don't", "read/write"}},
		{"trailing-dash- and .dot.", []string{"trailing-dash", "and", "dot"}},
		{"**bold** `code_span` [link](url)", []string{"bold", "code_span", "link", "url"}},
		{"Ünïcödé wörds 日本語", []string{"ünïcödé", "wörds", "日本語"}},
		{"3.2 Caching", []string{"3.2", "caching"}},
		{"a--b", []string{"a", "b"}},
		{"\xff\xfe broken", []string{"broken"}},
	}
	for _, tt := range tests {
		if got := Tokens(tt.in); len(tt.want) == 0 {
			assert.Empty(t, got, "Tokens(%q)", tt.in)
		} else {
			assert.Equal(t, tt.want, got, "Tokens(%q)", tt.in)
		}
		assert.Equal(t, len(tt.want), Count(tt.in), "Count(%q)", tt.in)
		var each []string
		Each(tt.in, func(tok string) { each = append(each, tok) })
		assert.Equal(t, tt.want, each, "Each(%q)", tt.in)
	}
}

func TestStem(t *testing.T) {
	for in, want := range map[string]string{
		"requirements": "requirement", "strategies": "strategy", "process": "process",
		"status": "status", "analysis": "analysis", "its": "its", "api's": "api", "risks": "risk", "bus": "bus",
	} {
		assert.Equal(t, want, Stem(in), in)
	}
}

func TestNewSet(t *testing.T) {
	assert.Equal(t, Set{"handling", "strategy"}, NewSet("3.2 The Handling of Strategies"))
	assert.Equal(t, Set{"risk"}, NewSet("Risks, risk & RISK"))
	assert.Empty(t, NewSet("1. the and"))
}

func TestOverlap(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"Error Handling", "Error Handling", 1},
		{"Error Handling", "error handling", 1},
		{"Error Handling", "Error Handling Strategy", 0.8},
		{"2. Error Handling", "5 Error handling", 1},
		{"Caching", "Caching Layer", 2.0 / 3},
		{"Data Model", "Data Storage", 0.5},
		{"Requirements", "Requirement", 1},
		{"Security", "Performance", 0},
		{"1.", "1.", 1},
		{"1.", "2.", 0},
		{"", "", 1},
		{"", "Scope", 0},
	}
	for _, tt := range tests {
		assert.InDelta(t, tt.want, Overlap(tt.a, tt.b), 1e-9, "Overlap(%q, %q)", tt.a, tt.b)
		assert.InDelta(t, Overlap(tt.a, tt.b), Overlap(tt.b, tt.a), 1e-9, "symmetric")
	}
}

func FuzzOverlap(f *testing.F) {
	for _, s := range []string{"Error Handling", "3.2 Caching", "FR-001", "", "\xff"} {
		f.Add(s, s+" strategy")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		o := Overlap(a, b)
		if o < 0 || o > 1 {
			t.Fatalf("Overlap(%q, %q) = %v outside [0, 1]", a, b, o)
		}
		if o != Overlap(b, a) {
			t.Fatalf("Overlap not symmetric for %q, %q", a, b)
		}
		if Overlap(a, a) != 1 {
			t.Fatalf("Overlap(%q, itself) = %v", a, Overlap(a, a))
		}
		if Count(a) != len(Tokens(a)) {
			t.Fatalf("Count and Tokens disagree on %q", a)
		}
	})
}

func TestOneLine(t *testing.T) {
	for _, s := range []string{"", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\nb\n", "  x \r\n y  ", "é b", "a\u00a0b", "a\u2003 b",
		"\u0085a", "a\xffb", "\xff \xfe", "one line already, with punctuation."} {
		assert.Equal(t, strings.Join(strings.Fields(s), " "), OneLine(s), "%q", s)
	}
}

func FuzzOneLine(f *testing.F) {
	for _, s := range []string{"a  b", " x\t", "é\u00a0b", "\xff \n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := OneLine(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("OneLine(%q) = %q, want %q", s, got, want)
		}
	})
}

// FuzzFields checks NextField and CountFields against strings.Fields,
// which they replace where only the first fields or the count matter.
func FuzzFields(f *testing.F) {
	for _, s := range []string{"", "  ", "one", " two  words ", "a\tb\nc", "\u00a0x\u2003y", "é ü"} {
		f.Add(s, 2)
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		want := strings.Fields(s)
		var got []string
		for rest := s; ; {
			var w string
			if w, rest = NextField(rest); w == "" {
				break
			}
			got = append(got, w)
		}
		if len(got) != len(want) || strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("NextField walk of %q = %q, want %q", s, got, want)
		}
		if n := CountFields(s, 0); n != len(want) {
			t.Fatalf("CountFields(%q, 0) = %d, want %d", s, n, len(want))
		}
		if limit > 0 && (CountFields(s, limit) >= limit) != (len(want) >= limit) {
			t.Fatalf("CountFields(%q, %d) = %d with %d fields", s, limit, CountFields(s, limit), len(want))
		}
	})
}

// IsStopWord is the stopWords map written as a switch: the same words.
func TestIsStopWordIsTheMap(t *testing.T) {
	for w := range stopWords {
		if !IsStopWord(w) {
			t.Errorf("IsStopWord(%q) = false for a stop word", w)
		}
	}
	n := 0
	for _, w := range []string{"", "A", "The", "th", "them", "an ", "andy", "vs.", "ours", "it's", "&&", "b", "x", "from", "fromm"} {
		if IsStopWord(w) != stopWords[w] {
			t.Errorf("IsStopWord(%q) = %v, the map says %v", w, IsStopWord(w), stopWords[w])
		}
		n++
	}
	// every string of one to four letters from the stop words' alphabet
	alphabet := "abdefhiortsnuvwmgyc&"
	var walk func(prefix string)
	walk = func(prefix string) {
		if IsStopWord(prefix) != stopWords[prefix] {
			t.Errorf("IsStopWord(%q) = %v, the map says %v", prefix, IsStopWord(prefix), stopWords[prefix])
		}
		n++
		if len(prefix) == 4 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			walk(prefix + alphabet[i:i+1])
		}
	}
	walk("")
	if n < 100000 {
		t.Fatalf("only %d words compared", n)
	}
}

func TestAppendTokensIsTokens(t *testing.T) {
	for _, s := range []string{"", "FR-001 must respond", "Read/Write don't v1.2", "ÉTÉ  été", "a b c d e f g h"} {
		assert.Equal(t, Tokens(s), AppendTokens([]string{}, s), s)
		buf := []string{"kept"}
		assert.Equal(t, append([]string{"kept"}, Tokens(s)...), AppendTokens(buf, s), s)
	}
}

func BenchmarkOneLineUnchanged(b *testing.B) {
	s := strings.Repeat("The gateway keeps p99 latency under 200 ms at 50,000 events/s — measured weekly. ", 4)
	s = strings.TrimSpace(s)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if OneLine(s) != s {
			b.Fatal("changed")
		}
	}
}
