// Package critic is Crucible's critic with ten adversarial strategy modes:
// it selects which strategies to apply to a Markdown artifact, runs them as
// a pipeline in which each sees what the earlier ones found, scores the
// result, and drives the creator–critic–revision cycle until the artifact
// passes its quality gate, plateaus or needs a human.
//
// # Modes
//
// The ten modes are the strategies of the adversarial strategy catalogue:
// self-refine (S-010), steelman (S-003), inversion (S-013), constitutional
// (S-007), devils-advocate (S-002), pre-mortem (S-004), fmea (S-012),
// chain-of-verification (S-011), llm-as-judge (S-014) and red-team (S-001).
// Each has a typed result ([SteelmanResult], [FMEAResult], [JudgeResult], …)
// whose evidence quotes the artifact lines it rests on. [Standard] is the
// backward-compatible default: one evaluation on the default dimensions
// against 0.85.
//
// # Selection
//
// [SelectExplicit] takes a --mode list (unknown modes are rejected with the
// list of valid ones; an empty list means standard mode; tension pairs are
// warnings). [SelectAutomatic] runs the decision tree over a context
// [Vector] and the artifact's [Facts]: auto-escalation (AE-001…AE-005), the
// phase modifier under PR-001, the base set for the criticality, token
// budget adaptation (with AE-006), the maturity gate, the team check, the
// ENF-MIN override and the sequencing constraints SEQ-001…SEQ-005
// ([Sequence]). Every rule it evaluates is recorded in the selection's
// [Trace], which a host can print; a C4 review for a single agent is
// rejected with a [*RejectedError] that carries the trace.
//
// # Pipelines
//
// [Critic.Run] executes a selection's modes in order through an [Engine].
// [Offline] is the default engine: deterministic rule-based checks over the
// Markdown and a rule-based judge, so everything runs with no model. A
// [ModelEngine] runs the same modes through a provider.Provider, with
// prompts from embedded templates the host may override, the artifact in
// delimited blocks it cannot escape, and replies validated against the
// result types (retried once with the validation error). The pipeline
// aborts on a governance violation at C3/C4 or a contradicted HARD rule,
// stops early when the token budget or the orchestrator's time runs out,
// flags modes that overrun their own time limit, skips modes the engine
// cannot run, and checkpoints after every mode so that a host can resume.
// [Critic.Review] runs one invocation ([ParseInvocation] reads the PS
// CONTEXT / ADVERSARIAL CONTEXT blocks), degrading gracefully: standard
// mode without an ADVERSARIAL CONTEXT, the minimal strategy set when the
// budget is exhausted, and the remaining modes when some cannot run.
//
// # Scoring and the cycle
//
// S-014 scores an artifact from 0 to 1 on weighted dimensions, each with its
// evidence; when unsure between two scores it takes the lower, and totals
// round down. [Cycle] runs create, critique and revise-and-verify
// iterations with a host-supplied [Creator], deciding after each scored
// iteration with [Decide]: accept at the threshold (0.92), accept with
// caveats at the circuit breaker (3 iterations) from 0.85, escalate below
// it, accept with caveats on a plateau (two improvements under 0.05),
// otherwise revise. [Tracking] records every iteration, computes the trend
// and raises the anti-leniency flags; a [LeniencyMonitor] watches scores
// across artifacts.
//
// The package reads and writes nothing itself, keeps no global state, takes
// its clock and logger as options, and gives byte-identical results for the
// same inputs, configuration and provider replies.
package critic
