package debate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

// Each termination path, with the rounds that run, the reason, the status
// and the skip lines the seed asks for. Points are S-001, S-002, C-001,
// X-001, U-001 (one letter each in the scripts).
func TestDebateTermination(t *testing.T) {
	tests := []struct {
		name      string
		advocates int
		depth     Depth
		threshold float64
		script    script
		rounds    int
		reason    StopReason
		status    ConvergenceStatus
		conv      float64
		log       []string
		points    []string // oscillating points
		unique    bool     // the last point is a unique contribution
		overall   float64  // convergence over all points, when unique
	}{
		{name: "unanimous", advocates: 3, depth: DepthStandard,
			script: script{1: {"A": "ABABA", "B": "aBaBa", "C": "abABa"}},
			rounds: 1, reason: StopUnanimous, status: Converged, conv: 1,
			log: []string{"Round 2 skipped: Convergence: 100% (unanimous)", "Round 3 skipped: depth=standard"}},
		{name: "stable-majority", advocates: 3, depth: DepthDeep,
			script: script{
				1: {"A": "AAAAA", "B": "BaaAA", "C": "CaAAA"},
				2: {"A": "AAAAA", "B": "BaaAA", "C": "CaAAA"}},
			rounds: 2, reason: StopStableMajority, status: Converged, conv: 0.8,
			log: []string{"Round 3 skipped: convergence 80% ≥ 80%"}},
		{name: "threshold", advocates: 3, depth: DepthDeep,
			script: script{
				1: {"A": "AAAAA", "B": "BBBAA", "C": "CCAAA"},
				2: {"A": "AAAAA", "B": "BaaAA", "C": "CaAAA"}},
			rounds: 2, reason: StopThreshold, status: Converged, conv: 0.8,
			log: []string{"Round 3 skipped: convergence 80% ≥ 80%"}},
		{name: "max-rounds-standard", advocates: 3, depth: DepthStandard,
			script: script{
				1: {"A": "AAAAA", "B": "BBBAA", "C": "CCAAA"},
				2: {"A": "AAAAA", "B": "BBBAA", "C": "CCAAA"}},
			rounds: 2, reason: StopMaxRounds, status: NotConverged, conv: 0.6,
			log: []string{"Round 3 skipped: depth=standard"}},
		{name: "max-rounds-deep", advocates: 3, depth: DepthDeep, threshold: 0.75,
			script: script{
				1: {"A": "AAAAA", "B": "BBBBA", "C": "CCCAA"},
				2: {"A": "AAAAA", "B": "BBBAA", "C": "CCAAA"},
				3: {"A": "AAAAA", "B": "BBaAA", "C": "CaAAA"}},
			rounds: 3, reason: StopMaxRounds, status: Converged, conv: 0.8},
		{name: "quick", advocates: 2, depth: DepthQuick,
			script: script{1: {"A": "AAAAA", "B": "aaBBB"}},
			rounds: 1, reason: StopMaxRounds, status: NotConverged, conv: 0.4,
			log: []string{"Round 2 skipped: depth=quick", "Round 3 skipped: depth=quick"}},
		{name: "oscillation", advocates: 4, depth: DepthDeep,
			script: script{
				1: {"A": "AAAAA", "B": "AAAAA", "C": "BCAAA", "D": "CDAAA"},
				2: {"A": "BBAAA", "B": "BBAAA", "C": "CCAAA", "D": "ADAAA"}},
			rounds: 2, reason: StopOscillation, status: NotConverged, conv: 0.6, points: []string{"S-001", "S-002"},
			log: []string{"Round 3 skipped: Convergence: 60% (oscillation detected on points: S-001, S-002)"}},
		// Every contested point agreed and the unique contribution split:
		// the debate converges on the contested points alone.
		{name: "unique-not-counted", advocates: 3, depth: DepthStandard, unique: true,
			script: script{
				1: {"A": "AAAAA", "B": "aaaaB", "C": "aaaaC"},
				2: {"A": "AAAAA", "B": "aaaaB", "C": "aaaaC"}},
			rounds: 2, reason: StopStableMajority, status: Converged, conv: 1, overall: 0.8,
			log: []string{"Round 3 skipped: depth=standard"}},
		// The unique contribution agreed does not lift a split debate over
		// the threshold: 3 of 4 contested points is 75%, 4 of 5 points
		// would have been 80%.
		{name: "unique-cannot-carry", advocates: 3, depth: DepthStandard, unique: true,
			script: script{
				1: {"A": "AAAAA", "B": "BaaAa", "C": "CaAAa"},
				2: {"A": "AAAAA", "B": "BaaAa", "C": "CaAAa"}},
			rounds: 2, reason: StopMaxRounds, status: NotConverged, conv: 0.75, overall: 0.8,
			log: []string{"Round 3 skipped: depth=standard"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := syntheticOf(t, tt.advocates, 5, diff.CategoryStructural, diff.CategoryContent, diff.CategoryContradiction)
			if tt.unique {
				in = synthetic(t, tt.advocates, 5)
			}
			in.Depth, in.Threshold = tt.depth, tt.threshold
			fake := scriptedFake(t, in, tt.script)
			in.Advocates = modelAdvocates(t, in, fake)
			res, err := Run(context.Background(), in)
			require.NoError(t, err)
			assert.Len(t, res.Rounds, tt.rounds)
			assert.Equal(t, tt.reason, res.Stop.Reason, res.Stop.Log)
			assert.Equal(t, tt.status, res.Status)
			assert.InDelta(t, tt.conv, res.Convergence, 1e-9)
			if tt.unique {
				assert.InDelta(t, tt.overall, res.Overall, 1e-9)
			} else {
				assert.Equal(t, res.Convergence, res.Overall, "all points are contested")
			}
			assert.Equal(t, tt.points, res.Stop.Points)
			assert.Equal(t, tt.log, res.Log)
			assert.Equal(t, tt.rounds*tt.advocates, fake.CallCount(), "one call per advocate per round")
			assert.Len(t, res.Decisions, 5)
			checkGolden(t, "transcripts/"+tt.name+".md", res.Markdown())
		})
	}
}

func TestDebateRoundsSeeTheirInputs(t *testing.T) {
	in := synthetic(t, 3, 5)
	in.Depth, in.Focus = DepthDeep, []string{"security"}
	var turns []Turn
	adv := func(i int) Advocate {
		return AdvocateFunc(func(_ context.Context, turn Turn) (Statement, error) {
			turns = append(turns, turn) // rounds 2 and 3 are sequential; round 1 is checked below
			prefs := map[int]string{1: "AAAAA", 2: "ABAAA", 3: "ACAAA"}[i+1]
			if turn.Round > 1 {
				prefs = map[int]string{1: "AAAAA", 2: "BBAAA", 3: "CCAAA"}[i+1]
			}
			return statementFor(turn, prefs), nil
		})
	}
	in.Advocates = []Advocate{adv(0), adv(1), adv(2)}
	in.Advocates[0] = AdvocateFunc(func(ctx context.Context, turn Turn) (Statement, error) {
		st, _ := adv(0).Argue(ctx, turn)
		if turn.Round == 1 {
			st.Weaknesses = []Criticism{{Against: "B", Point: "S-001", Text: "B is vague", Evidence: "“position of B”"}}
		}
		return st, nil
	})
	res, err := Run(context.Background(), in, WithConcurrency(1))
	require.NoError(t, err)
	require.Len(t, res.Rounds, 3)

	var r2, r3 []Turn
	for _, tr := range turns {
		switch tr.Round {
		case 2:
			r2 = append(r2, tr)
		case 3:
			r3 = append(r3, tr)
		}
	}
	require.Len(t, r2, 3)
	for i, tr := range r2 {
		assert.Equal(t, in.Variants[i].Label, tr.Self.Label, "round 2 runs in input order")
		assert.Len(t, tr.Transcript, 3+i, "each rebuttal sees round 1 and the rebuttals before it")
		assert.Equal(t, []string{"security"}, tr.Focus)
	}
	require.Len(t, r2[1].Criticisms, 1, "B sees the criticism raised against it")
	assert.Equal(t, "A", r2[1].Criticisms[0].From)
	assert.Empty(t, r2[0].Criticisms)
	require.Len(t, r3, 3)
	assert.Equal(t, []string{"S-001", "S-002"}, r3[0].Unresolved, "round 3 gets the unresolved points")
	assert.Len(t, r3[2].Transcript, 8)
	// the transcript shows the response to the criticism
	assert.Contains(t, res.Markdown(), "1. Variant A on S-001: “B is vague” — Response:")
}

// statementFor answers a turn with the given preferences and the prose
// every round requires.
func statementFor(turn Turn, prefs string) Statement {
	st := Statement{Position: "Position of " + turn.Self.Label}
	for _, o := range turn.Others {
		st.Steelman = append(st.Steelman, Steelman{Variant: o.Label, Argument: "strong"})
	}
	for i := range turn.Criticisms {
		st.Responses = append(st.Responses, Response{Criticism: i + 1, Reply: "disagree"})
	}
	for k, p := range turn.Points {
		c := prefs[k : k+1]
		st.Positions = append(st.Positions, PointPosition{Point: p.ID, Prefer: strings.ToUpper(c), Concede: c != strings.ToUpper(c),
			Confidence: 75, Evidence: "evidence"})
	}
	return st
}

func TestDebateFailures(t *testing.T) {
	boom := &provider.Error{Kind: provider.ErrUnavailable, Provider: "fake", Message: "overloaded", Retryable: true}
	failed := func(v, agent, r string) string {
		return "adversarial: advocate for Variant " + v + " (" + agent + "), round " + r + ": " + boom.Error()
	}
	round := func(r string) providertest.Matcher { return providertest.Tag(provider.TagRound, r) }
	variant := func(v string) providertest.Matcher { return providertest.Tag(provider.TagVariant, v) }
	tests := []struct {
		name      string
		advocates int
		rules     func(f *providertest.Fake)
		script    script
		wantErr   error
		failures  []AgentFailure
		calls     map[string]int // per variant
		rounds    int
		statement map[int]int // statements per round
	}{
		{name: "retry-succeeds", advocates: 3,
			rules:    func(f *providertest.Fake) { f.On(variant("C"), round("1")).Fail(boom).Once() },
			script:   script{1: {"A": "AAAAA", "B": "ABAAA", "C": "ACAAA"}, 2: {"A": "AAAAA", "B": "AAAAA", "C": "AAAAA"}},
			failures: []AgentFailure{{Variant: "C", Agent: "haiku", Round: 1, Attempts: 2, Recovered: true, Error: failed("C", "haiku", "1")}},
			calls:    map[string]int{"A": 2, "B": 2, "C": 3}, rounds: 2, statement: map[int]int{1: 3, 2: 3}},
		{name: "n-minus-1", advocates: 3,
			rules:    func(f *providertest.Fake) { f.On(variant("C"), round("1")).Fail(boom).Times(2) },
			script:   script{1: {"A": "AAAAA", "B": "ABAAA"}, 2: {"A": "AAAAA", "B": "AAAAA"}},
			failures: []AgentFailure{{Variant: "C", Agent: "haiku", Round: 1, Attempts: 2, Error: failed("C", "haiku", "1")}},
			calls:    map[string]int{"A": 2, "B": 2, "C": 2}, rounds: 2, statement: map[int]int{1: 2, 2: 2}},
		{name: "invalid-json-then-valid", advocates: 2,
			rules: func(f *providertest.Fake) {
				f.On(variant("A"), round("1")).Reply("I prefer Variant A on every point.").Once()
			},
			script: script{1: {"A": "AAAAA", "B": "aaaaa"}},
			calls:  map[string]int{"A": 2, "B": 1}, rounds: 1, statement: map[int]int{1: 2}},
		// The advocate spends the turn's one retry on the invalid reply
		// (with the problem); the debate does not ask a third time.
		{name: "invalid-twice-no-engine-retry", advocates: 3,
			rules: func(f *providertest.Fake) {
				f.On(variant("B"), round("1")).Reply("```json\n{\"positions\": []}\n```").Times(2)
			},
			script: script{1: {"A": "AAAAA", "B": "aaaaa", "C": "AAAAA"}},
			failures: []AgentFailure{{Variant: "B", Agent: "sonnet:security", Round: 1, Attempts: 1,
				Error: "adversarial: advocate for Variant B (sonnet:security), round 1: invalid model reply: invalid statement: no position on S-001; every diff point needs one"}},
			calls: map[string]int{"A": 1, "B": 2, "C": 1}, rounds: 1, statement: map[int]int{1: 2}},
		{name: "auth-not-retried", advocates: 3,
			rules: func(f *providertest.Fake) {
				f.On(variant("B")).Fail(&provider.Error{Kind: provider.ErrAuth, Provider: "fake", Message: "bad key"})
			},
			script: script{1: {"A": "AAAAA", "C": "AAAAA"}},
			failures: []AgentFailure{{Variant: "B", Agent: "sonnet:security", Round: 1, Attempts: 1,
				Error: "adversarial: advocate for Variant B (sonnet:security), round 1: fake: authentication failed: bad key"}},
			calls: map[string]int{"A": 1, "B": 1, "C": 1}, rounds: 1, statement: map[int]int{1: 2}},
		// A refusal is not an agent failure: the heuristic advocate argues
		// the refused turn and the variant keeps its advocate.
		{name: "refusal-argued-by-the-heuristic-advocate", advocates: 3,
			rules: func(f *providertest.Fake) {
				f.On(variant("B"), round("1")).Fail(&provider.Error{Kind: provider.ErrRefusal, Provider: "fake", Message: "declined"})
			},
			script: script{1: {"A": "AAAAA", "C": "AAAAA"}, 2: {"A": "AAAAA", "B": "AAAAA", "C": "AAAAA"}},
			failures: []AgentFailure{{Variant: "B", Agent: "sonnet:security", Round: 1, Attempts: 1, Recovered: true, Fallback: FallbackHeuristic,
				Error: "adversarial: advocate for Variant B (sonnet:security), round 1: fake: model refused: declined"}},
			calls: map[string]int{"A": 2, "B": 2, "C": 2}, rounds: 2, statement: map[int]int{1: 3, 2: 3}},
		{name: "abort-round-1", advocates: 2,
			rules:    func(f *providertest.Fake) { f.On(variant("B")).Fail(boom).Times(2) },
			script:   script{1: {"A": "AAAAA"}},
			wantErr:  ErrTooFewAdvocates,
			failures: []AgentFailure{{Variant: "B", Agent: "sonnet:security", Round: 1, Attempts: 2, Error: failed("B", "sonnet:security", "1")}},
			calls:    map[string]int{"A": 1, "B": 2}, rounds: 1, statement: map[int]int{1: 1}},
		{name: "abort-round-2", advocates: 3,
			rules: func(f *providertest.Fake) {
				f.On(variant("B"), round("2")).Fail(boom).Times(2)
				f.On(variant("C"), round("2")).Fail(boom).Times(2)
			},
			script:  script{1: {"A": "AAAAA", "B": "BBAAA", "C": "CCAAA"}, 2: {"A": "AAAAA"}},
			wantErr: ErrTooFewAdvocates,
			failures: []AgentFailure{{Variant: "B", Agent: "sonnet:security", Round: 2, Attempts: 2, Error: failed("B", "sonnet:security", "2")},
				{Variant: "C", Agent: "haiku", Round: 2, Attempts: 2, Error: failed("C", "haiku", "2")}},
			calls: map[string]int{"A": 2, "B": 3, "C": 3}, rounds: 2, statement: map[int]int{1: 3, 2: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := synthetic(t, tt.advocates, 5)
			fake := scriptedFake(t, in, tt.script)
			tt.rules(fake)
			in.Advocates = modelAdvocates(t, in, fake)
			res, err := Run(context.Background(), in)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				var de *Error
				require.ErrorAs(t, err, &de)
				res = de.Result
				require.NotNil(t, res, "the error carries what was completed")
				assert.Equal(t, StopAborted, res.Stop.Reason)
				assert.Equal(t, NotConverged, res.Status)
				for _, d := range res.Decisions {
					assert.Equal(t, AgreementUndecided, d.Agreement)
				}
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.failures, res.Failures)
			for v, n := range tt.calls {
				assert.Equal(t, n, fake.CallCount(providertest.Tag(provider.TagVariant, v)), "calls for %s", v)
			}
			require.Len(t, res.Rounds, tt.rounds)
			for r, n := range tt.statement {
				assert.Len(t, res.Rounds[r-1].Statements, n, "statements in round %d", r)
			}
			for _, u := range res.Usage {
				assert.LessOrEqual(t, u.Calls, tt.calls[u.Variant], "turns of %s", u.Variant)
				var want int64
				for _, c := range fake.Calls() {
					if c.Request.Tag(provider.TagVariant) == u.Variant {
						want += c.Response.Usage.Total()
					}
				}
				assert.Equal(t, want, u.Usage.Total(), "usage of %s counts every call, failed ones too", u.Variant)
			}
			checkGolden(t, "transcripts/failure-"+tt.name+".md", res.Markdown())
		})
	}
}

func TestDebateAdvocateMisbehaviour(t *testing.T) {
	tests := []struct {
		name string
		bad  AdvocateFunc
		want string
	}{
		{"panic", func(context.Context, Turn) (Statement, error) { panic("boom") }, "advocate panicked: boom"},
		{"missing point", func(_ context.Context, turn Turn) (Statement, error) {
			st := statementFor(turn, "AAAAA")
			st.Positions = st.Positions[1:]
			return st, nil
		}, "invalid statement: no position on S-001; every diff point needs one"},
		{"unknown variant", func(_ context.Context, turn Turn) (Statement, error) { return statementFor(turn, "ZAAAA"), nil },
			`invalid statement: position on S-001 prefers "Z"; want one of A, B, C`},
		{"confidence", func(_ context.Context, turn Turn) (Statement, error) {
			st := statementFor(turn, "AAAAA")
			st.Positions[0].Confidence = 40
			return st, nil
		}, "invalid statement: position on S-001 has confidence 40; want 50–100"},
		{"self concession", func(_ context.Context, turn Turn) (Statement, error) { return statementFor(turn, "AAcAA"), nil },
			"invalid statement: position on C-001 concedes to its own variant C; concede only to another variant"},
		{"no steelman", func(_ context.Context, turn Turn) (Statement, error) {
			st := statementFor(turn, "AAAAA")
			st.Steelman = st.Steelman[:1]
			return st, nil
		}, "invalid statement: no steelman of Variant B; the steelman protocol is mandatory for every opponent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := synthetic(t, 3, 5)
			in.Depth = DepthQuick
			good := AdvocateFunc(func(_ context.Context, turn Turn) (Statement, error) { return statementFor(turn, "AAAAA"), nil })
			calls := 0
			in.Advocates = []Advocate{good, good, AdvocateFunc(func(ctx context.Context, turn Turn) (Statement, error) {
				calls++
				return tt.bad(ctx, turn)
			})}
			var logs bytes.Buffer
			res, err := Run(context.Background(), in, WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
			require.NoError(t, err)
			assert.Equal(t, 2, calls, "retried once")
			require.Len(t, res.Failures, 1)
			assert.Equal(t, "C", res.Failures[0].Variant)
			assert.Contains(t, res.Failures[0].Error, tt.want)
			assert.Equal(t, []string{"C"}, res.Dropped())
			assert.Contains(t, logs.String(), "Advocate for Variant C failed after a retry; proceeding with 2 advocates")
			assert.Contains(t, res.Markdown(), "- Agent failures: Variant C advocate (haiku) failed in round 1 after a retry")
		})
	}
}

func TestDebateInputErrors(t *testing.T) {
	ok := synthetic(t, 3, 5)
	ok.Advocates = []Advocate{NewHeuristicAdvocate(), NewHeuristicAdvocate(), NewHeuristicAdvocate()}
	tests := []struct {
		name   string
		edit   func(in *Input)
		is     error
		errMsg string
	}{
		{"one variant", func(in *Input) { in.Variants, in.Advocates = in.Variants[:1], in.Advocates[:1] },
			diff.ErrTooFewVariants, "adversarial comparison requires at least 2 variants, got 1"},
		{"eleven variants", func(in *Input) {
			for len(in.Variants) < 11 {
				in.Variants = append(in.Variants, in.Variants[0])
			}
		}, diff.ErrTooManyVariants, "maximum 10 variants supported, got 11"},
		{"no analysis", func(in *Input) { in.Analysis = nil }, ErrInvalidInput, "no diff analysis"},
		{"advocate count", func(in *Input) { in.Advocates = in.Advocates[:2] }, ErrInvalidInput, "2 advocates for 3 variants"},
		{"nil advocate", func(in *Input) { in.Advocates = []Advocate{in.Advocates[0], nil, in.Advocates[2]} }, ErrInvalidInput, "variant B has no advocate"},
		{"unknown label", func(in *Input) { in.Variants[1].Label = "Q" }, ErrInvalidInput, `variant "Q" is not in the diff analysis`},
		{"order", func(in *Input) { in.Variants[0], in.Variants[1] = in.Variants[1], in.Variants[0] }, ErrInvalidInput, "out of order"},
		{"no document", func(in *Input) { in.Variants[2].Doc = nil }, ErrInvalidInput, "variant C has no document"},
		{"unknown point", func(in *Input) { in.Points = []string{"S-009"} }, ErrInvalidInput, `point "S-009" is not in the diff analysis`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := ok
			in.Variants = append([]Variant(nil), ok.Variants...)
			in.Advocates = append([]Advocate(nil), ok.Advocates...)
			tt.edit(&in)
			_, err := Run(context.Background(), in)
			require.ErrorIs(t, err, tt.is)
			assert.Contains(t, err.Error(), tt.errMsg)
		})
	}
}

func TestDebateConfigErrors(t *testing.T) {
	good := AdvocateFunc(func(_ context.Context, turn Turn) (Statement, error) { return statementFor(turn, "AAAAA"), nil })
	for _, tt := range []struct {
		depth     Depth
		threshold float64
		want      string
	}{
		{"thorough", 0, `unknown depth "thorough"`},
		{DepthDeep, 1.5, "convergence threshold 1.5 out of range [0.50, 0.99]"},
		{DepthQuick, 0.49, "convergence threshold 0.49 out of range [0.50, 0.99]"},
	} {
		in := synthetic(t, 2, 5)
		in.Depth, in.Threshold = tt.depth, tt.threshold
		in.Advocates = []Advocate{good, good}
		res, err := Run(context.Background(), in)
		assert.Nil(t, res)
		require.ErrorIs(t, err, ErrInvalidInput)
		assert.Contains(t, err.Error(), tt.want)
	}
}

// A checkpoint may restrict the debate to some points: the others are in
// the matrix as not debated and count for no one.
func TestDebatePointFilter(t *testing.T) {
	in := synthetic(t, 3, 5)
	in.Points = []string{"X-001", "S-001"}
	var seen [][]string
	adv := AdvocateFunc(func(_ context.Context, turn Turn) (Statement, error) {
		var ids []string
		for _, p := range turn.Points {
			ids = append(ids, p.ID)
		}
		seen = append(seen, ids)
		return statementFor(turn, "BB"), nil
	})
	in.Advocates = []Advocate{adv, adv, adv}
	res, err := Run(context.Background(), in, WithConcurrency(1))
	require.NoError(t, err)
	assert.Equal(t, []string{"S-001", "X-001"}, res.Points)
	assert.Equal(t, []string{"S-002", "C-001", "U-001"}, res.Excluded)
	assert.Equal(t, [][]string{{"S-001", "X-001"}, {"S-001", "X-001"}, {"S-001", "X-001"}}, seen)
	require.Len(t, res.Decisions, 5, "the matrix covers every point of the analysis")
	d, _ := res.Decision("C-001")
	assert.Equal(t, AgreementNotDebated, d.Agreement)
	assert.Equal(t, 50, d.Confidence)
	assert.Equal(t, 2, res.PointsWon("B"))
	assert.Contains(t, res.Markdown(), "| C-001 | Not debated | 50% |")
	assert.Contains(t, res.Markdown(), "- Points debated: 2 of 5 (not debated: S-002, C-001, U-001)")
}

func TestDebateCancellation(t *testing.T) {
	in := synthetic(t, 4, 5)
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{}, 4)
	adv := AdvocateFunc(func(ctx context.Context, turn Turn) (Statement, error) {
		started <- struct{}{}
		<-ctx.Done()
		return Statement{}, ctx.Err()
	})
	in.Advocates = []Advocate{adv, adv, adv, adv}
	go func() {
		for range 4 {
			<-started
		}
		cancel()
	}()
	_, err := Run(ctx, in)
	require.ErrorIs(t, err, context.Canceled)
	var de *Error
	require.ErrorAs(t, err, &de)
	assert.Empty(t, de.Result.Failures, "a cancelled turn is not an agent failure")
	assert.Equal(t, StopAborted, de.Result.Stop.Reason)
}

// The result is plain data: JSON round-trips it, and the transcript
// renders the same from the copy (checkpoint and resume).
func TestDebateResultJSON(t *testing.T) {
	in := setInput(t, "contradictions", nil)
	in.Depth = DepthDeep
	res, err := Run(context.Background(), in)
	require.NoError(t, err)
	b, err := json.Marshal(res)
	require.NoError(t, err)
	var back Result
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, res.Markdown(), back.Markdown())
	assert.Equal(t, *res, back)
}

func TestDebateErrorMessage(t *testing.T) {
	in := synthetic(t, 2, 5)
	good := AdvocateFunc(func(_ context.Context, turn Turn) (Statement, error) { return statementFor(turn, "AAAAA"), nil })
	bad := AdvocateFunc(func(context.Context, Turn) (Statement, error) { return Statement{}, errors.New("down") })
	in.Advocates = []Advocate{good, bad}
	_, err := Run(context.Background(), in)
	require.Error(t, err)
	assert.Equal(t, "debate aborted: fewer than 2 advocates remain (round 1; advocates failed: B)", err.Error())
}

// A host's circuit breaker may lower the depth between rounds.
func TestDebateDepthLimit(t *testing.T) {
	in := synthetic(t, 3, 5)
	in.Depth = DepthDeep
	fake := scriptedFake(t, in, script{
		1: {"A": "AAAAA", "B": "BBBAA", "C": "CCAAA"},
		2: {"A": "AAAAA", "B": "BBBAA", "C": "CCAAA"}})
	in.Advocates = modelAdvocates(t, in, fake)
	rounds := 0
	limit := func() Depth {
		rounds++
		if rounds >= 2 {
			return DepthStandard // the breaker opened during round 2
		}
		return DepthDeep
	}
	res, err := Run(context.Background(), in, WithDepthLimit(limit))
	require.NoError(t, err)
	assert.Len(t, res.Rounds, 2)
	assert.Equal(t, StopMaxRounds, res.Stop.Reason)
	assert.Equal(t, DepthDeep, res.Depth, "the transcript keeps the configured depth")
	assert.Equal(t, []string{"Depth reduced from deep to standard after round 2"}, res.Warnings)
	assert.Equal(t, []string{"Round 3 skipped: depth=standard"}, res.Log)
}

// Round 1 runs every advocate at once, within the concurrency limit.
func TestDebateRound1Parallel(t *testing.T) {
	for _, tt := range []struct{ limit, want int }{{0, 4}, {2, 2}, {1, 1}} {
		t.Run(fmt.Sprint("limit=", tt.limit), func(t *testing.T) {
			in := synthetic(t, 4, 5)
			in.Depth = DepthQuick
			var mu sync.Mutex
			running, peak := 0, 0
			arrived := make(chan struct{})
			var once sync.Once
			adv := AdvocateFunc(func(ctx context.Context, turn Turn) (Statement, error) {
				mu.Lock()
				running++
				peak = max(peak, running)
				if running == tt.want {
					once.Do(func() { close(arrived) })
				}
				mu.Unlock()
				// Hold the slot until the expected number of advocates run
				// together; a sequential engine would never get there.
				select {
				case <-arrived:
				case <-time.After(5 * time.Second):
					return Statement{}, errors.New("advocates did not run concurrently")
				}
				mu.Lock()
				running--
				mu.Unlock()
				return statementFor(turn, "AAAAA"), nil
			})
			in.Advocates = []Advocate{adv, adv, adv, adv}
			res, err := Run(context.Background(), in, WithConcurrency(tt.limit))
			require.NoError(t, err)
			assert.Empty(t, res.Failures)
			assert.Equal(t, tt.want, peak)
		})
	}
}
