package scoring

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/internal/words"
)

// Metric is one quantitative metric of one variant.
type Metric struct {
	Name   string  `json:"name"`   // "requirement_coverage", …
	Symbol string  `json:"symbol"` // "RC", "IC", "SR", "DC", "SC"
	Weight float64 `json:"weight"`
	Score  float64 `json:"score"` // in [0, 1]
	// Num and Den are the counts the score comes from (Score is Num/Den,
	// or 1 − Num/Den for IC); both zero when the metric had nothing to
	// count and took its documented default.
	Num    int    `json:"num"`
	Den    int    `json:"den"`
	Detail string `json:"detail"` // e.g. "12/15 requirements matched"
}

// QuantScore is the quantitative layer's result for one variant: five
// deterministic metrics computed from the text, no model involved.
//
//	quant_score = RC×0.30 + IC×0.25 + SR×0.15 + DC×0.15 + SC×0.15
type QuantScore struct {
	RC    Metric  `json:"rc"`
	IC    Metric  `json:"ic"`
	SR    Metric  `json:"sr"`
	DC    Metric  `json:"dc"`
	SC    Metric  `json:"sc"`
	Score float64 `json:"score"`
	// Unmatched lists the reference items the variant does not cover:
	// requirement ids, or topic titles when the reference is by topic.
	Unmatched []string `json:"unmatched,omitempty"`
}

// Metrics returns the five metrics in the order RC, IC, SR, DC, SC.
func (q QuantScore) Metrics() []Metric { return []Metric{q.RC, q.IC, q.SR, q.DC, q.SC} }

// The metrics' weights in quant_score; they sum to 1.
const (
	WeightRC = 0.30
	WeightIC = 0.25
	WeightSR = 0.15
	WeightDC = 0.15
	WeightSC = 0.15
)

// quantify computes the quantitative layer for every variant.
//
// Each metric, with the edge cases this package settles:
//
//   - RC, requirement coverage: reference items the variant covers over
//     reference items (see [Reference] and cover) — requirement ids, or
//     the topics that carry requirements; never names of standards,
//     hashes or encodings, nor heading counts. An empty reference scores
//     1.0.
//   - IC, internal consistency: 1 − contradictions ÷ scorable claims, with
//     the step 1 detectors run on the variant alone; vague statements are
//     not claims; a variant without claims scores 1.0 (nothing in it
//     contradicts) and the score never drops below 0.
//   - SR, specificity ratio: concrete ÷ (concrete + vague) indicators in
//     body text; headings, code, table header rows, tables of contents and
//     metadata lines ("Status: Draft") are excluded, and requirement ids and
//     internal references ("FR-012", "Section 3.2") are not quantities. No
//     indicator at all scores 0.
//   - DC, dependency completeness: resolved ÷ total references to the
//     document's own sections and ids (sections, milestones, deliverables,
//     "See [title]", anchors); URLs, other documents, another document's
//     section numbers and anything in code or on a shell command line are
//     excluded (see ownReferences); a document without internal references
//     scores 1.0 — nothing in it is left dangling.
//   - SC, section coverage: the topics the variant covers ÷ the most any
//     variant covers — the step 1 alignment's topics when the input carries
//     the analysis, else the variants' top-level titles (see countTopics);
//     a heading with nothing under it covers nothing. When no variant
//     covers a topic every variant scores 1.0.
//
// The variants are measured in parallel, at most limit at once: each
// metric but SC reads one variant only, and SC's topic counts are taken
// once for all of them.
func quantify(ctx context.Context, vs []Variant, ref Reference, an *diff.Analysis, detectors []diff.ContradictionDetector, limit int) ([]QuantScore, error) {
	out := make([]QuantScore, len(vs))
	topics := countTopics(vs, an)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(limit, 1))
	var refKey string // the memo's key: one for every variant
	if onlyRules(detectors) {
		refKey = referenceKey(ref)
	}
	items := newItemGrams(ref) // the reference's trigrams, for every variant
	for i, v := range vs {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			d := v.Doc
			if !onlyRules(detectors) {
				q, err := quantifyOne(gctx, d, v.Label, ref, items, detectors)
				out[i] = q.withSC(topics.sectionCoverage(i))
				return err
			}
			// With the rule detector alone the metrics but SC depend on the
			// document, its label and the reference only: computed once,
			// whoever asks first (Prepare or Score).
			key := quantKey{reference: refKey, label: v.Label}
			m := d.Memo(key, func() any {
				q, err := quantifyOne(context.WithoutCancel(gctx), d, v.Label, ref, items, detectors)
				return quantMemo{q, err}
			}).(quantMemo)
			if m.err != nil {
				return m.err
			}
			out[i] = m.q.withSC(topics.sectionCoverage(i))
			out[i].Unmatched = slices.Clone(m.q.Unmatched) // the memo's copy stays as it was
			return gctx.Err()
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

type quantKey struct {
	reference string
	label     string
}

type quantMemo struct {
	q   QuantScore
	err error
}

// withSC sets the section coverage and the weighted score.
func (q QuantScore) withSC(sc Metric) QuantScore {
	q.SC = sc
	q.Score = q.RC.Score*WeightRC + q.IC.Score*WeightIC + q.SR.Score*WeightSR + q.DC.Score*WeightDC + q.SC.Score*WeightSC
	return q
}

// quantifyOne computes one variant's RC, IC, SR and DC; SC and the weighted
// score need every variant's topics and are set by withSC.
func quantifyOne(ctx context.Context, d *diff.Document, label string, ref Reference, items *itemGrams, detectors []diff.ContradictionDetector) (QuantScore, error) {
	var q QuantScore
	cov := cover(d, label, ref, items)
	q.RC = ratioMetric("requirement_coverage", "RC", WeightRC, cov.matched, len(ref.Items),
		fmt.Sprintf("%d/%d %s matched", cov.matched, len(ref.Items), ref.unit()), "no requirements in the reference", 1)
	q.Unmatched = cov.unmatched

	var claims []diff.Claim
	var contradictions []diff.Contradiction
	var err error
	if onlyRules(detectors) {
		claims, contradictions, err = ruleConsistency(ctx, d)
	} else {
		claims, contradictions, err = consistency(ctx, d, detectors)
	}
	if err != nil {
		return q, err
	}
	q.IC = consistencyMetric(len(contradictions), len(claims))

	all := refs.Check(d)
	report := ownReferences(d, all)
	concrete, vague := specificity(d, all.Refs)
	q.SR = ratioMetric("specificity_ratio", "SR", WeightSR, concrete, concrete+vague,
		fmt.Sprintf("%d concrete / %d vague", concrete, vague), "no concrete or vague indicators", 0)
	q.DC = ratioMetric("dependency_completeness", "DC", WeightDC, report.Resolved, report.Total,
		fmt.Sprintf("%d/%d references resolved", report.Resolved, report.Total), "no internal references", 1)
	return q, nil
}

// ratioMetric builds num/den, or the default with its detail when den is 0.
func ratioMetric(name, sym string, w float64, num, den int, detail, none string, dflt float64) Metric {
	m := Metric{Name: name, Symbol: sym, Weight: w, Num: num, Den: den, Detail: detail, Score: dflt}
	if den == 0 {
		m.Detail = none
		return m
	}
	m.Score = float64(num) / float64(den)
	return m
}

func consistencyMetric(contradictions, claims int) Metric {
	m := Metric{Name: "internal_consistency", Symbol: "IC", Weight: WeightIC, Num: contradictions, Den: claims, Score: 1}
	if claims == 0 {
		m.Detail = "no scorable claims"
		return m
	}
	m.Score = max(0, 1-float64(contradictions)/float64(claims))
	m.Detail = fmt.Sprintf("%d %s in %d %s", contradictions, plural(contradictions, "contradiction", "contradictions"),
		claims, plural(claims, "claim", "claims"))
	return m
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ruleConsistencyKey memoises, per document, consistency under the
// rule-based detector alone: the quantitative layer's default and the rule
// judge's no-hallucination test both ask for it.
type ruleConsistencyKey struct{}

type consistencyResult struct {
	claims  []diff.Claim
	contras []diff.Contradiction
	err     error
}

// ruleConsistency is consistency(ctx, d, RuleDetector) computed once per
// document. The rule detector fails only when its context ends, so the
// shared computation ignores cancellation (it is bounded CPU work) and
// the caller's context is checked instead: a cancelled run never leaves a
// failure in the memo for the next one.
func ruleConsistency(ctx context.Context, d *diff.Document) ([]diff.Claim, []diff.Contradiction, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	r := d.Memo(ruleConsistencyKey{}, func() any {
		claims, contras, err := consistency(context.WithoutCancel(ctx), d, []diff.ContradictionDetector{diff.RuleDetector{}})
		return consistencyResult{claims, contras, err}
	}).(consistencyResult)
	if r.err != nil {
		return nil, nil, r.err
	}
	return r.claims, r.contras, ctx.Err()
}

// onlyRules reports whether detectors is the rule-based detector alone.
func onlyRules(detectors []diff.ContradictionDetector) bool {
	if len(detectors) != 1 {
		return false
	}
	_, ok := detectors[0].(diff.RuleDetector)
	return ok
}

// consistency returns the variant's scorable claims and the contradictions
// the detectors find among them, duplicates (the same conflict between the
// same lines, found by two detectors) counted once.
func consistency(ctx context.Context, d *diff.Document, detectors []diff.ContradictionDetector) ([]diff.Claim, []diff.Contradiction, error) {
	claims := diff.ExtractClaims(d, 0)
	// Entries of a table of contents restate headings; they claim nothing.
	if contents := contentsSections(d); slices.Contains(contents, true) {
		claims = slices.DeleteFunc(claims, func(c diff.Claim) bool { return c.Section >= 0 && contents[c.Section] })
	}
	if len(claims) < 2 {
		return claims, nil, nil
	}
	in := diff.DetectInput{Documents: []*diff.Document{d}, Claims: [][]diff.Claim{claims}}
	var all []diff.Contradiction
	seen := map[string]bool{}
	for _, det := range detectors {
		cs, err := det.Detect(ctx, in)
		if err != nil {
			return nil, nil, fmt.Errorf("scoring: internal consistency of %s: %w", d.Name, err)
		}
		for _, c := range cs {
			key := c.Signature()
			for _, cl := range c.Claims {
				key += fmt.Sprintf("|%d", cl.Line)
			}
			if !seen[key] {
				seen[key] = true
				all = append(all, c)
			}
		}
	}
	diff.SortContradictions(all)
	return claims, all, nil
}

var (
	// metadataLine matches a "Key: value" line of document metadata.
	metadataLine = regexp.MustCompile(`(?i)^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:version|status|date|authors?|owners?|last updated|updated|created|reviewers?|revision|document id|doc id|tags|generated|approvers?|editors?)\s*(?::\s*(?:\*\*|__)?|(?:\*\*|__)\s*:)`)
	// tocEntry matches a list item that is only a link to an anchor.
	tocEntry = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+\[[^\]]*\]\(#[^)]*\)\s*$`)
)

// specificity counts the concrete and vague indicators of the variant's
// substantive statements.
func specificity(d *diff.Document, rs []refs.Resolution) (concrete, vague int) {
	contents := contentsSections(d)
	// The document's own indicators per block (memoised, and used by the
	// rule judge and the debate too) hold the counts of every block whose
	// text needs no id or reference taken out.
	ind := d.BlockIndicators()
	bp := boilerplateBlocks(d)
	ri := 0
	for bi := range d.Blocks {
		b := &d.Blocks[bi]
		for ri < len(rs) && rs[ri].Span.Start < b.Span.Start {
			ri++
		}
		if b.Kind == diff.Code || b.Header || (b.Section >= 0 && contents[b.Section]) {
			continue
		}
		if bp[bi] {
			continue
		}
		text := b.Text
		if strings.IndexByte(text, '-') >= 0 {
			for _, id := range lexicon.RequirementIDs(text) {
				text = strings.ReplaceAll(text, id, " ")
			}
		}
		for j := ri; j < len(rs) && rs[j].Span.End <= b.Span.End; j++ {
			text = strings.Replace(text, rs[j].Text, " ", 1)
		}
		if text == b.Text {
			concrete += ind[bi].Concrete
			vague += ind[bi].Vague
			continue
		}
		concrete += lexicon.ConcreteCount(text)
		vague += len(lexicon.VagueMatches(text))
	}
	return concrete, vague
}

// contentsSections marks the sections that are tables of contents, and
// everything below them.
func contentsSections(d *diff.Document) []bool {
	out := make([]bool, len(d.Sections))
	for i, s := range d.Sections {
		out[i] = isContents(s.Title) || (s.Parent >= 0 && out[s.Parent])
	}
	return out
}

type boilerplateKey struct{}

// boilerplateBlocks is isBoilerplate of each of d's blocks, computed once
// per document: specificity, the concreteness test and the topic count
// (bearsContent) all skip the blocks that state nothing.
func boilerplateBlocks(d *diff.Document) []bool {
	return d.Memo(boilerplateKey{}, func() any {
		out := make([]bool, len(d.Blocks))
		for i := range d.Blocks {
			out[i] = isBoilerplate(&d.Blocks[i], d.Text(d.Blocks[i].Span))
		}
		return out
	}).([]bool)
}

// isBoilerplate reports a block that states nothing: metadata lines or a
// table-of-contents entry.
func isBoilerplate(b *diff.Block, src string) bool {
	switch b.Kind {
	case diff.ListItem:
		// the pattern holds "](#": a list item without it is no entry
		if strings.Contains(src, "](#") && tocEntry.MatchString(src) {
			return true
		}
	case diff.Paragraph:
	default:
		return false
	}
	if strings.IndexByte(src, ':') < 0 {
		return false
	}
	for _, l := range strings.Split(src, "\n") {
		// every metadata line holds a colon: a line without one is not
		// metadata, and the pattern need not run
		if !isMetadataLine(l) {
			return false
		}
	}
	return true
}

// metadataKeys are the keys metadataLine knows, lower-case, each
// optional plural spelt out.
var metadataKeys = []string{"version", "status", "date", "author", "authors", "owner", "owners", "last updated", "updated",
	"created", "reviewer", "reviewers", "revision", "document id", "doc id", "tags", "generated", "approver", "approvers",
	"editor", "editors"}

// isMetadataLine is metadataLine.MatchString(l) without the regexp engine
// (the pattern backtracks through its alternatives on every line with a
// colon of every block, and specificity, the concreteness test and the
// topic count each ask). The key ends at the line's first colon, so the
// text before it is all the scan reads; case folding maps two non-ASCII
// letters to ASCII ones (the long s, the Kelvin sign), so a line with a
// non-ASCII byte before its first colon is left to the pattern.
func isMetadataLine(l string) bool {
	colon := strings.IndexByte(l, ':')
	if colon < 0 {
		return false
	}
	for i := 0; i < colon; i++ {
		if l[i] >= utf8.RuneSelf {
			return metadataLine.MatchString(l)
		}
	}
	i := skipRESpace(l, 0)
	if metadataKeyAt(l, i) {
		return true
	}
	if i < len(l) && (l[i] == '-' || l[i] == '*' || l[i] == '+') {
		if j := skipRESpace(l, i+1); j > i+1 && metadataKeyAt(l, j) {
			return true
		}
	}
	return false
}

// metadataKeyAt reports whether a key, emphasised or not, starts at i and
// is followed by its colon.
func metadataKeyAt(l string, i int) bool {
	return metadataKeyThenColon(l, i) || emphasisAt(l, i) && metadataKeyThenColon(l, i+2)
}

func metadataKeyThenColon(l string, i int) bool {
	for _, kw := range metadataKeys {
		if len(l)-i >= len(kw) && words.EqualLowerASCII(l[i:i+len(kw)], kw) && colonAfterKey(l, i+len(kw)) {
			return true
		}
	}
	return false
}

// colonAfterKey reports whether the key that ends at k is followed, after
// white space, by its colon, or by a closing "**" or "__" and then the
// colon.
func colonAfterKey(l string, k int) bool {
	k = skipRESpace(l, k)
	if k < len(l) && l[k] == ':' {
		return true
	}
	if emphasisAt(l, k) {
		m := skipRESpace(l, k+2)
		return m < len(l) && l[m] == ':'
	}
	return false
}

func emphasisAt(l string, i int) bool {
	return i+2 <= len(l) && (l[i:i+2] == "**" || l[i:i+2] == "__")
}

// skipRESpace skips what the regexp engine's \s matches: tab, newline,
// form feed, carriage return and space.
func skipRESpace(l string, i int) int {
	for i < len(l) && (l[i] == ' ' || l[i] == '\t' || l[i] == '\n' || l[i] == '\f' || l[i] == '\r') {
		i++
	}
	return i
}

// sortedKeys returns the keys of a string set, sorted.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
