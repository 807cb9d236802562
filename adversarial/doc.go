// Package adversarial runs Crucible's structured adversarial review of 2–10
// variants of one Markdown artifact: the five-step pipeline of the
// sc:adversarial specification, and the debate that is its second step.
//
// # The pipeline
//
// [New] returns a [Runner], the [Pipeline] hosts call. Run takes an
// [Input] in one of two modes — Mode A compares drafts the host already has
// ([LoadVariants] reads them from an fs.FS with the seed's validation);
// Mode B generates one draft per agent from a source — and runs:
//
//  1. diff analysis (package diff) → diff-analysis.md;
//  2. the debate, below → debate-transcript.md; with five or more
//     advocates an orchestrator groups similar variants, runs elimination
//     rounds and debates the finalists;
//  3. hybrid scoring and base selection (package scoring) →
//     base-selection.md;
//  4. the refactoring plan (package merge) → refactor-plan.md;
//  5. the merge with provenance and post-merge validation → merge-log.md and
//     the merged document.
//
// Step 3 does not wait for step 2 to start: when the scorer implements
// [scoring.Preparer] (the default one does), the part of scoring that
// depends on the variants alone runs while the debate waits on its
// advocates, so a run with slow models pays for it only once.
//
// Every collaborator is an option and defaults to a deterministic offline
// implementation, so New() runs with no model and no key, and the same
// inputs give byte-identical artifacts (fix the clock with [WithClock]).
// With [WithRegistry] the pipeline generates Mode B variants through the
// models, and the model-backed advocates, judge, merger and contradiction
// detector become available; their calls are metered per step and agent,
// bounded, timed out, and watched by the seed's reasoning circuit breaker,
// which lowers the debate's depth after three consecutive failures instead
// of failing the run.
//
// The [Result] is the seed's return contract — status success, partial or
// failed per the error-handling matrix, convergence, unresolved points,
// base variant, failure stage — plus every artifact in order (also handed
// to the Input's [Sink] as produced: a [DirSink], a [MemorySink] or the
// host's own) and each step's typed output. The outputs form a
// [Checkpoint] that encodes to JSON, so a run can be resumed after any
// step. [Checkpoints] are the four interactive decision points; an
// [Observer] sees progress; [MemoryHook] and [DomainValidator] are optional
// host services behind circuit breakers.
//
// # The debate
//
// [ParseAgents] reads an --agents list of model[:persona[:"instruction"]]
// specs ([AgentSpec]), with the seed's messages for unknown models (checked
// against a provider.Registry), unquoted instructions and counts outside
// 2–10; an unknown persona is a warning. [PersonaFocus] gives what each
// persona's advocate focuses on.
//
// An [Advocate] takes a [Turn] — the round, its own variant, the others,
// the diff analysis, the transcript so far, the criticisms raised against
// its variant, the unresolved points, the focus areas — and returns a
// [Statement]: the prose the transcript shows (position, a steelman of
// every opponent, strengths and weaknesses with evidence, concessions;
// later responses to criticisms, an updated assessment, a final position)
// and a [PointPosition] on every diff point: the variant it holds
// superior, its confidence and whether it concedes. Two implementations
// ship:
//
//   - [HeuristicAdvocate], the offline default: deterministic, it measures
//     each variant's answer to each point (coverage, specificity,
//     requirement ids, structure, internal consistency, corroboration) and
//     argues from those measures with quotations of the variants' own
//     lines; it concedes a point when another variant measures better by a
//     margin that narrows each round, so debates converge;
//   - [ModelAdvocate], on a provider.Provider: prompts from embedded
//     templates the host may override (rules, the mandatory steelman
//     protocol, persona focus, custom instruction, focus areas), the
//     variants and the analysis fenced and placed first so that providers
//     can cache them, and a JSON reply validated with [ValidateStatement]
//     and retried once when invalid.
//
// [Debate] runs round 1 with every advocate at once (bounded by
// [debate.WithConcurrency]), round 2 (depth standard or deep) with the
// advocates one after another in input order, each seeing every statement
// before it and the criticisms of its variant, and round 3 (deep, while
// agreement is below the threshold) on the unresolved points. After each
// round it tallies the positions: a point is agreed when all advocates, or
// at least two thirds of them, prefer the same variant; convergence is the
// share of points agreed. The debate stops on unanimity, on a stable
// majority at or above the threshold over two rounds, on oscillation
// (unresolved points whose leading variant changes), at the threshold after
// round 2 of a deep debate, or after the depth's last round; skipped rounds
// are logged in the seed's words. A failed turn is retried once; an
// advocate that fails again leaves the debate, which continues while at
// least two remain and otherwise ends with a [*debate.Error] carrying
// everything completed. The [debate.Result] — every round's statements and
// tallies, the scoring matrix ([Decision] per diff point), convergence,
// the reason the debate stopped, points won, failures and token usage — is
// plain data, and [debate.Result.Markdown] renders debate-transcript.md.
//
// [MatchTriggers] recognises the natural-language requests that ask for
// the pipeline, with the seed's routing confidences.
package adversarial
