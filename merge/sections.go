package merge

import (
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/internal/words"
)

// SectionRef names a section of a variant so that a plan is readable and
// self-contained: by number, by title, or (as [NewPlan] writes them) both.
type SectionRef struct {
	// Number is the heading's explicit number ("3.2" for "### 3.2
	// Eviction") or, for a heading without one, its outline number.
	Number string `json:"number,omitempty"`
	// Title is the heading text as the document has it, number included.
	Title string `json:"title,omitempty"`
}

// IsZero reports whether r names nothing.
func (r SectionRef) IsZero() bool { return r.Number == "" && r.Title == "" }

// String returns `Section 3.2 "Eviction"`, `Section "Eviction"` or
// "Section 3.2".
func (r SectionRef) String() string {
	title := refs.StripNumber(r.Title)
	switch {
	case r.Number == "" && title == "":
		return "Section (unnamed)"
	case r.Number == "":
		return "Section " + strconv.Quote(title)
	case title == "":
		return "Section " + r.Number
	}
	return "Section " + r.Number + " " + strconv.Quote(title)
}

// Short returns "Section 3.2", or `Section "Eviction"` for a heading
// without a number: the form provenance tags use.
func (r SectionRef) Short() string {
	if r.Number != "" {
		return "Section " + r.Number
	}
	return r.String()
}

// refOf returns the reference to section i of d.
func refOf(d *diff.Document, i int) SectionRef {
	s := d.Sections[i]
	n := s.Number
	if explicit, _, _, ok := refs.HeadingNumber(s.Title); ok {
		n = explicit
	}
	return SectionRef{Number: n, Title: s.Title}
}

// locate finds the section r names in d. With a title, the title decides
// (equal up to case, spacing and numbering, else the best word overlap of
// at least 0.8) and the number breaks ties; with a number alone, an
// explicit heading number wins over an outline number. Among equally good
// sections the first wins.
//
// A plan locates every change's sections, several times, in documents of
// thousands of sections; the answers come from an index of d (see
// sectionIndex) built once per document, so that a plan costs time in
// proportion to its changes, not to changes × sections.
func locate(d *diff.Document, r SectionRef) (int, bool) {
	if d == nil || r.IsZero() {
		return -1, false
	}
	x := indexOf(d)
	if r.Title == "" {
		return x.numberOnly(r.Number)
	}
	// The title matches exactly: the first such section whose number
	// matches too, else the first such section.
	if r.Number != "" {
		if i := x.byNumber(r.Title, r.Number); i >= 0 {
			return i, true
		}
	}
	full, want := x.normalised(r.Title)
	if i := x.byTitle(full, want); i >= 0 {
		return i, true
	}
	return titleOverlapOf(d).similar(words.NewSet(refs.StripNumber(r.Title)), r.Number)
}

// ownRef reports whether locate(d, r) is i, where r names section i of d
// by its outline number and title (as TopicSectionAt does), without
// looking r up: i is the first section of its title with its number —
// outline numbers name one section each — unless an earlier section of
// the same title (normalised, with or without its number) has i's
// outline number as its explicit heading number. The document title,
// without a number, is taken when it is the first section.
func ownRef(d *diff.Document, i int, r SectionRef) bool {
	if i < 0 || i >= len(d.Sections) {
		return false
	}
	s := d.Sections[i]
	if r.Number != s.Number || r.Title != s.Title || r.Title == "" {
		return false // named otherwise, or by number alone (locate's other path)
	}
	if r.Number == "" {
		// the document title: named by its title alone, it is the first
		// section of that title if it is the first section
		return i == 0
	}
	return !shadowedOf(d)[i]
}

type shadowedKey struct{}

// shadowedOf returns the sections of d that their outline number and
// title do not locate (see ownRef), built once per document: nil for
// the usual document, whose explicit heading numbers are its outline
// numbers.
func shadowedOf(d *diff.Document) map[int]bool {
	return d.Memo(shadowedKey{}, func() any {
		type odd struct {
			j        int
			explicit string
		}
		var odds []odd // sections whose explicit number is not their outline number
		for j, s := range d.Sections {
			if e, _, _, ok := refs.HeadingNumber(s.Title); ok && e != s.Number {
				odds = append(odds, odd{j, e})
			}
		}
		if len(odds) == 0 {
			return map[int]bool(nil)
		}
		byOutline := make(map[string]int, len(d.Sections))
		for k, s := range d.Sections {
			byOutline[s.Number] = k
		}
		out := map[int]bool{}
		for _, o := range odds {
			k, ok := byOutline[o.explicit]
			if !ok || k <= o.j {
				continue
			}
			a, b := d.Sections[o.j].Title, d.Sections[k].Title
			if normTitle(a) == normTitle(b) || normTitle(refs.StripNumber(a)) == normTitle(refs.StripNumber(b)) {
				out[k] = true
			}
		}
		return out
	}).(map[int]bool)
}

// matchTitle returns the section of d whose title names the same section
// as title (see locate), skipping the document title; -1 if none.
func matchTitle(d *diff.Document, title string) int {
	i, ok := locate(d, SectionRef{Title: title})
	if !ok || d.Sections[i].Depth == 0 {
		return -1
	}
	return i
}

// normTitle is a title as titles are compared: lower case, white space
// runs as one space, none at the ends. Every lookup of a section by title
// normalises the title asked for, so an ASCII title — nearly all — is
// done in one pass, and returned as it is when already normal.
func normTitle(s string) string {
	normal := true // s is ASCII, lower case, single-spaced, trimmed
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return normTitleSlow(s)
		case 'A' <= c && c <= 'Z', c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			normal = false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' '):
			normal = false
		}
	}
	if normal {
		return s
	}
	b := make([]byte, 0, len(s))
	space := false // a space is due before the next word
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			space = len(b) > 0
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		if space {
			b = append(b, ' ')
			space = false
		}
		b = append(b, c)
	}
	return string(b)
}

// normTitleSlow is normTitle for any text.
func normTitleSlow(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}
