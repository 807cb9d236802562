package merge

import (
	"strings"
	"unicode/utf8"

	"github.com/crucible-go/crucible/internal/words"
)

// A field value stated in a table row is one cell of it. Restating the
// winner there changes that cell only: the same word in another cell is
// another field ("| MEDIUM -- P2 | **MEDIUM** |" — the severity the
// reviewed document assigned, then the reviewer's own). And where the
// winner's row gives its value in the same column with a rationale after
// it, as the losing row does, the rationale moves with the value: a
// reviewer's "Agree." beside a value the reviewer did not give would
// argue for the value it no longer names.

// rationaleWords is the least number of words a last cell needs to read
// as a rationale rather than another field ("High", "Phase 3").
const rationaleWords = 4

// restateRow returns lose's row stating win's value, or false when lose's
// text is not a table row or no single cell of it holds the value.
func restateRow(lose, win ConflictValue) (string, bool) {
	lr, ok := splitRow(lose.Text)
	if !ok {
		return "", false
	}
	at := valueCell(lr.cells, lose.Value)
	if at < 0 {
		return "", false
	}
	cells := append([]string(nil), lr.cells...)
	cells[at] = replaceFold(cells[at], lose.Value, win.Value)
	if movesRationale(lose, win) {
		wr, _ := splitRow(win.Text)
		cells[at+1] = wr.cells[at+1]
	}
	lr.cells = cells
	return lr.String(), true
}

// movesRationale reports whether restating win in lose's row also takes
// win's rationale: both rows of as many cells, the value in the same
// column, followed by the last cell, which reads as prose in both.
func movesRationale(lose, win ConflictValue) bool {
	lr, ok1 := splitRow(lose.Text)
	wr, ok2 := splitRow(win.Text)
	if !ok1 || !ok2 || len(lr.cells) != len(wr.cells) {
		return false
	}
	at := valueCell(lr.cells, lose.Value)
	if at < 0 || at != len(lr.cells)-2 || valueCell(wr.cells, win.Value) != at {
		return false
	}
	return words.Count(lr.cells[at+1]) >= rationaleWords && words.Count(wr.cells[at+1]) >= rationaleWords
}

// row is a Markdown table row split into its cells, kept as written
// (spacing and emphasis), so that it can be put back together unchanged
// but for the cells edited.
type row struct {
	lead, trail string // text before the first pipe and after the last
	close       bool   // whether the row ends with a pipe
	cells       []string
}

// splitRow splits a one-line table row on its unescaped pipes.
func splitRow(s string) (row, bool) {
	if strings.ContainsRune(s, '\n') {
		return row{}, false
	}
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "|") || strings.Count(t, "|") < 2 {
		return row{}, false
	}
	first := strings.IndexByte(s, '|')
	r := row{lead: s[:first]}
	body := s[first+1:]
	if end := strings.TrimRight(body, " \t"); strings.HasSuffix(end, "|") && !strings.HasSuffix(end, `\|`) {
		r.close = true
		r.trail = body[len(end):]
		body = end[:len(end)-1]
	}
	start := 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\\':
			i++ // an escaped character, a pipe among them
		case '|':
			r.cells = append(r.cells, body[start:i])
			start = i + 1
		}
	}
	r.cells = append(r.cells, body[start:])
	return r, true
}

// String puts the row back together.
func (r row) String() string {
	var b strings.Builder
	b.WriteString(r.lead)
	b.WriteString("|")
	b.WriteString(strings.Join(r.cells, "|"))
	if r.close {
		b.WriteString("|")
		b.WriteString(r.trail)
	}
	return b.String()
}

// valueCell returns the index of the one cell that is the value (emphasis,
// code marks and case aside), else of the one cell that holds it as a
// whole word; -1 when no cell or several do.
func valueCell(cells []string, value string) int {
	value = strings.TrimSpace(value)
	if value == "" {
		return -1
	}
	if i := onlyCell(cells, func(c string) bool { return strings.EqualFold(strings.Trim(strings.TrimSpace(c), "*_`"), value) }); i != -2 {
		return max(i, -1)
	}
	return max(onlyCell(cells, func(c string) bool { return containsWordFold(c, value) }), -1)
}

// onlyCell returns the index of the one cell satisfying ok, -1 when
// several do, -2 when none does.
func onlyCell(cells []string, ok func(string) bool) int {
	found := -2
	for i, c := range cells {
		if ok(c) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// containsWordFold reports whether s holds word, whatever its case, as a
// whole word in the sense of replaceWholeWord (see wordBoundaryRune).
func containsWordFold(s, word string) bool {
	ls, lw := strings.ToLower(s), strings.ToLower(word)
	for from := 0; lw != ""; {
		i := strings.Index(ls[from:], lw)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(lw)
		before, _ := utf8.DecodeLastRuneInString(ls[:i])
		after, _ := utf8.DecodeRuneInString(ls[end:])
		if (i == 0 || wordBoundaryRune(before, true)) && (end == len(ls) || wordBoundaryRune(after, false)) {
			return true
		}
		from = i + 1
	}
	return false
}

// replaceFold replaces the first occurrence of old in s, whatever its
// case, by repl.
func replaceFold(s, old, repl string) string {
	if i := strings.Index(s, old); i >= 0 {
		return s[:i] + repl + s[i+len(old):]
	}
	if i := strings.Index(strings.ToLower(s), strings.ToLower(old)); i >= 0 && len(strings.ToLower(s)) == len(s) {
		return s[:i] + repl + s[i+len(old):]
	}
	return s
}
