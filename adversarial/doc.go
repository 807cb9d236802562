// Package adversarial runs Crucible's structured adversarial review of 2–10
// variants of one Markdown artifact: a five-step pipeline of diff
// analysis, debate, scoring and base selection, refactoring plan, and merge.
//
// # The pipeline
//
// [New] returns a [Runner], the [Pipeline] hosts call. Run takes an [Input]
// in one of two modes — Mode A compares drafts the host already has
// ([LoadVariants] reads them from an fs.FS, checking there are 2–10 and
// that each exists, and warning on a name not ending in .md); Mode B
// generates one draft per agent from a source — and runs:
//
//  1. diff analysis (package diff) → diff-analysis.md;
//  2. the debate (package debate) → debate-transcript.md; with five or more
//     advocates an orchestrator groups similar variants, runs elimination
//     rounds and debates the finalists;
//  3. hybrid scoring and base selection (package scoring) →
//     base-selection.md;
//  4. the refactoring plan (package merge) → refactor-plan.md;
//  5. the merge with provenance and post-merge validation → merge-log.md and
//     the merged document.
//
// Step 4 gets step 1's topic alignment, so a topic keeps one section, and
// one winning value per conflict, so the merged document states one value:
// a labelled judgement (a verdict, a severity) goes to the majority of the
// variants, compared by the class step 1 reads it in; any other conflict
// to the debate's winner of its point; then to the later revision when
// the variants are successive revisions (a "REVISED" or version marker in
// a title or file name); then to a majority giving the same value; then
// to the base. The plan records the rule that decided each one.
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
// bounded, timed out (each call by the time its output limit needs at a
// slow model's speed, [CallTimeout]), and watched by a reasoning circuit
// breaker, which lowers the debate's depth one level (deep → standard →
// quick) after three consecutive failures (in the order of the logical
// calls, not of their completion) instead of failing the run. Each role's
// requests (output limit, temperature, prompts) are set through
// [WithGeneratorOptions], [WithAdvocateOptions], [WithJudgeOptions],
// [WithDetectorOptions] and [WithMergerOptions]; the pipeline still builds
// the collaborators on its own provider, so the host's settings never lose
// the metering, limits, timeouts or breaker.
//
// Faults degrade a run rather than fail it. Every agent call gets one retry
// after a retryable error or an unusable reply (invalid, truncated, empty),
// none after authentication or invalid-request errors or a refusal. A call
// still failing degrades to its seam's offline counterpart for that call —
// judge → rule judge, contradiction agent → rule detectors, merge executor
// → section merger (a restructure is skipped and listed) — or, for a
// generator or an advocate, the run goes on with the N−1 others while two
// remain. Each degradation leaves a warning naming seam, agent and cause in
// the step's artifact and the contract, and the run partial; a run never
// fails while two variants remain, and every path the contract names is in
// the sink.
//
// The [Result] is the run's return contract — status success, partial or
// failed as the fault handling above decides, convergence, unresolved
// points, base variant, failure stage — plus every artifact in order (also
// handed to the Input's [Sink] as produced: a [DirSink], a [MemorySink] or
// the host's own) and each step's typed output. The outputs form a
// [Checkpoint] that encodes to JSON, so a run can be resumed after any
// step. [Checkpoints] are the four interactive decision points; an
// [Observer] sees progress; [MemoryHook] and [DomainValidator] are optional
// host services behind circuit breakers.
//
// # Step 2 is package debate
//
// The debate lives in package [github.com/crucible-go/crucible/adversarial/debate]:
// advocates (the offline heuristic one and the model-backed one), agent
// specs (ParseAgents), rounds, convergence, the scoring matrix, the
// orchestrator for five or more advocates and the transcript. The pipeline
// calls debate.Run as it calls diff.Analyze; [WithAdvocates],
// [WithModelAdvocates] and [WithConcurrency] choose and bound the
// advocates, and the reasoning circuit breaker above limits the debate's
// depth through debate.WithDepthLimit. A host that wants only a debate
// between drafts calls debate.Run itself.
package adversarial
