// Package mdast holds the small readings of goldmark's syntax tree that
// more than one package needs, so that they read a document the same way:
// the diff step's parser and the reference finder both take a heading's
// title as AppendPlain gives it.
package mdast

import "github.com/yuin/goldmark/ast"

// AppendPlain appends the plain text of n's inline descendants to buf:
// text with line breaks as spaces (entities as written), an autolink's label;
// raw HTML is markup, not text. body is the source the tree was parsed
// from.
func AppendPlain(buf, body []byte, n ast.Node) []byte {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch v := c.(type) {
		case *ast.Text:
			buf = append(buf, v.Segment.Value(body)...)
			if v.SoftLineBreak() || v.HardLineBreak() {
				buf = append(buf, ' ')
			}
		case *ast.String:
			buf = append(buf, v.Value...)
		case *ast.AutoLink:
			buf = append(buf, v.Label(body)...)
		case *ast.RawHTML:
		default:
			buf = AppendPlain(buf, body, c)
		}
	}
	return buf
}
