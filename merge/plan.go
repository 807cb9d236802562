package merge

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/crucible-go/crucible/internal/refs"
)

// NewPlan builds the refactoring plan from the base, the other variants,
// the debate's decisions and the strengths to incorporate:
//
//   - each strength becomes a change, then each decision a non-base
//     variant won that names a section of the winner not yet covered;
//   - a change replaces the base section with the same title (or the one
//     the strength or decision names), restructures it when the point is
//     structural (an "S-" id), and otherwise adds the section: inserted
//     under the base section matching its parent, or appended after the
//     base section matching its previous sibling (or at the end);
//   - every decision the base lost is a weakness; every decision it won,
//     and every unresolved one, is a change not being made;
//   - a section the alignment (PlanInput.Alignment) aligns with a base
//     section goes into that section, never beside it; a change that
//     would import a value a resolved conflict rejected
//     (PlanInput.Conflicts) is edited to state the winner's, and every
//     losing value is a change not being made (see plan_inputs.go);
//   - a rival proposal — a variant that opens with an exclusive choice
//     that lost to the base's — contributes no section: everything it
//     argues is for the choice the merged document does not make (see
//     rival.go);
//   - at most one change rewrites each base section, and no change takes
//     what an earlier one already brings (see settleCollisions); the
//     changes left out are listed among the changes not being made.
//
// The plan is auto-approved at the time of the clock set with [WithClock]
// (default time.Now). Inputs that do not fit together — unknown labels, a
// section a variant does not have — fail with an error matching
// [ErrInvalidInput].
func NewPlan(in PlanInput, opts ...Option) (Plan, error) {
	cfg := newConfig(opts)
	if err := in.validate(); err != nil {
		return Plan{}, err
	}
	if len(in.Alignment) > 0 {
		in.topicAt = in.locateTopics()
		in.alignIndex = in.alignedIndexes(in.Variants)
	}
	in.memo = newPlanMemo()
	// each strength and each decision plans at most one change
	p := Plan{Base: in.Base.Ref(), BaseDigest: Digest(in.Base.Doc), Changes: make([]Change, 0, len(in.Strengths)+len(in.Decisions))}
	byLabel := map[string]Variant{}
	for _, v := range in.Variants {
		p.Variants = append(p.Variants, v.Ref())
		byLabel[v.Label] = v
	}
	decisions := map[string]Decision{}
	for _, d := range in.Decisions {
		decisions[d.Point] = d
	}

	type key struct {
		label string
		sec   int
	}
	covered := map[key]bool{}
	// the first decision each variant won with each of its sections
	won := map[key]int{}
	wonAt := func(v Variant, sec int) (int, bool) {
		k, ok := won[key{v.Label, sec}]
		return k, ok
	}
	for k, dd := range in.Decisions {
		if dd.WinnerSection.IsZero() {
			continue
		}
		if v, ok := byLabel[dd.Winner]; ok {
			if ws, ok := locate(v.Doc, dd.WinnerSection); ok {
				if _, seen := won[key{v.Label, ws}]; !seen {
					won[key{v.Label, ws}] = k
				}
			}
		}
	}
	plan := func(v Variant, sec int, target SectionRef, approach Approach, d *Decision, reason string) error {
		if covered[key{v.Label, sec}] {
			return nil
		}
		covered[key{v.Label, sec}] = true
		// a subsection the base has no place for comes with the heading
		// it stands under (see liftOrphan)
		lifted := ""
		if target.IsZero() && approach == "" {
			// (a parent planned already brings it: settleCollisions
			// records that)
			if p, ok := in.liftOrphan(v, sec); ok && !covered[key{v.Label, p}] {
				covered[key{v.Label, p}] = true
				lifted = fmt.Sprintf(" Brought with the heading it stands under, %s: the base has no place for that topic, and on its own the subsection would end the document without its context.", refOf(v.Doc, p))
				sec = p
			}
		}
		// one topic, one section: a section aligned to a base section
		// goes into it, never beside it
		kin := -1
		if aligned, ok := in.alignedBaseOf(v, sec); ok {
			if target.IsZero() {
				target = aligned
			}
			if approach == Append || approach == Insert {
				approach = ""
			}
		} else if target.IsZero() && (approach == "" || approach == Insert) && in.baseTitled(v, sec) < 0 {
			// nor beside the section its variant covers the topic in
			var b int
			if b, kin = in.kinBase(v, sec); b >= 0 && !inside(v.Doc, sec, kin) {
				target, approach = refOf(in.Base.Doc, b), Insert
			} else {
				kin = -1
			}
		}
		c, err := planChange(in, v, sec, target, approach, d, len(p.Changes)+1)
		if err != nil {
			return err
		}
		c.Rationale.Reason = reason
		if lifted != "" {
			c.Rationale.Reason = strings.TrimRight(reason, ". ") + "." + lifted
		}
		if kin >= 0 {
			c.Rationale.Reason = strings.TrimRight(reason, ". ") + "." + kinNote(v, kin)
		}
		p.Changes = append(p.Changes, c)
		return nil
	}
	// A decision's winning section goes into the base section aligned with
	// it, else into the base section that holds the losing statement. The
	// latter may be a summary of many topics (a verdict table's row):
	// replacing it with one topic's section would lose the rest and state
	// that topic twice.
	decisionTarget := func(v Variant, sec int, d *Decision) SectionRef {
		if aligned, ok := in.alignedBaseOf(v, sec); ok {
			return aligned
		}
		if bi, ok := locate(in.Base.Doc, d.BaseSection); ok && len(in.Alignment) > 0 && in.baseTitled(v, sec) != bi {
			// Step 1 did not put the two together: sec is placed as
			// its own topic, and the base section keeps its text.
			return SectionRef{}
		}
		return d.BaseSection
	}
	for i, s := range in.Strengths {
		v := byLabel[s.Variant]
		sec, ok := locate(v.Doc, s.Section)
		if !ok {
			return Plan{}, inputErrorf("strength %d: %s has no %s", i+1, v.Ref(), s.Section)
		}
		var d *Decision
		if s.Point != "" {
			dd := decisions[s.Point]
			d = &dd
		} else if k, ok := wonAt(v, sec); ok {
			dd := in.Decisions[k]
			d = &dd
		}
		target := s.Target
		if target.IsZero() && d != nil {
			target = decisionTarget(v, sec, d)
		}
		reason := s.Description
		if s.Why != "" {
			reason = strings.TrimRight(reason, ". ") + ": " + s.Why
		}
		if err := plan(v, sec, target, s.Approach, d, reason); err != nil {
			return Plan{}, fmt.Errorf("strength %d: %w", i+1, err)
		}
	}
	for _, d := range in.Decisions {
		if d.Winner == "" || d.Winner == in.Base.Label || d.WinnerSection.IsZero() {
			continue
		}
		v := byLabel[d.Winner]
		sec, ok := locate(v.Doc, d.WinnerSection)
		if !ok {
			return Plan{}, inputErrorf("decision %s: %s has no %s", d.Point, v.Ref(), d.WinnerSection)
		}
		if err := plan(v, sec, decisionTarget(v, sec, &d), "", &d, d.Topic); err != nil {
			return Plan{}, fmt.Errorf("decision %s: %w", d.Point, err)
		}
	}

	var rival, rebuttals, revised, facets, hollows, tallies, dropped []Rejection
	p.Changes, rival = dropRival(in, p.Changes)
	p.Changes, rebuttals = dropRebuttals(in, p.Changes)
	p.Changes, revised = dropRevised(in, p.Changes)
	p.Changes, facets = dropFacets(in, p.Changes)
	p.Changes, hollows = dropHollow(in, p.Changes)
	p.Changes, tallies = dropTallies(in, p.Changes)
	p.Changes, dropped = settleCollisions(in, p.Changes)
	dropped = slices.Concat(rival, rebuttals, revised, facets, hollows, tallies, dropped)
	pruned := pruneAligned(in, p.Changes)
	conflicts, amendments := resolveConflicts(in, p.Changes)
	p.Amendments = amendments
	fixes := newFixIndex(p.Changes, dropped)
	for _, d := range in.Decisions {
		switch d.Winner {
		case "", in.Base.Label:
			p.Rejected = append(p.Rejected, rejection(in, d))
		default:
			p.Weaknesses = append(p.Weaknesses, weakness(in, d, fixes))
		}
	}
	p.Rejected = append(append(append(p.Rejected, dropped...), pruned...), conflicts...)
	for i := range p.Changes {
		p.Changes[i].Source.at, p.Changes[i].Source.doc = 0, nil // see SourceSection.at
	}
	p.Review = ReviewStatus{State: AutoApproved, By: "auto", At: cfg.now().UTC()}
	return p, nil
}

func (in PlanInput) validate() error {
	var errs []error
	if in.Base.Doc == nil {
		errs = append(errs, errors.New("the base has no document"))
	}
	labels := map[string]bool{in.Base.Label: true}
	if in.Base.Label == "" {
		errs = append(errs, errors.New("the base has no label"))
	}
	for i, v := range in.Variants {
		switch {
		case v.Label == "":
			errs = append(errs, fmt.Errorf("variant %d has no label", i+1))
		case labels[v.Label]:
			errs = append(errs, fmt.Errorf("variant label %q is used twice", v.Label))
		case v.Doc == nil:
			errs = append(errs, fmt.Errorf("variant %s has no document", v.Label))
		}
		labels[v.Label] = true
	}
	points := map[string]bool{}
	for _, d := range in.Decisions {
		if d.Point == "" {
			errs = append(errs, errors.New("a decision has no diff point id"))
		} else if points[d.Point] {
			errs = append(errs, fmt.Errorf("decision %s appears twice", d.Point))
		}
		points[d.Point] = true
		if d.Winner != "" && !labels[d.Winner] {
			errs = append(errs, fmt.Errorf("decision %s: unknown winner %q", d.Point, d.Winner))
		}
		if d.Confidence < 0 || d.Confidence > 100 {
			errs = append(errs, fmt.Errorf("decision %s: confidence %d%% is outside 0–100", d.Point, d.Confidence))
		}
	}
	for i, s := range in.Strengths {
		switch {
		case s.Variant == in.Base.Label:
			errs = append(errs, fmt.Errorf("strength %d is the base's own", i+1))
		case !labels[s.Variant]:
			errs = append(errs, fmt.Errorf("strength %d: unknown variant %q", i+1, s.Variant))
		}
		if s.Section.IsZero() {
			errs = append(errs, fmt.Errorf("strength %d names no section", i+1))
		}
		if s.Point != "" && !points[s.Point] {
			errs = append(errs, fmt.Errorf("strength %d: unknown diff point %s", i+1, s.Point))
		}
		if s.Approach != "" && !s.Approach.valid() {
			errs = append(errs, fmt.Errorf("strength %d: unknown approach %q", i+1, s.Approach))
		}
	}
	for i, t := range in.Alignment {
		for _, ts := range t.Sections {
			if !labels[ts.Variant] {
				errs = append(errs, fmt.Errorf("aligned topic %d (%q): unknown variant %q", i+1, t.Title, ts.Variant))
			}
		}
	}
	for i, k := range in.Conflicts {
		won := false
		for _, v := range k.Values {
			if !labels[v.Variant] {
				errs = append(errs, fmt.Errorf("conflict %d (%q): unknown variant %q", i+1, k.Subject, v.Variant))
			}
			won = won || v.Variant == k.Winner
		}
		if !won {
			errs = append(errs, fmt.Errorf("conflict %d (%q): the winner %q states no value", i+1, k.Subject, k.Winner))
		}
	}
	if len(errs) > 0 {
		return &InputError{Errs: errs}
	}
	return nil
}

// planChange decides target and approach for section sec of v and fills
// in everything but the reason.
func planChange(in PlanInput, v Variant, sec int, target SectionRef, approach Approach, d *Decision, number int) (Change, error) {
	bv := in.Base
	base := bv.Doc
	src := v.Doc.Sections[sec]
	if src.Depth == 0 {
		return Change{}, inputErrorf("%s: section %q is the document title; name one of its sections", v.Ref(), src.Title)
	}
	srcRef := refOf(v.Doc, sec)
	t := -1
	if !target.IsZero() {
		var ok bool
		if t, ok = locate(base, target); !ok {
			return Change{}, inputErrorf("the base has no %s", target)
		}
	} else if approach == "" || approach == Replace || approach == Restructure {
		t = in.baseTitled(v, sec)
	}
	if approach == "" {
		switch {
		case t >= 0 && d != nil && strings.HasPrefix(d.Point, "S-"):
			approach = Restructure
		case t >= 0:
			approach = Replace
		default:
			approach, t = placement(in, v, sec)
		}
	}
	if t < 0 && approach != Append {
		return Change{}, inputErrorf("no base section to %s %s into", approach, srcRef)
	}
	c := Change{
		Number:   number,
		Title:    refs.StripNumber(src.Title),
		Source:   SourceSection{Variant: v.Ref(), Section: srcRef, Text: v.Doc.Text(src.Span)},
		Approach: approach,
	}
	if in.memo != nil {
		c.Source.doc, c.Source.at = v.Doc, in.selfAt(v, sec)+1
		if c.Source.at == 0 {
			c.Source.at = -1
		}
	}
	if t >= 0 {
		c.Target = refOf(base, t)
	}
	if d != nil {
		c.Rationale = Rationale{Point: d.Point, Round: d.Round, Confidence: d.Confidence, Evidence: d.Evidence}
	}
	level := 0
	if t >= 0 {
		level = base.Sections[t].Level
	}
	if approach == Replace {
		c.Subsections = subsectionPlan(base, t, v.Doc, sec, alignedIn(in, v))
		c.Heading, _ = replacedTitle(base.Sections[t].Title, src.Title)
	}
	c.Integration, c.Impact, c.Rollback = describe(c, level, v.Ref(), bv.Ref())
	c.Risk = riskOf(approach, c.Target)
	return c, nil
}

// placement finds where a section the base lacks goes: under the base
// section matching its parent — right after the subsection there that
// matches its nearest previous sibling, so that it keeps its place in
// the source's order ("Delta 2.4" after "Delta 2.3", not after the
// section's closing summary), else last — else after the one matching
// its nearest previous sibling, else after the base's last top-level
// section. A section's match is its counterpart: the base section
// covering the same topic, by the alignment, else by title (see
// PlanInput.counterpart).
func placement(in PlanInput, v Variant, sec int) (Approach, int) {
	s := v.Doc.Sections[sec]
	if s.Parent >= 0 && v.Doc.Sections[s.Parent].Depth > 0 {
		if t := in.counterpart(v, s.Parent); t >= 0 {
			if p := in.prevCounterpart(v, sec); p >= 0 && in.Base.Doc.Sections[p].Parent == t {
				return Append, p
			}
			return Insert, t
		}
	}
	if t := in.prevCounterpart(v, sec); t >= 0 {
		// a chapter whose previous sibling matches a base subsection
		// ("Fault 3" after "Fault 2", whose topic the base treats in
		// "Step 6" of its "Implementation Ordering") follows that
		// subsection's chapter, not the subsection: it stays a chapter
		base := in.Base.Doc.Sections
		for base[t].Depth > s.Depth && base[t].Parent >= 0 && base[base[t].Parent].Depth > 0 {
			t = base[t].Parent
		}
		return Append, t
	}
	top := topLevelOf(in.Base.Doc)
	if len(top) == 0 {
		return Append, -1
	}
	return Append, top[len(top)-1]
}

// keepChange appends c, the change of changes a filter is at, to kept,
// the changes it keeps, in place: kept is a prefix of changes, never
// longer than the changes read so far, so each write lands on a change
// already read. A plan of thousands of changes (each a struct of several
// hundred bytes) would otherwise be copied by every filter, at every
// growth, and the collector pay for the garbage. As with append alone,
// kept stays nil until a change is kept. The filters are NewPlan's own:
// the changes they are handed are theirs to overwrite.
func keepChange(kept, changes []Change, c Change) []Change {
	if kept == nil {
		kept = changes[:0]
	}
	return append(kept, c)
}
