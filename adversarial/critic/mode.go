package critic

import (
	"errors"
	"fmt"
	"strings"
)

// Mode names one adversarial strategy the critic can apply, as it is spelt
// on the command line (--mode red-team,llm-as-judge).
type Mode string

// The ten adversarial modes, with the strategy ids of the catalogue they come
// from. The constants are in the order the "Available modes" list of an
// unknown-mode error gives them.
const (
	SelfRefine          Mode = "self-refine"           // S-010
	Steelman            Mode = "steelman"              // S-003
	Inversion           Mode = "inversion"             // S-013
	Constitutional      Mode = "constitutional"        // S-007
	DevilsAdvocate      Mode = "devils-advocate"       // S-002
	PreMortem           Mode = "pre-mortem"            // S-004
	FMEA                Mode = "fmea"                  // S-012
	ChainOfVerification Mode = "chain-of-verification" // S-011
	LLMAsJudge          Mode = "llm-as-judge"          // S-014
	RedTeam             Mode = "red-team"              // S-001
)

// Standard is the backward-compatible default: no adversarial strategy, one
// quality evaluation over the default dimensions (Completeness, Accuracy,
// Clarity, Actionability, Alignment) against the 0.85 threshold
// (BC-304-001, BC-304-003). It is what an empty mode list means and may only
// appear on its own.
const Standard Mode = "standard"

// StrategyID identifies a strategy in the adversarial strategy catalogue,
// e.g. "S-001".
type StrategyID string

type modeInfo struct {
	mode     Mode
	strategy StrategyID
	title    string
	// tokens is the catalogue's per-invocation estimate. Summed over a set it
	// reproduces the budget table's estimates (TOK-CONST C2 = 5,600, C3 =
	// 10,300, …).
	tokens int
}

// catalogue lists the modes in [Modes] order. It is read-only.
var catalogue = [...]modeInfo{
	{SelfRefine, "S-010", "Self-Refine", 2000},
	{Steelman, "S-003", "Steelman", 1600},
	{Inversion, "S-013", "Inversion", 2100},
	{Constitutional, "S-007", "Constitutional AI Critique", 8000},
	{DevilsAdvocate, "S-002", "Devil's Advocate", 4600},
	{PreMortem, "S-004", "Pre-Mortem", 5600},
	{FMEA, "S-012", "FMEA", 9000},
	{ChainOfVerification, "S-011", "Chain-of-Verification", 6000},
	{LLMAsJudge, "S-014", "LLM-as-Judge", 2000},
	{RedTeam, "S-001", "Red Team", 7000},
}

// standardTokens is the estimate for a standard-mode evaluation: one scoring
// pass, priced like S-014.
const standardTokens = 2000

func lookup(m Mode) (modeInfo, bool) {
	for _, info := range catalogue {
		if info.mode == m {
			return info, true
		}
	}
	return modeInfo{}, false
}

// Modes returns the ten adversarial modes in their canonical order:
// self-refine, steelman, inversion, constitutional, devils-advocate,
// pre-mortem, fmea, chain-of-verification, llm-as-judge, red-team.
func Modes() []Mode {
	out := make([]Mode, len(catalogue))
	for i, info := range catalogue {
		out[i] = info.mode
	}
	return out
}

// Valid reports whether m is one of the ten adversarial modes. Standard is
// not an adversarial mode and is not Valid.
func (m Mode) Valid() bool { _, ok := lookup(m); return ok }

// Strategy returns the mode's strategy id ("S-001" for red-team), or "" for
// Standard and unknown modes.
func (m Mode) Strategy() StrategyID { info, _ := lookup(m); return info.strategy }

// Title returns the strategy's name ("Red Team").
func (m Mode) Title() string {
	if m == Standard {
		return "Standard Critique"
	}
	info, _ := lookup(m)
	return info.title
}

// EstimatedTokens returns the catalogue's per-invocation token estimate.
func (m Mode) EstimatedTokens() int {
	if m == Standard {
		return standardTokens
	}
	info, _ := lookup(m)
	return info.tokens
}

// Label renders the mode as the pipeline context heads it: "steelman (S-003)".
func (m Mode) Label() string {
	if s := m.Strategy(); s != "" {
		return fmt.Sprintf("%s (%s)", m, s)
	}
	return string(m)
}

// EstimateTokens sums the per-invocation estimates of modes.
func EstimateTokens(modes []Mode) int {
	n := 0
	for _, m := range modes {
		n += m.EstimatedTokens()
	}
	return n
}

// ErrUnknownMode matches an [*UnknownModeError].
var ErrUnknownMode = errors.New("unknown mode")

// UnknownModeError rejects a mode name that is not one of the ten.
type UnknownModeError struct {
	Name string
}

// Error reads "Unknown mode '<name>'. Available modes: self-refine, …", the
// user-facing message.
func (e *UnknownModeError) Error() string {
	names := make([]string, len(catalogue))
	for i, info := range catalogue {
		names[i] = string(info.mode)
	}
	return fmt.Sprintf("Unknown mode '%s'. Available modes: %s", e.Name, strings.Join(names, ", "))
}

// Is reports whether target is [ErrUnknownMode].
func (e *UnknownModeError) Is(target error) bool { return target == ErrUnknownMode }

// ParseMode parses one mode name. Names are matched after trimming spaces and
// folding case; "standard" parses to [Standard].
func ParseMode(s string) (Mode, error) {
	m := Mode(strings.ToLower(strings.TrimSpace(s)))
	if m == Standard || m.Valid() {
		return m, nil
	}
	return "", &UnknownModeError{Name: strings.TrimSpace(s)}
}

// tension is one TEN pair of the pairing reference (EN-303 TASK-003): two
// strategies that should not be applied to the same artifact in the same
// pass without scoping them apart.
type tension struct{ a, b Mode }

var tensions = [...]tension{
	{RedTeam, DevilsAdvocate},
	{Steelman, SelfRefine},
}

// Warning codes.
const (
	WarnTension            = "TEN"                   // a tension pair in an explicit mode list
	WarnDuplicateMode      = "DUPLICATE_MODE"        // a mode named twice; the repeat is ignored
	WarnInvalidCriticality = "INVALID_CRITICALITY"   // fell back to auto-detection
	WarnInvalidDimension   = "INVALID_DIMENSION"     // an unknown value for a context dimension
	WarnMissingDimension   = "MISSING_DIMENSION"     // a context dimension defaulted
	WarnBudgetExhausted    = "BUDGET_EXHAUSTED"      // remaining modes skipped mid-pipeline
	WarnModeTimeout        = "MODE_TIMEOUT"          // a mode ran past its time limit
	WarnModeUnavailable    = "MODE_UNAVAILABLE"      // the engine cannot run a mode; skipped
	WarnPipelineTimeout    = "PIPELINE_TIMEOUT"      // the orchestrator's time ran out
	WarnInvalidField       = "INVALID_FIELD"         // an invocation-context field could not be read
	WarnUnknownField       = "UNKNOWN_FIELD"         // an invocation-context field nobody reads
	WarnMaxIterations      = "MAX_ITERATIONS_RAISED" // below the H-14 minimum of 3
)

// Warning is something the critic proceeded despite. Code is one of the
// Warn… constants; Message is worded for people.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (w Warning) String() string { return w.Message }

func tensionWarning(a, b Mode) Warning {
	return Warning{Code: WarnTension, Message: fmt.Sprintf(
		"Tension pair detected: %s and %s. Proceeding with caution. See EN-303 TASK-003 for tension management guidance.", a, b)}
}

// ModeList is a parsed --mode value.
type ModeList struct {
	// Modes are the named modes in the order given, without repeats;
	// [Standard] alone when the list was empty.
	Modes []Mode
	// Defaulted reports that the list was empty and fell back to standard.
	Defaulted bool
	// Warnings: tension pairs (in order of appearance) and repeats.
	Warnings []Warning
}

// ParseModeList parses a comma-separated --mode value. An empty value falls
// back to [Standard]; an unknown name is rejected with an
// [*UnknownModeError]; "standard" combined with adversarial modes is an
// error; a tension pair and a repeated name are warnings.
func ParseModeList(s string) (ModeList, error) {
	var out ModeList
	seen := make(map[Mode]bool)
	for _, part := range strings.Split(s, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		m, err := ParseMode(part)
		if err != nil {
			return ModeList{}, err
		}
		if seen[m] {
			out.Warnings = append(out.Warnings, Warning{Code: WarnDuplicateMode,
				Message: fmt.Sprintf("Mode '%s' is listed more than once; the repeat is ignored.", m)})
			continue
		}
		seen[m] = true
		out.Modes = append(out.Modes, m)
	}
	if len(out.Modes) == 0 {
		return ModeList{Modes: []Mode{Standard}, Defaulted: true}, nil
	}
	if seen[Standard] {
		if len(out.Modes) > 1 {
			return ModeList{}, fmt.Errorf("%w: mode 'standard' cannot be combined with adversarial modes", ErrInvalidInput)
		}
		return out, nil
	}
	out.Warnings = append(out.Warnings, tensionWarnings(out.Modes)...)
	return out, nil
}

// tensionWarnings reports each TEN pair present in modes, the earlier-listed
// mode first, in the order the second member appears.
func tensionWarnings(modes []Mode) []Warning {
	pos := make(map[Mode]int, len(modes))
	for i, m := range modes {
		pos[m] = i
	}
	type hit struct {
		first, second Mode
		at            int
	}
	var hits []hit
	for _, t := range tensions {
		i, okA := pos[t.a]
		j, okB := pos[t.b]
		if !okA || !okB {
			continue
		}
		if i < j {
			hits = append(hits, hit{t.a, t.b, j})
		} else {
			hits = append(hits, hit{t.b, t.a, i})
		}
	}
	// At most two pairs: order them by where the pair completes.
	if len(hits) == 2 && hits[1].at < hits[0].at {
		hits[0], hits[1] = hits[1], hits[0]
	}
	out := make([]Warning, len(hits))
	for i, h := range hits {
		out[i] = tensionWarning(h.first, h.second)
	}
	return out
}

// FormatModes joins modes with commas, as --mode takes them.
func FormatModes(modes []Mode) string {
	parts := make([]string, len(modes))
	for i, m := range modes {
		parts[i] = string(m)
	}
	return strings.Join(parts, ",")
}
