package merge

import "testing"

var normTitleCases = []string{
	"", " ", "Goals", "goals", "2. Key Risks & Mitigations", "  Two  spaces\there ",
	"a\nb\r\nc\v\fd", "trailing ", " leading", "ÉTÉ Summer", "non\u00a0breaking", "x\u0085y", "MiXeD CaSe 42",
}

func TestNormTitle(t *testing.T) {
	for _, s := range normTitleCases {
		if got, want := normTitle(s), normTitleSlow(s); got != want {
			t.Errorf("normTitle(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzNormTitle checks the one-pass normTitle against the definition.
func FuzzNormTitle(f *testing.F) {
	for _, s := range normTitleCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := normTitle(s), normTitleSlow(s); got != want {
			t.Fatalf("normTitle(%q) = %q, want %q", s, got, want)
		}
	})
}
