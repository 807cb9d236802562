package critic

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// PSContext is the required PS CONTEXT block of an invocation.
type PSContext struct {
	PSID           string `json:"ps_id"`
	EntryID        string `json:"entry_id"`
	Iteration      int    `json:"iteration"` // 1-based; 0 when not given
	Artifact       string `json:"artifact"`
	GeneratorAgent string `json:"generator_agent"`
}

// AdversarialContext is the optional ADVERSARIAL CONTEXT block: its presence
// triggers adversarial mode and the 0.92 threshold.
type AdversarialContext struct {
	// Auto selects the modes with the decision tree; otherwise Modes names
	// them.
	Auto  bool   `json:"auto"`
	Modes []Mode `json:"modes,omitempty"`
	// Vector holds the dimensions; Criticality 0 means auto-detect.
	Vector        Vector   `json:"vector"`
	PreviousScore *float64 `json:"previous_score,omitempty"`
}

// Invocation is a critic invocation as the orchestrator writes it.
type Invocation struct {
	PS          PSContext           `json:"ps"`
	Adversarial *AdversarialContext `json:"adversarial,omitempty"`
	// Criteria is the EVALUATION CRITERIA text, verbatim.
	Criteria string `json:"criteria,omitempty"`
	// TargetScore is the IMPROVEMENT THRESHOLD's target; nil means the
	// default for the mode (see Threshold).
	TargetScore *float64 `json:"target_score,omitempty"`
	// MaxIterations is the IMPROVEMENT THRESHOLD's circuit breaker; 0 means
	// the default of 3.
	MaxIterations int `json:"max_iterations,omitempty"`
}

// Threshold is the quality gate: the target score when given, else 0.92
// with an adversarial context (IR-304-003) and 0.85 without (BC-304-003).
func (inv Invocation) Threshold() float64 {
	switch {
	case inv.TargetScore != nil:
		return *inv.TargetScore
	case inv.Adversarial != nil:
		return AdversarialThreshold
	}
	return StandardThreshold
}

// Section headings of an invocation.
const (
	psHeading          = "PS CONTEXT"
	adversarialHeading = "ADVERSARIAL CONTEXT"
	criteriaHeading    = "EVALUATION CRITERIA"
	thresholdHeading   = "IMPROVEMENT THRESHOLD"
)

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// Markdown renders the invocation as the PS CONTEXT document;
// [ParseInvocation] reads it back to an equal Invocation.
func (inv Invocation) Markdown() string {
	var b strings.Builder
	field := func(k, v string) { fmt.Fprintf(&b, "- **%s:** %s\n", k, v) }
	b.WriteString("## " + psHeading + " (REQUIRED)\n")
	field("PS ID", inv.PS.PSID)
	field("Entry ID", inv.PS.EntryID)
	if inv.PS.Iteration != 0 {
		field("Iteration", strconv.Itoa(inv.PS.Iteration))
	}
	field("Artifact to Critique", inv.PS.Artifact)
	field("Generator Agent", inv.PS.GeneratorAgent)
	if a := inv.Adversarial; a != nil {
		b.WriteString("\n## " + adversarialHeading + "\n")
		mode := "auto"
		if !a.Auto {
			mode = FormatModes(a.Modes)
		}
		field("Mode", mode)
		field("Criticality", a.Vector.Criticality.String())
		for _, d := range dimensions {
			if v := d.get(&a.Vector); v != "" {
				field(d.name, v)
			}
		}
		score := "null"
		if a.PreviousScore != nil {
			score = formatFloat(*a.PreviousScore)
		}
		field("Previous Score", score)
	}
	if inv.Criteria != "" {
		b.WriteString("\n## " + criteriaHeading + "\n")
		for _, l := range strings.Split(inv.Criteria, "\n") {
			// A line that could read as a heading is escaped so that the
			// criteria cannot end their own section.
			if strings.HasPrefix(strings.TrimLeft(l, " \t"), "#") || strings.HasPrefix(l, `\`) {
				l = `\` + l
			}
			b.WriteString(l + "\n")
		}
	}
	if inv.TargetScore != nil || inv.MaxIterations != 0 {
		b.WriteString("\n## " + thresholdHeading + "\n")
		if inv.TargetScore != nil {
			field("Target Score", formatFloat(*inv.TargetScore))
		}
		if inv.MaxIterations != 0 {
			field("Max Iterations", strconv.Itoa(inv.MaxIterations))
		}
	}
	return b.String()
}

var (
	reInvHeading = regexp.MustCompile(`^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$`)
	reInvField   = regexp.MustCompile(`^\s*[-*+]\s+(?:\*\*)?([^:*]+?)\s*:(?:\*\*)?\s*(.*?)\s*$`)
	reLeadingInt = regexp.MustCompile(`^\d+`)
)

// ParseInvocation reads a PS CONTEXT document. The PS CONTEXT section is
// required. An ADVERSARIAL CONTEXT section triggers adversarial mode; its
// missing dimensions take their defaults and each is reported as a warning,
// as are invalid values (an invalid criticality falls back to
// auto-detection). An unknown mode name is an [*UnknownModeError], whose
// message lists the available modes.
func ParseInvocation(text string) (Invocation, []Warning, error) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	var inv Invocation
	var warns []Warning
	warn := func(code, format string, args ...any) {
		warns = append(warns, Warning{Code: code, Message: fmt.Sprintf(format, args...)})
	}
	type section struct {
		name  string
		lines []string
	}
	var sections []section
	for _, l := range strings.Split(text, "\n") {
		if m := reInvHeading.FindStringSubmatch(l); m != nil {
			name := strings.ToUpper(m[1])
			for _, known := range []string{psHeading, adversarialHeading, criteriaHeading, thresholdHeading} {
				if strings.HasPrefix(name, known) {
					sections = append(sections, section{name: known})
					break
				}
				if known == thresholdHeading {
					sections = append(sections, section{name: ""}) // an unrelated heading ends the section
				}
			}
			continue
		}
		if len(sections) > 0 {
			s := &sections[len(sections)-1]
			s.lines = append(s.lines, l)
		}
	}
	fields := func(s section) []([2]string) {
		var out [][2]string
		for _, l := range s.lines {
			if m := reInvField.FindStringSubmatch(l); m != nil {
				out = append(out, [2]string{strings.ToLower(strings.TrimSpace(m[1])), m[2]})
			}
		}
		return out
	}
	seenPS := false
	for _, s := range sections {
		switch s.name {
		case psHeading:
			seenPS = true
			for _, f := range fields(s) {
				switch f[0] {
				case "ps id":
					inv.PS.PSID = f[1]
				case "entry id":
					inv.PS.EntryID = f[1]
				case "iteration":
					n, err := strconv.Atoi(reLeadingInt.FindString(f[1]))
					if err != nil || n < 1 {
						warn(WarnInvalidField, "Invalid Iteration '%s'; want a number from 1.", f[1])
						inv.PS.Iteration = 0
						continue
					}
					inv.PS.Iteration = n
				case "artifact to critique", "artifact":
					inv.PS.Artifact = f[1]
				case "generator agent":
					inv.PS.GeneratorAgent = f[1]
				default:
					warn(WarnUnknownField, "Unknown PS CONTEXT field '%s' ignored.", f[0])
				}
			}
		case adversarialHeading:
			a, w, err := parseAdversarial(fields(s))
			if err != nil {
				return Invocation{}, warns, err
			}
			warns = append(warns, w...)
			inv.Adversarial = a
		case criteriaHeading:
			lines := append([]string(nil), s.lines...)
			for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
				lines = lines[1:]
			}
			for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
				lines = lines[:len(lines)-1]
			}
			for i, l := range lines {
				lines[i] = strings.TrimPrefix(l, `\`)
			}
			inv.Criteria = strings.Join(lines, "\n")
		case thresholdHeading:
			for _, f := range fields(s) {
				switch f[0] {
				case "target score":
					v, err := strconv.ParseFloat(strings.Fields(f[1] + " x")[0], 64)
					if err != nil || math.IsNaN(v) || v <= 0 || v > 1 {
						warn(WarnInvalidField, "Invalid Target Score '%s'; want a number in (0, 1]. Using the default.", f[1])
						inv.TargetScore = nil
						continue
					}
					inv.TargetScore = &v
				case "max iterations":
					n, err := strconv.Atoi(reLeadingInt.FindString(f[1]))
					switch {
					case err != nil:
						warn(WarnInvalidField, "Invalid Max Iterations '%s'; using %d.", f[1], DefaultMaxIterations)
						inv.MaxIterations = 0
					case n < DefaultMaxIterations:
						warn(WarnMaxIterations, "Max Iterations %d is below the 3-iteration minimum (H-14); using 3.", n)
						inv.MaxIterations = DefaultMaxIterations
					default:
						inv.MaxIterations = n
					}
				default:
					warn(WarnUnknownField, "Unknown IMPROVEMENT THRESHOLD field '%s' ignored.", f[0])
				}
			}
		}
	}
	if !seenPS {
		return Invocation{}, warns, fmt.Errorf("%w: the invocation has no PS CONTEXT section", ErrInvalidInput)
	}
	return inv, warns, nil
}

func parseAdversarial(fields [][2]string) (*AdversarialContext, []Warning, error) {
	a := &AdversarialContext{}
	var warns []Warning
	seen := map[string]bool{}
	modeSet := false
	for _, f := range fields {
		key, val := f[0], f[1]
		seen[key] = true
		switch key {
		case "mode":
			modeSet = true
			if v := strings.ToLower(strings.TrimSpace(val)); v == "auto" || v == "" {
				a.Auto, a.Modes = true, nil
				continue
			}
			list, err := ParseModeList(val)
			if err != nil {
				return nil, warns, err
			}
			a.Auto, a.Modes = false, list.Modes
			warns = append(warns, list.Warnings...)
		case "criticality":
			v := strings.TrimSpace(val)
			if v == "" || strings.EqualFold(v, "auto-detect") || strings.EqualFold(v, "auto") {
				a.Vector.Criticality = 0
				continue
			}
			c, err := ParseCriticality(v)
			if err != nil {
				warns = append(warns, invalidCriticalityWarning(v))
				a.Vector.Criticality = 0
				continue
			}
			a.Vector.Criticality = c
		case "previous score":
			v := strings.TrimSpace(val)
			if v == "" || strings.EqualFold(v, "null") || strings.EqualFold(v, "none") {
				a.PreviousScore = nil
				continue
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(x) || x < 0 || x > 1 {
				warns = append(warns, Warning{Code: WarnInvalidField, Message: fmt.Sprintf("Invalid Previous Score '%s'; want 0.00–1.00 or null.", v)})
				a.PreviousScore = nil
				continue
			}
			a.PreviousScore = &x
		default:
			found := false
			for _, d := range dimensions {
				if strings.ToLower(d.name) == key {
					d.set(&a.Vector, val) // validated below by resolve
					found = true
				}
			}
			if !found {
				warns = append(warns, Warning{Code: WarnUnknownField, Message: fmt.Sprintf("Unknown ADVERSARIAL CONTEXT field '%s' ignored.", key)})
			}
		}
	}
	if !modeSet {
		a.Auto = true
		warns = append(warns, Warning{Code: WarnMissingDimension, Message: "Missing context dimension Mode; using default auto."})
	}
	if !seen["criticality"] {
		warns = append(warns, Warning{Code: WarnMissingDimension, Message: "Missing context dimension Criticality; using default auto-detect."})
	}
	v, w, _ := a.Vector.resolve(nil)
	a.Vector = v
	warns = append(warns, w...)
	return a, warns, nil
}
