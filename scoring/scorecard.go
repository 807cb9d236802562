package scoring

// Scorecard is the result of step 3: every variant's quantitative and
// qualitative scores with their evidence, the position-bias passes, the
// combined ranking with any tiebreaker, and the selected base with the
// strengths the refactoring plan acts on. It is plain data — it encodes to
// JSON and back without loss — and its Markdown method renders
// base-selection.md.
type Scorecard struct {
	Rubric Rubric `json:"rubric"`
	// Reference is what requirement coverage was measured against.
	Reference Reference `json:"reference"`
	// Variants holds one entry per variant, in input order.
	Variants []VariantScore `json:"variants"`
	Bias     BiasReport     `json:"bias"`
	// Ranking lists the variants' labels by final score, highest first;
	// equal scores keep input order.
	Ranking  []string `json:"ranking"`
	Tiebreak Tiebreak `json:"tiebreak"`
	// Debated is set when the debate produced outcomes; otherwise tiebreaker
	// level 1 has nothing to compare and strengths come from unique
	// contributions only.
	Debated bool `json:"debated"`
	// DebateOutcome is the debate's statement of how it ended (see
	// [Debate].Outcome), empty when there is none.
	DebateOutcome string    `json:"debate_outcome,omitempty"`
	Selection     Selection `json:"selection"`
	// Warnings notes what a reader should know: verdicts downgraded for
	// evidence not found, a suspended floor rule.
	Warnings []string `json:"warnings,omitempty"`
}

// VariantScore is everything step 3 found about one variant.
type VariantScore struct {
	Label string     `json:"label"`
	Agent string     `json:"agent"` // the spec shown beside the letter
	Name  string     `json:"name"`  // the document's name
	Quant QuantScore `json:"quant"`
	Qual  QualScore  `json:"qual"`
	// Final is 0.50 × Quant.Score + 0.50 × Qual.Score.
	Final float64 `json:"final"`
	// Won is the number of diff points the variant won in the debate.
	Won int `json:"won"`
	// BelowFloor is set, with the sixth dimension, when the variant meets
	// none of its criteria and so cannot be the base.
	BelowFloor bool `json:"below_floor,omitempty"`
	// Strengths are the debate points the variant won and its valuable
	// unique contributions: preserved when it is the base, candidates to
	// incorporate otherwise.
	Strengths []Strength `json:"strengths,omitempty"`
}

// Spec returns "Variant A (opus:architect)".
func (v VariantScore) Spec() string { return "Variant " + v.Label + " (" + v.Agent + ")" }

// QualScore is the qualitative layer's result for one variant.
type QualScore struct {
	// Verdicts are the final verdicts, one per criterion in rubric order.
	Verdicts   []Verdict        `json:"verdicts"`
	Dimensions []DimensionTally `json:"dimensions"`
	Met        int              `json:"met"`
	Total      int              `json:"total"` // 25, or 30 with the sixth dimension
	// Score is Met / Total.
	Score float64 `json:"score"`
}

// DimensionTally counts the criteria met in one dimension.
type DimensionTally struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Met   int    `json:"met"`
	Total int    `json:"total"`
}

// Tally returns the count for a dimension.
func (q QualScore) Tally(dim string) DimensionTally {
	for _, d := range q.Dimensions {
		if d.ID == dim {
			return d
		}
	}
	return DimensionTally{ID: dim}
}

// BiasReport records the dual-pass evaluation: pass 1 in input order,
// pass 2 reversed, and the re-evaluation of every pair they disagreed on.
type BiasReport struct {
	// Entries holds one row per criterion–variant pair, in rubric order
	// and, within a criterion, variant order.
	Entries []BiasEntry `json:"entries"`
	Pairs   int         `json:"pairs"`
	// Disagreements counts the pairs the passes disagreed on; each was
	// re-evaluated.
	Disagreements int `json:"disagreements"`
	// Changed counts the re-evaluations whose final verdict differs from
	// pass 1's — the verdict the report would have carried without the
	// mitigation.
	Changed int `json:"changed"`
	// Agreement is the share of pairs on which the passes agreed, in [0, 1].
	Agreement float64 `json:"agreement"`
	// Downgraded counts MET verdicts, in any pass or re-evaluation, whose
	// cited evidence was not found in the variant and which therefore
	// counted as NOT MET.
	Downgraded int `json:"downgraded"`
}

// BiasEntry is one row of the disagreement-resolution log.
type BiasEntry struct {
	Criterion string `json:"criterion"`
	Variant   string `json:"variant"`
	Pass1     bool   `json:"pass1"`
	Pass2     bool   `json:"pass2"`
	Agree     bool   `json:"agree"`
	Final     bool   `json:"final"`
	// Reevaluation is the re-evaluation's verdict, for a disagreement.
	Reevaluation *Verdict `json:"reevaluation,omitempty"`
}

// Tiebreak records the comparison of the top two variants.
type Tiebreak struct {
	Leader   string `json:"leader"`    // highest final score
	RunnerUp string `json:"runner_up"` // second highest
	// Margin is the leader's final score minus the runner-up's.
	Margin float64 `json:"margin"`
	// Under is set when the margin is under the 5% threshold, so the
	// tiebreaker applies.
	Under bool `json:"under"`
	// Level is the tiebreaker level that decided (1 debate points won,
	// 2 correctness criteria met, 3 input order), or 0 when none applied.
	Level  int    `json:"level"`
	Winner string `json:"winner"`
	// Evidence says which metric determined the winner.
	Evidence string `json:"evidence"`
}

// TieThreshold is the margin under which the top two variants are tied.
const TieThreshold = 0.05

// Approval records who approved the base, in the words base-selection.md
// prints: "Auto-approved" or "user-overridden".
type Approval string

// Approvals.
const (
	AutoApproved   Approval = "Auto-approved"
	UserOverridden Approval = "user-overridden"
)

// Selection is the chosen base and what the refactoring plan should do
// with the other variants.
type Selection struct {
	Base  string `json:"base"`  // label
	Agent string `json:"agent"` // its spec
	// Scored is the label the scores selected; it differs from Base only
	// when the host overrode the selection.
	Scored   string   `json:"scored"`
	Approval Approval `json:"approval"`
	// Rationale is the evidence-based explanation, one paragraph per item.
	Rationale []string `json:"rationale"`
	// Preserve are the base's strengths to keep.
	Preserve []Strength `json:"preserve"`
	// Incorporate are the non-base variants' strengths to merge into the
	// base, in variant order.
	Incorporate []Strength `json:"incorporate"`
}

// StrengthKind says where a strength comes from.
type StrengthKind string

// Kinds of [Strength].
const (
	// FromDebate: a diff point the variant won in the debate.
	FromDebate StrengthKind = "debate"
	// FromUnique: a unique contribution of the variant (step 1) rated
	// Medium or High.
	FromUnique StrengthKind = "unique"
	// FromScore: a metric or rubric dimension on which the base scores
	// highest (strengths to preserve only).
	FromScore StrengthKind = "score"
)

// Strength is one thing a variant does well, located so the refactoring
// plan can act on it.
type Strength struct {
	Variant string       `json:"variant"` // label
	Kind    StrengthKind `json:"kind"`
	// Point is the diff point id (S-/C-/X-/U-NNN); empty for a score.
	Point string `json:"point,omitempty"`
	// Section is the index of the variant's section the strength lives in
	// (diff.Document.Sections), -1 when it concerns no one section; Number
	// and Title name it.
	Section       int    `json:"section"`
	SectionNumber string `json:"section_number,omitempty"`
	SectionTitle  string `json:"section_title,omitempty"`
	Description   string `json:"description"`
	// Confidence (percent) and Round come from the debate.
	Confidence int `json:"confidence,omitempty"`
	Round      int `json:"round,omitempty"`
	// Rating is the diff analysis' rating of the point, when it has one.
	Rating string `json:"rating,omitempty"`
}

// Variant returns the score of the variant with the label.
func (s *Scorecard) Variant(label string) (*VariantScore, bool) {
	for i := range s.Variants {
		if s.Variants[i].Label == label {
			return &s.Variants[i], true
		}
	}
	return nil, false
}
