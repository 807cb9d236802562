package merge

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/crucible-go/crucible/diff"
)

// Approach says how a [Change] integrates into the base.
type Approach string

// The integration approaches a refactoring plan's changes use.
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

// riskOf grades a change by its approach: Low when it adds, Medium when
// it modifies existing text, High when it restructures.
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
	// LaterRevision is the label of the variant that is the later
	// revision of the others (optional; empty when the variants are not
	// successive revisions). When it is the base, a section an earlier
	// revision adds beside the base's sections is one the revision
	// dropped or consolidated: the plan does not bring it back, and lists
	// it among the changes not being made. See dropRevised.
	LaterRevision string

	alignIndex map[string][]int // per variant label, alignedIndex; built by NewPlan
	topicAt    *topicPositions  // the alignment located; built by NewPlan
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

	// at is what locate gives for Section in doc, the variant's
	// document, while NewPlan builds the plan: the index plus one, -1 for
	// nothing. Its filters each locate every change's source (see
	// sourceIndex); NewPlan clears it before it returns, so that a plan
	// edited afterwards never carries a stale one.
	at  int
	doc *diff.Document
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
	// Heading is, for a replace whose source titles the text otherwise,
	// the title the target's heading takes (see replacedTitle); empty when
	// the base's heading stays.
	Heading     string    `json:"heading,omitempty"`
	Rationale   Rationale `json:"rationale"`
	Integration string    `json:"integration"` // where and how, in words
	Risk        Risk      `json:"risk"`
	Impact      string    `json:"impact"`   // if the change fails
	Rollback    string    `json:"rollback"` // how to undo it
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
