package mdast

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Reading is what the reference finder takes from a document's Markdown
// tree: the prose mask, the anchor links, the headings and the HTML ids.
// Offsets are in the whole source (front matter included).
//
// It lives here, not in the reference finder, so that the diff step's
// parser can take it from the tree it builds anyway: the reference finder
// would otherwise parse every document a second time. See [Read].
type Reading struct {
	// Prose is the source with every byte that is not prose text
	// replaced: by a space inside a paragraph or table cell (code spans,
	// links, images, inline HTML, emphasis markers), by a newline
	// everywhere else (headings, code and HTML blocks, front matter,
	// table pipes), so that no pattern matches across two blocks or
	// cells. Newlines stay.
	Prose    string
	Anchors  []Anchor // "[x](#a)" links, in document order
	Headings []Heading
	HTMLIDs  []HTMLID
}

// Anchor is a link to a fragment of the document itself: Source[Lo:Hi]
// is the link as written, Fragment its destination without the '#', as
// written (percent-encoded).
type Anchor struct {
	Lo, Hi   int
	Fragment string
}

// Heading is a heading's plain text (as diff makes titles), its "{#id}"
// attribute ("" for none), its offset in the source, and whether it is a
// heading of the document itself rather than nested in a list or quote.
type Heading struct {
	Text string
	ID   string
	Off  int
	Top  bool
}

// HTMLID is an id or name attribute of HTML in the document, with the
// offset of its tag.
type HTMLID struct {
	ID  string
	Off int
}

// ReadingKey is the document memo key (see diff.Document.Memo) of a
// document's *Reading, which the reference finder computes there: from the
// diff parser's tree when it left one (see Tree), else from a parse of its
// own.
type ReadingKey struct{}

// Tree is the goldmark tree the diff parser built of a document's body
// (body is src[base:]), left under TreeKey for the reference finder when
// no heading holds '{' (see HeadingsBraced): the tree parsed with heading
// attributes is then the same, so a second parse would only repeat it.
// It is read on first use, so a program that only parses pays nothing
// for it, and released once read (Root nil).
type Tree struct {
	Root ast.Node
	Body []byte
	Base int
}

// TreeKey is the document memo key of a document's *Tree.
type TreeKey struct{}

// HeadingsBraced reports whether a heading of root (parsed from body)
// holds '{': goldmark's heading attributes ("## Caching {#cache}") read
// only such a heading otherwise.
func HeadingsBraced(root ast.Node, body []byte) bool {
	braced := false
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		h, ok := n.(*ast.Heading)
		if !ok {
			return ast.WalkContinue, nil
		}
		lines := h.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			if bytes.IndexByte(seg.Value(body), '{') >= 0 {
				braced = true
				return ast.WalkStop, nil
			}
		}
		return ast.WalkSkipChildren, nil
	})
	return braced
}

var htmlIDRE = regexp.MustCompile(`<[a-zA-Z][^<>\n]*?\b(?:id|name)[ \t]*=[ \t]*["']([^"'\n<>]+)["']`)

// Read returns the reading of root, the tree goldmark parsed from body:
// src[base:], where src is the whole source (a front matter block, which
// is no prose, before base).
func Read(root ast.Node, body []byte, src string, base int) *Reading {
	w := &walker{src: src, body: body, base: base, mask: make([]byte, len(src))}
	for i := range w.mask {
		w.mask[i] = '\n'
	}
	w.block(root)
	w.r.Prose = string(w.mask)
	return &w.r
}

// walker fills a Reading from goldmark's tree. Offsets in the tree are
// relative to body, which starts at base in src.
type walker struct {
	src  string
	body []byte
	base int
	mask []byte
	r    Reading
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

// start returns the offset in src where inline node n begins, or -1.
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
	w.r.Anchors = append(w.r.Anchors, Anchor{Lo: lo, Hi: lo + k + 1, Fragment: string(l.Destination[1:])})
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
	lines := h.Lines()
	off := w.base
	if p := h.Pos(); p >= 0 {
		off += p
	} else if lines.Len() > 0 {
		off += lines.At(0).Start
	}
	ht := Heading{Text: strings.TrimSpace(string(AppendPlain(nil, w.body, h))), Off: off, Top: h.Parent() == h.OwnerDocument()}
	if id, ok := h.AttributeString("id"); ok {
		if b, ok := id.([]byte); ok {
			ht.ID = string(b)
		}
	}
	w.r.Headings = append(w.r.Headings, ht)
	w.rawHTML(h)
}

// htmlIDs collects the id and name attributes of the HTML in seg.
func (w *walker) htmlIDs(seg text.Segment) {
	lo, hi := w.base+seg.Start, min(w.base+seg.Stop, len(w.src))
	if lo < 0 || lo >= hi || strings.IndexByte(w.src[lo:hi], '<') < 0 {
		return
	}
	for _, m := range htmlIDRE.FindAllStringSubmatchIndex(w.src[lo:hi], -1) {
		w.r.HTMLIDs = append(w.r.HTMLIDs, HTMLID{ID: w.src[lo+m[2] : lo+m[3]], Off: lo + m[0]})
	}
}
