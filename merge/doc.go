// Package merge holds steps 4 and 5 of the adversarial pipeline: the
// refactoring plan that says what to take from the non-base variants, and
// the merge that executes it with provenance and validates the result.
//
// # Step 4: the plan
//
// [NewPlan] builds a [Plan] from plain inputs the pipeline converts its
// debate and scoring results into (this package imports neither): the base
// [Variant], the others, the debate's [Decision] per diff point and the
// [Strength]s to incorporate. Each change names its source variant and
// section (carrying the section's Markdown, so the plan is self-contained),
// its target in the base, its approach (replace, append, insert,
// restructure), its rationale citing debate round, point and confidence,
// and its risk (Low additive, Medium modifies, High restructures). Points
// the base lost are its weaknesses; points it won, and unresolved ones, are
// the changes not being made. Two optional inputs carry what step 1 and the
// debate settled: the topic alignment ([AlignedTopic]) — a section aligned
// to a base section goes into it, never beside it; a section whose parent
// or preceding sibling is aligned is placed there; and subsections of an
// appended section whose topic the merged document already has are cut from
// it and listed — and the resolved conflicts ([ResolvedConflict]) — changes
// are edited to state only each winner's value (a whole statement is
// restated only in the same form, else removed), the base's own text is
// amended where it states a losing value ([Amendment]), and the losing
// values are listed among the changes not being made with their source and
// rule ([Rejection.Value]). A conflict marked [ResolvedConflict.Exclusive]
// (one architecture, one option) that the base wins makes a variant that
// opens with the losing choice a rival proposal: none of its sections is
// taken, since each argues for the choice the merged document does not
// make, and each is listed with that reason. Nor is a section that argues
// against another variant by the name the variants' titles give it ("Why
// not Proposal A's choice"): the merged document is none of the variants.
// At most one change rewrites a base section;
// colliding contributions are listed there too instead of failing at merge
// time. A Plan is plain data: it round-trips through JSON, so a host can
// checkpoint it and a user can edit it. [Review] runs the interactive
// checkpoint after the plan (the pipeline's fourth) through a host
// [Reviewer] and records the approval. [Plan.Markdown] renders
// refactor-plan.md.
//
// # Step 5: the merge
//
// A [Merger] executes a plan against the base. [SectionMerger], the
// offline default, splices Markdown at section boundaries: it replaces a
// section's subtree (its text, and its subsections paired with the
// source's by title: a base subsection the source lacks is kept, never
// silently dropped, and the plan's [Change.Subsections] says so), appends
// a section after another (several after one anchor keep plan order) or
// inserts a subsection and re-levels the incorporated headings to fit.
// Then it numbers every heading of the merged document in the base's
// style (a numbered base numbers what comes in and renumbers what follows
// it; an unnumbered one numbers nothing) and rewrites the internal
// references ("Section 3.2", "§3.2", "see 3.2", "#anchors") to follow
// the sections they named — base text in the base's numbering,
// incorporated text in its variant's — reporting as broken those whose
// section the merge did not bring. Every section no change touches stays
// byte-identical; one renumbered or whose references were rewritten is
// tagged "Base (original, modified)" with the reason, as is one whose
// text an amendment corrected. merge-log.md lists the values not taken
// and the amendments. [ModelMerger] sends restructure
// changes (or all of them) to a model through provider.Provider, validates
// each reply and retries an invalid one once. Package mergetest is the
// conformance suite any Merger can run.
//
// Every section of the merged document carries one provenance tag after
// its heading, under a header naming the base and the merge date:
//
//	<!-- Provenance: This document was produced by crucible adversarial merge -->
//	<!-- Base: Variant A (opus:architect) -->
//	<!-- Merge date: 2026-01-01T00:00:00Z -->
//	…
//	<!-- Source: Base (original) -->
//	<!-- Source: Base (original, modified) — <reason> -->
//	<!-- Source: Variant B (sonnet:security), Section 3.2 — merged per Change #3 -->
//
// YAML front matter stays the first thing in the file (blank lines before
// it are dropped) and the header follows it. The title is the base's; when
// content from other variants is merged in, wording in it that names one
// variant's perspective ("Variant 1:", "Proposal A —", "… Architect
// Perspective") is removed, as is a part of a title's list that states a
// value the plan's amendments replaced in the base ("…, Sidecar-Only, …"
// over a gate the merge made configurable), and the title is tagged as
// modified.
//
// Comments in any variant that imitate these are neutralised before the
// merge, so no variant text can claim another origin. [Merged.Provenance]
// is the same information as data; [ParseProvenance] reads it back from a
// merged document and [Strip] removes it.
//
// After the changes, the merged document is validated: structural integrity
// (starts with H1 or H2, no level gaps, no orphaned subsections, explicit
// numbers in order, no topic twice among siblings — equal titles, or a
// host's [TopicMatcher]), internal references (internal/refs, plus those
// the renumbering found pointing at sections the merge did not bring) and a
// contradiction re-scan through a [ContradictionScanner] that compares the
// merged document with the base alone: a conflict between the variants that
// the merge imports is new. Structure and references fail on problems the
// merge introduced; a broken reference that sits in base text and was
// broken in the base already is listed and marked. A partial merge's log
// says why ([Log.Reasons]).
//
// # Failures
//
// A change that cannot be applied — its target is missing, an earlier
// change removed or replaced it, its source is not one section — is
// Failed in the log and the merge goes on; any failed change or failed
// check makes the merge partial. A failure of the executor itself (a model
// call that fails, output rejected twice, a cancelled context) ends the
// merge failed; the [Merged] returned beside the [*ExecutorError] keeps the
// plan, the log and the merge so far, so that the rest of the plan can be
// applied by hand. [Log.Markdown] renders merge-log.md.
package merge
