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
