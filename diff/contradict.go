package diff

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/internal/words"
)

// ContradictionKind names a detector.
type ContradictionKind string

// The kinds of contradiction the rule-based detector finds.
const (
	// NumericConflict: different values for the same measured subject,
	// unit-aware ("30 s" and "30000 ms" agree; "64 MiB" and "256 MB" do
	// not), ranges compared as intervals.
	NumericConflict ContradictionKind = "numeric"
	// OpposingClaims: the same statement asserted and negated ("must use
	// TLS" / "must not use TLS").
	OpposingClaims ContradictionKind = "opposing-claims"
	// ExclusiveChoice: different technologies of one kind chosen for the
	// same slot ("use PostgreSQL" / "use MongoDB for the same data store").
	ExclusiveChoice ContradictionKind = "exclusive-choice"
	// RequirementConstraint: a requirement that a stated constraint makes
	// impossible ("support 10,000 concurrent users" / "single-threaded
	// architecture required").
	RequirementConstraint ContradictionKind = "requirement-constraint"
	// DependencyCycle: dependencies that form a cycle, an impossible
	// execution order ("A depends on B", "B depends on A").
	DependencyCycle ContradictionKind = "dependency-cycle"
	// FieldConflict: one item's labelled field (a severity, a probability,
	// a verification method) with values on one scale that differ between
	// variants (see [ExtractFields]).
	FieldConflict ContradictionKind = "field"
	// VerdictConflict: reviewers' verdicts on one item that differ
	// (ACCURATE against OVERSTATED, CLOSE against REFUTED).
	VerdictConflict ContradictionKind = "verdict"
	// ChoiceConflict: labelled decisions ("**Choice:** Option A") that
	// pick different options for one question.
	ChoiceConflict ContradictionKind = "choice"
)

// Scope says whether a contradiction lies within one variant or across
// variants; the seed reports the two separately.
type Scope string

// Scopes of a contradiction.
const (
	CrossVariant Scope = "cross-variant"
	IntraVariant Scope = "intra-variant"
)

// Contradiction is a set of claims that cannot all hold.
type Contradiction struct {
	Kind    ContradictionKind `json:"kind"`
	Subject string            `json:"subject"` // the point of conflict, for people
	// Claims are the conflicting claims, in variant and line order: for a
	// cross-variant contradiction, the first claim of each variant that
	// takes a position; for an intra-variant one, the claims that clash.
	Claims []Claim `json:"claims"`
	Impact Rating  `json:"impact"`
	Reason string  `json:"reason"`
	// Key identifies the subject independently of the values, so the same
	// conflict found in two documents has the same Signature.
	Key string `json:"key"`
}

// Scope reports whether the claims come from one variant or several.
func (c Contradiction) Scope() Scope {
	for _, cl := range c.Claims[1:] {
		if cl.Variant != c.Claims[0].Variant {
			return CrossVariant
		}
	}
	return IntraVariant
}

// Signature is a stable string for the conflict — its kind and subject,
// not its values or location — for comparing the contradictions of two
// documents (the merge step's re-scan reports only new ones).
func (c Contradiction) Signature() string { return string(c.Kind) + "|" + c.Key }

// DetectInput is what a [ContradictionDetector] examines.
type DetectInput struct {
	// Documents are the variants, in input order.
	Documents []*Document
	// Claims holds, per document, the claims [ExtractClaims] found.
	Claims [][]Claim
	// Topics is the section alignment of step 1: the sections of the
	// variants that cover one topic. Empty when the caller has none;
	// detectors then compare claims across variants by subject alone.
	Topics []Topic
	// Fields are the labelled fields whose values differ between the
	// variants (see [Analysis.Fields]); the rule detector reports those
	// itself, and a model detector is shown them so it need not.
	Fields []FieldDisagreement
}

// ContradictionDetector finds contradictions within and across variants.
// Implementations must be safe for concurrent use. The default is
// [RuleDetector]; [ModelDetector] asks a model.
type ContradictionDetector interface {
	Detect(ctx context.Context, in DetectInput) ([]Contradiction, error)
}

// NewDetectInput extracts the claims of each document. Documents are
// independent, so their claims are extracted in parallel, at most one
// goroutine per CPU; all of them have finished when it returns.
func NewDetectInput(docs ...*Document) DetectInput {
	in := DetectInput{Documents: docs, Claims: make([][]Claim, len(docs))}
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, d := range docs {
		g.Go(func() error {
			in.Claims[i] = ExtractClaims(d, i)
			return nil
		})
	}
	_ = g.Wait() // the extractions cannot fail
	return in
}

// RuleDetector is the deterministic contradiction detector: numeric
// conflicts, opposing claims, exclusive choices, requirement–constraint
// conflicts and dependency cycles, each within and across variants.
// Claims are indexed by subject, never compared all against all, so the
// cost grows with the number of claims, not its square. The zero value is
// ready to use.
type RuleDetector struct{}

var _ ContradictionDetector = RuleDetector{}

// Detect implements [ContradictionDetector]. The result is sorted:
// cross-variant contradictions first, then intra-variant ones; within each,
// by kind and then by the position of the first claim.
func (RuleDetector) Detect(ctx context.Context, in DetectInput) ([]Contradiction, error) {
	var all []Contradiction
	for _, detect := range []func(DetectInput) []Contradiction{
		detectNumeric, detectOpposing, detectChoices, detectRequirementConstraint, detectCycles, detectPlacement,
	} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		all = append(all, detect(in)...)
	}
	// Minimal pairs are the catch-all for choices the other rules cannot
	// name; a pair another rule already reports adds nothing.
	covered := newCoverage(all)
	for _, c := range detectMinimalPairs(in) {
		if !covered.by(c) {
			all = append(all, c)
		}
	}
	SortContradictions(all)
	return all, nil
}

// coverage indexes contradictions by the statements they cite.
type coverage map[[2]int][]int // variant and line → indexes of the contradictions citing it

func newCoverage(cs []Contradiction) coverage {
	idx := coverage{}
	for i, c := range cs {
		for _, cl := range c.Claims {
			k := [2]int{cl.Variant, cl.Line}
			if l := idx[k]; len(l) == 0 || l[len(l)-1] != i {
				idx[k] = append(l, i)
			}
		}
	}
	return idx
}

// by reports whether one indexed contradiction cites every statement c
// cites.
func (idx coverage) by(c Contradiction) bool {
	if len(c.Claims) == 0 {
		return false
	}
	candidates := idx[[2]int{c.Claims[0].Variant, c.Claims[0].Line}]
	for _, i := range candidates {
		all := true
		for _, cl := range c.Claims[1:] {
			all = all && slices.Contains(idx[[2]int{cl.Variant, cl.Line}], i)
		}
		if all {
			return true
		}
	}
	return false
}

// SortContradictions orders contradictions as [RuleDetector.Detect] does.
func SortContradictions(cs []Contradiction) {
	kindOrder := map[ContradictionKind]int{NumericConflict: 0, OpposingClaims: 1, ExclusiveChoice: 2, RequirementConstraint: 3, DependencyCycle: 4}
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if sa, sb := a.Scope(), b.Scope(); sa != sb {
			return sa == CrossVariant
		}
		if a.Kind != b.Kind {
			return kindOrder[a.Kind] < kindOrder[b.Kind]
		}
		ca, cb := a.Claims[0], b.Claims[0]
		if ca.Variant != cb.Variant {
			return ca.Variant < cb.Variant
		}
		if ca.Line != cb.Line {
			return ca.Line < cb.Line
		}
		return a.Key < b.Key
	})
}

// DetectContradictions runs the [RuleDetector] over docs.
func DetectContradictions(ctx context.Context, docs ...*Document) ([]Contradiction, error) {
	return RuleDetector{}.Detect(ctx, NewDetectInput(docs...))
}

// ---- clustering by subject ----

// keyed is something with a set of subject words, to be clustered with
// others whose words overlap enough.
type keyed struct {
	group string   // only items of one group cluster together (a dimension, a category)
	words []string // sorted, distinct
}

// cluster assigns each item a cluster id: items of one group whose word
// sets have a Dice coefficient of at least minDice end up together
// (transitively). Candidates are found through "drop one word" signatures,
// so only items that share all but at most one word on each side are ever
// compared — linear in the number of items, and exactly the pairs that
// can reach a Dice of 0.75 for the short subjects detectors build.
func cluster(items []keyed, minDice float64) []int {
	// Identical word sets always belong together: cluster the distinct
	// sets, then map the items back.
	uniq := map[string]int{}
	var keys []keyed
	itemKey := make([]int, len(items))
	for i, it := range items {
		k := it.group + "|" + strings.Join(it.words, " ")
		u, ok := uniq[k]
		if !ok {
			u = len(keys)
			uniq[k] = u
			keys = append(keys, it)
		}
		itemKey[i] = u
	}
	parent := make([]int, len(keys))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	bySig := map[string][]int{}
	for i, k := range keys {
		for _, sig := range dropOne(k) {
			bySig[sig] = append(bySig[sig], i)
		}
	}
	sigs := make([]string, 0, len(bySig))
	for s := range bySig {
		sigs = append(sigs, s)
	}
	sort.Strings(sigs)
	for _, s := range sigs {
		members := bySig[s]
		for x, i := range members {
			for _, j := range members[x+1:] {
				if find(i) != find(j) && dice(keys[i].words, keys[j].words) >= minDice {
					parent[find(j)] = find(i)
				}
			}
		}
	}
	ids := make([]int, len(items))
	for i := range items {
		ids[i] = find(itemKey[i])
	}
	return ids
}

// dropOne returns the signatures under which a key meets its candidates:
// its whole word set, and the set without each one word in turn. Two sets
// of equal size that differ in one word share a "without" signature; a set
// and its superset by one word share the smaller set's whole signature.
func dropOne(it keyed) []string {
	sigs := []string{it.group + "|" + strings.Join(it.words, " ")}
	if len(it.words) >= 2 {
		for i := range it.words {
			sigs = append(sigs, it.group+"|"+strings.Join(slices.Concat(it.words[:i], it.words[i+1:]), " "))
		}
	}
	return sigs
}

// dice is the Dice coefficient of two sorted word sets.
func dice(a, b []string) float64 { return words.Set(a).Dice(words.Set(b)) }

// groupClusters returns, per cluster id, the item indexes in order.
func groupClusters(ids []int) [][]int {
	byID := map[int][]int{}
	var order []int
	for i, id := range ids {
		if _, ok := byID[id]; !ok {
			order = append(order, id)
		}
		byID[id] = append(byID[id], i)
	}
	out := make([][]int, len(order))
	for i, id := range order {
		out[i] = byID[id]
	}
	return out
}

// ---- numeric conflicts ----

type qref struct {
	claim *Claim
	q     *Quantity
	ids   []string // item identifiers the claim names ("T03.04", "NR-6"), sorted
}

// detectNumeric compares the quantities stated for one subject. Values
// compare only where they speak of the same thing: across variants, inside
// sections the alignment puts in one topic, or anywhere when the subject
// is the same three or more words; within a variant, as sameSubjectWithin
// says; and the durations of one phase (itemDurations). Without an
// alignment (DetectInput.Topics empty) any two sections may compare.
func detectNumeric(in DetectInput) []Contradiction {
	var refs []qref
	var across, within []keyed
	place := newTopicIndex(in)
	for v := range in.Claims {
		for ci := range in.Claims[v] {
			c := &in.Claims[v][ci]
			if len(c.Quantities) == 0 {
				continue
			}
			where := place.of(v, c.Section)
			for qi := range c.Quantities {
				q := &c.Quantities[qi]
				refs = append(refs, qref{c, q, subjectIDs(c.Quote, q.Text)})
				across = append(across, keyed{group: q.Dim + "|" + where, words: q.Subject})
				within = append(within, keyed{group: q.Dim + "|v" + strconv.Itoa(v), words: q.Subject})
			}
		}
	}
	var cross []Contradiction
	for _, members := range groupClusters(cluster(across, 0.75)) {
		if c, ok := crossNumeric(refs, members); ok {
			cross = append(cross, c)
		}
	}
	// A subject named by the same three or more words ("p99 ingest
	// latency") is one thing wherever the variants file it.
	bySubject := map[string][]int{}
	var subjects []string
	for i, r := range refs {
		if len(r.q.Subject) < 3 {
			continue
		}
		k := r.q.Dim + "|" + strings.Join(r.q.Subject, " ")
		if _, ok := bySubject[k]; !ok {
			subjects = append(subjects, k)
		}
		bySubject[k] = append(bySubject[k], i)
	}
	for _, k := range subjects {
		if c, ok := crossNumeric(refs, bySubject[k]); ok {
			cross = append(cross, c)
		}
	}
	out := mergeRepeated(cross)
	for _, members := range groupClusters(cluster(within, 0.75)) {
		if c, ok := intraNumeric(in, refs, members); ok {
			out = append(out, c)
		}
	}
	return append(out, itemDurations(in, refs)...)
}

// durationWords name a duration in a label or a column header.
var durationWords = wordSet("duration", "estimate", "estim", "effort", "time", "timeline", "timelin", "length")

// itemDurations compares the durations variants give one item of a series
// ("Phase 3"), wherever each states it: a phase section's "**Duration**:
// 5-7 days" against a timeline table's row "| 3 | … | 1.5-2 days |". Plans
// of one artifact that number their phases alike estimate the same work;
// two estimates that cannot both hold are a contradiction.
func itemDurations(in DetectInput, refs []qref) []Contradiction {
	first := map[string]map[int]qref{} // item → variant → first duration stated for it
	var items []string
	for _, r := range refs {
		dim, _, _ := strings.Cut(r.q.Dim, "@")
		if dim != "duration" || r.q.Approx || r.q.Bound != Exact || !anyWord(r.q.Subject, durationWords) {
			continue
		}
		item := r.q.Item
		if item == "" {
			item = sectionSeriesItem(in.Documents[r.claim.Variant], r.claim.Section)
		}
		if item == "" {
			continue
		}
		if first[item] == nil {
			first[item] = map[int]qref{}
			items = append(items, item)
		}
		if _, ok := first[item][r.claim.Variant]; !ok {
			q := *r.q
			q.Dim = dim
			first[item][r.claim.Variant] = qref{claim: r.claim, q: &q, ids: r.ids}
		}
	}
	var out []Contradiction
	for _, item := range items {
		byVariant := first[item]
		if len(byVariant) < 2 {
			continue
		}
		// Numbering shifts between plans ("same phase number, different
		// work"): the items must also share a word of their names.
		var rs []qref
		var name0 words.Set
		for _, v := range sortedKeys(byVariant) {
			r := byVariant[v]
			name := words.Set(subjectWords(seriesItemName(in.Documents[v], r)))
			if len(rs) == 0 {
				name0 = sortedSet(name)
			} else if words.Set(name0).Intersect(sortedSet(name)) == 0 {
				continue
			}
			rs = append(rs, r)
		}
		if len(rs) < 2 {
			continue
		}
		if c, ok := numericContradiction(rs); ok {
			c.Subject = "duration of " + strings.ToLower(item[:1]) + strings.ToLower(item[1:])
			c.Key = "duration:" + item
			out = append(out, c)
		}
	}
	return out
}

// seriesItemName returns the words that name a value's series item: a
// table row's text, or the heading of the section that names the item.
func seriesItemName(d *Document, r qref) string {
	if r.q.Item != "" {
		return r.claim.Text
	}
	items := headingSeriesItems(d)
	for s := r.claim.Section; s >= 0 && s < len(d.Sections); s = d.Sections[s].Parent {
		if items[s] != "" {
			return d.Sections[s].Title
		}
	}
	return ""
}

// sectionSeriesItem returns the series item ("PHASE 3") of the nearest
// section holding si whose heading names one.
func sectionSeriesItem(d *Document, si int) string {
	items := headingSeriesItems(d)
	for s := si; s >= 0 && s < len(d.Sections); s = d.Sections[s].Parent {
		if items[s] != "" {
			return items[s]
		}
	}
	return ""
}

// mergeRepeated folds the cross-variant conflicts over one subject found
// in several topics into the first: a document that repeats "the retry
// timeout is 60 s" in five sections has one conflict with the variant that
// says 20 s, stated in five places, not five conflicts. The first
// conflict's claims come first; the others' claims follow, each once.
func mergeRepeated(cs []Contradiction) []Contradiction {
	at := map[string]int{}
	var out []Contradiction
	places := map[string]int{}
	for _, c := range cs {
		i, ok := at[c.Key]
		if !ok {
			at[c.Key] = len(out)
			out = append(out, c)
			continue
		}
		added := false
		for _, cl := range c.Claims {
			if !slices.ContainsFunc(out[i].Claims, func(o Claim) bool { return o.Variant == cl.Variant && o.Line == cl.Line }) {
				out[i].Claims = append(out[i].Claims, cl)
				added = true
			}
		}
		if added {
			places[c.Key]++
		}
		out[i].Impact = maxRating(out[i].Impact, c.Impact)
	}
	for i, c := range out {
		if n := places[c.Key]; n > 0 {
			sortClaims(out[i].Claims)
			out[i].Reason += fmt.Sprintf("; the same subject conflicts in %d more place%s", n, plural(n))
		}
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// crossNumeric compares the first value each variant gives for one subject
// in one place, and reports a contradiction when variants disagree.
func crossNumeric(refs []qref, members []int) (Contradiction, bool) {
	var firsts []qref
	seen := map[int]bool{}
	for _, m := range members {
		if r := refs[m]; !seen[r.claim.Variant] {
			seen[r.claim.Variant] = true
			firsts = append(firsts, r)
		}
	}
	if len(firsts) < 2 {
		return Contradiction{}, false
	}
	slices.SortStableFunc(firsts, func(a, b qref) int { return cmp.Compare(a.claim.Variant, b.claim.Variant) })
	return numericContradiction(firsts)
}

// intraNumeric reports the first pair of values one variant gives for one
// subject that clash (see sameSubjectWithin for what counts as one
// subject).
func intraNumeric(in DetectInput, refs []qref, members []int) (Contradiction, bool) {
	for x, i := range members {
		for _, j := range members[x+1:] {
			a, b := refs[i], refs[j]
			if a.claim == b.claim || !sameSubjectWithin(in.Documents[a.claim.Variant], a, b) {
				continue
			}
			if c, ok := numericContradiction([]qref{a, b}); ok {
				return c, true
			}
		}
	}
	return Contradiction{}, false
}

// numericContradiction reports whether any two of rs conflict and, if so,
// builds the contradiction over all of rs.
func numericContradiction(rs []qref) (Contradiction, bool) {
	worst, kind := -1.0, NumericConflict
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			if differentItems(rs[i].ids, rs[j].ids) {
				continue
			}
			conflict, rel, reqCon := quantitiesConflict(*rs[i].q, *rs[j].q)
			if !conflict {
				continue
			}
			worst = math.Max(worst, rel)
			if reqCon {
				kind = RequirementConstraint
			}
		}
	}
	if worst < 0 {
		return Contradiction{}, false
	}
	q0 := rs[0].q
	c := Contradiction{Kind: kind, Subject: subjectLabel(rs[0]), Key: q0.Dim + ":" + strings.Join(q0.Subject, " ")}
	var vals []string
	for _, r := range rs {
		c.Claims = append(c.Claims, *r.claim)
		if !slices.Contains(vals, r.q.Text) {
			vals = append(vals, r.q.Text)
		}
	}
	switch {
	case kind == RequirementConstraint:
		c.Impact = High
		c.Reason = fmt.Sprintf("a required minimum exceeds a stated maximum (%s)", strings.Join(vals, " vs "))
	case worst < 0.2:
		c.Impact = Low
		c.Reason = fmt.Sprintf("values differ by %.0f%% (%s)", worst*100, strings.Join(vals, " vs "))
	default:
		c.Impact = Medium
		c.Reason = fmt.Sprintf("values differ by %.0f%% (%s); affects design decisions", worst*100, strings.Join(vals, " vs "))
	}
	return c, true
}

// sameSubjectWithin reports whether two values one variant gives can be
// about the same thing. In one section they can. In two sections only when
// the subjects are the same words (at least two of them) and the sections
// are not parallel items ("Phase 1" and "Phase 3" each have a duration),
// or when both statements name the same item.
func sameSubjectWithin(d *Document, a, b qref) bool {
	if a.claim.Section == b.claim.Section {
		return true
	}
	if len(a.ids) > 0 && len(b.ids) > 0 {
		return !differentItems(a.ids, b.ids)
	}
	if len(a.q.Subject) < 2 || !slices.Equal(a.q.Subject, b.q.Subject) {
		return false
	}
	return !parallelItems(d, a.claim.Section, b.claim.Section)
}

// parallelItems reports whether two sections are items of one series: both
// headings carry an item number or id, and not the same one.
func parallelItems(d *Document, s1, s2 int) bool {
	if s1 < 0 || s2 < 0 || s1 >= len(d.Sections) || s2 >= len(d.Sections) {
		return false
	}
	items := headingItems(d)
	k1, k2 := items[s1], items[s2]
	return k1 != "" && k2 != "" && k1 != k2
}

type headingItemsKey struct{}

// headingItems returns headingItem of every section's title, computed once
// per document.
func headingItems(d *Document) []string {
	return d.Memo(headingItemsKey{}, func() any {
		out := make([]string, len(d.Sections))
		for i, s := range d.Sections {
			out[i] = headingItem(s.Title)
		}
		return out
	}).([]string)
}

// headingItem returns the first token of a heading that holds a digit:
// "3" of "Phase 3: Certification", "2.1" of "Delta 2.1 — …", "NR-6".
func headingItem(title string) string {
	for _, f := range strings.Fields(title) {
		f = strings.Trim(f, ".:,;()*`—–-")
		if containsDigit(f) {
			return strings.ToUpper(f)
		}
	}
	return ""
}

// statementLabel matches the id that labels a statement rather than
// naming its subject: "NOTIF-04:" in "NOTIF-04: The system must …".
var statementLabel = regexp.MustCompile(`^[\s>*_\-+\d.)]*[A-Za-z][A-Za-z0-9]*[-_.]?\d[\w.-]*[*_]*\s*:`)

// subjectIDs returns the item ids named before a value in its statement,
// leaving out an id that labels the whole statement: those are what the
// value is about ("Task T03.04 costs 8 turns").
func subjectIDs(quote, value string) []string {
	if loc := statementLabel.FindStringIndex(quote); loc != nil {
		quote = quote[loc[1]:]
	}
	if i := strings.Index(quote, value); i > 0 {
		quote = quote[:i]
	}
	return itemIDs(quote)
}

// differentItems reports whether two statements name items and share
// none: "Task T03.04 costs 8 turns" and "Task T03.06 costs 6 turns" speak
// of two tasks.
func differentItems(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); ok {
			return false
		}
	}
	return true
}

// itemIDs returns the item identifiers a sentence names: tokens that mix
// letters and digits with a separator or a leading capital ("T03.04",
// "NR-6", "R-005", "OV-1", "S3") and dotted section numbers ("2.1").
func itemIDs(text string) []string {
	var ids []string
	for _, f := range codeSpans(text) {
		if isCodeIdentifier(f) {
			ids = append(ids, f)
		}
	}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == ',' || r == ';' || r == '(' || r == ')' || r == '`' || r == '*' || r == '|' || r == ':' || r == '"' || r == '\''
	}) {
		f = strings.TrimRight(f, ".")
		if isItemID(f) {
			ids = append(ids, strings.ToUpper(f))
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// codeSpans returns the text between pairs of backticks.
func codeSpans(text string) []string {
	var out []string
	for {
		i := strings.IndexByte(text, '`')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(text[i+1:], '`')
		if j < 0 {
			return out
		}
		out = append(out, text[i+1:i+1+j])
		text = text[i+j+2:]
	}
}

// isCodeIdentifier reports whether a code span names a program element:
// "PhaseStatus", "TaskStatus", "max_turns", "stall_status" — one word with
// a capital inside it or an underscore; a file path or an expression is not
// one.
func isCodeIdentifier(f string) bool {
	if len(f) < 3 || len(f) > 64 {
		return false
	}
	inner := false
	for i := 0; i < len(f); i++ {
		c := f[i]
		if !isWordByte(c) {
			return false
		}
		if c == '_' || i > 0 && c >= 'A' && c <= 'Z' {
			inner = true
		}
	}
	return inner
}

func isItemID(f string) bool {
	if len(f) < 2 || len(f) > 16 {
		return false
	}
	digits, letters, seps := 0, 0, 0
	for i := 0; i < len(f); i++ {
		switch c := f[i]; {
		case isDigit(c):
			digits++
		case isLetterByte(c):
			letters++
		case c == '-' || c == '.' || c == '_':
			seps++
		default:
			return false
		}
	}
	if digits == 0 {
		return false
	}
	switch {
	case letters == 0: // "2.1", but not "30" or "5-7"
		return seps > 0 && strings.Count(f, ".") == seps && !strings.HasSuffix(f, ".")
	case f[0] >= 'A' && f[0] <= 'Z' && isDigit(f[len(f)-1]): // "T03.04", "NR-6", "S3", "P1"
		return letters <= 4
	}
	return false
}

// topicIndex places a section in the alignment: the topic of the section
// or of its nearest aligned ancestor, below the document title.
type topicIndex struct {
	docs    []*Document
	byPlace []map[int]int // variant → section → topic
}

func newTopicIndex(in DetectInput) topicIndex {
	ti := topicIndex{docs: in.Documents}
	if len(in.Topics) == 0 {
		return ti
	}
	for _, d := range in.Documents {
		if len(d.Sections) == 0 {
			return ti // a variant without headings has no places to align: compare by subject alone
		}
	}
	ti.byPlace = make([]map[int]int, len(in.Documents))
	for v := range ti.byPlace {
		ti.byPlace[v] = map[int]int{}
	}
	for t, tp := range in.Topics {
		for v, si := range tp.Sections {
			if si >= 0 && v < len(ti.byPlace) {
				ti.byPlace[v][si] = t
			}
		}
	}
	return ti
}

// of returns the key of the place that holds a section: its own topic,
// else the topic of its nearest aligned ancestor below the title, else the
// section itself, so that its values compare within the variant alone.
func (ti topicIndex) of(v, si int) string {
	if ti.byPlace == nil {
		return ""
	}
	d := ti.docs[v]
	if t, ok := ti.byPlace[v][si]; ok && si >= 0 {
		return "t" + strconv.Itoa(t) // the section itself, the preamble under the title included
	}
	for s := si; s >= 0 && s < len(d.Sections) && d.Sections[s].Depth > 0; s = d.Sections[s].Parent {
		if t, ok := ti.byPlace[v][s]; ok {
			return "t" + strconv.Itoa(t)
		}
	}
	return "v" + strconv.Itoa(v) + "s" + strconv.Itoa(si)
}

func subjectLabel(r qref) string {
	if r.q.Phrase != "" {
		return r.q.Phrase
	}
	return strings.Join(r.q.Subject, " ")
}

// quantitiesConflict compares two quantities of one subject. It returns
// whether they conflict, their relative difference, and whether the
// conflict is a minimum against a maximum (a requirement–constraint
// conflict). Qualifiers must agree: "200 ms at the 95th percentile" and
// "100 ms at the 99th percentile" measure different things.
func quantitiesConflict(a, b Quantity) (bool, float64, bool) {
	if a.Dim != b.Dim || a.Approx || b.Approx {
		return false, 0, false
	}
	const tol = 0.01
	lo := func(q Quantity) float64 {
		if q.Bound == AtMost {
			return math.Inf(-1)
		}
		return q.Lo
	}
	hi := func(q Quantity) float64 {
		if q.Bound == AtLeast {
			return math.Inf(1)
		}
		return q.Hi
	}
	rel := relDiff((a.Lo+a.Hi)/2, (b.Lo+b.Hi)/2)
	if a.Bound != Exact && a.Bound == b.Bound {
		// two different limits on one subject
		return rel > tol, rel, false
	}
	disjoint := lo(a) > hi(b)*(1+tol) || lo(b) > hi(a)*(1+tol)
	if !disjoint {
		return false, 0, false
	}
	reqCon := (a.Bound == AtLeast && b.Bound == AtMost) || (a.Bound == AtMost && b.Bound == AtLeast)
	return true, rel, reqCon
}

func relDiff(x, y float64) float64 {
	m := math.Max(math.Abs(x), math.Abs(y))
	if m == 0 {
		return 0
	}
	return math.Abs(x-y) / m
}

// ---- opposing claims ----

func detectOpposing(in DetectInput) []Contradiction {
	place := newTopicIndex(in)
	var refs []*Claim
	var items []keyed
	for v := range in.Claims {
		for ci := range in.Claims[v] {
			c := &in.Claims[v][ci]
			// A table cell is a value, not a statement: "No (final step)"
			// in a column denies nothing said elsewhere.
			if len(c.sig) == 0 || c.Type == Dependency || in.Documents[v].Blocks[c.Block].Kind == TableRow {
				continue
			}
			refs = append(refs, c)
			items = append(items, keyed{group: place.of(v, c.Section), words: c.sig})
		}
	}
	var out []Contradiction
	for _, members := range groupClusters(cluster(items, 0.8)) {
		var pos, neg []*Claim
		for _, m := range members {
			if refs[m].Negated {
				neg = append(neg, refs[m])
			} else {
				pos = append(pos, refs[m])
			}
		}
		if len(pos) == 0 || len(neg) == 0 {
			continue
		}
		out = append(out, polarityContradictions(pos, neg)...)
	}
	return out
}

func polarityContradictions(pos, neg []*Claim) []Contradiction {
	key := strings.Join(pos[0].sig, " ")
	build := func(claims []*Claim) Contradiction {
		c := Contradiction{Kind: OpposingClaims, Subject: "whether " + lowerFirst(strings.TrimRight(pos[0].Text, ".")), Key: key}
		strong := false
		for _, cl := range claims {
			c.Claims = append(c.Claims, *cl)
			if cl.Type == Requirement || cl.Type == Constraint {
				strong = true
			}
		}
		sortClaims(c.Claims)
		if strong {
			c.Impact, c.Reason = High, "one statement requires what the other forbids"
		} else {
			c.Impact, c.Reason = Medium, "the statements assert and deny the same fact"
		}
		return c
	}
	var out []Contradiction
	// Across variants: the first statement of each variant, when some
	// variants assert and others deny.
	firstPos, firstNeg := firstPerVariant(pos), firstPerVariant(neg)
	var cross []*Claim
	for _, v := range sortedKeys(union(firstPos, firstNeg)) {
		switch {
		case firstPos[v] != nil && firstNeg[v] != nil:
			cross = append(cross, firstOf(firstPos[v], firstNeg[v]))
		case firstPos[v] != nil:
			cross = append(cross, firstPos[v])
		default:
			cross = append(cross, firstNeg[v])
		}
	}
	if mixedPolarity(cross) && len(variantsOf(cross)) > 1 {
		out = append(out, build(cross))
	}
	// Within a variant that says both.
	for _, v := range sortedKeys(firstPos) {
		if n := firstNeg[v]; n != nil {
			out = append(out, build([]*Claim{firstPos[v], n}))
		}
	}
	return out
}

func firstPerVariant(cs []*Claim) map[int]*Claim {
	m := map[int]*Claim{}
	for _, c := range cs {
		if m[c.Variant] == nil {
			m[c.Variant] = c
		}
	}
	return m
}

func union(a, b map[int]*Claim) map[int]bool {
	u := map[int]bool{}
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

func firstOf(a, b *Claim) *Claim {
	if b.Line < a.Line {
		return b
	}
	return a
}

func mixedPolarity(cs []*Claim) bool {
	p, n := false, false
	for _, c := range cs {
		if c.Negated {
			n = true
		} else {
			p = true
		}
	}
	return p && n
}

func variantsOf(cs []*Claim) map[int]bool {
	m := map[int]bool{}
	for _, c := range cs {
		m[c.Variant] = true
	}
	return m
}

func sortClaims(cs []Claim) {
	slices.SortStableFunc(cs, func(a, b Claim) int {
		return cmp.Or(cmp.Compare(a.Variant, b.Variant), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Text, b.Text))
	})
}

func lowerFirst(s string) string {
	if s == "" || (len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z') {
		return s // an acronym stays as it is
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// ---- exclusive choices ----

func detectChoices(in DetectInput) []Contradiction {
	var refs []*Claim
	var items []keyed
	for v := range in.Claims {
		for ci := range in.Claims[v] {
			c := &in.Claims[v][ci]
			if c.Choice == nil {
				continue
			}
			refs = append(refs, c)
			items = append(items, keyed{group: string(c.Choice.Category), words: c.Choice.Slot})
		}
	}
	ids := clusterSlots(items)
	var out []Contradiction
	for _, members := range groupClusters(ids) {
		techs := map[string]bool{}
		var claims []*Claim
		for _, m := range members {
			techs[refs[m].Choice.Tech] = true
			claims = append(claims, refs[m])
		}
		if len(techs) < 2 {
			continue
		}
		out = append(out, choiceContradictions(claims)...)
	}
	return out
}

// clusterSlots groups choices of one category whose slots overlap by at
// least 0.6 — or are both unstated. There are few distinct slots per
// category, so they are compared pairwise.
func clusterSlots(items []keyed) []int {
	ids := make([]int, len(items))
	for i := range items {
		ids[i] = i
		for j := range i {
			if items[j].group != items[i].group {
				continue
			}
			a, b := items[i].words, items[j].words
			if (len(a) == 0 && len(b) == 0) || (len(a) > 0 && len(b) > 0 && dice(a, b) >= 0.6) {
				ids[i] = ids[j]
				break
			}
		}
	}
	return ids
}

func choiceContradictions(claims []*Claim) []Contradiction {
	slot := string(claims[0].Choice.Category)
	if p := claims[0].Choice.Phrase; p != "" {
		slot = p
	}
	key := string(claims[0].Choice.Category) + ":" + strings.Join(claims[0].Choice.Slot, " ")
	build := func(cs []*Claim) Contradiction {
		c := Contradiction{Kind: ExclusiveChoice, Subject: "choice of " + slot, Key: key, Impact: High}
		var names []string
		for _, cl := range cs {
			c.Claims = append(c.Claims, *cl)
			if !slices.Contains(names, cl.Choice.Tech) {
				names = append(names, cl.Choice.Tech)
			}
		}
		sortClaims(c.Claims)
		c.Reason = fmt.Sprintf("%s are exclusive choices for one %s", strings.Join(names, " and "), claims[0].Choice.Category)
		return c
	}
	var out []Contradiction
	first := firstPerVariant(claims)
	var cross []*Claim
	techs := map[string]bool{}
	for _, v := range sortedKeys(first) {
		cross = append(cross, first[v])
		techs[first[v].Choice.Tech] = true
	}
	if len(techs) > 1 {
		out = append(out, build(cross))
	}
	byVariant := map[int][]*Claim{}
	for _, c := range claims {
		byVariant[c.Variant] = append(byVariant[c.Variant], c)
	}
	for _, v := range sortedKeys(first) {
		cs := byVariant[v]
		for _, c := range cs[1:] {
			if c.Choice.Tech != cs[0].Choice.Tech {
				out = append(out, build([]*Claim{cs[0], c}))
				break
			}
		}
	}
	return out
}

func sortedKeys[V any](m map[int]V) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// ---- requirement–constraint conflicts ----

// incompatible lists properties a requirement can ask for (need) that a
// constraint can rule out (rule). Matching is on lower-cased substrings of
// claims that are requirements or constraints and not negated.
var incompatible = []struct {
	name       string
	need, rule []string
}{
	{"concurrency vs a single-threaded design",
		[]string{"concurrent", "in parallel", "parallelism", "horizontal scal", "scale out", "scales out", "multi-threaded", "multithreaded"},
		[]string{"single-threaded", "single threaded", "single thread", "sequential processing", "one request at a time"}},
	{"high availability vs a single instance",
		[]string{"high availability", "highly available", "failover", "zero downtime", "multi-region", "redundant"},
		[]string{"single instance", "single server", "single node", "one server", "one instance"}},
	{"offline operation vs network services",
		[]string{"offline", "air-gapped", "air gapped", "no network access", "without network access"},
		[]string{"cloud-hosted", "saas", "external api", "third-party api", "internet access"}},
	{"real-time processing vs batch processing",
		[]string{"real-time", "realtime", "real time", "sub-second"},
		[]string{"nightly batch", "batch job", "daily batch", "once a day", "nightly job"}},
	{"statelessness vs local session state",
		[]string{"stateless"},
		[]string{"sticky session", "in-memory session", "local session state", "server-side session"}},
	{"encryption vs plaintext storage",
		[]string{"encrypted at rest", "encrypt all", "encrypt data", "must be encrypted", "encryption at rest"},
		[]string{"plaintext", "plain text", "unencrypted"}},
	{"no downtime vs planned downtime",
		[]string{"zero downtime", "no downtime", "zero-downtime"},
		[]string{"maintenance window", "scheduled downtime", "planned downtime"}},
}

func detectRequirementConstraint(in DetectInput) []Contradiction {
	var out []Contradiction
	for pi, pair := range incompatible {
		var needs, rules []*Claim
		for v := range in.Claims {
			for ci := range in.Claims[v] {
				c := &in.Claims[v][ci]
				if c.Negated || (c.Type != Requirement && c.Type != Constraint) {
					continue
				}
				n, r := containsAny(c.lower, pair.need), containsAny(c.lower, pair.rule)
				switch {
				case n && !r:
					needs = append(needs, c)
				case r && !n:
					rules = append(rules, c)
				}
			}
		}
		if len(needs) == 0 || len(rules) == 0 {
			continue
		}
		build := func(cs []*Claim) Contradiction {
			c := Contradiction{Kind: RequirementConstraint, Subject: pair.name, Key: fmt.Sprintf("pair%d", pi), Impact: High,
				Reason: "satisfying the requirement violates the constraint"}
			for _, cl := range cs {
				c.Claims = append(c.Claims, *cl)
			}
			sortClaims(c.Claims)
			return c
		}
		firstNeed, firstRule := firstPerVariant(needs), firstPerVariant(rules)
		// Across variants: some variant needs the property and another
		// rules it out — unless both say both, which their own
		// intra-variant contradictions already report. The contradiction
		// lists every variant's first statement of each side, so it does
		// not depend on the order of the variants.
		crossing := false
		for _, v := range sortedKeys(firstNeed) {
			for _, w := range sortedKeys(firstRule) {
				if w != v && (firstRule[v] == nil || firstNeed[w] == nil) {
					crossing = true
				}
			}
		}
		if crossing {
			var cs []*Claim
			for _, v := range sortedKeys(union(firstNeed, firstRule)) {
				for _, c := range []*Claim{firstNeed[v], firstRule[v]} {
					if c != nil {
						cs = append(cs, c)
					}
				}
			}
			out = append(out, build(cs))
		}
		for _, v := range sortedKeys(firstNeed) {
			if r := firstRule[v]; r != nil {
				out = append(out, build([]*Claim{firstNeed[v], r}))
			}
		}
	}
	return out
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// ---- dependency cycles ----

type edgeRef struct {
	to    string
	claim *Claim
}

type depGraph map[string][]edgeRef

func (g depGraph) add(e Edge, c *Claim) {
	for _, r := range g[e.From] {
		if r.to == e.To {
			return
		}
	}
	g[e.From] = append(g[e.From], edgeRef{e.To, c})
}

func detectCycles(in DetectInput) []Contradiction {
	var out []Contradiction
	whole := depGraph{}
	perVariant := make([]depGraph, len(in.Claims))
	for v := range in.Claims {
		perVariant[v] = depGraph{}
		for ci := range in.Claims[v] {
			c := &in.Claims[v][ci]
			for _, e := range c.Edges {
				perVariant[v].add(e, c)
				whole.add(e, c)
			}
		}
	}
	for _, g := range perVariant {
		for _, cyc := range g.cycles() {
			out = append(out, cycleContradiction(cyc))
		}
	}
	for _, cyc := range whole.cycles() {
		if oneVariant(cyc) {
			continue // already reported within that variant
		}
		out = append(out, cycleContradiction(cyc))
	}
	return out
}

// oneVariant reports whether every edge of the cycle could come from a
// single variant's own statements.
func oneVariant(cyc []cycleEdge) bool {
	v := cyc[0].claim.Variant
	for _, e := range cyc[1:] {
		if e.claim.Variant != v {
			return false
		}
	}
	return true
}

type cycleEdge struct {
	from, to string
	claim    *Claim
}

func cycleKey(cyc []cycleEdge) string {
	names := make([]string, len(cyc))
	for i, e := range cyc {
		names[i] = e.from
	}
	slices.Sort(names)
	return strings.Join(names, "|")
}

func cycleContradiction(cyc []cycleEdge) Contradiction {
	path := make([]string, 0, len(cyc)+1)
	for _, e := range cyc {
		path = append(path, e.from)
	}
	path = append(path, cyc[0].from)
	c := Contradiction{Kind: DependencyCycle, Subject: "dependency cycle " + strings.Join(path, " → "), Key: cycleKey(cyc),
		Impact: High, Reason: "the stated dependencies form a cycle, so no execution order satisfies them"}
	for _, e := range cyc {
		c.Claims = append(c.Claims, *e.claim)
	}
	sortClaims(c.Claims)
	return c
}

// cycles returns one cycle per strongly connected component that has one,
// starting from the component's smallest node, so the result does not
// depend on map order.
func (g depGraph) cycles() [][]cycleEdge {
	nodes := make([]string, 0, len(g))
	for n := range g {
		nodes = append(nodes, n)
	}
	slices.Sort(nodes)
	for _, n := range nodes {
		slices.SortFunc(g[n], func(a, b edgeRef) int { return strings.Compare(a.to, b.to) })
	}
	// Tarjan's algorithm, iterative over the sorted nodes.
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var comps [][]string
	next := 0
	var strong func(string)
	strong = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, e := range g[v] {
			if _, ok := index[e.to]; !ok {
				strong(e.to)
				low[v] = min(low[v], low[e.to])
			} else if onStack[e.to] {
				low[v] = min(low[v], index[e.to])
			}
		}
		if low[v] == index[v] {
			var comp []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 {
				slices.Sort(comp)
				comps = append(comps, comp)
			}
		}
	}
	for _, n := range nodes {
		if _, ok := index[n]; !ok {
			strong(n)
		}
	}
	var out [][]cycleEdge
	for _, comp := range comps {
		in := map[string]bool{}
		for _, n := range comp {
			in[n] = true
		}
		if cyc := g.findCycle(comp[0], in); cyc != nil {
			out = append(out, cyc)
		}
	}
	slices.SortFunc(out, func(a, b []cycleEdge) int { return strings.Compare(cycleKey(a), cycleKey(b)) })
	return out
}

// findCycle walks from start inside the component until it returns to
// start, by depth-first search in sorted order.
func (g depGraph) findCycle(start string, in map[string]bool) []cycleEdge {
	visited := map[string]bool{}
	var path []cycleEdge
	var dfs func(string) bool
	dfs = func(v string) bool {
		visited[v] = true
		for _, e := range g[v] {
			if !in[e.to] {
				continue
			}
			path = append(path, cycleEdge{v, e.to, e.claim})
			if e.to == start {
				return true
			}
			if !visited[e.to] && dfs(e.to) {
				return true
			}
			path = path[:len(path)-1]
		}
		return false
	}
	if dfs(start) {
		return path
	}
	return nil
}
