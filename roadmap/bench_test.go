package roadmap

import (
	"context"
	"fmt"
	"testing"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/samplegen"
)

// BenchmarkOffline measures the roadmap's own work on synthetic specs,
// beside diff.Parse of the same bytes as the yardstick: the persona
// detector, the offline author, the front matter, and a whole standard-path
// run (parse, detect, write, extract, front matter). The pipeline's cost is
// the adversarial package's to measure.
func BenchmarkOffline(b *testing.B) {
	ctx := context.Background()
	block := &Adversarial{Mode: ModeCombined, Agents: []string{"opus:security", "sonnet:security"}, ConvergenceScore: 0.75,
		BaseVariant: "opus:security", ArtifactsDir: "out/adversarial"}
	for _, size := range []int{10 << 10, 100 << 10} {
		src := samplegen.Spec(1, size)
		doc, err := diff.Parse("spec.md", src)
		if err != nil {
			b.Fatal(err)
		}
		text, err := OfflineAuthor{}.WriteRoadmap(ctx, AuthorRequest{Spec: doc, Agent: debate.AgentSpec{Model: "opus", Persona: "security"}})
		if err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("size=%dKB", size>>10)
		b.Run(name+"/parse", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := diff.Parse("spec.md", src); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/detect", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := (KeywordDetector{}).DetectPersona(ctx, doc); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/author", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := (OfflineAuthor{}).WriteRoadmap(ctx, AuthorRequest{Spec: doc, Agent: debate.AgentSpec{Model: "opus", Persona: "security"}}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/frontmatter", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := SetAdversarial(text, block); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/standard-run", func(b *testing.B) {
			p := New(WithClock(fixedClock))
			req := Request{Spec: &adversarial.Draft{Name: "spec.md", Content: src}}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Run(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
