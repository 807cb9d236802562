// Package challenge is Crucible's single-adversary challenge loop: one
// adversary challenges one artifact — requirements, a roadmap, a plan or a
// verification report — over up to three rounds against a defender, and the
// artifact comes back, revised or not, with a decision log.
//
// It is the oppositional review that sits at a workflow's checkpoints,
// between creating an artifact and acting on it. Where a structural check
// asks "is this plan complete?", the adversary asks "should we be building
// this at all, and what fundamental thing is missing?". It complements the
// multi-variant pipeline (package adversarial) and the critic
// (adversarial/critic): they compare and score drafts; this loop argues with
// one.
//
// # The loop
//
// [Loop.Run] runs the debate. Each round the [Adversary] returns challenges
// — each with a category from the artifact type's set, a concern, evidence,
// a severity (critical, significant, minor) and a recommendation — or no
// objections; from round 2 it also assesses the previous defense
// (addressed, rejected, unaddressed) and the convergence (continue,
// converging, deadlock). Below the last round the host's [Defender] answers
// each challenge, accepting or rejecting it, and may revise the artifact.
// The debate stops on no objections, on deadlock or at the maximum rounds;
// if concerns remain then, the host's [Decider] makes the final call and
// its rationale is logged. The adversary is advisory: Run never blocks the
// host and always returns the artifact.
//
// The evidence rule decides what counts: a challenge without evidence (or
// whose quotes occur in neither the artifact nor the project context) is
// flagged and never counts toward the remaining concerns; a rejection with
// evidence resolves a challenge, one without keeps it open. Every challenge
// is tracked across rounds ([Tracked]) — addressed, resolved, flagged,
// raised again — and the [Outcome] renders as a Markdown decision-log entry
// a host can append to its own record.
//
// # Adversaries, defenders, deciders
//
// [Offline] is the deterministic adversary, the default: conflicting
// statements from the diff step's contradiction detectors, vague language
// from the shared lexicon, and structural checks per type — requirements
// with no phase in a roadmap, tasks with no verification in a plan,
// "implement X" tasks, must-haves left unchecked in a verification report,
// and more — each challenge quoting its evidence with its line.
// [RuleDefender] and [RuleDecider] are the deterministic host sides, so the
// whole loop runs without a model. A [ModelAdversary] asks a language model
// through a provider.Provider, with prompts from embedded templates the
// host may override, untrusted text in fenced blocks, and the reply parsed
// by [Parse] — the native Markdown format (## CHALLENGES, critical |
// significant | minor) or the widely used fork's (BLOCKING | MAJOR | MINOR,
// CONTINUE | CONVERGE), which maps onto it — and retried once with the
// parse error before it fails with a [*ReplyError].
//
// # Configuration
//
// [Config] holds the settings: enabled (off by default), max rounds (3),
// checkpoints (which artifact types are challenged) and the model profile —
// quality, balanced or budget, standing for opus, sonnet and haiku and
// resolved through a provider.Registry. [ParseConfig] reads them from a
// project's JSON configuration.
//
// The package reads and writes nothing itself, starts no goroutines, keeps
// no global state, takes its clock and logger as options, and gives
// byte-identical outcomes for the same inputs, configuration and replies.
package challenge
