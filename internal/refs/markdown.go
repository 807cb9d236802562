package refs

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/mdast"
)

// markdown reads a document the way diff does — CommonMark with GFM
// tables — plus goldmark's heading attributes, so "## Caching {#cache}"
// is the heading "Caching" with the id "cache". diff keeps no tree, and
// its titles keep the braces, so refs parses once more, once per
// document (see [read]). The parser is configuration only, never
// modified, and safe for concurrent use.
//
// goldmark's own automatic heading ids (parser.WithAutoHeadingID) are not
// used: goldmark makes them from the heading's raw Markdown line before
// inline parsing ("[API](api.md)" gives "apiapimd") and drops every
// non-ASCII letter, while the anchors documents link to are GitHub's,
// made from the rendered text (see [Slug]).
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.Table),
	goldmark.WithParserOptions(parser.WithAttribute()),
).Parser()

// reading is what refs takes from a document's Markdown tree: the prose
// mask, the anchor links, the headings and the HTML ids. It is computed
// once per document and shared, read-only.
type reading struct {
	// prose is Source with every byte that is not prose text replaced:
	// by a space inside a paragraph or table cell (code spans, links,
	// images, inline HTML, emphasis markers), by a newline everywhere else
	// (headings, code and HTML blocks, front matter, table pipes), so
	// that no pattern matches across two blocks or cells. Newlines stay.
	prose    string
	anchors  []Ref // "[x](#a)" links, in document order
	headings []headingText
	htmlIDs  []htmlID
}

type headingText struct {
	text string // plain text, attributes removed, as diff makes titles
	id   string // the "{#id}" attribute, or ""
	off  int    // offset in Source of the heading
	top  bool   // a heading of the document itself, not nested in a list or quote
}

type htmlID struct {
	id  string
	off int
}

type readingKey struct{}

// read returns d's reading, parsing d once however many steps ask.
func read(d *diff.Document) *reading {
	return d.Memo(readingKey{}, func() any { return newReading(d) }).(*reading)
}

func newReading(d *diff.Document) *reading {
	base := 0
	if d.FrontMatter != nil {
		base = min(d.FrontMatter.Span.End, len(d.Source))
	}
	w := &walker{d: d, base: base, src: d.Source, body: []byte(d.Source[base:]), mask: make([]byte, len(d.Source))}
	for i := range w.mask {
		w.mask[i] = '\n'
	}
	w.block(markdown.Parse(text.NewReader(w.body)))
	w.r.prose = string(w.mask)
	return &w.r
}

// walker fills a reading from goldmark's tree. Offsets in the tree are
// relative to body, which starts at base in Source.
type walker struct {
	d    *diff.Document
	src  string
	body []byte
	base int
	mask []byte
	r    reading
}

func (w *walker) block(n ast.Node) {
	switch n := n.(type) {
	case *ast.Heading:
		w.heading(n)
		return
	case *ast.Paragraph, *ast.TextBlock, *east.TableCell:
		w.container(n)
		return
	case *ast.HTMLBlock:
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			w.htmlIDs(lines.At(i))
		}
		if n.HasClosure() {
			w.htmlIDs(n.ClosureLine)
		}
		return
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.LinkReferenceDefinition:
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.block(c)
	}
}

// container reads a paragraph, a tight list item's text or a table cell:
// its lines become blank prose, its text nodes are copied in and its
// anchor links collected.
func (w *walker) container(n ast.Node) {
	lines := n.Lines()
	if lines.Len() == 0 {
		return
	}
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		for j := w.base + seg.Start; j < w.base+seg.Stop && j < len(w.mask); j++ {
			if w.src[j] != '\n' {
				w.mask[j] = ' '
			}
		}
	}
	w.inline(n, w.base+lines.At(lines.Len()-1).Stop)
}

// inline copies the text nodes under n into the mask. end is the offset
// where whatever follows n's last child begins (or n's content ends).
func (w *walker) inline(n ast.Node, end int) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		next := end
		if s := c.NextSibling(); s != nil && w.start(s) >= 0 {
			next = w.start(s)
		}
		switch v := c.(type) {
		case *ast.Text:
			lo, hi := w.base+v.Segment.Start, w.base+v.Segment.Stop
			if 0 <= lo && lo <= hi && hi <= len(w.mask) {
				copy(w.mask[lo:hi], w.src[lo:hi])
			}
		case *ast.Link:
			if bytes.HasPrefix(v.Destination, []byte("#")) {
				w.anchorLink(v, next)
			}
			w.rawHTML(v) // ids in a link's text still define anchors
		case *ast.RawHTML:
			for i := 0; i < v.Segments.Len(); i++ {
				w.htmlIDs(v.Segments.At(i))
			}
		case *ast.CodeSpan, *ast.Image, *ast.AutoLink, *ast.String:
			// not prose: code, a picture, a URL, or text goldmark made
			// up (an entity) that has no place in the source
		default: // emphasis and the like: its text is prose
			w.inline(c, next)
		}
	}
}

// start returns the offset in Source where inline node n begins, or -1.
func (w *walker) start(n ast.Node) int {
	if t, ok := n.(*ast.Text); ok {
		return w.base + t.Segment.Start
	}
	if p := n.Pos(); p >= 0 {
		return w.base + p
	}
	return -1
}

// anchorLink records "[text](#a)". goldmark gives a link's start ('[');
// its end is the last ')' or ']' before whatever follows it, since only
// closing emphasis markers, blanks and line prefixes can come between.
func (w *walker) anchorLink(l *ast.Link, next int) {
	lo := l.Pos()
	if lo < 0 {
		return
	}
	lo += w.base
	next = min(next, len(w.src))
	if lo >= next || w.src[lo] != '[' {
		return
	}
	k := strings.LastIndexAny(w.src[lo:next], ")]")
	if k < 0 {
		return
	}
	hi := lo + k + 1
	w.r.anchors = append(w.r.anchors, Ref{Kind: Anchor, Text: w.src[lo:hi], Target: decodeAnchor(string(l.Destination[1:])),
		Span: diff.Span{Start: lo, End: hi}, Line: w.d.LineAt(lo)})
}

// rawHTML collects the HTML ids under n without taking its text as prose.
func (w *walker) rawHTML(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if h, ok := c.(*ast.RawHTML); ok {
			for i := 0; i < h.Segments.Len(); i++ {
				w.htmlIDs(h.Segments.At(i))
			}
			continue
		}
		w.rawHTML(c)
	}
}

func (w *walker) heading(h *ast.Heading) {
	off := w.base
	if p := h.Pos(); p >= 0 {
		off += p
	} else if h.Lines().Len() > 0 {
		off += h.Lines().At(0).Start
	}
	ht := headingText{text: strings.TrimSpace(string(w.plain(nil, h))), off: off, top: h.Parent() == h.OwnerDocument()}
	if id, ok := h.AttributeString("id"); ok {
		if b, ok := id.([]byte); ok {
			ht.id = string(b)
		}
	}
	w.r.headings = append(w.r.headings, ht)
	w.rawHTML(h)
}

// plain appends the plain text of n's inline descendants, as diff does
// for titles: text with line breaks as spaces, entities decoded, an
// autolink's label; no HTML.
func (w *walker) plain(buf []byte, n ast.Node) []byte { return mdast.AppendPlain(buf, w.body, n) }

// htmlIDs collects the id and name attributes of the HTML in seg.
func (w *walker) htmlIDs(seg text.Segment) {
	lo, hi := w.base+seg.Start, min(w.base+seg.Stop, len(w.src))
	if lo < 0 || lo >= hi || strings.IndexByte(w.src[lo:hi], '<') < 0 {
		return
	}
	for _, m := range htmlIDRE.FindAllStringSubmatchIndex(w.src[lo:hi], -1) {
		w.r.htmlIDs = append(w.r.htmlIDs, htmlID{id: w.src[lo+m[2] : lo+m[3]], off: lo + m[0]})
	}
}

// Prose returns d.Source with everything that is not prose text blanked
// out, byte for byte, so an offset in it is an offset in d.Source: code
// blocks and code spans, links and images (text and destination), HTML,
// autolinks, headings and front matter. Within a paragraph, list item or
// table cell such bytes become spaces; between blocks and cells, newlines,
// so a pattern matched against it never spans two of them. Newlines stay
// where they are. Readers of references the Markdown tree cannot name
// ("see 3.2") match against it and quote d.Source.
func Prose(d *diff.Document) string {
	if d == nil {
		return ""
	}
	return read(d).prose
}
