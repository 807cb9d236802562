package merge

import (
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/diff"
)

// Two variants can be rival proposals: each opens by stating its choice
// ("One subprocess per phase" / "One subprocess per task") and the rest of
// it argues for that choice — how it solves the problem, the arguments for
// it, the weaknesses it concedes, the work it takes. When step 1 reports
// the choice as an exclusive conflict and the base's choice wins, the
// rival's sections are about the choice the merged document does not
// make. Under the base's headings ("Arguments For This Approach",
// "Acknowledged Weaknesses", "Implementation Complexity") they would read
// as statements about the base's choice: the loser's pro-arguments as
// support for the winner, its conceded weaknesses as the winner's, its
// cost table as the winner's cost. So none of them is taken; each is
// listed among the changes not being made, with the choice that lost and
// the rule that decided it.
//
// A variant is a rival only when it states the losing choice in its lead
// (the text under its title, before its first section): a choice stated
// in one section of a document about several questions ("T2 — Gate
// semantics: Choice") loses that section's value only, which
// resolveConflicts handles.

// dropRival removes the changes whose source variant is a rival proposal
// whose choice lost to the base's, and returns them as rejections.
func dropRival(in PlanInput, changes []Change) ([]Change, []Rejection) {
	lost := rivals(in)
	if len(lost) == 0 {
		return changes, nil
	}
	var kept []Change
	var out []Rejection
	for _, c := range changes {
		k, ok := lost[c.Source.Variant.Label]
		if !ok {
			kept = keepChange(kept, changes, c)
			continue
		}
		out = append(out, notMade(c, fmt.Sprintf("Not taken: %s is a rival proposal — it opens with %s, the choice that lost to the base's %s (%s; %s). This section argues for or describes that choice; under the base's headings it would read as a statement about the choice the merged document makes.",
			c.Source.Variant, quoteValue(k.loser), quoteValue(k.winner), pointOrSubject(k.conflict), k.conflict.Rule)))
	}
	return kept, out
}

// rivalLoss is the exclusive conflict a rival lost, with the values.
type rivalLoss struct {
	conflict      ResolvedConflict
	loser, winner string
}

// rivals maps each rival proposal's label to the first exclusive conflict
// it lost to the base with a choice stated in its lead.
func rivals(in PlanInput) map[string]rivalLoss {
	out := map[string]rivalLoss{}
	for _, k := range in.Conflicts {
		if !k.Exclusive || k.Winner != in.Base.Label {
			continue
		}
		won := ""
		for _, v := range k.Values {
			if v.Variant == k.Winner {
				won = v.Value
				break
			}
		}
		for _, v := range k.Values {
			if v.Variant == k.Winner || v.Variant == in.Base.Label {
				continue
			}
			if _, seen := out[v.Variant]; seen {
				continue
			}
			d := in.variant(v.Variant).Doc
			text := v.Text
			if text == "" {
				text = v.Value
			}
			if d != nil && inLead(d, text) {
				out[v.Variant] = rivalLoss{conflict: k, loser: v.Value, winner: won}
			}
		}
	}
	return out
}

// inLead reports whether text (whitespace aside) is stated in d's lead:
// the title and the text under it before its first section.
func inLead(d *diff.Document, text string) bool {
	want := strings.Join(strings.Fields(text), " ")
	if want == "" {
		return false
	}
	end := len(d.Source)
	for _, s := range d.Sections {
		if s.Depth > 0 {
			end = s.Span.Start
			break
		}
	}
	return strings.Contains(strings.Join(strings.Fields(d.Source[:end]), " "), want)
}

func quoteValue(v string) string { return "“" + strings.TrimSpace(v) + "”" }

func pointOrSubject(k ResolvedConflict) string {
	if k.Point != "" {
		return k.Point
	}
	return k.Subject
}
