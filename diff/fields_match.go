package diff

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/internal/words"
)

// Items across variants: what identifies an item (its ids, citations and
// title words), and the matching of one field class's values by item.

// fldItemKey is what identifies an item across variants: its ids and the
// significant words of its title.
type fldItemKey struct {
	header  bool
	ids     []fldItemID
	refs    []string // file:line citations, "models.py:218-228", that identify the item
	allRefs []string // every citation in the title
	fams    []string // the prefixes of every id in the title, identifying or not
	words   words.Set
}

type fldItemID struct {
	prefix string // lower-cased: "delta", "d", "nr", "risk", "task"; "" for a bare number
	num    []int  // 2.1 → [2 1]
}

var (
	fldIDRE      = regexp.MustCompile(`\b([A-Za-z]{1,12})(?:[- ]?)(\d+(?:\.\d+)*)\b|\b([A-Za-z]{1,8})-([A-Za-z]{2,8})-(\d+)\b`)
	fldParenIDRE = regexp.MustCompile(`\((\d+(?:\.\d+)+)\)`)
	fldCodeRefRE = regexp.MustCompile(`[\w./-]+\.[a-z]{1,5}:\d+(?:-\d+)?`)
	fldOutlineRE = regexp.MustCompile(`^(?:§\s*)?\d+(?:\.\d+)*[.)]?\s+`)
)

// fldIDStop are words that precede a number without making an id of it.
var fldIDStop = map[string]bool{"line": true, "lines": true, "of": true, "to": true, "and": true, "or": true,
	"v": true, "x": true, "at": true, "by": true, "in": true, "on": true, "the": true, "a": true, "py": true, "md": true}

func newFldItemKey(item string) fldItemKey {
	if strings.TrimSpace(item) == "" {
		return fldItemKey{header: true}
	}
	s := fldPlain(item)
	var k fldItemKey
	for _, r := range fldCodeRefRE.FindAllString(s, -1) {
		k.refs = append(k.refs, strings.ToLower(r))
		k.allRefs = append(k.allRefs, strings.ToLower(r))
	}
	s = fldCodeRefRE.ReplaceAllString(s, " ")
	s = fldOutlineRE.ReplaceAllString(s, "")
	for _, m := range fldParenIDRE.FindAllStringSubmatch(s, -1) {
		k.ids = append(k.ids, fldItemID{num: fldParseNum(m[1])})
	}
	s = fldParenIDRE.ReplaceAllString(s, " ")
	rest := s
	for _, m := range fldIDRE.FindAllStringSubmatchIndex(s, -1) {
		if m[2] >= 0 {
			p := strings.ToLower(s[m[2]:m[3]])
			if fldIDStop[p] || len(p) > 8 {
				continue
			}
			k.ids = append(k.ids, fldItemID{prefix: p, num: fldParseNum(s[m[4]:m[5]])})
			k.fams = append(k.fams, p)
		} else {
			p := strings.ToLower(s[m[6]:m[7]] + "-" + s[m[8]:m[9]])
			k.ids = append(k.ids, fldItemID{prefix: p, num: fldParseNum(s[m[10]:m[11]])})
			k.fams = append(k.fams, p)
		}
		rest = strings.Replace(rest, s[m[0]:m[1]], " ", 1)
	}
	ws := fldWords(rest)
	k.words = ws
	return k
}

func fldParseNum(s string) []int {
	var out []int
	for _, p := range strings.Split(s, ".") {
		n, _ := strconv.Atoi(p)
		out = append(out, n)
	}
	return out
}

// hasFamilyID reports whether the key has an id with a prefix ("Task 2.1"),
// not only a bare number.
func (k fldItemKey) hasFamilyID() bool {
	for _, id := range k.ids {
		if id.prefix != "" {
			return true
		}
	}
	return false
}

// tokens are what an item key can be found by: its words, id numbers and
// citations; the document's header is found by the header.
func (k fldItemKey) tokens() []string {
	if k.header {
		return []string{"^header"}
	}
	out := slices.Clone([]string(k.words))
	for _, id := range k.ids {
		parts := make([]string, len(id.num))
		for i, n := range id.num {
			parts[i] = strconv.Itoa(n)
		}
		out = append(out, "#"+strings.Join(parts, "."))
	}
	for _, r := range k.refs {
		out = append(out, "@"+r)
	}
	return out
}

// fldIDKey writes an id as fmt.Sprint does ("{delta [2 1]}"), without
// reflection: uniqueIDs counts the items that share it.
func fldIDKey(id fldItemID) string {
	b := make([]byte, 0, len(id.prefix)+4+4*len(id.num))
	b = append(b, '{')
	b = append(b, id.prefix...)
	b = append(b, " ["...)
	for i, n := range id.num {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	b = append(b, "]}"...)
	return string(b)
}

// fldIDMatch compares two items' ids: 1 when some id of one is an id of
// the other ("Delta 2.1", "D2.1" and "(2.1)"; "RISK-004" and "Risk 4"),
// -1 when both have an id of one family and they differ, -2 when their
// ids are of different families ("SY-1" and "Step 2": items of two
// different lists) or they cite different places, 0 otherwise.
func fldIDMatch(a, b fldItemKey) int {
	if len(a.fams) > 0 && len(b.fams) > 0 {
		related := false
		for _, x := range a.fams {
			for _, y := range b.fams {
				related = related || fldPrefixCompatible(x, y)
			}
		}
		if !related {
			return -2
		}
	}
	result := 0
	for _, x := range a.ids {
		for _, y := range b.ids {
			if !fldPrefixCompatible(x.prefix, y.prefix) {
				continue
			}
			if slices.Equal(x.num, y.num) {
				return 1
			}
			if x.prefix != "" && y.prefix != "" {
				result = -1
			}
		}
	}
	for _, r := range a.refs {
		if slices.Contains(b.refs, r) {
			return 1
		}
	}
	if result == 0 && len(a.allRefs) > 0 && len(b.allRefs) > 0 {
		shared := false
		for _, r := range a.allRefs {
			shared = shared || slices.Contains(b.allRefs, r)
		}
		if !shared {
			return -2 // two different citations
		}
	}
	return result
}

func fldPrefixCompatible(a, b string) bool {
	if a == "" || b == "" {
		return true
	}
	return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}

// fldWords is the significant words of a title, lightly stemmed.
func fldWords(s string) words.Set {
	var ws words.Set
	// "lease/heartbeat" names two things; "gate_states" one.
	words.Each(strings.ReplaceAll(s, "/", " "), func(w string) {
		if words.IsStopWord(w) || fldMinorWords[w] || fldNumeral(w) {
			return
		}
		ws = append(ws, fldStem(w))
	})
	slices.Sort(ws)
	return slices.Compact(ws)
}

// fldMinorWords carry no topic in an item's title, beyond the stop words.
var fldMinorWords = map[string]bool{"during": true, "after": true, "before": true, "without": true, "within": true,
	"when": true, "across": true, "per": true, "not": true, "no": true, "over": true, "under": true, "between": true,
	"while": true, "than": true, "too": true, "all": true, "any": true, "line": true, "lines": true}

// fldStem is a light suffix stripper for matching item titles: "failure",
// "fails" and "failing" meet at "fail", "parser" and "parsing" at "pars".
func fldStem(w string) string {
	w = words.Stem(strings.ToLower(w))
	for _, suf := range []string{"ations", "ation", "ition", "ments", "ment", "ness", "ings", "ing", "ures", "ure", "ages", "age", "ions", "ion", "ed", "er", "es"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// fldContext is the words of the titles of the sections an item sits in
// (its own title excluded when the item is its section), below the
// document's title: where in the document the item is.
func fldContext(d *Document, f Field) words.Set {
	var b strings.Builder
	s := f.Section
	if f.Form != FormTable && s >= 0 {
		s = d.Sections[s].Parent // the item is the section itself
	}
	for ; s >= 0 && d.Sections[s].Depth > 0; s = d.Sections[s].Parent {
		b.WriteString(d.Sections[s].Title + " ")
	}
	return fldWords(b.String())
}

// ---- matching ----

// uniqueIDs drops the ids and citations that several items of one variant
// share: rows "C-1: executor.py:541 …" and "C-1: executor.py:643 …" are
// two items, and "C-1" identifies neither.
func uniqueIDs(refs []fldRef) {
	type owner struct {
		v  int
		id string
	}
	items := map[owner]map[string]bool{}
	note := func(v int, id, item string) {
		o := owner{v, id}
		if items[o] == nil {
			items[o] = map[string]bool{}
		}
		items[o][item] = true
	}
	for _, r := range refs {
		for _, id := range r.key.ids {
			note(r.Variant, fldIDKey(id), r.Item)
		}
		for _, ref := range r.key.refs {
			note(r.Variant, ref, r.Item)
		}
	}
	for i := range refs {
		r := &refs[i]
		ids := r.key.ids[:0:0]
		for _, id := range r.key.ids {
			if len(items[owner{r.Variant, fldIDKey(id)}]) == 1 {
				ids = append(ids, id)
			}
		}
		var cites []string
		for _, ref := range r.key.refs {
			if len(items[owner{r.Variant, ref}]) == 1 {
				cites = append(cites, ref)
			}
		}
		r.key.ids, r.key.refs = ids, cites
	}
}

// fldRenumberings finds the pairs of variants whose items were
// renumbered: two items with the same title (each unique in its variant)
// under different ids of one family. Ids say nothing about which items
// correspond between such variants. Titles are compared through
// "drop one word" signatures, so only titles that can reach a Dice of 0.8
// are ever compared.
func fldRenumberings(byClass map[string][]fldRef) map[[2]int]bool {
	type titled struct {
		v     int
		key   fldItemKey
		title string // the words of the title
	}
	type item struct {
		v, section int
		item       string
	}
	type title struct {
		v     int
		title string
	}
	seen := map[item]bool{}
	var items []titled
	titles := map[title]int{} // items with that title in the variant
	for _, rs := range byClass {
		for _, r := range rs {
			k := item{r.Variant, r.Section, r.Item}
			if !seen[k] && len(r.key.fams) > 0 && len(r.key.words) >= 2 {
				seen[k] = true
				it := titled{r.Variant, r.key, strings.Join(r.key.words, " ")}
				items = append(items, it)
				titles[title{it.v, it.title}]++
			}
		}
	}
	bySig := map[string][]int{}
	for i, it := range items {
		if titles[title{it.v, it.title}] > 1 {
			continue // a title several items share identifies none of them
		}
		for _, sig := range dropOne(keyed{words: it.key.words}) {
			bySig[sig] = append(bySig[sig], i)
		}
	}
	sigs := make([]string, 0, len(bySig))
	for sig := range bySig {
		sigs = append(sigs, sig)
	}
	slices.Sort(sigs)
	out := map[[2]int]bool{}
	for _, sig := range sigs {
		members := bySig[sig]
		for x, i := range members {
			for _, j := range members[x+1:] {
				a, b := items[i], items[j]
				if a.v == b.v || out[[2]int{a.v, b.v}] {
					continue
				}
				if a.key.words.Dice(b.key.words) >= 0.8 && fldIDMatch(a.key, b.key) == -1 {
					out[[2]int{a.v, b.v}], out[[2]int{b.v, a.v}] = true, true
				}
			}
		}
	}
	return out
}

// fldItemScore says how surely two items are the same: 0 when they are not.
// Near-identical titles always match; a shared id needs a shared word too
// (two variants' "Risk 5" may be different risks), unless the variants
// renumbered their items; otherwise titles must overlap by 60%, or — for
// items in aligned sections, where each is the other's best match — by
// more than 0.3 (one shared word of four on each side, with one agreeing
// level such as Impact: High, is too often two different risks).
func fldItemScore(a, b *fldRef, renumbered bool) (score float64, weak bool) {
	if a.key.header || b.key.header {
		if a.key.header && b.key.header {
			return 1, false
		}
		return 0, false
	}
	d := a.key.words.Dice(b.key.words)
	shared := a.key.words.Intersect(b.key.words)
	id := fldIDMatch(a.key, b.key)
	if renumbered && id == -1 {
		id = 0
	}
	if renumbered && id == 1 && a.key.hasFamilyID() && b.key.hasFamilyID() {
		id = 0 // the ids were reassigned: only titles say which items correspond
	}
	sameWords := len(a.key.words) > 0 && d == 1
	switch {
	case id == -2:
		return 0, false
	case d >= 0.8 && (shared >= 2 || sameWords):
		return 1 + d, false
	case id > 0 && (shared > 0 || len(a.key.words) == 0 || len(b.key.words) == 0):
		return 1 + d/2, false
	case id < 0:
		return 0, false
	case d >= 0.6 && shared >= 2:
		return d, false
	case d > 0.3 && shared >= 1 && (len(a.key.ids) == 0 || len(b.key.ids) == 0) &&
		((a.topic >= 0 && a.topic == b.topic) || a.where.Dice(b.where) >= 0.25):
		return d, true
	}
	return 0, false
}

// fldCommonToken is how many clusters a word may name before it stops
// finding candidates: a word every item has tells none apart.
const fldCommonToken = 64

// fldMatchItems clusters one field class's values by item: at most one
// value per variant per cluster, each variant's items matched one-to-one
// to the clusters so far, best matches first.
func fldMatchItems(refs []fldRef, n int, renumbered map[[2]int]bool) [][]fldRef {
	// While matching, a cluster holds its members' indexes in refs, with
	// whether each was matched weakly; the clusters of values are built
	// once at the end.
	type member struct {
		ref  int
		weak bool
	}
	var clusters [][]member
	// Clusters are found through what their members' keys hold — words,
	// id numbers, citations — so each item is scored against the few
	// clusters it could match, not all of them.
	byToken := map[string][]int{}
	tokens := make([][]string, len(refs))
	index := func(c, i int) {
		for _, tok := range tokens[i] {
			if l := byToken[tok]; len(l) == 0 || l[len(l)-1] != c {
				byToken[tok] = append(l, c)
			}
		}
	}
	byVariant := make([][]int, n)
	for i := range refs {
		if v := refs[i].Variant; v >= 0 && v < n {
			byVariant[v] = append(byVariant[v], i)
			tokens[i] = refs[i].key.tokens()
		}
	}
	for v := range n {
		mine := byVariant[v]
		type cand struct {
			i, c  int
			score float64
			weak  bool
		}
		var cands []cand
		for i, ri := range mine {
			r := &refs[ri]
			var near []int
			for _, tok := range tokens[ri] {
				if l := byToken[tok]; len(l) <= fldCommonToken || tok[0] == '#' || tok[0] == '@' || tok[0] == '^' {
					near = append(near, l...)
				}
			}
			slices.Sort(near)
			for _, c := range slices.Compact(near) {
				best, weak := 0.0, false
				for _, m := range clusters[c] {
					o := &refs[m.ref]
					if s, w := fldItemScore(r, o, renumbered[[2]int{r.Variant, o.Variant}]); s > best {
						best, weak = s, w
					}
				}
				if best > 0 {
					cands = append(cands, cand{i, c, best, weak})
				}
			}
		}
		// A weak match must be each side's best: the item's best cluster
		// and the cluster's best item.
		bestOfItem := map[int]float64{}
		bestOfCluster := map[int]float64{}
		for _, c := range cands {
			bestOfItem[c.i] = max(bestOfItem[c.i], c.score)
			bestOfCluster[c.c] = max(bestOfCluster[c.c], c.score)
		}
		slices.SortStableFunc(cands, func(a, b cand) int {
			if a.score != b.score {
				if a.score > b.score {
					return -1
				}
				return 1
			}
			return 0
		})
		usedItem := map[int]bool{}
		usedCluster := map[int]bool{}
		for _, c := range cands {
			if usedItem[c.i] || usedCluster[c.c] {
				continue
			}
			if c.weak && (c.score < bestOfItem[c.i] || c.score < bestOfCluster[c.c]) {
				continue
			}
			usedItem[c.i], usedCluster[c.c] = true, true
			clusters[c.c] = append(clusters[c.c], member{mine[c.i], c.weak})
			index(c.c, mine[c.i])
		}
		for i, ri := range mine {
			if !usedItem[i] {
				clusters = append(clusters, []member{{ri, refs[ri].weak}})
				index(len(clusters)-1, ri)
			}
		}
	}
	if len(clusters) == 0 {
		return nil
	}
	total := 0
	for _, ms := range clusters {
		total += len(ms)
	}
	all := make([]fldRef, 0, total)
	out := make([][]fldRef, len(clusters))
	for c, ms := range clusters {
		start := len(all)
		for _, m := range ms {
			r := refs[m.ref]
			r.weak = m.weak
			all = append(all, r)
		}
		out[c] = all[start:len(all):len(all)]
	}
	return out
}

// corroborate drops the weak matches nothing confirms. Two items whose
// titles barely overlap ("Certification agent too lenient", "Certification
// false passes") are taken for one only when they agree on some other
// field; items that differ in every field they share are more likely two
// different items than one item rated twice.
func corroborate(clustered map[string][][]fldRef) {
	type itemRef struct {
		v, section int
		item       string
	}
	ref := func(r fldRef) itemRef { return itemRef{r.Variant, r.Section, r.Item} }
	values := map[itemRef]map[string]fldValue{} // the normalised values of each item's fields
	for cls, clusters := range clustered {
		for _, cl := range clusters {
			for _, r := range cl {
				k := ref(r)
				if values[k] == nil {
					values[k] = map[string]fldValue{}
				}
				values[k][cls] = r.norm
			}
		}
	}
	agreeElsewhere := func(a, b itemRef, except string) bool {
		for cls, x := range values[a] {
			if cls == except {
				continue
			}
			if y, ok := values[b][cls]; ok {
				if same, comparable := x.agree(y); comparable && same {
					return true
				}
			}
		}
		return false
	}
	for cls, clusters := range clustered {
		var out [][]fldRef
		for _, cl := range clusters {
			weak := false
			for i := range cl {
				weak = weak || cl[i].weak
			}
			if !weak {
				out = append(out, cl) // nothing to confirm: kept whole
				continue
			}
			var kept, dropped []fldRef
			for _, r := range cl {
				if !r.weak {
					kept = append(kept, r)
					continue
				}
				ok := false
				for _, o := range kept {
					ok = ok || agreeElsewhere(ref(r), ref(o), cls)
				}
				if ok {
					kept = append(kept, r)
				} else {
					dropped = append(dropped, r)
				}
			}
			out = append(out, kept)
			for _, r := range dropped {
				r.weak = false
				out = append(out, []fldRef{r})
			}
		}
		clustered[cls] = out
	}
}
