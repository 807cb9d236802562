package diff

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/internal/words"
)

// Numeric conflicts: different values for one measured subject, compared
// only where two statements speak of the same thing.

type qref struct {
	claim *Claim
	q     *Quantity
	ids   []string // item identifiers the claim names ("T03.04", "NR-6"), sorted
	// subject is q.Subject joined by spaces, when detectNumeric made the
	// ref: the buckets, keys and labels that read it join it once.
	subject string
}

// subjectText returns q.Subject joined by spaces.
func (r qref) subjectText() string {
	if r.subject != "" {
		return r.subject
	}
	return strings.Join(r.q.Subject, " ")
}

// detectNumeric compares the quantities stated for one subject. Values
// compare only where they speak of the same thing: across variants, inside
// sections the alignment puts in one topic, or anywhere when the subject
// is the same three or more words; within a variant, as sameSubjectWithin
// says; and the durations of one phase (itemDurations). Without an
// alignment (DetectInput.Topics empty) any two sections may compare.
func detectNumeric(in DetectInput) []Contradiction {
	return detectNumericUpTo(in, intraDirect)
}

// detectNumericUpTo is detectNumeric with intraNumeric comparing clusters
// of up to direct values pair by pair: the tests check that any size
// finds the same.
func detectNumericUpTo(in DetectInput, direct int) []Contradiction {
	nq := 0
	for v := range in.Claims {
		for ci := range in.Claims[v] {
			nq += len(in.Claims[v][ci].Quantities)
		}
	}
	refs := make([]qref, 0, nq)
	across, within := make([]keyed, 0, nq), make([]keyed, 0, nq)
	place := newTopicIndex(in)
	// A claim read once for the documents that repeat its sentence shares
	// its quantities' subjects with them: each subject slice is joined
	// once, found by its first element's address and its length.
	type slice struct {
		first *string
		n     int
	}
	joined := map[slice]string{}
	joinSubject := func(subject []string) string {
		if len(subject) == 0 {
			return ""
		}
		k := slice{&subject[0], len(subject)}
		j, ok := joined[k]
		if !ok {
			j = strings.Join(subject, " ")
			joined[k] = j
		}
		return j
	}
	// The groups are built once per dimension and place: most values
	// share both with many others.
	groups := map[[2]string]string{}
	group := func(dim, sep, where string) string {
		k := [2]string{dim, where}
		g, ok := groups[k]
		if !ok {
			g = dim + sep + where
			groups[k] = g
		}
		return g
	}
	for v := range in.Claims {
		vkey := "v" + strconv.Itoa(v)
		where, whereOf := "", -2 // the place of section whereOf
		for ci := range in.Claims[v] {
			c := &in.Claims[v][ci]
			if len(c.Quantities) == 0 {
				continue
			}
			if c.Section != whereOf {
				where, whereOf = place.of(v, c.Section), c.Section
			}
			quote := withoutLabel(c.Quote)
			for qi := range c.Quantities {
				q := &c.Quantities[qi]
				refs = append(refs, qref{c, q, idsBefore(quote, q.Text), joinSubject(q.Subject)})
				across = append(across, keyed{group: group(q.Dim, "|", where), words: q.Subject})
				within = append(within, keyed{group: group(q.Dim, "|", vkey), words: q.Subject})
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
	bySubject := map[[2]string][]int{} // dimension and subject
	var subjects [][2]string
	for i, r := range refs {
		if len(r.q.Subject) < 3 {
			continue
		}
		k := [2]string{r.q.Dim, r.subject}
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
	// Each variant's heading items are looked up once, not once per
	// cluster.
	items := make([][]string, len(in.Documents))
	itemsOf := func(v int) []string {
		if items[v] == nil {
			items[v] = headingItems(in.Documents[v])
		}
		return items[v]
	}
	for _, members := range groupClusters(cluster(within, 0.75)) {
		if c, ok := intraNumeric(itemsOf, refs, members, direct); ok {
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
	// The claims of each subject's conflicts, counted first: the merged
	// list is sized once instead of growing a claim at a time.
	claimsOf := make(map[string]int, len(cs))
	for i := range cs {
		claimsOf[cs[i].Key] += len(cs[i].Claims)
	}
	at := map[string]int{}
	var out []Contradiction
	places := map[string]int{}
	// The statements (variant and line) each merged conflict cites, made
	// when a second conflict joins it: a subject repeated in many places
	// would otherwise rescan its growing list of claims for every claim.
	cited := map[int]map[[2]int]bool{}
	for _, c := range cs {
		i, ok := at[c.Key]
		if !ok {
			at[c.Key] = len(out)
			if n := claimsOf[c.Key]; n > len(c.Claims) {
				c.Claims = slices.Grow(c.Claims[:len(c.Claims):len(c.Claims)], n-len(c.Claims))
			}
			out = append(out, c)
			continue
		}
		has := cited[i]
		if has == nil {
			has = make(map[[2]int]bool, 2*len(out[i].Claims))
			for _, o := range out[i].Claims {
				has[[2]int{o.Variant, o.Line}] = true
			}
			cited[i] = has
		}
		added := false
		for _, cl := range c.Claims {
			if k := [2]int{cl.Variant, cl.Line}; !has[k] {
				has[k] = true
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
			sortClaimsByIndex(out[i].Claims)
			out[i].Reason += fmt.Sprintf("; the same subject conflicts in %d more place%s", n, plural(n))
		}
	}
	return out
}

// sortClaimsByIndex orders cs as sortClaims does (by variant, line and
// text, stably) but sorts their indexes and moves each claim once: a
// merged conflict can cite hundreds of claims, and the stable sort of the
// claims themselves moved each large struct many times.
func sortClaimsByIndex(cs []Claim) {
	if len(cs) < 2 {
		return
	}
	idx := make([]int, len(cs))
	for i := range idx {
		idx[i] = i
	}
	// The index breaks ties, so the order is total and any sort gives
	// the stable one.
	slices.SortFunc(idx, func(i, j int) int {
		a, b := &cs[i], &cs[j]
		return cmp.Or(cmp.Compare(a.Variant, b.Variant), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Text, b.Text), cmp.Compare(i, j))
	})
	sorted := make([]Claim, len(cs))
	for k, i := range idx {
		sorted[k] = cs[i]
	}
	copy(cs, sorted)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// variantSet is a set of variant indexes: a bit per variant for the ten
// an analysis has, a map past 64 (DetectInput takes any number).
type variantSet struct {
	bits uint64
	more map[int]bool
}

// add adds v and reports whether it was new.
func (s *variantSet) add(v int) bool {
	if 0 <= v && v < 64 {
		if s.bits&(1<<v) != 0 {
			return false
		}
		s.bits |= 1 << v
		return true
	}
	if s.more[v] {
		return false
	}
	if s.more == nil {
		s.more = map[int]bool{}
	}
	s.more[v] = true
	return true
}

// crossNumeric compares the first value each variant gives for one subject
// in one place, and reports a contradiction when variants disagree.
func crossNumeric(refs []qref, members []int) (Contradiction, bool) {
	if len(members) < 2 {
		return Contradiction{}, false // one value: nothing to compare
	}
	var firsts []qref
	var seen variantSet
	for _, m := range members {
		if r := refs[m]; seen.add(r.claim.Variant) {
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
// subject). Pairs are tried in the order of members, first by the earlier
// value, then by the later; only pairs that sameSubjectWithin could accept
// are tried — values in one section, values naming one item, values with
// one subject in sections that are not two items of a series — so a
// variant with thousands of values in as many sections costs about as
// many comparisons as it has values, not their square.
// Clusters of up to direct values are compared pair by pair
// (intraNumericDirect), larger ones through buckets.
// itemsOf returns headingItems of a variant's document.
func intraNumeric(itemsOf func(v int) []string, refs []qref, members []int, direct int) (Contradiction, bool) {
	if len(members) < 2 {
		return Contradiction{}, false
	}
	items := itemsOf(refs[members[0]].claim.Variant)
	itemOf := func(r qref) string {
		if s := r.claim.Section; s >= 0 && s < len(items) {
			return items[s]
		}
		return ""
	}
	if len(members) <= direct {
		return intraNumericDirect(items, refs, members)
	}
	// Positions in members of the values in each bucket, ascending.
	bySection := map[int][]int{}
	byID := map[string][]int{}
	bySubject := map[[2]string][]int{}      // subject and heading item
	subjectAny := map[string][]int{}        // subject → every position, for values whose section names no item
	subject := make([]string, len(members)) // the joined subject of each member with two words or more
	for x, i := range members {
		r := refs[i]
		bySection[r.claim.Section] = append(bySection[r.claim.Section], x)
		for _, id := range r.ids {
			byID[id] = append(byID[id], x)
		}
		if len(r.q.Subject) >= 2 {
			k := r.subjectText()
			subject[x] = k
			ki := [2]string{k, itemOf(r)}
			bySubject[ki] = append(bySubject[ki], x)
			subjectAny[k] = append(subjectAny[k], x)
		}
	}
	after := func(dst, src []int, x int) []int {
		k, _ := slices.BinarySearch(src, x+1)
		return append(dst, src[k:]...)
	}
	var cand []int
	for x, i := range members {
		a := refs[i]
		cand = after(cand[:0], bySection[a.claim.Section], x)
		for _, id := range a.ids {
			cand = after(cand, byID[id], x)
		}
		if len(a.q.Subject) >= 2 {
			k := subject[x]
			if item := itemOf(a); item == "" {
				cand = after(cand, subjectAny[k], x)
			} else {
				cand = after(cand, bySubject[[2]string{k, item}], x)
				cand = after(cand, bySubject[[2]string{k, ""}], x)
			}
		}
		slices.Sort(cand)
		cand = slices.Compact(cand)
		for _, y := range cand {
			b := refs[members[y]]
			if a.claim == b.claim || !sameSubjectWithin(items, a, b) {
				continue
			}
			if c, ok := numericContradiction([]qref{a, b}); ok {
				return c, true
			}
		}
	}
	return Contradiction{}, false
}

// intraDirect is the size of cluster up to which intraNumeric compares
// every pair directly rather than through its buckets: building four maps
// costs more than a few comparisons.
const intraDirect = 12

// intraNumericDirect is intraNumeric for a small cluster: every pair (x,
// y), y after x, in order. The buckets hold every pair sameSubjectWithin
// accepts (one section; a shared id; one subject of two words or more,
// whose heading items differ only if parallelItems says so), so the pairs
// compared, and the first that clashes, are the same.
func intraNumericDirect(items []string, refs []qref, members []int) (Contradiction, bool) {
	for x, i := range members {
		a := refs[i]
		for _, j := range members[x+1:] {
			b := refs[j]
			if a.claim == b.claim || !sameSubjectWithin(items, a, b) {
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
	c := Contradiction{Kind: kind, Subject: subjectLabel(rs[0]), Key: q0.Dim + ":" + rs[0].subjectText()}
	var vals []string
	c.Claims = make([]Claim, 0, len(rs)) // a Claim is large: grown by doubling, most of it was copies
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
func sameSubjectWithin(items []string, a, b qref) bool {
	if a.claim.Section == b.claim.Section {
		return true
	}
	if len(a.ids) > 0 && len(b.ids) > 0 {
		return !differentItems(a.ids, b.ids)
	}
	if len(a.q.Subject) < 2 || !slices.Equal(a.q.Subject, b.q.Subject) {
		return false
	}
	return !parallelItems(items, a.claim.Section, b.claim.Section)
}

// parallelItems reports whether two sections are items of one series: both
// headings carry an item number or id (items is headingItems of their
// document), and not the same one.
func parallelItems(items []string, s1, s2 int) bool {
	if s1 < 0 || s2 < 0 || s1 >= len(items) || s2 >= len(items) {
		return false
	}
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

func subjectLabel(r qref) string {
	if r.q.Phrase != "" {
		return r.q.Phrase
	}
	return r.subjectText()
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
