package roadmap_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
	"github.com/crucible-go/crucible/roadmap"
)

func ExampleDetectMode() {
	fmt.Println(roadmap.DetectMode(true, false))
	fmt.Println(roadmap.DetectMode(false, true))
	fmt.Println(roadmap.DetectMode(true, true))
	fmt.Println(roadmap.DetectMode(false, false))
	// Output:
	// multi-spec
	// multi-roadmap
	// combined
	// none
}

func ExampleCheckAgents() {
	reg := provider.NewRegistry()
	for _, m := range []string{"opus", "sonnet", "gpt52"} {
		_ = reg.Register(m, providertest.Echo())
	}
	one, _ := debate.ParseAgents("opus:architect")
	_, err := roadmap.CheckAgents(one, reg)
	fmt.Println(err)
	unknown, _ := debate.ParseAgents("opus,llama")
	_, err = roadmap.CheckAgents(unknown, reg)
	fmt.Println(err)

	agents, _ := debate.ParseAgents(`opus,sonnet:architect,gpt52:"focus on cost"`)
	fmt.Println(roadmap.AgentList(roadmap.ExpandAgents(agents, "security")))
	// Output:
	// agent count must be 2-10. Provided: 1
	// Unknown model 'llama' in --agents. Available models: gpt52, opus, sonnet
	// opus:security,sonnet:architect,gpt52:security:"focus on cost"
}

func ExampleRoute() {
	res := &adversarial.Result{Status: adversarial.StatusPartial, ConvergenceScore: 0.48,
		UnresolvedConflicts: []string{"C-002", "X-001"}, ArtifactsDir: "out/adversarial", MergedOutput: "# Unified\n"}

	_, err := roadmap.Route(context.Background(), roadmap.Wave1A, res, false, nil)
	fmt.Println(err)

	yes := roadmap.ApproverFunc(func(_ context.Context, q roadmap.Question) (bool, error) {
		fmt.Println("asked:", q.Prompt)
		return true, nil
	})
	warnings, _ := roadmap.Route(context.Background(), roadmap.Wave1A, res, true, yes)
	for _, w := range warnings {
		fmt.Println("warning:", w)
	}
	// Output:
	// Adversarial convergence 48% is below 60% threshold.
	// Use --interactive to approve low-convergence results, or revise specifications.
	// asked: Adversarial convergence is 48% (below 60% threshold).
	// Proceed anyway? [Y/n]
	// warning: Adversarial consolidation partial (convergence: 48%). Some conflicts unresolved.
	// warning: Convergence 48% below the 60% threshold was approved interactively.
	// warning: Adversarial consolidation produced 2 unresolved conflicts.
	// Review artifacts at out/adversarial for conflict details.
	// warning: Specifications may be too divergent for meaningful consolidation.
	// Consider running separate roadmaps or using --interactive for manual conflict resolution.
}

func ExampleSetAdversarial() {
	doc := []byte("---\ntitle: Checkout roadmap\nowner: payments\n---\n# Roadmap\n")
	out, err := roadmap.SetAdversarial(doc, &roadmap.Adversarial{
		Mode:             roadmap.ModeMultiRoadmap,
		Agents:           []string{"opus:security", "sonnet:security"},
		ConvergenceScore: 0.82,
		BaseVariant:      "opus:security",
		ArtifactsDir:     "out/adversarial",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// ---
	// title: Checkout roadmap
	// owner: payments
	// adversarial:
	//   mode: multi-roadmap
	//   agents: ['opus:security', 'sonnet:security']
	//   convergence_score: 0.82
	//   base_variant: opus:security
	//   artifacts_dir: out/adversarial
	// ---
	// # Roadmap
}

// scripted stands in for a real adversarial.Pipeline (adversarial.New in
// a host): it merges by keeping the first spec.
type scripted struct{}

func (scripted) Run(_ context.Context, in adversarial.Input) (*adversarial.Result, error) {
	return &adversarial.Result{Status: adversarial.StatusPartial, ConvergenceScore: 0.64, UnresolvedConflicts: []string{"X-001"},
		ArtifactsDir:     in.OutputDir + "/adversarial",
		MergedOutputPath: in.OutputDir + "/" + in.MergedOutput, MergedOutput: string(in.Compare[0].Content),
		Agents: []string{"sonnet:analyzer", "sonnet:analyzer"}}, nil
}

func ExamplePlanner_Run() {
	p := roadmap.New(
		roadmap.WithPipeline(scripted{}),
		roadmap.WithClock(func() time.Time { return time.Date(2026, 2, 13, 0, 0, 0, 0, time.UTC) }),
	)
	res, err := p.Run(context.Background(), roadmap.Request{
		Specs: []adversarial.Draft{
			{Name: "a.md", Content: []byte("# Upload Service\n\n## Security\n\n- FR-001: Uploads use TLS 1.3 and signed tokens.\n")},
			{Name: "b.md", Content: []byte("# Upload Service\n\n## Storage\n\n- FR-002: Files are kept 30 days.\n")},
		},
		OutputDir: "out",
	})
	var abort *roadmap.AbortError
	if errors.As(err, &abort) {
		fmt.Println("aborted:", abort)
		return
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Mode, res.Persona.Primary, res.Warnings)
	head, _, _ := strings.Cut(string(res.Roadmap), "\n## Overview")
	fmt.Println(head)
	// Output:
	// multi-spec security [Adversarial consolidation partial (convergence: 64%). Some conflicts unresolved. Adversarial consolidation produced 1 unresolved conflicts.
	// Review artifacts at out/adversarial for conflict details.]
	// ---
	// title: 'Roadmap: Upload Service'
	// spec_sources:
	//   - a.md
	//   - b.md
	// primary_persona: security
	// generated: "2026-02-13T00:00:00Z"
	// adversarial:
	//   mode: multi-spec
	//   agents: ['sonnet:analyzer', 'sonnet:analyzer']
	//   convergence_score: 0.64
	//   artifacts_dir: out/adversarial
	// ---
	// # Roadmap: Upload Service
}
