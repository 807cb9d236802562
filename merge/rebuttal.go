package merge

import (
	"fmt"
	"regexp"
	"strings"
)

// Variants written for an adversarial review often name one another by
// the designation their titles give them ("Proposal A — …", "Variant 2:
// …") and argue against each other in sections of their own: "Why not
// Proposal A's choice", "Where Variant 1 goes wrong". Such a section is an
// argument about one of the variants, not content of the document they
// all describe: in the merged document, which is none of the variants, it
// would criticise a "Proposal A" the reader no longer has — and often the
// very choices the merge took from it. Its argument belongs to the debate,
// which has already weighed it. So it is not taken; it is listed among
// the changes not being made, with the variant it names.
//
// Only the designations the variants' own titles use count, so that
// "Option A" in a document that weighs options A–D is content as usual.

// designationRE finds a designation in a title or heading: "Proposal A",
// "Variant 2".
var designationRE = regexp.MustCompile(`(?i)\b(variant|proposal|position|option|alternative)[ \t]+([A-Z0-9]{1,2})\b`)

// designations maps each designation a variant's title opens with
// ("proposal a", lower case) to that variant's reference.
func designations(in PlanInput) map[string]VariantRef {
	out := map[string]VariantRef{}
	for _, v := range append([]Variant{in.Base}, in.Variants...) {
		if v.Doc == nil {
			continue
		}
		m := variantPrefixRE.FindString(v.Doc.Title)
		if m == "" {
			continue
		}
		if d := designationRE.FindStringSubmatch(m); d != nil {
			out[strings.ToLower(d[1]+" "+d[2])] = v.Ref()
		}
	}
	return out
}

// dropRebuttals removes the changes whose source section's heading names
// another variant by its designation, and returns them as rejections.
func dropRebuttals(in PlanInput, changes []Change) ([]Change, []Rejection) {
	names := designations(in)
	if len(names) < 2 { // one variant named so: nothing to argue with
		return changes, nil
	}
	byLabel := map[string]Variant{}
	for _, v := range in.Variants {
		byLabel[v.Label] = v
	}
	var kept []Change
	var out []Rejection
	for _, c := range changes {
		named, ok := rebuttalOf(c, byLabel, names)
		if !ok {
			kept = keepChange(kept, changes, c)
			continue
		}
		out = append(out, notMade(c, fmt.Sprintf("Not taken: the section argues about %s (%s), one of the variants under review; the merged document is none of them, and the argument is the debate's to weigh, not content of the document.",
			named.designation, named.ref)))
	}
	return kept, out
}

type namedVariant struct {
	designation string
	ref         VariantRef
}

// rebuttalOf reports the variant, other than its own, that a change's
// source section names in its heading, or in the heading of a section it
// stands under.
func rebuttalOf(c Change, byLabel map[string]Variant, names map[string]VariantRef) (namedVariant, bool) {
	v, ok := byLabel[c.Source.Variant.Label]
	if !ok || v.Doc == nil {
		return namedVariant{}, false
	}
	sec, ok := sourceIndex(v, c)
	if !ok {
		return namedVariant{}, false
	}
	for s := sec; s >= 0 && v.Doc.Sections[s].Depth > 0; s = v.Doc.Sections[s].Parent {
		for _, m := range designationRE.FindAllStringSubmatch(v.Doc.Sections[s].Title, -1) {
			d := strings.ToLower(m[1] + " " + m[2])
			if ref, ok := names[d]; ok && ref.Label != v.Label {
				return namedVariant{designation: m[0], ref: ref}, true
			}
		}
	}
	return namedVariant{}, false
}
