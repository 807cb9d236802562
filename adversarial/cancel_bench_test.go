package adversarial

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/crucible-go/crucible/adversarial/debate"
)

// BenchmarkCancelLatency measures how long Run takes to return once its
// context is cancelled, at offsets spread over a run whose advocates take
// 5 ms a turn (so cancels land in the diff, the debate, scoring, the plan
// and the merge), and reports the median and the 99th percentile.
func BenchmarkCancelLatency(b *testing.B) {
	drafts := sampleDrafts(b)
	heuristic := debate.NewHeuristicAdvocate()
	slow := func(debate.AgentSpec) debate.Advocate {
		return debate.AdvocateFunc(func(ctx context.Context, turn debate.Turn) (debate.Statement, error) {
			select {
			case <-time.After(5 * time.Millisecond):
			case <-ctx.Done():
				return debate.Statement{}, ctx.Err()
			}
			return heuristic.Argue(ctx, turn)
		})
	}
	p := newPipeline(WithAdvocates(slow))
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan time.Time, 1)
		go func() {
			_, _ = p.Run(ctx, Input{Compare: drafts})
			done <- time.Now()
		}()
		time.Sleep(time.Duration(i%20) * time.Millisecond) // the run takes about 20 ms
		cancelled := time.Now()
		cancel()
		lat = append(lat, max(0, (<-done).Sub(cancelled)))
	}
	slices.Sort(lat)
	ms := func(q float64) float64 {
		return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(ms(0.5), "p50-cancel-ms")
	b.ReportMetric(ms(0.99), "p99-cancel-ms")
}
