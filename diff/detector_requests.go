package diff

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Requests by topic. The statements of the variants are grouped by the
// aligned topic of their section, so that one request holds what the
// variants say on the same things; consecutive topics share a request up
// to a size, and a topic larger than the budget is split. A last request
// gathers the summaries, totals and counted lists of every variant, where
// conflicts across topics live (a total against its parts, a summary
// against the detail).

// detPart is the statements of one request.
type detPart struct {
	topics  []string
	stmts   []*detStatement
	tokens  int
	final   bool
	related int // statements from other topics that name the same identifiers (see addRelated)
}

// detUnit is one topic's statements.
type detUnit struct {
	title  string
	pos    float64 // place in the variants, 0 … 1, for ordering
	stmts  []*detStatement
	tokens int
}

// packRequests groups the statements by topic and packs the topics into
// parts of at most room tokens, starting a new part once one holds target
// tokens (0: as many as room allows).
func packRequests(in DetectInput, stmts [][]detStatement, room, target int) []detPart {
	if target <= 0 || target > room {
		target = room
	}
	var parts []detPart
	var cur detPart
	flush := func() {
		if len(cur.stmts) > 0 {
			parts = append(parts, cur)
		}
		cur = detPart{}
	}
	for _, u := range topicUnits(in, stmts) {
		if u.tokens > room {
			flush()
			parts = append(parts, splitUnit(in.Documents, u, room)...)
			continue
		}
		if len(cur.stmts) > 0 && cur.tokens+u.tokens > target {
			flush()
		}
		cur.topics = append(cur.topics, u.title)
		cur.stmts = append(cur.stmts, u.stmts...)
		cur.tokens += u.tokens
	}
	flush()
	return parts
}

// topicUnits returns one unit per topic that has statements, in the order
// the topics take in the variants.
func topicUnits(in DetectInput, stmts [][]detStatement) []detUnit {
	docs := in.Documents
	byPlace := make([]map[int]int, len(docs)) // variant → section → unit
	var units []detUnit
	for _, t := range in.Topics {
		u := len(units)
		units = append(units, detUnit{title: t.Title, pos: 2})
		for v, si := range t.Sections {
			if si < 0 || v >= len(docs) {
				continue
			}
			if byPlace[v] == nil {
				byPlace[v] = map[int]int{}
			}
			byPlace[v][si] = u
		}
	}
	unitOf := func(v, si int) int {
		for s := si; s >= 0 && s < len(docs[v].Sections); s = docs[v].Sections[s].Parent {
			if u, ok := byPlace[v][s]; ok {
				return u
			}
		}
		// A section the alignment does not place (or text before the
		// first heading) is a topic of its own.
		key := -2 - si // below every section index
		if u, ok := byPlace[v][key]; ok {
			return u
		}
		if byPlace[v] == nil {
			byPlace[v] = map[int]int{}
		}
		title := fmt.Sprintf("%s: %s", Label(v), sectionPath(docs[v], si))
		units = append(units, detUnit{title: title, pos: 2})
		byPlace[v][key] = len(units) - 1
		return len(units) - 1
	}
	for v := range stmts {
		for i := range stmts[v] {
			s := &stmts[v][i]
			u := unitOf(v, s.section)
			units[u].stmts = append(units[u].stmts, s)
			units[u].pos = min(units[u].pos, float64(s.line)/float64(max(docs[v].Lines, 1)))
		}
	}
	var out []detUnit
	for _, u := range units {
		if len(u.stmts) == 0 {
			continue
		}
		u.tokens = estimateTokens(renderStatements(docs, u.stmts))
		out = append(out, u)
	}
	slices.SortStableFunc(out, func(a, b detUnit) int { return cmp.Compare(a.pos, b.pos) })
	return out
}

// splitUnit cuts a topic too large for one request into parts of at most
// room tokens, at statement boundaries.
func splitUnit(docs []*Document, u detUnit, room int) []detPart {
	var parts []detPart
	var cur []*detStatement
	size := 0
	for _, s := range u.stmts {
		n := estimateTokens(renderStatements(docs, []*detStatement{s}))
		if len(cur) > 0 && size+n > room {
			parts = append(parts, detPart{topics: []string{u.title}, stmts: cur, tokens: size})
			cur, size = nil, 0
		}
		cur = append(cur, s)
		size += n
	}
	if len(cur) > 0 {
		parts = append(parts, detPart{topics: []string{u.title}, stmts: cur, tokens: size})
	}
	for i := range parts {
		parts[i].topics = []string{fmt.Sprintf("%s (part %d of %d)", u.title, i+1, len(parts))}
	}
	return parts
}

var (
	// summarySectionRE matches the titles of sections that sum up.
	summarySectionRE = regexp.MustCompile(`(?i)\b(?:summary|summaries|overview|conclusions?|verdicts?|totals?|scorecard|recommendations?|executive|timeline|critical path|statistics|results|metrics|at a glance|tl;?dr|key findings|outcomes?|estimates?|budget|schedule|milestones?)\b`)
	// detTotalRE matches statements that count or total.
	detTotalRE = regexp.MustCompile(`(?i)\b(?:total|totals|overall|in all|altogether|sum|critical path|\d+\s+(?:of|out of)\s+\d+|all\s+\d+|\d+\s+(?:tasks|items|findings|phases|steps|deltas|issues|bugs|changes|files|tests|days|weeks|hours|requirements|risks|milestones))\b`)
)

// idRE matches item ids and references with digits ("FR-007", "T5.8",
// "§2.5", "NFR-004"): digits that count nothing.
var idRE = regexp.MustCompile(`(?:§|\b[A-Za-z]+[-_.]?)\d+(?:[.-]\d+)*\b`)

// leadIn returns the statement that leads into the list of item s: the
// text before the first item of its list, in the same section.
func leadIn(stmts []detStatement, s *detStatement) *detStatement {
	if s.kind != stmtItem {
		return nil
	}
	for i := len(stmts) - 1; i >= 0; i-- {
		if stmts[i].block >= s.block {
			continue
		}
		p := &stmts[i]
		switch {
		case p.section != s.section:
			return nil
		case p.kind == stmtItem:
			continue
		case p.kind == stmtText:
			return p
		}
		return nil
	}
	return nil
}

// finalPart gathers, within room tokens, the statements where conflicts
// across topics show: first those of summary sections and those that
// total or count, then each variant's opening statements, then the table
// rows and list items with numbers that totals count.
func finalPart(in DetectInput, stmts [][]detStatement, room int) detPart {
	docs := in.Documents
	var tiers [3][]*detStatement
	for v := range stmts {
		for i := range stmts[v] {
			s := &stmts[v][i]
			text := s.fullText()
			switch {
			case s.kind != stmtCode && (summarySectionRE.MatchString(sectionPath(docs[v], s.section)) || detTotalRE.MatchString(text)):
				tiers[0] = append(tiers[0], s)
			case i < 6:
				tiers[1] = append(tiers[1], s)
			case (s.kind == stmtRow || s.kind == stmtItem) && containsDigit(idRE.ReplaceAllString(text, "")):
				tiers[2] = append(tiers[2], s)
			}
		}
	}
	var picked []*detStatement
	taken := map[*detStatement]bool{}
	size := 0
	take := func(s *detStatement) bool {
		if taken[s] {
			return true
		}
		n := estimateTokens(renderStatements(docs, []*detStatement{s})) + 8 // a section line now and then
		if size+n > room {
			return false
		}
		taken[s] = true
		picked = append(picked, s)
		size += n
		return true
	}
	for _, tier := range tiers {
		for _, s := range tier {
			// A list item comes with the sentence that leads into its list.
			if lead := leadIn(stmts[s.variant], s); lead != nil && !take(lead) {
				continue
			}
			take(s)
		}
	}
	slices.SortFunc(picked, func(a, b *detStatement) int {
		return cmp.Or(cmp.Compare(a.variant, b.variant), cmp.Compare(a.block, b.block))
	})
	return detPart{topics: []string{"summaries and totals"}, stmts: picked, tokens: size, final: true}
}

// render writes the part's statements by variant and section.
func (p detPart) render(docs []*Document) string {
	s := slices.Clone(p.stmts)
	slices.SortFunc(s, func(a, b *detStatement) int {
		return cmp.Or(cmp.Compare(a.variant, b.variant), cmp.Compare(a.block, b.block))
	})
	return renderStatements(docs, s)
}

// renderStatements writes statements in the given order, with a heading
// line wherever the variant or section changes.
func renderStatements(docs []*Document, stmts []*detStatement) string {
	var b strings.Builder
	lastV, lastS := -1, -2
	for _, s := range stmts {
		if s.variant != lastV || s.section != lastS {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			d := docs[s.variant]
			line := ""
			if s.section >= 0 && s.section < len(d.Sections) {
				line = fmt.Sprintf(" (L%d)", d.Sections[s.section].Line)
			}
			fmt.Fprintf(&b, "## %s %s%s\n", Label(s.variant), sectionPath(d, s.section), line)
			lastV, lastS = s.variant, s.section
		}
		s.render(&b)
	}
	return b.String()
}

// describe names the topics of a part for the request's opening line.
func (p detPart) describe() string {
	const most = 8
	ts := p.topics
	more := ""
	if len(ts) > most {
		more = fmt.Sprintf(" and %d more", len(ts)-most)
		ts = ts[:most]
	}
	quoted := make([]string, len(ts))
	for i, t := range ts {
		quoted[i] = fmt.Sprintf("%q", t)
	}
	noun := "topic"
	if len(p.topics) > 1 {
		noun = "topics"
	}
	return fmt.Sprintf("the %s %s%s, as each variant covers them", noun, strings.Join(quoted, ", "), more)
}
