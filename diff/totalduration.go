package diff

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Plans state how long the whole of the work takes: a "Total" row under a
// table of phase durations ("| **Total** | **17-24 days** |"), or a section
// about the total ("## Total Estimated Delivery Window" / "- **Likely
// range:** 7-9 working days"). Two variants of one plan whose totals do
// not even come near each other disagree on the one figure a reader takes
// away, however their phases are cut. The rule compares only totals in one
// unit (days with days, weeks with weeks: a week may be five days or
// seven), and only when every total one variant states lies well outside
// every total of the other, so a range and an estimate inside it, or
// totals a quarter apart, are left alone.

// totalDurationRE reads a duration: a number or range and a unit of time,
// optionally qualified ("working days").
var totalDurationRE = regexp.MustCompile(`(?i)(?:^|[^\w.~≈])(\d+(?:\.\d+)?)(?:\s*(?:-|–|—|to)\s*(\d+(?:\.\d+)?))?\s*(?:working |engineering |calendar |business |person-|dev )?(days?|weeks?|hours?|months?)\b`)

// totalApart is how far apart two totals must be: the larger's low end
// beyond the smaller's high end by this factor.
const totalApart = 1.25

type totalStatement struct {
	claim  Claim
	lo, hi float64
	unit   string
}

// detectTotalDurations reports, across variants, stated totals of the
// work's duration that lie far apart.
func detectTotalDurations(in DetectInput) []Contradiction {
	totals := make([][]totalStatement, len(in.Documents))
	for v, d := range in.Documents {
		totals[v] = documentTotals(d, v)
	}
	var out []Contradiction
	for a := range totals {
		for b := a + 1; b < len(totals); b++ {
			if c, ok := totalConflict(totals[a], totals[b]); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

// documentTotals finds a document's statements of its total duration:
// the duration cells of table rows labelled as totals, and the durations
// stated in a section whose title speaks of a total.
func documentTotals(d *Document, v int) []totalStatement {
	var out []totalStatement
	add := func(b Block, bi int, quote string, m []string) {
		lo, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			return
		}
		hi := lo
		if m[2] != "" {
			if hi, err = strconv.ParseFloat(m[2], 64); err != nil || hi < lo {
				return
			}
		}
		out = append(out, totalStatement{lo: lo, hi: hi, unit: singular(strings.ToLower(m[3])),
			claim: Claim{Variant: v, Section: b.Section, Block: bi, Line: b.Line, Text: b.Text, Quote: quote, Type: Factual}})
	}
	for bi, b := range d.Blocks {
		switch {
		case b.Kind == Code || b.Header:
		case b.Kind == TableRow:
			if len(b.Cells) < 2 || !isTallyLabel(totalLabels, b.Cells[0]) {
				continue
			}
			for _, cell := range b.Cells[1:] {
				if m := totalDurationRE.FindStringSubmatch(strings.Trim(strings.TrimSpace(cell), "*_")); m != nil {
					add(b, bi, strings.TrimSpace(d.Text(b.Span)), m)
					break // a row states one total; later cells are overlaps and notes
				}
			}
		case b.Section >= 0 && totalSection(d.Sections[b.Section].Title):
			src := d.Text(b.Span)
			if strings.Contains(src, "\n") {
				continue // one statement per line: a paragraph of reasoning is no total
			}
			if m := totalDurationRE.FindStringSubmatch(b.Text); m != nil {
				add(b, bi, strings.TrimSpace(src), m)
			}
		}
	}
	return out
}

// totalWords name a duration in a title that speaks of a total.
var totalWords = []string{"duration", "timeline", "delivery", "effort", "schedule", "time", "estimate"}

// totalSection reports whether a section's title speaks of the work's
// total duration: "Total Estimated Delivery Window", "Total estimated
// timeline", "Overall duration".
func totalSection(title string) bool {
	if isASCII(title) {
		// the same test without lower-casing the title for every block
		if !hasFold(title, "total") && !hasFold(title, "overall") {
			return false
		}
		for _, w := range totalWords {
			if hasFold(title, w) {
				return true
			}
		}
		return false
	}
	t := strings.ToLower(title)
	if !strings.Contains(t, "total") && !strings.Contains(t, "overall") {
		return false
	}
	for _, w := range totalWords {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// totalConflict compares two variants' totals of one unit: a conflict when
// every pair lies far apart.
func totalConflict(a, b []totalStatement) (Contradiction, bool) {
	var as, bs []totalStatement
	for _, x := range a {
		for _, y := range b {
			if x.unit != y.unit {
				continue
			}
			if !apart(x, y) {
				return Contradiction{}, false
			}
			as, bs = appendTotal(as, x), appendTotal(bs, y)
		}
	}
	if len(as) == 0 {
		return Contradiction{}, false
	}
	// One statement per variant: its widest total ("Likely range: 7-9
	// working days" rather than the "Baseline: 6.75 days" beside it), so
	// a variant's own two figures are never read as the conflict.
	as, bs = []totalStatement{widest(as)}, []totalStatement{widest(bs)}
	c := Contradiction{Kind: NumericConflict, Subject: "total duration of the work", Impact: High,
		Key:    "total-duration",
		Reason: fmt.Sprintf("one variant totals %s, another %s", formatTally(as[0].lo, as[0].hi, as[0].unit), formatTally(bs[0].lo, bs[0].hi, bs[0].unit))}
	for _, s := range append(as, bs...) {
		c.Claims = append(c.Claims, s.claim)
	}
	sortClaims(c.Claims)
	return c, true
}

func apart(x, y totalStatement) bool {
	return x.lo > y.hi*totalApart || y.lo > x.hi*totalApart
}

func appendTotal(ts []totalStatement, t totalStatement) []totalStatement {
	for _, o := range ts {
		if o.claim.Line == t.claim.Line {
			return ts
		}
	}
	return append(ts, t)
}

// widest returns the total reaching furthest, the first of equals.
func widest(ts []totalStatement) totalStatement {
	w := ts[0]
	for _, t := range ts[1:] {
		if t.hi > w.hi {
			w = t
		}
	}
	return w
}
