package adversarial

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/scoring"
)

// Step 4: the refactoring plan (package merge) → refactor-plan.md, from
// the debate's decisions and the scoring's strengths.

func (x *run) stepPlan(ctx context.Context) error {
	base := x.baseIndex()
	x.res.BaseVariant = x.baseName(base)
	if c := x.in.Resume; c != nil && c.Plan != nil {
		x.res.Steps.Plan = c.Plan
		x.skipped(StagePlan, "resumed from the checkpoint")
		return x.emit(ctx, RefactorPlanFile, []byte(c.Plan.Markdown()))
	}
	x.res.FailureStage = StagePlan
	ctx = x.started(ctx, StagePlan)
	in := merge.PlanInput{Base: merge.Variant{Label: label(base), Agent: x.agentOf(base), Doc: x.docs[base]}}
	for i, d := range x.docs {
		if i != base {
			in.Variants = append(in.Variants, merge.Variant{Label: label(i), Agent: x.agentOf(i), Doc: d})
		}
	}
	if r := x.latestRevision(); r >= 0 {
		in.LaterRevision = label(r)
	}
	var byValue map[string]bool
	if a := x.res.Steps.Analysis; a != nil {
		in.Alignment = x.planAlignment(a)
		in.Conflicts, byValue = x.planConflicts(a, x.res.Steps.Debate, base)
	}
	if d := x.res.Steps.Debate; d != nil {
		in.Decisions = x.planDecisions(d, base, byValue)
	}
	if card := x.res.Steps.Scorecard; card != nil {
		in.Strengths = x.planStrengths(card.Selection.Incorporate)
	}
	plan, err := merge.NewPlan(in, merge.WithClock(x.r.clock), merge.WithLogger(x.r.logger))
	if err != nil {
		return err
	}
	if x.in.Interactive {
		reviewer := merge.ReviewerFunc(func(ctx context.Context, p merge.Plan) (merge.Verdict, error) {
			q, err := x.r.checkpoints.AfterPlan(ctx, p)
			return merge.Verdict{Plan: q}, err
		})
		if plan, err = merge.Review(ctx, plan, reviewer, merge.WithClock(x.r.clock)); err != nil {
			return fmt.Errorf("checkpoint after refactoring plan: %w", err)
		}
	}
	x.res.Steps.Plan = &plan
	if w := plan.Warning(); w != "" {
		x.warn(strings.ToUpper(w[:1]) + w[1:])
	}
	x.stageDone()
	x.finished(StagePlan, fmt.Sprintf("%d changes planned", len(plan.Changes)))
	return x.emitLater(ctx, RefactorPlanFile, plan.Markdown)
}

// planDecisions converts the scoring matrix, with the sections each point
// concerns in the base and in the winner.
//
// A point that stands for a labelled-field disagreement is settled by its
// value (the resolved conflict edits the text that states it), not by
// taking the winner's whole section: the section that states a verdict in
// a summary table is no substitute for the base's section there.
func (x *run) planDecisions(d *debate.Result, base int, byValue map[string]bool) []merge.Decision {
	a := x.res.Steps.Analysis
	at := make(map[string]int, len(a.Points)) // a.Point, without a scan per decision
	for i, p := range a.Points {
		if _, ok := at[p.ID]; !ok {
			at[p.ID] = i
		}
	}
	var out []merge.Decision
	if len(d.Decisions) > 0 {
		out = make([]merge.Decision, 0, len(d.Decisions)) // one each at most, without growing
	}
	for _, dec := range d.Decisions {
		i, ok := at[dec.Point]
		if !ok {
			continue
		}
		p := a.Points[i]
		md := merge.Decision{Point: dec.Point, Topic: p.Title, Winner: dec.Winner, Confidence: dec.Confidence,
			Evidence: dec.Evidence, Round: dec.Round}
		md.BaseSection = x.planSectionRef(base, p.Positions[base].Section)
		if w := labelIndex(dec.Winner); w >= 0 && w < len(x.docs) && !byValue[dec.Point] {
			md.WinnerSection = x.planSectionRef(w, p.Positions[w].Section)
		}
		for i, pos := range p.Positions {
			if pos.Text != "" && pos.Text != "—" {
				md.Positions = append(md.Positions, merge.Position{Variant: label(i), Summary: pos.Text})
			}
		}
		out = append(out, md)
	}
	return out
}

func labelIndex(label string) int {
	if len(label) != 1 || label[0] < 'A' || label[0] > 'Z' {
		return -1
	}
	return int(label[0] - 'A')
}

// sectionRef names section si of variant v for the plan.
func (x *run) sectionRef(v, si int) merge.SectionRef {
	if si < 0 || si >= len(x.docs[v].Sections) {
		return merge.SectionRef{}
	}
	s := x.docs[v].Sections[si]
	return merge.SectionRef{Number: s.Number, Title: s.Title}
}

// planSectionRef is sectionRef for a section the plan may take from or
// put into: none for the document title. A point whose text sits under
// the title (before the first section) concerns the whole document, and
// no change can take or replace a whole document — so the decision stays
// in the scoring matrix and the plan leaves the base's text there. Handed
// to the plan as a section, it failed the run ("section … is the document
// title") without any fault.
func (x *run) planSectionRef(v, si int) merge.SectionRef {
	if si < 0 || si >= len(x.docs[v].Sections) || x.docs[v].Sections[si].Depth == 0 {
		return merge.SectionRef{}
	}
	return x.sectionRef(v, si)
}

// planStrengths converts step 3's strengths to incorporate; a strength
// in a variant's title section is not one section to take (see
// planSectionRef).
func (x *run) planStrengths(ss []scoring.Strength) []merge.Strength {
	var out []merge.Strength
	if len(ss) > 0 {
		out = make([]merge.Strength, 0, len(ss)) // one each at most, without growing
	}
	for _, s := range ss {
		if s.Section < 0 {
			continue // not about one section: nothing to take
		}
		if v := labelIndex(s.Variant); v >= 0 && v < len(x.docs) && x.planSectionRef(v, s.Section).IsZero() {
			continue // the document title: nothing to take on its own
		}
		why := "won debate point " + s.Point
		if s.Kind == scoring.FromUnique {
			why = "unique contribution " + s.Point
		}
		if s.Rating != "" {
			why += ", rated " + s.Rating
		}
		// The decision on the point supplies the evidence; the description
		// only says what the section is, so the plan does not repeat it.
		desc := "Variant " + s.Variant + "'s section " + strconv.Quote(s.SectionTitle) // %q, without fmt's reflection per strength
		out = append(out, merge.Strength{Variant: s.Variant, Point: s.Point, Description: desc, Why: why,
			Section: merge.SectionRef{Number: s.SectionNumber, Title: s.SectionTitle}})
	}
	return out
}
