package diff

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/internal/words"
)

// A document that states a figure in a summary — "| Token budget | 2,560
// (optimistic) | **3,300** (with 30% buffer) |" — and works it out in a
// table of its own — "### Token Budget Estimate" ending "| **Total** | … |
// **2,678** |" — gives one figure twice. The rule reads only a summary
// row (or labelled line) whose label is named, word for word, by the
// heading of a table that ends with a total row; the summary's value is
// its last cell (in a before/after table, the current one), the table's
// is the last cell of its total row; both must be plain numbers, without
// an estimate mark or a unit that is not the other's.

// leadNumber reads a cell that opens with a plain number: "**3,300** (with
// 30% buffer)", "2,678", "12 days". It returns the number and the word
// after it, if any.
var leadNumber = regexp.MustCompile(`^\**\s*(\d[\d,]*(?:\.\d+)?)\**\s*([A-Za-z]+)?`)

func cellNumber(cell string) (float64, string, bool) {
	m := leadNumber.FindStringSubmatch(strings.TrimSpace(cell))
	if m == nil {
		return 0, "", false
	}
	n, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
	if err != nil {
		return 0, "", false
	}
	return n, singular(strings.ToLower(m[2])), true
}

type restated struct {
	claim Claim
	label string
	words words.Set
	n     float64
	unit  string
}

// detectRestatedTotals reports, within each variant, a summary figure
// and the total of the table its label names that differ.
func detectRestatedTotals(in DetectInput) []Contradiction {
	var out []Contradiction
	for v, d := range in.Documents {
		tables := tablesOf(d)
		var totals []restated
		for _, t := range tables {
			if len(t.rows) < 2 {
				continue
			}
			last := d.Blocks[lastOf(t)]
			if len(last.Cells) < 2 || !totalLabels[tallyLabel(last.Cells[0])] {
				continue
			}
			s := last.Section
			if s < 0 || s >= len(d.Sections) {
				continue
			}
			n, unit, ok := cellNumber(last.Cells[len(last.Cells)-1])
			if !ok {
				continue
			}
			totals = append(totals, restated{n: n, unit: unit, label: d.Sections[s].Title,
				words: sortedSet(subjectWords(d.Sections[s].Title)),
				claim: Claim{Variant: v, Section: s, Block: lastOf(t), Line: last.Line, Text: last.Text,
					Quote: strings.TrimSpace(d.Text(last.Span)), Type: Factual}})
		}
		if len(totals) == 0 {
			continue
		}
		for _, t := range tables {
			for _, bi := range t.rows {
				b := d.Blocks[bi]
				if len(b.Cells) < 2 || totalLabels[tallyLabel(b.Cells[0])] {
					continue
				}
				label := subjectWords(b.Cells[0])
				if len(label) < 2 || containsDigit(b.Cells[0]) {
					continue
				}
				n, unit, ok := cellNumber(b.Cells[len(b.Cells)-1])
				if !ok {
					continue
				}
				for _, tot := range totals {
					if tot.claim.Block >= t.rows[0] && tot.claim.Block <= lastOf(t) {
						continue // the row is part of the table it would restate
					}
					if tot.words.Intersect(sortedSet(label)) < len(sortedSet(label)) {
						continue
					}
					if unit != tot.unit || relDiff(n, tot.n) <= 0.01 {
						continue
					}
					row := Claim{Variant: v, Section: b.Section, Block: bi, Line: b.Line, Text: b.Text,
						Quote: strings.TrimSpace(d.Text(b.Span)), Type: Factual}
					name := strings.TrimSpace(fldPlain(b.Cells[0]))
					c := Contradiction{Kind: NumericConflict, Impact: Medium,
						Subject: strings.ToLower(name[:1]) + name[1:],
						Key:     "restated-total:" + strings.Join(sortedSet(label), " "),
						Reason: fmt.Sprintf("the summary gives %s, the total of the table “%s” is %s",
							strconv.FormatFloat(n, 'f', -1, 64), tot.label, strconv.FormatFloat(tot.n, 'f', -1, 64)),
						Claims: []Claim{row, tot.claim}}
					sortClaims(c.Claims)
					out = append(out, c)
				}
			}
		}
	}
	return dedupeByKey(out)
}
