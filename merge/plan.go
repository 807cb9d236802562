package merge

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
)

// Approach says how a [Change] integrates into the base.
type Approach string

// The integration approaches of the seed's refactoring plan.
const (
	// Replace keeps the target's heading and replaces everything under it
	// with what is under the source section's heading.
	Replace Approach = "replace"
	// Append places the source section after the target, as its sibling.
	Append Approach = "append"
	// Insert places the source section as the target's last subsection.
	Insert Approach = "insert"
	// Restructure reorganises the target section after the source
	// section's structure, keeping the base's content; it needs a model.
	Restructure Approach = "restructure"
)

func (a Approach) valid() bool {
	switch a {
	case Replace, Append, Insert, Restructure:
		return true
	}
	return false
}

// RiskLevel rates a change: Low (additive), Medium (modifies existing
// text), High (restructures).
type RiskLevel string

// The risk levels.
const (
	Low    RiskLevel = "Low"
	Medium RiskLevel = "Medium"
	High   RiskLevel = "High"
)

func (l RiskLevel) rank() int {
	switch l {
	case Low:
		return 1
	case Medium:
		return 2
	case High:
		return 3
	}
	return 0
}

// Risk is a change's risk level and why.
type Risk struct {
	Level  RiskLevel `json:"level"`
	Reason string    `json:"reason"`
}

// riskOf is the seed's rule: Low additive, Medium modifies, High
// restructures.
func riskOf(a Approach, target SectionRef) Risk {
	switch a {
	case Replace:
		return Risk{Medium, "modifies existing " + target.String()}
	case Restructure:
		return Risk{High, "restructures " + target.String()}
	}
	return Risk{Low, "additive: a new section, no base text changes"}
}

// VariantRef names a variant in the plan and the artifacts.
type VariantRef struct {
	Label string `json:"label"`           // "A", "B", …
	Agent string `json:"agent,omitempty"` // "opus:architect", "original"
}

// String returns "Variant B (sonnet:security)", or "Variant B" without an
// agent spec.
func (v VariantRef) String() string {
	if v.Agent == "" {
		return "Variant " + v.Label
	}
	return "Variant " + v.Label + " (" + v.Agent + ")"
}

// Variant is one input variant: its label, its agent spec and its parsed
// text.
type Variant struct {
	Label string
	Agent string
	Doc   *diff.Document
}

// Ref returns the variant's label and agent spec.
func (v Variant) Ref() VariantRef { return VariantRef{Label: v.Label, Agent: v.Agent} }

// Position is what one variant proposed on a diff point.
type Position struct {
	Variant string `json:"variant"` // label
	Summary string `json:"summary"`
}

// Decision is the debate's verdict on one diff point, as the scoring matrix
// records it, with the sections the point is about.
type Decision struct {
	Point      string `json:"point"`           // "C-003"
	Topic      string `json:"topic,omitempty"` // what the point is about
	Winner     string `json:"winner"`          // label of the winning variant; "" when unresolved
	Confidence int    `json:"confidence"`      // percent
	Evidence   string `json:"evidence,omitempty"`
	Round      int    `json:"round,omitempty"` // the debate round that settled it
	// BaseSection is where the base covers the point; zero if it does not.
	BaseSection SectionRef `json:"base_section,omitzero"`
	// WinnerSection is where the winner covers the point; zero if the
	// point is not about one section of the winner.
	WinnerSection SectionRef `json:"winner_section,omitzero"`
	// Positions is what each variant proposed (the diff analysis's
	// approach columns); the plan quotes the non-base ones when it keeps
	// the base.
	Positions []Position `json:"positions,omitempty"`
}

// Strength is a strength of a non-base variant to incorporate, from the
// base selection's "Strengths to Incorporate".
type Strength struct {
	Variant     string     `json:"variant"` // label
	Section     SectionRef `json:"section"` // the section of that variant holding it
	Description string     `json:"description"`
	Why         string     `json:"why,omitempty"`
	// Point is the diff point the strength rests on, if any; its decision
	// supplies the round, confidence and evidence.
	Point string `json:"point,omitempty"`
	// Target and Approach override where and how the strength goes into
	// the base; zero lets [NewPlan] decide.
	Target   SectionRef `json:"target,omitzero"`
	Approach Approach   `json:"approach,omitempty"`
}

// PlanInput is what [NewPlan] builds a plan from.
type PlanInput struct {
	Base      Variant
	Variants  []Variant // the other variants, in input order
	Decisions []Decision
	Strengths []Strength
	// Alignment is the step-1 topic alignment (optional): a non-base
	// section aligned to a base section replaces (extends) it and is
	// never added beside it. See [AlignedTopic].
	Alignment []AlignedTopic
	// Conflicts are the resolved contradictions and field disagreements
	// (optional): the merged document states only each winner's value.
	// See [ResolvedConflict].
	Conflicts []ResolvedConflict

	alignIndex map[string][]int // per variant label, alignedIndex; built by NewPlan
	memo       *planMemo        // answers NewPlan asks once per section; see plan_memo.go
}

// SourceSection is the section a change takes from a variant. Text holds
// the section's Markdown (heading and subsections included) so a plan is
// self-contained: it can be saved, edited and executed without the
// variants.
type SourceSection struct {
	Variant VariantRef `json:"variant"`
	Section SectionRef `json:"section"`
	Text    string     `json:"text"`
}

// Rationale is why a change is made: the debate evidence behind it.
type Rationale struct {
	Point      string `json:"point,omitempty"` // diff point id; empty when the change rests on a strength alone
	Round      int    `json:"round,omitempty"`
	Confidence int    `json:"confidence,omitempty"` // percent
	Evidence   string `json:"evidence,omitempty"`
	Reason     string `json:"reason,omitempty"` // the strength: what it adds and why
}

// String renders the rationale as the plan prints it.
func (r Rationale) String() string {
	var parts []string
	if r.Reason != "" {
		parts = append(parts, strings.TrimRight(r.Reason, ". ")+".")
	}
	if r.Point != "" {
		s := "Debate: "
		if r.Round > 0 {
			s += fmt.Sprintf("Round %d, ", r.Round)
		}
		s += "diff point " + r.Point
		if r.Confidence > 0 {
			s += fmt.Sprintf(", confidence %d%%", r.Confidence)
		}
		if r.Evidence != "" {
			s += " — " + strings.TrimRight(r.Evidence, ". ")
		}
		parts = append(parts, s+".")
	} else {
		parts = append(parts, "No debate point: from the base selection's strengths to incorporate.")
	}
	return strings.Join(parts, " ")
}

// Change is one planned edit of the base.
type Change struct {
	Number   int           `json:"number"` // 1-based, plan order
	Title    string        `json:"title"`
	Source   SourceSection `json:"source"`
	Target   SectionRef    `json:"target"` // base section; zero with Append means the end of the document
	Approach Approach      `json:"approach"`
	// Removes lists base headings under the target that a restructure may
	// drop; any other base heading under the target must survive it.
	Removes []string `json:"removes,omitempty"`
	// Subsections says, for a replace, what happens to each direct
	// subsection of the target and of the source: kept, replaced by the
	// source's of the same title, or added (see [Subsection]).
	Subsections []Subsection `json:"subsections,omitempty"`
	Rationale   Rationale    `json:"rationale"`
	Integration string       `json:"integration"` // where and how, in words
	Risk        Risk         `json:"risk"`
	Impact      string       `json:"impact"`   // if the change fails
	Rollback    string       `json:"rollback"` // how to undo it
}

// Weakness is a point the base lost in the debate.
type Weakness struct {
	Issue  string `json:"issue"`
	Point  string `json:"point,omitempty"`
	Better string `json:"better"` // label of the variant that handles it better
	Fix    string `json:"fix"`
	Change int    `json:"change,omitempty"` // the change that fixes it, 0 if none
}

// Rejection is a difference the plan does not adopt, with why the base was
// kept.
type Rejection struct {
	Point     string `json:"point"`
	Topic     string `json:"topic,omitempty"`
	NonBase   string `json:"non_base"`
	Rationale string `json:"rationale"`
	// Value is set for a losing value of a resolved conflict: the merged
	// document states the winner's instead, and merge-log.md lists it.
	Value bool `json:"value,omitempty"`
}

// ReviewState is how a plan was approved.
type ReviewState string

// The review states.
const (
	AutoApproved ReviewState = "auto-approved"
	UserApproved ReviewState = "user-approved"
	UserModified ReviewState = "user-modified"
)

// ReviewStatus records who approved the plan, when, and what they changed.
type ReviewStatus struct {
	State     ReviewState `json:"state"`
	By        string      `json:"by"` // "auto" or "user"
	At        time.Time   `json:"at"`
	Overrides []string    `json:"overrides,omitempty"`
}

// Plan is the refactoring plan (step 4): the changes to make to the base,
// the base's weaknesses, the differences not adopted, and the review. A
// Plan is plain data: JSON round-trips it, a user may edit it, and a merger
// needs nothing else but the base document to execute it.
type Plan struct {
	Base VariantRef `json:"base"`
	// BaseDigest is the SHA-256 of the base's normalised source; a merger
	// refuses a base that does not match. Empty skips the check.
	BaseDigest string       `json:"base_digest,omitempty"`
	Variants   []VariantRef `json:"variants"` // the non-base variants, in input order
	Changes    []Change     `json:"changes"`
	Weaknesses []Weakness   `json:"weaknesses,omitempty"`
	Rejected   []Rejection  `json:"rejected,omitempty"`
	// Amendments edit the base's own text to state conflicts' winning
	// values (see [Amendment]).
	Amendments []Amendment  `json:"amendments,omitempty"`
	Review     ReviewStatus `json:"review"`
}

// Digest returns the value [Plan.BaseDigest] holds for d.
func Digest(d *diff.Document) string {
	sum := sha256.Sum256([]byte(d.Source))
	return hex.EncodeToString(sum[:])
}

// Sources returns the variants the changes take from, in input order.
func (p Plan) Sources() []VariantRef {
	var out []VariantRef
	seen := map[string]bool{}
	add := func(v VariantRef) {
		if !seen[v.Label] {
			seen[v.Label] = true
			out = append(out, v)
		}
	}
	for _, v := range p.Variants {
		for _, c := range p.Changes {
			if c.Source.Variant.Label == v.Label {
				add(v)
			}
		}
	}
	for _, c := range p.Changes { // sources the variant list does not name
		add(c.Source.Variant)
	}
	return out
}

// OverallRisk is the highest risk of any change, or "None" without
// changes.
func (p Plan) OverallRisk() string {
	best := RiskLevel("")
	for _, c := range p.Changes {
		if c.Risk.Level.rank() > best.rank() {
			best = c.Risk.Level
		}
	}
	if best == "" {
		return "None"
	}
	return string(best)
}

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
		in.alignIndex = map[string][]int{}
		for _, v := range in.Variants {
			if v.Doc != nil {
				in.alignIndex[v.Label] = in.alignedIndex(v)
			}
		}
	}
	in.memo = newPlanMemo()
	p := Plan{Base: in.Base.Ref(), BaseDigest: Digest(in.Base.Doc), Changes: []Change{}}
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
		// one topic, one section: a section aligned to a base section
		// goes into it, never beside it
		if aligned, ok := in.alignedBase(v.Label, refOf(v.Doc, sec)); ok {
			if target.IsZero() {
				target = aligned
			}
			if approach == Append || approach == Insert {
				approach = ""
			}
		}
		c, err := planChange(in, v, sec, target, approach, d, len(p.Changes)+1)
		if err != nil {
			return err
		}
		c.Rationale.Reason = reason
		p.Changes = append(p.Changes, c)
		return nil
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
			target = d.BaseSection
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
		if err := plan(v, sec, d.BaseSection, "", &d, d.Topic); err != nil {
			return Plan{}, fmt.Errorf("decision %s: %w", d.Point, err)
		}
	}

	var dropped []Rejection
	p.Changes, dropped = settleCollisions(in, p.Changes)
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
		t = matchTitle(base, src.Title)
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
	}
	c.Integration, c.Impact, c.Rollback = describe(c, level, v.Ref(), bv.Ref())
	c.Risk = riskOf(approach, c.Target)
	return c, nil
}

// placement finds where a section the base lacks goes: under the base
// section matching its parent, else after the one matching its nearest
// previous sibling, else after the base's last top-level section. A
// section's match is its counterpart: the base section covering the same
// topic, by the alignment, else by title (see PlanInput.counterpart).
func placement(in PlanInput, v Variant, sec int) (Approach, int) {
	s := v.Doc.Sections[sec]
	if s.Parent >= 0 && v.Doc.Sections[s.Parent].Depth > 0 {
		if t := in.counterpart(v, s.Parent); t >= 0 {
			return Insert, t
		}
	}
	if t := in.prevCounterpart(v, sec); t >= 0 {
		return Append, t
	}
	top := topLevelOf(in.Base.Doc)
	if len(top) == 0 {
		return Append, -1
	}
	return Append, top[len(top)-1]
}

// describe words a change's integration point, its impact if it fails and
// its rollback. base names the base variant in rollbacks; zero leaves it
// as "the base".
func describe(c Change, level int, src, base VariantRef) (integration, impact, rollback string) {
	baseName := "the base"
	if base.Label != "" {
		baseName = base.String()
	}
	t := c.Target.String()
	name := fmt.Sprintf("%q", c.Title)
	switch c.Approach {
	case Replace:
		integration = fmt.Sprintf("The text under the heading of %s is replaced by %s's %s; the base heading stays.", t, src.String(), c.Source.Section)
		if subs := describeSubsections(c.Subsections); subs != "" {
			integration += " Subsections " + subs
		}
		return integration,
			fmt.Sprintf("%s keeps the base text; the strength is not incorporated.", t),
			fmt.Sprintf("Restore %s from %s.", t, baseName)
	case Restructure:
		return fmt.Sprintf("%s is reorganised after the structure of %s's %s; base content and subsections are kept.", t, src.String(), c.Source.Section),
			fmt.Sprintf("%s keeps the base structure.", t),
			fmt.Sprintf("Restore %s from %s.", t, baseName)
	case Insert:
		return fmt.Sprintf("New subsection %s at the end of %s, as H%d.", name, t, min(level+1, 6)),
			fmt.Sprintf("%s lacks %s; no base text is affected.", t, name),
			fmt.Sprintf("Delete the section tagged \"merged per Change #%d\".", c.Number)
	}
	if c.Target.IsZero() {
		return fmt.Sprintf("New section %s at the end of the document.", name),
			fmt.Sprintf("The merged document lacks %s; no base text is affected.", name),
			fmt.Sprintf("Delete the section tagged \"merged per Change #%d\".", c.Number)
	}
	return fmt.Sprintf("New section %s after %s, as H%d.", name, t, level),
		fmt.Sprintf("The merged document lacks %s; no base text is affected.", name),
		fmt.Sprintf("Delete the section tagged \"merged per Change #%d\".", c.Number)
}

func rejection(in PlanInput, d Decision) Rejection {
	var alts []string
	for _, pos := range d.Positions {
		if pos.Variant != in.Base.Label && pos.Summary != "" {
			alts = append(alts, "Variant "+pos.Variant+": "+pos.Summary)
		}
	}
	r := Rejection{Point: d.Point, Topic: d.Topic, NonBase: strings.Join(alts, "; ")}
	if r.NonBase == "" {
		r.NonBase = d.Topic
	}
	if d.Winner == "" {
		r.Rationale = fmt.Sprintf("Unresolved in the debate (confidence %d%%); the base approach stays by default.", d.Confidence)
		return r
	}
	r.Rationale = strings.TrimRight(d.Evidence, ". ")
	if r.Rationale != "" {
		r.Rationale += " "
	}
	where := ""
	if d.Round > 0 {
		where = fmt.Sprintf("Round %d, ", d.Round)
	}
	r.Rationale += fmt.Sprintf("(%sconfidence %d%%).", where, d.Confidence)
	return r
}

// fixIndex finds, by diff point, the first change made for it and the
// first change dropped for it.
type fixIndex struct {
	changes []Change
	dropped []Rejection
	change  map[string]int
	drop    map[string]int
}

func newFixIndex(changes []Change, dropped []Rejection) fixIndex {
	x := fixIndex{changes: changes, dropped: dropped, change: map[string]int{}, drop: map[string]int{}}
	for i, c := range changes {
		if _, ok := x.change[c.Rationale.Point]; !ok {
			x.change[c.Rationale.Point] = i
		}
	}
	for i, r := range dropped {
		if _, ok := x.drop[r.Point]; !ok {
			x.drop[r.Point] = i
		}
	}
	return x
}

func weakness(in PlanInput, d Decision, fixes fixIndex) Weakness {
	w := Weakness{Issue: d.Topic, Point: d.Point, Better: d.Winner}
	if w.Issue == "" {
		w.Issue = d.Evidence
	}
	if !d.BaseSection.IsZero() {
		w.Issue = strings.TrimRight(w.Issue, ". ") + " (base " + d.BaseSection.String() + ")"
	}
	if i, ok := fixes.change[d.Point]; ok {
		c := fixes.changes[i]
		w.Change = c.Number
		w.Fix = fixText(c)
		return w
	}
	if i, ok := fixes.drop[d.Point]; ok {
		w.Fix = "Not merged: " + fixes.dropped[i].Rationale
		return w
	}
	w.Fix = fmt.Sprintf("Not merged automatically: Variant %s's position has no section to take; revise the base by hand.", d.Winner)
	return w
}

// fixText says how change c fixes a weakness.
func fixText(c Change) string {
	src := fmt.Sprintf("Variant %s's %s", c.Source.Variant.Label, c.Source.Section)
	switch c.Approach {
	case Replace:
		return fmt.Sprintf("Change #%d replaces the body of %s with %s.", c.Number, c.Target, src)
	case Restructure:
		return fmt.Sprintf("Change #%d reorganises %s after %s.", c.Number, c.Target, src)
	case Insert:
		return fmt.Sprintf("Change #%d adds %s under %s.", c.Number, src, c.Target)
	}
	if c.Target.IsZero() {
		return fmt.Sprintf("Change #%d adds %s at the end of the document.", c.Number, src)
	}
	return fmt.Sprintf("Change #%d adds %s after %s.", c.Number, src, c.Target)
}
