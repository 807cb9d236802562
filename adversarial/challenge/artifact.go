package challenge

import (
	"fmt"
	"slices"
	"strings"
)

// ArtifactType is what the adversary challenges: one of the four artifacts
// at whose checkpoints it runs, each with its own challenge categories.
type ArtifactType string

// The artifact types, named as a request's <artifact_type> element names
// them.
const (
	Requirements ArtifactType = "requirements"
	Roadmap      ArtifactType = "roadmap"
	Plan         ArtifactType = "plan"
	Verification ArtifactType = "verification"
)

// ArtifactTypes returns the four types in checkpoint order.
func ArtifactTypes() []ArtifactType {
	return []ArtifactType{Requirements, Roadmap, Plan, Verification}
}

// ParseArtifactType reads a type or checkpoint name, case-insensitively.
// The configuration's plural checkpoint name "plans" means [Plan]; the file
// names REQUIREMENTS.md, ROADMAP.md, PLAN.md and VERIFICATION.md are
// accepted too.
func ParseArtifactType(s string) (ArtifactType, error) {
	n := strings.ToLower(strings.TrimSpace(s))
	n = strings.TrimSuffix(n, ".md")
	switch n {
	case "requirements", "requirement":
		return Requirements, nil
	case "roadmap", "roadmaps":
		return Roadmap, nil
	case "plan", "plans":
		return Plan, nil
	case "verification", "verifications":
		return Verification, nil
	}
	return "", fmt.Errorf("%w: unknown artifact type %q; want requirements, roadmap, plan or verification", ErrInvalidInput, s)
}

// Valid reports whether t is one of the four types.
func (t ArtifactType) Valid() bool {
	switch t {
	case Requirements, Roadmap, Plan, Verification:
		return true
	}
	return false
}

// Categories returns the type's challenge categories, in a fixed order.
func (t ArtifactType) Categories() []Category {
	switch t {
	case Requirements:
		return []Category{Completeness, Feasibility, Conflicts, ScopeCreep, UserFocus}
	case Roadmap:
		return []Category{PhaseOrdering, ScopePerPhase, Coverage, RiskDistribution, MilestoneClarity}
	case Plan:
		return []Category{TaskDecomposition, VerificationGaps, MissingWiring, AssumptionExposure, ComplexityHiding}
	case Verification:
		return []Category{Coverage, FalsePositives, HumanVerification, RegressionRisk}
	}
	return nil
}

// Category is a kind of challenge. Each artifact type has its own set (see
// [ArtifactType.Categories]); Coverage belongs to two.
type Category string

// The challenge categories, grouped by artifact type.
const (
	// Requirements.
	Completeness Category = "Completeness" // obvious requirements missing for this type of product
	Feasibility  Category = "Feasibility"  // buildable with the stated constraints
	Conflicts    Category = "Conflicts"    // requirements that contradict each other
	ScopeCreep   Category = "Scope creep"  // implementation details posing as requirements
	UserFocus    Category = "User focus"   // framed from the user's perspective or the system's

	// Roadmaps.
	PhaseOrdering    Category = "Phase ordering"    // a sequence that respects dependencies
	ScopePerPhase    Category = "Scope per phase"   // phases too large or too small
	Coverage         Category = "Coverage"          // every requirement in a phase; every must-have checked
	RiskDistribution Category = "Risk distribution" // risky items front-loaded, not buried
	MilestoneClarity Category = "Milestone clarity" // testable phase goals

	// Plans.
	TaskDecomposition  Category = "Task decomposition"  // tasks atomic enough, not too granular
	VerificationGaps   Category = "Verification gaps"   // completion verifiable objectively
	MissingWiring      Category = "Missing wiring"      // integrations explicitly planned
	AssumptionExposure Category = "Assumption exposure" // what is assumed about dependencies
	ComplexityHiding   Category = "Complexity hiding"   // "implement X" tasks that hide complexity

	// Verification reports.
	FalsePositives    Category = "False positives"    // passing checks that could hide real issues
	HumanVerification Category = "Human verification" // the right things flagged for human review
	RegressionRisk    Category = "Regression risk"    // passing while breaking something else
)

// categoryAliases are other names models use for the categories,
// lower-cased (the widely used fork's names among them).
var categoryAliases = map[string]Category{
	"requirement coverage": Coverage,
	"task completeness":    TaskDecomposition,
	"scope":                ScopePerPhase,
	"conflict":             Conflicts,
	"contradiction":        Conflicts,
	"contradictions":       Conflicts,
	"verification gap":     VerificationGaps,
	"assumptions":          AssumptionExposure,
	"wiring":               MissingWiring,
	"false positive":       FalsePositives,
}

// allCategories lists every category once, in a fixed order; matching needs
// a separator after the name, so no name shadows another.
var allCategories = []Category{
	AssumptionExposure, HumanVerification, TaskDecomposition, RiskDistribution, ComplexityHiding,
	MilestoneClarity, VerificationGaps, FalsePositives, RegressionRisk, ScopePerPhase, PhaseOrdering,
	MissingWiring, Completeness, Feasibility, ScopeCreep, UserFocus, Conflicts, Coverage,
}

// matchCategory finds the category a challenge heading or field names: the
// whole text, or its start followed by a separator ("Conflicts — retry
// limits"). It returns "" when the text names none.
func matchCategory(text string) Category {
	t := strings.ToLower(strings.TrimSpace(strings.Trim(text, "[]*_` ")))
	if t == "" {
		return ""
	}
	try := func(name string) bool {
		if !strings.HasPrefix(t, name) {
			return false
		}
		rest := t[len(name):]
		return rest == "" || strings.ContainsAny(rest[:1], " :-–—(/,.]")
	}
	for _, c := range allCategories {
		if try(strings.ToLower(string(c))) {
			return c
		}
	}
	for _, alias := range sortedAliases {
		if try(alias) {
			return categoryAliases[alias]
		}
	}
	return ""
}

// sortedAliases holds the alias keys, longest first, so matching never
// depends on map order.
var sortedAliases = func() []string {
	keys := make([]string, 0, len(categoryAliases))
	for k := range categoryAliases {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return keys
}()

// Question returns the question the category asks of an artifact of type
// t (Coverage asks one thing of a roadmap and another of a verification
// report).
func (c Category) Question(t ArtifactType) string {
	switch c {
	case Completeness:
		return "Are there obvious requirements missing for this type of product?"
	case Feasibility:
		return "Can this actually be built with stated constraints?"
	case Conflicts:
		return "Do requirements contradict each other?"
	case ScopeCreep:
		return "Are \"requirements\" actually implementation details?"
	case UserFocus:
		return "Are these framed from user perspective or system perspective?"
	case PhaseOrdering:
		return "Does this sequence make sense? Dependencies respected?"
	case ScopePerPhase:
		return "Is any phase too large or too small?"
	case Coverage:
		if t == Verification {
			return "Were all must-haves actually checked?"
		}
		return "Do all requirements map to phases?"
	case RiskDistribution:
		return "Are risky items front-loaded or buried?"
	case MilestoneClarity:
		return "Are phase goals testable?"
	case TaskDecomposition:
		return "Are tasks atomic enough? Too granular?"
	case VerificationGaps:
		return "Can completion be verified objectively?"
	case MissingWiring:
		return "Are integrations explicitly planned?"
	case AssumptionExposure:
		return "What's being assumed about dependencies?"
	case ComplexityHiding:
		return "Are there \"implement X\" tasks that hide complexity?"
	case FalsePositives:
		return "Could passing checks hide real issues?"
	case HumanVerification:
		return "Are the right things flagged for human review?"
	case RegressionRisk:
		return "Could this pass while breaking something else?"
	}
	return ""
}
