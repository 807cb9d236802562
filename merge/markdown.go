package merge

import (
	"strings"

	"github.com/crucible-go/crucible/internal/words"
)

// mdInline makes untrusted text safe for one line of Markdown prose: one
// line, no raw HTML.
func mdInline(s string) string {
	s = words.OneLine(s)
	return strings.ReplaceAll(s, "<", "&lt;")
}

// mdCell is mdInline for a table cell.
func mdCell(s string) string {
	s = mdInline(s)
	if s == "" {
		return "—"
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

// writeRow writes one table row of cells, each as mdCell has it, without
// the strings mdCell and fmt build: the plan and the merge log each list
// every value not taken, thousands of rows in a large run.
func writeRow(b *strings.Builder, cells ...string) {
	for i, c := range cells {
		if i == 0 {
			b.WriteString("| ")
		} else {
			b.WriteString(" | ")
		}
		writeCell(b, c)
	}
	b.WriteString(" |\n")
}

// writeRejections writes one table row per rejection (point, non-base
// approach, rationale), with room made first: a table of thousands of
// rows is not copied at each doubling of the builder.
func writeRejections(b *strings.Builder, rows []Rejection) {
	b.Grow(rejectionsSize(rows))
	for _, r := range rows {
		writeRow(b, r.Point, r.NonBase, r.Rationale)
	}
}

// rejectionsSize is about the size of rows' table rows: their cells and
// the row's pipes and spaces.
func rejectionsSize(rows []Rejection) int {
	n := 0
	for _, r := range rows {
		n += len(r.Point) + len(r.NonBase) + len(r.Rationale) + 12
	}
	return n
}

// writeCell writes mdCell(s).
func writeCell(b *strings.Builder, s string) {
	s = words.OneLine(s)
	if s == "" {
		b.WriteString("—")
		return
	}
	writeEscaped(b, s, "<|")
}

// writeInline writes s as mdInline has it, without the string mdInline
// builds: the plan lists every change in full, thousands in a large run.
func writeInline(b *strings.Builder, s string) {
	writeEscaped(b, words.OneLine(s), "<")
}

// writeEscaped writes s with each of the bytes in special ('<', '|')
// escaped for Markdown.
func writeEscaped(b *strings.Builder, s, special string) {
	for {
		i := strings.IndexAny(s, special)
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		if s[i] == '<' {
			b.WriteString("&lt;")
		} else {
			b.WriteString(`\|`)
		}
		s = s[i+1:]
	}
}

// longestRun returns the longest run of c in s.
func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// mdCode renders s as an inline code span, whatever backticks it holds.
func mdCode(s string) string {
	s = words.OneLine(s)
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// indentFence renders text as a fenced block indented to sit inside a
// list item; the fence is longer than any backtick run in text.
func indentFence(text string) string {
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	var b strings.Builder
	b.WriteString("  " + fence + "text\n")
	for _, l := range strings.Split(text, "\n") {
		if l == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString("  " + l + "\n")
	}
	b.WriteString("  " + fence + "\n")
	return b.String()
}
