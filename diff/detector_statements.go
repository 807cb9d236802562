package diff

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/internal/words"
)

// The model detector's view of a variant: every block of body text as a
// statement that keeps what a reader needs to judge it. Sentences are
// never cut (a block is one statement, however many sentences it holds);
// table rows name each value's column; list items are shown in their
// nesting, after the sentence that leads into them; code is shown as
// code, line by line with its line numbers; questions are kept. Each
// statement has an id ("A12") and the exact lines it spans, so a finding
// that cites it can be checked and quoted.

// detStatement is one statement the model may cite.
type detStatement struct {
	id      string
	variant int
	section int
	block   int
	line    int // first line
	endLine int // last line
	kind    string
	text    string   // as the model sees it, one line (code: see code)
	code    []string // a code block's lines, code[i] on line line+i
	depth   int      // list nesting: 0 for a top-level item
	lang    string   // a code block's info string
}

// Kinds of [detStatement].
const (
	stmtText = "text"
	stmtItem = "item"
	stmtRow  = "row"
	stmtCode = "code"
)

// maxCodeLines bounds the lines of one code block shown whole; longer
// blocks keep the lines that state something a contradiction can rest
// on (see codeKeeps).
const maxCodeLines = 60

// buildStatements returns the statements of document d, variant v, in
// document order, with ids "<label><n>".
func buildStatements(d *Document, v int) []detStatement {
	var out []detStatement
	fields := labelFieldItems(d)
	var header []string
	for bi, b := range d.Blocks {
		if b.Kind != TableRow {
			header = nil
		}
		st := detStatement{variant: v, section: b.Section, block: bi, line: b.Line, endLine: b.EndLine}
		switch b.Kind {
		case TableRow:
			if b.Header {
				header = b.Cells
				continue
			}
			st.kind, st.text = stmtRow, rowText(header, b.Cells)
		case Code:
			st.kind = stmtCode
			st.code, st.line, st.lang = codeLines(d, b)
			if len(st.code) == 0 {
				continue
			}
		case ListItem:
			st.kind, st.text, st.depth = stmtItem, oneLine(b.Text), listDepth(d, b)
		default:
			st.kind, st.text = stmtText, oneLine(b.Text)
		}
		if st.kind != stmtCode && st.kind != stmtRow {
			if item, ok := fields[b.Line]; ok && !strings.HasPrefix(st.text, item) {
				st.text = item + " — " + st.text // "Delta 2.1 — Verdict: OVERSTATED. …"
			}
		}
		if st.kind != stmtCode && strings.TrimSpace(st.text) == "" {
			continue
		}
		out = append(out, st)
	}
	for i := range out {
		out[i].id = Label(v) + strconv.Itoa(i+1)
	}
	return out
}

// labelFieldItems maps the line of each labelled field ("**Verdict**:
// OVERSTATED") to the item it belongs to, when the item is not the
// obvious one: a section title is shown above the statement anyway, so
// only fields whose item differs from their section's title are named.
func labelFieldItems(d *Document) map[int]string {
	out := map[int]string{}
	for _, f := range ExtractFields(d, 0) {
		if f.Form != FormLabel || f.Item == "" {
			continue
		}
		if f.Section >= 0 && f.Section < len(d.Sections) && d.Sections[f.Section].Title == f.Item {
			continue
		}
		out[f.Line] = f.Item
	}
	return out
}

// rowText renders a table row as "row label — column: value; column:
// value", so that which number is which never has to be guessed.
func rowText(header, cells []string) string {
	if len(cells) == 0 {
		return ""
	}
	label := oneLine(cells[0])
	var parts []string
	for i, c := range cells[1:] {
		c = oneLine(c)
		if c == "" {
			continue
		}
		if i+1 < len(header) && strings.TrimSpace(header[i+1]) != "" {
			parts = append(parts, oneLine(header[i+1])+": "+c)
		} else {
			parts = append(parts, c)
		}
	}
	if len(header) > 0 && strings.TrimSpace(header[0]) != "" && label != "" && len([]rune(label)) <= 4 {
		label = oneLine(header[0]) + " " + label // "Phase 3", not a bare "3"
	}
	if len(parts) == 0 {
		return label
	}
	if label == "" {
		return strings.Join(parts, "; ")
	}
	return label + " — " + strings.Join(parts, "; ")
}

// codeLines returns a code block's lines with the line of the first one:
// the fences left out, blank lines kept so that numbering stays exact.
func codeLines(d *Document, b Block) (lines []string, first int, lang string) {
	src := strings.Split(d.Text(b.Span), "\n")
	first = b.Line
	if len(src) > 0 && isFence([]byte(src[0])) {
		lang = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(src[0]), "`~"))
		src = src[1:]
		first++
	}
	if len(src) > 0 && isFence([]byte(src[len(src)-1])) {
		src = src[:len(src)-1]
	}
	for len(src) > 0 && strings.TrimSpace(src[len(src)-1]) == "" {
		src = src[:len(src)-1]
	}
	return src, first, lang
}

// codeKeeps reports whether a line of a long code block is worth showing:
// one that assigns, defines or declares something, or holds a number.
func codeKeeps(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" {
		return false
	}
	for _, p := range []string{"def ", "func ", "class ", "type ", "const ", "var ", "let ", "return ", "raise ", "if ", "elif ", "@"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return strings.ContainsAny(t, "=:") || containsDigit(t)
}

// listDepth is a list item's nesting: its indentation in steps of two
// spaces (the usual Markdown nesting), 0 at the margin.
func listDepth(d *Document, b Block) int {
	line := d.Text(b.Span)
	n := 0
	for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
		n++
	}
	if n > 0 && strings.HasPrefix(strings.TrimLeft(line, " \t"), ">") {
		return 0
	}
	return min(n/2, 6)
}

func oneLine(s string) string { return words.OneLine(s) }

// render writes the statement as the prompt shows it.
func (s detStatement) render(b *strings.Builder) {
	switch s.kind {
	case stmtCode:
		last := s.line + len(s.code) - 1
		lang := ""
		if s.lang != "" {
			lang = " " + s.lang
		}
		fmt.Fprintf(b, "%s L%d-%d code%s:\n", s.id, s.line, last, lang)
		long := len(s.code) > maxCodeLines
		skipped := false
		for i, l := range s.code {
			if long && !codeKeeps(l) {
				skipped = true
				continue
			}
			if skipped {
				b.WriteString("      …\n")
				skipped = false
			}
			fmt.Fprintf(b, "  %4d| %s\n", s.line+i, strings.TrimRight(l, " \t"))
		}
	case stmtItem:
		fmt.Fprintf(b, "%s %s%s- %s\n", s.id, lineRange(s.line, s.endLine), strings.Repeat("  ", s.depth+1), s.text)
	case stmtRow:
		fmt.Fprintf(b, "%s %s row: %s\n", s.id, lineRange(s.line, s.endLine), s.text)
	default:
		fmt.Fprintf(b, "%s %s: %s\n", s.id, lineRange(s.line, s.endLine), s.text)
	}
}

func lineRange(from, to int) string {
	if to > from {
		return fmt.Sprintf("L%d-%d", from, to)
	}
	return fmt.Sprintf("L%d", from)
}

// sectionPath names a section with its ancestors below the title:
// "3 Phase 2 > 3.2 Filtering".
func sectionPath(d *Document, si int) string {
	if si < 0 || si >= len(d.Sections) {
		return "(before the first heading)"
	}
	var parts []string
	for s := si; s >= 0; s = d.Sections[s].Parent {
		if d.Sections[s].Depth == 0 && s != si {
			break
		}
		parts = append(parts, sectionRef(d, s))
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, " > ")
}

// sourceLine returns the text of a 1-based line of d, indentation and
// trailing space removed.
func sourceLine(d *Document, line int) string {
	if line < 1 {
		return ""
	}
	start := 0
	if d.lineStarts != nil {
		if line > len(d.lineStarts) {
			return ""
		}
		start = d.lineStarts[line-1]
	} else {
		for l := 1; l < line; l++ {
			i := strings.IndexByte(d.Source[start:], '\n')
			if i < 0 {
				return ""
			}
			start += i + 1
		}
	}
	end := strings.IndexByte(d.Source[start:], '\n')
	if end < 0 {
		end = len(d.Source) - start
	}
	return strings.TrimSpace(d.Source[start : start+end])
}

// lines returns the first and last line a citation of the statement may
// name.
func (s detStatement) lines() (int, int) {
	if s.kind == stmtCode {
		return s.line, s.line + len(s.code) - 1
	}
	return s.line, s.endLine
}

// fullText is everything the statement says, for verification: its text,
// or its code.
func (s detStatement) fullText() string {
	if s.kind == stmtCode {
		return strings.Join(s.code, "\n")
	}
	return s.text
}
