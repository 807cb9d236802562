package diff

import (
	"regexp"
	"slices"
	"strings"
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
		first, second, ok := fldLevelTok(tok)
		var got []string
		if ok {
			got = []string{tok, first, second}
		}
		if !slices.Equal(got, want) {
			t.Errorf("fldLevelTok(%q) = %q, the pattern says %q", tok, got, want)
		}
	}
}

func TestFirstFieldAndCountFieldsMatchFields(t *testing.T) {
	for _, s := range []string{
		"", " ", "a", " a b ", "\tfoo\nbar", "x\u00a0y", "\u0085lead", "one two three four five",
		"ünï cödé", "a\u2003b", "trailing ", "  ",
	} {
		f := strings.Fields(s)
		first := ""
		if len(f) > 0 {
			first = f[0]
		}
		if got := firstField(s); got != first {
			t.Errorf("firstField(%q) = %q, want %q", s, got, first)
		}
		if got := countFields(s); got != len(f) {
			t.Errorf("countFields(%q) = %d, want %d", s, got, len(f))
		}
	}
}

func TestIsHeadingIDTermHyphenParts(t *testing.T) {
	old := func(t string) bool {
		parts := strings.Split(t, "-")
		return len(parts) > 1 && slices.ContainsFunc(parts, func(p string) bool { return len(p) == 1 })
	}
	for _, s := range []string{"a-b", "ab-cd", "x-ray-z", "ab-", "-ab", "ab--cd", "abc", "a", "ab-cd-e", "é-ab", "ab-é"} {
		want := s != "" && hasLetter(s) && !strings.ContainsAny(s, "#§_./()") && (hasDigit(s) || old(s))
		if got := isHeadingIDTerm(s); got != want {
			t.Errorf("isHeadingIDTerm(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestIsTallyLabelMatchesTallyLabel(t *testing.T) {
	set := wordSet("total", "grand total", "no.", "#", "n")
	for _, cell := range []string{
		"Total", " **Total** ", "Grand  Total", "grand\ttotal", "_Grand Total:_", "TOTALS", "No.", "#", "n",
		"", "  ", "Überall total", "grand total extra", strings.Repeat("x", 70), "Grand\u00a0Total",
	} {
		if got, want := isTallyLabel(set, cell), set[tallyLabel(cell)]; got != want {
			t.Errorf("isTallyLabel(%q) = %v, tallyLabel says %v", cell, got, want)
		}
	}
}

func TestSortSignedMatchesComparisonSort(t *testing.T) {
	for _, n := range []int{0, 1, 10, 255, 256, 1000, 5000} {
		var all []signed
		x := uint64(n) + 1
		for i := 0; len(all) < n; i++ {
			for k := 0; k < 3 && len(all) < n; k++ {
				x = mix64(x)
				sig := x
				if k == 2 {
					sig = uint64(i % 7) // repeated signatures, equal high bytes
				}
				all = append(all, signed{sig, i})
			}
		}
		want := slices.Clone(all)
		slices.SortFunc(want, func(a, b signed) int {
			if a.sig != b.sig {
				if a.sig < b.sig {
					return -1
				}
				return 1
			}
			return a.item - b.item
		})
		if got := sortSigned(all); !slices.Equal(got, want) {
			t.Errorf("n=%d: sortSigned differs from the comparison sort", n)
		}
	}
}

func TestIncompatibleSidesMatchesContains(t *testing.T) {
	texts := []string{
		"", "s", "the service must scale out horizontally and stay single-threaded",
		"we run a nightly batch job; real-time is not required", "plain text secrets, encrypted at rest",
		"zero downtime during the maintenance window", "air gapped, no network access, saas", "sticky sessions",
	}
	for _, pair := range incompatible {
		for _, list := range [][]string{pair.need, pair.rule} {
			for _, p := range list {
				texts = append(texts, "x "+p+" y", p, p[:len(p)-1])
			}
		}
	}
	for _, s := range texts {
		var want uint32
		for pi, pair := range incompatible {
			for side, list := range [2][]string{pair.need, pair.rule} {
				if slices.ContainsFunc(list, func(p string) bool { return strings.Contains(s, p) }) {
					want |= 1 << (2*pi + side)
				}
			}
		}
		if got := incompatibleSides(s); got != want {
			t.Errorf("incompatibleSides(%q) = %b, want %b", s, got, want)
		}
	}
}

// fldLabelled skips a label pattern whose opening markup the line lacks;
// each pattern must open with the markup fldLabelKeyOpen names for it.
func TestFldLabelKeyOpen(t *testing.T) {
	if len(fldLabelKeyOpen) != len(fldLabelKeyREs) {
		t.Fatalf("%d openings for %d patterns", len(fldLabelKeyOpen), len(fldLabelKeyREs))
	}
	for k, re := range fldLabelKeyREs {
		if want := "^" + regexp.QuoteMeta(fldLabelKeyOpen[k]); !strings.HasPrefix(re.String(), want) {
			t.Errorf("pattern %d %q does not open with %q", k, re.String(), want)
		}
	}
	if !strings.HasPrefix(fldLabelSpanRE.String(), `^\*\*`) {
		t.Errorf("fldLabelSpanRE %q does not open with **", fldLabelSpanRE.String())
	}
}
