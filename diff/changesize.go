package diff

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// A proposal that sizes its change to one source file twice — "the
// executor itself is unchanged except for two new lines" in its design,
// "executor.py (+~30 LOC for worker lifecycle)" in its cost — cannot be
// right both times. The rule reads only statements that tie a number of
// lines to a file by name, within one variant, and reports two sizes of
// one file that differ by a factor of three or more, so that estimates
// ("~30") that merely round differently never count.

// changeSizeFactor is how many times larger one size must be than the
// other to contradict it.
const changeSizeFactor = 3

const sourceExt = `(?:py|go|ts|tsx|js|jsx|rs|java|kt|rb|c|h|cc|cpp|cs|sh|md|yaml|yml|toml|json)`

var (
	// "executor.py (+~30 LOC for worker lifecycle)", "`notify.py` (+10 lines)"
	fileDeltaRE = regexp.MustCompile("`?\\b([A-Za-z_][\\w-]*)\\." + sourceExt + "`?\\s*\\(\\s*\\+\\s*[~≈]?\\s*(\\d+)\\s*(?:LOC|loc|lines?)\\b[^)]*\\)")
	// "The executor itself is unchanged except for two new lines"
	unchangedExceptRE = regexp.MustCompile(`(?i)\b([A-Za-z_][\w-]*)(?:\.` + sourceExt + `)?` + "`?" + `(?:\s+itself)?\s+(?:is|stays|remains)\s+unchanged\s+(?:except|but)\s+(?:for\s+)?(\d+|one|two|three|four|five|a\s+single)\s+(?:new\s+|added\s+|extra\s+)?lines?\b`)
	// "- **`notify.py`**: extend … Single-line change."
	fileItemRE   = regexp.MustCompile("^\\s*(?:[-*+]|\\d+[.)])\\s+\\**`?([A-Za-z_][\\w-]*)\\." + sourceExt + "`?\\**\\s*:")
	lineChangeRE = regexp.MustCompile(`(?i)\b(single|one|two|three|four|five|\d+)-line\s+(?:change|edit|addition|diff)\b`)
)

type changeSize struct {
	claim Claim
	file  string // the file's base name without extension, lower-case
	lines int
}

func countWord(s string) (int, bool) {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	switch s {
	case "single", "a single":
		return 1, true
	}
	if n, ok := numberWords[s]; ok {
		return n, true
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// changeSizes finds the document's statements of how many lines a file's
// change adds.
func changeSizes(d *Document, v int) []changeSize {
	var out []changeSize
	blockLines(d, func(bi int, line string, n int) {
		b := d.Blocks[bi]
		add := func(file, num, quote string) {
			k, ok := countWord(num)
			if !ok || k <= 0 {
				return
			}
			out = append(out, changeSize{file: strings.ToLower(file), lines: k,
				claim: Claim{Variant: v, Section: b.Section, Block: bi, Line: n, Text: quote, Quote: quote, Type: Factual}})
		}
		if strings.Contains(line, "+") && strings.Contains(line, "(") {
			for _, m := range fileDeltaRE.FindAllStringSubmatchIndex(line, -1) {
				add(line[m[2]:m[3]], line[m[4]:m[5]], line[m[0]:m[1]])
			}
		}
		if hasFold(line, "unchanged") {
			for _, m := range unchangedExceptRE.FindAllStringSubmatchIndex(line, -1) {
				add(line[m[2]:m[3]], line[m[4]:m[5]], cellSentence(line, m[0], m[1]))
			}
		}
		if !hasFold(line, "-line") {
			return
		}
		if fm := fileItemRE.FindStringSubmatch(line); fm != nil {
			for _, m := range lineChangeRE.FindAllStringSubmatchIndex(line, -1) {
				add(fm[1], line[m[2]:m[3]], strings.TrimSpace(line)) // the item names the file
			}
		}
	})
	return out
}

// detectChangeSizes reports, within each variant, two sizes of the change
// to one file that differ by changeSizeFactor or more.
func detectChangeSizes(in DetectInput) []Contradiction {
	var out []Contradiction
	for v, d := range in.Documents {
		sizes := changeSizes(d, v)
		reported := map[string]bool{}
		for i, a := range sizes {
			for _, b := range sizes[i+1:] {
				if a.file != b.file || reported[a.file] || a.claim.Line == b.claim.Line {
					continue
				}
				if x, y := sectionAlternative(d, a.claim.Section), sectionAlternative(d, b.claim.Section); x != "" && y != "" && x != y {
					continue // the sizes of two options weighed side by side
				}
				lo, hi := min(a.lines, b.lines), max(a.lines, b.lines)
				if hi < changeSizeFactor*lo {
					continue
				}
				reported[a.file] = true
				c := Contradiction{Kind: NumericConflict, Impact: Low,
					Subject: "the size of the change to " + a.file,
					Key:     "change-size:" + a.file,
					Reason:  fmt.Sprintf("the change to %s is sized at %d lines in one place and %d in another", a.file, a.lines, b.lines),
					Claims:  []Claim{a.claim, b.claim}}
				sortClaims(c.Claims)
				out = append(out, c)
			}
		}
	}
	return out
}

// alternativeRE names one of the options a document weighs in a heading:
// "Option A: …", "2. Alternative 2 — …", "Approach B".
var alternativeRE = regexp.MustCompile(`^(?i)(?:\d+(?:\.\d+)*[.)]?\s+)?(option|alternative|approach|variant|proposal|design)\s+([A-Z]|\d{1,2})\b`)

// sectionAlternative returns the option ("OPTION B") that the nearest
// section holding si weighs, or "" when it lies under none.
func sectionAlternative(d *Document, si int) string {
	for s := si; s >= 0 && s < len(d.Sections); s = d.Sections[s].Parent {
		if m := alternativeRE.FindStringSubmatch(strings.TrimSpace(d.Sections[s].Title)); m != nil {
			return strings.ToUpper(m[1] + " " + m[2])
		}
	}
	return ""
}
