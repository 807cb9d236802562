package adversarial_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/adversarial"
)

// The pipeline runs offline with its zero configuration: heuristic
// advocates, the rule-based judge and the section merger. Two drafts of a
// cache design go in; the return contract and every artifact come out,
// the same bytes on every run. The status is partial: the advocates agree
// on a third of the contested points, short of the default 0.80
// convergence.
func ExampleRunner_Run() {
	drafts := []adversarial.Draft{
		{Name: "cache-a.md", Content: []byte("# Cache\n\n## Storage\n\nKeep entries in memory.\n\n" +
			"## Eviction\n\nEvict the least recently used entry.\n\n- TTL: 60 seconds\n")},
		{Name: "cache-b.md", Content: []byte("# Cache\n\n## Storage\n\nKeep entries in memory.\n\n" +
			"## Eviction\n\nEvict the least recently used entry.\n\n- TTL: 300 seconds\n\n" +
			"## Metrics\n\nExport the hit rate and the eviction count.\n")},
	}
	sink := adversarial.NewMemorySink()
	res, err := adversarial.New().Run(context.Background(), adversarial.Input{
		Compare: drafts, ArtifactType: "Design", OutputDir: "out", Sink: sink,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("status:", res.Status)
	fmt.Println("base:", res.BaseVariant)
	fmt.Printf("convergence: %.2f\n", res.ConvergenceScore)
	fmt.Println("merged:", res.MergedOutputPath)
	for _, a := range sink.Artifacts() {
		fmt.Println("wrote", a.Name)
	}
	fmt.Println("merged keeps B's metrics:", strings.Contains(res.MergedOutput, "## Metrics"))
	// Output:
	// status: partial
	// base: cache-b.md
	// convergence: 0.33
	// merged: out/merged-output.md
	// wrote adversarial/variant-1-original.md
	// wrote adversarial/variant-2-original.md
	// wrote adversarial/diff-analysis.md
	// wrote adversarial/debate-transcript.md
	// wrote adversarial/base-selection.md
	// wrote adversarial/refactor-plan.md
	// wrote adversarial/merge-log.md
	// wrote merged-output.md
	// wrote adversarial/return-contract.yaml
	// merged keeps B's metrics: true
}
