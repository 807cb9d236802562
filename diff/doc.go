// Package diff holds the Markdown document model every pipeline step works
// on, and (from step 1 of the pipeline) the analysis of how 2–10 variants of
// one artifact differ.
//
// # Document model
//
// [Parse] normalises a variant (see [Normalize]: line endings, trailing
// whitespace, one final newline) and parses it with goldmark into a
// [Document]: the title, the YAML front matter as data, every section with
// its heading, outline number and byte span, and the body text cut into
// blocks — paragraphs, list items, table rows, code — each with its byte
// span and line numbers, so that later steps can quote their evidence
// exactly. Section spans nest like the heading tree: a section runs from its
// heading to the next heading of the same or a higher level. "#" lines in
// code or HTML blocks are not headings; setext headings are.
//
// The Document is the source of truth for positions. The Markdown artifacts
// the pipeline writes are renderings of typed values built on it.
//
// # Step 1: the analysis
//
// [Analyze] first aligns the variants' sections by topic (titles without
// their numbering, shared rare terms and identifiers of their text, and
// the structure around them), so "Key Risks" meets "Risks & Mitigations"
// and a roadmap's H1 phases meet another's H2 phases: [Analysis.Topics].
// It then reads labelled fields ("**Verdict**: OVERSTATED", a risk table's
// Probability column, "estimated_tokens: 300") and reports the ones whose
// values differ for one item: [Analysis.Fields]. Contradictions come from
// [ContradictionDetector]s: the rules of [RuleDetector] compare values only
// where they speak of one thing — one aligned topic, one section, one
// named item — and report a difference of estimates or wording as a
// content difference, not a contradiction; a [ModelDetector] reads every
// statement in its context (section path, table columns, list lead-ins,
// code with line numbers), one group of aligned topics per request — with
// the statements of other sections that name the same identifiers — plus
// a last request over summaries and totals, and its findings count only
// once verified and given with high confidence — the rest, and the
// changes between successive revisions, are content differences; one more
// request asks which findings report the same disagreement from other
// statements, and each such group is one finding. With a model detector
// each contradiction says which detectors found it. Every finding quotes
// the variants verbatim with line numbers.
//
// The analysis is measured against hand-labelled real variant sets: `go
// test ./diff -run TestEval -v` reads them from ../shared/eval (or
// $CRUCIBLE_EVAL) and prints precision and recall per set; the totals must
// stay above the floors in testdata/eval/floors.json. The model detector
// is measured from recorded prompts and saved replies: see
// detector_eval_test.go (TestDetectorRequestSizes, TestDetectorPrompts,
// TestDetectorReplay).
package diff
