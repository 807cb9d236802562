package critic

import (
	"fmt"
	"strings"
)

// Criticality is the decision criticality C1 (routine) to C4 (critical), the
// primary branch of the selection decision tree. The zero value means "not
// given": selection auto-detects it.
type Criticality int

// Criticality levels.
const (
	C1 Criticality = iota + 1 // routine
	C2                        // significant; the standard operating level
	C3                        // major
	C4                        // critical
)

// DefaultCriticality is where auto-detection starts when no level is given:
// the standard operating level, which the fallback rule for an uncertain
// level between C1 and C2 also picks (EN-303 TASK-004). Auto-escalation
// (AE-001…AE-005) then raises it from the artifact's facts.
const DefaultCriticality = C2

// Valid reports whether c is C1…C4.
func (c Criticality) Valid() bool { return c >= C1 && c <= C4 }

func (c Criticality) String() string {
	if c.Valid() {
		return fmt.Sprintf("C%d", int(c))
	}
	return "auto-detect"
}

// ParseCriticality parses "C1"…"C4" (also "c3", "CRIT-C3"). Anything else is
// an error; the critic's callers turn it into a warning ("Invalid
// criticality value …; falling back to auto-detection.") and auto-detect.
func ParseCriticality(s string) (Criticality, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimPrefix(t, "CRIT-")
	switch t {
	case "C1":
		return C1, nil
	case "C2":
		return C2, nil
	case "C3":
		return C3, nil
	case "C4":
		return C4, nil
	}
	return 0, fmt.Errorf("%w: invalid criticality value %q (want C1, C2, C3 or C4)", ErrInvalidInput, strings.TrimSpace(s))
}

func maxCrit(a, b Criticality) Criticality {
	if a > b {
		return a
	}
	return b
}

// Phase is the review phase.
type Phase string

// Phases.
const (
	PhaseExplore Phase = "PH-EXPLORE"
	PhaseDesign  Phase = "PH-DESIGN"
	PhaseImpl    Phase = "PH-IMPL"
	PhaseValid   Phase = "PH-VALID"
	PhaseMaint   Phase = "PH-MAINT"
)

// TargetType is the kind of artifact under review. It does not change the
// strategy set; it is passed to the strategies as guidance.
type TargetType string

// Target types.
const (
	TargetCode TargetType = "TGT-CODE"
	TargetArch TargetType = "TGT-ARCH"
	TargetReq  TargetType = "TGT-REQ"
	TargetRes  TargetType = "TGT-RES"
	TargetDec  TargetType = "TGT-DEC"
	TargetProc TargetType = "TGT-PROC"
)

// Maturity is the artifact's maturity.
type Maturity string

// Maturity levels.
const (
	MaturityDraft    Maturity = "MAT-DRAFT"
	MaturityReview   Maturity = "MAT-REVIEW"
	MaturityApproved Maturity = "MAT-APPR"
	MaturityBaseline Maturity = "MAT-BASE"
)

// Team is the team composition available for the review.
type Team string

// Team compositions.
const (
	TeamSingle Team = "TEAM-SINGLE"
	TeamMulti  Team = "TEAM-MULTI"
	TeamHIL    Team = "TEAM-HIL"
)

// Enforcement is the enforcement-layer availability.
type Enforcement string

// Enforcement levels.
const (
	EnforcementFull     Enforcement = "ENF-FULL"
	EnforcementPortable Enforcement = "ENF-PORT"
	EnforcementMinimal  Enforcement = "ENF-MIN"
)

// Platform is the platform context.
type Platform string

// Platforms.
const (
	PlatformCC      Platform = "PLAT-CC"
	PlatformCCWin   Platform = "PLAT-CC-WIN"
	PlatformGeneric Platform = "PLAT-GENERIC"
)

// TokenBudget is the token budget state.
type TokenBudget string

// Budget states: FULL (more than 20,000 tokens left), CONST (5,000–20,000),
// EXHAUST (under 5,000).
const (
	BudgetFull      TokenBudget = "TOK-FULL"
	BudgetConst     TokenBudget = "TOK-CONST"
	BudgetExhausted TokenBudget = "TOK-EXHAUST"
)

// Vector is the context vector automatic selection branches on. Empty fields
// are missing dimensions: selection fills them with the fallback defaults
// of the decision tree and reports a warning for each.
type Vector struct {
	Criticality Criticality `json:"criticality,omitempty"` // 0: auto-detect
	Phase       Phase       `json:"phase,omitempty"`
	TargetType  TargetType  `json:"target_type,omitempty"`
	Maturity    Maturity    `json:"maturity,omitempty"`
	Team        Team        `json:"team,omitempty"`
	Enforcement Enforcement `json:"enforcement,omitempty"`
	Platform    Platform    `json:"platform,omitempty"`
	TokenBudget TokenBudget `json:"token_budget,omitempty"`
}

// dimension describes one string-valued context dimension for parsing,
// defaulting and rendering. Reading and writing go through get/set so that
// one table serves every dimension.
type dimension struct {
	name   string   // as the ADVERSARIAL CONTEXT block labels it
	prefix string   // value prefix, e.g. "PH-"
	values []string // the valid values in taxonomy order
	get    func(*Vector) string
	set    func(*Vector, string)
}

var dimensions = [...]dimension{
	{"Phase", "PH-", []string{"PH-EXPLORE", "PH-DESIGN", "PH-IMPL", "PH-VALID", "PH-MAINT"},
		func(v *Vector) string { return string(v.Phase) }, func(v *Vector, s string) { v.Phase = Phase(s) }},
	{"Target Type", "TGT-", []string{"TGT-CODE", "TGT-ARCH", "TGT-REQ", "TGT-RES", "TGT-DEC", "TGT-PROC"},
		func(v *Vector) string { return string(v.TargetType) }, func(v *Vector, s string) { v.TargetType = TargetType(s) }},
	{"Maturity", "MAT-", []string{"MAT-DRAFT", "MAT-REVIEW", "MAT-APPR", "MAT-BASE"},
		func(v *Vector) string { return string(v.Maturity) }, func(v *Vector, s string) { v.Maturity = Maturity(s) }},
	{"Team", "TEAM-", []string{"TEAM-SINGLE", "TEAM-MULTI", "TEAM-HIL"},
		func(v *Vector) string { return string(v.Team) }, func(v *Vector, s string) { v.Team = Team(s) }},
	{"Enforcement", "ENF-", []string{"ENF-FULL", "ENF-PORT", "ENF-MIN"},
		func(v *Vector) string { return string(v.Enforcement) }, func(v *Vector, s string) { v.Enforcement = Enforcement(s) }},
	{"Platform", "PLAT-", []string{"PLAT-CC", "PLAT-CC-WIN", "PLAT-GENERIC"},
		func(v *Vector) string { return string(v.Platform) }, func(v *Vector, s string) { v.Platform = Platform(s) }},
	{"Token Budget", "TOK-", []string{"TOK-FULL", "TOK-CONST", "TOK-EXHAUST"},
		func(v *Vector) string { return string(v.TokenBudget) }, func(v *Vector, s string) { v.TokenBudget = TokenBudget(s) }},
}

// normalise maps a user-written value to the taxonomy's spelling: case is
// folded and the prefix may be omitted ("design" → "PH-DESIGN"). It reports
// false for values outside the taxonomy.
func (d dimension) normalise(s string) (string, bool) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if t == "" {
		return "", false
	}
	if !strings.HasPrefix(t, d.prefix) {
		t = d.prefix + t
	}
	for _, v := range d.values {
		if v == t {
			return v, true
		}
	}
	return "", false
}

// Budget thresholds of the token-budget states (EN-303 TASK-004).
const (
	budgetConstMax   = 20000 // at most this many tokens left: TOK-CONST
	budgetExhaustMax = 5000  // fewer than this: TOK-EXHAUST
)

// BudgetFor classifies a number of remaining tokens into a budget state.
func BudgetFor(remaining int) TokenBudget {
	switch {
	case remaining < budgetExhaustMax:
		return BudgetExhausted
	case remaining <= budgetConstMax:
		return BudgetConst
	default:
		return BudgetFull
	}
}

// resolve fills missing and invalid dimensions with the fallback defaults and
// returns the warnings. Enforcement is derived from the platform when
// missing (PLAT-CC and PLAT-CC-WIN give ENF-FULL, PLAT-GENERIC ENF-PORT);
// a missing token budget is derived from remaining tokens when the host
// knows them, else TOK-CONST.
func (v Vector) resolve(remaining *int) (Vector, []Warning, []Decision) {
	var warns []Warning
	var trace []Decision
	out := v
	for _, d := range dimensions {
		raw := d.get(&out)
		if raw == "" {
			continue
		}
		if norm, ok := d.normalise(raw); ok {
			d.set(&out, norm)
			continue
		}
		warns = append(warns, Warning{Code: WarnInvalidDimension, Message: fmt.Sprintf(
			"Invalid value '%s' for context dimension %s (want %s); using the default.", raw, d.name, strings.Join(d.values, ", "))})
		d.set(&out, "")
	}
	missing := func(name, value, why string) {
		warns = append(warns, Warning{Code: WarnMissingDimension, Message: fmt.Sprintf(
			"Missing context dimension %s; using default %s.", name, value)})
		trace = append(trace, Decision{Step: 0, Name: "defaults", Rule: "FALLBACK", Fired: true,
			Detail: fmt.Sprintf("%s missing: %s (%s)", name, value, why)})
	}
	if out.Phase == "" {
		out.Phase = PhaseDesign
		missing("Phase", string(out.Phase), "phase unknown is treated as the fullest strategy palette")
	}
	if out.TargetType == "" {
		out.TargetType = TargetDec
		missing("Target Type", string(out.TargetType), "unknown target treated as a decision, the broadest affinity")
	}
	if out.Maturity == "" {
		out.Maturity = MaturityDraft
		missing("Maturity", string(out.Maturity), "unknown maturity means no scope restriction")
	}
	if out.Team == "" {
		out.Team = TeamMulti
		missing("Team", string(out.Team), "unknown team treated as the full strategy palette")
	}
	if out.Platform == "" {
		out.Platform = PlatformGeneric
		missing("Platform", string(out.Platform), "unknown platform treated as the portable stack")
	}
	if out.Enforcement == "" {
		if out.Platform == PlatformGeneric {
			out.Enforcement = EnforcementPortable
		} else {
			out.Enforcement = EnforcementFull
		}
		trace = append(trace, Decision{Name: "defaults", Rule: "ENF=f(PLAT)", Fired: true,
			Detail: fmt.Sprintf("Enforcement not given: derived %s from %s", out.Enforcement, out.Platform)})
	}
	if out.TokenBudget == "" {
		if remaining != nil {
			out.TokenBudget = BudgetFor(*remaining)
			trace = append(trace, Decision{Name: "defaults", Rule: "TOK-DETECT", Fired: true,
				Detail: fmt.Sprintf("Token budget auto-detected: %d tokens remaining → %s", *remaining, out.TokenBudget)})
		} else {
			out.TokenBudget = BudgetConst
			missing("Token Budget", string(out.TokenBudget), "unknown budget is assumed constrained")
		}
	}
	return out, warns, trace
}
