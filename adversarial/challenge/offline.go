package challenge

import (
	"context"
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/diff"
)

// DefaultMaxPerRule is how many challenges one offline check raises before
// it summarises the rest: the fork's anti-gridlock rule ("challenge rate
// >80% of artifact content — is everything really wrong?").
const DefaultMaxPerRule = 5

// OfflineAdversary is the deterministic adversary: it challenges an
// artifact with rule-based checks from its type's categories — conflicting
// statements found by the diff step's contradiction detectors, vague
// language from the shared lexicon, and structural checks per type
// (requirements without a phase in a roadmap, tasks without verification
// in a plan, must-haves left unchecked in a verification report, …) — each
// challenge quoting its evidence, exact text with its line.
//
// From round 2 it assesses the defense by re-running the checks on the
// revised artifact: a finding that is gone was addressed, one rejected
// with evidence is settled, one still present is unaddressed. It raises no
// objections when nothing is left, and reports deadlock when a round
// changed nothing. It needs no model and gives the same reply for the same
// request. The zero value is not ready; use [Offline].
type OfflineAdversary struct {
	maxPerRule int
}

// OfflineOption configures the offline adversary.
type OfflineOption func(*OfflineAdversary)

// WithMaxPerRule caps the challenges one check raises; the last one kept
// notes how many more it stands for. Zero or less removes the cap. The
// default is DefaultMaxPerRule.
func WithMaxPerRule(n int) OfflineOption { return func(a *OfflineAdversary) { a.maxPerRule = n } }

// Offline returns the deterministic adversary.
func Offline(opts ...OfflineOption) *OfflineAdversary {
	a := &OfflineAdversary{maxPerRule: DefaultMaxPerRule}
	for _, o := range opts {
		o(a)
	}
	return a
}

// Findings runs the checks for the artifact's type and returns the
// challenges, most severe first, numbered from 1. Context is the project
// context (a REQUIREMENTS.md, say), where a roadmap's requirement ids may
// be defined.
func (a *OfflineAdversary) Findings(ctx context.Context, typ ArtifactType, artifact, context string) ([]Challenge, error) {
	if !typ.Valid() {
		return nil, fmt.Errorf("%w: unknown artifact type %q", ErrInvalidInput, typ)
	}
	doc, err := diff.Parse(string(typ), []byte(artifact))
	if err != nil {
		return nil, fmt.Errorf("%w: artifact: %w", ErrInvalidInput, err)
	}
	var cdoc *diff.Document
	if strings.TrimSpace(context) != "" {
		if cdoc, err = diff.Parse("context", []byte(context)); err != nil {
			return nil, fmt.Errorf("%w: project context: %w", ErrInvalidInput, err)
		}
	}
	d := newCheckDoc(typ, doc, cdoc)
	out, err := checkContradictions(ctx, d)
	if err != nil {
		return nil, err
	}
	out = append(out, checkVague(d)...)
	switch typ {
	case Requirements:
		out = append(out, checkRequirements(d)...)
	case Roadmap:
		out = append(out, checkRoadmap(d)...)
	case Plan:
		out = append(out, checkPlan(d)...)
	case Verification:
		out = append(out, checkVerification(d)...)
	}
	out = capRule(out, a.maxPerRule)
	sortChallenges(out)
	return out, nil
}

// key identifies a finding across rounds: its rule and what it quotes.
func key(c Challenge) string {
	var b strings.Builder
	b.WriteString(c.Rule)
	for _, q := range c.Quotes {
		b.WriteString("\x00" + normalizeQuote(q.Text))
	}
	return b.String()
}

// Challenge implements [Adversary].
func (a *OfflineAdversary) Challenge(ctx context.Context, req Request) (*Reply, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	found, err := a.Findings(ctx, req.Type, req.Artifact, req.Context)
	if err != nil {
		return nil, err
	}
	settled := map[string]bool{}
	for _, c := range req.Settled {
		settled[key(c)] = true
	}
	if req.Previous != nil && req.Defense != nil {
		for _, c := range req.Previous.Challenges {
			if r, ok := req.Defense.Response(c.Number); ok && r.Action == Reject && hasEvidence(r.Evidence) {
				settled[key(c)] = true
			}
		}
	}
	var current []Challenge
	now := map[string]bool{}
	for _, c := range found {
		k := key(c)
		if settled[k] || now[k] {
			continue
		}
		now[k] = true
		c.Number = len(current) + 1
		current = append(current, c)
	}

	reply := &Reply{Dialect: DialectNative, Round: req.Round, MaxRounds: req.MaxRounds}
	if req.Previous != nil {
		reply.Assessments = a.assess(req, now)
	}
	if len(current) == 0 {
		return a.noObjections(req, reply), nil
	}
	reply.Challenges = current
	reply.Convergence = convergence(req, current)
	return reply, nil
}

// assess judges the defense of each previous challenge.
func (a *OfflineAdversary) assess(req Request, now map[string]bool) []Assessment {
	idx := newTextIndex(req.Artifact)
	var out []Assessment
	for _, c := range req.Previous.Challenges {
		as := Assessment{Challenge: c.Label()}
		var resp Response
		var answered bool
		if req.Defense != nil {
			resp, answered = req.Defense.Response(c.Number)
		}
		quoted := ""
		if len(c.Quotes) > 0 {
			quoted = c.Quotes[0].Text
		}
		switch {
		case answered && resp.Action == Reject && hasEvidence(resp.Evidence):
			as.Status, as.Notes = Rejected, "valid: the rejection cites evidence ("+oneLine(resp.Evidence)+")"
		case now[key(c)]:
			as.Status = Unaddressed
			switch {
			case answered && resp.Action == Accept:
				as.Notes = fmt.Sprintf("accepted, but the artifact still reads %q", quoted)
			case answered:
				as.Notes = "rejected without evidence; the concern stands"
			default:
				as.Notes = "the defense does not answer it"
			}
		default:
			as.Status, as.Notes = Addressed, "the check no longer finds it"
			for _, q := range c.Quotes {
				if idx.find(q.Text, 0) == 0 {
					as.Notes = fmt.Sprintf("the artifact no longer reads %q", q.Text)
					break
				}
			}
		}
		out = append(out, as)
	}
	return out
}

func (a *OfflineAdversary) noObjections(req Request, reply *Reply) *Reply {
	reply.NoObjections = true
	if req.Previous == nil {
		reply.Statement = fmt.Sprintf("The offline checks for a %s found nothing to challenge.", req.Type)
	} else {
		reply.Statement = "All challenges from previous round have been adequately addressed."
		for _, as := range reply.Assessments {
			switch as.Status {
			case Rejected:
				reply.Summary = append(reply.Summary, fmt.Sprintf("%s: Rejected with valid rationale — %s", as.Challenge, as.Notes))
			default:
				reply.Summary = append(reply.Summary, fmt.Sprintf("%s: Addressed — %s", as.Challenge, as.Notes))
			}
		}
	}
	cats := make([]string, 0, 5)
	for _, c := range req.Type.Categories() {
		cats = append(cats, strings.ToLower(string(c)))
	}
	reply.Confidence = fmt.Sprintf("The artifact is sound by the checks for %s. Proceeding is appropriate.", strings.Join(cats, ", "))
	return reply
}

// convergence compares the round with the previous one: no change is a
// deadlock, fewer challenges is converging.
func convergence(req Request, current []Challenge) Convergence {
	cv := Convergence{Status: Continue, Remaining: len(current), Recommendation: "continue debate"}
	if req.Previous == nil {
		return cv
	}
	prev := map[string]bool{}
	for _, c := range req.Previous.Challenges {
		prev[key(c)] = true
	}
	same := len(prev) == len(current)
	for _, c := range current {
		same = same && prev[key(c)]
	}
	switch {
	case same:
		cv.Status = Deadlock
		cv.Recommendation = "accept with noted risks"
		for _, c := range current {
			if c.Severity == Critical {
				cv.Recommendation = "escalate to user"
			}
		}
	case len(current) < len(req.Previous.Challenges):
		cv.Status = Converging
	}
	return cv
}
