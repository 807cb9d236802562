package merge

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestOwnRefMatchesLocate checks that ownRef says a section's outline
// number and title locate it exactly when locate finds it by them, over
// random documents whose headings repeat titles and carry explicit
// numbers that agree with the outline, disagree with it, or name another
// section's outline number.
func TestOwnRefMatchesLocate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	titles := []string{"Overview", "Fix", "Step", "Limits", "Overview Notes"}
	shadowed, own := 0, 0
	for round := range 200 {
		var b strings.Builder
		b.WriteString("# Spec\n\n")
		top := 0
		for range 4 + rng.IntN(12) {
			level, number := 2, ""
			if top > 0 && rng.IntN(2) == 0 {
				level = 3
			}
			if level == 2 {
				top++
			}
			switch rng.IntN(4) {
			case 0: // none
			case 1: // the outline's, when it is a chapter
				number = fmt.Sprintf("%d. ", top)
			default: // any small number: often another section's outline number
				number = fmt.Sprintf("%d. ", 1+rng.IntN(4))
				if rng.IntN(2) == 0 {
					number = fmt.Sprintf("%d.%d ", 1+rng.IntN(3), 1+rng.IntN(3))
				}
			}
			fmt.Fprintf(&b, "%s %s%s\n\nText.\n\n", strings.Repeat("#", level), number, titles[rng.IntN(len(titles))])
		}
		d := mustParse(t, "d.md", b.String())
		for i, s := range d.Sections {
			r := SectionRef{Number: s.Number, Title: s.Title}
			got, ok := locate(d, r)
			located := ok && got == i
			if ownRef(d, i, r) != located {
				t.Fatalf("round %d, section %d %q (%s): ownRef %v, locate gives %d\n%s", round, i, s.Title, s.Number, !located, got, b.String())
			}
			if located {
				own++
			} else {
				shadowed++
			}
		}
	}
	if shadowed == 0 || own == 0 {
		t.Fatalf("own %d, shadowed %d: the documents test one answer only", own, shadowed)
	}
	// A name that is not the section's own is never taken as it; a
	// title without a number is taken for the first section only.
	d := mustParse(t, "d.md", "# Spec\n\n## Overview\n\nText.\n\n## Fix\n\nText.\n")
	if ownRef(d, 1, SectionRef{Number: "2", Title: "Overview"}) {
		t.Fatal("ownRef takes a section by another's number")
	}
	if !ownRef(d, 0, SectionRef{Title: "Spec"}) {
		t.Fatal("ownRef does not take the document title, the first section")
	}
}
