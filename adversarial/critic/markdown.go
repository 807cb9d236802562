package critic

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// document is the line-level view of a Markdown artifact that the offline
// strategies read: which lines are prose (not code, not front matter), the
// headings and the sections they open. It is deliberately small — the
// rule-based checks quote whole lines, so lines are the unit.
type document struct {
	lines    []string // without line endings; index 0 is line 1
	prose    []bool   // false inside fenced code and front matter
	headings []heading
	kind     []lineKind

	// Memoised detector results: a document is read by many checks with
	// the same patterns. A document belongs to one goroutine.
	finds map[*regexp.Regexp][]int
	qs    []quantity
	qsOK  bool
	ids   []identifier
	idsOK bool
}

type lineKind uint8

const (
	lineText lineKind = iota
	lineHeading
	lineUnderline // a setext heading's underline
)

type heading struct {
	level int
	text  string
	line  int // 1-based
	end   int // last line of the section (inclusive), 1-based
}

var (
	atxHeading = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$`)
	fenceOpen  = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
)

// parseDocument splits text into lines and finds code fences, front matter
// and ATX and setext headings. It never fails: anything it does not
// recognise is prose.
func parseDocument(text string) *document {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	text = strings.TrimSuffix(text, "\n")
	d := &document{}
	if text == "" {
		return d
	}
	d.lines = strings.Split(text, "\n")
	d.prose = make([]bool, len(d.lines))
	start := 0
	if strings.TrimSpace(d.lines[0]) == "---" {
		for i := 1; i < len(d.lines); i++ {
			if t := strings.TrimSpace(d.lines[i]); t == "---" || t == "..." {
				start = i + 1
				break
			}
		}
	}
	fence := ""
	for i := start; i < len(d.lines); i++ {
		line := d.lines[i]
		if fence != "" {
			t := strings.TrimSpace(line)
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if m := fenceOpen.FindStringSubmatch(line); m != nil {
			fence = m[1]
			continue
		}
		d.prose[i] = true
		if m := atxHeading.FindStringSubmatch(line); m != nil {
			d.headings = append(d.headings, heading{level: len(m[1]), text: cleanInline(m[2]), line: i + 1})
			continue
		}
		// Setext: a paragraph line underlined with = (level 1) or - (level 2).
		if i > start && d.prose[i-1] && strings.TrimSpace(d.lines[i-1]) != "" && !isBlockStart(d.lines[i-1]) && !d.isHeading(i) {
			t := strings.TrimSpace(line)
			if len(t) > 0 && (strings.Trim(t, "=") == "" || (strings.Trim(t, "-") == "" && len(t) >= 2)) {
				level := 1
				if t[0] == '-' {
					level = 2
				}
				d.headings = append(d.headings, heading{level: level, text: cleanInline(d.lines[i-1]), line: i})
			}
		}
	}
	d.kind = make([]lineKind, len(d.lines))
	for _, h := range d.headings {
		d.kind[h.line-1] = lineHeading
		if h.line < len(d.lines) && !atxHeading.MatchString(d.lines[h.line-1]) {
			d.kind[h.line] = lineUnderline
		}
	}
	// Section ends: the line before the next heading of the same or a higher
	// level, or the last line.
	for i := range d.headings {
		d.headings[i].end = len(d.lines)
		for j := i + 1; j < len(d.headings); j++ {
			if d.headings[j].level <= d.headings[i].level {
				d.headings[i].end = d.headings[j].line - 1
				break
			}
		}
	}
	return d
}

// isHeading reports whether line index i (0-based) is a heading. While
// parsing, before kinds are set, it searches the headings found so far.
func (d *document) isHeading(i int) bool {
	if d.kind != nil {
		return i >= 0 && i < len(d.kind) && d.kind[i] == lineHeading
	}
	for _, h := range d.headings {
		if h.line == i+1 {
			return true
		}
	}
	return false
}

func isBlockStart(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "- ") ||
		strings.HasPrefix(t, "* ") || strings.HasPrefix(t, ">") || listNumber.MatchString(t)
}

var (
	listNumber   = regexp.MustCompile(`^\d+[.)]\s`)
	inlineMarkup = regexp.MustCompile("[*_`]+")
	inlineLink   = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// cleanInline strips emphasis, code ticks and link targets from heading text.
func cleanInline(s string) string {
	s = inlineLink.ReplaceAllString(s, "$1")
	s = inlineMarkup.ReplaceAllString(s, "")
	return strings.TrimSpace(s)
}

// line returns line n (1-based).
func (d *document) line(n int) string { return d.lines[n-1] }

// isProse reports whether line n (1-based) is outside code and front matter.
func (d *document) isProse(n int) bool { return n >= 1 && n <= len(d.lines) && d.prose[n-1] }

// proseLines calls fn for every non-blank prose line that is not a heading.
func (d *document) proseLines(fn func(n int, text string)) {
	for i, l := range d.lines {
		if d.prose[i] && strings.TrimSpace(l) != "" && !d.isHeading(i) && !isSetextUnderline(d, i) {
			fn(i+1, l)
		}
	}
}

func isSetextUnderline(d *document, i int) bool {
	return i >= 0 && i < len(d.kind) && d.kind[i] == lineUnderline
}

// find returns the prose lines matching re (headings excluded). Callers
// must not modify the result.
func (d *document) find(re *regexp.Regexp) []int {
	if out, ok := d.finds[re]; ok {
		return out
	}
	var out []int
	d.proseLines(func(n int, text string) {
		if re.MatchString(text) {
			out = append(out, n)
		}
	})
	if d.finds == nil {
		d.finds = map[*regexp.Regexp][]int{}
	}
	d.finds[re] = out
	return out
}

// findAll is find including headings.
func (d *document) findAll(re *regexp.Regexp) []int {
	var out []int
	for i, l := range d.lines {
		if d.prose[i] && re.MatchString(l) {
			out = append(out, i+1)
		}
	}
	return out
}

// statement returns the sentence that holds the first match of re on line
// n (the line's start when re is nil or does not match), reading across
// the lines of its paragraph or list item.
func (d *document) statement(n int, re *regexp.Regexp) string {
	if re == nil {
		return d.statementAt(n, nil)
	}
	return d.statementAt(n, re.FindStringIndex)
}

// statementAt is statement with any finder of the position on line n.
func (d *document) statementAt(n int, find func(string) []int) string {
	cont := func(k int) bool {
		t := strings.TrimSpace(d.line(k))
		return d.isProse(k) && t != "" && !d.isHeading(k-1) && !isSetextUnderline(d, k-1)
	}
	first, last := n, n
	for first > 1 && !isBlockStart(d.line(first)) && cont(first-1) && tableCells(d.line(first-1)) == nil {
		first--
	}
	for last < len(d.lines) && cont(last+1) && !isBlockStart(d.line(last+1)) {
		last++
	}
	var b strings.Builder
	at := 0
	for k := first; k <= last; k++ {
		if k > first {
			b.WriteByte(' ')
		}
		t := strings.TrimSpace(d.line(k))
		if k == n {
			at = b.Len()
			if find != nil {
				if loc := find(t); loc != nil {
					at += loc[0]
				}
			}
		}
		b.WriteString(t)
	}
	text := b.String()
	begin := 0
	for _, loc := range reSentenceEnd.FindAllStringIndex(text, -1) {
		if loc[1] <= at {
			begin = loc[1]
			continue
		}
		return quote(text[begin : loc[0]+1])
	}
	return quote(text[begin:])
}

// section returns the heading whose section holds line n most closely, or
// nil before the first heading.
func (d *document) section(n int) *heading {
	var best *heading
	for i := range d.headings {
		h := &d.headings[i]
		if h.line <= n && n <= h.end && (best == nil || h.line > best.line) {
			best = h
		}
	}
	return best
}

// sectionsMatching returns the headings whose text matches re.
func (d *document) sectionsMatching(re *regexp.Regexp) []*heading {
	var out []*heading
	for i := range d.headings {
		if re.MatchString(d.headings[i].text) {
			out = append(out, &d.headings[i])
		}
	}
	return out
}

// body returns the prose line numbers of a section, headings excluded.
func (d *document) body(h *heading) []int {
	var out []int
	for n := h.line + 1; n <= h.end; n++ {
		if d.isProse(n) && strings.TrimSpace(d.line(n)) != "" && !d.isHeading(n-1) && !isSetextUnderline(d, n-1) {
			out = append(out, n)
		}
	}
	return out
}

// bodyText joins a section's prose lines.
func (d *document) bodyText(h *heading) string {
	var b strings.Builder
	for _, n := range d.body(h) {
		b.WriteString(d.line(n))
		b.WriteByte('\n')
	}
	return b.String()
}

// hasContent reports whether a section has prose or code before its first
// subsection.
func (d *document) hasContent(h *heading) bool {
	for n := h.line + 1; n <= h.end; n++ {
		if d.isHeading(n - 1) {
			return false
		}
		if strings.TrimSpace(d.line(n)) != "" && !isSetextUnderline(d, n-1) {
			return true
		}
	}
	return false
}

// title returns the first level-1 heading, if any.
func (d *document) title() *heading {
	for i := range d.headings {
		if d.headings[i].level == 1 {
			return &d.headings[i]
		}
	}
	return nil
}

// maxQuote bounds a quoted line; longer lines are cut at a rune boundary
// and end with "…".
const maxQuote = 200

// Evidence is a line of the artifact a finding rests on, quoted.
type Evidence struct {
	// Line is the 1-based line number; 0 when the evidence is an absence
	// (Quote then says what is missing).
	Line int `json:"line"`
	// Quote is the line's text, trimmed, or a description of what is absent.
	Quote string `json:"quote"`
}

// cite quotes line n.
func (d *document) cite(n int) Evidence {
	return Evidence{Line: n, Quote: quote(d.line(n))}
}

func (d *document) citeAll(ns []int, limit int) []Evidence {
	var out []Evidence
	for i, n := range ns {
		if limit > 0 && i == limit {
			break
		}
		out = append(out, d.cite(n))
	}
	return out
}

func absent(what string) Evidence { return Evidence{Quote: what} }

func quote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= maxQuote {
		return s
	}
	cut := maxQuote
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// tableCells splits a Markdown table row into trimmed cells, or returns nil
// for a line that is not a table row.
func tableCells(line string) []string {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "|") {
		return nil
	}
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(t); i++ {
		switch {
		case t[i] == '\\' && i+1 < len(t) && t[i+1] == '|':
			cur.WriteByte('|')
			i++
		case t[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(t[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

func isDelimiterRow(cells []string) bool {
	if len(cells) == 0 {
		return false
	}
	for _, c := range cells {
		if strings.Trim(c, ":- ") != "" || !strings.Contains(c, "-") {
			return false
		}
	}
	return true
}
