package challenge

import (
	"fmt"
	"strings"
	"time"

	"github.com/crucible-go/crucible/provider"
)

// Status is how a run ended.
type Status string

// Statuses.
const (
	// StatusSkipped: the adversary is disabled, or the artifact's type is
	// not a configured checkpoint.
	StatusSkipped Status = "skipped"
	// StatusConverged: the adversary raised no objections.
	StatusConverged Status = "converged"
	// StatusDeadlock: the adversary reported deadlock.
	StatusDeadlock Status = "deadlock"
	// StatusMaxRounds: the last round ended with challenges.
	StatusMaxRounds Status = "max-rounds"
	// StatusInterrupted: an error or the context ended the run early; the
	// outcome keeps the rounds completed.
	StatusInterrupted Status = "interrupted"
)

// Round is one round of debate.
type Round struct {
	Number int    `json:"number"`
	Reply  *Reply `json:"reply"`
	// Defense is nil in the round that ended the debate.
	Defense *Defense `json:"defense,omitempty"`
	// Revised reports that the defense changed the artifact.
	Revised bool `json:"revised,omitempty"`
}

// Outcome is the result of a run: the rounds, every challenge and where it
// stands, the final status, the decision and the final artifact. Its
// Markdown method renders the decision-log entry.
type Outcome struct {
	Type   ArtifactType `json:"type"`
	Name   string       `json:"name,omitempty"`
	Status Status       `json:"status"`
	// Reason says why the run was skipped.
	Reason string `json:"reason,omitempty"`
	// Error is the error that interrupted the run, as text.
	Error     string  `json:"error,omitempty"`
	MaxRounds int     `json:"max_rounds"`
	Rounds    []Round `json:"rounds,omitempty"`
	// Challenges lists every challenge raised, in order.
	Challenges []Tracked `json:"challenges,omitempty"`
	// Decision is the decider's call; nil when no concern remained or the
	// run did not finish.
	Decision *Decision `json:"decision,omitempty"`
	// Artifact is the final artifact: revised, or as given.
	Artifact string `json:"artifact"`
	// Revised reports that Artifact differs from the input.
	Revised  bool           `json:"revised"`
	Started  time.Time      `json:"started"`
	Finished time.Time      `json:"finished"`
	Usage    provider.Usage `json:"usage,omitzero"`
}

// Remaining returns the concerns still open, by the evidence rule.
func (o *Outcome) Remaining() []Tracked {
	var out []Tracked
	for _, t := range o.Challenges {
		if t.State.Remaining() {
			out = append(out, t)
		}
	}
	return out
}

// Count returns how many challenges are in state s.
func (o *Outcome) Count(s State) int {
	n := 0
	for _, t := range o.Challenges {
		if t.State == s {
			n++
		}
	}
	return n
}

// Markdown renders the outcome as a decision-log entry a host can append to
// its own record (a project's STATE.md, say): a level-3 heading, the
// outcome in brief, every round's challenges with their evidence, the
// defense and where each ended, the remaining concerns and the final
// decision with its rationale.
func (o *Outcome) Markdown() string {
	var b strings.Builder
	name := ""
	if o.Name != "" {
		name = " `" + o.Name + "`"
	}
	fmt.Fprintf(&b, "### Adversary review — %s%s (%s)\n\n", o.Type, name, o.Started.UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "- **Outcome:** %s\n", o.describe())
	if o.Status == StatusSkipped {
		return b.String()
	}
	rem := o.Remaining()
	fmt.Fprintf(&b, "- **Challenges:** %d raised: %d addressed, %d resolved by evidence, %d flagged without evidence, %d raised again, %d remaining",
		len(o.Challenges), o.Count(StateAddressed), o.Count(StateResolved), o.Count(StateFlagged), o.Count(StateSuperseded), len(rem))
	if len(rem) > 0 {
		fmt.Fprintf(&b, " (%s)", severityCounts(rem))
	}
	b.WriteString("\n")
	var revised []string
	for _, r := range o.Rounds {
		if r.Revised {
			revised = append(revised, fmt.Sprint(r.Number))
		}
	}
	switch {
	case len(revised) > 0:
		fmt.Fprintf(&b, "- **Artifact:** revised by the defense in round %s\n", strings.Join(revised, ", "))
	case o.Revised:
		b.WriteString("- **Artifact:** revised by the final decision\n")
	default:
		b.WriteString("- **Artifact:** unchanged\n")
	}
	if o.Decision != nil {
		fmt.Fprintf(&b, "- **Decision:** %s\n", o.Decision.Verdict)
	}
	if !o.Usage.IsZero() {
		fmt.Fprintf(&b, "- **Usage:** %s\n", o.Usage)
	}

	byID := map[string]Tracked{}
	for _, t := range o.Challenges {
		byID[t.ID] = t
	}
	for _, r := range o.Rounds {
		b.WriteString("\n")
		o.renderRound(&b, r, byID)
	}
	if len(rem) > 0 {
		b.WriteString("\n#### Remaining concerns\n\n")
		for _, t := range rem {
			fmt.Fprintf(&b, "- **%s %s** (%s): %s", t.ID, t.Challenge.Title, t.Challenge.Severity, oneLine(t.Challenge.Concern))
			if ev := evidenceText(t.Challenge); ev != "" {
				b.WriteString(" Evidence: " + ev)
			}
			b.WriteString("\n")
		}
	}
	if d := o.Decision; d != nil {
		fmt.Fprintf(&b, "\n#### Decision\n\n**%s.** %s\n", capitalize(string(d.Verdict)), oneLine(d.Rationale))
	}
	return b.String()
}

func (o *Outcome) describe() string {
	switch o.Status {
	case StatusSkipped:
		return "skipped: " + o.Reason
	case StatusConverged:
		return fmt.Sprintf("no objections in round %d of %d", len(o.Rounds), o.MaxRounds)
	case StatusDeadlock, StatusMaxRounds:
		s := fmt.Sprintf("deadlock in round %d of %d", len(o.Rounds), o.MaxRounds)
		if o.Status == StatusMaxRounds {
			s = fmt.Sprintf("maximum of %d rounds reached with challenges", o.MaxRounds)
		}
		if len(o.Remaining()) == 0 {
			s += "; none counts as a remaining concern"
		}
		return s
	case StatusInterrupted:
		return fmt.Sprintf("interrupted after %s: %s", plural(len(o.Rounds), "complete round"), oneLine(o.Error))
	}
	return string(o.Status)
}

func (o *Outcome) renderRound(b *strings.Builder, r Round, byID map[string]Tracked) {
	rep := r.Reply
	head := "challenges"
	switch {
	case rep.NoObjections:
		head = "no objections"
	case rep.Convergence.Status != "":
		head = string(rep.Convergence.Status)
	}
	fmt.Fprintf(b, "#### Round %d — %s\n\n", r.Number, head)
	if rep.NoObjections {
		if rep.Statement != "" {
			b.WriteString(oneLine(rep.Statement) + "\n")
		}
		for _, s := range rep.Summary {
			b.WriteString("- " + oneLine(s) + "\n")
		}
		return
	}
	for _, a := range rep.Assessments {
		fmt.Fprintf(b, "- Defense of %s: %s", oneLine(a.Challenge), a.Status)
		if a.Notes != "" {
			b.WriteString(" — " + oneLine(a.Notes))
		}
		b.WriteString("\n")
	}
	if len(rep.Assessments) > 0 {
		b.WriteString("\n")
	}
	for _, c := range rep.Challenges {
		t := byID[fmt.Sprintf("%d.%d", r.Number, c.Number)]
		if old, ok := byID[t.CarriesOn]; ok && sameText(old.Challenge, c) {
			// Raised again word for word: point to the first telling.
			fmt.Fprintf(b, "- **%s %s** (%s): raised again as in %s.\n", t.ID, c.Title, c.Severity, old.ID)
		} else {
			fmt.Fprintf(b, "- **%s %s** (%s): %s\n", t.ID, c.Title, c.Severity, oneLine(c.Concern))
			if ev := evidenceText(t.Challenge); ev != "" {
				fmt.Fprintf(b, "  - Evidence: %s\n", ev)
			}
			if c.Recommendation != "" {
				fmt.Fprintf(b, "  - Recommendation: %s\n", oneLine(c.Recommendation))
			}
		}
		if t.Response != nil {
			fmt.Fprintf(b, "  - Defense: %s", t.Response.Action)
			if t.Response.Rationale != "" {
				b.WriteString(" — " + oneLine(t.Response.Rationale))
			}
			if t.Response.Evidence != "" {
				b.WriteString(" Evidence: " + oneLine(t.Response.Evidence))
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "  - Result: %s", t.State)
		if t.Note != "" {
			b.WriteString(" — " + t.Note)
		}
		b.WriteString("\n")
	}
	if cv := rep.Convergence; cv.Recommendation != "" || cv.Rationale != "" {
		b.WriteString("\nAdversary's recommendation:")
		if cv.Recommendation != "" {
			b.WriteString(" " + oneLine(cv.Recommendation))
		}
		if cv.Rationale != "" {
			b.WriteString(" — " + oneLine(cv.Rationale))
		}
		b.WriteString("\n")
	}
	if r.Revised {
		b.WriteString("\nThe defense revised the artifact.\n")
	}
}

// evidenceText is a challenge's evidence as written, with the artifact
// lines of its quotes when the text names none.
func evidenceText(c Challenge) string {
	ev := oneLine(c.Evidence)
	if ev == "" {
		return ""
	}
	if reLineRef.MatchString(ev) {
		return ev
	}
	var lines []string
	for _, q := range c.Quotes {
		if q.Source == SourceArtifact {
			lines = append(lines, fmt.Sprint(q.Line))
		}
	}
	if len(lines) > 0 {
		if len(lines) == 1 {
			return ev + " (line " + lines[0] + ")"
		}
		return ev + " (lines " + strings.Join(lines, ", ") + ")"
	}
	return ev
}

// sameText reports whether two challenges say the same thing.
func sameText(a, b Challenge) bool {
	return oneLine(a.Concern) == oneLine(b.Concern) && oneLine(a.Evidence) == oneLine(b.Evidence) &&
		oneLine(a.Recommendation) == oneLine(b.Recommendation) && a.Severity == b.Severity
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
