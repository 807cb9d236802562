package debate_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

func ExampleParseAgents() {
	reg := provider.NewRegistry()
	_ = reg.Register("claude-opus", providertest.Echo(), "opus")
	_ = reg.Register("claude-sonnet", providertest.Echo(), "sonnet")

	specs, err := debate.ParseAgents(`opus:architect:"focus on scalability, then cost",sonnet:wizard`)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range specs {
		fmt.Printf("model=%s persona=%q instruction=%q → %s\n", s.Model, s.Persona, s.Instruction, s)
	}
	warnings, err := debate.CheckAgents(specs, reg)
	fmt.Println(warnings, err)

	specs, _ = debate.ParseAgents("opus,llama")
	_, err = debate.CheckAgents(specs, reg)
	fmt.Println(err)
	// Output:
	// model=opus persona="architect" instruction="focus on scalability, then cost" → opus:architect:"focus on scalability, then cost"
	// model=sonnet persona="wizard" instruction="" → sonnet:wizard
	// [Unknown persona wizard, using model defaults] <nil>
	// Unknown model: llama
}

// A debate between two offline advocates over two drafts of a spec.
func ExampleRun() {
	a, _ := diff.Parse("a.md", []byte("# Upload Service\n\n## Limits\n\nThe retry timeout is 30 seconds. Uploads are capped at 64 MiB.\n\n## Storage\n\nUse PostgreSQL 16 for metadata.\n"))
	b, _ := diff.Parse("b.md", []byte("# Upload Service\n\n## Limits\n\nRetries should be reasonable.\n\n## Storage\n\nUse PostgreSQL 16 for metadata.\n\n## Security\n\nAll uploads must use TLS 1.3 and are scanned for malware within 5 minutes.\n"))
	analysis, _ := diff.Analyze(context.Background(), []*diff.Document{a, b},
		diff.WithClock(func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }))

	res, err := debate.Run(context.Background(), debate.Input{
		Variants:  []debate.Variant{{Label: "A", Agent: "opus", Doc: a}, {Label: "B", Agent: "sonnet", Doc: b}},
		Advocates: []debate.Advocate{debate.NewHeuristicAdvocate(), debate.NewHeuristicAdvocate()},
		Analysis:  analysis,
		Depth:     debate.DepthDeep,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range res.Decisions {
		fmt.Printf("%s %-18.18s winner=%s confidence=%d%% (%s since round %d)\n", d.Point, d.Title, d.Winner, d.Confidence, d.Agreement, d.Round)
	}
	fmt.Printf("convergence %.0f%% (threshold %.0f%%): %s — %s\n", res.Convergence*100, res.Threshold*100, res.Status, res.Stop.Log)
	fmt.Println(res.Log)
	fmt.Println("points won: A", res.PointsWon("A"), "B", res.PointsWon("B"))
	// Output:
	// S-001 Heading structure  winner=B confidence=100% (unanimous since round 2)
	// C-001 Limits             winner=A confidence=100% (unanimous since round 1)
	// U-001 §3 Security: All u winner=B confidence=98% (unanimous since round 1)
	// convergence 100% (threshold 80%): CONVERGED — Convergence: 100% (unanimous)
	// [Round 3 skipped: convergence 100% ≥ 80%]
	// points won: A 1 B 2
}

// A host's own advocate: this one prefers, on every point, the variant
// whose section on it gives a number, and otherwise the variant it argues
// for, conceding when that is another variant.
func ExampleAdvocateFunc() {
	a, _ := diff.Parse("a.md", []byte("# Cache\n\n## Expiry\n\nEntries expire after 300 seconds.\n\n## Eviction\n\nEvict the least recently used entry.\n"))
	b, _ := diff.Parse("b.md", []byte("# Cache\n\n## Expiry\n\nEntries expire when they are stale.\n\n## Eviction\n\nEvict the least frequently used entry.\n"))
	analysis, _ := diff.Analyze(context.Background(), []*diff.Document{a, b})

	numbers := debate.AdvocateFunc(func(ctx context.Context, turn debate.Turn) (debate.Statement, error) {
		st := debate.Statement{Position: "Variant " + turn.Self.Label + " prefers answers with numbers."}
		for _, o := range turn.Others {
			st.Steelman = append(st.Steelman, debate.Steelman{Variant: o.Label, Argument: "Variant " + o.Label + " is readable."})
		}
		for i := range turn.Criticisms {
			st.Responses = append(st.Responses, debate.Response{Criticism: i + 1, Reply: "Numbers settle it."})
		}
		for _, p := range turn.Points {
			prefer := turn.Self.Label
			for k, pos := range p.Positions {
				doc := turn.Variants()[k].Doc
				if pos.Section < 0 || doc == nil {
					continue
				}
				body := doc.Sections[pos.Section].Body()
				if strings.ContainsAny(doc.Source[body.Start:body.End], "0123456789") {
					prefer = diff.Label(k)
				}
			}
			st.Positions = append(st.Positions, debate.PointPosition{Point: p.ID, Prefer: prefer, Confidence: 80,
				Concede: prefer != turn.Self.Label, Evidence: "the answer that gives a number"})
		}
		return st, nil
	})
	res, err := debate.Run(context.Background(), debate.Input{
		Variants:  []debate.Variant{{Label: "A", Doc: a}, {Label: "B", Doc: b}},
		Advocates: []debate.Advocate{numbers, numbers},
		Analysis:  analysis,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range res.Decisions {
		fmt.Printf("%s %s: winner %q (%s)\n", d.Point, d.Title, d.Winner, d.Agreement)
	}
	// Expiry is agreed but not contested: only Variant A commits to a
	// value, so it counts in the convergence over all points alone.
	fmt.Printf("convergence %.0f%% of contested points %v (%.0f%% of all points), %s\n",
		res.Convergence*100, res.ContestedPoints, res.Overall*100, res.Status)
	// Output:
	// C-001 Expiry: winner "A" (unanimous)
	// C-002 Eviction: winner "" (split)
	// X-001 Evict the least …: winner "" (split)
	// convergence 0% of contested points [C-002 X-001] (33% of all points), NOT_CONVERGED
}
