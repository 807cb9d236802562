package diff

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
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

// ratingClause is one clause of a sentence counting the rows of its
// section's re-rating table: what it says and what the table gives.
type ratingClause struct {
	block, line int    // the sentence's block and line
	text        string // the line
	match       []int  // ratingTallyRE's submatch indexes in text
	said        int
	how, level  string // "too" or "correctly"; "HIGH"
	rows        []int  // the table's rows it counts (blocks)
	ofLevel     []int  // the table's rows of the level
}

// ratingClauses calls fn for every clause of d that counts the rows of
// its section's re-rating table (see levelColumns), in document order.
func ratingClauses(d *Document, fn func(c ratingClause)) {
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
		return
	}
	blockLines(d, func(bi int, line string, n int) {
		b := &d.Blocks[bi]
		if b.Kind == TableRow {
			return
		}
		t, ok := bySection[b.Section] // first: most sections have no table to tally
		if !ok || !hasFold(line, " rated ") {
			return
		}
		given, own, ok := levelColumns(d, t)
		if !ok {
			return
		}
		for _, m := range ratingTallyRE.FindAllStringSubmatchIndex(line, -1) {
			said, ok := countWord(line[m[2]:m[3]])
			if !ok {
				continue
			}
			c := ratingClause{block: bi, line: n, text: line, match: m, said: said,
				how: strings.ToLower(firstField(line[m[4]:m[5]])), level: strings.ToUpper(line[m[6]:m[7]])}
			for i := range given {
				if given[i] != c.level {
					continue
				}
				c.ofLevel = append(c.ofLevel, t.rows[i])
				g, o := fldLevelRank[given[i]], fldLevelRank[own[i]]
				if (c.how == "correctly" && o == g) || (c.how == "too" && o < g) {
					c.rows = append(c.rows, t.rows[i])
				}
			}
			fn(c)
		}
	})
}

// detectRatingTallies reports a sentence that counts the rows of its
// section's re-rating table otherwise than the table does.
func detectRatingTallies(in DetectInput) []Contradiction {
	var out []Contradiction
	for v, d := range in.Documents {
		var c *Contradiction
		flush := func() {
			if c != nil {
				sortClaims(c.Claims)
				out = append(out, *c)
				c = nil
			}
		}
		last := -1
		ratingClauses(d, func(k ratingClause) {
			if k.line != last {
				flush() // one finding per sentence
				last = k.line
			}
			if len(k.rows) == k.said || len(k.ofLevel) == 0 {
				return // a level the table never gives is not what the sentence counts
			}
			rows := k.rows
			if len(rows) == 0 {
				rows = k.ofLevel // none rated so: the rows of the level show how they are rated
			}
			clause := fmt.Sprintf("%d rated %s %s, the table has %d", k.said, k.how, k.level, len(rows))
			if c != nil {
				c.Reason += "; " + clause
				return
			}
			// the sentence, and the rows of its first clause the table
			// disagrees with
			b := d.Blocks[k.block]
			quote := cellSentence(k.text, k.match[0], k.match[1])
			c = &Contradiction{Kind: NumericConflict, Impact: Low,
				Subject: "how many items of the table are rated " + k.how + " " + k.level,
				Key:     "rating-tally:" + k.how + ":" + k.level,
				Reason:  "the sentence and the table above it count otherwise: " + clause,
				Claims:  []Claim{{Variant: v, Section: b.Section, Block: k.block, Line: k.line, Text: quote, Quote: quote, Type: Factual}}}
			for _, ri := range rows[:min(len(rows), maxUnlisted)] {
				r := d.Blocks[ri]
				c.Claims = append(c.Claims, Claim{Variant: v, Section: r.Section, Block: ri, Line: r.Line, Text: r.Text,
					Quote: strings.TrimSpace(d.Text(r.Span)), Type: Factual})
			}
		})
		flush()
	}
	return dedupeByKey(out)
}

// A Recount is a count a document states of its own table's rows that the
// table gives otherwise, and the statement with the table's count.
type Recount struct {
	Line int    `json:"line"` // 1-based, of the statement
	Said string `json:"said"` // the clause as written: "4 items are rated too HIGH"
	// Count is the clause with the table's count: "5 items are rated too
	// HIGH".
	Count  string `json:"count"`
	Reason string `json:"reason"` // what the table gives
}

// Recounts lists the counts d states of its re-rating tables' rows ("4
// items are rated too HIGH" under a table that lowers five HIGH rows)
// that the tables give otherwise, each restated with the table's count —
// what a merge that changed or brought the table can write instead of
// the stale count. A count whose noun would change number ("1 item is"
// against "2 items are") is not restated: the sentence needs more than a
// new number.
func Recounts(d *Document) []Recount {
	var out []Recount
	if d == nil {
		return nil
	}
	ratingClauses(d, func(k ratingClause) {
		n := len(k.rows)
		if n == k.said || len(k.ofLevel) == 0 || (n == 1) != (k.said == 1) {
			return
		}
		m, line := k.match, k.text
		num := strconv.Itoa(n)
		if !unicode.IsDigit(rune(line[m[2]])) {
			num = numberWord(n, line[m[2]:m[3]])
		}
		said := line[m[0]:m[1]]
		out = append(out, Recount{Line: k.line, Said: said,
			Count:  line[m[0]:m[2]] + num + line[m[3]:m[1]],
			Reason: fmt.Sprintf("the table rates %d of its %s rows %s %s", n, k.level, k.how, k.level)})
	})
	return out
}

// numberWord writes n as a word for the numbers a sentence spells ("five"),
// in the case of the word it replaces; as digits past twelve.
func numberWord(n int, like string) string {
	names := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
	if n < 0 || n >= len(names) {
		return strconv.Itoa(n)
	}
	w := names[n]
	switch {
	case like == strings.ToUpper(like):
		return strings.ToUpper(w)
	case like[:1] == strings.ToUpper(like[:1]):
		return strings.ToUpper(w[:1]) + w[1:]
	}
	return w
}
