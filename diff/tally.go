package diff

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// A table that states its own total can be checked against its rows: a
// "Total" row whose value is not the sum of the column above it, or whose
// count of items is not the number of items the rows list, says two things
// that cannot both hold. So does a row whose count cell disagrees with the
// items it lists beside it. Both are a document disagreeing with itself,
// and both can be read without knowing what the table is about, so the
// rule is exact: it compares only cells that parse completely (plain
// numbers, ranges, item lists) and says nothing when any cell it needs is
// an estimate ("~3"), a prose remark or empty.

// totalLabels are the first cells of a row that totals the rows above it.
var totalLabels = wordSet("total", "totals", "sum", "overall", "grand total")

// countHeaders are column headers of a cell that counts the items another
// cell of its row lists.
var countHeaders = wordSet("count", "#", "n", "no.", "number", "num")

// notSummed are words of a column header whose values do not add up: an
// average, an extreme, a share or a rate is not the sum of its rows.
var notSummed = regexp.MustCompile(`(?i)\b(avg|average|mean|median|max|maximum|min|minimum|peak|p\d{2}|rate|ratio|share|percent)\b|%`)

// tallyNumber is a cell holding one number or a range of two, with an
// optional unit or noun after it: "2,560", "17-24 days", "8 tasks".
var tallyNumber = regexp.MustCompile(`^(\d[\d,]*(?:\.\d+)?)(?:\s*(?:-|–|—|to)\s*(\d[\d,]*(?:\.\d+)?))?(?:\s+([A-Za-z][A-Za-z-]*))?$`)

// tallyItem is one item of a list cell: an id ("NR-6", "T03.04", "2.1"),
// a dotted number or a range of them ("2.1-2.4"), after an optional word
// that names the series ("Delta 2.1").
var tallyItem = regexp.MustCompile(`^(?:[A-Za-z]+\s+)?([A-Za-z]*[-_]?)(\d+(?:\.\d+)*)(?:\s*(?:-|–)\s*([A-Za-z]*[-_]?)(\d+(?:\.\d+)*))?$`)

// tallyTable is one table of a document: its header cells and data rows
// (block indexes).
type tallyTable struct {
	header []string
	rows   []int
}

// detectTallies reports, in each variant, tables whose totals or counts
// disagree with their own rows.
func detectTallies(in DetectInput) []Contradiction {
	var out []Contradiction
	for v, d := range in.Documents {
		for _, t := range tablesOf(d) {
			out = append(out, totalRowConflicts(d, v, t)...)
			out = append(out, countCellConflicts(d, v, t)...)
		}
	}
	return out
}

// tablesOf splits the document's table rows into tables.
func tablesOf(d *Document) []tallyTable {
	var out []tallyTable
	var cur *tallyTable
	for bi, b := range d.Blocks {
		switch {
		case b.Kind != TableRow:
			cur = nil
		case b.Header:
			out = append(out, tallyTable{header: b.Cells})
			cur = &out[len(out)-1]
		case cur != nil && bi > 0 && d.Blocks[bi-1].Kind == TableRow:
			cur.rows = append(cur.rows, bi)
		}
	}
	return out
}

// totalRowConflicts checks the table's total row, when it has one as its
// last row, column by column against the rows above it.
func totalRowConflicts(d *Document, v int, t tallyTable) []Contradiction {
	if len(t.rows) < 3 {
		return nil // a total of one row restates it
	}
	last := d.Blocks[t.rows[len(t.rows)-1]]
	if len(last.Cells) == 0 || !isTallyLabel(totalLabels, last.Cells[0]) {
		return nil
	}
	parts := t.rows[:len(t.rows)-1]
	var out []Contradiction
	for col := 1; col < len(last.Cells) && col < len(t.header); col++ {
		total, ok := parseTally(last.Cells[col])
		if !ok || notSummed.MatchString(t.header[col]) {
			continue
		}
		if c, ok := columnSumConflict(d, v, t, parts, col, total); ok {
			out = append(out, c)
			continue
		}
		if c, ok := columnItemsConflict(d, v, t, parts, col, total); ok {
			out = append(out, c)
		}
	}
	return out
}

// tally is a parsed number cell.
type tally struct {
	lo, hi float64
	unit   string // the word after the number, singular and lower-case
	text   string
}

func parseTally(cell string) (tally, bool) {
	s := strings.TrimSpace(strings.Trim(strings.TrimSpace(cell), "*_"))
	m := tallyNumber.FindStringSubmatch(s)
	if m == nil {
		return tally{}, false
	}
	lo, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
	if err != nil {
		return tally{}, false
	}
	hi := lo
	if m[2] != "" {
		if hi, err = strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64); err != nil || hi < lo {
			return tally{}, false
		}
	}
	return tally{lo: lo, hi: hi, unit: singular(strings.ToLower(m[3])), text: s}, true
}

func singular(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}

// columnSumConflict compares a total with the sum of the column's values:
// every part must be a plain number or range in the total's unit.
func columnSumConflict(d *Document, v int, t tallyTable, parts []int, col int, total tally) (Contradiction, bool) {
	var lo, hi float64
	for _, bi := range parts {
		cells := d.Blocks[bi].Cells
		if col >= len(cells) {
			return Contradiction{}, false
		}
		p, ok := parseTally(cells[col])
		if !ok || p.unit != total.unit {
			return Contradiction{}, false
		}
		lo, hi = lo+p.lo, hi+p.hi
	}
	if closeTo(lo, total.lo) && closeTo(hi, total.hi) {
		return Contradiction{}, false
	}
	sum := formatTally(lo, hi, total.unit)
	subject := fmt.Sprintf("total %s %s", strings.ToLower(strings.TrimSpace(t.header[col])), tableName(d, t))
	reason := fmt.Sprintf("the total row says %s, the rows above it add up to %s", total.text, sum)
	return tallyContradiction(d, v, subject, reason, append([]int{lastOf(t)}, parts...)), true
}

// columnItemsConflict compares a count of items ("8 tasks") with the items
// the column's rows list ("1.1", "2.1-2.4", "3.1, 3.2").
func columnItemsConflict(d *Document, v int, t tallyTable, parts []int, col int, total tally) (Contradiction, bool) {
	if total.unit == "" || total.lo != total.hi || total.lo != math.Trunc(total.lo) {
		return Contradiction{}, false
	}
	n := 0
	for _, bi := range parts {
		cells := d.Blocks[bi].Cells
		if col >= len(cells) {
			return Contradiction{}, false
		}
		k, ok := countItems(cells[col])
		if !ok {
			return Contradiction{}, false
		}
		n += k
	}
	if n == int(total.lo) {
		return Contradiction{}, false
	}
	subject := fmt.Sprintf("number of %ss %s", total.unit, tableName(d, t))
	reason := fmt.Sprintf("the total row says %s, the rows above it list %d", total.text, n)
	c := tallyContradiction(d, v, subject, reason, append([]int{lastOf(t)}, parts...))
	c.Claims = append(c.Claims, restatements(d, v, t, total)...)
	sortClaims(c.Claims)
	return c, true
}

// maxRestatements bounds how many other statements of a wrong total are
// cited beside the table.
const maxRestatements = 3

// restatements finds the lines outside the table that state the same
// count as its total row ("8 tasks → 5 tasks" beside a total of "5
// tasks"): the same figure, to be corrected with it.
func restatements(d *Document, v int, t tallyTable, total tally) []Claim {
	num := strconv.FormatFloat(total.lo, 'f', -1, 64)
	re := regexp.MustCompile(`(?i)(?:^|[^\w.,])` + regexp.QuoteMeta(num) + `\s+` + regexp.QuoteMeta(total.unit) + `s?\b`)
	first, last := t.rows[0], lastOf(t)
	var out []Claim
	for bi, b := range d.Blocks {
		if b.Kind == Code || (bi >= first-1 && bi <= last) {
			continue
		}
		src := d.Text(b.Span)
		loc := re.FindStringIndex(src)
		if loc == nil {
			continue
		}
		start := strings.LastIndexByte(src[:loc[0]+1], '\n') + 1
		end := len(src)
		if k := strings.IndexByte(src[loc[1]:], '\n'); k >= 0 {
			end = loc[1] + k
		}
		out = append(out, Claim{Variant: v, Section: b.Section, Block: bi, Line: d.LineAt(b.Span.Start + start),
			Text: b.Text, Quote: strings.TrimSpace(src[start:end]), Type: Factual})
		if len(out) == maxRestatements {
			break
		}
	}
	return out
}

// countCellConflicts checks rows whose count column disagrees with the
// list of items in another cell of the same row.
func countCellConflicts(d *Document, v int, t tallyTable) []Contradiction {
	countCol := -1
	for i, h := range t.header {
		if isTallyLabel(countHeaders, h) {
			countCol = i
			break
		}
	}
	if countCol < 0 {
		return nil
	}
	var out []Contradiction
	for _, bi := range t.rows {
		cells := d.Blocks[bi].Cells
		if countCol >= len(cells) {
			continue
		}
		want, err := strconv.Atoi(strings.Trim(strings.TrimSpace(cells[countCol]), "*_"))
		if err != nil {
			continue
		}
		for col, cell := range cells {
			if col == countCol || !strings.Contains(cell, ",") {
				continue
			}
			n, ok := countItems(cell)
			if !ok || n == want {
				continue
			}
			raw := rawCells(d.Text(d.Blocks[bi].Span))
			if len(raw) != len(cells) {
				continue
			}
			label := strings.TrimSpace(strings.Trim(strings.TrimSpace(cells[0]), "*_"))
			subject := fmt.Sprintf("count of %s items %s", label, tableName(d, t))
			reason := fmt.Sprintf("the row counts %d and lists %d", want, n)
			c := Contradiction{Kind: NumericConflict, Subject: subject, Impact: Medium, Reason: reason, Key: "tally:" + subject}
			b := d.Blocks[bi]
			for _, k := range []int{countCol, col} {
				c.Claims = append(c.Claims, Claim{Variant: v, Section: b.Section, Block: bi, Line: b.Line,
					Text: strings.TrimSpace(t.header[k]) + ": " + cells[k], Quote: raw[k], Type: Factual})
			}
			c.Claims = append(c.Claims, unlistedItems(d, v, label, cells[col], bi)...)
			out = append(out, c)
			break
		}
	}
	return out
}

// countItems counts the items of a list cell: comma-separated ids or
// ranges of ids ("2.1-2.4" is four). A segment that is not an id means the
// cell is prose, not a list.
func countItems(cell string) (int, bool) {
	cell = strings.TrimSpace(strings.Trim(strings.TrimSpace(cell), "*_"))
	if cell == "" {
		return 0, false
	}
	n := 0
	for _, seg := range strings.Split(cell, ",") {
		m := tallyItem.FindStringSubmatch(strings.TrimSpace(seg))
		if m == nil {
			return 0, false
		}
		if m[4] == "" {
			n++
			continue
		}
		k, ok := rangeSize(m[1], m[2], m[3], m[4])
		if !ok {
			return 0, false
		}
		n += k
	}
	return n, true
}

// rangeSize is the number of ids from a to b inclusive, when they differ
// only in their last number ("2.1" to "2.4", "T3" to "T7").
func rangeSize(prefixA, a, prefixB, b string) (int, bool) {
	if prefixB != "" && prefixB != prefixA {
		return 0, false
	}
	ia, ib := strings.LastIndexByte(a, '.'), strings.LastIndexByte(b, '.')
	if a[:ia+1] != b[:ib+1] {
		return 0, false
	}
	x, err1 := strconv.Atoi(a[ia+1:])
	y, err2 := strconv.Atoi(b[ib+1:])
	if err1 != nil || err2 != nil || y < x || y-x > 1000 {
		return 0, false
	}
	return y - x + 1, true
}

// tallyContradiction builds an intra-variant contradiction citing table
// rows, the first row being the one that states the figure.
func tallyContradiction(d *Document, v int, subject, reason string, rows []int) Contradiction {
	c := Contradiction{Kind: NumericConflict, Subject: subject, Impact: Medium, Reason: reason,
		Key: "tally:" + subject}
	for _, bi := range rows {
		b := d.Blocks[bi]
		c.Claims = append(c.Claims, Claim{Variant: v, Section: b.Section, Block: bi, Line: b.Line,
			Text: b.Text, Quote: strings.TrimSpace(d.Text(b.Span)), Type: Factual})
	}
	sortClaims(c.Claims)
	return c
}

// rawCells splits a one-line table row's source into its cells' source
// text, trimmed, so a claim can quote one cell verbatim.
func rawCells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	row = strings.TrimSuffix(row, "|")
	var out []string
	start := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			out = append(out, strings.TrimSpace(row[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(row[start:]))
}

// tableName names a table by the section that holds it, for the subject
// of a finding.
func tableName(d *Document, t tallyTable) string {
	if s := d.Blocks[t.rows[0]].Section; s >= 0 && s < len(d.Sections) && d.Sections[s].Title != "" {
		return "in the table of “" + d.Sections[s].Title + "”"
	}
	return "in the table"
}

func lastOf(t tallyTable) int { return t.rows[len(t.rows)-1] }

// tallyLabel is a cell as a label: markup and spacing removed, lower-case.
func tallyLabel(cell string) string {
	return strings.ToLower(strings.Join(strings.Fields(strings.Trim(strings.TrimSpace(cell), "*_:")), " "))
}

// isTallyLabel reports whether set holds tallyLabel(cell). A short ASCII
// label is normalised on the stack, since the map lookup of a converted
// byte slice allocates nothing: most cells are no label of the set, and
// building each label as a string only to look it up was the cost.
func isTallyLabel(set map[string]bool, cell string) bool {
	s := strings.Trim(strings.TrimSpace(cell), "*_:")
	var buf [64]byte
	if len(s) > len(buf) || !isASCII(s) {
		return set[tallyLabel(cell)]
	}
	n := 0
	for i := 0; i < len(s); {
		for i < len(s) && asciiSpace(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		if n > 0 {
			buf[n] = ' '
			n++
		}
		for ; i < len(s) && !asciiSpace(s[i]); i++ {
			c := s[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf[n] = c
			n++
		}
	}
	return set[string(buf[:n])]
}

// asciiSpace reports whether c is white space as strings.Fields reads it
// in ASCII text.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }

func formatTally(lo, hi float64, unit string) string {
	s := strconv.FormatFloat(lo, 'f', -1, 64)
	if hi != lo {
		s += "-" + strconv.FormatFloat(hi, 'f', -1, 64)
	}
	if unit != "" {
		s += " " + unit + "s"
	}
	return s
}

// maxUnlisted bounds how many of a document's items labelled like a
// summary row, but missing from its list, are cited beside it.
const maxUnlisted = 3

// unlistedItems finds, for a summary row that counts and lists the items
// of one label ("| OVERSTATED | 8 | Delta 2.1, 2.4, … |"), the items the
// document itself labels so elsewhere ("**Verdict**: OVERSTATED." under
// "Delta 2.11") that the row does not list: where the summary and the body
// part ways, to be corrected with it. Only labelled fields whose whole
// label is the row's are read, and an item counts as listed when its id
// is in the row, so a row whose list is complete cites nothing more.
func unlistedItems(d *Document, v int, label, list string, row int) []Claim {
	want := strings.ToUpper(tallyLabel(label))
	if want == "" || strings.ContainsAny(want, "0123456789") {
		return nil
	}
	listed := listedIDs(list)
	if len(listed) == 0 {
		return nil
	}
	var out []Claim
	seen := map[string]bool{}
	for _, r := range docFieldRefs(d) {
		if r.Form == FormTable || r.norm.kind != fvEnum || strings.ToUpper(r.norm.label) != want || r.Line == d.Blocks[row].Line {
			continue
		}
		var ids []string
		for _, id := range r.key.ids {
			ids = append(ids, itemIDKey(id.prefix, id.num))
		}
		if len(ids) == 0 || seen[ids[0]] {
			continue
		}
		in := false
		for _, id := range ids {
			in = in || listed[id] || listed[bareIDKey(id)]
		}
		if in {
			continue
		}
		seen[ids[0]] = true
		out = append(out, Claim{Variant: v, Section: r.Section, Block: -1, Line: r.Line,
			Text: r.Name + ": " + r.Value, Quote: strings.TrimSpace(r.Quote), Type: Factual})
		if len(out) == maxUnlisted {
			break
		}
	}
	return out
}

// listedID is one id of a list cell: an optional series word and a dotted
// number ("Delta 2.1", "NR-6", "2.4"); a bare number continues the series
// of the id before it.
var listedID = regexp.MustCompile(`^(?:([A-Za-z]{1,12})[-_ ]?)?(\d+(?:\.\d+)*)$`)

// listedIDs returns the ids a list cell names, as itemIDKey writes them,
// and each bare number as bareIDKey does; nil when a segment is no id.
func listedIDs(cell string) map[string]bool {
	out := map[string]bool{}
	series := ""
	for _, seg := range strings.Split(strings.Trim(strings.TrimSpace(cell), "*_"), ",") {
		m := listedID.FindStringSubmatch(strings.TrimSpace(seg))
		if m == nil {
			return nil
		}
		if m[1] != "" {
			series = strings.ToLower(m[1])
		}
		var num []int
		for _, p := range strings.Split(m[2], ".") {
			n, err := strconv.Atoi(p)
			if err != nil {
				return nil
			}
			num = append(num, n)
		}
		out[itemIDKey(series, num)] = true
		out[bareIDKey(itemIDKey("", num))] = true
	}
	return out
}

// itemIDKey writes an id as "prefix:2.1".
func itemIDKey(prefix string, num []int) string {
	parts := make([]string, len(num))
	for i, n := range num {
		parts[i] = strconv.Itoa(n)
	}
	return strings.ToLower(prefix) + ":" + strings.Join(parts, ".")
}

// bareIDKey drops an id's series word, for a list that names the series
// only once ("Delta 2.1, 2.4"): "delta:2.4" and "d:2.4" are both "#2.4".
func bareIDKey(key string) string {
	_, num, _ := strings.Cut(key, ":")
	return "#" + num
}
