package debate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/provider"
)

// Advocate argues for one variant in the debate. The debate engine calls
// Argue once per round the advocate takes part in; the returned
// [Statement] must satisfy [ValidateStatement] for the turn, or the engine
// counts the turn as failed (and retries it once).
//
// Implementations must be safe for concurrent use: round 1 calls every
// advocate at once. Argue must return promptly, with an error wrapping
// ctx.Err(), once ctx is done. The returned statement belongs to the
// engine, which keeps it in the transcript: an advocate must not change
// it, or the slices it holds, after Argue returns.
type Advocate interface {
	Argue(ctx context.Context, turn Turn) (Statement, error)
}

// AdvocateFunc adapts a function to the [Advocate] interface.
type AdvocateFunc func(ctx context.Context, turn Turn) (Statement, error)

// Argue calls f(ctx, turn).
func (f AdvocateFunc) Argue(ctx context.Context, turn Turn) (Statement, error) { return f(ctx, turn) }

// Variant is one variant in the debate.
type Variant struct {
	// Label is the variant's letter in the diff analysis ("A", "B", …); it
	// names the variant everywhere in the debate.
	Label string `json:"label"`
	// Agent is the agent spec whose advocate argues for the variant, as
	// the transcript shows it ("opus:architect"); empty for none.
	Agent string         `json:"agent,omitempty"`
	Doc   *diff.Document `json:"-"`
}

// Turn is what an advocate knows when it speaks.
type Turn struct {
	Round int     // 1, 2 or 3
	Self  Variant // the variant the advocate argues for
	// Others are the other variants of the debate, in input order. A
	// variant whose advocate dropped out is still debated.
	Others   []Variant
	Analysis *diff.Analysis
	// Points are the diff points under debate, in analysis order: the
	// statement must take a position on each. Every turn of the debate
	// shares them, as it shares Analysis: read them, do not change them.
	Points []diff.Point
	// Transcript holds every statement the advocate may read: all of the
	// earlier rounds and, in the sequential rounds 2 and 3, those made
	// before it in the current round.
	Transcript []Statement
	// Criticisms are the weaknesses other advocates identified in this
	// variant in their round-1 statements. Round 2 must answer each.
	Criticisms []Criticism
	// Unresolved lists the ids of the points still without agreement
	// (round 3).
	Unresolved []string
	// Focus are the debate's focus areas; empty means all.
	Focus []string
	// Attempt is 1, or 2 when the debate retries the turn after a
	// failure. A model advocate tags the retry, so a cache or a fault
	// injector tells it from the first call.
	Attempt int

	memo *memo // shared by the debate's turns; nil outside the engine
}

// Labels returns the labels of all variants of the debate, Self included,
// in input order.
func (t Turn) Labels() []string {
	all := append([]Variant{t.Self}, t.Others...)
	out := make([]string, 0, len(all))
	for _, v := range t.sorted(all) {
		out = append(out, v.Label)
	}
	return out
}

// Variants returns all variants of the debate, Self included, in input
// order.
func (t Turn) Variants() []Variant { return t.sorted(append([]Variant{t.Self}, t.Others...)) }

// sorted orders variants by their position in the analysis.
func (t Turn) sorted(vs []Variant) []Variant {
	slices.SortStableFunc(vs, func(a, b Variant) int {
		return variantIndex(t.Analysis, a.Label) - variantIndex(t.Analysis, b.Label)
	})
	return vs
}

// Statement is an advocate's turn: the prose the transcript shows and a
// structured position on every diff point.
//
// Which prose fields a round uses:
//   - round 1: Position (summary), Steelman (one per opponent), Strengths,
//     Weaknesses, Concessions;
//   - round 2: Responses (one per criticism), Position (the updated
//     assessment), NewEvidence, Concessions;
//   - round 3: Position (the final position), Remaining, Concessions (the
//     final concessions).
type Statement struct {
	// Round, Variant and Agent are set by the debate engine.
	Round   int    `json:"round"`
	Variant string `json:"variant"`
	Agent   string `json:"agent,omitempty"`

	Position    string      `json:"position"`
	Steelman    []Steelman  `json:"steelman,omitempty"`
	Strengths   []Claim     `json:"strengths,omitempty"`
	Weaknesses  []Criticism `json:"weaknesses,omitempty"`
	Concessions []string    `json:"concessions,omitempty"`
	Responses   []Response  `json:"responses,omitempty"`
	NewEvidence []Claim     `json:"new_evidence,omitempty"`
	Remaining   []Claim     `json:"remaining,omitempty"`

	// Positions holds one entry per diff point of the turn.
	Positions []PointPosition `json:"positions"`
	// Usage is what the statement cost, for advocates that call models.
	Usage provider.Usage `json:"usage"`
}

// PositionOn returns the statement's position on a point.
func (s Statement) PositionOn(point string) (PointPosition, bool) {
	return s.positionAt(-1, point)
}

// positionAt is PositionOn with a hint: the debate engine orders positions
// as the points are ordered, so the k-th point's position is usually at k.
func (s Statement) positionAt(k int, point string) (PointPosition, bool) {
	if k >= 0 && k < len(s.Positions) && s.Positions[k].Point == point {
		return s.Positions[k], true
	}
	for _, p := range s.Positions {
		if p.Point == point {
			return p, true
		}
	}
	return PointPosition{}, false
}

// Steelman is the strongest version of an opponent's case, stated before
// critiquing it.
type Steelman struct {
	Variant  string `json:"variant"`
	Argument string `json:"argument"`
}

// Claim is a statement with the evidence it rests on; Point names the diff
// point it concerns, when it concerns one.
type Claim struct {
	Point    string `json:"point,omitempty"`
	Text     string `json:"text"`
	Evidence string `json:"evidence"`
}

// Criticism is a weakness an advocate identified in another variant.
type Criticism struct {
	From     string `json:"from,omitempty"` // the critic's variant; set by the engine
	Against  string `json:"against"`        // the criticised variant
	Point    string `json:"point,omitempty"`
	Text     string `json:"text"`
	Evidence string `json:"evidence"`
}

// Response answers one criticism of Turn.Criticisms (1-based index).
type Response struct {
	Criticism int    `json:"criticism"`
	Reply     string `json:"reply"`
	Conceded  bool   `json:"conceded,omitempty"`
	// About is the criticism answered; set by the engine.
	About *Criticism `json:"about,omitempty"`
}

// PointPosition is an advocate's position on one diff point: which
// variant's approach it holds superior, how sure it is (50–100), and
// whether it explicitly concedes the point to that variant (which only an
// advocate preferring another variant than its own can do).
type PointPosition struct {
	Point      string `json:"point"`
	Prefer     string `json:"prefer"`
	Confidence int    `json:"confidence"`
	Concede    bool   `json:"concede,omitempty"`
	Evidence   string `json:"evidence"`
}

// ArgueError is a failed turn with the tokens it spent, so that usage
// accounting includes failed attempts.
type ArgueError struct {
	Usage provider.Usage
	Err   error
	// Final is set when the advocate has already spent the turn's one
	// retry (or judged the failure not worth one): the debate does not
	// call it again, so a turn costs at most two model calls.
	Final bool
}

func (e *ArgueError) Error() string { return e.Err.Error() }
func (e *ArgueError) Unwrap() error { return e.Err }

// ErrInvalidStatement matches a statement that fails [ValidateStatement].
var ErrInvalidStatement = errors.New("invalid statement")

// ValidateStatement checks a statement against its turn: a position on
// every point of the turn and on no other, each preferring a variant of the
// debate with a confidence of 50–100 and evidence, a concession only for
// another variant than the advocate's own; in round 1 a position summary
// and a steelman of every opponent; in round 2 an answer to every
// criticism and an updated assessment; in round 3 a final position. The
// error matches [ErrInvalidStatement] and says what is wrong in words a
// model can act on.
func ValidateStatement(turn Turn, st Statement) error {
	if err := validateStatement(turn, st); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidStatement, err)
	}
	return nil
}

// pointPlaces maps the id of each of the turn's points to its first place
// among them, once per debate (every statement of every round is
// validated against the same points); unique tells whether every id is
// at its own place, as the analysis's are.
func pointPlaces(turn Turn) (places map[string]int, unique bool) {
	pp, _ := memoGet(turn.memo, "point-places", func() (pointPlacesOf, error) {
		out := pointPlacesOf{places: make(map[string]int, len(turn.Points)), unique: true}
		for i, p := range turn.Points {
			if _, dup := out.places[p.ID]; !dup {
				out.places[p.ID] = i
			} else {
				out.unique = false
			}
		}
		return out, nil
	})
	return pp.places, pp.unique
}

type pointPlacesOf struct {
	places map[string]int
	unique bool
}

func validateStatement(turn Turn, st Statement) error {
	labels := turn.Labels()
	want, unique := pointPlaces(turn)
	seen := make([]bool, len(turn.Points)) // by the point's first place
	for i := range st.Positions {
		p := &st.Positions[i]
		// A statement in the points' order names the i-th point i-th:
		// with ids at their own places, that is its first place.
		at, ok := i, unique && i < len(turn.Points) && turn.Points[i].ID == p.Point
		if !ok {
			at, ok = want[p.Point]
		}
		switch {
		case !ok:
			return fmt.Errorf("position on %q, which is not a diff point under debate", p.Point)
		case seen[at]:
			return fmt.Errorf("two positions on %s", p.Point)
		case !slices.Contains(labels, p.Prefer):
			return fmt.Errorf("position on %s prefers %q; want one of %s", p.Point, p.Prefer, strings.Join(labels, ", "))
		case p.Confidence < 50 || p.Confidence > 100:
			return fmt.Errorf("position on %s has confidence %d; want 50–100", p.Point, p.Confidence)
		case p.Concede && p.Prefer == turn.Self.Label:
			return fmt.Errorf("position on %s concedes to its own variant %s; concede only to another variant", p.Point, p.Prefer)
		case strings.TrimSpace(p.Evidence) == "":
			return fmt.Errorf("position on %s cites no evidence", p.Point)
		}
		seen[at] = true
	}
	for i, p := range turn.Points {
		first := i
		if !unique {
			first = want[p.ID]
		}
		if !seen[first] {
			return fmt.Errorf("no position on %s; every diff point needs one", p.ID)
		}
	}
	for i, w := range st.Weaknesses {
		if w.Against == turn.Self.Label || !slices.Contains(labels, w.Against) {
			return fmt.Errorf("weakness %d is against %q; want another variant of the debate", i+1, w.Against)
		}
	}
	for _, r := range st.Responses {
		if r.Criticism < 1 || r.Criticism > len(turn.Criticisms) {
			return fmt.Errorf("response to criticism %d, which does not exist (there are %d)", r.Criticism, len(turn.Criticisms))
		}
	}
	switch turn.Round {
	case 1:
		if strings.TrimSpace(st.Position) == "" {
			return errors.New("no position summary")
		}
		for _, o := range turn.Others {
			if !slices.ContainsFunc(st.Steelman, func(s Steelman) bool {
				return s.Variant == o.Label && strings.TrimSpace(s.Argument) != ""
			}) {
				return fmt.Errorf("no steelman of Variant %s; the steelman protocol is mandatory for every opponent", o.Label)
			}
		}
	case 2:
		if strings.TrimSpace(st.Position) == "" {
			return errors.New("no updated assessment")
		}
		answered := make(map[int]bool, len(st.Responses))
		for _, r := range st.Responses {
			answered[r.Criticism] = true
		}
		for i := range turn.Criticisms {
			if !answered[i+1] {
				return fmt.Errorf("criticism %d is not answered; answer each with counter-evidence or a concession", i+1)
			}
		}
	case 3:
		if strings.TrimSpace(st.Position) == "" {
			return errors.New("no final position")
		}
	}
	return nil
}

// variantIndex returns the index of the variant labelled label in the
// analysis, or -1.
func variantIndex(a *diff.Analysis, label string) int {
	if a == nil {
		return -1
	}
	for i, v := range a.Variants {
		if v.Label == label {
			return i
		}
	}
	return -1
}
