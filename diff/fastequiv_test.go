package diff

import (
	"slices"
	"testing"
)

// The hand-written readers that stand in for a pattern on hot paths must
// answer as the pattern does.
func TestFldLevelTokMatchesPattern(t *testing.T) {
	for _, tok := range []string{
		"", "low", "LOW", "Low", "lower", "medium", "Med", "MED-HIGH", "med/high", "Medium-High",
		"moderate", "HIGH/", "high-", "-high", "high--low", "high-low-medium", "critical",
		"CRITICAL/LOW", "latency", "cache", "message", "highly", "hIgH", "mediumhigh", "high/lowx",
		"hıgh", "Crıtical", "LOW–HIGH", "m", "h-l",
	} {
		want := fldLevelTokRE.FindStringSubmatch(tok)
		if got := fldLevelTok(tok); !slices.Equal(got, want) {
			t.Errorf("fldLevelTok(%q) = %q, the pattern says %q", tok, got, want)
		}
	}
}
