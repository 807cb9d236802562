package diff_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/provider/providertest"
)

func ExampleParse() {
	src := "---\nstatus: draft\n---\n# Cache Design\r\n\r\n## Goals\r\n\r\n- Hit rate above 90%   \r\n\r\n## Eviction\r\n\r\n### LRU\r\n\r\nEvict the least recently used entry.\r\n"
	doc, err := diff.Parse("variant-1.md", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("title:", doc.Title, "| status:", doc.FrontMatter.Data["status"])
	for _, s := range doc.Sections {
		fmt.Printf("%s%s %q (line %d)\n", strings.Repeat("  ", s.Depth), s.Number, s.Title, s.Line)
	}
	for _, b := range doc.Blocks {
		fmt.Printf("%s at line %d: %q\n", b.Kind, b.Line, doc.Text(b.Span))
	}
	// Output:
	// title: Cache Design | status: draft
	//  "Cache Design" (line 4)
	//   1 "Goals" (line 6)
	//   2 "Eviction" (line 10)
	//     2.1 "LRU" (line 12)
	// list-item at line 8: "- Hit rate above 90%"
	// paragraph at line 14: "Evict the least recently used entry."
}

func ExampleParse_rejected() {
	_, err := diff.Parse("notes.bin", []byte("PK\x03\x04\x00\x00"))
	fmt.Println(err)
	// Output: notes.bin: line 1: binary content (NUL byte)
}

// Analyze compares variants of one document: here two drafts of a cache
// design that disagree on the eviction policy and its TTL.
func ExampleAnalyze() {
	a, _ := diff.Parse("cache-a.md", []byte("# Cache\n\n## Eviction\n\nEvict the least recently used entry.\n\n- TTL: 60 seconds\n\n## Metrics\n\nExport the hit rate.\n"))
	b, _ := diff.Parse("cache-b.md", []byte("# Cache\n\n## Eviction\n\nEvict the least frequently used entry.\n\n- TTL: 300 seconds\n"))
	an, err := diff.Analyze(context.Background(), []*diff.Document{a, b})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range an.Points {
		fmt.Printf("%s %s: %s\n", p.ID, p.Category, p.Title)
	}
	// Output:
	// S-001 structural: Heading structure
	// C-001 content: Eviction
	// X-001 contradiction: TTL
	// X-002 contradiction: Evict the least …
	// U-001 unique: §2 Metrics: Export the hit rate.
}

// A model detector cites statements by id; the library checks each
// finding and quotes the variants' own lines.
func ExampleNewModelDetector() {
	model := providertest.NewFake()
	model.On().Reply("```json\n" + `{"contradictions": [{"subject": "retry timeout", "kind": "numeric",
	  "sides": [{"id": "A1", "value": "30 s"}, {"id": "B1", "value": "60 s"}], "confidence": "high", "reason": "30 s against 60 s"}]}` + "\n```")
	detector, err := diff.NewModelDetector(model, "any-model")
	if err != nil {
		fmt.Println(err)
		return
	}
	a, _ := diff.Parse("a.md", []byte("## Client\n\nThe retry timeout is 30 s.\n"))
	b, _ := diff.Parse("b.md", []byte("## Client\n\nThe retry timeout is 60 s.\n"))
	found, err := detector.Detect(context.Background(), diff.NewDetectInput(a, b))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range found {
		fmt.Printf("%s (%s, %s): %s\n", c.Subject, c.Kind, c.Scope(), c.Reason)
		for _, cl := range c.Claims {
			fmt.Printf("  Variant %s, line %d: %s\n", diff.Label(cl.Variant), cl.Line, cl.Quote)
		}
	}
	// Output:
	// retry timeout (numeric, cross-variant): 30 s against 60 s
	//   Variant A, line 3: The retry timeout is 30 s.
	//   Variant B, line 3: The retry timeout is 60 s.
}
