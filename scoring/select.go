package scoring

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
)

// epsilon absorbs float noise when a margin is compared with a threshold.
const epsilon = 1e-9

// rank orders the variants by final score, highest first; equal scores
// keep input order.
func (s *Scorecard) rank() {
	idx := make([]int, len(s.Variants))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return s.Variants[idx[a]].Final > s.Variants[idx[b]].Final })
	s.Ranking = s.Ranking[:0]
	for _, i := range idx {
		s.Ranking = append(s.Ranking, s.Variants[i].Label)
	}
}

// applyFloor marks, with the sixth dimension, the variants that meet none
// of its criteria; when none meets any the rule is suspended.
func (s *Scorecard) applyFloor() {
	if !s.Rubric.has(Invariants) {
		return
	}
	below := 0
	for i := range s.Variants {
		if s.Variants[i].Qual.Tally(Invariants).Met < 1 {
			s.Variants[i].BelowFloor = true
			below++
		}
	}
	if below == len(s.Variants) {
		for i := range s.Variants {
			s.Variants[i].BelowFloor = false
		}
		s.Warnings = append(s.Warnings, "Floor rule suspended: no variant meets any Invariant & Edge Case Coverage criterion")
	}
}

// eligible returns the ranking without the variants below the floor.
func (s *Scorecard) eligible() []*VariantScore {
	var out []*VariantScore
	for _, l := range s.Ranking {
		if v, _ := s.Variant(l); !v.BelowFloor {
			out = append(out, v)
		}
	}
	return out
}

// index returns the input position of a label.
func (s *Scorecard) index(label string) int {
	for i, v := range s.Variants {
		if v.Label == label {
			return i
		}
	}
	return -1
}

// breakTie compares the top two eligible variants and applies the
// tiebreaker when they are within 5%: level 1 debate points won (decisive
// only when the counts differ by at least 5%), level 2 correctness
// criteria met, level 3 input order.
func (s *Scorecard) breakTie() {
	el := s.eligible()
	a := el[0]
	t := Tiebreak{Leader: a.Label, Winner: a.Label}
	if len(el) < 2 {
		t.Evidence = fmt.Sprintf("Variant %s is the only variant above the floor", a.Label)
		s.Tiebreak = t
		return
	}
	b := el[1]
	t.RunnerUp = b.Label
	t.Margin = a.Final - b.Final
	t.Under = t.Margin < TieThreshold-epsilon
	if !t.Under {
		t.Evidence = fmt.Sprintf("Highest final score: %.3f against %.3f", a.Final, b.Final)
		s.Tiebreak = t
		return
	}
	pick := func(level int, w *VariantScore, evidence string) {
		t.Level, t.Winner, t.Evidence = level, w.Label, evidence
	}
	wa, wb := a.Won, b.Won
	ca, cb := a.Qual.Tally(Correctness).Met, b.Qual.Tally(Correctness).Met
	switch {
	case s.Debated && wa != wb && float64(abs(wa-wb)) >= TieThreshold*float64(max(wa, wb)):
		w, l := a, b
		if wb > wa {
			w, l = b, a
		}
		pick(1, w, fmt.Sprintf("Debate performance: Variant %s won %d diff %s, Variant %s %d", w.Label, w.Won, plural(w.Won, "point", "points"), l.Label, l.Won))
	case ca != cb:
		w, l, cw, cl := a, b, ca, cb
		if cb > ca {
			w, l, cw, cl = b, a, cb, ca
		}
		pick(2, w, fmt.Sprintf("Correctness: Variant %s met %d correctness criteria, Variant %s %d", w.Label, cw, l.Label, cl))
	default:
		w := a
		if s.index(b.Label) < s.index(a.Label) {
			w = b
		}
		pick(3, w, fmt.Sprintf("Input order: Variant %s comes first (debate points %d–%d and correctness %d–%d did not separate them)",
			w.Label, wa, wb, ca, cb))
	}
	s.Tiebreak = t
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// selectBase records the selection the scores make.
func (s *Scorecard) selectBase() {
	base, _ := s.Variant(s.Tiebreak.Winner)
	s.Selection = Selection{Base: base.Label, Agent: base.Agent, Scored: base.Label, Approval: AutoApproved,
		Rationale: s.rationale(base)}
	s.fillStrengths()
}

// Override makes label the base in place of the scored selection — what
// the interactive checkpoint after base selection may do — and records the
// approval as user-overridden. The rationale keeps the scored selection's
// evidence, and the strengths are recomputed for the new base. Choosing the
// scored selection restores it, auto-approved.
func (s *Scorecard) Override(label string) error {
	v, ok := s.Variant(label)
	if !ok {
		return fmt.Errorf("scoring: base override: %w %q", ErrUnknownVariant, label)
	}
	if label == s.Selection.Scored {
		if s.Selection.Base != label {
			s.selectBase() // back to the scored selection
		}
		return nil
	}
	scored, _ := s.Variant(s.Selection.Scored)
	note := fmt.Sprintf("The host overrode the selection: %s becomes the base (final score %.3f) in place of %s (%.3f), which the scores selected.",
		v.Spec(), v.Final, scored.Spec(), scored.Final)
	if v.BelowFloor {
		note += fmt.Sprintf(" %s is below the floor rule.", v.Spec())
	}
	s.Selection = Selection{Base: v.Label, Agent: v.Agent, Scored: scored.Label, Approval: UserOverridden,
		Rationale: append([]string{note}, s.rationale(scored)...)}
	s.fillStrengths()
	return nil
}

// fillStrengths splits the strengths into those of the base and those of
// the others.
func (s *Scorecard) fillStrengths() {
	base, _ := s.Variant(s.Selection.Base)
	s.Selection.Preserve = append(append([]Strength(nil), base.Strengths...), s.scoreStrengths(base)...)
	s.Selection.Incorporate = nil
	for _, v := range s.Variants {
		if v.Label != base.Label {
			s.Selection.Incorporate = append(s.Selection.Incorporate, v.Strengths...)
		}
	}
}

// scoreStrengths lists the metrics and dimensions on which v scores
// highest, where the variants differ.
func (s *Scorecard) scoreStrengths(v *VariantScore) []Strength {
	var out []Strength
	add := func(desc string) {
		out = append(out, Strength{Variant: v.Label, Kind: FromScore, Section: -1, Description: desc})
	}
	for mi, m := range v.Quant.Metrics() {
		top, low := true, false
		for _, o := range s.Variants {
			om := o.Quant.Metrics()[mi]
			top = top && m.Score >= om.Score-epsilon
			low = low || om.Score < m.Score-epsilon
		}
		if top && low {
			add(fmt.Sprintf("Top %s: %.2f (%s)", m.Name, m.Score, m.Detail))
		}
	}
	for _, d := range v.Qual.Dimensions {
		top, low := true, false
		for _, o := range s.Variants {
			om := o.Qual.Tally(d.ID).Met
			top = top && d.Met >= om
			low = low || om < d.Met
		}
		if top && low {
			add(fmt.Sprintf("Top %s: %d/%d criteria met", d.Name, d.Met, d.Total))
		}
	}
	return out
}

// rationale explains why the scores select v.
func (s *Scorecard) rationale(v *VariantScore) []string {
	var out []string
	t := s.Tiebreak
	if t.Level == 0 {
		line := fmt.Sprintf("%s has the highest final score, %.3f (quantitative %.3f, qualitative %.3f = %d/%d criteria met).",
			v.Spec(), v.Final, v.Quant.Score, v.Qual.Score, v.Qual.Met, v.Qual.Total)
		if t.RunnerUp != "" {
			r, _ := s.Variant(t.RunnerUp)
			line += fmt.Sprintf(" It leads %s (%.3f) by %s, above the 5%% tiebreaker threshold.", r.Spec(), r.Final, percent(t.Margin))
		}
		out = append(out, line)
	} else {
		out = append(out, fmt.Sprintf("Variants %s and %s finished within 5%% of each other (margin %s), so the tiebreaker applied; level %d (%s) selected %s with final score %.3f. %s.",
			t.Leader, t.RunnerUp, percent(t.Margin), t.Level, levelName(t.Level), v.Spec(), v.Final, t.Evidence))
	}
	var best []string
	for _, m := range v.Quant.Metrics() {
		if m.Score >= 0.8 {
			best = append(best, fmt.Sprintf("%s %.2f (%s)", m.Name, m.Score, m.Detail))
		}
	}
	if len(best) > 0 {
		out = append(out, "Quantitative strengths: "+strings.Join(best, "; ")+".")
	}
	var dims []string
	for _, d := range v.Qual.Dimensions {
		dims = append(dims, fmt.Sprintf("%s %d/%d", d.Name, d.Met, d.Total))
	}
	out = append(out, fmt.Sprintf("Rubric: %d/%d criteria met (%s).", v.Qual.Met, v.Qual.Total, strings.Join(dims, ", ")))
	if s.Debated {
		line := fmt.Sprintf("Debate: won %d diff %s", v.Won, plural(v.Won, "point", "points"))
		if s.DebateOutcome != "" {
			line += "; " + s.DebateOutcome
		}
		out = append(out, line+".")
	} else {
		out = append(out, "Debate: no debate outcomes were available, so no debate points counted.")
	}
	var floor []string
	for _, o := range s.Variants {
		if o.BelowFloor {
			floor = append(floor, "Variant "+o.Label)
		}
	}
	if len(floor) > 0 {
		out = append(out, fmt.Sprintf("Floor rule: %s met no Invariant & Edge Case Coverage criterion and could not be the base.", strings.Join(floor, ", ")))
	}
	return out
}

func levelName(l int) string {
	switch l {
	case 1:
		return "debate performance"
	case 2:
		return "correctness criteria count"
	case 3:
		return "input order"
	}
	return "none"
}

// percent renders a score difference as a percentage: 0.0312 → "3.12%".
func percent(x float64) string {
	return fmt.Sprintf("%.2f%%", math.Round(x*10000)/100)
}

// strengths lists what variant i did well: the diff points it won in the
// debate (those the analysis says concern it), then its unique
// contributions rated Medium or High that the debate did not already award
// it. The analysis must list the variants
// in the same order as the input.
func strengths(v Variant, i int, in Input) []Strength {
	var out []Strength
	seen := map[string]bool{}
	locate := func(st *Strength, p diff.Point) {
		st.Rating = string(p.Rating)
		if i < len(p.Positions) {
			st.Section = p.Positions[i].Section
		}
		if st.Section >= 0 && st.Section < len(v.Doc.Sections) {
			sec := v.Doc.Sections[st.Section]
			st.SectionNumber, st.SectionTitle = sec.Number, sec.Title
			if _, _, _, ok := refs.HeadingNumber(sec.Title); ok {
				st.SectionNumber = "" // the title carries its own number
			}
		} else {
			st.Section = -1
		}
	}
	if in.Debate != nil {
		point := pointsByID(in.Analysis)
		for _, p := range in.Debate.Points {
			if p.Winner != v.Label {
				continue
			}
			seen[p.Point] = true
			st := Strength{Variant: v.Label, Kind: FromDebate, Point: p.Point, Section: -1, Confidence: p.Confidence,
				Round: p.Round, Description: p.Evidence}
			if in.Analysis != nil {
				if pt, ok := point(p.Point); ok {
					if len(pt.Variants) > 0 && !slices.Contains(pt.Variants, i) {
						// Winning a point about another variant's text (that
						// its unique section is not needed, say) is no
						// strength of one's own to carry over.
						continue
					}
					locate(&st, pt)
					st.Description = pointDescription(pt, i, p.Evidence)
				}
			}
			out = append(out, st)
		}
	}
	if in.Analysis != nil {
		for _, p := range in.Analysis.ByCategory(diff.CategoryUnique) {
			if seen[p.ID] || len(p.Variants) != 1 || p.Variants[0] != i || p.Rating.Rank() < diff.Medium.Rank() {
				continue
			}
			st := Strength{Variant: v.Label, Kind: FromUnique, Point: p.ID, Section: -1}
			locate(&st, p)
			st.Description = pointDescription(p, i, p.Reason)
			out = append(out, st)
		}
	}
	return out
}

// pointsByID is a.Point by a map: a debate of thousands of points looks
// each up, and a.Point scans them all.
func pointsByID(a *diff.Analysis) func(id string) (diff.Point, bool) {
	if a == nil {
		return func(string) (diff.Point, bool) { return diff.Point{}, false }
	}
	at := make(map[string]int, len(a.Points))
	for i, p := range a.Points {
		if _, ok := at[p.ID]; !ok {
			at[p.ID] = i
		}
	}
	return func(id string) (diff.Point, bool) {
		i, ok := at[id]
		if !ok {
			return diff.Point{}, false
		}
		return a.Points[i], true
	}
}

// pointDescription describes what the variant does on a diff point. A
// title that opens with its section ("§3 Caching: …") loses that prefix:
// the strength names its section itself.
func pointDescription(p diff.Point, i int, why string) string {
	d := p.Title
	if strings.HasPrefix(d, "§") {
		if _, rest, ok := strings.Cut(d, ": "); ok {
			d = rest
		}
	}
	if i < len(p.Positions) && p.Positions[i].Text != "" && !strings.Contains(p.Title, p.Positions[i].Text) {
		d += " — " + p.Positions[i].Text
	}
	if why = strings.TrimSpace(why); why != "" {
		d += " (" + strings.TrimSuffix(why, ".") + ")"
	}
	return d
}
