package llmjson

import (
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Markdown returns the Markdown document a reply holds, for seams that
// answer with Markdown rather than JSON (the merge executor, Mode B's
// generator), and false when it holds none. The reply is read with
// goldmark, block by block from the top, so a fence inside the document
// is never taken for the reply's own:
//
//   - a heading before any fenced block starts a bare document, returned
//     from that heading on (prose before it dropped); its code blocks,
//     fenced or not, are content;
//   - a fenced block labelled markdown or md, or unlabelled, before any
//     heading is the reply's wrapper: its body is returned up to the last
//     line that closes it — models often wrap a document holding ```
//     fences in a fence of the same length, which CommonMark would close
//     at the first inner one — and a wrapper never closed is no document
//     (the reply stopped inside it).
//
// Reasoning blocks are expected to be removed already ([Complete] does),
// and a reply cut at its output limit never reaches here as complete: its
// finish reason says so.
func Markdown(reply string) (string, bool) {
	src := []byte(strings.ReplaceAll(reply, "\r\n", "\n"))
	doc := goldmark.DefaultParser().Parse(text.NewReader(src))
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch b := n.(type) {
		case *ast.Heading:
			start := lineStart(src, b)
			if start < 0 {
				return "", false
			}
			return string(src[start:]), true
		case *ast.FencedCodeBlock:
			lang := ""
			if b.Info != nil {
				lang = strings.ToLower(strings.TrimSpace(string(b.Info.Segment.Value(src))))
			}
			if lang != "" && lang != "markdown" && lang != "md" {
				continue // a code sample in the prose around the answer
			}
			return fencedBody(string(src), b, src)
		}
	}
	return "", false
}

// lineStart returns the offset of the line n's first text line starts on.
func lineStart(src []byte, n ast.Node) int {
	lines := n.Lines()
	if lines.Len() == 0 {
		return -1
	}
	at := lines.At(0).Start
	for at > 0 && src[at-1] != '\n' {
		at--
	}
	return at
}

// fencedBody returns the body of the wrapper fence b: from the line after
// its opening to the last line of the reply that is a closing fence of
// its kind and at least its length.
func fencedBody(s string, b *ast.FencedCodeBlock, src []byte) (string, bool) {
	// The opening fence's line is the one before the first content line;
	// find it by scanning back from the info string or the content.
	var open int
	switch {
	case b.Info != nil:
		open = b.Info.Segment.Start
	case b.Lines().Len() > 0:
		open = b.Lines().At(0).Start - 1
	default:
		return "", false
	}
	for open > 0 && src[open-1] != '\n' {
		open--
	}
	lines := strings.Split(s[open:], "\n")
	first := strings.TrimSpace(lines[0])
	char := first[:1]
	length := len(first) - len(strings.TrimLeft(first, char))
	for j := len(lines) - 1; j > 0; j-- {
		t := strings.TrimSpace(lines[j])
		if len(t) >= length && strings.Trim(t, char) == "" {
			return strings.Join(lines[1:j], "\n") + "\n", true
		}
	}
	return "", false
}
