package lexicon

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestVague(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Retry as needed and log as appropriate.", []string{"as needed", "as appropriate"}},
		{"Follow best practices.", []string{"best practices"}},
		{"Follow best practices [OWASP ASVS].", nil},
		{"Follow industry standard hashing per RFC 9106.", nil},
		{"We might add various caches, etc.", []string{"might", "various", "etc"}},
		{"Teams should consider sharding.", []string{"should consider"}},
		{"The timeout is 30 seconds.", nil},
		{"Mighty oaks", nil},
	}
	for _, tt := range tests {
		got := VagueMatches(tt.in)
		if len(tt.want) == 0 {
			assert.Empty(t, got, tt.in)
			assert.False(t, IsVague(tt.in))
			continue
		}
		assert.Equal(t, tt.want, got, tt.in)
		assert.True(t, IsVague(tt.in))
	}
}

func TestConcrete(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Latency <200ms at ≥99.9% availability", []string{"<200ms", "≥99.9%"}},
		{"Ship in a 2-week sprint by Q3", []string{"2", "Q3"}},
		{"Store sessions in PostgreSQL behind OAuth2", []string{"PostgreSQL"}},
		{"Zero critical vulnerabilities", []string{"Zero critical"}},
		{"Deliver in 6–8 weeks, by 2026-03-01 or March 2026", []string{"6–8 weeks", "2026-03-01", "March 2026"}},
		{"Cache limit 64 MiB, 3 replicas", []string{"64 MiB", "3 replicas"}},
		{"Respond within 5 minutes", []string{"within 5 minutes"}},
		{"Nothing specific here", nil},
		{"Written in Go, not go-ing anywhere", []string{"Go"}},
	}
	for _, tt := range tests {
		got := ConcreteMatches(tt.in)
		if tt.want == nil {
			assert.Empty(t, got, tt.in)
			continue
		}
		assert.Equal(t, tt.want, got, tt.in)
	}
}

func TestTechnology(t *testing.T) {
	for in, want := range map[string]Tech{
		"postgres": {"PostgreSQL", Database}, "PostgreSQL": {"PostgreSQL", Database}, "Redis": {"Redis", Cache},
		"Go": {"Go", Language}, "k8s": {"Kubernetes", Orchestrator}, "REST": {"REST", APIStyle},
	} {
		got, ok := Technology(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"go", "rest", "react", "table", ""} {
		_, ok := Technology(in)
		assert.False(t, ok, in)
	}
	assert.Equal(t, []Tech{{"SQL Server", Database}, {"Kafka", Queue}}, TechnologyIn("Use SQL Server and Kafka."))
}

func TestTrimDotsDashesIsTrim(t *testing.T) {
	for _, w := range []string{"", ".", "-", ".-.", "a", ".a.", "-a-b-", "..x..", "x.y", "-.-x", "é.", ".é"} {
		assert.Equal(t, strings.Trim(w, ".-"), trimDotsDashes(w), "%q", w)
	}
}

// ConcreteCountLower, given the ASCII lower-casing of s, counts as
// ConcreteCount does; strings.ToLower is that lower-casing for ASCII text.
func TestConcreteCountLower(t *testing.T) {
	for _, in := range []string{
		"Latency <200ms at ≥99.9% availability", "Ship in a 2-week sprint by Q3", "Zero critical vulnerabilities",
		"Deliver in 6–8 weeks, by 2026-03-01 or March 2026", "Respond WITHIN 5 Minutes", "Use PostgreSQL and Kafka", "",
		"Nothing specific here", "H1 2027 and q4", "AT LEAST 3 replicas, NO MORE THAN 10",
	} {
		got := ConcreteCountLower(in, asciiLower(in))
		assert.Equal(t, ConcreteCount(in), got, in)
		if isASCII(in) {
			assert.Equal(t, ConcreteCount(in), ConcreteCountLower(in, strings.ToLower(in)), in)
		}
	}
	assert.Equal(t, 4, ConcreteCountLower("AT LEAST 3 replicas by Q3 in Go, H1 2027", "at least 3 replicas by q3 in go, h1 2027"))
}

func FuzzConcreteCountLower(f *testing.F) {
	f.Add("Respond WITHIN 5 Minutes by Q3 2026 in PostgreSQL")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ConcreteCountLower(s, asciiLower(s)), ConcreteCount(s); got != want {
			t.Fatalf("ConcreteCountLower(%q) = %d, ConcreteCount says %d", s, got, want)
		}
		if isASCII(s) {
			if got, want := ConcreteCountLower(s, strings.ToLower(s)), ConcreteCount(s); got != want {
				t.Fatalf("ConcreteCountLower(%q, ToLower) = %d, ConcreteCount says %d", s, got, want)
			}
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func TestIsMonthIsTheList(t *testing.T) {
	for _, m := range months {
		if !isMonth(m) {
			t.Errorf("isMonth(%q) = false", m)
		}
	}
	for _, w := range []string{"", "ja", "janu", "mayo", "march.", "decembers", "q1", "zero", "Jan"} {
		if isMonth(w) {
			t.Errorf("isMonth(%q) = true", w)
		}
	}
}

func TestQualifiersByFirstHoldsEveryQualifier(t *testing.T) {
	n := 0
	for c, qs := range qualifiersByFirst {
		for _, q := range qs {
			n++
			if int(q[0]-'a') != c {
				t.Errorf("%q filed under %q", q, rune('a'+c))
			}
		}
	}
	if n != len(qualifiers) {
		t.Errorf("%d qualifiers filed, want %d", n, len(qualifiers))
	}
}

// TestVagueMatchesFindsEveryPhrase: the shape filter in front of
// vagueByFirst lets every phrase through.
func TestVagueMatchesFindsEveryPhrase(t *testing.T) {
	for _, p := range vaguePhrases {
		if got := VagueMatchesLower("we say " + p + " here"); !slices.Contains(got, p) {
			t.Errorf("VagueMatchesLower(%q) = %q, want it to hold %q", p, got, p)
		}
	}
}
