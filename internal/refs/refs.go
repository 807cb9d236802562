package refs

import (
	"bytes"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/diff"
)

// Kind says what a [Ref] points at.
type Kind string

// The kinds of internal reference.
const (
	Section     Kind = "section"     // "Section 3.2", "§3.2"; Target "3.2"
	Milestone   Kind = "milestone"   // "Milestone M2"; Target "M2"
	Deliverable Kind = "deliverable" // "Deliverable D1.2"; Target "D1.2"
	Title       Kind = "title"       // `See [Error Handling]`; Target "Error Handling"
	Anchor      Kind = "anchor"      // "[x](#error-handling)"; Target "error-handling"
)

// Ref is one internal reference. doc.Source[Span.Start:Span.End] == Text.
type Ref struct {
	Kind Kind `json:"kind"`
	// Text is the reference as written: "Section 3.2", "3.4" (a later item
	// of "Sections 3.2 and 3.4"), "See [Error Handling]", "[x](#a)".
	Text string `json:"text"`
	// Target is what the reference names, normalised: a section number, an
	// id with its letter ("M2", "D1.2"), a title, or an anchor without '#'.
	Target string    `json:"target"`
	Span   diff.Span `json:"span"`
	Line   int       `json:"line"` // 1-based
}

// String returns the reference as written with its line, e.g.
// "Section 3.2 (line 14)".
func (r Ref) String() string {
	return r.Text + " (line " + strconv.Itoa(r.Line) + ")"
}

var (
	// bare URLs are text to goldmark (no Linkify): nothing in one is a
	// reference
	urlRE = regexp.MustCompile(`(?i)\b(?:https?|ftp|file|mailto):[^\s<>()]*`)

	num = `\d+(?:\.\d+)*`
	// the first item of each kind, then list continuations
	sectionRE     = regexp.MustCompile(`(?i)\b(?:sections?|sec\.)[ \t]+(` + num + `)\b`)
	sectionSignRE = regexp.MustCompile(`§§?[ \t]*(` + num + `)\b`)
	milestoneRE   = regexp.MustCompile(`(?i)\bmilestones?[ \t]+(m?\d+)\b`)
	deliverRE     = regexp.MustCompile(`(?i)\bdeliverables?[ \t]+(d?` + num + `)\b`)
	moreNumRE     = regexp.MustCompile(`^(?:[ \t]*,[ \t]*(?:and[ \t]+|or[ \t]+)?|[ \t]+(?:and|or|&)[ \t]+)(` + num + `)\b`)
	moreMileRE    = regexp.MustCompile(`(?i)^(?:[ \t]*,[ \t]*(?:and[ \t]+|or[ \t]+)?|[ \t]+(?:and|or|&)[ \t]+)(m?\d+)\b`)
	moreDelivRE   = regexp.MustCompile(`(?i)^(?:[ \t]*,[ \t]*(?:and[ \t]+|or[ \t]+)?|[ \t]+(?:and|or|&)[ \t]+)(d?` + num + `)\b`)

	seeBracketRE = regexp.MustCompile(`(?i)\bsee[ \t]+(?:also[ \t]+)?(?:the[ \t]+)?\[([^\[\]\n]+)\]`)
	seeQuoteRE   = regexp.MustCompile(`(?i)\bsee[ \t]+(?:also[ \t]+)?(?:the[ \t]+)?(?:"([^"\n]+)"|“([^”\n]+)”)`)

	// "of RFC 9110", "in [the guide](x.md)": the reference names another document
	externalAfterRE = regexp.MustCompile(`^,?[ \t]+(?:of|in|from)[ \t]+(?:the[ \t]+)?(?:[A-Z0-9\[]|RFC)`)
	externalBefore  = regexp.MustCompile(`(?i)\b(?:RFC|ISO|IEEE)[ \t]*\d+[ \t,]*$`)
	internalAfterRE = regexp.MustCompile(`(?i)^,?[ \t]+(?:of|in)[ \t]+(?:this|the present|the current)\b`)
)

type foundKey struct{}

// Find returns the internal references of d in document order. Spans
// never overlap. See the package documentation for the forms it knows.
//
// Anchor links are the links of goldmark's tree whose destination starts
// with '#'; every other form is a pattern matched against the prose text
// only (see [Prose]), so nothing inside code, a link, HTML or a heading
// is ever a reference. The result is computed once per document; the
// slice returned is the caller's own.
func Find(d *diff.Document) []Ref {
	if d == nil {
		return nil
	}
	found := d.Memo(foundKey{}, func() any { return find(d, read(d)) }).([]Ref)
	return append([]Ref(nil), found...)
}

func find(d *diff.Document, rd *reading) []Ref {
	out := append([]Ref(nil), rd.anchors...)
	var buf []byte
	for _, b := range d.Blocks {
		if b.Kind == diff.Code {
			continue
		}
		out = scanBlock(d, rd.prose, b.Span, out, &buf)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	// Patterns are masked against each other, but keep the promise even
	// if two ever meet.
	kept := out[:0]
	end := -1
	for _, r := range out {
		if r.Span.Start >= end {
			kept = append(kept, r)
			end = r.Span.End
		}
	}
	return kept
}

// scanBlock matches the prose patterns against the prose text of one
// block; src is the block's source, for quoting and for the words around
// a reference that say whether it names another document.
func scanBlock(d *diff.Document, prose string, span diff.Span, out []Ref, buf *[]byte) []Ref {
	text := prose[span.Start:span.End]
	var has int
	has, *buf = cues(text, *buf)
	if has&(cueSection|cueSign|cueMilestone|cueDeliverable|cueSee) == 0 {
		return out
	}
	src := d.Text(span)
	// masked is the prose text with the references already taken (and
	// bare URLs) blanked too, byte for byte, so offsets in masked are
	// offsets in src.
	masked := []byte(text)
	blank := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if masked[i] != '\n' {
				masked[i] = ' '
			}
		}
	}
	add := func(k Kind, lo, hi int, target string) {
		out = append(out, Ref{Kind: k, Text: src[lo:hi], Target: target,
			Span: diff.Span{Start: span.Start + lo, End: span.Start + hi}, Line: d.LineAt(span.Start + lo)})
		blank(lo, hi)
	}
	if has&cueURL != 0 {
		for _, m := range urlRE.FindAllIndex(masked, -1) {
			blank(m[0], m[1])
		}
	}

	// title references first, unless the brackets hold a numbered reference
	for _, re := range []*regexp.Regexp{seeBracketRE, seeQuoteRE} {
		if has&cueSee == 0 {
			break
		}
		for _, m := range re.FindAllSubmatchIndex(masked, -1) {
			g := 2
			if m[2] < 0 {
				g = 4
			}
			inner := string(masked[m[g]:m[g+1]])
			if strings.TrimSpace(inner) == "" || sectionRE.MatchString(inner) || sectionSignRE.MatchString(inner) ||
				milestoneRE.MatchString(inner) || deliverRE.MatchString(inner) {
				continue
			}
			if re == seeBracketRE && m[1] < len(masked) && (masked[m[1]] == '(' || masked[m[1]] == '[' || masked[m[1]] == ':') {
				continue // a link or a link reference, not a bare title
			}
			add(Title, m[0], m[1], strings.Join(strings.Fields(inner), " "))
		}
	}

	numbered := []struct {
		cue         int
		first, more *regexp.Regexp
		kind        Kind
		letter      string
	}{
		{cueSection, sectionRE, moreNumRE, Section, ""},
		{cueSign, sectionSignRE, moreNumRE, Section, ""},
		{cueMilestone, milestoneRE, moreMileRE, Milestone, "M"},
		{cueDeliverable, deliverRE, moreDelivRE, Deliverable, "D"},
	}
	for _, p := range numbered {
		if has&p.cue == 0 {
			continue
		}
		for _, m := range p.first.FindAllSubmatchIndex(masked, -1) {
			if isBlank(masked[m[0]:m[1]]) {
				continue
			}
			// the whole list "Sections 3 and 4" shares one context
			items := [][2]int{{m[2], m[3]}}
			end := m[1]
			for {
				mm := p.more.FindSubmatchIndex(masked[end:])
				if mm == nil {
					break
				}
				items = append(items, [2]int{end + mm[2], end + mm[3]})
				end += mm[1]
			}
			if p.kind == Section && isExternal(src, m[0], end) {
				blank(m[0], end)
				continue
			}
			for i, it := range items {
				lo := it[0]
				if i == 0 {
					lo = m[0]
				}
				add(p.kind, lo, it[1], normaliseID(p.letter, src[it[0]:it[1]]))
			}
		}
	}
	return out
}

// Cues: what a block contains, so that only the patterns that can match
// run at all. Most blocks hold no reference.
const (
	cueSection = 1 << iota
	cueSign
	cueMilestone
	cueDeliverable
	cueSee
	cueURL
)

func cues(s string, lower []byte) (int, []byte) {
	lower = lower[:0]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower = append(lower, c)
	}
	has := func(w string) bool { return bytes.Contains(lower, []byte(w)) }
	c := 0
	if has("§") {
		c |= cueSign
	}
	if bytes.IndexByte(lower, ':') >= 0 && (has("http") || has("ftp:") || has("file:") || has("mailto:")) {
		c |= cueURL
	}
	if has("section") || has("sec.") {
		c |= cueSection
	}
	if has("milestone") {
		c |= cueMilestone
	}
	if has("deliverable") {
		c |= cueDeliverable
	}
	if has("see") {
		c |= cueSee
	}
	return c, lower
}

// containsFold reports whether s contains the lower-case ASCII word w in
// any case, without allocating.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i]|0x20 != w[0] {
			continue
		}
		j := 1
		for j < len(w) && s[i+j]|0x20 == w[j] {
			j++
		}
		if j == len(w) {
			return true
		}
	}
	return false
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\n' {
			return false
		}
	}
	return true
}

// isExternal reports whether the section reference src[lo:hi] names
// another document: "Section 4 of RFC 9110", "RFC 9110 Section 4".
func isExternal(src string, lo, hi int) bool {
	after := src[hi:]
	if internalAfterRE.MatchString(after) {
		return false
	}
	return externalAfterRE.MatchString(after) || externalBefore.MatchString(src[:lo])
}

// normaliseID turns "m2", "2" into "M2" for milestones and "d1.2", "1.2"
// into "D1.2" for deliverables; section numbers pass unchanged.
func normaliseID(letter, s string) string {
	if letter == "" {
		return s
	}
	return letter + strings.TrimLeft(s, "mMdD")
}
