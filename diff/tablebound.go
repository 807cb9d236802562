package diff

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A goal stated in prose and a table that measures the same thing under
// the same condition contradict when the table's value breaks the goal's
// bound: "p99 ingest latency under 200 ms at 50,000 events per second"
// beside a capacity table whose row for 50,000 events/s expects a p99 of
// 350 ms. The numeric rule compares values of one subject; here the
// subject is conditioned (a row of a load table), so it is matched by the
// metric (p99, p95, latency …) and the condition's value.

// tableMetric finds the metric words a bound and a table column can share.
var tableMetric = regexp.MustCompile(`(?i)\b(p\d{2}(?:\.\d+)?|median|latency|throughput|error rate|availability)\b`)

// mayNameMetric reports whether s holds what every tableMetric match
// starts with: "p" and two digits, or the first word of a metric name.
// Its letters fold only to themselves, so ASCII case is all there is.
func mayNameMetric(s string) bool {
	return hasPercentile(s) || hasFold(s, "median") || hasFold(s, "latency") || hasFold(s, "throughput") || hasFold(s, "error") || hasFold(s, "availability")
}

// conditionNumber reads the number of a table row's condition
// ("duration@50,000events/s") or of a prose count ("50,000 events").
var conditionNumber = regexp.MustCompile(`\d[\d,]*(?:\.\d+)?`)

// perSecond tells a rate from a plain count in a statement.
var perSecond = regexp.MustCompile(`(?i)(per second|/s\b|/sec\b|\brps\b|\bqps\b|\beps\b)`)

// detectTableBounds reports, in one variant or between variants, a bound
// stated in prose that a table row for the same condition breaks.
func detectTableBounds(in DetectInput) []Contradiction {
	type bound struct {
		claim  *Claim
		q      *Quantity
		metric string
		cond   float64
	}
	type row struct {
		claim  *Claim
		q      *Quantity
		metric string
		cond   float64
	}
	var bounds []bound
	var rows []row
	for v := range in.Claims {
		for ci := range in.Claims[v] {
			c := &in.Claims[v][ci]
			for qi := range c.Quantities {
				q := &c.Quantities[qi]
				base, cond, conditioned := strings.Cut(q.Dim, "@")
				if base != "duration" || !conditioned && q.Bound != AtMost && q.Bound != AtLeast {
					continue
				}
				if !mayNameMetric(q.Phrase) && !slices.ContainsFunc(q.Subject, mayNameMetric) {
					continue
				}
				metric := strings.ToLower(tableMetric.FindString(q.Phrase + " " + strings.Join(q.Subject, " ")))
				if metric == "" {
					continue
				}
				if conditioned {
					if n, ok := firstNumber(cond); ok && perSecond.MatchString(cond) {
						rows = append(rows, row{c, q, metric, n})
					}
					continue
				}
				if q.Bound != AtMost && q.Bound != AtLeast || !perSecond.MatchString(c.Text) {
					continue
				}
				for _, o := range c.Quantities {
					if strings.HasPrefix(o.Dim, "count:") || o.Dim == "rate" {
						bounds = append(bounds, bound{c, q, metric, o.Lo})
					}
				}
			}
		}
	}
	var out []Contradiction
	for _, b := range bounds {
		for _, r := range rows {
			if r.metric != b.metric || r.cond != b.cond || r.claim == b.claim {
				continue
			}
			broken := b.q.Bound == AtMost && r.q.Lo > b.q.Hi || b.q.Bound == AtLeast && r.q.Hi < b.q.Lo
			if !broken {
				continue
			}
			first, second := b.claim, r.claim
			if second.Variant < first.Variant || second.Variant == first.Variant && second.Line < first.Line {
				first, second = second, first
			}
			out = append(out, Contradiction{Kind: NumericConflict,
				Subject: fmt.Sprintf("%s at %s", b.metric, formatCondition(b.cond)),
				Claims:  []Claim{*first, *second}, Impact: Medium,
				Reason: fmt.Sprintf("the table's %s (%s) breaks the stated bound (%s) for the same load", r.metric, r.q.Text, b.q.Text),
				Key:    "duration@" + formatCondition(b.cond) + ":" + b.metric})
		}
	}
	return out
}

func firstNumber(s string) (float64, bool) {
	m := conditionNumber.FindString(s)
	if m == "" {
		return 0, false
	}
	n, err := strconv.ParseFloat(strings.ReplaceAll(m, ",", ""), 64)
	return n, err == nil
}

func formatCondition(n float64) string {
	return strconv.FormatFloat(n, 'f', -1, 64) + "/s"
}
