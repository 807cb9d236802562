package diff

import (
	"context"
	"fmt"
	"testing"

	"github.com/yuin/goldmark/text"

	"github.com/crucible-go/crucible/internal/cputime"
	"github.com/crucible-go/crucible/internal/samplegen"
)

// The document model must cost at most twice goldmark's own parse of the
// same bytes. BenchmarkParse reports both per op and their ratio.
func BenchmarkParse(b *testing.B) {
	src := samplegen.Spec(1, 1<<20)
	b.Run("goldmark", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			markdown.Parse(text.NewReader(src))
		}
	})
	b.Run("document", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Parse("bench", src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ratio", func(b *testing.B) {
		var r cputime.Ratio
		for b.Loop() {
			r.Start()
			markdown.Parse(text.NewReader(src))
			r.Mid()
			if _, err := Parse("bench", src); err != nil {
				b.Fatal(err)
			}
			r.Stop()
		}
		r.Report(b, "goldmark")
	})
}

func benchVariants(b *testing.B, size int) ([][]byte, []*Document) {
	b.Helper()
	var srcs [][]byte
	var docs []*Document
	for i := range 10 {
		src := samplegen.Spec(uint64(i+1), size)
		d, err := Parse("v", src)
		if err != nil {
			b.Fatal(err)
		}
		srcs, docs = append(srcs, src), append(docs, d)
	}
	return srcs, docs
}

// BenchmarkAnalyze measures step 1 on 10 variants of about 100 KB and
// 200 KB, against goldmark's parse of the same bytes. Targets: analysis at
// most 10× the parse; doubling the input at most 2.5× the time.
func BenchmarkAnalyze(b *testing.B) {
	ctx := context.Background()
	for _, size := range []int{100 << 10, 200 << 10} {
		srcs, docs := benchVariants(b, size)
		name := fmt.Sprintf("%dKB", size>>10)
		b.Run("goldmark-10x"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range srcs {
					markdown.Parse(text.NewReader(s))
				}
			}
		})
		// Documents memoise their claims; each run starts from a cold memo,
		// as a pipeline run does, so the figures include the extraction.
		cold := func() {
			for _, d := range docs {
				d.memo = &docMemo{}
			}
		}
		b.Run("analyze-10x"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cold()
				if _, err := Analyze(ctx, docs); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("ratio-10x"+name, func(b *testing.B) {
			var r cputime.Ratio
			for b.Loop() {
				cold()
				r.Start()
				for _, s := range srcs {
					markdown.Parse(text.NewReader(s))
				}
				r.Mid()
				if _, err := Analyze(ctx, docs); err != nil {
					b.Fatal(err)
				}
				r.Stop()
			}
			r.Report(b, "goldmark")
		})
	}
}

// BenchmarkStructuralPoints compares the structure of two documents of n
// short sections each (n/5 of them top-level); the growth from one size
// to the next should stay near 2 per doubling.
func BenchmarkStructuralPoints(b *testing.B) {
	for _, n := range []int{5000, 10000, 20000} {
		var docs []*Document
		for i := range 2 {
			d, err := Parse(fmt.Sprintf("big%d.md", i+1), samplegen.Sections(uint64(i+1), n))
			if err != nil {
				b.Fatal(err)
			}
			docs = append(docs, d)
		}
		b.Run(fmt.Sprintf("sections=%d", n), func(b *testing.B) {
			for b.Loop() {
				structuralPoints(docs)
			}
		})
	}
}
