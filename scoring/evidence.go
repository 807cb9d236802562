package scoring

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/crucible-go/crucible/diff"
)

// evidenceIndex answers whether a quoted piece of evidence occurs in a
// variant. Judges quote loosely — without the Markdown markup, with other
// line breaks, curly quotes for straight ones, an ellipsis for an omitted
// middle — so both sides are compared in a canonical form: markup
// characters dropped, whitespace collapsed, quotes straightened, case
// folded. The words themselves must be there, in order.
type evidenceIndex struct {
	source string // the canonical source text
	// plain is the canonical plain text of headings and blocks, built
	// the first time a quote is not in the source: the rule judge quotes
	// lines of the source, so most documents never need it.
	plainOnce sync.Once
	plain     string
	doc       *diff.Document

	// found's answers by quote: the rule judge cites the same lines in
	// both passes and in every run on the document, and Prepare checks
	// them ahead, so Score finds its answers here.
	mu   sync.Mutex
	seen map[string]bool
}

// evidenceIndexKey memoises a document's evidence index.
type evidenceIndexKey struct{}

// newEvidenceIndex returns the document's evidence index, built once per
// document (Prepare builds it ahead); the index is never changed.
func newEvidenceIndex(d *diff.Document) *evidenceIndex {
	return d.Memo(evidenceIndexKey{}, func() any { return buildEvidenceIndex(d) }).(*evidenceIndex)
}

func buildEvidenceIndex(d *diff.Document) *evidenceIndex {
	return &evidenceIndex{source: canonical(d.Source), doc: d}
}

// plainText returns the canonical plain text of the document's headings
// and blocks, building it once.
func (x *evidenceIndex) plainText() string {
	x.plainOnce.Do(func() {
		// The plain text is canonicalised as it is walked, piece by
		// piece, into a builder the size of the source (the plain text is
		// no longer).
		d := x.doc
		var w canonWriter
		w.b.Grow(len(d.Source))
		walkText(d, func(si, bi int) {
			if si >= 0 {
				w.write(d.Sections[si].Title)
			} else {
				w.write(d.Blocks[bi].Text)
			}
			w.write("\n")
		})
		x.plain = w.b.String()
	})
	return x.plain
}

// minQuote is the fewest letters and digits a quote must hold: "a" or "to"
// occurs in any text and proves nothing; "API" or "SLO" may be evidence.
const minQuote = 3

// found reports whether quote occurs in the variant. An ellipsis ("…" or
// "...") splits the quote into fragments that must occur in order.
func (x *evidenceIndex) found(quote string) bool {
	x.mu.Lock()
	ok, known := x.seen[quote]
	x.mu.Unlock()
	if known {
		return ok
	}
	frags, alnum := fragments(quote)
	ok = alnum >= minQuote && (inOrder(x.source, frags) || inOrder(x.plainText(), frags))
	x.mu.Lock()
	if x.seen == nil {
		x.seen = map[string]bool{}
	}
	x.seen[quote] = ok
	x.mu.Unlock()
	return ok
}

// citable reports whether a quote holds enough to be evidence at all.
func citable(quote string) bool {
	_, alnum := fragments(quote)
	return alnum >= minQuote
}

// fragments splits a quote at its ellipses into canonical fragments and
// counts their letters and digits.
func fragments(quote string) (frags []string, alnum int) {
	quote = strings.ReplaceAll(quote, "...", "…")
	for _, f := range strings.Split(quote, "…") {
		if f = canonical(f); f != "" {
			frags = append(frags, f)
			for _, r := range f {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					alnum++
				}
			}
		}
	}
	return frags, alnum
}

func inOrder(hay string, frags []string) bool {
	for _, f := range frags {
		i := strings.Index(hay, f)
		if i < 0 {
			return false
		}
		hay = hay[i+len(f):]
	}
	return true
}

// canonical lower-cases s, drops Markdown markup characters and the list
// and heading markers a quote may or may not carry, straightens quotes and
// dashes, and collapses whitespace to single spaces.
func canonical(s string) string {
	var w canonWriter
	w.b.Grow(len(s))
	w.write(s)
	return w.b.String()
}

// canonWriter writes the canonical form of a text given in pieces: the
// canonical form of their concatenation, without the concatenation.
type canonWriter struct {
	b     strings.Builder
	space bool // a space is due before the next character written
}

// write adds s to the text.
func (w *canonWriter) write(s string) {
	b := &w.b
	space := w.space
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf { // ASCII, most of any text: the same steps byte by byte
			i++
			switch c {
			case '*', '_', '`', '#', '>', '|', '[', ']':
				continue
			case ' ', '\t', '\n', '\v', '\f', '\r':
				space = b.Len() > 0
				continue
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch r {
		case '*', '_', '`', '#', '>', '|', '[', ']':
			continue
		case '‘', '’', '′':
			r = '\''
		case '“', '”', '″':
			r = '"'
		case '–', '—', '‑':
			r = '-'
		}
		if unicode.IsSpace(r) || r == '\u00a0' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	w.space = space
}
