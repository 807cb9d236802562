package scoring

import "testing"

func TestIsAuxiliaryTitle(t *testing.T) {
	for _, tt := range []struct {
		title string
		want  bool
	}{
		{"Table of Contents", true},
		{"Appendix A: Glossary", true},
		{"REVISION HISTORY", true},
		{"Revision  history", false}, // two spaces: the pattern wants one
		{"3. Architecture", false},
		{"Reference Architecture", false}, // "references", not "reference"
		{"Reindexing", true},
		{"Bibliograpſy", false},
		{"Revision hiſtory", true}, // ſ folds with s: the pattern decides
		{"", false},
	} {
		if got := isAuxiliaryTitle(tt.title); got != tt.want {
			t.Errorf("isAuxiliaryTitle(%q) = %v, want %v", tt.title, got, tt.want)
		}
		if got, want := isAuxiliaryTitle(tt.title), reAuxiliary.MatchString(tt.title); got != want {
			t.Errorf("isAuxiliaryTitle(%q) = %v, reAuxiliary says %v", tt.title, got, want)
		}
	}
}

// FuzzIsAuxiliaryTitle holds isAuxiliaryTitle to the pattern it replaces.
func FuzzIsAuxiliaryTitle(f *testing.F) {
	for _, s := range []string{"Contents", "GLOSSARY", "Appendices", "See references", "index.md", "Changelog 2024", "revision history", "Revision hiſtory", "ınDEX", "K"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isAuxiliaryTitle(s), reAuxiliary.MatchString(s); got != want {
			t.Fatalf("isAuxiliaryTitle(%q) = %v, reAuxiliary says %v", s, got, want)
		}
	})
}
