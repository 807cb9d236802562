package adversarial

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/scoring"
)

// preparingScorer is a scoring.Preparer that records what the pipeline
// asks of it, in order.
type preparingScorer struct {
	scoring.Scorer
	prepare func(ctx context.Context, in scoring.Input) error

	mu    sync.Mutex
	calls []string
	seen  []scoring.Input
}

func (p *preparingScorer) record(call string, in scoring.Input) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, call)
	p.seen = append(p.seen, in)
}

func (p *preparingScorer) Prepare(ctx context.Context, in scoring.Input) error {
	p.record("prepare", in)
	if p.prepare != nil {
		return p.prepare(ctx, in)
	}
	return p.Scorer.(scoring.Preparer).Prepare(ctx, in)
}

func (p *preparingScorer) Score(ctx context.Context, in scoring.Input) (*scoring.Scorecard, error) {
	p.record("score", in)
	return p.Scorer.Score(ctx, in)
}

func TestScoringIsPreparedDuringTheDebate(t *testing.T) {
	sc := &preparingScorer{Scorer: scoring.New()}
	res, err := newPipeline(WithScorer(sc)).Run(context.Background(), Input{Compare: sampleDrafts(t)})
	require.NoError(t, err)
	require.Equal(t, []string{"prepare", "score"}, sc.calls)
	prep, score := sc.seen[0], sc.seen[1]
	assert.Nil(t, prep.Debate, "preparation runs before the debate has an outcome")
	assert.NotNil(t, score.Debate)
	require.Len(t, prep.Variants, len(score.Variants))
	for i := range prep.Variants {
		assert.Same(t, score.Variants[i].Doc, prep.Variants[i].Doc, "the same documents, so their memos carry over")
	}

	// The scorecard is the same with no preparation at all.
	plain := scoring.ScorerFunc(scoring.New().Score)
	without, err := newPipeline(WithScorer(plain)).Run(context.Background(), Input{Compare: sampleDrafts(t)})
	require.NoError(t, err)
	assert.True(t, bytes.Equal(mustArtifact(t, without, BaseSelectionFile), mustArtifact(t, res, BaseSelectionFile)),
		"preparing ahead changes nothing in base-selection.md")
}

func TestAFailedPreparationLeavesScoringToScore(t *testing.T) {
	sc := &preparingScorer{Scorer: scoring.New(), prepare: func(context.Context, scoring.Input) error {
		return errors.New("no time to prepare")
	}}
	res, err := newPipeline(WithScorer(sc)).Run(context.Background(), Input{Compare: sampleDrafts(t)})
	require.NoError(t, err)
	assert.Equal(t, StatusSuccess, res.Status)
	assert.NotEmpty(t, mustArtifact(t, res, BaseSelectionFile))
}

func TestARunThatFailsBeforeScoringStopsThePreparation(t *testing.T) {
	stopped := make(chan struct{})
	sc := &preparingScorer{Scorer: scoring.New(), prepare: func(ctx context.Context, _ scoring.Input) error {
		<-ctx.Done() // holds on until the run gives up on it
		close(stopped)
		return ctx.Err()
	}}
	down := errors.New("advocate down")
	failing := func(debate.AgentSpec) debate.Advocate {
		return debate.AdvocateFunc(func(context.Context, debate.Turn) (debate.Statement, error) {
			return debate.Statement{}, down
		})
	}
	res, err := newPipeline(WithScorer(sc), WithAdvocates(failing)).Run(context.Background(), Input{Compare: sampleDrafts(t)})
	requireRunOutcome(t, res, err)
	assert.ErrorIs(t, err, debate.ErrTooFewAdvocates)
	assert.ErrorIs(t, err, down, "the advocates' own errors are reachable")
	assert.Equal(t, StatusFailed, res.Status)
	select {
	case <-stopped:
	default:
		t.Fatal("Run returned while the preparation was still running")
	}
	assert.Equal(t, []string{"prepare"}, sc.calls, "no scoring after a failed debate")
}

// TestTheGateLetsGoWhenTheTurnsAreInFlight: the renders waiting for the
// debate's first turns start once no advocate is still to be handed its
// first turn, or once an advocate has answered; the scoring work started
// ahead starts then too without an orchestrator, and with one once an
// advocate is handed its second turn (the final's first).
func TestTheGateLetsGoWhenTheTurnsAreInFlight(t *testing.T) {
	type counts struct{ firstOut, prep bool }
	tests := []struct {
		name     string
		n        int   // advocates
		asked    []int // advocates asked; they answer only once checked
		inFlight counts
		answered counts // after the turns answer
	}{
		{"none asked", 3, nil, counts{}, counts{}},
		{"some asked, none answered", 3, []int{0, 2}, counts{}, counts{true, true}},
		{"one asked twice", 3, []int{1, 1, 1}, counts{}, counts{true, true}},
		{"every advocate asked", 3, []int{2, 0, 1}, counts{true, true}, counts{true, true}},
		{"one answered", 3, []int{1}, counts{}, counts{true, true}},
		{"orchestrated: every advocate asked", 5, []int{0, 1, 2, 3, 4}, counts{true, false}, counts{true, false}},
		{"orchestrated: one answered", 5, []int{3}, counts{}, counts{true, false}},
		{"orchestrated: an advocate's second turn", 5, []int{0, 1, 2, 3, 4, 2}, counts{true, true}, counts{true, true}},
		{"orchestrated: a second turn before all are asked", 5, []int{1, 1}, counts{false, true}, counts{true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var got counts
			g := &askedGate{asked: make([]int, tt.n), left: tt.n, orchestrated: tt.n >= debate.OrchestratorThreshold,
				firstOut: func() { mu.Lock(); got.firstOut = true; mu.Unlock() },
				prep:     func() { mu.Lock(); got.prep = true; mu.Unlock() }}
			finish := make(chan struct{})
			var wg sync.WaitGroup
			arrived := make(chan struct{}, len(tt.asked))
			for _, i := range tt.asked {
				adv := releasingAdvocate{gate: g, i: i, Advocate: debate.AdvocateFunc(func(context.Context, debate.Turn) (debate.Statement, error) {
					arrived <- struct{}{}
					<-finish
					return debate.Statement{}, nil
				})}
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, _ = adv.Argue(t.Context(), debate.Turn{})
				}()
			}
			for range tt.asked {
				<-arrived // every advocate asked is inside its turn
			}
			mu.Lock()
			inFlight := got
			mu.Unlock()
			close(finish) // the turns answer
			wg.Wait()
			assert.Equal(t, tt.inFlight, inFlight, "while the turns are in flight")
			assert.Equal(t, tt.answered, got, "once they have answered")
		})
	}
}
