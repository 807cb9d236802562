package challenge

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/internal/words"
	"github.com/crucible-go/crucible/provider"
)

// Severity grades a challenge. The scale is critical, significant, minor;
// the widely used fork's BLOCKING, MAJOR and MINOR map onto it.
type Severity string

// Severities, in decreasing order.
const (
	Critical    Severity = "critical"
	Significant Severity = "significant"
	Minor       Severity = "minor"
)

// ParseSeverity reads a severity in either dialect, case-insensitively:
// critical | significant | minor, or BLOCKING | MAJOR | MINOR (also high,
// medium and low).
func ParseSeverity(s string) (Severity, error) {
	if strings.Contains(s, "|") {
		return "", fmt.Errorf("severity %q lists the choices; pick one of critical, significant, minor", s)
	}
	w := firstWord(s)
	switch w {
	case "critical", "blocking", "blocker", "high":
		return Critical, nil
	case "significant", "major", "medium":
		return Significant, nil
	case "minor", "low":
		return Minor, nil
	}
	return "", fmt.Errorf("severity %q is not critical, significant or minor (or BLOCKING, MAJOR, MINOR)", s)
}

// Rank orders severities: 3 for critical, 2 significant, 1 minor, 0 otherwise.
func (s Severity) Rank() int {
	switch s {
	case Critical:
		return 3
	case Significant:
		return 2
	case Minor:
		return 1
	}
	return 0
}

// ConvergenceStatus is the adversary's view of the debate.
type ConvergenceStatus string

// Convergence statuses. The fork's CONTINUE is [Continue], its CONVERGE
// [Converging]; it has no deadlock.
const (
	Continue   ConvergenceStatus = "continue"
	Converging ConvergenceStatus = "converging"
	Deadlock   ConvergenceStatus = "deadlock"
)

func parseConvergenceStatus(s string) (ConvergenceStatus, error) {
	if strings.Contains(s, "|") {
		return "", fmt.Errorf("convergence status %q lists the choices; pick one of continue, converging, deadlock", s)
	}
	switch firstWord(s) {
	case "continue", "continuing":
		return Continue, nil
	case "converging", "converge", "converged", "convergence":
		return Converging, nil
	case "deadlock", "deadlocked":
		return Deadlock, nil
	}
	return "", fmt.Errorf("convergence status %q is not continue, converging or deadlock (or CONTINUE, CONVERGE)", s)
}

// AssessmentStatus is the adversary's verdict on the defense of one previous
// challenge.
type AssessmentStatus string

// Assessment statuses.
const (
	Addressed   AssessmentStatus = "addressed"
	Rejected    AssessmentStatus = "rejected"
	Unaddressed AssessmentStatus = "unaddressed"
)

func parseAssessmentStatus(s string) (AssessmentStatus, error) {
	if strings.Contains(s, "|") {
		return "", fmt.Errorf("assessment status %q lists the choices; pick one of addressed, rejected, unaddressed", s)
	}
	w := firstWord(s)
	switch w {
	case "addressed", "resolved", "fixed":
		return Addressed, nil
	case "rejected", "rejection":
		return Rejected, nil
	case "unaddressed", "open", "partially", "partial", "not":
		// "partially addressed" and "not addressed" leave the concern open.
		return Unaddressed, nil
	}
	return "", fmt.Errorf("assessment status %q is not addressed, rejected or unaddressed", s)
}

// firstWord returns the first word of s, lower-cased, without Markdown
// emphasis or punctuation around it.
func firstWord(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimLeft(s, "*_`[( ")
	end := strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	if end >= 0 {
		s = s[:end]
	}
	return s
}

// Dialect says which format a reply followed.
type Dialect string

// Dialects. DialectNative is the package's own format, the one its prompts
// ask for and [Reply.Markdown] writes (## CHALLENGES, critical |
// significant | minor, a convergence status); DialectFork the widely used
// fork's (## ADVERSARY CHALLENGES, BLOCKING | MAJOR | MINOR, a CONTINUE |
// CONVERGE recommendation).
const (
	DialectNative Dialect = "native"
	DialectFork   Dialect = "fork"
)

// Quote is a piece of text a challenge's evidence quotes.
type Quote struct {
	Text string `json:"text"`
	// Line is the 1-based line that holds the text: of the artifact, or of
	// the project context when Source says so; before the loop has located
	// the quote, the line the evidence names, or 0.
	Line int `json:"line"`
	// Source is where the loop found the text: SourceArtifact,
	// SourceContext, or "" when it is in neither.
	Source string `json:"source,omitempty"`
}

// Challenge is one objection of the adversary.
type Challenge struct {
	Number int `json:"number"`
	// Category is the [Category] the heading (or a Category field) names,
	// or "" when it names none.
	Category Category `json:"category,omitempty"`
	// Title is the heading's text after "Challenge N:": the category in
	// the native format, a descriptive title in the fork's.
	Title          string   `json:"title"`
	Concern        string   `json:"concern"`
	Evidence       string   `json:"evidence,omitempty"`
	Severity       Severity `json:"severity"`
	Recommendation string   `json:"recommendation,omitempty"`
	// Affected is the fork's field: which part of the artifact is concerned.
	Affected string `json:"affected,omitempty"`
	// Quotes are the passages the evidence quotes ("…" or `…`), with the
	// artifact line of each when it is known.
	Quotes []Quote `json:"quotes,omitempty"`
	// Rule names the offline check that raised the challenge; empty for a
	// model's challenge. It is not part of the Markdown format.
	Rule string `json:"rule,omitempty"`
}

// Label returns "Challenge N: Title", as assessments refer to a challenge.
func (c Challenge) Label() string {
	if c.Title == "" {
		return "Challenge " + strconv.Itoa(c.Number)
	}
	return "Challenge " + strconv.Itoa(c.Number) + ": " + c.Title
}

// Assessment is one row of the Defense Assessment table: the adversary's
// verdict on how the defense handled a previous challenge.
type Assessment struct {
	// Challenge is the reference as written: "Challenge 2", a title, ….
	Challenge string           `json:"challenge"`
	Status    AssessmentStatus `json:"status"`
	Notes     string           `json:"notes,omitempty"`
}

// Convergence is the adversary's convergence assessment.
type Convergence struct {
	// Status is "" when the reply has no convergence assessment.
	Status ConvergenceStatus `json:"status,omitempty"`
	// Remaining is the count of concerns the adversary reports, the sum of
	// the fork's per-severity counts; informational — the loop counts
	// remaining concerns itself, by the evidence rule.
	Remaining int `json:"remaining,omitempty"`
	// Recommendation is "continue debate", "accept with noted risks" or
	// "escalate to user", in the adversary's words.
	Recommendation string `json:"recommendation,omitempty"`
	// Rationale is the fork's explanation of its recommendation.
	Rationale string `json:"rationale,omitempty"`
}

// Reply is an adversary's answer: challenges, or no objections.
type Reply struct {
	// NoObjections is set for a "## NO OBJECTIONS" reply.
	NoObjections bool    `json:"no_objections,omitempty"`
	Dialect      Dialect `json:"dialect"`
	// Round and MaxRounds are the reply's "**Round:** N/M", 0 when absent.
	Round     int `json:"round,omitempty"`
	MaxRounds int `json:"max_rounds,omitempty"`
	// Checkpoint is the fork's artifact type line, as written.
	Checkpoint  string       `json:"checkpoint,omitempty"`
	Challenges  []Challenge  `json:"challenges,omitempty"`
	Assessments []Assessment `json:"assessments,omitempty"`
	Convergence Convergence  `json:"convergence"`
	// Statement, Summary and Confidence are a no-objections reply's text,
	// its summary bullets and its confidence paragraph.
	Statement  string   `json:"statement,omitempty"`
	Summary    []string `json:"summary,omitempty"`
	Confidence string   `json:"confidence,omitempty"`

	// Usage and Attempts are set by a model-backed adversary: the tokens
	// of its calls and how many it made (2 after a retry).
	Usage    provider.Usage `json:"usage,omitzero"`
	Attempts int            `json:"attempts,omitempty"`
}

// Challenge returns the challenge numbered n.
func (r *Reply) Challenge(n int) (Challenge, bool) {
	for _, c := range r.Challenges {
		if c.Number == n {
			return c, true
		}
	}
	return Challenge{}, false
}

// Markdown renders the reply in the native format. Parsing the rendering
// gives the reply back (its usage and the offline rule names aside), so it
// is what the next round's <previous_challenges> block carries.
func (r *Reply) Markdown() string {
	var b strings.Builder
	round := func() {
		if r.Round > 0 {
			if r.MaxRounds > 0 {
				fmt.Fprintf(&b, "**Round:** %d/%d\n\n", r.Round, r.MaxRounds)
			} else {
				fmt.Fprintf(&b, "**Round:** %d\n\n", r.Round)
			}
		}
	}
	checkpoint := func() {
		if r.Checkpoint != "" {
			fmt.Fprintf(&b, "**Checkpoint:** %s\n\n", oneLine(r.Checkpoint))
		}
	}
	if r.NoObjections {
		b.WriteString("## NO OBJECTIONS\n\n")
		round()
		checkpoint()
		if r.Statement != "" {
			b.WriteString(oneLine(r.Statement) + "\n\n")
		}
		if len(r.Summary) > 0 {
			b.WriteString("### Summary\n")
			for _, s := range r.Summary {
				b.WriteString("- " + oneLine(s) + "\n")
			}
			b.WriteString("\n")
		}
		if r.Confidence != "" {
			b.WriteString("### Confidence\n" + oneLine(r.Confidence) + "\n")
		}
		return strings.TrimRight(b.String(), "\n") + "\n"
	}
	b.WriteString("## CHALLENGES\n\n")
	round()
	checkpoint()
	for _, c := range r.Challenges {
		fmt.Fprintf(&b, "### Challenge %d", c.Number)
		if c.Title != "" {
			b.WriteString(": " + oneLine(c.Title))
		}
		b.WriteString("\n")
		if c.Category != "" && matchCategory(c.Title) != c.Category {
			fmt.Fprintf(&b, "**Category:** %s\n", c.Category)
		}
		field(&b, "Concern", c.Concern)
		field(&b, "Evidence", c.Evidence)
		field(&b, "Severity", string(c.Severity))
		field(&b, "Recommendation", c.Recommendation)
		field(&b, "Affected", c.Affected)
		b.WriteString("\n")
	}
	if len(r.Assessments) > 0 {
		b.WriteString("### Defense Assessment\n\n| Previous Challenge | Status | Notes |\n|-------------------|--------|-------|\n")
		for _, a := range r.Assessments {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", cell(a.Challenge), a.Status, cell(a.Notes))
		}
		b.WriteString("\n")
	}
	if cv := r.Convergence; cv != (Convergence{}) {
		b.WriteString("### Convergence Assessment\n\n")
		field(&b, "Status", string(cv.Status))
		if cv.Status != "" || cv.Remaining != 0 {
			fmt.Fprintf(&b, "**Remaining concerns:** %d\n", cv.Remaining)
		}
		field(&b, "Recommendation", cv.Recommendation)
		field(&b, "Rationale", cv.Rationale)
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func field(b *strings.Builder, name, value string) {
	if value != "" {
		fmt.Fprintf(b, "**%s:** %s\n", name, oneLine(value))
	}
}

// oneLine collapses runs of white space, line breaks included, to single
// spaces: field values are one line in the format.
func oneLine(s string) string { return words.OneLine(s) }

// cell makes s safe inside a table cell.
func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", `\|`) }
