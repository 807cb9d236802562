package merge

import (
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/internal/refs"
)

// Once every change is applied, the merged document's headings are
// numbered in the base's style, as one document. Numbering section by
// section as changes land cannot do this: a section appended between two
// numbered siblings has no free number ("## 9. Purpose" in one place,
// "## Security" in the next), and nothing after an insertion moves up.
//
// The rule, per list of sibling sections:
//
//   - the list is numbered when at least half of the base's sections in it
//     carry an explicit number; a list with no base section in it (the
//     subsections of an incorporated section) is numbered when its parent
//     is;
//   - in a numbered list every incorporated section and every base section
//     that had a number is numbered in order, from the base's first number
//     (so "0." stays the start where the base starts there), under the
//     parent's new number when the base nested its numbers ("2.1" under
//     "2."); base sections without a number keep none;
//   - in an unnumbered list, incorporated sections lose their numbers.
//
// A base heading whose number changes is tagged "Base (original,
// modified) — renumbered from N to M". The numbers each section had
// before (its base number, or its number in its variant) are kept, so that
// references can follow the sections they point at (see references.go).

// numberStyle is how a numbered list writes its numbers: the text before
// the number ("Section ", "§"), the separator after it (". ", " ", ": ").
type numberStyle struct{ lead, sep string }

// renumbering is what the renumbering did: for each node, the number it
// had before (base or variant numbering) and the number it has now.
type renumbering struct {
	before map[*node]string
	after  map[*node]string
}

// renumber numbers the tree's headings in the base's style.
func (r *run) renumber() renumbering {
	rn := renumbering{before: map[*node]string{}, after: map[*node]string{}}
	r.tree.walk(func(n *node) {
		if n.origin >= 0 {
			num, _, _, _ := refs.HeadingNumber(r.in.Base.Sections[n.origin].Title)
			rn.before[n] = num
		} else if n.attr.Origin == Incorporated {
			rn.before[n] = n.attr.Section.Number
		}
	})
	levels := r.baseLevelStyles()
	r.renumberList(nil, r.tree.roots, levels, rn)
	r.tree.walk(func(n *node) { rn.after[n] = n.number() })
	return rn
}

// baseLevelStyles returns, per heading level, the numbering style of the
// base's numbered headings at that level; a level with no numbered
// heading in the base is absent.
func (r *run) baseLevelStyles() map[int]numberStyle {
	out := map[int]numberStyle{}
	for _, s := range r.in.Base.Sections {
		if _, ok := out[s.Level]; ok {
			continue
		}
		if _, start, _, ok := refs.HeadingNumber(s.Title); ok {
			out[s.Level] = numberStyle{lead: s.Title[:start], sep: numberSep(s.Title)}
		}
	}
	return out
}

func (r *run) renumberList(parent *node, kids []*node, levels map[int]numberStyle, rn renumbering) {
	if len(kids) > 0 {
		r.numberList(parent, kids, levels, rn)
	}
	for _, k := range kids {
		r.renumberList(k, k.kids, levels, rn)
	}
}

func (r *run) numberList(parent *node, kids []*node, levels map[int]numberStyle, rn renumbering) {
	var base, numbered []*node
	for _, k := range kids {
		if k.origin >= 0 {
			base = append(base, k)
			if rn.before[k] != "" {
				numbered = append(numbered, k)
			}
		}
	}
	parentNum := ""
	if parent != nil {
		parentNum = parent.number()
	}
	style, hasStyle := levels[kids[0].level]
	var on bool
	prefix, start := "", 1
	switch {
	case len(base) > 0:
		on = 2*len(numbered) >= len(base) && len(numbered) > 0
		if on {
			first := rn.before[numbered[0]]
			style = numberStyle{lead: leadOf(numbered[0].title), sep: numberSep(numbered[0].title)}
			oldParent := ""
			if parent != nil {
				oldParent = rn.before[parent]
			}
			switch {
			case oldParent != "" && strings.HasPrefix(first, oldParent+"."):
				if parentNum == "" {
					return // the parent lost its number: leave the list as it is
				}
				prefix = parentNum + "."
			case !strings.Contains(first, "."):
			default:
				return // numbered in a way this rule does not know: leave it
			}
			// from the base's first number, whatever order a restructure left
			start = -1
			for _, k := range numbered {
				b := rn.before[k]
				v, err := strconv.Atoi(b[strings.LastIndexByte(b, '.')+1:])
				if err == nil && (start < 0 || v < start) {
					start = v
				}
			}
			start = max(start, 0)
		}
	case parentNum != "":
		// subsections of an incorporated section, or the first ones of a
		// base section: numbered under a numbered parent
		on, prefix = true, parentNum+"."
		if !hasStyle {
			// a level the base never numbers: dotted numbers as the
			// parent's level writes them ("4.2 Context" → "4.2.1 …"),
			// else a space
			style = numberStyle{sep: " "}
			if ps, ok := levels[parent.level]; ok && strings.Contains(parentNum, ".") {
				style = numberStyle{sep: ps.sep}
			}
		}
	default:
		on = hasStyle && parent == nil
	}
	next := start
	for _, k := range kids {
		switch {
		case !on:
			if k.origin < 0 {
				setNumber(k, "", style)
			}
		case k.origin >= 0 && rn.before[k] == "":
			// a base section the base left unnumbered stays so
		default:
			want := prefix + strconv.Itoa(next)
			next++
			if k.origin < 0 {
				// an incorporated heading takes the list's style too,
				// not only its number ("4.2.1." from a source's "8.")
				restyle(k, style)
			}
			if k.number() != want {
				old := k.number()
				setNumber(k, want, style)
				if k.origin >= 0 && k.number() == want {
					k.markModified("renumbered from " + old + " to " + want)
				}
			}
		}
	}
}

// leadOf returns the text before a heading's number ("Section ", "§").
func leadOf(title string) string {
	if _, start, _, ok := refs.HeadingNumber(title); ok {
		return title[:start]
	}
	return ""
}

// setNumber rewrites n's heading to carry number num ("" for none) in
// style. A heading whose source and plain text disagree on the number
// (markup around it) is left alone.
func setNumber(n *node, num string, style numberStyle) {
	raw := atxText(n.heading)
	rawNum, rawStart, rawRest, rawOK := refs.HeadingNumber(raw)
	plainNum, plainStart, plainRest, plainOK := refs.HeadingNumber(n.title)
	if rawOK != plainOK || rawNum != plainNum {
		return
	}
	edit := func(s string, start, rest int, ok bool) string {
		switch {
		case ok && num == "":
			if rest >= len(s) {
				return s // nothing but a number: keep it rather than leave an empty heading
			}
			return s[rest:]
		case ok:
			return s[:start] + num + s[start+len(rawNum):]
		case num == "":
			return s
		}
		sep := style.sep
		if sep == "" {
			sep = " "
		}
		return style.lead + num + sep + s
	}
	text := edit(raw, rawStart, rawRest, rawOK)
	if text == raw {
		return
	}
	n.heading = atxHeading(n.level, text)
	n.title = edit(n.title, plainStart, plainRest, plainOK)
}

// restyle rewrites the separator after n's heading number to style's:
// a section incorporated from a variant keeps its number's punctuation
// otherwise ("8. Trade-Off" inserted as "4.2.1. Trade-Off" beside the
// base's "4.2 Context"). Headings whose source and plain text disagree
// on the number are left alone, as by setNumber.
func restyle(n *node, style numberStyle) {
	if style.sep == "" {
		return
	}
	raw := atxText(n.heading)
	rawNum, rawStart, rawRest, rawOK := refs.HeadingNumber(raw)
	plainNum, plainStart, plainRest, plainOK := refs.HeadingNumber(n.title)
	if !rawOK || !plainOK || rawNum != plainNum || rawRest >= len(raw) || plainRest >= len(n.title) {
		return
	}
	edit := func(s string, start, rest int) string {
		return s[:start] + rawNum + style.sep + s[rest:]
	}
	text := edit(raw, rawStart, rawRest)
	if text == raw {
		return
	}
	n.heading = atxHeading(n.level, text)
	n.title = edit(n.title, plainStart, plainRest)
}

// markModified tags a base section as modified, adding reason to any
// earlier one; incorporated sections keep their tag.
func (n *node) markModified(reason string) {
	switch n.attr.Origin {
	case BaseOriginal, "":
		n.attr = Attribution{Origin: BaseModified, Reason: reason}
	case BaseModified:
		n.attr.Reason += "; " + reason
	}
}
