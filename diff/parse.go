package diff

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	yaml "go.yaml.in/yaml/v3"

	"github.com/crucible-go/crucible/internal/mdast"
	"github.com/crucible-go/crucible/internal/words"
)

// markdown is the parser every Document comes from: CommonMark plus GFM
// tables (artifacts use tables for requirements, risks and scores). It is
// configuration only, never modified, and a goldmark parser may be used by
// several goroutines at once.
var markdown = goldmark.New(goldmark.WithExtensions(extension.Table)).Parser()

// Parse normalises src (see [Normalize]) and parses it into a Document named
// name. Empty input is a valid empty document. Input that is binary, not
// UTF-8, or opens with front matter that is not valid YAML fails with an
// [*InputError].
func Parse(name string, src []byte) (*Document, error) {
	norm, err := Normalize(src)
	if err != nil {
		if ie, ok := err.(*InputError); ok {
			ie.Name = name
		}
		return nil, err
	}
	d := &Document{Name: name, Source: string(norm), lineStarts: lineStarts(norm), memo: &docMemo{}}
	if len(norm) > 0 {
		d.Lines = len(d.lineStarts)
	}
	fm, bodyStart, err := parseFrontMatter(norm)
	if err != nil {
		return nil, &InputError{Name: name, Line: 1, Err: err}
	}
	d.FrontMatter = fm
	body := norm[bodyStart:]
	d.Words = words.Count(d.Source[bodyStart:])

	// Most blocks are one or two lines: reserve room for them up front
	// rather than growing the slice a dozen times.
	d.Blocks = make([]Block, 0, d.Lines/2+4)
	b := &builder{doc: d, body: body, base: bodyStart, src: norm}
	root := markdown.Parse(text.NewReader(body))
	b.walkTop(root)
	b.finishSections()
	d.Title = documentTitle(d)
	// The reference finder reads the tree too (prose, anchors, headings):
	// leave it the tree rather than have it parse again, unless a heading
	// holds a brace — it parses headings' "{#id}" attributes, and only
	// such a heading reads otherwise with them. It reads the tree when it
	// is first asked (see mdast.Tree).
	if !mdast.HeadingsBraced(root, body) {
		d.Memo(mdast.TreeKey{}, func() any { return &mdast.Tree{Root: root, Body: body, Base: bodyStart} })
	}
	return d, nil
}

// lineStarts returns the byte offset at which each line of src begins.
func lineStarts(src []byte) []int {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// ReadFrontMatter reads the front matter of a normalised document (see
// [Normalize]) exactly as [Parse] does, without parsing the Markdown after
// it. It returns nil when the document has none; the error is a
// [ErrBadFrontMatter] for a block that is a mapping but does not decode.
func ReadFrontMatter(norm []byte) (*FrontMatter, error) {
	fm, _, err := parseFrontMatter(norm)
	return fm, err
}

// parseFrontMatter finds a YAML block opening the document. A "---" first
// line with no closing "---" or "..." line, or a block that is YAML but not
// a mapping, is not front matter: the text is left to Markdown (where
// "---" is a thematic break). A mapping that fails to decode is an error.
//
// Blank lines before the opening "---" are tolerated (generated documents
// sometimes start with them); such a block is front matter only when it
// decodes, since a Markdown document may well open with blank lines and a
// thematic break.
func parseFrontMatter(src []byte) (*FrontMatter, int, error) {
	const open = "---\n"
	lead := len(src) - len(bytes.TrimLeft(src, "\n"))
	if !bytes.HasPrefix(src[lead:], []byte(open)) {
		return nil, 0, nil
	}
	fm, bodyStart, err := frontMatterAt(src, lead+len(open))
	if err != nil && lead > 0 {
		return nil, 0, nil
	}
	return fm, bodyStart, err
}

// frontMatterAt reads a front matter block whose YAML starts at offset
// start, just after the opening "---" line.
func frontMatterAt(src []byte, start int) (*FrontMatter, int, error) {
	open := src[:start]
	for off := start; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		line := src[off : off+end]
		if string(line) == "---" || string(line) == "..." {
			raw := src[len(open):off]
			bodyStart := min(off+end+1, len(src))
			var node yaml.Node
			if err := yaml.Unmarshal(raw, &node); err != nil {
				return nil, 0, fmt.Errorf("%w: %v", ErrBadFrontMatter, err)
			}
			fm := &FrontMatter{Span: Span{0, bodyStart}, Raw: string(raw), Data: map[string]any{}}
			if node.Kind == 0 { // empty block
				return fm, bodyStart, nil
			}
			if len(node.Content) != 1 || node.Content[0].Kind != yaml.MappingNode {
				return nil, 0, nil
			}
			var data map[string]any
			if err := node.Decode(&data); err != nil {
				return nil, 0, fmt.Errorf("%w: %v", ErrBadFrontMatter, err)
			}
			fm.Data = stringKeys(data).(map[string]any)
			return fm, bodyStart, nil
		}
		off += end + 1
	}
	return nil, 0, nil
}

// stringKeys turns nested maps with non-string keys into map[string]any so
// that front matter always encodes to JSON.
func stringKeys(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = stringKeys(e)
		}
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[fmt.Sprint(k)] = stringKeys(e)
		}
		return m
	case []any:
		for i, e := range t {
			t[i] = stringKeys(e)
		}
		return t
	}
	return v
}

func documentTitle(d *Document) string {
	for _, s := range d.Sections {
		if s.Level == 1 {
			return s.Title
		}
	}
	if d.FrontMatter != nil {
		if t, ok := d.FrontMatter.Data["title"].(string); ok {
			return strings.TrimSpace(t)
		}
	}
	return ""
}

// builder turns goldmark's tree into sections and blocks. Offsets in the
// tree are relative to body, which starts at base in the whole source.
type builder struct {
	doc  *Document
	src  []byte // the whole normalised source
	body []byte
	base int
	buf  []byte
}

func (b *builder) walkTop(root ast.Node) {
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			b.addSection(h)
			continue
		}
		b.walkBlock(n)
	}
}

func (b *builder) walkBlock(n ast.Node) {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
		b.addTextBlock(Paragraph, n, n)
	case *ast.ListItem:
		// The item's own text is its leading paragraphs; what follows (a
		// nested list, code, a later paragraph) becomes blocks of its own,
		// so blocks never overlap.
		c := n.FirstChild()
		last := ast.Node(nil)
		for ; c != nil && isText(c); c = c.NextSibling() {
			last = c
		}
		if last != nil {
			b.addTextBlock(ListItem, n, last)
		}
		for ; c != nil; c = c.NextSibling() {
			b.walkBlock(c)
		}
	case *east.Table:
		for row := n.FirstChild(); row != nil; row = row.NextSibling() {
			b.addTableRow(row)
		}
	case *ast.FencedCodeBlock:
		b.addCode(n, true)
	case *ast.CodeBlock:
		b.addCode(n, false)
	case *ast.HTMLBlock, *ast.ThematicBreak, *ast.LinkReferenceDefinition:
		// not text anyone quotes as evidence
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			b.walkBlock(c)
		}
	}
}

func isText(n ast.Node) bool {
	switch n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return true
	}
	return false
}

// addTextBlock adds a block starting at from's line and ending with the last
// line of to's content, with the inline text of every text node in between.
func (b *builder) addTextBlock(kind BlockKind, from, to ast.Node) {
	start := b.nodeStart(from)
	if start < 0 {
		return
	}
	end := b.contentEnd(to, start)
	b.buf = b.buf[:0]
	if kind == ListItem {
		for c := from.FirstChild(); c != nil; c = c.NextSibling() {
			if len(b.buf) > 0 {
				b.buf = append(b.buf, ' ')
			}
			b.buf = b.appendInline(b.buf, c)
			if c == to {
				break
			}
		}
	} else {
		b.buf = b.appendInline(b.buf, from)
	}
	txt := strings.TrimSpace(string(b.buf))
	if txt == "" {
		return
	}
	b.addBlock(Block{Kind: kind, Text: txt}, start, end)
}

func (b *builder) addTableRow(row ast.Node) {
	pos := row.Pos()
	if c := row.FirstChild(); c != nil && c.Pos() >= 0 {
		pos = c.Pos() // a header row's own position may be the table's
	}
	if pos < 0 {
		return
	}
	start := b.lineStart(b.base + pos)
	end := b.lineEnd(b.doc.LineAt(start))
	var cells []string
	for c := row.FirstChild(); c != nil; c = c.NextSibling() {
		cells = append(cells, strings.TrimSpace(string(b.appendInline(nil, c))))
	}
	txt := strings.Join(cells, " | ")
	if strings.Trim(txt, " |") == "" {
		return // a row of empty cells has nothing to quote
	}
	_, header := row.(*east.TableHeader)
	b.addBlock(Block{Kind: TableRow, Text: txt, Cells: cells, Header: header}, start, end)
}

func (b *builder) addCode(n ast.Node, fenced bool) {
	start := b.nodeStart(n)
	if start < 0 {
		return
	}
	var code strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		code.Write(seg.Value(b.body))
	}
	txt := strings.TrimRight(code.String(), "\n")
	if strings.TrimSpace(txt) == "" {
		return
	}
	last := b.doc.LineAt(b.contentEnd(n, start) - 1)
	if fenced && last < len(b.doc.lineStarts) && isFence(b.line(last+1)) {
		last++ // the closing fence
	}
	b.addBlock(Block{Kind: Code, Text: txt}, start, b.lineEnd(last))
}

func isFence(line []byte) bool {
	line = bytes.TrimLeft(line, " \t>")
	return bytes.HasPrefix(line, []byte("```")) || bytes.HasPrefix(line, []byte("~~~"))
}

func (b *builder) addBlock(blk Block, start, end int) {
	end = max(end, start)
	// A closing fence guessed for the previous code block may really open
	// this one ("```" ends an item's code and starts a new fence); the
	// later block keeps the line.
	if n := len(b.doc.Blocks); n > 0 {
		prev := &b.doc.Blocks[n-1]
		if prev.Span.End > start {
			prev.Span.End = max(prev.Span.Start, start-1)
			prev.EndLine = b.doc.LineAt(max(prev.Span.End-1, prev.Span.Start))
		}
	}
	blk.Span = Span{start, end}
	blk.Line = b.doc.LineAt(start)
	blk.EndLine = b.doc.LineAt(max(end-1, start))
	b.doc.Blocks = append(b.doc.Blocks, blk)
}

// appendInline appends the plain text of n's inline descendants.
func (b *builder) appendInline(buf []byte, n ast.Node) []byte {
	return mdast.AppendPlain(buf, b.body, n)
}

func (b *builder) addSection(h *ast.Heading) {
	pos := h.Pos()
	if pos < 0 {
		return
	}
	start := b.lineStart(b.base + pos)
	line := b.doc.LineAt(start)
	headEnd := line
	if !isATX(b.line(line)) {
		// setext: the underline follows the last content line
		headEnd = b.doc.LineAt(b.contentEnd(h, start)-1) + 1
		headEnd = min(headEnd, len(b.doc.lineStarts))
	}
	title := strings.TrimSpace(string(b.appendInline(b.buf[:0], h)))
	b.doc.Sections = append(b.doc.Sections, Section{
		Level:   h.Level,
		Title:   title,
		Line:    line,
		Heading: Span{start, b.lineEnd(headEnd)},
		Span:    Span{start, len(b.src)},
		Parent:  -1,
	})
}

// isATX reports whether line is an ATX heading ("## Title").
func isATX(line []byte) bool {
	line = bytes.TrimLeft(line, " ")
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(line) || line[n] == ' ' || line[n] == '\t')
}

// finishSections closes each section's span at the next heading of the same
// or a higher level, links parents and children, finds the title, numbers
// the outline and assigns blocks to their innermost sections.
func (b *builder) finishSections() {
	secs := b.doc.Sections
	var stack []int
	for i := range secs {
		for len(stack) > 0 && secs[stack[len(stack)-1]].Level >= secs[i].Level {
			secs[stack[len(stack)-1]].Span.End = secs[i].Span.Start
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			p := stack[len(stack)-1]
			secs[i].Parent = p
			secs[p].Children = append(secs[p].Children, i)
		}
		stack = append(stack, i)
	}

	title := -1
	for i, s := range secs {
		if s.Level == 1 {
			if title >= 0 {
				title = -1
				break
			}
			title = i
		}
	}
	top := 0
	for i := range secs {
		s := &secs[i]
		switch {
		case i == title:
			s.Depth = 0
		case s.Parent < 0 || s.Parent == title:
			top++
			s.Depth, s.Number = 1, strconv.Itoa(top)
		default:
			p := secs[s.Parent]
			ord := sort.SearchInts(p.Children, i) + 1
			s.Depth, s.Number = p.Depth+1, p.Number+"."+strconv.Itoa(ord)
		}
	}
	for i := range b.doc.Blocks {
		b.doc.Blocks[i].Section = b.doc.SectionAt(b.doc.Blocks[i].Span.Start)
	}
}

// nodeStart returns the absolute offset of the start of n's first line, or
// -1 if goldmark gave n no position.
func (b *builder) nodeStart(n ast.Node) int {
	pos := n.Pos()
	if pos < 0 {
		if n.Lines().Len() == 0 {
			return -1
		}
		pos = n.Lines().At(0).Start
	}
	return b.lineStart(b.base + pos)
}

// contentEnd returns the offset of the end of the line holding the last
// byte of n's content lines, or start when n has none.
func (b *builder) contentEnd(n ast.Node, start int) int {
	l := n.Lines()
	if l.Len() == 0 {
		return start
	}
	end := max(start, b.base+l.At(l.Len()-1).Stop)
	if end > start {
		end = b.lineEnd(b.doc.LineAt(end - 1))
	}
	return end
}

func (b *builder) lineStart(off int) int {
	return b.doc.lineStarts[b.doc.LineAt(off)-1]
}

// lineEnd returns the offset of the newline ending the 1-based line (or the
// end of the source when the line has none).
func (b *builder) lineEnd(line int) int {
	if line < len(b.doc.lineStarts) {
		return b.doc.lineStarts[line] - 1
	}
	return len(bytes.TrimSuffix(b.src, []byte{'\n'}))
}

// line returns the text of the 1-based line, without its newline.
func (b *builder) line(line int) []byte {
	if line < 1 || line > len(b.doc.lineStarts) {
		return nil
	}
	return b.src[b.doc.lineStarts[line-1]:b.lineEnd(line)]
}
