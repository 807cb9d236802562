package diff

import "strings"

// Chapters against single sections: one variant covers a topic in one
// section, another splits it into a chapter — a heading with no text of
// its own over subsections, the first of which states the matter and the
// others elaborate it ("## Cache Invalidation" opening with "### Stale
// Reads After Failover", then a cost estimate and a caveat). The
// section's words meet the chapter's first subsection; the chapter as a
// whole is too long and too varied for its text to meet the section's.
// The topic is the chapter's: matched to the first subsection only, the
// section leaves the chapter unmatched, and whoever takes the topic from
// the chapter's variant finds it under two headings.

// liftToChapters moves, for every pair of variants, a match of a section
// without subsections to the first subsection of a chapter onto the
// chapter: the chapter has no text of its own (no terms) and no match in
// the section's variant. The match keeps its score.
func (al *aligner) liftToChapters(edges []alignEdge) {
	for k := range edges {
		e := &edges[k]
		if c := al.chapterOf(e.w, e.b, e.v, e.a); c >= 0 {
			al.match[e.v][e.w][e.a], al.match[e.w][e.v][e.b], al.match[e.w][e.v][c] = c, -1, e.a
			e.b = c
		} else if c := al.chapterOf(e.v, e.a, e.w, e.b); c >= 0 {
			al.match[e.w][e.v][e.b], al.match[e.v][e.w][e.a], al.match[e.v][e.w][c] = c, -1, e.b
			e.a = c
		}
	}
}

// chapterOf returns the chapter section b of w opens, when section a of
// v, matched to b, should be matched to that chapter instead; else -1.
func (al *aligner) chapterOf(w, b, v, a int) int {
	if al.secs[v][a].end != a+1 {
		return -1 // a has subsections of its own
	}
	d := al.docs[w]
	p := d.Sections[b].Parent
	if p < 0 || d.Sections[p].Depth == 0 || len(d.Sections[p].Children) < 2 || d.Sections[p].Children[0] != b {
		return -1
	}
	if len(al.secs[w][p].body.ids) > 0 || al.match[w][v][p] >= 0 {
		return -1
	}
	// The chapter's other subsections are its own elaboration: none has
	// a counterpart in v. A chapter one of whose subsections meets another
	// section of v holds a topic v keeps apart, which would then have two
	// places; a chapter whose subsections meet sections of v one by one
	// ("Requirements" over "REQ-1" … "REQ-7") groups topics v keeps apart.
	matched, alone := 0, 0
	for s := b + 1; s < al.secs[w][p].end; s++ {
		if al.match[w][v][s] >= 0 {
			matched++
		} else {
			alone++
		}
	}
	if matched > 0 || alone == 0 || chapterOfItems(d, p) {
		return -1
	}
	return p
}

// chapterOfItems reports whether the subsections of section p are a list
// of items, each named by its id or number ("OPT-A: Keep", "OPT-B:
// Drop"; "Step 1", "Step 2"): two of them name different items of one
// list. The first of such subsections is one item, not what the chapter
// is about.
func chapterOfItems(d *Document, p int) bool {
	seen := map[string]string{} // list → the first item named of it
	for _, c := range d.Sections[p].Children {
		for _, t := range titleTerms(d, c) {
			list, ok := itemList(t)
			if !ok {
				continue
			}
			if first, ok := seen[list]; !ok {
				seen[list] = t
			} else if first != t {
				return true
			}
		}
	}
	return false
}

// itemList returns the list a title term names an item of: the family of
// an item id ("opt" for "opt-a"), the word of a numbered word ("step#"
// for "step#2").
func itemList(t string) (string, bool) {
	if i := strings.IndexByte(t, '#'); i > 0 {
		return t[:i+1], true
	}
	if isHeadingIDTerm(t) {
		return idFamily(t), true
	}
	return "", false
}
