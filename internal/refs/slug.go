package refs

import (
	"strconv"
	"strings"
	"unicode"
)

// Slug returns the anchor GitHub gives a heading whose rendered text is
// title: lower case; letters, marks, decimal and letter numbers, '_' (and
// other connector punctuation) and '-' kept; each space a '-'; everything
// else — other punctuation, symbols, emoji, "²" — dropped. "3.2 Caching &
// Eviction" is "32-caching--eviction". It is the one slug function of the
// project: reference resolution, the merge's rewriting of anchor links and
// the critic's check of them all use it, so they agree with each other
// and with the anchors a reader's links were written against.
func Slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(title)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.In(r, unicode.Nd, unicode.Nl, unicode.Pc):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Slugger gives the headings of one document their anchors in document
// order, as GitHub does: a repeated slug gets "-1", "-2", … and a suffixed
// slug that is itself taken is suffixed again ("a", "a", "a-1" give "a",
// "a-1", "a-1-1"). The zero value is ready; a Slugger serves one document
// and one goroutine.
type Slugger struct {
	seen map[string]int // slug → how many repeats of it have been numbered
}

// Next returns the anchor of the next heading, whose text is title.
func (s *Slugger) Next(title string) string {
	if s.seen == nil {
		s.seen = map[string]int{}
	}
	base := Slug(title)
	slug := base
	for {
		if _, taken := s.seen[slug]; !taken {
			break
		}
		s.seen[base]++
		slug = base + "-" + strconv.Itoa(s.seen[base])
	}
	s.seen[slug] = 0
	return slug
}
