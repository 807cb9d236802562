package refs

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/mdast"
)

// markdown reads a document the way diff does — CommonMark with GFM
// tables — plus goldmark's heading attributes, so "## Caching {#cache}"
// is the heading "Caching" with the id "cache". diff keeps no tree, and
// its titles keep the braces; but its parser leaves the reading of its
// tree (see [mdast.Read]) in the document's memo when no heading holds a
// brace, the one case where the two trees differ. Only then does refs
// parse once more, once per document (see [read]). The parser is
// configuration only, never modified, and safe for concurrent use.
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

// reading is what refs takes from a document's Markdown tree (see
// [mdast.Reading]), with the anchor links as references. It is computed
// once per document and shared, read-only.
type reading struct {
	prose    string
	anchors  []Ref // "[x](#a)" links, in document order
	headings []mdast.Heading
	htmlIDs  []mdast.HTMLID
}

type readingKey struct{}

// read returns d's reading, computed once however many steps ask.
func read(d *diff.Document) *reading {
	return d.Memo(readingKey{}, func() any { return newReading(d) }).(*reading)
}

func newReading(d *diff.Document) *reading {
	mr := d.Memo(mdast.ReadingKey{}, func() any {
		if t, _ := d.Memo(mdast.TreeKey{}, func() any { return (*mdast.Tree)(nil) }).(*mdast.Tree); t != nil && t.Root != nil {
			r := mdast.Read(t.Root, t.Body, d.Source, t.Base)
			t.Root, t.Body = nil, nil // read once (this memo): the tree can go
			return r
		}
		return parseReading(d)
	}).(*mdast.Reading)
	r := &reading{prose: mr.Prose, headings: mr.Headings, htmlIDs: mr.HTMLIDs}
	if len(mr.Anchors) > 0 {
		r.anchors = make([]Ref, len(mr.Anchors))
		for i, a := range mr.Anchors {
			r.anchors[i] = Ref{Kind: Anchor, Text: d.Source[a.Lo:a.Hi], Target: decodeAnchor(a.Fragment),
				Span: diff.Span{Start: a.Lo, End: a.Hi}, Line: d.LineAt(a.Lo)}
		}
	}
	return r
}

// parseReading parses d with heading attributes and reads the tree: what
// refs does when diff's parser left no tree.
func parseReading(d *diff.Document) *mdast.Reading {
	base := 0
	if d.FrontMatter != nil {
		base = min(d.FrontMatter.Span.End, len(d.Source))
	}
	body := []byte(d.Source[base:])
	return mdast.Read(markdown.Parse(text.NewReader(body)), body, d.Source, base)
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
