package debate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/lexicon"
)

// defaultMargins are the heuristic advocate's loyalty margins for rounds
// 1, 2 and 3: how much better (on a 0–1 scale) another variant must measure
// on a point before the advocate concedes it.
var defaultMargins = [3]float64{0.25, 0.12, 0.04}

// HeuristicAdvocate is the offline, deterministic [Advocate]. It measures
// every variant's answer to every diff point — section coverage and
// specificity (concrete against vague statements), requirement ids,
// structure, internal consistency from the diff step's contradiction
// detectors, corroboration of contradicted claims by other variants — and
// argues for its own variant with those measures, quoting real lines of
// the variants as evidence.
//
// On a point where its variant takes a position it prefers its own variant
// unless another measures better by more than the round's margin (halved
// for points criticised in earlier rounds); the margins narrow each round,
// so debates converge. On a point its variant has no stake in it prefers
// the best-measured variant. Every advocate of a debate computes the same
// measures, so concessions always go to the same variant and agreement
// can only grow from round to round.
//
// The zero value uses the margins 0.25, 0.12 and 0.04 for rounds 1, 2
// and 3. A HeuristicAdvocate is safe for
// concurrent use and may serve several variants.
type HeuristicAdvocate struct {
	margins    [3]float64
	marginsSet bool
}

// HeuristicOption configures a [HeuristicAdvocate].
type HeuristicOption func(*HeuristicAdvocate)

// WithMargins sets the loyalty margins of rounds 1, 2 and 3: how much
// better (on a 0–1 scale) another variant must measure on a point before
// the advocate concedes it. The defaults are 0.25, 0.12 and 0.04; negative
// values count as 0.
func WithMargins(round1, round2, round3 float64) HeuristicOption {
	return func(h *HeuristicAdvocate) {
		h.margins = [3]float64{max(round1, 0), max(round2, 0), max(round3, 0)}
		h.marginsSet = true
	}
}

// NewHeuristicAdvocate returns a heuristic advocate.
func NewHeuristicAdvocate(opts ...HeuristicOption) *HeuristicAdvocate {
	h := &HeuristicAdvocate{}
	for _, o := range opts {
		o(h)
	}
	return h
}

var _ Advocate = (*HeuristicAdvocate)(nil)

func (h *HeuristicAdvocate) margin(round int) float64 {
	m := defaultMargins
	if h.marginsSet {
		m = h.margins
	}
	return m[min(max(round, 1), 3)-1]
}

// Argue implements [Advocate].
func (h *HeuristicAdvocate) Argue(ctx context.Context, turn Turn) (Statement, error) {
	if err := ctx.Err(); err != nil {
		return Statement{}, err
	}
	if turn.Analysis == nil {
		return Statement{}, fmt.Errorf("adversarial: heuristic advocate: turn has no analysis")
	}
	for _, v := range turn.Variants() {
		if v.Doc == nil {
			return Statement{}, fmt.Errorf("adversarial: heuristic advocate: variant %s has no document", v.Label)
		}
	}
	// Every advocate of a debate measures the same; the debate's memo
	// lets them measure once.
	a := debateAssessment(turn)
	g := &argument{turn: turn, a: a, self: turn.Self.Label}
	g.positions(h.margin(turn.Round))
	st := Statement{Positions: g.pos}
	switch turn.Round {
	case 1:
		g.opening(&st)
	case 2:
		g.rebuttal(&st)
	default:
		g.closing(&st)
	}
	return st, nil
}

// debateAssessment is assess(turn), once per debate: it depends on the
// debate's variants and points, not on whose turn it is (see
// warmBackground, which computes it while the first calls are in flight).
func debateAssessment(turn Turn) assessment {
	a, _ := memoGet(turn.memo, "heuristic-assessment", func() (assessment, error) { return assess(turn), nil })
	return a
}

// argument builds one heuristic statement.
type argument struct {
	turn Turn
	a    assessment
	self string
	pos  []PointPosition
}

func (g *argument) positions(margin float64) {
	criticised := map[string]bool{}
	for _, c := range g.turn.Criticisms {
		criticised[c.Point] = true
	}
	g.pos = make([]PointPosition, 0, len(g.a.points))
	for i := range g.a.points {
		pm := &g.a.points[i]
		own, best := pm.marks.get(g.self), pm.best
		m := margin
		if criticised[pm.point.ID] {
			m /= 2 // a criticism backed by evidence is taken seriously
		}
		prefer, concede := g.self, false
		switch {
		case !own.involved:
			prefer = best // no stake: judge on the measures alone
		case best != g.self && pm.marks.get(best).score-own.score > m:
			prefer, concede = best, true
		}
		ev := pm.bestRef
		if prefer != best {
			// Only a defended point prefers another than the best variant
			// (no stake and a concession both go to the best): its own
			// mark's ref, then
			// fmt.Sprintf("; Variant %s measures %.2f against %.2f, within
			// the round-%d margin of %.2f", …), written into one buffer
			// without fmt: a defended point in every advocate's every
			// turn.
			pref := pm.marks.get(prefer)
			var w refWriter
			w.grow(pref.refLen(prefer) + 96 + len(best))
			pref.writeRef(&w, prefer)
			w.str("; Variant ")
			w.str(best)
			w.str(" measures ")
			w.float(pm.marks.get(best).score)
			w.str(" against ")
			w.float(own.score)
			w.str(", within the round-")
			w.int(g.turn.Round)
			w.str(" margin of ")
			w.float(m)
			ev = w.String()
		}
		g.pos = append(g.pos, PointPosition{Point: pm.point.ID, Prefer: prefer, Concede: concede,
			Confidence: confidence(pm, prefer), Evidence: ev})
	}
}

// confidence grows with the lead of the preferred variant over the best
// other one: 55 at a tie, 95 at a lead of 0.5 or more, 50 when defending a
// variant that measures worse.
func confidence(pm *pointMarks, prefer string) int {
	other := -1.0
	for k, l := range pm.marks.labels {
		m := pm.marks.at(k)
		if l != prefer {
			other = math.Max(other, m.score)
		}
	}
	gap := pm.marks.get(prefer).score - math.Max(other, 0)
	return min(max(int(math.Round(55+80*gap)), 50), 95)
}

func (g *argument) position(point string) PointPosition {
	if i, ok := g.pointIndex()[point]; ok && i < len(g.pos) && g.pos[i].Point == point {
		return g.pos[i] // pos follows the assessment's points
	}
	for _, p := range g.pos {
		if p.Point == point {
			return p
		}
	}
	return PointPosition{}
}

// counts returns the points the advocate leads (its variant measures best),
// defends (prefers its own variant although another measures better) and
// concedes.
func (g *argument) counts() (leads, defends, concedes []string) {
	// Counted first, then listed into lists of their size: an advocate
	// may lead on thousands of points.
	var n [3]int
	kind := func(i int) int {
		pm, p := &g.a.points[i], &g.pos[i]
		switch {
		case p.Concede:
			return 2
		case p.Prefer == g.self && pm.best == g.self:
			return 0
		case p.Prefer == g.self:
			return 1
		}
		return -1
	}
	for i := range g.a.points {
		if k := kind(i); k >= 0 {
			n[k]++
		}
	}
	lists := [3][]string{}
	for k := range lists {
		if n[k] > 0 {
			lists[k] = make([]string, 0, n[k])
		}
	}
	for i := range g.a.points {
		if k := kind(i); k >= 0 {
			lists[k] = append(lists[k], g.a.points[i].point.ID)
		}
	}
	return lists[0], lists[1], lists[2]
}

// opening is round 1: position, steelman of each opponent, strengths,
// weaknesses of the others, concessions.
func (g *argument) opening(st *Statement) {
	leads, defends, concedes := g.counts()
	d := g.turn.Self.Doc
	if len(g.a.points) == 0 {
		st.Position = fmt.Sprintf("No diff point is under debate; Variant %s stands on its %d sections and %d words as written.",
			g.self, len(d.Sections), d.Words)
	} else {
		st.Position = fmt.Sprintf("Variant %s measures best on %d of %d diff points%s, defends %d more and concedes %d.",
			g.self, len(leads), len(g.a.points), idList(leads, 4), len(defends), len(concedes))
		if top, ok := g.strongest(g.self, leads); ok {
			st.Position += fmt.Sprintf(" Its strongest ground is %s (%s): %s.", top.point.ID, clip(top.point.Title, 80), top.marks.get(g.self).measure)
		}
	}
	for _, o := range g.turn.Others {
		st.Steelman = append(st.Steelman, Steelman{Variant: o.Label, Argument: g.steelman(o)})
	}
	type lead struct {
		pm  *pointMarks
		gap float64
	}
	var ls []lead
	for i := range g.a.points {
		pm := &g.a.points[i]
		if pm.best == g.self && pm.marks.get(g.self).involved {
			ls = append(ls, lead{pm, pm.marks.get(g.self).score - runnerUp(pm, g.self)})
		}
	}
	for _, l := range topStable(ls, 5, func(l lead) float64 { return l.gap }) {
		own := l.pm.marks.get(g.self)
		st.Strengths = append(st.Strengths, Claim{Point: l.pm.point.ID,
			Text: fmt.Sprintf("%s: %s", clip(l.pm.point.Title, 80), own.measure), Evidence: own.cite(g.self)})
	}
	for _, o := range g.turn.Others {
		st.Weaknesses = append(st.Weaknesses, g.weaknesses(o.Label)...)
	}
	st.Concessions = g.concessions(nil)
}

// strongest returns, among the points ids, the one where label leads the
// others by most (the first such point in the debate's order). The ids
// are looked up in a set: an advocate may lead on thousands of points,
// and a scan of them per point made the opening quadratic.
func (g *argument) strongest(label string, ids []string) (*pointMarks, bool) {
	in := make(map[string]bool, len(ids))
	for _, id := range ids {
		in[id] = true
	}
	var best *pointMarks
	bestGap, found := math.Inf(-1), false
	for i := range g.a.points {
		pm := &g.a.points[i]
		if !in[pm.point.ID] {
			continue
		}
		if gap := pm.marks.get(label).score - runnerUp(pm, label); gap > bestGap {
			best, bestGap, found = pm, gap, true
		}
	}
	return best, found
}

// steelman states the strongest case for an opponent: the point where it
// measures best against this advocate's own variant.
func (g *argument) steelman(o Variant) string {
	var best *pointMarks
	bestGap, found := math.Inf(-1), false
	for i := range g.a.points {
		pm := &g.a.points[i]
		m := pm.marks.get(o.Label)
		if !m.involved || m.score == 0 {
			continue
		}
		if gap := m.score - pm.marks.get(g.self).score; gap > bestGap {
			best, bestGap, found = pm, gap, true
		}
	}
	if !found {
		return fmt.Sprintf("Variant %s is a complete document in its own right: %d sections and %d words, organised its own way.",
			o.Label, len(o.Doc.Sections), o.Doc.Words)
	}
	m := best.marks.get(o.Label)
	s := fmt.Sprintf("The strongest case for Variant %s is %s (%s): %s.", o.Label, best.point.ID, clip(best.point.Title, 80), m.ref(o.Label))
	if bestGap > 0 {
		return s + " Its approach genuinely gets this right, better than ours."
	}
	return s + " Its approach is defensible here, even if ours measures at least as well."
}

// weaknesses lists up to three points where an opponent measures clearly
// worse than this advocate's variant.
func (g *argument) weaknesses(o string) []Criticism {
	type gap struct {
		pm *pointMarks
		d  float64
	}
	var gs []gap
	for i := range g.a.points {
		pm := &g.a.points[i]
		om, mine := pm.marks.get(o), pm.marks.get(g.self)
		if om.involved && mine.involved && mine.score-om.score >= 0.15 {
			gs = append(gs, gap{pm, mine.score - om.score})
		}
	}
	var out []Criticism
	for _, x := range topStable(gs, 3, func(x gap) float64 { return x.d }) {
		om, mine := x.pm.marks.get(o), x.pm.marks.get(g.self)
		out = append(out, Criticism{Against: o, Point: x.pm.point.ID,
			Text:     fmt.Sprintf("%s — Variant %s: %s; Variant %s: %s", clip(x.pm.point.Title, 80), o, om.measure, g.self, mine.measure),
			Evidence: om.cite(o)})
	}
	return out
}

// concessions words the points conceded, leaving out those in already.
func (g *argument) concessions(already map[string]bool) []string {
	var out []string
	for i := range g.a.points {
		pm := &g.a.points[i]
		p := g.pos[i]
		if !p.Concede || already[p.Point] {
			continue
		}
		// Concatenated, not fmt: an advocate may concede hundreds of points.
		out = append(out, pm.point.ID+" ("+clip(pm.point.Title, 80)+"): Variant "+p.Prefer+" is measurably stronger — Variant "+
			p.Prefer+": "+pm.marks.get(p.Prefer).measure+"; Variant "+g.self+": "+pm.marks.get(g.self).measure+".")
	}
	return out
}

// previous returns the points this advocate conceded in its latest earlier
// statement.
func (g *argument) previous() map[string]bool {
	out := map[string]bool{}
	for i := len(g.turn.Transcript) - 1; i >= 0; i-- {
		st := g.turn.Transcript[i]
		if st.Variant != g.self {
			continue
		}
		for _, p := range st.Positions {
			if p.Concede {
				out[p.Point] = true
			}
		}
		break
	}
	return out
}

// rebuttal is round 2: an answer to each criticism, the updated
// assessment, new evidence and new concessions.
func (g *argument) rebuttal(st *Statement) {
	for i, c := range g.turn.Criticisms {
		r := Response{Criticism: i + 1}
		pm, ok := g.marksFor(c.Point)
		switch {
		case ok && g.position(c.Point).Concede:
			p := g.position(c.Point)
			r.Conceded = true
			r.Reply = fmt.Sprintf("the criticism is valid; Variant %s measures better here (%s; Variant %s: %s).",
				p.Prefer, pm.marks.get(p.Prefer).measure, g.self, pm.marks.get(g.self).measure)
		case ok:
			mine := pm.marks.get(g.self)
			r.Reply = fmt.Sprintf("counter-evidence %s (%s); Variant %s measures %.2f here against %.2f for Variant %s, not enough to concede.",
				mine.cite(g.self), mine.measure, g.self, mine.score, pm.marks.get(c.From).score, c.From)
		default:
			r.Reply = fmt.Sprintf("The criticism names no diff point; Variant %s's measured answers to the points under debate stand.", g.self)
		}
		st.Responses = append(st.Responses, r)
	}
	leads, defends, concedes := g.counts()
	st.Position = fmt.Sprintf("After the round-1 statements Variant %s still measures best on %d points, defends %d and concedes %d%s.",
		g.self, len(leads), len(defends), len(concedes), idList(concedes, 6))
	if top := g.topVariant(); top != "" {
		st.Position += fmt.Sprintf(" Variant %s measures best on the most points.", top)
	}
	for _, id := range defends {
		if len(st.NewEvidence) == 3 {
			break
		}
		if c, ok := g.moreEvidence(id); ok {
			st.NewEvidence = append(st.NewEvidence, c)
		}
	}
	st.Concessions = g.concessions(g.previous())
}

// closing is round 3: the final position, the disagreements that remain
// and the final concessions.
func (g *argument) closing(st *Statement) {
	leads, defends, concedes := g.counts()
	st.Position = fmt.Sprintf("Final position: Variant %s is superior on %d of %d diff points (%d measured best, %d defended) and concedes %d.",
		g.self, len(leads)+len(defends), len(g.a.points), len(leads), len(defends), len(concedes))
	for _, id := range g.turn.Unresolved {
		pm, ok := g.marksFor(id)
		if !ok || g.position(id).Prefer != g.self {
			continue
		}
		mine := pm.marks.get(g.self)
		st.Remaining = append(st.Remaining, Claim{Point: id,
			Text: fmt.Sprintf("%s: Variant %s still holds (%s)", clip(pm.point.Title, 80), g.self, mine.measure), Evidence: mine.cite(g.self)})
	}
	st.Concessions = g.concessions(g.previous())
}

func (g *argument) marksFor(point string) (*pointMarks, bool) {
	if i, ok := g.pointIndex()[point]; ok {
		return &g.a.points[i], true
	}
	return nil, false
}

// pointIndex maps each point's id to its place in the assessment (and in
// pos): the rebuttal and the closing look points up by id, once per
// point they defend or leave unresolved — thousands in a large document,
// where a scan per look-up made the turn quadratic. Every turn of the
// debate reads the same assessment, which keeps the map.
func (g *argument) pointIndex() map[string]int {
	x := g.a.index
	if x == nil { // an assessment made outside assess
		x = &pointIndex{}
		g.a.index = x
	}
	x.once.Do(func() {
		x.m = make(map[string]int, len(g.a.points))
		for i := range g.a.points {
			if _, dup := x.m[g.a.points[i].point.ID]; !dup {
				x.m[g.a.points[i].point.ID] = i // the first, as a scan finds it
			}
		}
	})
	return x.m
}

// topVariant returns the variant that measures best on the most points
// (the first in input order on a tie).
func (g *argument) topVariant() string {
	n := map[string]int{}
	for i := range g.a.points {
		pm := &g.a.points[i]
		n[pm.best]++
	}
	top := ""
	for _, l := range g.a.labels {
		if n[l] > n[top] {
			top = l
		}
	}
	return top
}

// moreEvidence quotes a second line of the section the advocate's variant
// answers a content point with: the most concrete line not quoted before.
func (g *argument) moreEvidence(point string) (Claim, bool) {
	pm, ok := g.marksFor(point)
	idx := variantIndex(g.turn.Analysis, g.self)
	if !ok || pm.point.Category != diff.CategoryContent || idx >= len(pm.point.Positions) {
		return Claim{}, false
	}
	si := pm.point.Positions[idx].Section
	d := g.turn.Self.Doc
	if si < 0 || si >= len(d.Sections) {
		return Claim{}, false
	}
	quoted := pm.marks.get(g.self).line
	best, bestConcrete := diff.Block{}, -1
	for _, b := range d.BlocksIn(d.Sections[si].Span) {
		if b.Kind == diff.Code || b.Line == quoted {
			continue
		}
		if c := lexicon.ConcreteCount(b.Text); c > bestConcrete {
			best, bestConcrete = b, c
		}
	}
	if bestConcrete < 0 {
		return Claim{}, false
	}
	return Claim{Point: point, Text: fmt.Sprintf("Further support for %s (%d concrete)", clip(pm.point.Title, 80), bestConcrete),
		Evidence: fmt.Sprintf("“%s” (Variant %s, §%s, L%d)", quoteOf(d.Text(best.Span)), g.self, sectionRef(d, si), best.Line)}, true
}

// runnerUp returns the best score among the variants other than label.
func runnerUp(pm *pointMarks, label string) float64 {
	best := 0.0
	for k, l := range pm.marks.labels {
		m := pm.marks.at(k)
		if l != label {
			best = math.Max(best, m.score)
		}
	}
	return best
}

// topStable returns the k items of largest key, largest first and ties
// in their order in items: the first k of a stable sort by descending
// key, found in one pass. An advocate may lead on thousands of points
// and names five; sorting them all made its opening grow faster than
// the points.
func topStable[T any](items []T, k int, key func(T) float64) []T {
	out := make([]T, 0, k+1)
	for _, it := range items {
		v := key(it)
		i := len(out)
		for i > 0 && cmpFloatDesc(key(out[i-1]), v) > 0 {
			i--
		}
		if i >= k {
			continue
		}
		out = slices.Insert(out, i, it)
		if len(out) > k {
			out = out[:k]
		}
	}
	return out
}

func cmpFloatDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// idList formats " (S-001, C-002, …)" with at most n ids, or "".
func idList(ids []string, n int) string {
	if len(ids) == 0 {
		return ""
	}
	if len(ids) > n {
		return " (" + strings.Join(ids[:n], ", ") + ", …)"
	}
	return " (" + strings.Join(ids, ", ") + ")"
}

func clip(s string, n int) string {
	// One pass that stops past the n-th rune, cutting at the (n-1)-th
	// without converting the text to runes: the transcript clips a quote
	// or a summary for every point.
	count, cut := 0, 0
	for i, r := range s {
		if count < n-1 && r == utf8.RuneError {
			return clipRunes(s, n) // a byte that is not UTF-8 becomes U+FFFD, as the conversion makes it
		}
		if count == n-1 {
			cut = i
		}
		if count++; count > n {
			return s[:cut] + "…"
		}
	}
	return s
}

// clipRunes is clip by converting s to runes.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
