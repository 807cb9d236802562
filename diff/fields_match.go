package diff

import (
	"slices"
	"strings"
)

// Matching items across variants: each field class's values clustered by
// item, ids that several items share dropped, renumbered variants found,
// weak matches nothing confirms undone.

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
		if len(ids) == len(r.key.ids) && len(cites) == len(r.key.refs) {
			continue // nothing dropped: the shared key stays as it is
		}
		k := *r.key // keys are shared: a copy is changed
		k.ids, k.refs, k.toks = ids, cites, nil
		if len(ids) > 0 || len(cites) > 0 {
			k.toks = k.makeTokens()
		}
		r.key = &k
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
		key   *fldItemKey
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
	var sigs []uint64
	var bySig []signed
	for i, it := range items {
		if titles[title{it.v, it.title}] > 1 {
			continue // a title several items share identifies none of them
		}
		sigs = dropOne(keyed{words: it.key.words}, sigs[:0])
		for _, sig := range sigs {
			bySig = append(bySig, signed{sig, i})
		}
	}
	out := map[[2]int]bool{}
	sameSignature(bySig, func(members []signed) {
		for x, i := range members {
			for _, j := range members[x+1:] {
				a, b := items[i.item], items[j.item]
				if a.v == b.v || out[[2]int{a.v, b.v}] {
					continue
				}
				if a.key.words.Dice(b.key.words) >= 0.8 && fldIDMatch(a.key, b.key) == -1 {
					out[[2]int{a.v, b.v}], out[[2]int{b.v, a.v}] = true, true
				}
			}
		}
	})
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
// to the clusters so far, best matches first. It may reorder refs and set
// their weak marks: the clusters are then stretches of refs.
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
	type cand struct {
		i, c  int
		score float64
		weak  bool
	}
	// Reused from one variant to the next: the candidates, the clusters
	// near an item, and per item and per cluster the best score and
	// whether it is taken (slices, since both are small dense indexes).
	var cands []cand
	var near []int
	var bestOfItem, bestOfCluster []float64
	var usedItem, usedCluster []bool
	for v := range n {
		mine := byVariant[v]
		cands = cands[:0]
		for i, ri := range mine {
			r := &refs[ri]
			near = near[:0]
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
		bestOfItem = resetSlice(bestOfItem, len(mine))
		bestOfCluster = resetSlice(bestOfCluster, len(clusters))
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
		usedItem = resetSlice(usedItem, len(mine))
		usedCluster = resetSlice(usedCluster, len(clusters))
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
	out := make([][]fldRef, len(clusters))
	if total == len(refs) {
		// Every value is in a cluster: refs is put in the clusters' order
		// in place, and the clusters are stretches of it. The caller's
		// slice is the matcher's to reorder (see the doc comment); a copy
		// of every value cost as much memory as the values.
		order := make([]int32, 0, total)
		for _, ms := range clusters {
			for _, m := range ms {
				refs[m.ref].weak = m.weak
				order = append(order, int32(m.ref))
			}
		}
		permute(refs, order)
		start := 0
		for c, ms := range clusters {
			out[c] = refs[start : start+len(ms) : start+len(ms)]
			start += len(ms)
		}
		return out
	}
	all := make([]fldRef, 0, total)
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

// permute rearranges refs in place so that refs[i] becomes what
// refs[order[i]] was; order is a permutation of refs's indexes. Each
// value moves once, following the cycles of order.
func permute(refs []fldRef, order []int32) {
	done := make([]bool, len(refs))
	for start := range refs {
		if done[start] || int(order[start]) == start {
			done[start] = true
			continue
		}
		tmp := refs[start]
		cur := start
		for {
			done[cur] = true
			src := int(order[cur])
			if src == start {
				refs[cur] = tmp
				break
			}
			refs[cur] = refs[src]
			cur = src
		}
	}
}

// fldDistinctShared is how many distinguishing words two titles must
// share to be one item without another field to confirm it: "Rollback
// mechanism fails on atomic write race" and "Rollback failure during
// remediation" share two words no other risk of either list uses; "The
// cache outage" and "The gateway outage" share one, and a word that
// another item of the list also has distinguishes nothing.
const fldDistinctShared = 2

// fldDistinctList is how many items a variant's list must hold for a
// word only one of them uses to single that one out.
const fldDistinctList = 3

// corroborate drops the weak matches nothing confirms, and confirms those
// that agree on another field and share a word singling the item out of
// its list. Two items whose
// titles barely overlap ("Certification agent too lenient", "Certification
// false passes") are taken for one only when they agree on some other
// field; items that differ in every field they share are more likely two
// different items than one item rated twice.
//
// Titles are enough without another field when they share
// [fldDistinctShared] words that no other item of either variant uses:
// such words name one thing in each list, so the two rows are taken for
// one item even when every rating differs — a disagreement, never a
// contradiction, as for every weak match.
func corroborate(clustered map[string][][]fldRef) {
	type itemRef struct {
		v, section int
		item       string
	}
	ref := func(r fldRef) itemRef { return itemRef{r.Variant, r.Section, r.Item} }
	anyWeak := false
	for _, clusters := range clustered {
		for _, cl := range clusters {
			for i := range cl {
				anyWeak = anyWeak || cl[i].weak
			}
		}
	}
	if !anyWeak {
		return // nothing to confirm
	}
	// The normalised values of each item's fields, by class: an item has
	// a few fields, so a short list searched in turn costs less than a
	// map per item. A class given twice keeps its last value.
	type classValue struct {
		cls  string
		norm *fldValue
	}
	values := map[itemRef][]classValue{}
	for cls, clusters := range clustered {
		for _, cl := range clusters {
			for i := range cl {
				k := ref(cl[i])
				vs := values[k]
				j := slices.IndexFunc(vs, func(x classValue) bool { return x.cls == cls })
				if j < 0 {
					values[k] = append(vs, classValue{cls, &cl[i].norm})
				} else {
					vs[j].norm = &cl[i].norm
				}
			}
		}
	}
	// The words of each item's title and how many items of its variant
	// name each word: a word only one item names distinguishes it.
	titles := map[itemRef]*fldItemKey{}
	named := map[int]map[string]int{}
	for _, clusters := range clustered {
		for _, cl := range clusters {
			for _, r := range cl {
				k := ref(r)
				if _, ok := titles[k]; ok {
					continue
				}
				titles[k] = r.key
				if named[r.Variant] == nil {
					named[r.Variant] = map[string]int{}
				}
				for _, w := range r.key.words {
					named[r.Variant][w]++
				}
			}
		}
	}
	distinct := func(a, b itemRef) bool {
		n := 0
		for _, w := range titles[a].words {
			if titles[b].words.Has(w) && named[a.v][w] == 1 && named[b.v][w] == 1 {
				n++
			}
		}
		return n >= fldDistinctShared
	}
	// distinctInOne: the titles share a word that only this item of one
	// of the two lists uses, a list of at least fldDistinctList items
	// ("Certification agent too lenient" is the one risk about
	// certification among seven). In a shorter list every word is unique
	// and tells nothing.
	// The list is the items giving the field in question: the risks of a
	// register, not every item of the document.
	type listWord struct {
		cls string
		v   int
		w   string
	}
	inList := map[listWord]int{}
	listSize := map[listWord]int{} // w empty
	for cls, clusters := range clustered {
		for _, cl := range clusters {
			for _, r := range cl {
				listSize[listWord{cls, r.Variant, ""}]++
				for _, w := range r.key.words {
					inList[listWord{cls, r.Variant, w}]++
				}
			}
		}
	}
	distinctInOne := func(cls string, a, b itemRef) bool {
		single := func(v int, w string) bool {
			return inList[listWord{cls, v, w}] == 1 && listSize[listWord{cls, v, ""}] >= fldDistinctList
		}
		for _, w := range titles[a].words {
			if titles[b].words.Has(w) && (single(a.v, w) || single(b.v, w)) {
				return true
			}
		}
		return false
	}
	agreeElsewhere := func(a, b itemRef, except string) bool {
		vb := values[b]
		for _, x := range values[a] {
			if x.cls == except {
				continue
			}
			for _, y := range vb {
				if y.cls != x.cls {
					continue
				}
				if same, comparable := x.norm.agree(*y.norm); comparable && same {
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
				ok, confirmed := false, false
				for _, o := range kept {
					agree := agreeElsewhere(ref(r), ref(o), cls)
					ok = ok || agree || distinct(ref(r), ref(o))
					confirmed = confirmed || (agree && distinctInOne(cls, ref(r), ref(o)))
				}
				if ok {
					// Agreeing on another field and sharing a word that
					// names one item of a list confirms the match: the
					// items are one, and a rating they differ on may be
					// a contradiction.
					r.weak, r.confirmed = r.weak && !confirmed, confirmed
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

// resetSlice returns s resized to n zero values, reusing its array.
func resetSlice[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}
