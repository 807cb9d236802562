package merge

import "testing"

// TestMaySeeNumber: the prefilter lets through every text the regexp
// matches, and rules out texts it cannot (the test fails if it says yes
// to everything).
func TestMaySeeNumber(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"see 3.2 for the details", true},
		{"SEE 4.1.2", true},
		{"ſee 3.2", true}, // the regexp folds s with ſ
		{"as seen in 3.2", true},
		{"see below", false},          // no digit after the "ee"
		{"3.2 is what we see", false}, // the digit comes before
		{"Section 3.2 covers it", false},
		{"", false},
	} {
		if got := maySeeNumber(tt.text); got != tt.want {
			t.Errorf("maySeeNumber(%q) = %v, want %v", tt.text, got, tt.want)
		}
		if seeNumberRE.MatchString(tt.text) && !maySeeNumber(tt.text) {
			t.Errorf("maySeeNumber(%q) rules out a match", tt.text)
		}
	}
}

// FuzzMaySeeNumber holds the prefilter to the regexp it stands in front
// of: a text seeNumberRE matches is never ruled out.
func FuzzMaySeeNumber(f *testing.F) {
	for _, s := range []string{"see 3.2", "SeE 10.4.1.", "ſee 1.1", "See\t2.3", "seen 3.2", "see3.2", "foresee 1.2", "e\u0301e 3.2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if seeNumberRE.MatchString(s) && !maySeeNumber(s) {
			t.Fatalf("maySeeNumber(%q) = false, but seeNumberRE matches it", s)
		}
	})
}
