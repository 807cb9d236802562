package roadmap

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial"
)

// The Planner against the real, offline pipeline, with the baseline author
// generating Mode B's variants: every mode runs through, and the front
// matter carries the pipeline's return contract.
func TestRunWithTheOfflinePipeline(t *testing.T) {
	spec := notifications(t)
	second := draft("notifications-b.md", string(spec.Content)+"\n## Operations\n\nOn-call is paged when consumer lag exceeds 2 minutes; dashboards show delivery latency per channel.\n")
	pipeline := adversarial.New(adversarial.WithGenerator(OfflineAuthor{}), adversarial.WithClock(fixedClock))
	// Interactive, approving: offline, two drafts this alike converge
	// below 60%.
	p := New(WithPipeline(pipeline), WithClock(fixedClock), WithApprover(&answer{yes: true}))
	for _, req := range []Request{
		{Specs: []adversarial.Draft{spec, second}, OutputDir: "out", Interactive: true},
		{Spec: &spec, MultiRoadmap: true, Agents: agentList("opus,sonnet"), Depth: "quick", OutputDir: "out"},
		{Specs: []adversarial.Draft{spec, second}, MultiRoadmap: true, Agents: agentList("opus,haiku"), OutputDir: "out", Interactive: true},
	} {
		t.Run(req.Mode().String(), func(t *testing.T) {
			sink := adversarial.NewMemorySink()
			req.Sink = sink
			res, err := p.Run(context.Background(), req)
			require.NoError(t, err)
			last := res.Generation
			if last == nil {
				last = res.Consolidation
			}
			assert.Equal(t, res.Mode, res.Adversarial.Mode)
			assert.Equal(t, last.ConvergenceScore, res.Adversarial.ConvergenceScore)
			assert.Equal(t, "out/adversarial", res.Adversarial.ArtifactsDir)
			if res.Mode.Generates() {
				assert.Equal(t, last.BaseVariant, res.Adversarial.BaseVariant)
			} else {
				assert.Empty(t, res.Adversarial.BaseVariant, "multi-roadmap and combined only")
			}
			_, ok := sink.Get(adversarial.DiffAnalysisFile)
			assert.True(t, ok, "the pipeline's artifacts reach the sink")
			roadmap, _ := sink.Get(RoadmapFile)
			assert.Equal(t, res.Roadmap, roadmap)
			a := frontMatter(t, roadmap)["adversarial"].(map[string]any)
			assert.Equal(t, string(res.Mode), a["mode"])
		})
	}
}
