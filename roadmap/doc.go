// Package roadmap drives Crucible's adversarial pipeline from a roadmap
// generator: it decides which adversarial mode a request asks for,
// validates it before any work, invokes the pipeline through the
// [adversarial.Pipeline] interface, routes on the return contract and
// records the outcome in roadmap.md's front matter and in extraction.md.
//
// # Modes
//
// [DetectMode] reads the mode from the flags: --specs alone is multi-spec
// consolidation (Wave 1A: the pipeline compares the specs and merges them
// into a unified spec, from which the roadmap is written); --multi-roadmap
// --agents is multi-roadmap generation (Wave 2: the pipeline generates one
// roadmap per agent from the spec, debates and merges them); both is
// combined mode (Wave 1A, then Wave 2 on the unified spec); neither is the
// standard single-spec path, with no adversarial work and no adversarial
// front matter.
//
// # Wave 0
//
// [Planner.Validate] (and Run, first) checks before any work that a
// pipeline is configured ([ErrPipelineNotConfigured]), that the spec inputs
// fit the mode, and checks the agents with [CheckAgents]: 2–10 agents
// ("agent count must be 2-10. Provided: N"), every model known to the
// registry, when one is set with [WithRegistry] ("Unknown model '<model>'
// in --agents. Available models: ...").
//
// # Agents and personas
//
// A [PersonaDetector] picks the spec's primary persona; the default
// [KeywordDetector] scores each persona's domain keywords over the spec,
// deterministically, and a host may supply its own (a model, a
// configuration). [ExpandAgents] gives model-only agents that persona
// (opus → opus:security). With [OrchestratorThreshold] (5) agents or more
// the pipeline adds its orchestrator; the run records it.
//
// # Routing
//
// [Route] decides from each wave's return contract what happens next:
// success proceeds; partial proceeds with a warning at or above 60%
// convergence, and below it asks the host's [Approver] in interactive runs
// or aborts; failed aborts with the unresolved count and the artifacts
// location; unresolved conflicts and a convergence below 50% add warnings,
// which extraction.md lists under "Consolidation Warnings". A pipeline that
// returns an error aborts with [ErrInvocationFailed]. Aborts are
// [*AbortError] values.
//
// # Output
//
// [SetAdversarial] adds the adversarial block ([Adversarial]: mode,
// agents, convergence_score, base_variant in the generating modes,
// artifacts_dir) to a document's YAML front matter through yaml.Node,
// leaving other keys as they were, and removes it for the standard path.
// The roadmap itself comes from the pipeline's merged output
// (multi-roadmap, combined) or from an [Author]; [OfflineAuthor] is the
// deterministic baseline that derives phases from the spec's sections and
// requirement ids, ordered by the persona's priorities — a model-backed
// Author ([GeneratorAuthor] over an adversarial.ModelGenerator, say)
// replaces it. OfflineAuthor is also an adversarial.Generator, so that an
// offline pipeline's Mode B writes each agent's roadmap with it. Like the
// rest of Crucible, the package reads and writes nothing itself: specs
// arrive as drafts, artifacts leave through an [adversarial.Sink].
package roadmap
