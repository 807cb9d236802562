package critic

import (
	"fmt"
	"strings"
)

// Facts are what the host knows about the artifact: the triggers of the
// auto-escalation rules and, optionally, how many tokens are left.
type Facts struct {
	// ModifiesConstitution: the artifact changes the governing constitution
	// (AE-001).
	ModifiesConstitution bool `json:"modifies_constitution,omitempty"`
	// ModifiesRules: the artifact changes the enforced rules files (AE-002).
	ModifiesRules bool `json:"modifies_rules,omitempty"`
	// ADR: the artifact is a new or modified architecture decision record
	// (AE-003).
	ADR bool `json:"adr,omitempty"`
	// ModifiesBaselinedADR: the artifact changes a baselined ADR (AE-004).
	ModifiesBaselinedADR bool `json:"modifies_baselined_adr,omitempty"`
	// SecurityRelevant: the artifact changes security-relevant code —
	// authentication, cryptography, access control (AE-005).
	SecurityRelevant bool `json:"security_relevant,omitempty"`
	// RemainingTokens, when not nil, is the session's remaining token budget;
	// a missing Token Budget dimension is then auto-detected from it.
	RemainingTokens *int `json:"remaining_tokens,omitempty"`
}

// Source says how a selection was made.
type Source string

// Selection sources.
const (
	SourceStandard  Source = "standard"  // no adversarial context or an empty mode list
	SourceExplicit  Source = "explicit"  // --mode a,b,c
	SourceAutomatic Source = "automatic" // the decision tree over a context vector
)

// Escalation is a flag for human involvement raised during selection.
type Escalation struct {
	Rule      string `json:"rule"`      // "AE-006", "ENF-MIN-002", "ESC-007"
	Mandatory bool   `json:"mandatory"` // false: a recommendation
	Reason    string `json:"reason"`
}

// Selection is the outcome of mode selection: the modes to run, in order,
// with every decision that led to them.
type Selection struct {
	Source Source `json:"source"`
	// Declared is the criticality before auto-escalation: the one given, or
	// DefaultCriticality when it was auto-detected.
	Declared Criticality `json:"declared"`
	// Criticality is the final level.
	Criticality Criticality `json:"criticality"`
	// Vector is the context vector with missing dimensions defaulted (zero
	// for explicit and standard selections, which take no vector).
	Vector Vector `json:"vector"`
	// Modes are the modes to run, sequenced. Empty when the decision tree
	// ends the session (EndSession).
	Modes []Mode `json:"modes"`
	// Required are the base set's required modes at the final criticality
	// (automatic selection only); the rest of the base set is recommended.
	Required []Mode `json:"required,omitempty"`
	// EstimatedTokens is the catalogue estimate for Modes, for budgeting
	// before running.
	EstimatedTokens int `json:"estimated_tokens"`
	// Threshold is the quality gate: 0.92 with an adversarial context, 0.85
	// in standard mode.
	Threshold float64 `json:"threshold"`
	// EndSession is set when no review can be done in this session (C4 with
	// an exhausted budget or with ENF-MIN): human review is mandatory.
	EndSession  bool         `json:"end_session,omitempty"`
	Escalations []Escalation `json:"escalations,omitempty"`
	Warnings    []Warning    `json:"warnings,omitempty"`
	Trace       Trace        `json:"trace"`
}

// HumanEscalation reports whether a mandatory human-escalation flag was
// raised.
func (s *Selection) HumanEscalation() bool {
	for _, e := range s.Escalations {
		if e.Mandatory {
			return true
		}
	}
	return false
}

// String summarises the selection in one line.
func (s *Selection) String() string {
	modes := FormatModes(s.Modes)
	if modes == "" {
		modes = "none"
	}
	return fmt.Sprintf("%s %s: %s (~%d tokens, threshold %.2f)", s.Source, s.Criticality, modes, s.EstimatedTokens, s.Threshold)
}

type selector struct {
	sel *Selection
}

func (s *selector) decide(d Decision) {
	if d.Criticality == 0 {
		d.Criticality = s.sel.Criticality
	}
	s.sel.Trace = append(s.sel.Trace, d)
}

// escalate runs step 1, the auto-escalation rules AE-001…AE-005, recording
// each. It returns the escalated level.
func (s *selector) escalate(crit Criticality, f Facts) Criticality {
	rules := []struct {
		id    string
		when  bool
		what  string
		floor Criticality
		exact bool // AE-004 sets C4 rather than raising to a minimum
	}{
		{"AE-001", f.ModifiesConstitution, "artifact modifies the constitution", C3, false},
		{"AE-002", f.ModifiesRules, "artifact modifies the rules files", C3, false},
		{"AE-003", f.ADR, "artifact is a new or modified ADR", C3, false},
		{"AE-004", f.ModifiesBaselinedADR, "artifact modifies a baselined ADR", C4, true},
		{"AE-005", f.SecurityRelevant, "artifact modifies security-relevant code", C3, false},
	}
	for _, r := range rules {
		if !r.when {
			s.decide(Decision{Step: 1, Name: "auto-escalation", Rule: r.id, Criticality: crit,
				Detail: "not applicable: " + negate(r.what)})
			continue
		}
		next := maxCrit(crit, r.floor)
		if r.exact {
			next = r.floor
		}
		detail := fmt.Sprintf("%s: %s → %s", r.what, crit, next)
		if next == crit {
			detail = fmt.Sprintf("%s: already %s (minimum %s)", r.what, crit, r.floor)
		}
		s.decide(Decision{Step: 1, Name: "auto-escalation", Rule: r.id, Fired: true, Criticality: next, Detail: detail})
		crit = next
	}
	return crit
}

func negate(what string) string {
	what = strings.TrimPrefix(what, "artifact ")
	switch {
	case strings.HasPrefix(what, "is "):
		return "artifact is not " + strings.TrimPrefix(what, "is ")
	case strings.HasPrefix(what, "modifies "):
		return "artifact does not modify " + strings.TrimPrefix(what, "modifies ")
	}
	return "not " + what
}

// declared returns the criticality selection starts from, recording how it
// was determined.
func (s *selector) declared(c Criticality) Criticality {
	switch {
	case c.Valid():
		s.decide(Decision{Step: 1, Name: "criticality", Rule: "CRIT", Criticality: c,
			Detail: fmt.Sprintf("declared %s", c)})
		return c
	case c != 0:
		s.sel.Warnings = append(s.sel.Warnings, invalidCriticalityWarning(fmt.Sprint(int(c))))
	}
	s.decide(Decision{Step: 1, Name: "criticality", Rule: "CRIT", Fired: true, Criticality: DefaultCriticality,
		Detail: fmt.Sprintf("not given: auto-detection starts at %s", DefaultCriticality)})
	return DefaultCriticality
}

func invalidCriticalityWarning(v string) Warning {
	return Warning{Code: WarnInvalidCriticality, Message: fmt.Sprintf(
		"Invalid criticality value '%s'; falling back to auto-detection.", v)}
}

// applyPhaseModifier is the phase modifier on the criticality level: in
// exploration, adversarial depth is premature, so C2 drops to C1, C3 to C2
// and C4 to C3; every other phase keeps the level (EN-303 TASK-004).
func applyPhaseModifier(c Criticality, p Phase) Criticality {
	if p == PhaseExplore && c > C1 {
		return c - 1
	}
	return c
}

// SelectAutomatic runs the selection algorithm over a context vector
// and the artifact's facts:
//
//  1. auto-escalation AE-001…AE-005;
//  2. the phase modifier, which cannot lower an auto-escalated level
//     (PR-001);
//  3. the base strategy set for the criticality (required and recommended);
//  4. token-budget adaptation (TOK-CONST, TOK-EXHAUST; AE-006 at C3+ when
//     exhausted);
//  5. the maturity gate (approved or baselined: verification modes only);
//  6. the team check (a single agent at C3+ gets single-agent modes and an
//     escalation recommendation; at C4 the review is rejected);
//  7. the ENF-MIN adaptation (ENF-MIN-001…004; a human-escalation flag at
//     C3+);
//  8. the sequencing constraints SEQ-001…SEQ-005.
//
// Missing dimensions take the decision tree's fallback defaults, each with a
// warning. Every rule evaluated is recorded in the Selection's Trace. A
// rejection returns a [*RejectedError] whose Selection holds the trace.
func SelectAutomatic(v Vector, f Facts) (*Selection, error) {
	sel := &Selection{Source: SourceAutomatic, Threshold: AdversarialThreshold}
	s := &selector{sel: sel}

	vec, warns, defaults := v.resolve(f.RemainingTokens)
	sel.Vector = vec
	sel.Warnings = append(sel.Warnings, warns...)
	for _, d := range defaults {
		s.decide(d)
	}

	// Step 1: auto-escalation.
	original := s.declared(v.Criticality)
	sel.Declared = original
	sel.Criticality = original
	crit := s.escalate(original, f)
	sel.Criticality = crit

	// Step 2: phase modifier, with PR-001 precedence.
	phased := applyPhaseModifier(crit, vec.Phase)
	if crit > original {
		kept := maxCrit(crit, phased)
		detail := fmt.Sprintf("auto-escalated %s → %s; %s gives %s, which cannot lower the escalated level; %s stands",
			original, crit, vec.Phase, phased, kept)
		if phased == crit {
			detail = fmt.Sprintf("auto-escalated %s → %s; %s keeps %s", original, crit, vec.Phase, crit)
		}
		s.decide(Decision{Step: 2, Name: "phase modifier", Rule: "PR-001", Fired: phased < crit, Criticality: kept, Detail: detail})
		crit = kept
	} else {
		detail := fmt.Sprintf("%s keeps %s", vec.Phase, crit)
		if phased != crit {
			detail = fmt.Sprintf("%s: adversarial depth premature; %s → %s", vec.Phase, crit, phased)
			for _, d := range sel.Trace {
				if d.Step == 1 && d.Fired && strings.HasPrefix(d.Rule, "AE-") {
					// PR-001 guards only a level that auto-escalation raised.
					detail += "; PR-001 not engaged: auto-escalation did not raise the declared level"
					break
				}
			}
		}
		s.decide(Decision{Step: 2, Name: "phase modifier", Rule: string(vec.Phase), Fired: phased != crit, Criticality: phased, Detail: detail})
		crit = phased
	}
	sel.Criticality = crit

	// Step 3: base strategy set.
	base := baseSets[crit]
	modes := append(clone(base.required), base.recommended...)
	sel.Required = clone(base.required)
	detail := fmt.Sprintf("%s required: %s", crit, FormatModes(base.required))
	if len(base.recommended) > 0 {
		detail += "; recommended: " + FormatModes(base.recommended)
	}
	s.decide(Decision{Step: 3, Name: "strategy set", Rule: "STRATEGY_SETS", Fired: true, Detail: detail, Modes: clone(modes)})

	// Step 4: token budget.
	switch vec.TokenBudget {
	case BudgetConst:
		modes = clone(constSets[crit])
		s.decide(Decision{Step: 4, Name: "token budget", Rule: string(BudgetConst), Fired: true,
			Detail: fmt.Sprintf("constrained budget: %s adapted set, ~%d tokens", crit, EstimateTokens(modes)), Modes: clone(modes)})
	case BudgetExhausted:
		modes = clone(exhaustSets[crit])
		s.decide(Decision{Step: 4, Name: "token budget", Rule: string(BudgetExhausted), Fired: true,
			Detail: fmt.Sprintf("exhausted budget: %s — %s", crit, exhaustActions[crit]), Modes: clone(modes)})
		if crit == C4 {
			sel.EndSession = true
		}
		if crit >= C3 {
			sel.Escalations = append(sel.Escalations, Escalation{Rule: "AE-006", Mandatory: true,
				Reason: fmt.Sprintf("token budget exhausted at %s: human escalation mandatory", crit)})
			s.decide(Decision{Step: 4, Name: "token budget", Rule: "AE-006", Fired: true,
				Detail: "exhausted budget at C3 or above: mandatory human escalation flag"})
		}
	default:
		s.decide(Decision{Step: 4, Name: "token budget", Rule: string(vec.TokenBudget), Detail: "full budget: base set unchanged"})
	}

	// Step 5: maturity gate.
	if vec.Maturity == MaturityApproved || vec.Maturity == MaturityBaseline {
		kept := intersect(modes, verificationModes)
		detail := fmt.Sprintf("%s: verification modes only", vec.Maturity)
		if len(kept) == 0 && len(modes) > 0 {
			kept = []Mode{LLMAsJudge}
			detail += "; none in the set, so S-014 confirmation scoring"
		}
		if dropped := minus(modes, kept); len(dropped) > 0 {
			detail += "; dropped " + FormatModes(dropped)
		}
		modes = kept
		s.decide(Decision{Step: 5, Name: "maturity gate", Rule: string(vec.Maturity), Fired: true, Detail: detail, Modes: clone(modes)})
	} else {
		s.decide(Decision{Step: 5, Name: "maturity gate", Rule: string(vec.Maturity), Detail: fmt.Sprintf("%s: no scope restriction", vec.Maturity)})
	}

	// Step 6: team check.
	if vec.Team == TeamSingle && crit >= C3 {
		kept := intersect(modes, singleAgentModes)
		detail := fmt.Sprintf("single agent at %s: single-agent modes only", crit)
		if dropped := minus(modes, kept); len(dropped) > 0 {
			detail += "; dropped " + FormatModes(dropped)
		}
		modes = kept
		sel.Escalations = append(sel.Escalations, Escalation{Rule: "ESC-007", Mandatory: false,
			Reason: fmt.Sprintf("single-agent review at %s: escalate to TEAM-MULTI or TEAM-HIL", crit)})
		s.decide(Decision{Step: 6, Name: "team check", Rule: string(TeamSingle), Fired: true, Detail: detail, Modes: clone(modes)})
	} else {
		s.decide(Decision{Step: 6, Name: "team check", Rule: string(vec.Team), Detail: fmt.Sprintf("%s at %s: full capability", vec.Team, crit)})
	}
	if vec.Team == TeamSingle && crit == C4 {
		s.decide(Decision{Step: 6, Name: "team check", Rule: "TEAM-SINGLE-C4", Fired: true, Detail: "rejected: " + teamRejection})
		sel.Modes = nil
		return sel, &RejectedError{Rule: "TEAM-SINGLE-C4", Reason: teamRejection, Selection: sel}
	}

	// Step 7: ENF-MIN override.
	if vec.Enforcement == EnforcementMinimal {
		modes = s.enfMin(crit, modes)
		if crit >= C3 {
			sel.Escalations = append(sel.Escalations, Escalation{Rule: "ENF-MIN-002", Mandatory: true,
				Reason: fmt.Sprintf("minimal enforcement at %s: human escalation mandatory", crit)})
			s.decide(Decision{Step: 7, Name: "enforcement", Rule: "ENF-MIN-002", Fired: true,
				Detail: "ENF-MIN at C3 or above: mandatory human escalation flag"})
		}
	} else {
		s.decide(Decision{Step: 7, Name: "enforcement", Rule: string(vec.Enforcement), Detail: fmt.Sprintf("%s: no override", vec.Enforcement)})
	}

	// Step 8: sequencing.
	ordered, seqTrace, err := sequence(modes, nil)
	if err != nil {
		return sel, err
	}
	for _, d := range seqTrace {
		s.decide(d)
	}
	sel.Modes = ordered
	sel.EstimatedTokens = EstimateTokens(ordered)
	return sel, nil
}

// enfMin is adapt_for_enf_min: the ENF-MIN adapted set of the criticality,
// restricted to what earlier steps kept so that budget, maturity and team
// restrictions still hold. If nothing of the adapted set survives, the
// feasible remainder of the current set runs (advisory); if nothing is
// feasible, S-014 scoring (advisory). At C4 the session ends.
func (s *selector) enfMin(crit Criticality, modes []Mode) []Mode {
	s.decide(Decision{Step: 7, Name: "enforcement", Rule: "ENF-MIN-001", Fired: true,
		Detail: "ENF-MIN overrides the platform's enforcement: delivery through L1 rules only, strategies advisory (ENF-MIN-003: portable stack)"})
	if crit == C4 {
		s.sel.EndSession = true
		s.decide(Decision{Step: 7, Name: "enforcement", Rule: "ENF-MIN-004", Fired: true,
			Detail: "C4 under ENF-MIN: end session, human review mandatory", Modes: []Mode{}})
		return []Mode{}
	}
	kept := intersect(modes, enfMinSets[crit])
	var notes []string
	for _, m := range minus(modes, kept) {
		switch {
		case contains(enfMinInfeasible, m):
			notes = append(notes, fmt.Sprintf("%s infeasible", m))
		case contains(enfMinMarginal, m):
			notes = append(notes, fmt.Sprintf("%s marginally feasible", m))
		default:
			notes = append(notes, fmt.Sprintf("%s outside the ENF-MIN %s set", m, crit))
		}
	}
	if len(kept) == 0 && len(modes) > 0 {
		kept = minus(minus(modes, enfMinInfeasible), enfMinMarginal)
		notes = append(notes, "no adapted mode left: feasible remainder runs advisory")
		if len(kept) == 0 {
			kept = []Mode{LLMAsJudge}
			notes = append(notes, "nothing feasible: S-014 advisory scoring")
		}
	}
	detail := fmt.Sprintf("ENF-MIN %s set", crit)
	if len(notes) > 0 {
		detail += "; " + strings.Join(notes, "; ")
	}
	s.decide(Decision{Step: 7, Name: "enforcement", Rule: "ENF-MIN-004", Fired: len(notes) > 0, Detail: detail, Modes: clone(kept)})
	return kept
}

// SelectExplicit selects the modes a user or orchestrator named: modes is
// the --mode value and criticality the --criticality value ("" to
// auto-detect). An unknown mode is rejected with an [*UnknownModeError]; an
// empty list falls back to standard mode with the 0.85 threshold; a tension
// pair or an invalid criticality is a warning. The auto-escalation rules
// apply to the criticality as in automatic selection, and the modes are
// sequenced.
func SelectExplicit(modes, criticality string, f Facts) (*Selection, error) {
	list, err := ParseModeList(modes)
	if err != nil {
		return nil, err
	}
	sel := &Selection{Source: SourceExplicit, Threshold: AdversarialThreshold, Warnings: list.Warnings}
	if list.Defaulted || list.Modes[0] == Standard {
		sel.Source = SourceStandard
		sel.Threshold = StandardThreshold
	}
	s := &selector{sel: sel}
	if list.Defaulted {
		s.decide(Decision{Step: 0, Name: "mode list", Rule: "BC-304-001", Fired: true,
			Detail: "empty mode list: standard mode, threshold 0.85"})
	} else {
		s.decide(Decision{Step: 0, Name: "mode list", Rule: "EXPLICIT", Fired: true,
			Detail: "explicit modes: " + FormatModes(list.Modes)})
	}
	for _, w := range list.Warnings {
		if w.Code == WarnTension {
			s.decide(Decision{Step: 0, Name: "mode list", Rule: "TEN", Fired: true, Detail: w.Message})
		}
	}

	crit := Criticality(0)
	if strings.TrimSpace(criticality) != "" && !strings.EqualFold(strings.TrimSpace(criticality), "auto-detect") {
		c, err := ParseCriticality(criticality)
		if err != nil {
			sel.Warnings = append(sel.Warnings, invalidCriticalityWarning(strings.TrimSpace(criticality)))
		} else {
			crit = c
		}
	}
	original := s.declared(crit)
	sel.Declared = original
	sel.Criticality = original
	sel.Criticality = s.escalate(original, f)

	ordered, seqTrace, err := sequence(list.Modes, nil)
	if err != nil {
		return nil, err
	}
	for _, d := range seqTrace {
		s.decide(d)
	}
	sel.Modes = ordered
	sel.EstimatedTokens = EstimateTokens(ordered)
	return sel, nil
}
