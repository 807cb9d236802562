// Package debate is step 2 of Crucible's adversarial pipeline: one advocate
// per variant argues, round by round, which variant answers each point of
// the diff analysis best, and the debate turns their positions into a
// scoring matrix — a winner, a confidence and the evidence for every
// point — and a convergence score.
//
// It needs only what step 1 produced: the variants' parsed documents and
// their [diff.Analysis]. Its [Result] feeds step 3 (scoring weighs the
// points each variant won) and step 4 (the plan takes each point from its
// winner). Package adversarial runs it inside the pipeline; a host that
// wants only a debate between drafts calls [Run] itself:
//
//	a, _ := diff.Analyze(ctx, docs)
//	res, err := debate.Run(ctx, debate.Input{
//		Variants:  []debate.Variant{{Label: "A", Doc: docs[0]}, {Label: "B", Doc: docs[1]}},
//		Advocates: []debate.Advocate{debate.NewHeuristicAdvocate(), debate.NewHeuristicAdvocate()},
//		Analysis:  a,
//	})
//
// # Rounds
//
// The [Input]'s depth says how many rounds may run: quick 1, standard 2,
// deep up to 3 ([ParseDepth] reads a --depth value). Round 1 asks every
// advocate at once (bounded by [WithConcurrency]) for its opening
// statement; round 2 asks the advocates one after another in input order,
// each seeing every statement before it and the criticisms raised against
// its variant, which it must answer; round 3 (deep, while agreement is
// below the threshold) asks for final positions on the unresolved points.
//
// After each round the debate tallies the positions. A point is agreed
// when all advocates, or at least two thirds of them, prefer the same
// variant; convergence is the share of debated points agreed, and the
// debate is CONVERGED when it reaches the threshold (0.80 unless the Input
// says otherwise; [ValidConvergence] checks a threshold). The
// debate stops on unanimity, on a stable majority at or above the
// threshold over two rounds, on oscillation (unresolved points whose
// leading variant changes), at the threshold after round 2 of a deep
// debate, or after the depth's last round; every skipped round is logged
// with its reason ("Round 3 skipped: depth=standard"). [WithDepthLimit]
// lets a host lower the depth while the debate runs (the pipeline's
// reasoning circuit breaker does).
//
// From [OrchestratorThreshold] (5) variants on, Run adds an orchestrator so
// that the debate does not grow with every pair of variants: it groups
// similar variants (⌈n/3⌉ groups), runs a one-round elimination debate in
// each group, all groups at once, and debates the group winners; the Log of
// the final debate's Result records the groups and who advanced.
//
// # Advocates
//
// An [Advocate] takes a [Turn] — the round, its own variant, the others,
// the analysis, the transcript so far, the criticisms of its variant, the
// unresolved points, the focus areas — and returns a [Statement]: the
// prose the transcript shows (position, a steelman of every opponent,
// strengths and weaknesses with evidence, concessions; later, answers to
// criticisms, an updated assessment, a final position) and a
// [PointPosition] on every point under debate: the variant it holds
// superior, its confidence (50–100), its evidence and whether it concedes.
// Two advocates ship:
//
//   - [HeuristicAdvocate], the offline default: deterministic, it measures
//     each variant's answer to each point (coverage, specificity,
//     requirement ids, structure, internal consistency, corroboration) and
//     argues from those measures, quoting the variants' own lines; it
//     concedes a point when another variant measures better by a margin
//     that narrows each round ([WithMargins]), so debates converge;
//   - [ModelAdvocate], on a provider.Provider: prompts from embedded
//     templates a host may override ([WithAdvocatePrompts]) — the rules,
//     the mandatory steelman protocol, the persona's focus, the agent's
//     instruction, the focus areas — with the variants and the analysis
//     fenced and placed first so that providers can cache them, and a JSON
//     reply read leniently, checked with [ValidateStatement] and retried
//     once when invalid.
//
// A host plugs its own advocate in by implementing Advocate (or wrapping a
// function in [AdvocateFunc]) and putting it in Input.Advocates. Its
// statements must pass ValidateStatement for the turn: a position on
// every point under debate, preferring a variant of the debate, with
// evidence; a steelman of every opponent in round 1; an answer to every
// criticism in round 2. Argue is called concurrently in round 1 and must
// end when its context ends.
//
// Agents are named by specs of the form model[:persona[:"instruction"]]
// ([AgentSpec]); [ParseAgents] reads an --agents list and rejects unknown
// models ("Unknown model: <model>"), unquoted instructions and counts
// outside 2–10, and [PersonaFocus] gives each persona's focus.
//
// # Failures
//
// A turn that fails — an error, a panic, or a statement that fails
// validation — is retried once; an advocate that fails again leaves the
// debate, which goes on while at least two advocates remain (their
// variants are still debated). Otherwise, or when ctx ends, Run returns an
// [*Error] (matching [ErrTooFewAdvocates] or the context's error) whose
// Result holds every round completed. An input Run cannot debate — no
// analysis, an advocate count that is not one per variant, a variant the
// analysis does not know — matches [ErrInvalidInput] and asks no advocate.
//
// # The result
//
// [Result] is plain data that round-trips through JSON (the pipeline
// checkpoints it): every round's statements and tallies, the scoring
// matrix ([Decision] per diff point, points left out of the debate marked
// not debated), convergence, the reason the debate stopped, points won per
// variant, failures and token usage per advocate. [Result.Markdown]
// renders debate-transcript.md; [Result.MarkResolved] applies a user's
// override of unresolved points at the checkpoint after the debate. The
// same input and advocates give the same Result and the same transcript,
// byte for byte.
package debate
