package merge

import (
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/diff"
)

// One topic, one section, also inside what a change brings: a section
// appended or inserted whole (a variant's "Proposed Fixes", a review's
// "Redundancy Check") often holds subsections whose topics the merged
// document has already — the base's own "Fix" under "Bug 1", or the same
// item another change imports. Those subsections are cut from the
// change's text before the merge, and the plan lists each among the
// changes not made, naming where the topic already is.

// pruneAligned cuts from every append and insert the subsections whose
// topic (by the alignment) the base covers or an earlier change imports.
// It runs before any edit of the changes' text.
func pruneAligned(in PlanInput, changes []Change) []Rejection {
	if len(in.Alignment) == 0 {
		return nil
	}
	// topic → where the merged document has it: a base section (the
	// topic's last, as the alignment lists them) or a change. Said in
	// words only for a cut, which few topics see.
	type place struct{ base, change int }
	where := func(p place) string {
		if p.base >= 0 {
			return fmt.Sprintf("%s of the base", refOf(in.Base.Doc, p.base))
		}
		return fmt.Sprintf("change #%d", p.change)
	}
	imported := map[int]place{}
	pos := in.topicSections()
	for t, at := range in.Alignment {
		for k, s := range at.Sections {
			if s.Variant != in.Base.Label {
				continue
			}
			if bi := pos.index(in, t, k, in.Base.Doc); bi >= 0 && in.Base.Doc.Sections[bi].Depth > 0 {
				imported[t] = place{base: bi}
			}
		}
	}
	var out []Rejection
	for i := range changes {
		c := &changes[i]
		v := in.variant(c.Source.Variant.Label)
		if v.Doc == nil {
			continue
		}
		ri, ok := sourceIndex(v, *c)
		if !ok {
			continue
		}
		root := v.Doc.Sections[ri]
		if t, ok := topicOf(in, v, ri); ok {
			if _, seen := imported[t]; !seen {
				imported[t] = place{base: -1, change: c.Number}
			}
		}
		if c.Approach != Append && c.Approach != Insert || c.Source.Text != v.Doc.Text(root.Span) {
			continue
		}
		var cuts []diff.Span
		for si := ri + 1; si < len(v.Doc.Sections) && root.Span.Contains(v.Doc.Sections[si].Span); si++ {
			s := v.Doc.Sections[si]
			if len(cuts) > 0 && cuts[len(cuts)-1].Contains(s.Span) {
				continue // inside a subsection already cut
			}
			t, ok := topicOf(in, v, si)
			if !ok {
				continue
			}
			there, seen := imported[t]
			if !seen {
				imported[t] = place{base: -1, change: c.Number}
				continue
			}
			cuts = append(cuts, s.Span)
			out = append(out, Rejection{Point: pointOrDash(c.Rationale.Point), Topic: in.Alignment[t].Title,
				NonBase: fmt.Sprintf("Variant %s: %s", v.Label, refOf(v.Doc, si)),
				Rationale: fmt.Sprintf("Not imported with change #%d: its topic is already in the merged document as %s, and one topic has one section.",
					c.Number, where(there))})
		}
		if len(cuts) == 0 {
			continue
		}
		var b strings.Builder
		at := root.Span.Start
		for _, cut := range cuts {
			b.WriteString(v.Doc.Source[at:cut.Start])
			at = cut.End
		}
		b.WriteString(v.Doc.Source[at:root.Span.End])
		c.Source.Text = b.String()
		c.Integration += fmt.Sprintf(" Without %d subsection(s) whose topics the merged document already has.", len(cuts))
	}
	return out
}

// hollowWords is the most words a section's own text may have for the
// section to be hollow once its subsections are cut: an introduction,
// not a topic.
const hollowWords = 12

// dropHollow removes the appends and inserts of sections that would be a
// heading over nothing in the merged document: every subsection's topic
// is one the base covers (pruneAligned would cut them all) and the
// section's own text is at most hollowWords words ("## Fault 5: …" over
// its only subsection, aligned with the base's "Step 2"). It runs before
// the changes are numbered, so it decides on the base alone.
func dropHollow(in PlanInput, changes []Change) ([]Change, []Rejection) {
	if len(in.Alignment) == 0 {
		return changes, nil
	}
	var kept []Change
	var out []Rejection
	for _, c := range changes {
		if where, ok := hollow(in, c); ok {
			out = append(out, notMade(c, fmt.Sprintf("Not added: the topics of its subsections are in the base already (%s), and without them it is a heading over an introduction.", where)))
			continue
		}
		kept = keepChange(kept, changes, c)
	}
	return kept, out
}

// hollow reports whether c adds a section whose subsections all cover
// topics of the base and whose own text is at most hollowWords words, and
// names the base sections that cover them.
func hollow(in PlanInput, c Change) (string, bool) {
	if c.Approach != Append && c.Approach != Insert {
		return "", false
	}
	v := in.variant(c.Source.Variant.Label)
	if v.Doc == nil {
		return "", false
	}
	si, ok := sourceIndex(v, c)
	if !ok || c.Source.Text != v.Doc.Text(v.Doc.Sections[si].Span) {
		return "", false
	}
	s := v.Doc.Sections[si]
	if len(s.Children) == 0 {
		return "", false
	}
	var where []string
	for _, k := range s.Children {
		b := alignedIn(in, v)(k)
		if b < 0 {
			return "", false
		}
		where = append(where, refOf(in.Base.Doc, b).String())
	}
	own := 0
	for _, line := range strings.Split(v.Doc.Text(ownSpan(v.Doc, si)), "\n") {
		if t := strings.TrimSpace(line); t != "---" && t != "***" && t != "___" {
			own += len(strings.Fields(t))
		}
	}
	if own > hollowWords {
		return "", false
	}
	return strings.Join(where, ", "), true
}
