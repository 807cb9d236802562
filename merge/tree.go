package merge

import (
	"strings"
	"unicode/utf8"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
)

// node is one section of the document being merged. Rendering a node is
// its heading line(s), a newline, its own text (up to its first
// subsection) and then its subsections, so a tree built from a document
// renders back to exactly that document: untouched sections stay
// byte-identical because they are never re-rendered from a model of them.
type node struct {
	level   int
	title   string // plain heading text, as the parser gives it
	heading string // the heading's source line(s), without the final newline
	own     string // the text after the heading, up to the first subsection
	// lead is a newline rendered before the heading when the text before
	// it would otherwise swallow the heading (an open HTML block).
	lead   string
	kids   []*node
	parent *node
	attr   Attribution
	origin int // index of the base section this is, -1 for none
	// replacedBy is the change that replaced this section's content.
	replacedBy int
	// anchor is the section an appended section was placed after; later
	// appends after the same anchor go after it, so that sections keep
	// their source order.
	anchor *node
}

// tree is the document being merged.
type tree struct {
	front string // front matter, kept first
	pre   string // text before the first heading
	roots []*node
	// byOrigin maps a base section index to its node; nil once a change
	// removed it, with removedBy naming the change.
	byOrigin  []*node
	removedBy []int
}

// baseTree builds the tree of the base. Every section starts as "Base
// (original)"; comments imitating provenance are neutralised.
func baseTree(d *diff.Document) *tree {
	t := &tree{byOrigin: make([]*node, len(d.Sections)), removedBy: make([]int, len(d.Sections))}
	fmEnd := 0
	if d.FrontMatter != nil {
		fmEnd = d.FrontMatter.Span.End
	}
	first := len(d.Source)
	if len(d.Sections) > 0 {
		first = d.Sections[0].Span.Start
	}
	t.front = frontFirst(d.Source[:fmEnd])
	t.pre = neutralise(d.Source[fmEnd:max(first, fmEnd)])
	nodes := buildNodes(d, func(int) Attribution { return Attribution{Origin: BaseOriginal} })
	for i, n := range nodes {
		n.origin = i
		t.byOrigin[i] = n
	}
	t.roots = rootsOf(d, nodes)
	return t
}

// buildNodes makes a node for every section of d, linked as d's sections
// are.
func buildNodes(d *diff.Document, attr func(int) Attribution) []*node {
	nodes := make([]*node, len(d.Sections))
	for i, s := range d.Sections {
		nodes[i] = &node{
			level:   s.Level,
			title:   s.Title,
			heading: neutralise(d.Text(s.Heading)),
			own:     neutralise(d.Text(ownSpan(d, i))),
			attr:    attr(i),
			origin:  -1,
		}
	}
	for i, s := range d.Sections {
		for _, c := range s.Children {
			nodes[c].parent = nodes[i]
			nodes[i].kids = append(nodes[i].kids, nodes[c])
		}
	}
	return nodes
}

func rootsOf(d *diff.Document, nodes []*node) []*node {
	var roots []*node
	for i, s := range d.Sections {
		if s.Parent < 0 {
			roots = append(roots, nodes[i])
		}
	}
	return roots
}

// render writes the document: with tags, the provenance header (after
// any front matter) and one Source tag line after every heading.
func (t *tree) render(tags bool, h string) string {
	var b strings.Builder
	b.Grow(len(t.pre) + 4096)
	b.WriteString(t.front)
	pre := t.pre
	if tags {
		b.WriteString(h)
		if strings.HasSuffix(h, "\n\n") {
			pre = strings.TrimLeft(pre, "\n") // the header already ends with a blank line
		}
	}
	b.WriteString(pre)
	for _, n := range t.roots {
		n.render(&b, tags)
	}
	return b.String()
}

func (n *node) render(b *strings.Builder, tags bool) {
	b.WriteString(n.lead)
	b.WriteString(n.heading)
	b.WriteByte('\n')
	if tags {
		b.WriteString(n.attr.Tag())
		b.WriteByte('\n')
	}
	b.WriteString(n.own)
	for _, k := range n.kids {
		k.render(b, tags)
	}
}

// renderPlain writes the document without tags or header and returns,
// for every section, the offset of its own text in the result.
func (t *tree) renderPlain() (string, map[*node]int) {
	var b strings.Builder
	own := map[*node]int{}
	b.WriteString(t.front)
	b.WriteString(t.pre)
	t.walk(func(n *node) {
		b.WriteString(n.lead)
		b.WriteString(n.heading)
		b.WriteByte('\n')
		own[n] = b.Len()
		b.WriteString(n.own)
	})
	return b.String(), own
}

// text renders n's subtree without tags.
func (n *node) text() string {
	var b strings.Builder
	n.render(&b, false)
	return b.String()
}

// walk calls fn for n and every section under it, in document order.
func (n *node) walk(fn func(*node)) {
	fn(n)
	for _, k := range n.kids {
		k.walk(fn)
	}
}

func (t *tree) walk(fn func(*node)) {
	for _, n := range t.roots {
		n.walk(fn)
	}
}

// siblings returns the slice n sits in.
func (t *tree) siblings(n *node) []*node {
	if n.parent == nil {
		return t.roots
	}
	return n.parent.kids
}

func (t *tree) setSiblings(parent *node, s []*node) {
	if parent == nil {
		t.roots = s
	} else {
		parent.kids = s
	}
}

// last returns the last section of n's subtree.
func (n *node) last() *node {
	for len(n.kids) > 0 {
		n = n.kids[len(n.kids)-1]
	}
	return n
}

// number returns the explicit number of n's heading, or "".
func (n *node) number() string {
	num, _, _, _ := refs.HeadingNumber(n.title)
	return num
}

// numberSep returns what follows the explicit number in n's title ("." +
// space, ": ", a space), so new siblings can be numbered in its style.
func numberSep(title string) string {
	n, start, rest, ok := refs.HeadingNumber(title)
	if !ok {
		return ""
	}
	return title[start+len(n) : rest]
}

// headingFollows reports whether an ATX heading written right after text
// is a heading: false when text ends inside an open code fence or HTML
// block.
func headingFollows(text string) bool {
	if plainBlocks(text) {
		return true
	}
	return headingFollowsParsed(text)
}

// plainBlocks reports whether text ends its last line and holds nothing
// that can stay open across a line starting "# ": no code fence (` or ~),
// no HTML block (<), and nothing Normalize would reject or re-line (NUL,
// CR, invalid UTF-8). Every other block — paragraph, table, list, block
// quote, indented code — ends at an ATX heading in column 0, so
// headingFollowsParsed would say yes; it parses text, which most texts a
// merge checks need not pay (FuzzHeadingFollows holds the two together).
func plainBlocks(text string) bool {
	if text != "" && text[len(text)-1] != '\n' {
		return false
	}
	return !strings.ContainsAny(text, "`~<\x00\r") && utf8.ValidString(text)
}

// headingFollowsParsed is headingFollows by parsing text with a heading
// after it.
func headingFollowsParsed(text string) bool {
	const sentinel = "crucible-merge-probe"
	// a paragraph first, so that text opening with "---" is never front matter
	probe := "probe\n\n" + text + "# " + sentinel + "\n"
	d, err := diff.Parse("probe", []byte(probe))
	if err != nil || len(d.Sections) == 0 {
		return false
	}
	s := d.Sections[len(d.Sections)-1]
	return s.Title == sentinel && s.Line == strings.Count(text, "\n")+3
}

// leadAfter is leadFor for a section's own text, which always follows
// its heading's line: own text that is only a blank line already ends
// with one.
func leadAfter(own string) (string, bool) {
	if own == "" {
		return leadFor(own)
	}
	return leadFor("\n" + own)
}

// leadFor returns what must come between text and a new heading after
// it: nothing when text ends with a blank line, else a newline, so that
// the new section stands apart and any open HTML block ends. ok is false
// when no blank line helps (an unclosed code fence).
func leadFor(text string) (lead string, ok bool) {
	switch {
	case text == "" || strings.HasSuffix(text, "\n\n"):
	case strings.HasSuffix(text, "\n"):
		lead = "\n"
	default:
		lead = "\n\n"
	}
	return lead, headingFollows(text + lead)
}

// atxText returns the inline text of a heading's source: the ATX line
// without its markers and closing sequence, or a setext heading's lines
// joined.
func atxText(raw string) string {
	lines := strings.Split(raw, "\n")
	first := strings.TrimLeft(lines[0], " ")
	hashes := len(first) - len(strings.TrimLeft(first, "#"))
	if len(lines) == 1 && hashes >= 1 && hashes <= 6 && (len(first) == hashes || first[hashes] == ' ' || first[hashes] == '\t') {
		s := strings.TrimSpace(first[hashes:])
		if closed := strings.TrimRight(s, "#"); closed == "" {
			s = ""
		} else if strings.HasSuffix(closed, " ") || strings.HasSuffix(closed, "\t") {
			s = strings.TrimSpace(closed)
		}
		return s
	}
	if len(lines) > 1 {
		lines = lines[:len(lines)-1] // the setext underline
	}
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, " ")
}

// atxHeading writes a heading at level with text.
func atxHeading(level int, text string) string {
	if text == "" {
		return strings.Repeat("#", level)
	}
	return strings.Repeat("#", level) + " " + text
}

// renumber rewrites the explicit number of a heading text: numbers under
// the source root's number "from" move under "to"; with no "to" (or a
// number not under "from") the number is dropped, since the variant's
// numbering means nothing in the base.
func renumber(text, from, to, sep string, root bool) string {
	n, start, rest, ok := refs.HeadingNumber(text)
	if !ok {
		if root && to != "" {
			if sep == "" {
				sep = " "
			}
			return to + sep + text
		}
		return text
	}
	if to != "" && from != "" && (n == from || strings.HasPrefix(n, from+".")) {
		return text[:start] + to + n[len(from):] + text[start+len(n):]
	}
	if rest >= len(text) {
		return text // nothing but a number: keep it rather than leave an empty heading
	}
	return text[rest:]
}
