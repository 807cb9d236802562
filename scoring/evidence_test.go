package scoring

import (
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"

	"github.com/crucible-go/crucible/internal/samplegen"
)

func TestEvidenceFound(t *testing.T) {
	doc := parse(t, "v", "# Plan\n\n## 2.1 Caching\n\nThe cache uses **Redis 7** with a `30 s` TTL — see [the runbook](#ops).\n\n"+
		"It's \"fast\" enough for the\nlogin path.\n\n| Risk | Impact |\n|---|---|\n| Outage | High |\n")
	x := newEvidenceIndex(doc)
	tests := []struct {
		quote string
		want  bool
	}{
		{"The cache uses Redis 7 with a 30 s TTL", true},  // markup dropped
		{"the cache uses **redis 7**", true},              // case folded
		{"with a 30 s TTL – see the runbook", true},       // dashes straightened, link text from the plain text
		{"It’s “fast” enough for the login path.", true},  // curly quotes, line break
		{"The cache uses … login path", true},             // an ellipsis joins fragments in order
		{"The cache uses ... login path", true},           // three dots too
		{"login path … The cache uses", false},            // fragments out of order
		{"2.1 Caching", true},                             // a heading
		{"| Outage | High |", true},                       // a table row
		{"The cache uses Memcached", false},               // not in the text
		{"TTL", true},                                     // three letters suffice
		{"a", false},                                      // too short to prove anything
		{"  ", false},                                     // empty
		{"The cache uses Redis 8 with a 30 s TTL", false}, // a changed number
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, x.found(tc.quote), "%q", tc.quote)
	}
}

func TestVerifyDowngradesUnfoundEvidence(t *testing.T) {
	doc := parse(t, "v", "# Plan\n\nThe cache uses Redis.\n")
	x := newEvidenceIndex(doc)
	ok := Verdict{Variant: "A", Criterion: "CMP-1", Met: true, Claim: "c", Evidence: []Citation{{Quote: "The cache uses Redis."}}}
	assert.Equal(t, ok, verify(ok, x), "a MET with evidence in the text stands")

	bad := ok
	bad.Evidence = []Citation{{Quote: "The cache uses Redis."}, {Quote: "Sessions expire after 30 minutes."}}
	got := verify(bad, x)
	assert.False(t, got.Met, "one quote not in the text makes the MET NOT MET")
	assert.Equal(t, "Sessions expire after 30 minutes.", got.Unverified)

	none := ok
	none.Evidence = nil
	got = verify(none, x)
	assert.False(t, got.Met, "a MET without evidence is NOT MET")
	assert.Equal(t, "(no evidence cited)", got.Unverified)

	notMet := Verdict{Variant: "A", Criterion: "CMP-1", Evidence: []Citation{{Quote: "anything at all"}}}
	assert.Equal(t, notMet, verify(notMet, x), "NOT MET verdicts are not checked")
}

// canonicalSlow is canonical without its ASCII fast path: the reference
// the fast path must agree with.
func canonicalSlow(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch r {
		case '*', '_', '`', '#', '>', '|', '[', ']':
			continue
		case '‘', '’', '′':
			r = '\''
		case '“', '”', '″':
			r = '"'
		case '–', '—', '‑':
			r = '-'
		}
		if unicode.IsSpace(r) || r == '\u00a0' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func TestCanonicalMatchesTheRuneByRuneForm(t *testing.T) {
	inputs := []string{"", "  A **bold**  `Code`\t\nline ", "“Quoted” — dash‑nb\u00a0space\u0085next", "ÀÉÎ ÕÜ straße İ", "\xff\xfe bad", "#> | [x] _y_"}
	inputs = append(inputs, strings.Split(string(samplegen.Spec(3, 8<<10)), "\n")...)
	for _, in := range inputs {
		assert.Equal(t, canonicalSlow(in), canonical(in), "%q", in)
	}
}

// TestCanonicalWriterMatchesTheJoinedText checks that writing a text in
// pieces gives the canonical form of the pieces joined, the way the
// evidence index builds its plain text: a space or markup at a piece's
// edge, and an invalid byte sequence cut by the edge, included.
func TestCanonicalWriterMatchesTheJoinedText(t *testing.T) {
	sets := [][]string{
		{},
		{"", "", ""},
		{"  A **bold**", "  `Code`\t", "\nline "},
		{"ab", "cd"},
		{"end ", " start"},
		{"\xe2\x80", "\x9c quoted"},
		{"“Quoted” —", "dash‑nb\u00a0", "space\u0085next"},
	}
	sets = append(sets, strings.SplitAfter(string(samplegen.Spec(5, 8<<10)), "."))
	for _, pieces := range sets {
		var w canonWriter
		for _, p := range pieces {
			w.write(p)
			w.write("\n")
		}
		assert.Equal(t, canonical(strings.Join(pieces, "\n")+strings.Repeat("\n", min(len(pieces), 1))), w.b.String(), "%q", pieces)
	}
}

func FuzzCanonical(f *testing.F) {
	for _, s := range []string{"A b", "“x”", "\xff", "İ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := canonical(s), canonicalSlow(s); got != want {
			t.Fatalf("canonical(%q) = %q, want %q", s, got, want)
		}
	})
}
