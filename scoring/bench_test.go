package scoring

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/cputime"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/internal/samplegen"
)

// parser is goldmark as package diff configures it (CommonMark and GFM
// tables): the baseline the quantitative layer is measured against.
var parser = goldmark.New(goldmark.WithExtensions(extension.Table)).Parser()

func benchInput(b *testing.B, size int) ([][]byte, Input) {
	b.Helper()
	var srcs [][]byte
	var in Input
	for i := range 10 {
		src := samplegen.Spec(uint64(i+1), size)
		d, err := diff.Parse("v", src)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		in.Variants = append(in.Variants, Variant{Doc: d})
	}
	return srcs, in
}

// BenchmarkQuantitative measures the quantitative layer on 10 variants of
// about 100 KB against goldmark's parse of the same bytes. Target: at most
// 5× the parse.
func BenchmarkQuantitative(b *testing.B) {
	ctx := context.Background()
	srcs, in := benchInput(b, 100<<10)
	s := New()
	parse := func() {
		for _, src := range srcs {
			parser.Parse(text.NewReader(src))
		}
	}
	quant := func() {
		if _, _, err := s.Quantitative(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
	// Documents memoise their claims. In the pipeline step 1 has already
	// extracted them when scoring runs; here every measured run starts from
	// freshly parsed documents, so the figures include the extraction.
	fresh := func() { reparse(b, srcs, &in) }
	b.Run("goldmark-10x100KB", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			parse()
		}
	})
	b.Run("quantitative-10x100KB", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fresh() // counted here; the ratio below leaves the parse out
			quant()
		}
	})
	// Where the time goes: the parts of the layer that run code from
	// package diff and internal/refs, measured alone.
	docs := documents(in.Variants)
	b.Run("part-claims+contradictions-10x100KB", func(b *testing.B) {
		for b.Loop() {
			for _, d := range docs {
				if _, _, err := consistency(ctx, d, []diff.ContradictionDetector{diff.RuleDetector{}}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("part-refs-10x100KB", func(b *testing.B) {
		for b.Loop() {
			for _, d := range docs {
				refs.Check(d)
			}
		}
	})
	b.Run("ratio-10x100KB", func(b *testing.B) {
		var r cputime.Ratio
		for b.Loop() {
			fresh()
			r.Start()
			parse()
			r.Mid()
			quant()
			r.Stop()
		}
		r.Report(b, "goldmark")
	})
}

// BenchmarkScore measures a whole offline scoring run (quantitative layer,
// both rule-judge passes, selection) on the same input, for reference.
func BenchmarkScore(b *testing.B) {
	ctx := context.Background()
	_, in := benchInput(b, 100<<10)
	s := New()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Score(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrepare measures what Prepare does ahead of Score — the
// quantitative layer, the evidence indexes and every rule-judge test — on
// freshly parsed documents (the parse is not timed), then Score after it:
// what is left on the pipeline's critical path.
func BenchmarkPrepare(b *testing.B) {
	ctx := context.Background()
	srcs, in := benchInput(b, 100<<10)
	s := New()
	fresh := func() { reparse(b, srcs, &in) }
	b.Run("prepare-10x100KB", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			fresh()
			b.StartTimer()
			if err := s.Prepare(ctx, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("score-after-prepare-10x100KB", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			fresh()
			if err := s.Prepare(ctx, in); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, err := s.Score(ctx, in); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkPrepareScale runs Prepare on two documents of n short sections
// each, after the diff analysis has measured them as in the pipeline (the
// analysis is not timed), so that growth faster than the documents shows:
// "x2" is the CPU time's growth per doubling of n (target ≤ 2.5).
func BenchmarkPrepareScale(b *testing.B) {
	sizes := []int{5000, 10000, 20000}
	cpu := map[int]float64{}
	for k, n := range sizes {
		b.Run(fmt.Sprintf("sections=%d", n), func(b *testing.B) {
			var spent time.Duration
			for b.Loop() {
				b.StopTimer()
				spent += prepareCPU(b, analysedInput(b, "big%d.md", samplegen.Sections(1, n), samplegen.Sections(2, n)))
			}
			ms := float64(spent.Microseconds()) / 1000 / float64(b.N)
			cpu[n] = ms
			b.ReportMetric(ms, "cpu-ms")
			if prev := cpu[sizes[max(k-1, 0)]]; k > 0 && prev > 0 {
				b.ReportMetric(cputime.PerDoubling(prev, ms, sizes[k-1], n), "x2")
			}
		})
	}
}

// reparse gives in freshly parsed documents of srcs, so that no memo of
// an earlier run is reused.
func reparse(b *testing.B, srcs [][]byte, in *Input) {
	b.Helper()
	for i, src := range srcs {
		d, err := diff.Parse(in.Variants[i].Doc.Name, src)
		if err != nil {
			b.Fatal(err)
		}
		in.Variants[i].Doc = d
	}
}

// BenchmarkPrepareAnalysed measures Prepare as the pipeline runs it: on
// 10 variants of about 100 KB that the diff analysis has already measured
// (their claims, fields and indicators are in the documents' memos), so
// that the figure is scoring's own work. The parse and the analysis are
// not timed, and their garbage is collected before Prepare starts;
// "cpu-ms" is the CPU time of Prepare alone.
func BenchmarkPrepareAnalysed(b *testing.B) {
	var srcs [][]byte
	for i := range 10 {
		srcs = append(srcs, samplegen.Spec(uint64(i+1), 100<<10))
	}
	b.ReportAllocs()
	var spent time.Duration
	for b.Loop() {
		b.StopTimer()
		in := analysedInput(b, "v%d.md", srcs...)
		runtime.GC() // the analysis's garbage is not Prepare's
		spent += prepareCPU(b, in)
	}
	b.ReportMetric(float64(spent.Microseconds())/1000/float64(b.N), "cpu-ms")
}

// analysedInput parses srcs (named by the pattern and their position)
// and runs the diff analysis over them, as the pipeline does before
// scoring: fresh documents, so that no memo of an earlier run is reused.
func analysedInput(b *testing.B, name string, srcs ...[]byte) Input {
	b.Helper()
	var in Input
	var docs []*diff.Document
	for i, src := range srcs {
		d, err := diff.Parse(fmt.Sprintf(name, i+1), src)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, d)
		in.Variants = append(in.Variants, Variant{Label: diff.Label(i), Doc: d})
	}
	a, err := diff.Analyze(context.Background(), docs)
	if err != nil {
		b.Fatal(err)
	}
	in.Analysis = a
	return in
}

// prepareCPU starts the timer (stopped while the input was built) and
// returns the CPU time of Prepare on in.
func prepareCPU(b *testing.B, in Input) time.Duration {
	b.Helper()
	b.StartTimer()
	c0, _ := cputime.Now()
	if err := New().Prepare(context.Background(), in); err != nil {
		b.Fatal(err)
	}
	c1, _ := cputime.Now()
	return c1 - c0
}
