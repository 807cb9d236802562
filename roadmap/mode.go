package roadmap

// Mode is the adversarial mode of a roadmap run, detected from which inputs
// are present (named by their command-line flags): --specs,
// --multi-roadmap --agents, both, or neither.
type Mode string

// The modes. ModeNone is the standard single-spec path: no adversarial
// work, and no adversarial block in the front matter.
const (
	ModeNone         Mode = ""
	ModeMultiSpec    Mode = "multi-spec"    // --specs: consolidate the specs into one (Wave 1A)
	ModeMultiRoadmap Mode = "multi-roadmap" // --multi-roadmap --agents: competing roadmaps merged (Wave 2)
	ModeCombined     Mode = "combined"      // both, Wave 1A then Wave 2
)

// DetectMode applies mode detection: --specs and --multi-roadmap
// together are combined mode, either alone its own mode, neither no
// adversarial mode.
func DetectMode(specs, multiRoadmap bool) Mode {
	switch {
	case specs && multiRoadmap:
		return ModeCombined
	case specs:
		return ModeMultiSpec
	case multiRoadmap:
		return ModeMultiRoadmap
	}
	return ModeNone
}

// Adversarial reports whether the mode runs the adversarial pipeline.
func (m Mode) Adversarial() bool { return m != ModeNone }

// Consolidates reports whether the mode runs Wave 1A, multi-spec
// consolidation.
func (m Mode) Consolidates() bool { return m == ModeMultiSpec || m == ModeCombined }

// Generates reports whether the mode runs Wave 2, multi-roadmap generation.
func (m Mode) Generates() bool { return m == ModeMultiRoadmap || m == ModeCombined }

// String returns the mode's name as the front matter records it, or "none".
func (m Mode) String() string {
	if m == ModeNone {
		return "none"
	}
	return string(m)
}

// Wave names a stage of a roadmap run that may invoke the pipeline.
type Wave string

// The waves that invoke the adversarial pipeline.
const (
	// Wave1A consolidates the specs into one unified spec.
	Wave1A Wave = "1A"
	// Wave2 generates competing roadmaps from one spec and merges them.
	Wave2 Wave = "2"
)

// Title names the wave as the artifacts do: "Wave 1A (multi-spec
// consolidation)".
func (w Wave) Title() string {
	switch w {
	case Wave1A:
		return "Wave 1A (multi-spec consolidation)"
	case Wave2:
		return "Wave 2 (multi-roadmap generation)"
	}
	return "Wave " + string(w)
}
