package adversarial

import (
	"context"
	"fmt"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/internal/cputime"
	"github.com/crucible-go/crucible/internal/samplegen"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

// peakHeap samples the heap while a benchmark runs.
type peakHeap struct {
	peak atomic.Uint64
	stop chan struct{}
	wg   sync.WaitGroup
}

func watchHeap() *peakHeap {
	p := &peakHeap{stop: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		// runtime/metrics reads the heap without stopping the world, as
		// runtime.ReadMemStats does: sampled every 2 ms, those pauses
		// would be part of the wall time measured.
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > p.peak.Load() {
				p.peak.Store(v)
			}
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

func (p *peakHeap) done() float64 {
	close(p.stop)
	p.wg.Wait()
	return float64(p.peak.Load()) / (1 << 20)
}

// BenchmarkPipelineOffline (P1) runs the whole offline pipeline on 10
// variants of about 100 KB, beside goldmark's parse of the same bytes.
// Targets: at most 20× the parse, peak heap at most 256 MB.
func BenchmarkPipelineOffline(b *testing.B) {
	var drafts []Draft
	var total int
	for i := range 10 {
		src := samplegen.Spec(uint64(i+1), 100<<10)
		total += len(src)
		drafts = append(drafts, Draft{Name: fmt.Sprintf("v%d.md", i+1), Content: src})
	}
	md := goldmark.New(goldmark.WithExtensions(extension.Table)).Parser()
	steps := newStepClock()
	p := New(WithClock(fixedClock), WithObserver(steps))
	b.ReportAllocs()
	b.SetBytes(int64(total))
	var parse, pipe, parseCPU, pipeCPU time.Duration
	heap := watchHeap()
	for b.Loop() {
		c0, _ := cputime.Now()
		t0 := time.Now()
		for _, d := range drafts {
			md.Parse(text.NewReader(d.Content))
		}
		t1 := time.Now()
		c1, _ := cputime.Now()
		steps.start()
		res, err := p.Run(context.Background(), Input{Compare: drafts})
		steps.stop()
		if err != nil || res.Status == StatusFailed {
			b.Fatalf("run failed: %v %v", err, res.Warnings)
		}
		c2, _ := cputime.Now()
		parse, pipe = parse+t1.Sub(t0), pipe+time.Since(t1)
		parseCPU, pipeCPU = parseCPU+c1-c0, pipeCPU+c2-c1
	}
	b.ReportMetric(heap.done(), "peak-heap-MB")
	steps.report(b, b.N)
	b.ReportMetric(float64(pipe)/float64(parse), "x-goldmark")
	if parseCPU > 0 {
		b.ReportMetric(float64(pipeCPU)/float64(parseCPU), "x-goldmark-cpu")
	}
	b.ReportMetric(float64(pipeCPU.Microseconds())/1000/float64(b.N), "pipeline-cpu-ms")
	b.ReportMetric(float64(parseCPU.Microseconds())/1000/float64(b.N), "goldmark-cpu-ms")
}

// BenchmarkPipelineLatency (P2) runs the pipeline at standard depth with
// advocates whose every turn is a model call taking 100 ms. Round 1 runs
// all advocates at once and round 2 one after another, so with n variants
// the critical path is 1 + n latencies and the protocol makes 2n calls.
// With ten variants the orchestrator runs the groups' one-round
// eliminations at once, then a standard debate among the g finalists:
// 1 + (1 + g) latencies and n + 2g calls. "wall/ideal" is the measured
// time over that critical path (target ≤ 1.10), "calls/required" the
// provider calls over the protocol's count (target 1), and "compute-ms" the
// same run without latency: the CPU work the latencies do not hide.
func BenchmarkPipelineLatency(b *testing.B) {
	const latency = 100 * time.Millisecond
	for _, n := range []int{3, 10} {
		b.Run(fmt.Sprintf("variants=%d", n), func(b *testing.B) {
			var drafts []Draft
			for i := range n {
				drafts = append(drafts, Draft{Name: fmt.Sprintf("v%d.md", i+1), Content: samplegen.Spec(uint64(i+1), 4<<10)})
			}
			fake := providertest.Echo()
			steps := newStepClock()
			run := func(lat time.Duration) (*Result, time.Duration) {
				model := provider.Chain(fake, providertest.Latency(lat))
				heuristic := debate.NewHeuristicAdvocate()
				// Each turn asks the model (the latency), then argues from
				// the heuristic's measures, holding its own ground so that
				// every round runs.
				advocate := func(spec debate.AgentSpec) debate.Advocate {
					return debate.AdvocateFunc(func(ctx context.Context, turn debate.Turn) (debate.Statement, error) {
						req := provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "turn"}}}
						if _, err := model.Complete(ctx, req); err != nil {
							return debate.Statement{}, err
						}
						st, err := heuristic.Argue(ctx, turn)
						for i := range st.Positions {
							st.Positions[i].Prefer, st.Positions[i].Concede = turn.Self.Label, false
						}
						for i := range st.Responses {
							st.Responses[i].Conceded = false
						}
						return st, err
					})
				}
				opts := []Option{WithClock(fixedClock), WithAdvocates(advocate), WithConcurrency(n)}
				if lat > 0 {
					opts = append(opts, WithObserver(steps))
					steps.start()
					defer steps.stop()
				}
				p := New(opts...)
				start := time.Now()
				res, err := p.Run(context.Background(), Input{Compare: drafts, Depth: "standard"})
				if err != nil || res.Status == StatusFailed {
					b.Fatalf("run failed: %v", err)
				}
				return res, time.Since(start)
			}
			res, compute := run(0)
			ideal, required := time.Duration(1+n)*latency, 2*n
			if n >= debate.OrchestratorThreshold {
				g := (n + 2) / 3 // the orchestrator's ⌈n/3⌉ groups
				ideal, required = time.Duration(2+g)*latency, n+2*g
				require.Contains(b, strings.Join(res.Steps.Debate.Log, "\n"), "Orchestrator")
			}
			calls0 := fake.CallCount()
			var wall time.Duration
			for b.Loop() {
				_, d := run(latency)
				wall += d
			}
			per := wall / time.Duration(b.N)
			b.ReportMetric(float64(per)/float64(ideal), "wall/ideal")
			b.ReportMetric(float64(fake.CallCount()-calls0)/float64(b.N)/float64(required), "calls/required")
			b.ReportMetric(float64(compute.Microseconds())/1000, "compute-ms")
			steps.report(b, b.N)
		})
	}
}

// BenchmarkPipelineScale runs the offline pipeline on one document of n
// short sections against the bundled sample spec, so that a step whose
// cost grows faster than the document shows as a ratio above 2 between
// successive sizes.
func BenchmarkPipelineScale(b *testing.B) {
	small := sampleDrafts(b)[0]
	for _, n := range []int{1000, 2000, 4000} {
		var doc strings.Builder
		doc.WriteString("# Big\n\n")
		for i := range n {
			fmt.Fprintf(&doc, "## Topic %d\n\nThe value of item %d is %d ms and it uses store %d.\n\n", i, i, i*3, i%7)
		}
		big := Draft{Name: "big.md", Content: []byte(doc.String())}
		b.Run(fmt.Sprintf("sections-%d", n), func(b *testing.B) {
			p := New(WithClock(fixedClock))
			for b.Loop() {
				if _, err := p.Run(context.Background(), Input{Compare: []Draft{big, small}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
