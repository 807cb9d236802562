package debate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/provider"
)

// Depth is how many rounds the debate may run: quick 1, standard 2, deep
// up to 3.
type Depth string

// The debate depths.
const (
	DepthQuick    Depth = "quick"
	DepthStandard Depth = "standard"
	DepthDeep     Depth = "deep"
)

// MaxRounds returns the most rounds the depth allows (0 for an unknown
// depth).
func (d Depth) MaxRounds() int {
	switch d {
	case DepthQuick:
		return 1
	case DepthStandard:
		return 2
	case DepthDeep:
		return 3
	}
	return 0
}

// ParseDepth reads a --depth value. Empty means standard; an unknown value
// also gives standard, with the warning "Unknown depth <value>, using
// standard".
func ParseDepth(s string) (Depth, string) {
	d := Depth(strings.ToLower(strings.TrimSpace(s)))
	switch {
	case d == "":
		return DepthStandard, ""
	case d.MaxRounds() == 0:
		return DepthStandard, fmt.Sprintf("Unknown depth %s, using standard", s)
	}
	return d, ""
}

// DefaultConvergence is the default convergence threshold.
const DefaultConvergence = 0.80

// ValidConvergence reports whether v can be a convergence threshold: a
// value in [0.50, 0.99], or zero for [DefaultConvergence].
func ValidConvergence(v float64) bool { return v == 0 || (v >= 0.50 && v <= 0.99) }

// ConvergenceStatus is the debate's verdict on agreement.
type ConvergenceStatus string

// CONVERGED when the final agreement reaches the threshold, NOT_CONVERGED
// otherwise.
const (
	Converged    ConvergenceStatus = "CONVERGED"
	NotConverged ConvergenceStatus = "NOT_CONVERGED"
)

// StopReason says why the debate ended.
type StopReason string

// Why a debate stops.
const (
	// StopUnanimous: every point has unanimous agreement.
	StopUnanimous StopReason = "unanimous"
	// StopStableMajority: agreement at or above the threshold in two
	// consecutive rounds.
	StopStableMajority StopReason = "stable-majority"
	// StopThreshold: agreement reached the threshold after round 2 of a
	// deep debate, so the conditional round 3 does not run.
	StopThreshold StopReason = "threshold"
	// StopMaxRounds: the depth's last round is done.
	StopMaxRounds StopReason = "max-rounds"
	// StopOscillation: unresolved points changed their leading variant
	// between rounds, so more rounds would not settle them.
	StopOscillation StopReason = "oscillation"
	// StopAborted: fewer than 2 advocates remained, or the context ended.
	StopAborted StopReason = "aborted"
)

// Stop records when and why the debate ended.
type Stop struct {
	Reason StopReason `json:"reason"`
	Round  int        `json:"round"` // the last round that ran
	// Points lists the oscillating points (StopOscillation only).
	Points []string `json:"points,omitempty"`
	// Log is the stop's log line, e.g. "Convergence: 85% (stable majority
	// over 2 rounds)".
	Log string `json:"log"`
}

// Vote is one advocate's position on a point in one round.
type Vote struct {
	Advocate   string `json:"advocate"` // the advocate's variant
	Prefer     string `json:"prefer"`
	Confidence int    `json:"confidence"`
	Concede    bool   `json:"concede,omitempty"`
}

// Tally is the agreement on one point after one round. A point is agreed
// when all advocates prefer the same variant (unanimous) or at least two
// thirds of them do (majority).
type Tally struct {
	Point     string `json:"point"`
	Votes     []Vote `json:"votes"`
	Leader    string `json:"leader,omitempty"` // the variant most advocates prefer; "" on a tie
	Winner    string `json:"winner,omitempty"` // the leader, when the point is agreed
	Agreed    bool   `json:"agreed"`
	Unanimous bool   `json:"unanimous,omitempty"`
}

// Round is one round of the debate: the statements in the order they were
// made and the agreement they reached.
type Round struct {
	Number     int         `json:"number"`
	Statements []Statement `json:"statements"`
	Tallies    []Tally     `json:"tallies"`
	Consensus
	// Complete is false for a round the debate was aborted in.
	Complete bool `json:"complete"`
}

// Consensus counts the points agreed after a round (or at the end of the
// debate) two ways. Convergence — the figure the threshold and the status
// use — is the share of contested points agreed: structural points,
// contradictions, and content points on which two or more variants take
// opposing positions (different values of one labelled field, claims
// that contradict each other). The other points — unique contributions,
// and content the variants treat in other words, at another depth or
// that only one of them covers — are debated for their value but do not
// count towards it, since agreeing which treatment to keep settles no
// conflict; Overall includes them, for reference.
type Consensus struct {
	// Agreed counts every agreed point, the uncontested ones included.
	Agreed int `json:"agreed"`
	// Contested is the number of contested points under debate and
	// ContestedAgreed how many of them are agreed.
	Contested       int `json:"contested"`
	ContestedAgreed int `json:"contested_agreed"`
	// Convergence is ContestedAgreed ÷ Contested (1 when no point is
	// contested).
	Convergence float64 `json:"convergence"`
	// Overall is Agreed divided by all points under debate (1 when there
	// are none).
	Overall float64 `json:"overall"`
}

// contestedSet returns a test for the contested points of r: its
// Contested list, or for a Result without one every point but the
// unique contributions.
func (r *Result) contestedSet() func(id string) bool {
	if r.ContestedPoints == nil {
		return func(id string) bool { return !strings.HasPrefix(id, diff.CategoryUnique.Prefix()+"-") }
	}
	set := make(map[string]bool, len(r.ContestedPoints))
	for _, id := range r.ContestedPoints {
		set[id] = true
	}
	return func(id string) bool { return set[id] }
}

// consensus counts the agreed points among the tallies.
func consensus(tallies []Tally, contested func(id string) bool) Consensus {
	var a Consensus
	for _, t := range tallies {
		c := contested(t.Point)
		if c {
			a.Contested++
		}
		if t.Agreed {
			a.Agreed++
			if c {
				a.ContestedAgreed++
			}
		}
	}
	a.Convergence = convergence(a.ContestedAgreed, a.Contested)
	a.Overall = convergence(a.Agreed, len(tallies))
	return a
}

// Agreement classifies a decision.
type Agreement string

// How a point was decided.
const (
	AgreementUnanimous  Agreement = "unanimous"
	AgreementMajority   Agreement = "majority"
	AgreementSplit      Agreement = "split"       // no majority: unresolved
	AgreementNotDebated Agreement = "not-debated" // excluded from the debate (a checkpoint's choice)
	AgreementUndecided  Agreement = "undecided"   // the debate was aborted
)

// Decision is the scoring matrix's entry for one diff point.
type Decision struct {
	Point string `json:"point"`
	Title string `json:"title"`
	// Winner is the variant whose approach the debate holds superior; ""
	// when the point is unresolved.
	Winner string `json:"winner,omitempty"`
	// Leader is the variant most advocates preferred, also for an
	// unresolved point ("" on a tie).
	Leader string `json:"leader,omitempty"`
	// Confidence is 50–100: 90–100 for unanimous agreement (100 only when
	// every other advocate explicitly conceded), 60–89 for a majority, 50
	// for an unresolved point; +10 when a losing advocate conceded.
	Confidence int    `json:"confidence"`
	Evidence   string `json:"evidence"` // at most two sentences
	// Round is the round from which the winner held until the end (the
	// last round for an unresolved point; 0 when not debated).
	Round     int       `json:"round"`
	Agreement Agreement `json:"agreement"`
	Support   int       `json:"support"` // advocates preferring the winner (or leader)
	Voters    int       `json:"voters"`
	// Conceded lists the advocates (by variant) that conceded the point to
	// the winner.
	Conceded []string `json:"conceded,omitempty"`
}

// Resolved reports whether the point has a winner.
func (d Decision) Resolved() bool { return d.Winner != "" }

// AgentFailure is an advocate turn that failed. A Recovered failure
// succeeded on its retry; otherwise the advocate left the debate.
type AgentFailure struct {
	Variant   string `json:"variant"`
	Agent     string `json:"agent,omitempty"`
	Round     int    `json:"round"`
	Attempts  int    `json:"attempts"`
	Error     string `json:"error"`
	Recovered bool   `json:"recovered,omitempty"`
	// Fallback names what argued the turn in the model's place, when the
	// model refused it: the heuristic advocate. Empty otherwise.
	Fallback string `json:"fallback,omitempty"`
}

// FallbackHeuristic is the Fallback of a turn the heuristic advocate
// argued because the model advocate refused it.
const FallbackHeuristic = "heuristic advocate"

// AgentUsage is what one advocate cost over the debate.
type AgentUsage struct {
	Variant string         `json:"variant"`
	Agent   string         `json:"agent,omitempty"`
	Calls   int            `json:"calls"` // turns attempted, retries included
	Usage   provider.Usage `json:"usage"`
}

// VariantWins counts the points a variant won, for the scoring step's
// tiebreaker.
type VariantWins struct {
	Variant string `json:"variant"`
	Won     int    `json:"won"`
}

// Participant identifies a variant in a [Result].
type Participant struct {
	Label string `json:"label"`
	Agent string `json:"agent,omitempty"`
	Name  string `json:"name,omitempty"`
}

// Result is step 2's outcome. It is plain data (JSON round-trips it,
// for checkpoints); [Result.Markdown] renders debate-transcript.md.
type Result struct {
	Depth     Depth         `json:"depth"`
	Threshold float64       `json:"threshold"`
	Focus     []string      `json:"focus,omitempty"`
	Variants  []Participant `json:"variants"`
	// Points are the ids of the points debated, in analysis order;
	// Excluded those of the analysis that were not.
	Points   []string `json:"points"`
	Excluded []string `json:"excluded,omitempty"`
	// ContestedPoints are the ids of the debated points that are
	// conflicts (see [Consensus]), in analysis order; the others are
	// debated for their value. Nil in a Result from before the field
	// existed: every point but the unique contributions then counts.
	ContestedPoints []string `json:"contested_points"`
	Rounds          []Round  `json:"rounds"`
	// Decisions is the scoring matrix: one entry per point of the
	// analysis, in analysis order.
	Decisions []Decision `json:"decisions"`
	// Consensus is the last complete round's, after any override
	// (MarkResolved); Status compares its Convergence with Threshold.
	Consensus
	Status     ConvergenceStatus `json:"status"`
	Stop       Stop              `json:"stop"`
	Unresolved []string          `json:"unresolved"`
	// Wins counts the points each variant won, in input order.
	Wins     []VariantWins  `json:"wins"`
	Failures []AgentFailure `json:"failures,omitempty"`
	// EliminationFailures are the failures of advocates dropped in the
	// orchestrator's elimination rounds (5+ variants): they took no part
	// in this, the final, debate.
	EliminationFailures []AgentFailure `json:"elimination_failures,omitempty"`
	Usage               []AgentUsage   `json:"usage"`
	// Log holds the round-skip lines ("Round 3 skipped: depth=standard").
	Log      []string `json:"log,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// UnresolvedConflicts returns the unresolved contested points, in
// analysis order: the conflicts the debate left open. Unresolved
// uncontested points (Unresolved lists them too) are not conflicts.
func (r *Result) UnresolvedConflicts() []string {
	out := []string{}
	contested := r.contestedSet()
	for _, id := range r.Unresolved {
		if contested(id) {
			out = append(out, id)
		}
	}
	return out
}

// Outcome states in one sentence, with the transcript's figures, how the
// debate ended: its convergence over the contested points and over all
// points, the status against the threshold, and the conflicts left open
// (those the return contract lists). Reports that quote it agree with the
// transcript by construction.
func (r *Result) Outcome() string {
	s := fmt.Sprintf("convergence %s of contested points (%s of all points), %s at the %s threshold",
		percent(r.Convergence), percent(r.Overall), r.Status, thresholdPercent(r.Threshold))
	if open := r.UnresolvedConflicts(); len(open) > 0 {
		return s + "; unresolved conflicts: " + strings.Join(open, ", ")
	}
	return s + "; no unresolved conflicts"
}

// Decision returns the scoring matrix entry for a point.
func (r *Result) Decision(point string) (Decision, bool) {
	for _, d := range r.Decisions {
		if d.Point == point {
			return d, true
		}
	}
	return Decision{}, false
}

// PointsWon returns how many points the variant won.
func (r *Result) PointsWon(label string) int {
	for _, w := range r.Wins {
		if w.Variant == label {
			return w.Won
		}
	}
	return 0
}

// Dropped returns the variants whose advocates left the debate after a
// failed retry, in the order they failed.
func (r *Result) Dropped() []string {
	var out []string
	for _, f := range append(slices.Clone(r.EliminationFailures), r.Failures...) {
		if !f.Recovered {
			out = append(out, f.Variant)
		}
	}
	return out
}

// TotalUsage sums the usage of every advocate.
func (r *Result) TotalUsage() provider.Usage {
	var u provider.Usage
	for _, a := range r.Usage {
		u = u.Add(a.Usage)
	}
	return u
}

// ErrTooFewAdvocates is the cause of a [*Error] when failures leave
// fewer than 2 advocates.
var ErrTooFewAdvocates = errors.New("debate aborted: fewer than 2 advocates remain")

// Error is a debate that could not finish: fewer than 2 advocates
// remained (Err is [ErrTooFewAdvocates]) or the context ended (Err wraps
// ctx.Err()). Result holds everything completed so far — rounds,
// statements, failures — with Stop.Reason StopAborted; its Markdown renders
// the partial transcript. Causes are the errors of the advocates that
// were dropped, so errors.Is and errors.As reach them through the Error
// (a provider.ErrAuth behind every failed advocate, say).
type Error struct {
	Result *Result
	Err    error
	Causes []error
}

func (e *Error) Error() string {
	if errors.Is(e.Err, ErrTooFewAdvocates) && e.Result != nil {
		return fmt.Sprintf("%v (round %d; advocates failed: %s)", e.Err, e.Result.Stop.Round, strings.Join(e.Result.Dropped(), ", "))
	}
	return "adversarial: debate interrupted: " + e.Err.Error()
}

// Unwrap returns Err and the Causes.
func (e *Error) Unwrap() []error { return append([]error{e.Err}, e.Causes...) }

// percent formats a fraction as a whole percentage, rounded down so that a
// value under a threshold never prints as reaching it.
func percent(f float64) string {
	return strconv.Itoa(int(math.Floor(f*100+1e-9))) + "%"
}

// thresholdPercent formats a threshold as a percentage with up to one
// decimal ("80%", "82.5%").
func thresholdPercent(f float64) string {
	return strconv.FormatFloat(math.Round(f*1000)/10, 'f', -1, 64) + "%"
}
