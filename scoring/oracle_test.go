package scoring

import (
	"regexp"
	"testing"
)

// The scanners that stand in for patterns on hot paths are held to those
// patterns: on chosen inputs by checkAgainstPattern, on whatever the
// fuzzer makes by fuzzAgainstPattern.

// checkAgainstPattern fails for each input where scan and re.MatchString
// disagree.
func checkAgainstPattern(t *testing.T, name string, re *regexp.Regexp, scan func(string) bool, inputs []string) {
	t.Helper()
	for _, s := range inputs {
		if got, want := scan(s), re.MatchString(s); got != want {
			t.Errorf("%s(%q) = %v, the pattern says %v", name, s, got, want)
		}
	}
}

// fuzzAgainstPattern seeds f with seeds and fuzzes scan against
// re.MatchString.
func fuzzAgainstPattern(f *testing.F, name string, re *regexp.Regexp, scan func(string) bool, seeds []string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := scan(s), re.MatchString(s); got != want {
			t.Fatalf("%s(%q) = %v, the pattern says %v", name, s, got, want)
		}
	})
}
