package challenge

import (
	"context"
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/words"
)

// Defender answers a round's challenges: for each, it accepts (and may
// revise the artifact) or rejects, citing evidence for a rejection. The
// defense belongs to the host, never to the adversary; [RuleDefender] is
// the deterministic one. Implementations must be safe for concurrent use.
type Defender interface {
	Defend(ctx context.Context, req DefenseRequest) (Defense, error)
}

// DefenderFunc adapts a function to the [Defender] interface.
type DefenderFunc func(ctx context.Context, req DefenseRequest) (Defense, error)

// Defend calls f(ctx, req).
func (f DefenderFunc) Defend(ctx context.Context, req DefenseRequest) (Defense, error) {
	return f(ctx, req)
}

// DefenseRequest is what the defender receives.
type DefenseRequest struct {
	Type      ArtifactType
	Name      string
	Artifact  string
	Context   string
	Round     int
	MaxRounds int
	// Reply is the adversary's reply of this round.
	Reply *Reply
	// Challenges are this round's challenges as the loop tracks them:
	// flagged ones (no evidence) and ones the evidence rule already
	// resolved need no answer.
	Challenges []Tracked
}

// Action is a defender's answer to one challenge.
type Action string

// Actions.
const (
	Accept Action = "accepted"
	Reject Action = "rejected"
)

// Response answers one challenge.
type Response struct {
	// Challenge is the challenge's number in this round's reply.
	Challenge int    `json:"challenge"`
	Action    Action `json:"action"`
	Rationale string `json:"rationale"`
	// Evidence supports a rejection: text from the artifact or the project
	// context. By the evidence rule a rejection with evidence resolves the
	// challenge; one without keeps it open.
	Evidence string `json:"evidence,omitempty"`
}

// Defense is a defender's answer to a round.
type Defense struct {
	Responses []Response `json:"responses"`
	// Revised is the revised artifact; empty when the defense leaves the
	// artifact as it was.
	Revised string `json:"revised,omitempty"`
	// Summary is free text for the adversary and the log.
	Summary string `json:"summary,omitempty"`
}

// Response returns the answer to challenge n.
func (d *Defense) Response(n int) (Response, bool) {
	for _, r := range d.Responses {
		if r.Challenge == n {
			return r, true
		}
	}
	return Response{}, false
}

// validate checks that every response names a challenge of the reply,
// once, with a known action.
func (d *Defense) validate(reply *Reply) error {
	seen := map[int]bool{}
	for _, r := range d.Responses {
		if _, ok := reply.Challenge(r.Challenge); !ok {
			return fmt.Errorf("%w: it answers challenge %d, which the round does not have", ErrInvalidDefense, r.Challenge)
		}
		if seen[r.Challenge] {
			return fmt.Errorf("%w: it answers challenge %d twice", ErrInvalidDefense, r.Challenge)
		}
		seen[r.Challenge] = true
		if r.Action != Accept && r.Action != Reject {
			return fmt.Errorf("%w: challenge %d: action %q is neither %q nor %q", ErrInvalidDefense, r.Challenge, r.Action, Accept, Reject)
		}
	}
	return nil
}

// Markdown renders the defense for the adversary's <defense> block.
func (d *Defense) Markdown(reply *Reply) string {
	var b strings.Builder
	for _, r := range d.Responses {
		label := fmt.Sprintf("Challenge %d", r.Challenge)
		if c, ok := reply.Challenge(r.Challenge); ok {
			label = c.Label()
		}
		fmt.Fprintf(&b, "- %s: %s", label, r.Action)
		if r.Rationale != "" {
			b.WriteString(" — " + oneLine(r.Rationale))
		}
		if r.Evidence != "" {
			b.WriteString(" Evidence: " + oneLine(r.Evidence))
		}
		b.WriteString("\n")
	}
	if d.Revised != "" {
		b.WriteString("\nThe artifact was revised; the <artifact> block holds the new text.\n")
	} else {
		b.WriteString("\nThe artifact is unchanged.\n")
	}
	if d.Summary != "" {
		b.WriteString("\n" + strings.TrimSpace(d.Summary) + "\n")
	}
	return strings.TrimLeft(b.String(), "\n")
}

// RuleDefender is the deterministic defender. It never revises the
// artifact — that is the author's work — and answers each open challenge
// by the first rule that applies:
//
//  1. a challenge about vague language whose quoted line also states a
//     concrete bound (a number with a unit, a threshold) is rejected, the
//     bound quoted as evidence;
//  2. a challenge the artifact already declares out of scope, a non-goal, a
//     known limitation or an accepted risk is rejected, that declaration
//     quoted as evidence;
//  3. anything else is accepted, its recommendation taken on for the
//     author's revision.
//
// Flagged challenges (no evidence) are rejected for that reason, without
// evidence of their own; challenges the evidence rule already resolved get
// no answer. The zero value is ready to use.
type RuleDefender struct{}

// Defend implements [Defender].
func (RuleDefender) Defend(ctx context.Context, req DefenseRequest) (Defense, error) {
	if err := ctx.Err(); err != nil {
		return Defense{}, err
	}
	doc, err := diff.Parse(req.Name, []byte(req.Artifact))
	if err != nil {
		return Defense{}, fmt.Errorf("%w: artifact: %w", ErrInvalidInput, err)
	}
	scope := scopeDeclarations(doc)
	lines := strings.Split(doc.Source, "\n")
	var d Defense
	accepted, rejected := 0, 0
	for _, t := range req.Challenges {
		c := t.Challenge
		switch t.State {
		case StateFlagged:
			d.Responses = append(d.Responses, Response{Challenge: c.Number, Action: Reject,
				Rationale: "The challenge cites no evidence from the artifact (" + t.Note + ")."})
			rejected++
			continue
		case StateOpen:
		default:
			continue
		}
		if ev, why := boundedVague(c, lines); ev != "" {
			d.Responses = append(d.Responses, Response{Challenge: c.Number, Action: Reject, Rationale: why, Evidence: ev})
			rejected++
			continue
		}
		if ev := declaredOutOfScope(c, lines, scope); ev != "" {
			d.Responses = append(d.Responses, Response{Challenge: c.Number, Action: Reject,
				Rationale: "The artifact already declares this out of scope or an accepted risk.", Evidence: ev})
			rejected++
			continue
		}
		why := "The author will revise the artifact"
		if r := strings.TrimSuffix(oneLine(c.Recommendation), "."); r != "" {
			why += ": " + strings.ToLower(r[:1]) + r[1:]
		}
		d.Responses = append(d.Responses, Response{Challenge: c.Number, Action: Accept, Rationale: why + "."})
		accepted++
	}
	d.Summary = fmt.Sprintf("Rule-based defense: %d accepted, %d rejected.", accepted, rejected)
	return d, nil
}

// vagueWords mark a model's challenge as one about vague language.
var vagueWords = []string{"vague", "ambiguous", "unclear", "unmeasurable", "unquantified", "not measurable", "imprecise", "underspecified"}

// boundedVague returns evidence that a vague-language challenge's quoted
// line is bounded by a concrete measure, and the rationale.
func boundedVague(c Challenge, lines []string) (evidence, rationale string) {
	if c.Rule != ruleVague {
		if c.Rule != "" || !containsAny(strings.ToLower(c.Concern), vagueWords) {
			return "", ""
		}
	}
	for _, q := range c.Quotes {
		if q.Source != SourceArtifact {
			continue
		}
		text := quoteLine(lines, q.Line)
		scan := text
		for _, id := range lexicon.RequirementIDs(scan) {
			scan = strings.ReplaceAll(scan, id, strings.Repeat(" ", len(id)))
		}
		for _, m := range lexicon.ConcreteMatches(scan) {
			if strings.Trim(m, "0123456789.,") == "" {
				continue // a bare number bounds nothing
			}
			clause := clauseAround(text, m)
			return fmt.Sprintf("line %d: %q", q.Line, clause),
				fmt.Sprintf("The statement is bounded by a concrete measure (%s), so it is testable as written.", m)
		}
	}
	return "", ""
}

// clauseAround returns the clause of line that holds m: the text between
// the nearest , ; . or : around it.
func clauseAround(line, m string) string {
	i := strings.Index(line, m)
	if i < 0 {
		return strings.TrimSpace(line)
	}
	start := strings.LastIndexAny(line[:i], ",;:.") + 1
	end := len(line)
	if j := strings.IndexAny(line[i+len(m):], ",;."); j >= 0 {
		end = i + len(m) + j
	}
	return strings.TrimSpace(line[start:end])
}

// scopeTitles name sections that declare scope limits and accepted risks.
var scopeTitles = []string{"out of scope", "out-of-scope", "non-goals", "non goals", "not in scope", "known limitations",
	"limitations", "deferred", "accepted risks", "risks accepted", "won't do", "wont do"}

// scopeDeclarations returns the blocks of the sections that declare scope
// limits.
func scopeDeclarations(doc *diff.Document) []diff.Block {
	var out []diff.Block
	for _, s := range doc.Sections {
		if containsAny(strings.ToLower(s.Title), scopeTitles) {
			out = append(out, doc.BlocksIn(s.Body())...)
		}
	}
	return out
}

// declaredOutOfScope returns evidence that a scope declaration covers the
// challenge: a block sharing most of its significant words with the
// challenge's quotes and concern.
func declaredOutOfScope(c Challenge, lines []string, scope []diff.Block) string {
	if len(scope) == 0 {
		return ""
	}
	var about strings.Builder
	about.WriteString(c.Concern)
	for _, q := range c.Quotes {
		about.WriteString(" " + q.Text)
	}
	want := words.NewSet(about.String())
	best, bestScore := -1, 0.0
	for i, b := range scope {
		set := words.NewSet(b.Text)
		if shared := set.Intersect(want); shared >= 2 {
			if score := float64(shared) / float64(len(set)); score > bestScore {
				best, bestScore = i, score
			}
		}
	}
	if best < 0 || bestScore < 0.5 {
		return ""
	}
	b := scope[best]
	return fmt.Sprintf("line %d: %q", b.Line, quoteLine(lines, b.Line))
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
