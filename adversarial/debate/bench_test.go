package debate

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/cputime"
	"github.com/crucible-go/crucible/internal/samplegen"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

// BenchmarkDebateLatency runs debates of 10 model advocates against a
// provider that takes 20 ms per call. Round 1 is parallel, so a quick
// debate should take one latency; round 2 is sequential, so a standard
// debate should take 1 + 10 latencies. "wall/ideal" is the measured time
// over that ideal (target ≤ 1.10); "cpu-µs/call" is the process CPU time
// per provider call (prompt building, reply decoding and validation, and
// the fake itself), the part that cannot hide behind the latency and, in
// round 1, queues for the machine's cores.
func BenchmarkDebateLatency(b *testing.B) {
	const latency = 20 * time.Millisecond
	const n = 10
	for _, tt := range []struct {
		name  string
		depth Depth
		ideal int // latencies on the critical path
	}{{"round1", DepthQuick, 1}, {"round1+round2", DepthStandard, 1 + n}} {
		b.Run(fmt.Sprintf("%s/advocates=%d", tt.name, n), func(b *testing.B) {
			in := synthetic(b, n, 20)
			in.Depth = tt.depth
			own := script{1: {}, 2: {}}
			for _, v := range in.Variants {
				own[1][v.Label] = strings.Repeat(v.Label, 20) // everyone holds its own: round 2 runs
				own[2][v.Label] = strings.Repeat(v.Label, 20)
			}
			fake := scriptedFake(b, in, own)
			in.Advocates = modelAdvocates(b, in, provider.Chain(fake, providertest.Latency(latency)))
			calls0 := fake.CallCount()
			cpu0, _ := cputime.Now()
			start := time.Now()
			for b.Loop() {
				res, err := Run(context.Background(), in)
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Rounds) != tt.depth.MaxRounds() {
					b.Fatalf("%d rounds ran", len(res.Rounds))
				}
			}
			wall := time.Since(start) / time.Duration(b.N)
			b.ReportMetric(float64(wall)/float64(time.Duration(tt.ideal)*latency), "wall/ideal")
			b.ReportMetric(float64(wall.Microseconds())/1000, "ms/debate")
			// CPU per call: the work that cannot hide behind the latency.
			if cpu1, ok := cputime.Now(); ok {
				calls := fake.CallCount() - calls0
				b.ReportMetric(float64((cpu1-cpu0).Microseconds())/float64(calls), "cpu-µs/call")
			}
		})
	}
}

// BenchmarkHeuristicDebate measures the offline debate (heuristic
// advocates, standard depth) over 10 synthetic variants of ~100 KB each,
// beside goldmark-backed parsing of the same bytes for scale.
func BenchmarkHeuristicDebate(b *testing.B) {
	docs, a, total := analysedSpecs(b)
	in := Input{Analysis: a}
	for i, d := range docs {
		in.Variants = append(in.Variants, Variant{Label: diff.Label(i), Doc: d})
	}
	b.Run("debate", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		// "cpu-ms" is the CPU time of a debate: on a shared machine wall
		// time is noisy, and the debate measures variants in parallel.
		var spent time.Duration
		for b.Loop() {
			in.Advocates = nil
			for range docs {
				in.Advocates = append(in.Advocates, NewHeuristicAdvocate())
			}
			c0, _ := cputime.Now()
			if _, err := Run(context.Background(), in); err != nil {
				b.Fatal(err)
			}
			c1, _ := cputime.Now()
			spent += c1 - c0
		}
		b.ReportMetric(float64(len(a.Points)), "points")
		b.ReportMetric(float64(spent.Microseconds())/1000/float64(b.N), "cpu-ms")
	})
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for i := range 10 {
				if _, err := diff.Parse("v", []byte(docs[i].Source)); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkDebateScale runs the offline debate alone (heuristic advocates,
// standard depth) over two documents of n short sections each, the
// pipeline's "pair" shape, so that the debate's own growth shows without
// the scoring work the pipeline runs beside it: "x2" is the growth of its
// CPU time per doubling of n since the previous size (target ≤ 2.5).
func BenchmarkDebateScale(b *testing.B) {
	sizes := []int{5000, 10000, 20000}
	cpu := map[int]float64{}
	for k, n := range sizes {
		docs, a, _ := analysed(b, 2, func(i int) []byte { return samplegen.Sections(uint64(i+1), n) })
		b.Run(fmt.Sprintf("sections=%d", n), func(b *testing.B) {
			var spent time.Duration
			for b.Loop() {
				// The documents the diff analysed, as in the pipeline: what
				// the diff measured of them is in their memos, and the
				// debate's own measures are kept per run.
				in := Input{Analysis: a}
				for i, d := range docs {
					in.Variants = append(in.Variants, Variant{Label: diff.Label(i), Doc: d})
					in.Advocates = append(in.Advocates, NewHeuristicAdvocate())
				}
				c0, _ := cputime.Now()
				if _, err := Run(context.Background(), in); err != nil {
					b.Fatal(err)
				}
				c1, _ := cputime.Now()
				spent += c1 - c0
			}
			ms := float64(spent.Microseconds()) / 1000 / float64(b.N)
			cpu[n] = ms
			b.ReportMetric(ms, "cpu-ms")
			b.ReportMetric(float64(len(a.Points)), "points")
			if prev := cpu[sizes[max(k-1, 0)]]; k > 0 && prev > 0 {
				b.ReportMetric(cputime.PerDoubling(prev, ms, sizes[k-1], n), "x2")
			}
		})
	}
}

// BenchmarkTranscript renders the transcript of the offline debate over 10
// synthetic variants of ~100 KB (the debate itself is not timed): a row
// per point per statement, megabytes of Markdown. "est/len" is the
// builder's size estimate over the length written (≥ 1 grows it once).
func BenchmarkTranscript(b *testing.B) {
	docs, a, _ := analysedSpecs(b)
	in := Input{Analysis: a}
	for i, d := range docs {
		in.Variants = append(in.Variants, Variant{Label: diff.Label(i), Doc: d})
		in.Advocates = append(in.Advocates, NewHeuristicAdvocate())
	}
	res, err := Run(context.Background(), in)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var n int
	for b.Loop() {
		n = len(res.Markdown())
	}
	b.ReportMetric(float64(res.markdownSize())/float64(n), "est/len")
}

// analysedSpecs parses 10 synthetic variants of ~100 KB each and analyses
// them, returning the documents, the analysis and the bytes parsed.
func analysedSpecs(b *testing.B) ([]*diff.Document, *diff.Analysis, int) {
	b.Helper()
	return analysed(b, 10, func(i int) []byte { return samplegen.Spec(uint64(i+1), 100<<10) })
}

// analysed parses n variants made by gen and analyses them, returning the
// documents, the analysis and the bytes parsed.
func analysed(b *testing.B, n int, gen func(i int) []byte) ([]*diff.Document, *diff.Analysis, int) {
	b.Helper()
	var docs []*diff.Document
	total := 0
	for i := range n {
		src := gen(i)
		total += len(src)
		d, err := diff.Parse(fmt.Sprintf("v%d.md", i+1), src)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, d)
	}
	a, err := diff.Analyze(context.Background(), docs, diff.WithClock(fixedClock))
	if err != nil {
		b.Fatal(err)
	}
	return docs, a, total
}
