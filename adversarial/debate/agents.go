package debate

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/crucible-go/crucible/provider"
)

// AgentSpec is one agent of an --agents list: the model that generates a
// variant (Mode B) and argues for it, an optional persona that shapes its
// focus, and an optional free-text instruction.
type AgentSpec struct {
	Model       string `json:"model"`
	Persona     string `json:"persona,omitempty"`
	Instruction string `json:"instruction,omitempty"`
}

// String formats the spec as model[:persona][:"instruction"], escaping
// quotes and backslashes in the instruction, so that for every spec
// [ParseAgentSpec] accepts, ParseAgentSpec(spec.String()) returns spec.
func (s AgentSpec) String() string {
	var b strings.Builder
	b.WriteString(s.Model)
	if s.Persona != "" {
		b.WriteString(":")
		b.WriteString(s.Persona)
	}
	if s.Instruction != "" {
		b.WriteString(":")
		b.WriteString(quote(s.Instruction))
	}
	return b.String()
}

// KnownPersona reports whether the spec's persona is one of [Personas]
// (always true for a spec without a persona).
func (s AgentSpec) KnownPersona() bool {
	_, ok := PersonaFocus(s.Persona)
	return s.Persona == "" || ok
}

// personaFocus is the persona activation table: the seven advocate
// personas (architect, security, analyzer, frontend, backend, performance,
// qa) and what each advocate focuses on, plus the other SuperClaude
// personas an --agents list may name.
var personaFocus = map[string]string{
	"architect":   "structure, dependencies, long-term impact",
	"security":    "vulnerabilities, attack surface, compliance",
	"analyzer":    "evidence quality, logical consistency",
	"frontend":    "user experience, accessibility",
	"backend":     "data integrity, scalability, fault tolerance",
	"performance": "efficiency, bottlenecks, resource usage",
	"qa":          "edge cases, test coverage, failure scenarios",
	"devops":      "deployment, operability, observability",
	"refactorer":  "simplicity, maintainability, technical debt",
	"mentor":      "clarity of explanation, learnability",
	"scribe":      "wording, completeness of documentation, audience fit",
}

// Personas returns the persona names an agent spec may use without a
// warning, sorted.
func Personas() []string {
	out := make([]string, 0, len(personaFocus))
	for p := range personaFocus {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// PersonaFocus returns what an advocate with the persona focuses on
// ("structure, dependencies, long-term impact" for architect). Names are
// case-insensitive.
func PersonaFocus(persona string) (string, bool) {
	f, ok := personaFocus[strings.ToLower(persona)]
	return f, ok
}

// Errors of agent-spec parsing. A malformed spec is a [*SpecError] that
// matches ErrInvalidAgentSpec; counts outside 2–10 match ErrTooFewAgents or
// ErrTooManyAgents. The sentinels' texts are lower-case, as Go error
// strings are; the example command-line tools print them capitalised.
var (
	ErrInvalidAgentSpec = errors.New("invalid agent spec")
	ErrTooFewAgents     = errors.New("adversarial comparison requires at least 2 agents")
	ErrTooManyAgents    = errors.New("maximum 10 agents supported")
)

// SpecError is a spec that cannot be used. Its message is the sentence a
// user is shown ("Unknown model: <model>", "Instruction must be quoted:
// <spec>"); it matches [ErrInvalidAgentSpec] and, for an unknown model,
// wraps the registry's *provider.UnknownModelError (which lists the known
// models), so a caller can reword it with errors.As.
type SpecError struct {
	Spec    string // the spec as written
	Message string
	Err     error // the cause, e.g. a *provider.UnknownModelError; may be nil
}

func (e *SpecError) Error() string { return e.Message }

// Unwrap returns [ErrInvalidAgentSpec] and the cause.
func (e *SpecError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrInvalidAgentSpec, e.Err}
	}
	return []error{ErrInvalidAgentSpec}
}

// ParseAgentSpec parses one agent spec, model[:persona[:"instruction"]]:
//
//	opus                                  model only
//	opus:architect                        model and persona
//	opus:architect:"focus on scalability" model, persona and instruction
//	opus:"focus on scalability"           model and instruction, no persona
//
// A second segment that starts with a double quote is an instruction. Inside
// quotes, colons and commas are text and \" and \\ escape a quote and a
// backslash. Spaces around segments are ignored. The model is not checked
// against a registry here; see [ParseAgents].
func ParseAgentSpec(s string) (AgentSpec, error) {
	spec := strings.TrimSpace(s)
	head, rest, more := cutOutsideQuotes(spec, ':')
	model := strings.TrimSpace(head)
	if model == "" {
		return AgentSpec{}, &SpecError{Spec: s, Message: "Agent spec has no model: " + s}
	}
	if !isName(model) {
		return AgentSpec{}, &SpecError{Spec: s, Message: "Unknown model: " + model}
	}
	out := AgentSpec{Model: model}
	if !more {
		return out, nil
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, `"`) {
		instr, ok := unquote(rest)
		if !ok {
			return AgentSpec{}, &SpecError{Spec: s, Message: "Instruction must be quoted: " + spec}
		}
		out.Instruction = instr
		return out, nil
	}
	persona, instr, hasInstr := cutOutsideQuotes(rest, ':')
	persona = strings.TrimSpace(persona)
	switch {
	case persona == "":
		return AgentSpec{}, &SpecError{Spec: s, Message: "Agent spec has an empty persona: " + spec}
	case strings.Contains(persona, `"`):
		return AgentSpec{}, &SpecError{Spec: s, Message: "Instruction must be quoted: " + spec}
	case !isName(persona):
		return AgentSpec{}, &SpecError{Spec: s, Message: "Invalid persona " + persona + " in agent spec: " + spec}
	}
	out.Persona = persona
	if hasInstr {
		v, ok := unquote(strings.TrimSpace(instr))
		if !ok {
			return AgentSpec{}, &SpecError{Spec: s, Message: "Instruction must be quoted: " + spec}
		}
		out.Instruction = v
	}
	return out, nil
}

// ParseAgents parses a comma-separated --agents list (commas inside quotes
// do not split) with [ParseAgentSpec]; an empty list has no agents. It
// checks the syntax only: [CheckAgents] checks the count and the models
// (the pipeline calls it on its input).
func ParseAgents(list string) ([]AgentSpec, error) {
	items := splitOutsideQuotes(list, ',')
	if strings.TrimSpace(list) == "" {
		items = nil
	}
	var specs []AgentSpec
	for _, item := range items {
		if strings.TrimSpace(item) == "" {
			return nil, &SpecError{Spec: item, Message: "Empty agent spec in list: " + list}
		}
		spec, err := ParseAgentSpec(item)
		if err != nil {
			return nil, err
		}
		specs = append(specs, spec)
	}
	return specs, nil
}

// CheckAgents checks agents given as values: 2–10 of them, every model
// well-formed and known to reg (a nil registry skips that check). An
// unknown persona is not an error: it yields the warning "Unknown persona
// <persona>, using model defaults".
func CheckAgents(specs []AgentSpec, reg *provider.Registry) ([]string, error) {
	var warnings []string
	for _, spec := range specs {
		if !isName(spec.Model) {
			return nil, &SpecError{Spec: spec.String(), Message: "Unknown model: " + spec.Model}
		}
		if spec.Persona != "" && !isName(spec.Persona) {
			return nil, &SpecError{Spec: spec.String(), Message: "Invalid persona " + spec.Persona + " in agent spec: " + spec.String()}
		}
		if reg != nil {
			if _, err := reg.Resolve(spec.Model); err != nil {
				return nil, &SpecError{Spec: spec.String(), Message: "Unknown model: " + spec.Model, Err: err}
			}
		}
		if !spec.KnownPersona() {
			warnings = append(warnings, fmt.Sprintf("Unknown persona %s, using model defaults", spec.Persona))
		}
	}
	switch n := len(specs); {
	case n < 2:
		return nil, fmt.Errorf("%w, got %d", ErrTooFewAgents, n)
	case n > 10:
		return nil, fmt.Errorf("%w, got %d", ErrTooManyAgents, n)
	}
	return warnings, nil
}

// isName reports whether s can be a model or persona: no separators,
// quotes, backslashes, spaces or control characters.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r == ':' || r == ',' || r == '"' || r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// cutOutsideQuotes splits s at the first sep that is not inside a quoted
// string.
func cutOutsideQuotes(s string, sep byte) (before, after string, found bool) {
	inQuote := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inQuote && c == '\\':
			i++ // the escaped byte cannot end the quote
		case c == '"':
			inQuote = !inQuote
		case !inQuote && c == sep:
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// splitOutsideQuotes splits s at every sep outside quoted strings.
func splitOutsideQuotes(s string, sep byte) []string {
	var out []string
	for {
		before, after, found := cutOutsideQuotes(s, sep)
		out = append(out, before)
		if !found {
			return out
		}
		s = after
	}
}

// unquote decodes a string that is exactly one double-quoted string with \"
// and \\ escapes.
func unquote(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' {
		return "", false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i+1 >= len(s) || (s[i+1] != '"' && s[i+1] != '\\') {
				return "", false
			}
			b.WriteByte(s[i+1])
			i++
		case '"':
			return b.String(), i == len(s)-1
		default:
			b.WriteByte(c)
		}
	}
	return "", false // no closing quote
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
