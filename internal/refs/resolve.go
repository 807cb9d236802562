package refs

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/words"
)

// SameTitle is the word overlap at which two titles name the same section.
const SameTitle = 0.8

var (
	headMileRE  = regexp.MustCompile(`\bM(\d+)\b|(?i:\bmilestone)[ \t]+M?(\d+)\b`)
	headDelivRE = regexp.MustCompile(`\bD(` + num + `)\b|(?i:\bdeliverable)[ \t]+D?(` + num + `)\b`)
	cellMileRE  = regexp.MustCompile(`^(?:(?i:milestone)[ \t]+M?(\d+)|M(\d+))\b`)
	cellDelivRE = regexp.MustCompile(`^(?:(?i:deliverable)[ \t]+D?(` + num + `)|D(` + num + `))\b`)
)

// HeadingNumber finds an explicit outline number opening a heading title:
// "3.2 Caching", "3. Caching", "Section 3.2: Caching", "§4 Risks". It
// returns the number, the byte offset where the number starts and the
// offset of the title text after the numbering, so title[rest:] is
// "Caching". The first component has at most three digits, so "2026
// Roadmap" has no number.
func HeadingNumber(title string) (number string, start, rest int, ok bool) {
	i := 0
	switch {
	case len(title) >= 8 && strings.EqualFold(title[:7], "section") && (title[7] == ' ' || title[7] == '\t'):
		i = skipBlanks(title, 7)
	case strings.HasPrefix(title, "§"):
		i = skipBlanks(title, len("§"))
	}
	start = i
	d := digits(title, i)
	if d == 0 || d > 3 {
		return "", 0, 0, false
	}
	i += d
	for i+1 < len(title) && title[i] == '.' && digits(title, i+1) > 0 {
		i += 1 + digits(title, i+1)
	}
	number = title[start:i]
	if i < len(title) && title[i] == '.' {
		i++
	}
	// then the end, a separator (":", ")", "-", "–", "—") or blanks
	j := skipBlanks(title, i)
	for _, sep := range []string{":", ")", "-", "–", "—"} {
		if strings.HasPrefix(title[j:], sep) {
			return number, start, skipBlanks(title, j+len(sep)), true
		}
	}
	if j == len(title) || j > i {
		return number, start, j, true
	}
	return "", 0, 0, false
}

func digits(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' {
		n++
	}
	return n
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// StripNumber returns title without its explicit number, if it has one.
func StripNumber(title string) string {
	if _, _, rest, ok := HeadingNumber(title); ok && rest < len(title) {
		return title[rest:]
	}
	return title
}

type titleEntry struct {
	norm    string
	set     words.Set
	section int
}

// Index holds what a document defines for references to point at. It is
// read-only after [NewIndex] and safe for concurrent use.
type Index struct {
	numbers      map[string]int
	titles       []titleEntry
	anchors      map[string]int
	milestones   map[string]int
	deliverables map[string]int
}

// nests reports whether number n of section i's heading continues its
// outline: it extends the number of the nearest numbered section above
// it ("3.2" under "3."), or no section above it has one. A heading that
// breaks the outline — "4.4 MAJOR_REWRITE Assessment" under "3. Spec
// Update Language Evaluation" — names what it discusses (section 4.4 of
// the document under review), and a "§4.4" in the text cites that, not
// this heading.
func nests(d *diff.Document, titles []string, i int, n string) bool {
	for p := d.Sections[i].Parent; p >= 0; p = d.Sections[p].Parent {
		if pn, _, _, ok := HeadingNumber(titles[p]); ok {
			return strings.HasPrefix(n, pn+".")
		}
	}
	return true
}

// seriesHeadingRE matches a heading that opens with an item of a numbered
// series: "Phase 5: Certification", "Step 3 — Parse", "OV-2: …".
var seriesHeadingRE = regexp.MustCompile(`^[A-Za-z][A-Za-z]*[ -]?\d+(?:\.\d+)*\b`)

type indexKey struct{}

// NewIndex collects the section numbers, titles, anchors and milestone and
// deliverable ids d defines (see the package documentation). The index is
// built once per document and shared.
func NewIndex(d *diff.Document) *Index {
	if d == nil {
		return &Index{numbers: map[string]int{}, anchors: map[string]int{}, milestones: map[string]int{}, deliverables: map[string]int{}}
	}
	return d.Memo(indexKey{}, func() any { return newIndex(d, read(d)) }).(*Index)
}

func newIndex(d *diff.Document, rd *reading) *Index {
	x := &Index{numbers: map[string]int{}, anchors: map[string]int{}, milestones: map[string]int{}, deliverables: map[string]int{}}
	setOnce := func(m map[string]int, k string, v int) {
		if _, dup := m[k]; !dup {
			m[k] = v
		}
	}
	// Every heading is an anchor, as on GitHub: its "{#id}" attribute and
	// its slug, repeats numbered in document order. A section's title is
	// its heading's text without the attribute.
	titles := make([]string, len(d.Sections))
	for i, s := range d.Sections {
		titles[i] = s.Title
	}
	var slugs Slugger
	for _, h := range rd.headings {
		sec := d.SectionAt(h.Off)
		if h.Top && sec >= 0 && d.Sections[sec].Line == d.LineAt(h.Off) {
			titles[sec] = h.Text
		}
		if h.ID != "" {
			setOnce(x.anchors, strings.ToLower(h.ID), sec)
		}
		setOnce(x.anchors, slugs.Next(h.Text), sec)
	}
	for i, title := range titles {
		if n, _, _, ok := HeadingNumber(title); ok && nests(d, titles, i, n) {
			setOnce(x.numbers, n, i)
		}
		bare := StripNumber(title)
		x.titles = append(x.titles, titleEntry{norm: normTitle(bare), set: words.NewSet(bare), section: i})
		if bare != title {
			x.titles = append(x.titles, titleEntry{norm: normTitle(title), section: i})
		}
		if mayName(title, 'M', "milestone") {
			for _, m := range headMileRE.FindAllStringSubmatch(title, -1) {
				setOnce(x.milestones, "M"+m[1]+m[2], i)
			}
		}
		if mayName(title, 'D', "deliverable") {
			for _, m := range headDelivRE.FindAllStringSubmatch(title, -1) {
				setOnce(x.deliverables, "D"+m[1]+m[2], i)
			}
		}
	}
	// A heading without its own number answers to the number a reader
	// would count for it, unless another heading claims that number
	// explicitly: one more than its previous sibling's, else its parent's
	// with ".1", else "1".
	eff := make([]string, len(d.Sections))
	lastChild := map[int]int{} // parent (or -1) → its latest child with a number
	for i, s := range d.Sections {
		if s.Depth == 0 {
			continue
		}
		if n, _, _, ok := HeadingNumber(titles[i]); ok {
			eff[i] = n
		} else {
			if prev, ok := lastChild[s.Parent]; ok {
				eff[i] = increment(eff[prev])
			} else if s.Parent >= 0 && eff[s.Parent] != "" {
				eff[i] = eff[s.Parent] + ".1"
			} else {
				eff[i] = "1"
			}
			// A heading numbered in its own series ("Phase 5: …", "Step
			// 3 — …") is called by that name; a "§2.5" in its document
			// cites some other document's outline.
			if !seriesHeadingRE.MatchString(titles[i]) {
				setOnce(x.numbers, eff[i], i)
			}
		}
		lastChild[s.Parent] = i
	}
	for _, b := range d.Blocks {
		if b.Kind != diff.TableRow || b.Header || len(b.Cells) == 0 {
			continue
		}
		cell := strings.TrimSpace(b.Cells[0])
		if mayName(cell, 'M', "milestone") {
			if m := cellMileRE.FindStringSubmatch(cell); m != nil {
				setOnce(x.milestones, "M"+m[1]+m[2], b.Section)
			}
		}
		if mayName(cell, 'D', "deliverable") {
			if m := cellDelivRE.FindStringSubmatch(cell); m != nil {
				setOnce(x.deliverables, "D"+m[1]+m[2], b.Section)
			}
		}
	}
	// HTML anchors: id and name attributes of the HTML goldmark found
	// (blocks and inline tags; never code)
	for _, h := range rd.htmlIDs {
		setOnce(x.anchors, strings.ToLower(h.ID), d.SectionAt(h.Off))
	}
	return x
}

// mayName is a cheap test that s could name an id with letter ("M2",
// "D1.2") or the word spelled out, before a regular expression looks.
func mayName(s string, letter byte, word string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == letter && s[i+1] >= '0' && s[i+1] <= '9' {
			return true
		}
	}
	return containsFold(s, word)
}

// Resolve reports whether the document defines r's target, and where: the
// index in Document.Sections of the section that defines it, or -1 for a
// target defined before the first heading.
func (x *Index) Resolve(r Ref) (section int, ok bool) {
	switch r.Kind {
	case Section:
		section, ok = x.numbers[r.Target]
	case Milestone:
		section, ok = x.milestones[r.Target]
	case Deliverable:
		section, ok = x.deliverables[r.Target]
	case Anchor:
		section, ok = x.anchors[strings.ToLower(r.Target)]
	case Title:
		return x.FindTitle(r.Target)
	}
	if !ok {
		return -1, false
	}
	return section, true
}

// FindTitle returns the section whose title is title: equal up to case,
// spacing and explicit numbering, or else the first with the highest word
// overlap of at least [SameTitle].
func (x *Index) FindTitle(title string) (section int, ok bool) {
	norm := normTitle(StripNumber(title))
	full := normTitle(title)
	for _, t := range x.titles {
		if t.norm == norm || t.norm == full {
			return t.section, true
		}
	}
	set := words.NewSet(StripNumber(title))
	best, bestScore := -1, 0.0
	for _, t := range x.titles {
		if t.set == nil {
			continue
		}
		if s := set.Dice(t.set); s >= SameTitle && s > bestScore {
			best, bestScore = t.section, s
		}
	}
	return best, best >= 0
}

// Resolution is a reference and what it resolved to.
type Resolution struct {
	Ref
	Resolved bool `json:"resolved"`
	// Section is the index of the defining section, -1 when unresolved or
	// defined before the first heading.
	Section int `json:"section"`
}

// Report counts the internal references of a document.
type Report struct {
	Total    int          `json:"total"`
	Resolved int          `json:"resolved"`
	Refs     []Resolution `json:"refs"`
}

// Check finds every internal reference of d and resolves it against d.
func Check(d *diff.Document) Report {
	x := NewIndex(d)
	found := Find(d)
	r := Report{Total: len(found), Refs: make([]Resolution, len(found))}
	for i, ref := range found {
		sec, ok := x.Resolve(ref)
		r.Refs[i] = Resolution{Ref: ref, Resolved: ok, Section: sec}
		if ok {
			r.Resolved++
		}
	}
	return r
}

// Broken returns the references that did not resolve, in document order.
func (r Report) Broken() []Ref {
	var out []Ref
	for _, res := range r.Refs {
		if !res.Resolved {
			out = append(out, res.Ref)
		}
	}
	return out
}

// Ratio returns Resolved/Total, or 1 for a document without internal
// references (nothing in it is left dangling).
func (r Report) Ratio() float64 {
	if r.Total == 0 {
		return 1
	}
	return float64(r.Resolved) / float64(r.Total)
}

// normTitle folds case, spacing and word joiners: "Warm-up" and "warm up"
// are the same title.
func normTitle(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '-' || r == '_' {
			return ' '
		}
		return r
	}, s)
	return strings.ToLower(words.OneLine(s))
}

// increment adds one to the last component of a section number: "2.3" →
// "2.4".
func increment(n string) string {
	i := strings.LastIndexByte(n, '.') + 1
	v, err := strconv.Atoi(n[i:])
	if err != nil {
		return n + ".1"
	}
	return n[:i] + strconv.Itoa(v+1)
}

// decodeAnchor undoes percent-encoding in a link's fragment.
func decodeAnchor(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}
