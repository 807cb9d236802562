package challenge

import (
	"context"
	"fmt"
	"strings"
)

// Decider makes the final call when the debate ends with concerns remaining
// — at the maximum rounds or in deadlock. The final call belongs to the
// host, never to the adversary; its rationale is logged. [RuleDecider] is
// the deterministic one. Implementations must be safe for concurrent use.
type Decider interface {
	Decide(ctx context.Context, req DecisionRequest) (Decision, error)
}

// DeciderFunc adapts a function to the [Decider] interface.
type DeciderFunc func(ctx context.Context, req DecisionRequest) (Decision, error)

// Decide calls f(ctx, req).
func (f DeciderFunc) Decide(ctx context.Context, req DecisionRequest) (Decision, error) {
	return f(ctx, req)
}

// DecisionRequest is what the decider receives.
type DecisionRequest struct {
	Type     ArtifactType
	Name     string
	Artifact string
	Context  string
	// Status is how the debate ended: StatusDeadlock or StatusMaxRounds.
	Status    Status
	Rounds    int
	MaxRounds int
	// Remaining are the open concerns, by the evidence rule.
	Remaining []Tracked
	// Last is the adversary's last reply.
	Last *Reply
}

// Verdict is the final call.
type Verdict string

// Verdicts. None of them blocks the host: the adversary is advisory, and
// "escalate to user" asks the host to put the concerns to a person.
const (
	Proceed         Verdict = "proceed"
	AcceptWithRisks Verdict = "accept with noted risks"
	Escalate        Verdict = "escalate to user"
)

// Decision is the decider's call and its rationale.
type Decision struct {
	Verdict   Verdict `json:"verdict"`
	Rationale string  `json:"rationale"`
	// Revised is a final revision of the artifact; empty for none.
	Revised string `json:"revised,omitempty"`
}

// RuleDecider is the deterministic decider: it escalates to the user when
// a critical concern remains and otherwise accepts with the remaining
// risks noted, listing them. The zero value is ready to use.
type RuleDecider struct{}

// Decide implements [Decider].
func (RuleDecider) Decide(ctx context.Context, req DecisionRequest) (Decision, error) {
	if err := ctx.Err(); err != nil {
		return Decision{}, err
	}
	var crit []string
	var list []string
	for _, t := range req.Remaining {
		ref := t.ID + " " + t.Challenge.Title
		if line := firstLine(t.Challenge); line > 0 {
			ref += fmt.Sprintf(" (line %d)", line)
		}
		list = append(list, ref)
		if t.Challenge.Severity == Critical {
			crit = append(crit, t.ID)
		}
	}
	ended := "after the maximum of " + plural(req.Rounds, "round")
	if req.Status == StatusDeadlock {
		ended = "in deadlock after " + plural(req.Rounds, "round")
	}
	verb := "remain"
	if len(req.Remaining) == 1 {
		verb = "remains"
	}
	head := fmt.Sprintf("%s %s %s (%s)", plural(len(req.Remaining), "concern"), verb, ended, severityCounts(req.Remaining))
	if len(crit) > 0 {
		return Decision{Verdict: Escalate, Rationale: fmt.Sprintf(
			"%s; critical: %s. A critical concern should not be accepted silently: put it to the user before proceeding.",
			head, strings.Join(crit, ", "))}, nil
	}
	return Decision{Verdict: AcceptWithRisks, Rationale: fmt.Sprintf(
		"%s; none is critical. The adversary is advisory, so the work proceeds with these risks noted: %s.",
		head, strings.Join(list, "; "))}, nil
}

// firstLine returns the artifact line of a challenge's first located
// quote, or 0.
func firstLine(c Challenge) int {
	for _, q := range c.Quotes {
		if q.Source == SourceArtifact && q.Line > 0 {
			return q.Line
		}
	}
	return 0
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// severityCounts describes tracked challenges by severity: "1 critical,
// 2 minor".
func severityCounts(ts []Tracked) string {
	var n [4]int
	for _, t := range ts {
		n[t.Challenge.Severity.Rank()]++
	}
	var parts []string
	for _, s := range []Severity{Critical, Significant, Minor} {
		if c := n[s.Rank()]; c > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c, s))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
