package scoring

import (
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/internal/words"
)

// checkOrdering (STR-1): the explicit section numbers increase through
// the document, and the first top-level section orients the reader
// (overview, introduction, summary, background, goals, scope…) before the
// sections that build on it.
func checkOrdering(w *view) result {
	top := w.contentTop()
	if len(top) < 2 {
		return result{note: "Fewer than two top-level sections to order"}
	}
	if bad, prev, ok := w.numbersOutOfOrder(); !ok {
		return result{cites: []Citation{w.cite(w.headingLine(prev)), w.cite(w.headingLine(bad))},
			note: fmt.Sprintf("Section %q follows %q: numbers out of order", w.d.Sections[bad].Title, w.d.Sections[prev].Title)}
	}
	first := w.d.Sections[top[0]]
	if !reOrienting.re.MatchString(first.Title) {
		return result{cites: []Citation{w.cite(w.headingLine(top[0]))},
			note: fmt.Sprintf("The first section, %q, does not introduce the document before the sections that depend on it", first.Title)}
	}
	return result{met: true, cites: []Citation{w.cite(w.headingLine(top[0]))},
		note: "Opens with an orienting section; explicit section numbers increase"}
}

// contentTop returns the top-level sections that are not a table of
// contents.
func (w *view) contentTop() []int {
	var out []int
	for _, i := range w.d.TopLevel() {
		if !isContents(w.d.Sections[i].Title) {
			out = append(out, i)
		}
	}
	return out
}

// numbersOutOfOrder checks that explicit heading numbers of siblings
// increase; it returns the offending section and its predecessor.
func (w *view) numbersOutOfOrder() (bad, prev int, ok bool) {
	last := map[int]int{} // parent → index of the last numbered child
	for i, s := range w.d.Sections {
		n, _, _, has := refs.HeadingNumber(s.Title)
		if !has {
			continue
		}
		if p, seen := last[s.Parent]; seen {
			pn, _, _, _ := refs.HeadingNumber(w.d.Sections[p].Title)
			if compareNumbers(n, pn) <= 0 {
				return i, p, false
			}
		}
		last[s.Parent] = i
	}
	return 0, 0, true
}

// compareNumbers compares outline numbers component by component.
func compareNumbers(a, b string) int {
	as, bs := strings.Split(strings.Trim(a, "."), "."), strings.Split(strings.Trim(b, "."), ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, y := atoi(as[i]), atoi(bs[i])
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return len(as) - len(bs)
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// checkHierarchy (STR-2): no heading skips a level below its parent (an
// H4 straight under an H2 is an orphaned subsection), and there is at
// least one top-level section.
func checkHierarchy(w *view) result {
	minRoot := 7
	for _, s := range w.d.Sections {
		if s.Parent < 0 {
			minRoot = min(minRoot, s.Level)
		}
	}
	var orphans []line
	for i, s := range w.d.Sections {
		// A subsection more than one level below its parent, or one that
		// comes before any section of the level above it.
		if (s.Parent >= 0 && s.Level > w.d.Sections[s.Parent].Level+1) || (s.Parent < 0 && s.Level > minRoot) {
			orphans = append(orphans, w.headingLine(i))
		}
	}
	if len(orphans) > 0 {
		return result{cites: w.cites(orphans, 3), note: fmt.Sprintf("%d heading(s) skip a level: %s", len(orphans), lineList(orphans, 5))}
	}
	top := w.d.TopLevel()
	if len(top) == 0 {
		return result{note: "No sections"}
	}
	cites := []Citation{w.cite(w.headingLine(top[0]))}
	for i, s := range w.d.Sections {
		if s.Depth >= 2 {
			cites = append(cites, w.cite(w.headingLine(i)))
			break
		}
	}
	return result{met: true, cites: cites, note: fmt.Sprintf("%d headings, none skips a level; depth %d", len(w.d.Sections), w.d.MaxDepth())}
}

// checkSeparation (STR-3): at least three top-level sections, each with
// content, and no two sibling sections named for the same concern (titles
// overlapping at least 80%).
func checkSeparation(w *view) result {
	top := w.contentTop()
	if len(top) < 3 {
		return result{note: fmt.Sprintf("%d top-level section(s); at least 3 needed to separate concerns", len(top))}
	}
	for _, i := range top {
		s := w.d.Sections[i]
		if len(s.Children) == 0 && len(w.d.BlocksIn(s.Body())) == 0 {
			return result{cites: []Citation{w.cite(w.headingLine(i))}, note: fmt.Sprintf("Section %q is empty", s.Title)}
		}
	}
	for i, s := range w.d.Sections {
		si := words.NewSet(refs.StripNumber(s.Title))
		for j := i + 1; j < len(w.d.Sections); j++ {
			t := w.d.Sections[j]
			if t.Parent != s.Parent || t.Level != s.Level {
				continue
			}
			if sameConcern(s.Title, si, t.Title) {
				return result{cites: []Citation{w.cite(w.headingLine(i)), w.cite(w.headingLine(j))},
					note: fmt.Sprintf("Sibling sections %q and %q cover the same concern", s.Title, t.Title)}
			}
		}
	}
	var ls []line
	for _, i := range top {
		ls = append(ls, w.headingLine(i))
	}
	return w.found(ls, fmt.Sprintf("%d distinct top-level sections, each with content", len(top)))
}

func sameConcern(a string, as words.Set, b string) bool {
	a, b = refs.StripNumber(a), refs.StripNumber(b)
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) || as.Dice(words.NewSet(b)) >= refs.SameTitle
}

// checkNavigation (STR-4): a table of contents or index heading, or an
// internal cross-reference (see internal/refs).
func checkNavigation(w *view) result {
	if hs := w.headingsMatching(reNavigation); len(hs) > 0 {
		return w.found(hs, "Table of contents or index")
	}
	rs := refs.Find(w.d)
	if len(rs) == 0 {
		return w.notFound("a table of contents, index or cross-reference")
	}
	var cites []Citation
	for i, r := range rs {
		if i == 3 {
			break
		}
		cites = append(cites, w.citeAt(r.Span.Start))
	}
	return result{met: true, cites: cites, note: fmt.Sprintf("%d internal cross-reference(s)", len(rs))}
}

// checkConventions (STR-5): a title, and the sections the artifact type
// calls for — the type read from the title or front matter: a roadmap
// has milestones, phases or a timeline; a specification has at least three
// requirement statements (ids, must, shall) and an overview or scope; a plan
// has steps, tasks or phases (or an ordered list of at least three); a
// design has design, architecture, decision or alternatives sections; any
// other document has at least two top-level sections with content.
func checkConventions(w *view) result {
	ti := w.d.TitleSection()
	if w.d.Title == "" {
		return result{note: "The document has no title"}
	}
	var cites []Citation
	if ti >= 0 {
		cites = append(cites, w.cite(w.headingLine(ti)))
	}
	kind := artifactKind(w.d)
	var ls []line
	var want string
	switch kind {
	case "roadmap":
		ls, want = w.headingsMatching(reRoadmapH), "milestone, phase or timeline sections"
	case "specification":
		reqs := w.grep(reRequirement, false, 3)
		for _, l := range w.lines {
			if !l.heading && len(reqs) < 3 && strings.IndexByte(l.text, '-') >= 0 && len(lexicon.RequirementIDs(l.text)) > 0 && !containsLine(reqs, l) {
				reqs = append(reqs, l)
			}
		}
		if len(reqs) >= 3 && len(w.headingsMatching(reOrienting)) > 0 {
			ls = reqs
		}
		want = "an overview or scope and at least 3 requirement statements"
	case "plan":
		ls = w.headingsMatching(rePlanH)
		if len(ls) == 0 {
			if ord := w.grep(reOrdered, false, 3); len(ord) >= 3 {
				ls = ord
			}
		}
		want = "steps, tasks or phases"
	case "design":
		ls, want = w.headingsMatching(reDesignH), "design, architecture, decision or alternatives sections"
	default:
		var withBody []line
		for _, i := range w.contentTop() {
			if len(w.d.BlocksIn(w.d.Sections[i].Span)) > 0 {
				withBody = append(withBody, w.headingLine(i))
			}
		}
		if len(withBody) >= 2 {
			ls = withBody
		}
		want = "at least 2 top-level sections with content"
	}
	if len(ls) == 0 {
		return result{cites: cites, note: fmt.Sprintf("A %s needs %s", kind, want)}
	}
	cites = append(cites, w.cites(ls, 2)...)
	return result{met: true, cites: cites, note: fmt.Sprintf("Titled %s with %s", kind, want)}
}

func containsLine(ls []line, l line) bool {
	for _, x := range ls {
		if x.no == l.no {
			return true
		}
	}
	return false
}

// artifactKind reads the artifact type from the title and the front
// matter's "type".
func artifactKind(d *diff.Document) string {
	t := strings.ToLower(d.Title)
	if d.FrontMatter != nil {
		if s, ok := d.FrontMatter.Data["type"].(string); ok {
			t = strings.ToLower(s) + " " + t
		}
	}
	has := func(ws ...string) bool {
		for _, x := range ws {
			if strings.Contains(t, x) {
				return true
			}
		}
		return false
	}
	switch {
	case has("roadmap"):
		return "roadmap"
	case has("spec", "requirement", "prd", "srs"):
		return "specification"
	case has("design", "architecture", "rfc", "adr", "proposal"):
		return "design"
	case has("plan"):
		return "plan"
	}
	return "document"
}
