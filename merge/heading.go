package merge

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/internal/words"
)

// A replace keeps the base's heading, its number and its place, but the
// heading's words may describe the text replaced rather than the text
// that now stands under it: "Bug 1 Fix: Agent Mismatch Guard" over a
// variant's fix that restores the agents instead, "Delta 2.1 — Finding is
// accurate" over another reviewer's verdict. So a replace takes the
// source's title where the two titles differ:
//
//   - titles that say nearly the same (a word overlap of refs.SameTitle)
//     keep the base's;
//   - titles that open with an item label of the same kind ("Phase 6." and
//     "Phase 5:", "Bug 1 Fix:" and "Bug 1:") take the source's title under
//     the base's label: the base numbers its items, and its Phase 6 is the
//     source's Phase 5;
//   - titles without labels take the source's;
//   - "Bug 2 Fix:" and "Fix 2:" name one item (the same id, the source's
//     kind a word of the base's label): the base's label, the source's
//     words;
//   - labels of different kinds ("C-1" against "SOL-D") or on one side
//     only keep the base's heading: the variants name their items
//     differently, and the source's name would not fit the base's list.
//
// The base's section number ("3.1") stays in every case.

// itemLabelRE is an item label opening a title: a word and a number or
// letter id ("Phase 6", "Delta 2.5", "NR-7", "SOL-D", "OV-4"), or a
// section sign or capitals glued to a number ("§4.4", "SS4.4"). Its
// first or fourth group is the label's kind.
var itemLabelRE = regexp.MustCompile(`^(?:([A-Za-z]+)(?: (\d+(?:\.\d+)*[a-z]?)|-(\d+(?:\.\d+)*|[A-Z]{1,3}))|(§|[A-Z]{1,3})\d+(?:\.\d+)*)\b`)

// labelKind returns the kind of an item label matched by itemLabelRE.
func labelKind(m []string) string { return m[1] + m[4] }

// replacedTitle returns the title a replace's target takes, given the
// base's title (its section number included) and the source's; false
// when the base's stays.
func replacedTitle(base, src string) (string, bool) {
	b, s := refs.StripNumber(base), strings.TrimSpace(refs.StripNumber(src))
	if s == "" || normTitle(b) == normTitle(s) || words.NewSet(b).Dice(words.NewSet(s)) >= refs.SameTitle {
		return "", false
	}
	prefix := base[:len(base)-len(b)]
	bl, sl := itemLabelRE.FindStringSubmatch(b), itemLabelRE.FindStringSubmatch(s)
	switch {
	case bl == nil && sl == nil:
		return prefix + s, true
	case bl == nil || sl == nil:
		return "", false
	case strings.EqualFold(labelKind(bl), labelKind(sl)):
		label := bl[0]
		if lead, ok := labelLead(b); ok && strings.HasPrefix(lead, bl[0]) && isWord(strings.TrimSpace(lead[len(bl[0]):])) {
			label = lead // "Bug 1 Fix", as the base names its items
		}
		return prefix + label + joinLabel(b[len(label):], s[len(sl[0]):]), true
	}
	// "Bug 2 Fix:" and "Fix 2:" name one item: the same id, and the
	// source's kind is a word of the base's label
	if lead, ok := labelLead(b); ok && labelID(bl) == labelID(sl) && slices.ContainsFunc(strings.Fields(lead), func(w string) bool { return strings.EqualFold(w, labelKind(sl)) }) {
		return prefix + lead + joinLabel(b[len(lead):], s[len(sl[0]):]), true
	}
	return "", false
}

// joinLabel returns what follows the base's label in the new title: the
// source's words after the base's separator ("Phase 6. Polish" for the
// base's "Phase 6. Test hardening" and the source's "Phase 5: Polish" —
// the base's list writes its labels one way), or after the source's own
// when the base has none to give ("Delta 2.1 (spec-patch) — …").
func joinLabel(baseTail, srcTail string) string {
	bsep, srcWords := labelSeparator(baseTail), srcTail[len(labelSeparator(srcTail)):]
	if strings.TrimSpace(bsep) == "" || srcWords == "" {
		return srcTail
	}
	return bsep + srcWords
}

// labelSeparator returns the separator that opens s (": ", ". ",
// " -- ", " — "), or the spaces that do: one mark, so that the words after
// it keep their own ("--resume").
func labelSeparator(s string) string {
	return labelSeparatorRE.FindString(s)
}

var labelSeparatorRE = regexp.MustCompile(`^[ \t]*(?:--|[.:—–-])[ \t]*|^[ \t]*`)

// labelID returns the id of an item label matched by itemLabelRE ("2",
// "2.5", "D").
func labelID(m []string) string { return m[2] + m[3] }

// labelLead returns the short lead of a title up to its separator ("Bug
// 2 Fix" of "Bug 2 Fix: State-Driven Paths"): at most four words.
func labelLead(title string) (string, bool) {
	i := strings.IndexAny(title, ":—")
	if j := strings.Index(title, " -- "); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i <= 0 || len(strings.Fields(title[:i])) > 4 {
		return "", false
	}
	return strings.TrimSpace(title[:i]), true
}

// isWord reports whether s is one word of letters.
func isWord(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
}
