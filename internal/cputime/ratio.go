package cputime

import (
	"math"
	"testing"
	"time"
)

// Ratio times a baseline and a candidate alternately — goldmark's parse
// against a step of the pipeline, say — in wall time and in process CPU
// time, and reports how many times the baseline the candidate costs. CPU
// time is the steadier figure on a busy machine. Use it inside a
// benchmark loop: Start, run the baseline, Mid, run the candidate, Stop;
// then Report.
type Ratio struct {
	wall0, wall1     time.Time
	cpu0, cpu1       time.Duration
	base, cand       time.Duration
	baseCPU, candCPU time.Duration
	cpuMissing       bool
}

// Start begins the baseline.
func (r *Ratio) Start() {
	r.wall0 = time.Now()
	var ok bool
	r.cpu0, ok = Now()
	r.cpuMissing = r.cpuMissing || !ok
}

// Mid ends the baseline and begins the candidate.
func (r *Ratio) Mid() {
	r.wall1 = time.Now()
	r.cpu1, _ = Now()
	r.base += r.wall1.Sub(r.wall0)
	r.baseCPU += r.cpu1 - r.cpu0
}

// Stop ends the candidate.
func (r *Ratio) Stop() {
	now, _ := Now()
	r.cand += time.Since(r.wall1)
	r.candCPU += now - r.cpu1
}

// Report adds the metrics "x-<name>" (wall time) and "x-<name>-cpu" (CPU
// time, where the platform reports it) to the benchmark.
func (r *Ratio) Report(b *testing.B, name string) {
	if r.base > 0 {
		b.ReportMetric(float64(r.cand)/float64(r.base), "x-"+name)
	}
	if !r.cpuMissing && r.baseCPU > 0 {
		b.ReportMetric(float64(r.candCPU)/float64(r.baseCPU), "x-"+name+"-cpu")
	}
}

// PerDoubling is how many times the cost grows per doubling of the input
// when it goes from prev at size prevN to cur at size n: 2 for a linear
// step, a little above for n log n, 4 for a quadratic one. It is 0 when
// either cost or the size step is not positive.
func PerDoubling(prev, cur float64, prevN, n int) float64 {
	if prev <= 0 || cur <= 0 || prevN <= 0 || n <= prevN {
		return 0
	}
	return math.Pow(cur/prev, 1/math.Log2(float64(n)/float64(prevN)))
}
