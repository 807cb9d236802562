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
		checkAgainstPattern(t, "isAuxiliaryTitle", reAuxiliary, isAuxiliaryTitle, []string{tt.title})
		if got := isAuxiliaryTitle(tt.title); got != tt.want {
			t.Errorf("isAuxiliaryTitle(%q) = %v, want %v", tt.title, got, tt.want)
		}
	}
}

// FuzzIsAuxiliaryTitle holds isAuxiliaryTitle to the pattern it replaces.
func FuzzIsAuxiliaryTitle(f *testing.F) {
	fuzzAgainstPattern(f, "isAuxiliaryTitle", reAuxiliary, isAuxiliaryTitle,
		[]string{"Contents", "GLOSSARY", "Appendices", "See references", "index.md", "Changelog 2024", "revision history", "Revision hiſtory", "ınDEX", "K"})
}
