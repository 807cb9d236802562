package roadmap

import (
	"errors"
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/provider"
)

// Errors of Wave 0, the validation that runs before any work. Each names
// the flag or setting at fault and, where a collaborator is missing, the
// option that supplies it.
var (
	// ErrPipelineNotConfigured: an adversarial mode was asked for but the
	// Planner has no pipeline (see WithPipeline).
	ErrPipelineNotConfigured = errors.New("sc:adversarial pipeline not configured. Required for --specs/--multi-roadmap flags. Configure via: roadmap.WithPipeline")
	// ErrAgentCount matches an [*AgentCountError].
	ErrAgentCount = errors.New("agent count must be 2-10")
	// ErrAgentsWithoutMultiRoadmap: --agents given without --multi-roadmap.
	ErrAgentsWithoutMultiRoadmap = errors.New("--agents requires --multi-roadmap")
	// ErrNoSpec: neither a spec nor --specs was given.
	ErrNoSpec = errors.New("a specification is required: give a spec file, or --specs for multi-spec consolidation")
	// ErrSpecAndSpecs: a spec and --specs were both given.
	ErrSpecAndSpecs = errors.New("give a spec file or --specs, not both: --specs replaces the spec file")
	// ErrNoApprover: --interactive with an adversarial mode, but no Approver
	// to ask when convergence is below 60% (see WithApprover).
	ErrNoApprover = errors.New("--interactive needs an approver to ask when convergence is below 60%. Configure via: roadmap.WithApprover")
)

// AgentCountError is an --agents list with fewer than 2 or more than 10
// agents. It matches [ErrAgentCount] and the adversarial package's
// ErrTooFewAgents or ErrTooManyAgents.
type AgentCountError struct {
	N   int   // agents provided
	Err error // adversarial.ErrTooFewAgents or adversarial.ErrTooManyAgents
}

// Error reads "Agent count must be 2-10. Provided: N".
func (e *AgentCountError) Error() string {
	return fmt.Sprintf("%s. Provided: %d", ErrAgentCount, e.N)
}

// Unwrap returns ErrAgentCount and the adversarial package's count error.
func (e *AgentCountError) Unwrap() []error { return []error{ErrAgentCount, e.Err} }

// UnknownModelError is an --agents model the registry does not know. It
// wraps the registry's *provider.UnknownModelError, so it matches
// provider.ErrUnknownModel and adversarial.ErrInvalidAgentSpec.
type UnknownModelError struct {
	Model     string
	Available []string // the registry's names, sorted
	Err       error    // the *adversarial.SpecError
}

// Error reads "Unknown model '<model>' in --agents. Available models: a,
// b, …".
func (e *UnknownModelError) Error() string {
	avail := "none"
	if len(e.Available) > 0 {
		avail = strings.Join(e.Available, ", ")
	}
	return fmt.Sprintf("Unknown model '%s' in --agents. Available models: %s", e.Model, avail)
}

func (e *UnknownModelError) Unwrap() error { return e.Err }

// CheckAgents checks --agents given as values with debate.CheckAgents and
// rewords its errors as sc:roadmap does: a count outside 2–10 is an
// [*AgentCountError], a model reg does not know an [*UnknownModelError]; a
// malformed spec keeps the debate package's message. A nil registry
// accepts every model. The warnings name unknown personas.
func CheckAgents(specs []debate.AgentSpec, reg *provider.Registry) ([]string, error) {
	warnings, err := debate.CheckAgents(specs, reg)
	if err != nil {
		return nil, reword(err, len(specs))
	}
	return warnings, nil
}

func reword(err error, n int) error {
	var unknown *provider.UnknownModelError
	switch {
	case errors.Is(err, debate.ErrTooFewAgents):
		return &AgentCountError{N: n, Err: debate.ErrTooFewAgents}
	case errors.Is(err, debate.ErrTooManyAgents):
		return &AgentCountError{N: n, Err: debate.ErrTooManyAgents}
	case errors.As(err, &unknown):
		return &UnknownModelError{Model: unknown.Model, Available: unknown.Available, Err: err}
	}
	return err
}

// ErrEmptySpec: a specification with no text.
var ErrEmptySpec = errors.New("specification is empty")

// wave0 is what validation establishes.
type wave0 struct {
	mode     Mode
	depth    debate.Depth
	agents   []debate.AgentSpec
	spec     *diff.Document // the spec of ModeNone and ModeMultiRoadmap
	warnings []Warning
}

// Validate runs Wave 0 on req without doing any work: the same checks, in
// the same order, as Run.
func (p *Planner) Validate(req Request) error {
	_, err := p.validate(req)
	return err
}

func (p *Planner) validate(req Request) (*wave0, error) {
	w := &wave0{mode: req.Mode()}
	if w.mode.Adversarial() && p.pipeline == nil {
		return nil, ErrPipelineNotConfigured
	}
	if len(req.Agents) > 0 && !req.MultiRoadmap {
		return nil, ErrAgentsWithoutMultiRoadmap
	}
	if w.mode.Consolidates() {
		if req.Spec != nil {
			return nil, ErrSpecAndSpecs
		}
		switch n := len(req.Specs); {
		case n < 2:
			return nil, fmt.Errorf("%w, got %d", adversarial.ErrTooFewFiles, n)
		case n > 10:
			return nil, fmt.Errorf("%w, got %d", adversarial.ErrTooManyFiles, n)
		}
		for _, s := range req.Specs {
			if _, err := parseSpec(s); err != nil {
				return nil, err
			}
		}
	} else {
		if req.Spec == nil {
			return nil, ErrNoSpec
		}
		doc, err := parseSpec(*req.Spec)
		if err != nil {
			return nil, err
		}
		w.spec = doc
	}
	if w.mode.Generates() {
		warnings, err := CheckAgents(req.Agents, p.registry)
		if err != nil {
			return nil, err
		}
		w.agents = req.Agents
		for _, m := range warnings {
			w.warnings = append(w.warnings, Warning{Kind: WarnInput, Message: m})
		}
	}
	if req.Interactive && w.mode.Adversarial() && p.approver == nil {
		return nil, ErrNoApprover
	}
	switch w.depth = req.Depth; {
	case w.depth == "":
		w.depth = debate.DepthStandard
	case w.depth.MaxRounds() == 0:
		return nil, fmt.Errorf("%w: unknown depth %q: quick, standard or deep", adversarial.ErrInvalidInput, req.Depth)
	}
	return w, nil
}

func parseSpec(s adversarial.Draft) (*diff.Document, error) {
	doc, err := diff.Parse(s.Name, s.Content)
	if err != nil {
		return nil, fmt.Errorf("roadmap: %w", err)
	}
	if doc.Words == 0 && len(doc.Sections) == 0 {
		return nil, fmt.Errorf("%w: %s", ErrEmptySpec, s.Name)
	}
	return doc, nil
}
