package merge

import (
	"strings"
	"testing"
)

func TestGramSetMayContain(t *testing.T) {
	text := "The drift threshold is 0.6; alert when it exceeds 64 KiB.\n| a | b |\n"
	g := newGramSet(text)
	for i := 0; i < len(text); i++ {
		for j := i; j <= len(text); j++ {
			if !g.mayContain(text[i:j]) {
				t.Fatalf("mayContain(%q) = false for a substring", text[i:j])
			}
		}
	}
	// Needles that are not in text: the set must rule out most of them
	// (the test fails if the filter says yes to everything).
	absent := []string{"The drift threshold is 0.8", "rollback window", "128 MiB", "CONFIRMED", "| c | d |"}
	ruledOut := 0
	for _, n := range absent {
		if !g.mayContain(n) {
			ruledOut++
		}
	}
	if ruledOut < 3 {
		t.Errorf("ruled out %d of %d absent needles", ruledOut, len(absent))
	}
	if !(gramSet{}).mayContain("anything") {
		t.Error("an unbuilt set must not rule anything out")
	}
}

func TestGramSetMayStateLoser(t *testing.T) {
	text := "The drift threshold is 0.6.\n\n**Verdict**: CONFIRMED. It holds.\n"
	g := newGramSet(text)
	for _, c := range []struct {
		lose ConflictValue
		want bool
	}{
		{ConflictValue{Value: "0.6", Text: "The drift threshold is 0.6."}, true},
		{ConflictValue{Value: "0.6", Text: "Alert when drift exceeds 0.6."}, true}, // the value alone, outside its quote
		{ConflictValue{Value: "12.5", Text: "Alert when drift exceeds 12.5."}, false},
		{ConflictValue{Value: "0.9", Text: "Alert when drift exceeds 0.9."}, true}, // too short to rule out
		{ConflictValue{Value: "OVERSTATED", Text: "**Verdict**: OVERSTATED. It does not."}, false},
		{ConflictValue{Value: "A claim not here.", Text: "A claim not here."}, false},
		{ConflictValue{Value: "It holds.", Text: "It holds."}, true},
	} {
		if got := g.mayStateLoser(c.lose); got != c.want {
			t.Errorf("mayStateLoser(%+v) = %v, want %v", c.lose, got, c.want)
		}
	}
}

// FuzzGramSet checks both filters against what they stand in front of:
// text containing needle ⇒ mayContain, and stateWinner finding the losing
// value ⇒ mayStateLoser.
func FuzzGramSet(f *testing.F) {
	f.Add("The drift threshold is 0.6.", "threshold", "0.6", "The drift threshold is 0.6.", "0.8", "The drift threshold is 0.8.")
	f.Add("**Verdict**: CONFIRMED. x", "CONF", "CONFIRMED", "**Verdict**: CONFIRMED.", "OVERSTATED", "**Verdict**: OVERSTATED.")
	f.Add("a claim. another", "claim", "a claim.", "a claim.", "b claim.", "b claim.")
	f.Add("64 KiB x", "KiB", "64 KiB", "", "128 KiB", "")
	f.Fuzz(func(t *testing.T, text, needle, loseValue, loseText, winValue, winText string) {
		g := newGramSet(text)
		if strings.Contains(text, needle) && !g.mayContain(needle) {
			t.Fatalf("mayContain(%q) = false, but %q contains it", needle, text)
		}
		lose := ConflictValue{Variant: "B", Value: loseValue, Text: loseText}
		win := ConflictValue{Variant: "A", Value: winValue, Text: winText}
		if !validPattern(loseValue) {
			return // wholeWord panics on invalid UTF-8; values come from parsed text
		}
		if _, ok := stateWinner(text, lose, win); ok && !g.mayStateLoser(lose) {
			t.Fatalf("mayStateLoser = false, but stateWinner states %+v in %q", lose, text)
		}
	})
}

// TestMayContainProducts: the products computed once answer as
// mayContain does, for needles in the text and out of it.
func TestMayContainProducts(t *testing.T) {
	text := "The drift threshold is 0.6; alert when it exceeds 64 KiB.\n| a | b |\n"
	for _, g := range []gramSet{newGramSet(text), newGramSet(strings.Repeat(text, 40)), {}} {
		needles := []string{"", "The", "The drift threshold is 0.8", "rollback window", "128 MiB", "CONFIRMED", "| c | d |"}
		for i := 0; i+8 <= len(text); i += 3 {
			needles = append(needles, text[i:i+8], text[i:])
		}
		for _, n := range needles {
			if got, want := g.mayContainProducts(n, gramProducts(nil, n)), g.mayContain(n); got != want {
				t.Errorf("mayContainProducts(%q) = %v, mayContain says %v", n, got, want)
			}
		}
	}
}
