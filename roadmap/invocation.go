package roadmap

import (
	"strings"

	"github.com/crucible-go/crucible/adversarial"
)

// The artifact names a roadmap run writes beside the pipeline's.
const (
	// RoadmapFile is the roadmap, with its front matter.
	RoadmapFile = "roadmap.md"
	// ExtractionFile is Wave 1B's extraction, with the consolidation
	// warnings.
	ExtractionFile = "extraction.md"
	// UnifiedSpecFile is the merged output of Wave 1A: the unified spec.
	UnifiedSpecFile = "unified-spec.md"
	// MergedRoadmapFile is the merged output of Wave 2, before roadmap.md
	// adds the front matter; it is written even when routing then aborts.
	MergedRoadmapFile = "merged-roadmap.md"
	// ConsolidationDir holds Wave 1A's artifacts in combined mode, so that
	// Wave 2's do not overwrite them (in multi-spec mode they are at the
	// top of the output).
	ConsolidationDir = "consolidation"
	// GenerateRoadmap is the artifact type multi-roadmap generation asks
	// the pipeline for.
	GenerateRoadmap = "roadmap"
)

// Invocation is one call of the pipeline, for the record: the wave and the
// input it was given.
type Invocation struct {
	Wave  Wave              `json:"wave"`
	Input adversarial.Input `json:"-"`
}

// CommandLine renders the invocation as an sc:adversarial command line:
//
//	sc:adversarial --compare a.md,b.md --depth standard --output out [--interactive]
//	sc:adversarial --source spec.md --generate roadmap --agents opus:security,sonnet:security --depth deep --output out
//
// --interactive appears only when the input sets it.
func (inv Invocation) CommandLine() string {
	in := inv.Input
	parts := []string{"sc:adversarial"}
	if len(in.Compare) > 0 {
		names := make([]string, len(in.Compare))
		for i, d := range in.Compare {
			names[i] = d.Name
		}
		parts = append(parts, "--compare", strings.Join(names, ","))
	}
	if in.Source != nil {
		parts = append(parts, "--source", in.Source.Name)
	}
	if in.Generate != "" {
		parts = append(parts, "--generate", in.Generate)
	}
	if len(in.Agents) > 0 && len(in.Compare) == 0 {
		parts = append(parts, "--agents", AgentList(in.Agents))
	}
	if in.Depth != "" {
		parts = append(parts, "--depth", string(in.Depth))
	}
	if in.OutputDir != "" {
		parts = append(parts, "--output", in.OutputDir)
	}
	if in.Interactive {
		parts = append(parts, "--interactive")
	}
	return strings.Join(parts, " ")
}
