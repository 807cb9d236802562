package diff

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"sort"
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
// variants. Each contradiction is labelled with it, and only cross-variant
// ones count as differences between the variants.
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
	rules := []func(DetectInput) []Contradiction{
		detectNumeric, detectOpposing, detectChoices, detectRequirementConstraint, detectCycles, detectPlacement, detectTableBounds, detectTallies, detectLineContent,
		detectLocationCorrections, detectTotalDurations, detectStatedCounts, detectCitationVerdicts, detectDefaults, detectCountedLabels,
		detectSelfCorrections, detectChangeSizes, detectEnumeratedCounts, detectRatingTallies,
		detectMinimalPairs, // last: see below
	}
	// The rules only read the input: they run in parallel, at most one
	// per CPU, and their findings are joined in the rules' order.
	found := make([][]Contradiction, len(rules))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, detect := range rules {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			found[i] = detect(in)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var all []Contradiction
	for _, cs := range found[:len(found)-1] {
		all = append(all, cs...)
	}
	// Minimal pairs are the catch-all for choices the other rules cannot
	// name; a pair another rule already reports adds nothing.
	covered := newCoverage(all)
	for _, c := range found[len(found)-1] {
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
	// uniq maps a set's hash to the first distinct set with it; sets
	// whose hashes collide follow it through sameHash.
	uniq := make(map[uint64]int, len(items))
	// A distinct set is kept as the index of its first item, its hash and
	// the next key with the same hash (-1 for none): a small record, where
	// a copy of the item and two parallel slices cost three times the
	// memory.
	type key struct {
		hash       uint64
		item, next int32
	}
	var keys []key
	itemKey := make([]int, len(items))
	for i, it := range items {
		h := setHash(it)
		u, last := -1, -1
		if k, ok := uniq[h]; ok {
			for ; k >= 0; k = int(keys[k].next) {
				if first := &items[keys[k].item]; first.group == it.group && slices.Equal(first.words, it.words) {
					u = k
					break
				}
				last = k
			}
		}
		if u < 0 {
			u = len(keys)
			if last >= 0 {
				keys[last].next = int32(u)
			} else {
				uniq[h] = u
			}
			keys = append(keys, key{hash: h, item: int32(i), next: -1})
		}
		itemKey[i] = u
	}
	keyOf := func(k int) *keyed { return &items[keys[k].item] }
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
	// Sized once: a key has its whole signature and one per word when it
	// has two or more, and growing the slice by doubling cost more than
	// the signatures themselves.
	size := 0
	for k := range keys {
		size++
		if n := len(keyOf(k).words); n >= 2 {
			size += n
		}
	}
	var sigs []uint64
	bySig := make([]signed, 0, size)
	for i, k := range keys {
		sigs = dropOneFrom(k.hash, *keyOf(i), sigs[:0])
		for _, sig := range sigs {
			bySig = append(bySig, signed{sig, i})
		}
	}
	sameSignature(bySig, func(members []signed) {
		for x, i := range members {
			for _, j := range members[x+1:] {
				if a, b := keyOf(i.item), keyOf(j.item); find(i.item) != find(j.item) && a.group == b.group && dice(a.words, b.words) >= minDice {
					parent[find(j.item)] = find(i.item)
				}
			}
		}
	})
	ids := make([]int, len(items))
	for i := range items {
		ids[i] = find(itemKey[i])
	}
	return ids
}

// dropOne appends to sigs the signatures under which a key meets its
// candidates: its whole word set, and the set without each one word in
// turn. Two sets of equal size that differ in one word share a "without"
// signature; a set and its superset by one word share the smaller set's
// whole signature. A signature is the sum of its words' hashes and its
// group's, so dropping a word is one subtraction and no string is built;
// the rare sets whose sums collide only become candidates, which the
// caller still compares.
func dropOne(it keyed, sigs []uint64) []uint64 {
	return dropOneFrom(setHash(it), it, sigs)
}

// dropOneFrom is dropOne given the key's setHash.
func dropOneFrom(whole uint64, it keyed, sigs []uint64) []uint64 {
	sigs = append(sigs, whole)
	if len(it.words) >= 2 {
		for _, w := range it.words {
			sigs = append(sigs, whole-wordHash(w))
		}
	}
	return sigs
}

// signed is an item under one of its signatures.
type signed struct {
	sig  uint64
	item int
}

// sameSignature sorts the items by signature (then item) and calls fn with
// each run of two or more that share one: one slice instead of a map of
// small ones.
func sameSignature(all []signed, fn func([]signed)) {
	all = sortSigned(all)
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].sig == all[i].sig {
			j++
		}
		if j-i > 1 {
			fn(all[i:j])
		}
		i = j
	}
}

// sortSigned sorts all by signature, then item, and returns the sorted
// slice (all itself, or a buffer of its size). Callers list their items
// in ascending order, so a stable sort by signature alone gives that
// order: many signatures are sorted by radix, a byte at a time, rather
// than compared — the comparisons were most of the clustering's time.
func sortSigned(all []signed) []signed {
	ascending := true
	for i := 1; i < len(all) && ascending; i++ {
		ascending = all[i-1].item <= all[i].item
	}
	if len(all) < 256 || !ascending {
		slices.SortFunc(all, func(a, b signed) int {
			if c := cmp.Compare(a.sig, b.sig); c != 0 {
				return c
			}
			return cmp.Compare(a.item, b.item)
		})
		return all
	}
	src, dst := all, make([]signed, len(all))
	for shift := uint(0); shift < 64; shift += 8 {
		var count [256]int
		for _, s := range src {
			count[byte(s.sig>>shift)]++
		}
		if count[byte(src[0].sig>>shift)] == len(src) {
			continue // every signature has this byte: the order stands
		}
		pos := 0
		for b, n := range count {
			count[b] = pos
			pos += n
		}
		for _, s := range src {
			b := byte(s.sig >> shift)
			dst[count[b]] = s
			count[b]++
		}
		src, dst = dst, src
	}
	return src
}

// setHash is the sum of the key's words' hashes and its group's.
func setHash(it keyed) uint64 {
	h := ^wordHash(it.group) // complemented: a group is not one of the words
	for _, w := range it.words {
		h += wordHash(w)
	}
	return h
}

// wordHash is FNV-1a with a final mix, so that sums of hashes spread well.
func wordHash(w string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(w); i++ {
		h ^= uint64(w[i])
		h *= 1099511628211
	}
	return mix64(h)
}

// mix64 spreads the bits of h over the whole word (MurmurHash3's
// finaliser).
func mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// dice is the Dice coefficient of two sorted word sets.
func dice(a, b []string) float64 { return words.Set(a).Dice(words.Set(b)) }

// groupClusters returns, per cluster id, the item indexes in order.
func groupClusters(ids []int) [][]int {
	// Cluster ids are item indexes: one array of counts and one of
	// members serve every cluster, where a map of slices allocated one
	// slice per cluster, most of them of one item.
	n := len(ids)
	group := make([]int32, n) // id → its cluster's index in out, plus one
	var sizes []int
	for _, id := range ids {
		if id < 0 || id >= n {
			return groupClustersByMap(ids)
		}
		if group[id] == 0 {
			sizes = append(sizes, 0)
			group[id] = int32(len(sizes))
		}
		sizes[group[id]-1]++
	}
	all := make([]int, n)
	out := make([][]int, len(sizes))
	start := 0
	for g, size := range sizes {
		out[g] = all[start : start : start+size] // capped: a caller's append copies
		start += size
	}
	for i, id := range ids {
		g := group[id] - 1
		out[g] = append(out[g], i)
	}
	return out
}

// groupClustersByMap is groupClusters for ids that are not indexes.
func groupClustersByMap(ids []int) [][]int {
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

// ---- opposing claims ----

func detectOpposing(in DetectInput) []Contradiction {
	place := newTopicIndex(in)
	n := 0 // at most every claim: sized once rather than grown by doubling
	for v := range in.Claims {
		n += len(in.Claims[v])
	}
	refs, items := make([]*Claim, 0, n), make([]keyed, 0, n)
	denies := map[string]bool{} // the places with a negated claim
	for v := range in.Claims {
		where, whereOf := "", -2 // the place of section whereOf: claims come section by section
		for ci := range in.Claims[v] {
			c := &in.Claims[v][ci]
			// A table cell is a value, not a statement: "No (final step)"
			// in a column denies nothing said elsewhere.
			if len(c.sig) == 0 || c.Type == Dependency || in.Documents[v].Blocks[c.Block].Kind == TableRow {
				continue
			}
			if c.Section != whereOf {
				where, whereOf = place.of(v, c.Section), c.Section
			}
			refs = append(refs, c)
			items = append(items, keyed{group: where, words: c.sig})
			if c.Negated {
				denies[where] = true
			}
		}
	}
	// Claims cluster only within their place, and a cluster without a
	// negated claim opposes nothing: the places where no claim denies
	// anything are left out whole, which changes no other cluster and
	// keeps the order of the others. Most places deny nothing.
	k := 0
	for i := range items {
		if denies[items[i].group] {
			refs[k], items[k] = refs[i], items[i]
			k++
		}
	}
	refs, items = refs[:k], items[:k]
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

// incompatibleSides returns, for a lower-cased text, which sides of which
// pairs of incompatible it names: bit 2·p for pair p's need, 2·p+1 for
// its rule. One walk over the text looks each place's first three bytes
// up among the phrases' (a bit set first, then the phrases that start
// so), where testing every phrase of every pair with strings.Contains
// scanned the text some seventy times.
func incompatibleSides(lower string) uint32 {
	var sides uint32
	for i := 0; i+2 < len(lower); i++ {
		k := uint32(lower[i])<<16 | uint32(lower[i+1])<<8 | uint32(lower[i+2])
		if h := trigramBit(k); incompatibleStarts[h>>6]&(1<<(h&63)) == 0 {
			continue
		}
		for _, p := range incompatibleByStart[k] {
			if p.side&^sides != 0 && strings.HasPrefix(lower[i:], p.phrase) {
				sides |= p.side
			}
		}
	}
	return sides
}

// trigramBit folds three bytes into the 16 bits of incompatibleStarts.
func trigramBit(k uint32) uint32 { return (k * 2654435761) >> 16 & 0xffff }

// incompatiblePhrase is a phrase of incompatible and the side it names.
type incompatiblePhrase struct {
	phrase string
	side   uint32
}

// incompatibleByStart lists the phrases of incompatible by their first
// three bytes, with the side each names; incompatibleStarts marks those
// three bytes, folded (trigramBit). Every phrase is three bytes or more.
var incompatibleByStart, incompatibleStarts = func() (map[uint32][]incompatiblePhrase, *[1024]uint64) {
	by := map[uint32][]incompatiblePhrase{}
	var starts [1024]uint64
	for pi, pair := range incompatible {
		for side, list := range [2][]string{pair.need, pair.rule} {
			for _, p := range list {
				k := uint32(p[0])<<16 | uint32(p[1])<<8 | uint32(p[2])
				by[k] = append(by[k], incompatiblePhrase{p, 1 << (2*pi + side)})
				h := trigramBit(k)
				starts[h>>6] |= 1 << (h & 63)
			}
		}
	}
	return by, &starts
}()

func detectRequirementConstraint(in DetectInput) []Contradiction {
	// Which sides each claim names, read once per claim rather than once
	// per pair.
	sides := make([][]uint32, len(in.Claims))
	for v := range in.Claims {
		sides[v] = make([]uint32, len(in.Claims[v]))
		for ci := range in.Claims[v] {
			c := &in.Claims[v][ci]
			if !c.Negated && (c.Type == Requirement || c.Type == Constraint) {
				sides[v][ci] = incompatibleSides(c.lower)
			}
		}
	}
	var out []Contradiction
	for pi, pair := range incompatible {
		var needs, rules []*Claim
		for v := range in.Claims {
			for ci := range in.Claims[v] {
				c := &in.Claims[v][ci]
				if c.Negated || (c.Type != Requirement && c.Type != Constraint) {
					continue
				}
				n, r := sides[v][ci]&(1<<(2*pi)) != 0, sides[v][ci]&(1<<(2*pi+1)) != 0
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
