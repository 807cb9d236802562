package critic

// The decision tree's lookup tables: the base strategy set per
// criticality, its adaptations to a constrained or exhausted token budget,
// and the maturity, team and ENF-MIN tables behind the selection
// algorithm's helper steps (EN-303 TASK-004).

// strategySet is one row of the base table.
type strategySet struct {
	required    []Mode
	recommended []Mode
}

// baseSets is "Base strategy sets (TOK-FULL, PLAT-CC)". C4 is all ten modes.
var baseSets = map[Criticality]strategySet{
	C1: {required: []Mode{SelfRefine}, recommended: []Mode{Steelman, LLMAsJudge}},
	C2: {required: []Mode{Constitutional, DevilsAdvocate, LLMAsJudge}, recommended: []Mode{Steelman, SelfRefine}},
	C3: {
		required:    []Mode{Constitutional, DevilsAdvocate, LLMAsJudge, PreMortem, FMEA, Inversion},
		recommended: []Mode{Steelman, SelfRefine, ChainOfVerification},
	},
	C4: {required: []Mode{SelfRefine, Steelman, Inversion, Constitutional, DevilsAdvocate, PreMortem, FMEA, ChainOfVerification, LLMAsJudge, RedTeam}},
}

// constSets is "TOK-CONST adapted sets". Constitutional at C4 runs single-pass.
var constSets = map[Criticality][]Mode{
	C1: {SelfRefine},
	C2: {Steelman, LLMAsJudge, SelfRefine},
	C3: {Steelman, DevilsAdvocate, LLMAsJudge, Inversion},
	C4: {Steelman, DevilsAdvocate, Inversion, LLMAsJudge, Constitutional},
}

// exhaustSets is "TOK-EXHAUST adapted sets". C4 has none: end the session.
var exhaustSets = map[Criticality][]Mode{
	C1: {SelfRefine},
	C2: {Steelman, LLMAsJudge},
	C3: {LLMAsJudge},
	C4: nil,
}

var exhaustActions = map[Criticality]string{
	C1: "Minimal check",
	C2: "Scoring only",
	C3: "Human escalation MANDATORY",
	C4: "End session. Human review MANDATORY.",
}

// verificationModes are the modes an approved or baselined artifact still
// gets: compliance confirmation (S-007), claim verification (S-011) and
// scoring (S-014). The maturity gate keeps only these.
var verificationModes = []Mode{Constitutional, ChainOfVerification, LLMAsJudge}

// singleAgentModes are the strategies one agent can apply to its own work
// without a separate critic (TASK-004, C3 with TEAM-SINGLE "if forced").
var singleAgentModes = []Mode{SelfRefine, Constitutional, Inversion, LLMAsJudge}

// enfMinSets is the ENF-MIN adapted set per criticality. C4 has none: end
// the session; human review is mandatory.
var enfMinSets = map[Criticality][]Mode{
	C1: {SelfRefine},
	C2: {SelfRefine, Constitutional, LLMAsJudge},
	C3: {SelfRefine, Steelman, Inversion, Constitutional, LLMAsJudge},
	C4: nil,
}

// enfMinInfeasible and enfMinMarginal are ENF-MIN-004's flags: strategies
// with no delivery under L1-only enforcement, and strategies that are only
// marginally feasible there.
var (
	enfMinInfeasible = []Mode{PreMortem, FMEA, RedTeam}
	enfMinMarginal   = []Mode{DevilsAdvocate, ChainOfVerification}
)

// Thresholds.
const (
	// AdversarialThreshold is the quality gate when an adversarial context
	// is present (H-13, from the SSOT via IR-304-003).
	AdversarialThreshold = 0.92
	// StandardThreshold is the backward-compatible gate of standard mode
	// (BC-304-003).
	StandardThreshold = 0.85
)

func contains(modes []Mode, m Mode) bool {
	for _, x := range modes {
		if x == m {
			return true
		}
	}
	return false
}

// intersect keeps the members of modes that are in keep, in modes' order.
func intersect(modes, keep []Mode) []Mode {
	out := []Mode{}
	for _, m := range modes {
		if contains(keep, m) {
			out = append(out, m)
		}
	}
	return out
}

// minus returns the members of modes not in drop, in modes' order.
func minus(modes, drop []Mode) []Mode {
	out := []Mode{}
	for _, m := range modes {
		if !contains(drop, m) {
			out = append(out, m)
		}
	}
	return out
}

func clone(modes []Mode) []Mode { return append([]Mode{}, modes...) }
