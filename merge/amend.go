package merge

import (
	"fmt"
	"strings"
)

// An Amendment edits the base's own text so that it states a conflict's
// winning value: the base gives a value another variant won (a verdict the
// majority does not share, a superseded estimate), and no change replaces
// the text that states it. Changes import sections; amendments correct
// the base where it stays, so the merged document states one value.
type Amendment struct {
	Point   string     `json:"point,omitempty"` // diff point id, if any
	Subject string     `json:"subject"`
	Section SectionRef `json:"section"` // the base section holding Old
	// Old is the base's exact text; New is the same text stating the
	// winning value.
	Old  string `json:"old"`
	New  string `json:"new"`
	Rule string `json:"rule"` // why the winner won, as the conflict says
}

// AmendmentResult is what became of an amendment.
type AmendmentResult struct {
	Amendment Amendment `json:"amendment"`
	Applied   bool      `json:"applied"`
	// Note says where it was applied, or why not (a change replaced the
	// text already).
	Note string `json:"note"`
}

// baseAmendments finds, for a value the base states and lost, the base
// text to amend.
func baseAmendments(in PlanInput, k ResolvedConflict, lose, win ConflictValue) (Amendment, bool) {
	d := in.Base.Doc
	if d == nil || lose.Text == "" {
		return Amendment{}, false
	}
	at := strings.Index(d.Source, lose.Text) // one scan: the value is the base's, so usually found
	if at < 0 {
		return Amendment{}, false
	}
	// A labelled value and its rationale move together: when both
	// variants state it on a line of the same form ("**Verdict**: …"),
	// the base's line becomes the winner's.
	text, ok := win.Text, sameLabel(lose, win)
	if !ok {
		text, ok = stateWinner(lose.Text, lose, win)
	}
	if !ok || text == lose.Text {
		return Amendment{}, false
	}
	a := Amendment{Point: k.Point, Subject: k.Subject, Old: lose.Text, New: text, Rule: k.Rule}
	for _, s := range d.Sections {
		if s.Span.Start <= at && at < s.Span.End {
			a.Section = SectionRef{Number: s.Number, Title: s.Title} // the innermost: later sections nest deeper
		}
	}
	return a, true
}

// amend applies the plan's amendments to the text of the merged tree:
// each replaces its Old text once, in the section's own text where the
// base section still stands, and marks that section modified.
//
// Most amendments find nothing (a change replaced their text), so each
// base node's text has a gramSet: a node whose set rules the old text out
// is not searched. The tree's shape does not change here, only the text
// of the node hit, whose set is rebuilt.
func (r *run) amend() []AmendmentResult {
	if len(r.in.Plan.Amendments) == 0 {
		return nil
	}
	var nodes []*node // the base's nodes, in walk order
	r.tree.walk(func(n *node) {
		if n.origin >= 0 {
			nodes = append(nodes, n)
		}
	})
	grams := make([]gramSet, len(nodes))
	for i, n := range nodes {
		grams[i] = newGramSet(n.own)
	}
	var out []AmendmentResult
	for _, a := range r.in.Plan.Amendments {
		res := AmendmentResult{Amendment: a, Note: "not applied: a change replaced the text that stated the losing value"}
		var hit *node
		at := -1
		for i, n := range nodes {
			if grams[i].mayContain(a.Old) && strings.Contains(n.own, a.Old) {
				hit, at = n, i
				break
			}
		}
		if hit != nil {
			if a.New == "" {
				hit.own, _ = restate(hit.own, a.Old, "") // the statement goes, with its line when it is one
			} else {
				hit.own = strings.Replace(hit.own, a.Old, a.New, 1)
			}
			grams[at] = newGramSet(hit.own)
			reason := fmt.Sprintf("states the winning value of %s (%s)", a.Subject, a.Rule)
			if hit.attr.Origin == BaseOriginal || hit.attr.Origin == BaseModified {
				if hit.attr.Origin == BaseModified && hit.attr.Reason != "" {
					reason = hit.attr.Reason + "; " + reason
				}
				hit.attr = Attribution{Origin: BaseModified, Reason: reason}
			}
			res.Applied, res.Note = true, fmt.Sprintf("applied in %q", hit.title)
		}
		out = append(out, res)
	}
	return out
}

// sameLabel reports whether two values are stated after the same label:
// the text before the value is the same, markup and spacing aside, and
// not empty.
func sameLabel(a, b ConflictValue) bool {
	i, j := strings.Index(a.Text, a.Value), strings.Index(b.Text, b.Value)
	if i <= 0 || j <= 0 || strings.Contains(b.Text, "\n") {
		return false
	}
	return sameLabelText(a.Text[:i], b.Text[:j]) // "**Verdict**: " is "**Verdict: "
}

// sameLabelText reports whether two label texts are equal and not empty
// once emphasis marks and spaces are left out, without building either.
func sameLabelText(a, b string) bool {
	skip := func(c byte) bool { return c == '*' || c == '_' || c == ' ' }
	i, j, n := 0, 0, 0
	for {
		for i < len(a) && skip(a[i]) {
			i++
		}
		for j < len(b) && skip(b[j]) {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b) && n > 0
		}
		if a[i] != b[j] {
			return false
		}
		i, j, n = i+1, j+1, n+1
	}
}

// valuesNotTaken lists the plan's losing values.
func valuesNotTaken(p Plan) []Rejection {
	n := 0 // thousands in a large plan: counted, then copied once
	for _, r := range p.Rejected {
		if r.Value {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]Rejection, 0, n)
	for _, r := range p.Rejected {
		if r.Value {
			out = append(out, r)
		}
	}
	return out
}
