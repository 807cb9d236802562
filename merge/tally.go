package merge

import (
	"fmt"
	"slices"
	"strings"
)

// A tally counts a variant's items by the value it gave them — "|
// OVERSTATED | 8 | Delta 2.1, 2.4, … |" under a review's summary. Where the
// merge resolved some of those items to another variant's value, the
// counts describe the variant the table came from, not the merged
// document, so a section that tallies values its variant lost is not
// added. (A base section stays: its text is the base's, and the re-scan
// reports a tally that no longer matches.)

// tallyRows is how many rows of a table must name values of one field, each
// beside a count, for the table to be a tally of that field.
const tallyRows = 2

// dropTallies removes the appends and inserts of sections holding a tally
// of a field whose conflicts their variant lost at least once.
func dropTallies(in PlanInput, changes []Change) ([]Change, []Rejection) {
	fields := lostFields(in.Conflicts)
	if len(fields) == 0 {
		return changes, nil
	}
	var kept []Change
	var out []Rejection
	for _, c := range changes {
		if c.Approach == Append || c.Approach == Insert {
			if f, rows, ok := tallyOf(c.Source.Text, fields[c.Source.Variant.Label]); ok {
				out = append(out, notMade(c, fmt.Sprintf("Not added: it counts Variant %s's own %s values (%s), and the merged document states another variant's value for %d of its items, so the counts would not describe it.",
					c.Source.Variant.Label, f.name, strings.Join(rows, ", "), f.lost)))
				continue
			}
		}
		kept = keepChange(kept, changes, c)
	}
	return kept, out
}

// lostField is a field (the part of a conflict's subject after " / ")
// whose values a variant gave, and how many of its conflicts it lost.
type lostField struct {
	name   string
	values []string // every variant's values, lower-case
	lost   int
}

// lostFields lists, per variant label, the fields of which it lost at
// least one conflict, in the order the conflicts name them.
func lostFields(conflicts []ResolvedConflict) map[string][]*lostField {
	byName := map[string]*lostField{}
	var names []string
	lost := map[string]map[string]int{} // label → field → conflicts lost
	for _, k := range conflicts {
		i := strings.LastIndex(k.Subject, " / ")
		if i < 0 {
			continue
		}
		name := k.Subject[i+len(" / "):]
		f := byName[name]
		if f == nil {
			f = &lostField{name: name}
			byName[name] = f
			names = append(names, name)
		}
		won := ""
		for _, v := range k.Values {
			if v.Variant == k.Winner {
				won = v.Value
			}
		}
		for _, v := range k.Values {
			if lv := strings.ToLower(v.Value); lv != "" && !slices.Contains(f.values, lv) {
				f.values = append(f.values, lv)
			}
			if v.Variant != k.Winner && won != "" && !strings.EqualFold(v.Value, won) {
				if lost[v.Variant] == nil {
					lost[v.Variant] = map[string]int{}
				}
				lost[v.Variant][name]++
			}
		}
	}
	out := map[string][]*lostField{}
	for label, byField := range lost {
		for _, name := range names {
			if n := byField[name]; n > 0 {
				f := *byName[name]
				f.lost = n
				out[label] = append(out[label], &f)
			}
		}
	}
	return out
}

// tallyOf finds in Markdown text a table of which at least tallyRows rows
// open with a value of one of the fields and hold a count: the field and
// those values, as written.
func tallyOf(text string, fields []*lostField) (*lostField, []string, bool) {
	if len(fields) == 0 || !strings.Contains(text, "|") {
		return nil, nil, false
	}
	rows := map[*lostField][]string{}
	for line := range strings.Lines(text) {
		cells := tableCells(line)
		if len(cells) < 2 || !slices.ContainsFunc(cells[1:], isCount) {
			continue
		}
		first := strings.ToLower(cells[0])
		for _, f := range fields {
			if slices.Contains(f.values, first) && !slices.Contains(rows[f], cells[0]) {
				rows[f] = append(rows[f], cells[0])
			}
		}
	}
	for _, f := range fields {
		if len(rows[f]) >= tallyRows {
			return f, rows[f], true
		}
	}
	return nil, nil, false
}

// tableCells splits a Markdown table row into its cells, emphasis and code
// marks trimmed; nil for a line that is not a row.
func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") {
		return nil
	}
	parts := strings.Split(strings.Trim(line, "|"), "|")
	cells := make([]string, len(parts))
	for i, p := range parts {
		cells[i] = strings.Trim(strings.TrimSpace(p), "*_`")
	}
	return cells
}

// isCount reports whether a cell is a whole number.
func isCount(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
