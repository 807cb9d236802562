package diff

import (
	"fmt"
	"regexp"
	"strings"
)

// A review that re-rates the severities it was given in a table — "|
// Item | Assigned | My Assessment |" with "HIGH -- P0 blocker" beside
// "**MEDIUM**" — and then sums the table up in a sentence — "4 items are
// rated too HIGH, 2 items are rated correctly HIGH" — can be checked
// against its own table: the rows with the given level HIGH and a lower
// own level are the ones rated too high, those with HIGH in both the ones
// rated correctly. The rule reads only a table of the sentence's section
// with exactly two columns of single levels (the first the given rating,
// the last the review's own) and clauses of the form "N items are rated
// too LEVEL" or "N items are rated correctly LEVEL".

var ratingTallyRE = regexp.MustCompile(`(?i)\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:items?|findings?|risks?|entries|rows|ratings?)\s+(?:are|is|were|was)\s+rated\s+(too|correctly(?:\s+as)?)\s+(critical|high|medium|low)\b`)

// levelColumns returns the two columns of a table whose cells are all
// single levels ("HIGH -- P0 blocker", "**MEDIUM**"), and each row's
// levels in them; ok is false unless there are exactly two.
func levelColumns(d *Document, t tallyTable) (given, own []string, ok bool) {
	var cols []int
	for col := 1; col < len(t.header); col++ {
		all := true
		for _, bi := range t.rows {
			cells := d.Blocks[bi].Cells
			if col >= len(cells) || cellLevel(cells[col]) == "" {
				all = false
				break
			}
		}
		if all {
			cols = append(cols, col)
		}
	}
	if len(cols) != 2 || len(t.rows) == 0 {
		return nil, nil, false
	}
	for _, bi := range t.rows {
		cells := d.Blocks[bi].Cells
		given = append(given, cellLevel(cells[cols[0]]))
		own = append(own, cellLevel(cells[cols[1]]))
	}
	return given, own, true
}

// cellLevel is the one level a table cell states, or "".
func cellLevel(cell string) string {
	nv := normaliseFieldValue(cell, true, FormTable)
	if nv.kind != fvEnum || nv.scale != fscaleLevel || strings.Contains(nv.class, "-") {
		return ""
	}
	return nv.class
}

// detectRatingTallies reports a sentence that counts the rows of its
// section's re-rating table otherwise than the table does.
func detectRatingTallies(in DetectInput) []Contradiction {
	var out []Contradiction
	for v, d := range in.Documents {
		bySection := map[int]tallyTable{}
		for _, t := range tablesOf(d) {
			if len(t.rows) > 0 {
				s := d.Blocks[t.rows[0]].Section
				if _, seen := bySection[s]; !seen {
					bySection[s] = t
				}
			}
		}
		if len(bySection) == 0 {
			continue
		}
		blockLines(d, func(bi int, line string, n int) {
			b := d.Blocks[bi]
			if b.Kind == TableRow || !hasFold(line, " rated ") {
				return
			}
			t, ok := bySection[b.Section]
			if !ok {
				return
			}
			given, own, ok := levelColumns(d, t)
			if !ok {
				return
			}
			var c *Contradiction
			for _, m := range ratingTallyRE.FindAllStringSubmatchIndex(line, -1) {
				said, ok := countWord(line[m[2]:m[3]])
				if !ok {
					continue
				}
				how := strings.ToLower(strings.Fields(line[m[4]:m[5]])[0])
				level := strings.ToUpper(line[m[6]:m[7]])
				var rows, ofLevel []int
				for i := range given {
					if given[i] != level {
						continue
					}
					ofLevel = append(ofLevel, t.rows[i])
					g, o := fldLevelRank[given[i]], fldLevelRank[own[i]]
					if (how == "correctly" && o == g) || (how == "too" && o < g) {
						rows = append(rows, t.rows[i])
					}
				}
				if len(rows) == said || len(ofLevel) == 0 {
					continue // a level the table never gives is not what the sentence counts
				}
				if len(rows) == 0 {
					rows = ofLevel // none rated so: the rows of the level show how they are rated
				}
				clause := fmt.Sprintf("%d rated %s %s, the table has %d", said, how, level, len(rows))
				if c != nil {
					c.Reason += "; " + clause
					continue
				}
				// One finding per sentence: the sentence, and the rows of
				// its first clause the table disagrees with.
				quote := cellSentence(line, m[0], m[1])
				c = &Contradiction{Kind: NumericConflict, Impact: Low,
					Subject: "how many items of the table are rated " + how + " " + level,
					Key:     "rating-tally:" + how + ":" + level,
					Reason:  "the sentence and the table above it count otherwise: " + clause,
					Claims:  []Claim{{Variant: v, Section: b.Section, Block: bi, Line: n, Text: quote, Quote: quote, Type: Factual}}}
				for _, ri := range rows[:min(len(rows), maxUnlisted)] {
					r := d.Blocks[ri]
					c.Claims = append(c.Claims, Claim{Variant: v, Section: r.Section, Block: ri, Line: r.Line, Text: r.Text,
						Quote: strings.TrimSpace(d.Text(r.Span)), Type: Factual})
				}
			}
			if c != nil {
				sortClaims(c.Claims)
				out = append(out, *c)
			}
		})
	}
	return dedupeByKey(out)
}
