// Package scoring is step 3 of the adversarial pipeline: hybrid scoring
// and base selection. It takes the variants, the Mode B source if any, the
// step 1 [diff.Analysis] and the step 2 debate outcomes, and returns a
// [Scorecard] — every score with its evidence, the selected base, and the
// strengths the refactoring plan (step 4) acts on. Its Markdown method
// renders base-selection.md.
//
// # The seam
//
// The pipeline calls a [Scorer]; [New] returns the default, a
// [HybridScorer]. The qualitative layer calls a [Judge]: [RuleJudge]
// (deterministic, offline, the default) or [ModelJudge] (a model through
// provider.Provider). Debate outcomes arrive as the plain [Debate] type,
// so this package does not depend on the debate's.
//
// # Quantitative layer (50%)
//
// Five deterministic metrics computed from the text, each with the counts
// behind it ("12/15 requirements matched"):
//
//	quant_score = RC×0.30 + IC×0.25 + SR×0.15 + DC×0.15 + SC×0.15
//
// RC measures coverage of the [Reference] — the source's requirements in
// Mode B, what the variants share in Mode A — by id, by a shared run of
// three significant words, or by topic when there are no ids: the
// source's sections that state something, or in Mode A the topics of the
// step 1 alignment ([Input.Analysis]). Names of standards, hashes and
// encodings (SHA-256, ISO-8601, UTF-8) are never requirement ids, nor is
// one variant's private numbering in Mode A. IC runs the step 1
// contradiction detectors on each variant alone. SR counts the shared
// lexicon's concrete and vague indicators. DC resolves, with
// internal/refs, the references to the document's own sections and ids
// — not another document's section numbers, nor anything in code or on a
// shell command line; a document without any scores 1.0. SC divides the
// topics a variant covers by the most any variant covers (aligned topics
// when the analysis is given, top-level titles otherwise; an empty heading
// covers nothing). Running twice on the same input gives identical
// scores.
//
// # Qualitative layer (50%)
//
// Twenty-five binary criteria in 5 dimensions (Completeness, Correctness,
// Structure, Clarity, Risk Coverage), each a Claim–Evidence–Verdict record;
// qual_score = met/25. A MET needs evidence quoted from the variant, and
// the scorer checks that the quote is there: a MET whose quote is not found
// counts as NOT MET, is logged, and shows in the report.
// [WithInvariantDimension] adds the sixth dimension, "Invariant & Edge Case
// Coverage" (30 criteria), with its floor rule.
//
// Against position bias the judge runs twice, in parallel: pass 1 sees the
// variants in input order, pass 2 reversed. Every criterion–variant pair on
// which the passes disagree is re-evaluated with a comparison prompt citing
// both passes' evidence and verdicts, and the re-evaluation is final. The
// report counts the disagreements, the verdicts changed and the agreement
// rate.
//
// # Combination and selection
//
// variant_score = 0.50×quant + 0.50×qual. The highest score is the base
// unless the top two are within 0.05, when the tiebreaker decides: level 1
// the diff points won in the debate (decisive when the counts differ by at
// least 5%), level 2 the correctness criteria met, level 3 input order. The
// selection lists the base's strengths to preserve and the other variants'
// strengths to incorporate — debate points they won and unique
// contributions rated Medium or High — each with its diff point and
// section. A host's interactive checkpoint ([WithCheckpoint] or
// [Scorecard.Override]) can replace the base; the report then says
// "Approval: user-overridden".
package scoring
