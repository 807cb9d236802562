package diff

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/crucible-go/crucible/internal/words"
)

// A sentence that counts and names in one breath — "favors Spec B in 4 out
// of 5 overlap comparisons (OV-1, OV-4, OV-5 favor Spec B; OV-2 recommends
// merge; OV-3 recommends merge)" — can be checked against itself: the
// parentheses sort all five items, and the group that does what the
// sentence counts holds three, not four. The rule reads only an "N out of
// M" (or "N of M") count whose parentheses name exactly M ids in groups,
// each group a list of ids and what they do, and exactly one group doing
// what the words before the count say. Where the document lists that
// group's items one per list item ("1. **OV-1 …**"), those items are
// cited too: they are the enumeration the count disagrees with.

var (
	outOfCountRE = regexp.MustCompile(`(?i)\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:out\s+)?of\s+(?:the\s+)?(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b[^()]{0,60}\(([^()]+)\)`)
	enumGroupRE  = regexp.MustCompile(`^\s*((?:[A-Za-z]{1,12}-?\d+(?:\.\d+)*\s*,\s*(?:and\s+)?)*[A-Za-z]{1,12}-?\d+(?:\.\d+)*)\s+(\S.*?)\s*$`)
	enumIDRE     = regexp.MustCompile(`[A-Za-z]{1,12}-?\d+(?:\.\d+)*`)
)

// predicateStems are the significant word stems of a phrase.
func predicateStems(s string) words.Set {
	var ws []string
	words.Each(s, func(w string) {
		if !words.IsStopWord(w) && hasLetter(w) {
			ws = append(ws, words.Stem(w))
		}
	})
	return sortedSet(ws)
}

// detectEnumeratedCounts reports a count whose own parenthesised
// enumeration holds a different number of the counted items.
func detectEnumeratedCounts(in DetectInput) []Contradiction {
	var out []Contradiction
	for v, d := range in.Documents {
		blockLines(d, func(bi int, line string, n int) {
			if !strings.Contains(line, "(") || !strings.Contains(line, ";") || !hasFold(line, " of ") {
				return
			}
			b := d.Blocks[bi]
			for _, m := range outOfCountRE.FindAllStringSubmatchIndex(line, -1) {
				count, ok1 := countWord(line[m[2]:m[3]])
				total, ok2 := countWord(line[m[4]:m[5]])
				if !ok1 || !ok2 || count > total {
					continue
				}
				type group struct {
					ids  []string
					pred words.Set
				}
				var groups []group
				listed := 0
				valid := true
				for _, seg := range strings.Split(line[m[6]:m[7]], ";") {
					gm := enumGroupRE.FindStringSubmatch(seg)
					if gm == nil {
						valid = false
						break
					}
					ids := enumIDRE.FindAllString(gm[1], -1)
					listed += len(ids)
					groups = append(groups, group{ids: ids, pred: predicateStems(gm[2])})
				}
				if !valid || listed != total || len(groups) < 2 {
					continue
				}
				// The words before the count say what it counts.
				start := strings.LastIndex(line[:m[0]], ". ") + 1
				counted := predicateStems(line[start:m[0]])
				var match []group
				for _, g := range groups {
					if len(g.pred) > 0 && g.pred.Intersect(counted) == len(g.pred) {
						match = append(match, g)
					}
				}
				if len(match) != 1 || len(match[0].ids) == count {
					continue
				}
				quote := cellSentence(line, m[0], m[1])
				c := Contradiction{Kind: NumericConflict, Impact: Low,
					Subject: "how many of the " + strings.TrimSpace(line[m[4]:m[5]]) + " items " + strings.Join(match[0].pred, " "),
					Key:     "enumerated-count:" + strings.Join(match[0].ids, ","),
					Reason: fmt.Sprintf("the sentence counts %d and names %d (%s)", count, len(match[0].ids),
						strings.Join(match[0].ids, ", ")),
					Claims: []Claim{{Variant: v, Section: b.Section, Block: bi, Line: n, Text: quote, Quote: quote, Type: Factual}}}
				c.Claims = append(c.Claims, listedItems(d, v, match[0].ids)...)
				if len(c.Claims) < 2 {
					// the sentence is both sides: its count and its list
					c.Claims = append(c.Claims, Claim{Variant: v, Section: b.Section, Block: bi, Line: n,
						Text: line[m[6]:m[7]], Quote: line[m[6]:m[7]], Type: Factual})
				}
				sortClaims(c.Claims)
				out = append(out, c)
			}
		})
	}
	return dedupeByKey(out)
}

// listedItems finds list items of one section that each open with one of
// ids ("1. **OV-1 "Superior approach …"**") and together name them all;
// nil when no section lists every id so.
func listedItems(d *Document, v int, ids []string) []Claim {
	bySection := map[int]map[string]Claim{}
	for bi, b := range d.Blocks {
		if b.Kind != ListItem {
			continue
		}
		src := d.Text(b.Span)
		if k := strings.IndexByte(src, '\n'); k >= 0 {
			src = src[:k]
		}
		lead := strings.TrimLeft(src, " \t-*+0123456789.)")
		lead = strings.TrimLeft(lead, " *_`\"")
		for _, id := range ids {
			if strings.HasPrefix(lead, id) && (len(lead) == len(id) || !isWordByte(lead[len(id)])) {
				if bySection[b.Section] == nil {
					bySection[b.Section] = map[string]Claim{}
				}
				if _, ok := bySection[b.Section][id]; !ok {
					bySection[b.Section][id] = Claim{Variant: v, Section: b.Section, Block: bi, Line: b.Line,
						Text: b.Text, Quote: strings.TrimSpace(src), Type: Factual}
				}
			}
		}
	}
	for _, s := range sortedKeys(bySection) {
		if len(bySection[s]) == len(ids) {
			var out []Claim
			for _, id := range ids {
				out = append(out, bySection[s][id])
			}
			return out
		}
	}
	return nil
}
