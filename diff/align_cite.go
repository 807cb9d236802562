package diff

import (
	"slices"
	"strings"
)

// Citations of heading ids: one variant's heading names an item by its id
// ("OV-4: …", "SOL-D: DISCARD", "C-2: …"), another variant discusses the
// same item under a heading of its own framing ("Fault 1: Discard Gap
// Analysis") whose text cites the id ("The analysis (OV-4) states …").
// Titles do not meet and the texts may share little, but a section that
// holds most of its variant's mentions of an id is about that item.

// citeWeight is how far a citation alone carries a match: a section that
// holds every mention of the other's heading id, with texts that share
// nothing else, scores about citeWeight.
const citeWeight = 0.4

// citeShare is a heading id a section's own text mentions, with the share
// of its variant's mentions of the id that the section holds.
type citeShare struct {
	id    int32
	n     int32   // mentions in the section
	share float64 // of the variant's mentions
}

// isHeadingIDTerm reports whether a title term is an item's id: letters
// with digits ("t1", "s2", "nr-3") or a name with a one-letter part
// ("sol-d"). Outline references ("§4.4"), numbered words ("phase#2") and
// identifiers of code (with '_' or '.') are not.
func isHeadingIDTerm(t string) bool {
	if t == "" || strings.ContainsAny(t, "#§_./()") || !hasLetter(t) {
		return false
	}
	if hasDigit(t) {
		return true
	}
	// Some part between hyphens is one byte long ("a-b", "x-ray-z"); a
	// term without a hyphen is one part, and does not count.
	if strings.IndexByte(t, '-') < 0 {
		return false
	}
	for rest := t; ; {
		part, after, more := strings.Cut(rest, "-")
		if len(part) == 1 {
			return true
		}
		if !more {
			return false
		}
		rest = after
	}
}

// countIDs counts the ids of a list: by id, ascending.
func countIDs(ids []int32) []termCount {
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	var out []termCount
	for _, i := range ids {
		if n := len(out); n > 0 && out[n-1].id == i {
			out[n-1].n++
		} else {
			out = append(out, termCount{i, 1})
		}
	}
	return out
}

// idFamily returns the letters an item id opens with, which name its
// list: "fr" for "fr-12", "s" for "s2", "sol" for "sol-d".
func idFamily(t string) string {
	i := 0
	for i < len(t) && t[i] >= 'a' && t[i] <= 'z' {
		i++
	}
	return t[:i]
}

// measureCites sets every section's heading ids and the heading ids its
// own text cites, from the sections' title terms and the ids their prose
// mentions, counted (by variant and section). Only prose counts: a table
// listing items by id centres on none of them.
func (al *aligner) measureCites(titles [][][]int32, prose [][][]termCount) {
	names := make([]string, len(al.terms))
	for t, i := range al.terms {
		names[i] = t
	}
	isID := make([]bool, len(al.terms))
	al.headOf = make([]uint32, len(al.terms))
	al.family = map[int32]string{}
	for v := range titles {
		for si := range titles[v] {
			for _, i := range titles[v][si] {
				if isID[i] = isHeadingIDTerm(names[i]); isID[i] {
					al.headOf[i] |= 1 << v
					al.family[i] = idFamily(names[i])
				}
			}
		}
	}
	total := make([]int32, len(al.terms)) // mentions in one variant, reset after it
	for v := range prose {
		for si := range prose[v] {
			x := &al.secs[v][si]
			for _, i := range titles[v][si] {
				if isID[i] {
					x.heads = append(x.heads, i)
				}
			}
			slices.Sort(x.heads)
			for _, tc := range prose[v][si] {
				if isID[tc.id] {
					total[tc.id] += tc.n
				}
			}
		}
		for si := range prose[v] {
			x := &al.secs[v][si]
			for _, tc := range prose[v][si] {
				if isID[tc.id] {
					x.cites = append(x.cites, citeShare{tc.id, tc.n, float64(tc.n) / float64(total[tc.id])})
				}
			}
		}
		for si := range prose[v] {
			for _, tc := range prose[v][si] {
				total[tc.id] = 0
			}
		}
	}
}

// cite rates how surely section a of v and section b of w discuss the
// item one of them names in its heading: the largest share of mentions of
// a heading id of one that the other's text holds, both ways summed, at
// most 1. An id both headings name is the titles' evidence, not this.
func (al *aligner) cite(v, a, w, b int) float64 {
	x, y := &al.secs[v][a], &al.secs[w][b]
	return min(1, al.citedShare(v, x.heads, y)+al.citedShare(w, y.heads, x))
}

// citedShare rates how much y's text centres on one of heads, ids that
// headings of variant v name: the share of its variant's mentions of the
// id that y holds, times the share the id has among y's mentions of v's
// heading ids (a table citing every item centres on none). Ids y's own
// heading names are left out.
func (al *aligner) citedShare(v int, heads []int32, y *alignSec) float64 {
	if len(heads) == 0 || len(y.cites) == 0 {
		return 0
	}
	var all int32 // y's mentions of v's heading ids, its own left out
	for _, c := range y.cites {
		if al.headOf[c.id]&(1<<v) != 0 && !slices.Contains(y.heads, c.id) {
			all += c.n
		}
	}
	best := 0.0
	for _, h := range heads {
		if slices.ContainsFunc(y.heads, func(o int32) bool { return al.family[o] == al.family[h] }) {
			// y's heading names the item (the titles' evidence), or
			// another item of the same list ("FR-2: Logout" saying
			// "unlike FR-1, …"): no citation of an item it is about.
			continue
		}
		if k, ok := slices.BinarySearchFunc(y.cites, h, func(c citeShare, id int32) int { return int(c.id - id) }); ok {
			best = max(best, y.cites[k].share*float64(y.cites[k].n)/float64(all))
		}
	}
	return best
}
