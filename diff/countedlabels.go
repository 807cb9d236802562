package diff

import (
	"fmt"
	"regexp"
	"strings"
)

// A summary that counts the items a review judged one way and names them
// ("| Redundancies found | 3 (NR-3 partially, NR-5 partially, NR-7 fully)
// |") can be checked against the judgements themselves: an item the body
// labels so ("**Assessment: PARTIALLY REDUNDANT.**" under "NR-6 — …") that
// the summary leaves out says the summary and the body disagree on which
// items were found. The rule reads only a count whose label names what it
// counts in one word, a value that is a whole number followed by a list
// of ids in parentheses, and labelled fields whose label has a word of
// the same root ("redundancies", "REDUNDANT") and no negation.

// countedListValue is a count followed by the ids it counts: "3 (NR-3
// partially, NR-5 partially, NR-7 fully)", "**2** (T1, T4)".
var countedListValue = regexp.MustCompile(`^\**(\d+)\**\s*\(([^()]*)\)\.?$`)

// countedListID is one entry of such a list: an id, then at most three
// words about it ("NR-3 partially", "Delta 2.1").
var countedListID = regexp.MustCompile(`^(?:([A-Za-z]{1,12})[-_ ]?)?(\d+(?:\.\d+)*)(?:\s+[A-Za-z]+){0,3}$`)

// negatingLabelWords deny the word they precede in a label: "NOT
// REDUNDANT" is not counted among the redundancies.
var negatingLabelWords = wordSet("not", "non", "no", "never")

// sameRoot reports whether two words share a root long enough to be one
// word in two forms: "redundancies" and "redundant", "rejections" and
// "rejected". Six letters at least, and most of the shorter word.
func sameRoot(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n >= 6 && float64(n) >= 0.6*float64(min(len(a), len(b)))
}

// mayListCount reports whether countedListValue could match the value
// read as countedLists reads it (fldPlain, trimmed): the expression needs
// a digit and a parenthesis, which fldPlain only keeps or drops.
func mayListCount(value string) bool {
	return strings.IndexByte(value, '(') >= 0 && containsDigit(value)
}

type countedList struct {
	claim Claim
	label string // as written, markup removed
	word  string // the one word naming what is counted
	ids   map[string]bool
}

// countedLists finds a document's counts that list what they count, in
// labelled lines and in two-column count tables.
func countedLists(d *Document, v int) []countedList {
	var out []countedList
	add := func(label, value string, at countAt) {
		if !mayListCount(value) {
			return
		}
		m := countedListValue.FindStringSubmatch(strings.TrimSpace(fldPlain(value)))
		if m == nil {
			return
		}
		ids := map[string]bool{}
		series := ""
		for _, seg := range strings.Split(m[2], ",") {
			im := countedListID.FindStringSubmatch(strings.TrimSpace(seg))
			if im == nil {
				return // prose in the parentheses: not a list of ids
			}
			if im[1] != "" {
				series = im[1]
			}
			num := fldParseNum(im[2])
			ids[itemIDKey(series, num)] = true
			ids[bareIDKey(itemIDKey("", num))] = true
		}
		var content []string
		for _, w := range strings.Fields(fldStripParens(fldPlain(label))) {
			w = strings.ToLower(strings.Trim(w, ".,;:!?\"'"))
			if w != "" && !countNoise[w] && hasLetter(w) {
				content = append(content, w)
			}
		}
		if len(content) != 1 || len(content[0]) < 6 {
			return
		}
		out = append(out, countedList{claim: at.claim(), label: strings.TrimSpace(fldPlain(label)), word: content[0], ids: ids})
	}
	eachLabelledCount(d, v, add)
	return out
}

// labelNames reports whether a field's label carries a word of the root
// of word, not negated: "PARTIALLY REDUNDANT" names redundancies, "NOT
// REDUNDANT" does not.
func labelNames(label, word string) bool {
	toks := strings.Fields(strings.ToLower(strings.ReplaceAll(label, "_", " ")))
	for i, t := range toks {
		if sameRoot(strings.Trim(t, ".,;:!?"), word) {
			return i == 0 || !negatingLabelWords[toks[i-1]]
		}
	}
	return false
}

// detectCountedLabels reports, within each variant, a count that lists
// its items and leaves out items the document labels with the word it
// counts.
func detectCountedLabels(in DetectInput) []Contradiction {
	var out []Contradiction
	for v, d := range in.Documents {
		lists := countedLists(d, v)
		if len(lists) == 0 {
			continue
		}
		refs := docFieldRefs(d)
		for _, cl := range lists {
			var missing []Claim
			var names []string
			seen := map[string]bool{}
			for _, r := range refs {
				if r.Form == FormTable || r.norm.kind != fvEnum || r.Line == cl.claim.Line || !labelNames(r.norm.label, cl.word) {
					continue
				}
				if len(r.key.ids) == 0 {
					continue
				}
				listed := false
				for _, id := range r.key.ids {
					k := itemIDKey(id.prefix, id.num)
					listed = listed || cl.ids[k] || cl.ids[bareIDKey(k)]
				}
				first := itemIDKey(r.key.ids[0].prefix, r.key.ids[0].num)
				if listed || seen[first] {
					continue
				}
				seen[first] = true
				prefix, num, _ := strings.Cut(first, ":")
				if prefix != "" {
					num = strings.ToUpper(prefix) + "-" + num
				}
				names = append(names, num)
				missing = append(missing, Claim{Variant: v, Section: r.Section, Block: -1, Line: r.Line,
					Text: r.Name + ": " + r.Value, Quote: strings.TrimSpace(r.Quote), Type: Factual})
				if len(missing) == maxUnlisted {
					break
				}
			}
			if len(missing) == 0 {
				continue
			}
			c := Contradiction{Kind: NumericConflict, Impact: Medium,
				Subject: "the items counted as “" + cl.label + "”",
				Key:     "counted-label:" + cl.word,
				Reason: fmt.Sprintf("the count lists its items but leaves out %s, which the document itself labels %s",
					strings.Join(names, ", "), cl.word),
				Claims: append([]Claim{cl.claim}, missing...)}
			sortClaims(c.Claims)
			out = append(out, c)
		}
	}
	return dedupeByKey(out)
}
