package diff

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/crucible-go/crucible/internal/words"
)

// Structural comparison: the order of the top-level sections (matched
// across variants at ≥ 80% word overlap of their titles), how topics are
// grouped, whether the organisational models agree, the hierarchy depth and
// the heading counts per level.

const sameSection = 0.8

// structureOf is what the structural engine knows of one variant.
type structureOf struct {
	doc     *Document
	top     []int       // top-level section indexes
	cluster []int       // cluster id of each top-level section
	titles  []words.Set // word set of every section's title
	// universe holds every variant's titles: the word order of the title
	// indexes.
	universe []words.Set
}

type titleSetsKey struct{}

// titleSets returns the word set of every section's title, made once per
// document: the structural comparison and the unique contributions both
// read them. The slice and sets are shared: read only.
func titleSets(d *Document) []words.Set {
	return d.Memo(titleSetsKey{}, func() any {
		out := make([]words.Set, len(d.Sections))
		for i, s := range d.Sections {
			out[i] = words.NewSet(s.Title)
		}
		return out
	}).([]words.Set)
}

func structuralPoints(docs []*Document) []Point {
	vs := make([]structureOf, len(docs))
	var universe []words.Set
	for v, d := range docs {
		vs[v].doc = d
		vs[v].top = d.TopLevel()
		vs[v].titles = titleSets(d)
		universe = append(universe, vs[v].titles...)
	}
	// The clusters: each top-level section joins the unused cluster whose
	// representative title (its first) it overlaps most, at sameSection
	// or more (the earliest cluster on a tie), or starts one.
	reps, clusters := newTitleIndex(universe), 0
	for v, d := range docs {
		used, next := map[int]bool{}, map[int]int{}
		for _, si := range vs[v].top {
			set := vs[v].titles[si]
			best, _ := reps.bestUnused(d.Sections[si].Title, set, used, next)
			if best < 0 {
				best = clusters
				clusters++
				reps.add(best, d.Sections[si].Title, set)
			}
			used[best] = true
			vs[v].cluster = append(vs[v].cluster, best)
		}
	}
	for v := range vs {
		vs[v].universe = universe
	}
	var points []Point
	if p, ok := orderingPoint(vs); ok {
		points = append(points, p)
	}
	if p, ok := groupingPoint(vs); ok {
		points = append(points, p)
	}
	if p, ok := modelPoint(vs); ok {
		points = append(points, p)
	}
	if p, ok := depthPoint(vs); ok {
		points = append(points, p)
	}
	if p, ok := headingPoint(vs); ok {
		points = append(points, p)
	}
	return points
}

// titleOverlap compares two titles: exactly equal titles (ignoring case)
// overlap fully even when they have no significant words.
func titleOverlap(a string, as words.Set, b string, bs words.Set) float64 {
	if strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) {
		return 1
	}
	return as.Dice(bs)
}

// orderingPoint reports sections that every variant has but in a different
// order: Low, a cosmetic preference.
func orderingPoint(vs []structureOf) (Point, bool) {
	common := map[int]int{}
	for _, v := range vs {
		for _, c := range v.cluster {
			common[c]++
		}
	}
	shared := func(v structureOf) []int {
		var seq []int
		for _, c := range v.cluster {
			if common[c] == len(vs) {
				seq = append(seq, c)
			}
		}
		return seq
	}
	first := shared(vs[0])
	if len(first) < 2 {
		return Point{}, false
	}
	differs := false
	var involved []int
	for i, v := range vs {
		if !slices.Equal(shared(v), first) {
			differs = true
			involved = append(involved, i)
		}
	}
	if !differs {
		return Point{}, false
	}
	involved = append([]int{0}, involved...)
	p := Point{Category: CategoryStructural, Kind: "section-order", Title: "Section ordering", Rating: Low,
		Reason: "same sections, different order (cosmetic preference)", Positions: emptyPositions(len(vs)), Variants: involved}
	for i, v := range vs {
		p.Positions[i].Text = outline(v, common, len(vs))
		// Evidence: the first shared section whose place differs from A's.
		seq := shared(v)
		for k, c := range seq {
			if k < len(first) && c != first[k] || i == 0 {
				for t, cc := range v.cluster {
					if cc == c {
						p.Evidence = append(p.Evidence, headingEvidence(v.doc, i, v.top[t]))
						break
					}
				}
				break
			}
		}
	}
	return p, true
}

// outline lists a variant's top-level sections in order, marking those
// only some variants have.
func outline(v structureOf, common map[int]int, n int) string {
	var parts []string
	for t, si := range v.top {
		title := v.doc.Sections[si].Title
		if common[v.cluster[t]] < n {
			title += "*"
		}
		parts = append(parts, title)
		if len(parts) == 8 && len(v.top) > 8 {
			parts = append(parts, fmt.Sprintf("… (%d more)", len(v.top)-8))
			break
		}
	}
	if len(parts) == 0 {
		return "(no sections)"
	}
	return strings.Join(parts, " → ")
}

// groupingPoint reports topics that are top-level sections in one variant
// but nested under another section in another: Medium, a different
// grouping of the same topics.
func groupingPoint(vs []structureOf) (Point, bool) {
	p := Point{Category: CategoryStructural, Kind: "section-grouping", Title: "Section grouping", Rating: Medium,
		Reason: "different grouping or categorization of topics", Positions: emptyPositions(len(vs))}
	found := false
	notes := make([][]string, len(vs))
	noted := make([]map[string]bool, len(vs))
	note := func(v int, n string) {
		if noted[v] == nil {
			noted[v] = map[string]bool{}
		}
		if !noted[v][n] {
			noted[v][n] = true
			notes[v] = append(notes[v], n)
		}
	}
	// Per variant, its clusters and an index of its nested sections'
	// titles: a topic asks each other variant whether it has the topic,
	// then for its first nested section with that title.
	has := make([]map[int]bool, len(vs))
	nested := make([]*titleIndex, len(vs))
	for b, vb := range vs {
		has[b] = make(map[int]bool, len(vb.cluster))
		for _, c := range vb.cluster {
			has[b][c] = true
		}
	}
	for a, va := range vs {
		for t, c := range va.cluster {
			for b, vb := range vs {
				if b == a || has[b][c] {
					continue
				}
				if nested[b] == nil {
					nested[b] = newTitleIndex(vb.universe)
					for si, s := range vb.doc.Sections {
						if s.Depth >= 2 {
							nested[b].add(si, s.Title, vb.titles[si])
						}
					}
				}
				// Is the topic nested somewhere in b?
				title := va.doc.Sections[va.top[t]].Title
				si := nested[b].first(title, va.titles[va.top[t]])
				if si < 0 {
					continue
				}
				s := vb.doc.Sections[si]
				parent := vb.doc.Sections[s.Parent].Title
				note(a, fmt.Sprintf("%q is a top-level section", title))
				note(b, fmt.Sprintf("%q sits under %q", s.Title, parent))
				if !found {
					p.Evidence = append(p.Evidence, headingEvidence(va.doc, a, va.top[t]), headingEvidence(vb.doc, b, si))
				}
				found = true
				p.Variants = appendOnceInt(appendOnceInt(p.Variants, a), b)
			}
		}
	}
	if !found {
		return Point{}, false
	}
	slices.Sort(p.Variants)
	for i := range vs {
		if len(notes[i]) == 0 {
			p.Positions[i].Text = "—"
			continue
		}
		if len(notes[i]) > 3 {
			notes[i] = append(notes[i][:3], fmt.Sprintf("and %d more", len(notes[i])-3))
		}
		p.Positions[i].Text = strings.Join(notes[i], "; ")
	}
	return p, true
}

func appendOnceInt(s []int, v int) []int {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

var chronological = regexp.MustCompile(`(?i)^(?:\d+(?:\.\d+)*\.?\s+)?(?:phase|stage|step|week|month|quarter|sprint|milestone|wave|iteration|release|day|year)\b|\b(?:q[1-4]|h[12])\b|\b20\d\d\b|^(?:\d+(?:\.\d+)*\.?\s+)?m\d+\b`)

// organisation classifies a variant's top level as "chronological" (phases,
// milestones, dates) or "categorical" (topics).
func organisation(v structureOf) (string, int) {
	n := 0
	for _, si := range v.top {
		if chronological.MatchString(v.doc.Sections[si].Title) {
			n++
		}
	}
	if n >= 2 && n*2 >= len(v.top) {
		return "chronological", n
	}
	return "categorical", n
}

// modelPoint reports variants organised by time against variants organised
// by topic: High, incompatible organisational models.
func modelPoint(vs []structureOf) (Point, bool) {
	kinds := map[string]bool{}
	for _, v := range vs {
		if len(v.top) == 0 {
			continue
		}
		k, _ := organisation(v)
		kinds[k] = true
	}
	if len(kinds) < 2 {
		return Point{}, false
	}
	p := Point{Category: CategoryStructural, Kind: "organization-model", Title: "Organizational model", Rating: High,
		Reason: "incompatible organizational models (chronological vs. categorical)", Positions: emptyPositions(len(vs))}
	for i, v := range vs {
		if len(v.top) == 0 {
			p.Positions[i].Text = "(no sections)"
			continue
		}
		k, n := organisation(v)
		p.Positions[i].Text = fmt.Sprintf("%s (%d of %d top-level sections are phases, milestones or dates)", k, n, len(v.top))
		p.Variants = append(p.Variants, i)
		p.Evidence = append(p.Evidence, headingEvidence(v.doc, i, v.top[0]))
	}
	return p, true
}

// depthPoint compares the deepest nesting: Low for a difference of one
// level, Medium for two or more, High for flat against deep.
func depthPoint(vs []structureOf) (Point, bool) {
	lo, hi := 1<<30, -1
	for _, v := range vs {
		d := v.doc.MaxDepth()
		lo, hi = min(lo, d), max(hi, d)
	}
	if lo == hi {
		return Point{}, false
	}
	p := Point{Category: CategoryStructural, Kind: "hierarchy-depth", Title: "Hierarchy depth", Positions: emptyPositions(len(vs))}
	switch {
	case lo <= 1 && hi >= 3:
		p.Rating, p.Reason = High, fmt.Sprintf("one variant uses a flat structure (depth %d), another deep nesting (depth %d)", lo, hi)
	case hi-lo >= 2:
		p.Rating, p.Reason = Medium, fmt.Sprintf("depth differs by %d levels", hi-lo)
	default:
		p.Rating, p.Reason = Low, "depth differs by 1 level"
	}
	for i, v := range vs {
		d := v.doc.MaxDepth()
		deepest := deepestSection(v.doc)
		text := fmt.Sprintf("max depth %d", d)
		if deepest >= 0 && d > 0 {
			text += fmt.Sprintf(" (deepest: %s)", sectionRef(v.doc, deepest))
			p.Evidence = append(p.Evidence, headingEvidence(v.doc, i, deepest))
		}
		p.Positions[i].Text = text
		if d == lo || d == hi {
			p.Variants = append(p.Variants, i)
		}
	}
	return p, true
}

func deepestSection(d *Document) int {
	best := -1
	for i, s := range d.Sections {
		if best < 0 || s.Depth > d.Sections[best].Depth {
			best = i
		}
	}
	return best
}

// headingPoint compares heading counts per depth: Low for minor
// differences in subsection count, Medium for significantly different
// granularity, High for fundamentally different organisation. Counting by
// depth rather than by level keeps H1-rooted and H2-rooted documents
// comparable; the levels used are shown as well.
func headingPoint(vs []structureOf) (Point, bool) {
	type counts struct {
		byDepth [4]int // title, depth 1, depth 2, depth 3+
		total   int
	}
	cs := make([]counts, len(vs))
	for i, v := range vs {
		for _, s := range v.doc.Sections {
			cs[i].byDepth[min(s.Depth, 3)]++
			cs[i].total++
		}
	}
	same := true
	lo, hi := 1<<30, 0
	for _, c := range cs {
		if c.byDepth != cs[0].byDepth {
			same = false
		}
		lo, hi = min(lo, c.total-c.byDepth[0]), max(hi, c.total-c.byDepth[0])
	}
	if same {
		return Point{}, false
	}
	p := Point{Category: CategoryStructural, Kind: "heading-structure", Title: "Heading structure", Positions: emptyPositions(len(vs))}
	spread := 0.0
	if hi > 0 {
		spread = float64(hi-lo) / float64(hi)
	}
	switch {
	case spread > 0.6:
		p.Rating, p.Reason = High, fmt.Sprintf("fundamentally different document organization (%d vs %d headings below the title)", lo, hi)
	case spread > 0.25:
		p.Rating, p.Reason = Medium, fmt.Sprintf("significant differences in section granularity (%d vs %d headings below the title)", lo, hi)
	default:
		p.Rating, p.Reason = Low, "minor differences in subsection count"
	}
	for i, v := range vs {
		c := cs[i]
		levels := v.doc.HeadingCounts()
		var lv []string
		for l, n := range levels {
			if n > 0 {
				lv = append(lv, fmt.Sprintf("%d×H%d", n, l+1))
			}
		}
		if len(lv) == 0 {
			lv = []string{"no headings"}
		}
		title := "no title"
		if c.byDepth[0] > 0 {
			title = "title"
		}
		p.Positions[i].Text = fmt.Sprintf("%d top-level, %d second-level, %d deeper (%s; %s)", c.byDepth[1], c.byDepth[2], c.byDepth[3], title, strings.Join(lv, ", "))
		p.Variants = append(p.Variants, i)
		if len(v.top) > 0 {
			p.Evidence = append(p.Evidence, headingEvidence(v.doc, i, v.top[0]))
		}
	}
	return p, true
}

// headingEvidence cites a section's heading line.
func headingEvidence(d *Document, variant, section int) Evidence {
	s := d.Sections[section]
	line := d.Text(s.Heading)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i] // a setext heading's text line
	}
	return Evidence{Variant: variant, Section: sectionRef(d, section), Line: s.Line, Quote: line}
}
