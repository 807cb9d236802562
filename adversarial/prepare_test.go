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

// TestTheGateReleasesOnceEveryAdvocateIsAskedOrOneAnswers: the scoring
// work started ahead waits until no advocate is still to be handed its
// first turn, or until an advocate has answered.
func TestTheGateReleasesOnceEveryAdvocateIsAskedOrOneAnswers(t *testing.T) {
	tests := []struct {
		name    string
		asked   []int // advocates asked; they answer only once checked
		answer  bool  // check the release after they answer, not before
		release bool  // released while the turns are in flight
	}{
		{"none asked", nil, false, false},
		{"some asked, none answered", []int{0, 2}, false, false},
		{"one asked twice", []int{1, 1, 1}, false, false},
		{"every advocate asked", []int{2, 0, 1}, false, true},
		{"one answered", []int{1}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			released := 0
			g := &askedGate{asked: make([]bool, 3), left: 3, release: func() { mu.Lock(); released++; mu.Unlock() }}
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
			inFlight := released > 0
			mu.Unlock()
			close(finish) // the turns answer
			wg.Wait()
			mu.Lock()
			answered := released > 0
			mu.Unlock()
			if tt.answer {
				assert.False(t, inFlight, "released before any advocate answered")
				assert.True(t, answered, "an answer releases")
				return
			}
			assert.Equal(t, tt.release, inFlight, "released while the turns are in flight")
		})
	}
}
