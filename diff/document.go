package diff

import (
	"sort"
	"strings"
	"sync"

	"github.com/crucible-go/crucible/internal/lexicon"
)

// Span is a half-open byte range [Start, End) of a [Document]'s Source.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Len returns the number of bytes in the span.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether o lies inside s.
func (s Span) Contains(o Span) bool { return s.Start <= o.Start && o.End <= s.End }

// FrontMatter is a YAML block at the very top of a document, between a
// "---" line and a "---" (or "...") line. It is not part of any section.
type FrontMatter struct {
	Span Span           `json:"span"` // the block, delimiters included
	Raw  string         `json:"raw"`  // the YAML between the delimiters
	Data map[string]any `json:"data"` // the decoded mapping; empty for an empty block
}

// Section is a heading and everything under it: its Span runs from the start
// of the heading's line to the start of the next heading of the same or a
// higher level (a smaller number), or to the end of the document. Spans of
// sections therefore nest exactly as the heading tree does.
//
// Only headings at the top level of the document make sections; a heading
// inside a list item or block quote is body text, and "#" lines inside code
// or HTML blocks are not headings at all.
type Section struct {
	Level int    `json:"level"` // 1–6
	Title string `json:"title"` // heading text, inline markup removed
	// Number is the outline number: "2" for the second top-level section,
	// "2.1" for its first child; empty for the document title.
	Number   string `json:"number"`
	Depth    int    `json:"depth"`   // 0 for the title, 1 for top-level sections, parent+1 below
	Line     int    `json:"line"`    // 1-based line of the heading
	Heading  Span   `json:"heading"` // the heading's lines (a setext underline included), without the final newline
	Span     Span   `json:"span"`
	Parent   int    `json:"parent"` // index in Document.Sections; -1 for none
	Children []int  `json:"children,omitempty"`
}

// Body returns the part of the section after its heading line(s).
func (s Section) Body() Span {
	start := min(s.Heading.End+1, s.Span.End)
	return Span{Start: start, End: s.Span.End}
}

// BlockKind says what kind of body text a [Block] is.
type BlockKind string

// Kinds of [Block].
const (
	// Paragraph is a paragraph, also inside a block quote, or a heading
	// nested in a list item or block quote.
	Paragraph BlockKind = "paragraph"
	// ListItem is the item's own text; nested items are blocks of their own.
	ListItem BlockKind = "list-item"
	// TableRow is one row of a table, its header row included.
	TableRow BlockKind = "table-row"
	// Code is a fenced or indented code block.
	Code BlockKind = "code"
)

// Block is a unit of body text with its position, so later steps can quote
// evidence exactly: doc.Source[b.Span.Start:b.Span.End] is the source of the
// block, always whole lines.
type Block struct {
	Kind BlockKind `json:"kind"`
	// Text is the plain text: inline markup removed, line breaks as spaces.
	// For code blocks it is the code, lines joined by newlines.
	Text string `json:"text"`
	// Cells holds a table row's cells as plain text.
	Cells   []string `json:"cells,omitempty"`
	Header  bool     `json:"header,omitempty"` // a table's header row
	Span    Span     `json:"span"`
	Line    int      `json:"line"`     // 1-based first line
	EndLine int      `json:"end_line"` // 1-based last line
	// Section is the index in Document.Sections of the innermost section
	// holding the block, or -1 for text before the first heading.
	Section int `json:"section"`
}

// Document is a parsed, normalised Markdown variant: the model every
// pipeline step works on. A Document is immutable after [Parse] and safe to
// share between goroutines.
type Document struct {
	Name string `json:"name"`
	// Source is the normalised text (see [Normalize]); every Span and line
	// number refers to it.
	Source      string       `json:"source"`
	FrontMatter *FrontMatter `json:"front_matter,omitempty"`
	// Title is the text of the first level-1 heading, else the front
	// matter's "title" string, else empty.
	Title string `json:"title"`
	// Sections lists every section in document order.
	Sections []Section `json:"sections"`
	// Blocks lists the body text in document order.
	Blocks []Block `json:"blocks"`
	Lines  int     `json:"lines"` // lines in Source
	Words  int     `json:"words"` // words in Source outside the front matter

	lineStarts []int    // byte offset of each line; nil after JSON decoding
	memo       *docMemo // work derived from the document once; nil after JSON decoding
}

// docMemo holds what is derived from an immutable document once and shared
// by every step that needs it: the diff analysis, the scoring metrics and
// the rubric judge all read the same claims.
type docMemo struct {
	claimsOnce sync.Once
	claims     []Claim
	values     sync.Map // Memo's entries
}

// memoEntry computes one Memo value once, however many goroutines ask.
type memoEntry struct {
	once  sync.Once
	value any
}

// Memo returns the value stored under key for this document, calling
// compute to produce it the first time. It lets the pipeline's steps share
// work derived from a document — a rubric test's verdict, a reference
// check — without recomputing it in every pass. compute must depend on the
// document and the key alone; keys should be values of a type unexported
// by the package using them, as with context keys, so packages never
// collide. A document decoded from JSON has no memo: compute runs every
// time. Memo is safe for concurrent use.
func (d *Document) Memo(key any, compute func() any) any {
	if d.memo == nil {
		return compute()
	}
	e, ok := d.memo.values.Load(key) // most calls find the value: no entry to allocate
	if !ok {
		e, _ = d.memo.values.LoadOrStore(key, &memoEntry{})
	}
	entry := e.(*memoEntry)
	entry.once.Do(func() { entry.value = compute() })
	return entry.value
}

// Text returns the source text of s.
func (d *Document) Text(s Span) string { return d.Source[s.Start:s.End] }

// LineAt returns the 1-based line holding byte offset off.
func (d *Document) LineAt(off int) int {
	if d.lineStarts == nil {
		return lineOfOffset([]byte(d.Source[:min(max(off, 0), len(d.Source))]), off)
	}
	return sort.Search(len(d.lineStarts), func(i int) bool { return d.lineStarts[i] > off })
}

// TopLevel returns the indexes of the top-level sections: the children of
// the document title when there is one (and any section before it), or
// else the sections no heading encloses. "# Title / ## A / ## B" and
// "## A / ## B" both have the top level A, B.
func (d *Document) TopLevel() []int {
	var out []int
	for i, s := range d.Sections {
		if s.Depth == 1 {
			out = append(out, i)
		}
	}
	return out
}

// TitleSection returns the index of the section that is the document title,
// or -1 when the document has none: the title is its only level-1 heading,
// when that heading encloses every section after it.
func (d *Document) TitleSection() int {
	for i, s := range d.Sections {
		if s.Depth == 0 {
			return i
		}
	}
	return -1
}

// MaxDepth returns the deepest nesting below the title: 0 for a document
// without sections, 1 when every section is top-level.
func (d *Document) MaxDepth() int {
	m := 0
	for _, s := range d.Sections {
		m = max(m, s.Depth)
	}
	return m
}

// HeadingCounts returns the number of section headings at each level:
// index 0 counts H1, index 5 counts H6.
func (d *Document) HeadingCounts() [6]int {
	var c [6]int
	for _, s := range d.Sections {
		c[s.Level-1]++
	}
	return c
}

// BlocksIn returns the blocks that lie inside span, in order, as a subslice
// of d.Blocks (do not modify it).
func (d *Document) BlocksIn(span Span) []Block {
	lo, hi := d.blockRange(span)
	return d.Blocks[lo:hi]
}

// blockRange returns the indexes [lo, hi) of the blocks inside span.
func (d *Document) blockRange(span Span) (lo, hi int) {
	lo = sort.Search(len(d.Blocks), func(i int) bool { return d.Blocks[i].Span.Start >= span.Start })
	hi = lo
	for hi < len(d.Blocks) && d.Blocks[hi].Span.End <= span.End {
		hi++
	}
	return lo, hi
}

// SectionAt returns the index of the innermost section holding byte offset
// off, or -1 when no section does.
func (d *Document) SectionAt(off int) int {
	// Sections are in order of their starts; the innermost one holding off
	// is the last one starting at or before off whose span reaches past it.
	i := sort.Search(len(d.Sections), func(i int) bool { return d.Sections[i].Span.Start > off }) - 1
	for i >= 0 {
		if off < d.Sections[i].Span.End {
			return i
		}
		i = d.Sections[i].Parent
	}
	return -1
}

// Indicators counts the concrete and vague indicators of a block's text:
// numbers with units, dates, thresholds and named technologies on one
// side, phrases such as "as appropriate" or "scalable" on the other. Code
// blocks have none.
type Indicators struct{ Concrete, Vague int }

type indicatorsKey struct{}

// BlockIndicators returns the indicators of every block, in the order of
// d.Blocks. Several steps weigh how concretely a variant is written; the
// document counts once and shares the result, so treat the slice as
// read-only.
func (d *Document) BlockIndicators() []Indicators {
	return d.Memo(indicatorsKey{}, func() any {
		lower := d.lowerBlocks()
		out := make([]Indicators, len(d.Blocks))
		for i, b := range d.Blocks {
			if b.Kind == Code {
				continue
			}
			concrete := 0
			if isASCII(b.Text) { // its lower-cased text is the ASCII lower-casing the count reads
				concrete = lexicon.ConcreteCountLower(b.Text, lower[i])
			} else {
				concrete = lexicon.ConcreteCount(b.Text)
			}
			out[i] = Indicators{Concrete: concrete, Vague: len(lexicon.VagueMatchesLower(lower[i]))}
		}
		return out
	}).([]Indicators)
}

type lowerBlocksKey struct{}

// lowerBlocks returns strings.ToLower of each block's text, in the order
// of d.Blocks: the indicators, the alignment's terms and the content
// comparison all read blocks lower-cased, and each lower-cased its own
// copy. A block without capitals is its own lower-case text.
func (d *Document) lowerBlocks() []string {
	return d.Memo(lowerBlocksKey{}, func() any {
		out := make([]string, len(d.Blocks))
		// The ASCII blocks with capitals are lower-cased into one string,
		// each holding its stretch of it: one allocation for the
		// document, not one per block. Other blocks are lower-cased on
		// their own (a few runes change length).
		size := 0
		for i := range d.Blocks {
			if t := d.Blocks[i].Text; hasUpperASCII(t) && isASCII(t) {
				size += len(t)
			}
		}
		var buf strings.Builder // String does not copy it
		buf.Grow(size)
		var lowered []int // the blocks in buf, in order
		for i := range d.Blocks {
			t := d.Blocks[i].Text
			switch {
			case !isASCII(t):
				out[i] = strings.ToLower(t)
			case !hasUpperASCII(t):
				out[i] = t // strings.ToLower returns it as it is
			default:
				for j := 0; j < len(t); j++ {
					c := t[j]
					if 'A' <= c && c <= 'Z' {
						c += 'a' - 'A'
					}
					buf.WriteByte(c)
				}
				lowered = append(lowered, i)
			}
		}
		all, at := buf.String(), 0
		for _, i := range lowered {
			n := len(d.Blocks[i].Text)
			out[i], at = all[at:at+n], at+n
		}
		return out
	}).([]string)
}

// hasUpperASCII reports whether s holds an ASCII capital.
func hasUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}
