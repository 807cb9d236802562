package adversarial

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/crucible-go/crucible/internal/cputime"
	"github.com/crucible-go/crucible/internal/samplegen"
	"github.com/crucible-go/crucible/scoring"
)

// stepClock times a run's steps from its events: a step's own work runs
// from its start to its finish event; what follows the finish until the
// next step starts (rendering its artifact, handing it to the sink) is
// counted as that step's rendering.
//
// Beside wall time it counts the process's CPU time over the same spans
// ("<step>-cpu-ms"): on a machine shared with other work, wall time
// measures the neighbours as much as the step, CPU time much less. Work a
// step starts in the background (step 3's preparation during the debate)
// is counted in the span it runs in, unless the runner keeps its steps
// serial (serialSteps). With collect, the clock runs the garbage collector
// between spans, outside them: the process's CPU time includes the
// collector's, which otherwise lands in whichever span the heap happens to
// fill up in.
type stepClock struct {
	collect bool
	mu      sync.Mutex
	last    time.Time
	lastCPU time.Duration
	step    string
	spent   map[string]time.Duration
	cpu     map[string]time.Duration
	// allocated is the heap allocated per span (runtime/metrics'
	// /gc/heap/allocs:bytes): a step's garbage, and so its share of the
	// collector's work, even where the collector runs in a later span.
	allocated map[string]uint64
	lastAlloc uint64
	perRun    []map[string]time.Duration // each run's CPU per step
}

func newStepClock() *stepClock {
	return &stepClock{spent: map[string]time.Duration{}, cpu: map[string]time.Duration{}, allocated: map[string]uint64{}}
}

// heapAllocated reads the bytes allocated on the heap so far, without
// stopping the world as runtime.ReadMemStats does.
func heapAllocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func (c *stepClock) start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last, c.step = time.Now(), "input"
	c.lastCPU, _ = cputime.Now()
	c.lastAlloc = heapAllocated()
	c.perRun = append(c.perRun, map[string]time.Duration{})
}

func (c *stepClock) lap(next string) {
	now := time.Now()
	cpu, _ := cputime.Now()
	alloc := heapAllocated()
	c.allocated[c.step] += alloc - c.lastAlloc
	c.spent[c.step] += now.Sub(c.last)
	c.cpu[c.step] += cpu - c.lastCPU
	if len(c.perRun) > 0 {
		c.perRun[len(c.perRun)-1][c.step] += cpu - c.lastCPU
	}
	if c.collect && next != "" {
		// Outside every span: the next step starts on a collected heap,
		// instead of paying for the garbage of the steps before it.
		runtime.GC()
		now = time.Now()
		cpu, _ = cputime.Now()
	}
	c.last, c.lastCPU, c.lastAlloc, c.step = now, cpu, alloc, next
}

func (c *stepClock) Observe(_ context.Context, e Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch e.Kind {
	case StepStarted:
		c.lap(string(e.Step))
	case StepFinished:
		c.lap("render-" + string(e.Step))
	}
}

func (c *stepClock) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lap("")
}

// report reports each step's mean wall and CPU time over runs, and
// returns the CPU times.
func (c *stepClock) report(b *testing.B, runs int) map[string]float64 {
	out := map[string]float64{}
	for _, s := range scaleSteps {
		b.ReportMetric(float64(c.spent[s].Microseconds())/1000/float64(max(runs, 1)), s+"-ms")
		ms := float64(c.cpu[s].Microseconds()) / 1000 / float64(max(runs, 1))
		out[s] = ms
		b.ReportMetric(ms, s+"-cpu-ms")
		b.ReportMetric(float64(c.allocated[s])/(1<<20)/float64(max(runs, 1)), s+"-alloc-MB")
	}
	return out
}

// medianCPU returns each step's median CPU time over the runs, in ms: one
// run the scheduler or the collector disturbed does not move it.
func (c *stepClock) medianCPU() map[string]float64 {
	out := map[string]float64{}
	for _, s := range scaleSteps {
		var ms []float64
		for _, r := range c.perRun {
			ms = append(ms, float64(r[s].Microseconds())/1000)
		}
		if len(ms) == 0 {
			continue
		}
		slices.Sort(ms)
		if n := len(ms); n%2 == 1 {
			out[s] = ms[n/2]
		} else {
			out[s] = (ms[n/2-1] + ms[n/2]) / 2
		}
	}
	return out
}

// scaleSteps are the names stepClock reports, in pipeline order.
var scaleSteps = []string{"input", "diff", "render-diff", "debate", "render-debate", "scoring", "render-scoring",
	"plan", "render-plan", "merge", "render-merge"}

// BenchmarkPipelineSteps runs the offline pipeline on one document of n
// short sections (1k, 5k, 10k, 20k) against a normal 50 KB specification and
// reports each step's wall and CPU time per run ("<step>-ms",
// "<step>-cpu-ms") and the growth of its CPU time per doubling of n since
// the previous size ("<step>-x2": the median of this size's runs against
// the mean of the previous size's medians with -count; run it with
// -benchtime 3x so that one disturbed run does not decide a figure): a
// step that is linear shows 2, n log n a little above,
// and a quadratic one 4. The acceptance bar is 2.5. Steps under 5 ms at
// both sizes report no growth: their ratio is noise. The runner keeps its
// steps serial and the clock collects garbage between them, so that a
// step's figure is its own work (BenchmarkPipelineLatency measures the
// overlapped pipeline).
//
// Shapes: "big-base" lets the scoring choose the base (the large
// document wins on coverage), so the plan carries a few dozen changes;
// "normal-base" keeps the normal document as the base at the scoring
// checkpoint, so every section of the large one is a unique contribution
// to take — a plan of thousands of changes, the case that made the plan
// quadratic; "pair" compares two documents of n sections each, so that
// the alignment and the diff see n sections on both sides.
func BenchmarkPipelineSteps(b *testing.B) {
	normal := Draft{Name: "normal.md", Content: samplegen.Spec(1, 50<<10)}
	for _, shape := range []string{"big-base", "normal-base", "pair"} {
		sizes := []int{1000, 5000, 10000, 20000}
		// per size, every run's CPU per step: with -count each size runs
		// several times in a row, and growth is measured against the mean
		// of the smaller size's runs, not one of them
		cpu := map[int][]map[string]float64{}
		for k, n := range sizes {
			big := Draft{Name: "big.md", Content: samplegen.Sections(1, n)}
			other := normal
			if shape == "pair" {
				other = Draft{Name: "big2.md", Content: samplegen.Sections(2, n)}
			}
			b.Run(fmt.Sprintf("%s/sections=%d", shape, n), func(b *testing.B) {
				// Each step's own work in its own span: no rendering or
				// scoring in the next step's, no collection of an earlier
				// step's garbage.
				clock := newStepClock()
				clock.collect = true
				p := New(WithClock(fixedClock), WithObserver(clock), WithCheckpoints(keepBase{base: "B"}))
				p.serialSteps = true
				in := Input{Compare: []Draft{big, other}, Interactive: shape == "normal-base"}
				runs := 0
				for b.Loop() {
					clock.start()
					res, err := p.Run(context.Background(), in)
					clock.stop()
					if err != nil || res.Status == StatusFailed {
						b.Fatalf("run failed: %v %v", err, res.Warnings)
					}
					runs++
				}
				clock.report(b, runs)
				cur := clock.medianCPU()
				cpu[n] = append(cpu[n], cur)
				if k == 0 || cpu[sizes[k-1]] == nil {
					return
				}
				prevN := sizes[k-1]
				for _, s := range scaleSteps {
					ms := cur[s]
					p := 0.0
					for _, r := range cpu[prevN] {
						p += r[s] / float64(len(cpu[prevN]))
					}
					// growth per doubling of CPU time; spans under 5 ms
					// at both sizes are timer noise
					if (p >= 5 || ms >= 5) && p > 0 {
						b.ReportMetric(cputime.PerDoubling(p, ms, prevN, n), s+"-x2")
					}
				}
			})
		}
	}
}

// keepBase is a checkpoint that makes the variant labelled base the base.
type keepBase struct {
	AutoCheckpoints
	base string
}

func (k keepBase) AfterScoring(context.Context, *scoring.Scorecard) (string, error) {
	return k.base, nil
}

// BenchmarkPipelineLarge is the pathological input: one document
// of 20,000 short sections against a normal 50 KB specification, through
// the whole pipeline as a host runs it (steps overlapped, no collection
// between them). "big-base" lets the scoring choose the base;
// "normal-base" keeps the normal document as the base, so that the plan
// carries a change for every section of the large one. Target: ≤ 10 s.
func BenchmarkPipelineLarge(b *testing.B) {
	normal := Draft{Name: "normal.md", Content: samplegen.Spec(1, 50<<10)}
	big := Draft{Name: "big.md", Content: samplegen.Sections(1, 20000)}
	for _, shape := range []string{"big-base", "normal-base"} {
		b.Run(shape, func(b *testing.B) {
			p := New(WithClock(fixedClock), WithCheckpoints(keepBase{base: "B"}))
			in := Input{Compare: []Draft{big, normal}, Interactive: shape == "normal-base"}
			for b.Loop() {
				res, err := p.Run(context.Background(), in)
				if err != nil || res.Status == StatusFailed {
					b.Fatalf("run failed: %v %v", err, res.Warnings)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/run")
		})
	}
}
