// Package crucible is the root of Crucible, an embeddable library for
// structured adversarial review of Markdown artifacts: specs, roadmaps and
// plans. This package holds no code; it documents how the others fit.
//
// # The pipeline
//
// Given 2–10 variants of one artifact — files a host already has (Mode A)
// or drafts generated from a source by several models and personas
// (Mode B) — the pipeline runs five steps, each producing a typed value
// and a Markdown artifact that explains it:
//
//  1. diff analysis: structural and content differences, contradictions
//     and unique contributions, each with an id (S-001, C-001, X-001,
//     U-001) and the quoted text it rests on (diff-analysis.md);
//  2. debate: one advocate per variant argues over every diff point,
//     steelmanning the others first, for one to three rounds until the
//     advocates converge (debate-transcript.md);
//  3. scoring: deterministic metrics and an evidence-backed 25-criterion
//     rubric, judged twice in opposite orders to cancel position bias,
//     pick the base variant (base-selection.md);
//  4. a refactoring plan lists what to take from the other variants and
//     why (refactor-plan.md);
//  5. the merge applies the plan to the base, tags every section with its
//     provenance and validates the result (merge-log.md and the merged
//     document).
//
// # Packages
//
// Dependencies point down this list only:
//
//	examples/…            runnable command-line hosts (offline build)
//	roadmap               roadmap generation in adversarial modes
//	adversarial           the pipeline: Mode A/B, each step in turn, return contract
//	adversarial/debate    step 2: advocates, rounds, convergence, scoring matrix
//	adversarial/challenge a single adversary challenging one artifact
//	adversarial/critic    a critic with ten adversarial strategy modes
//	merge                 refactoring plan, merger, provenance, validation
//	merge/mergetest       a conformance suite for mergers
//	scoring               metrics, rubric judge, bias mitigation, base selection
//	diff                  the Markdown document model and the diff analysis
//	provider              the seam to language models: Provider, registry, middleware
//	provider/llmjson      the one reader of model replies, for hosts' seams too
//	provider/providertest fakes, fault injection and a conformance suite
//	internal/…            text utilities shared by the packages above
//
// Beside this module, each in a module of its own so that the core
// requires no vendor SDK:
//
//	provider/openai       adapter over OpenAI's SDK (and OpenAI-compatible servers)
//	provider/anthropic    adapter over Anthropic's SDK, with prompt caching
//	examples/withmodels   the example commands with both adapters linked
//	tracing               OpenTelemetry spans: one per step, one per model call under it
//
// # Seams
//
// The host supplies models through provider.Provider and reads and writes
// nothing through the library: inputs arrive in memory (or from an fs.FS)
// and artifacts leave through a sink the host chooses. Every seam — the
// provider, the advocates, the judge, the merger — has a deterministic
// offline implementation beside the model-backed one, so the whole pipeline
// runs in tests and CI with no model and no key, and the same inputs, config
// and provider replies always give byte-identical artifacts.
package crucible
