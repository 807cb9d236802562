package merge

import "fmt"

// Successive revisions: when the base is the later revision of an
// earlier variant, every section the earlier one has and the later one
// lacks went out in the revision — dropped, or consolidated into another
// section ("Task 3.1 … (CONSOLIDATED)" standing for the earlier Tasks
// 3.1–3.3). Adding such a section back beside the revision's own would
// state the superseded version next to the one that replaced it, so the
// plan does not: an append or insert from an earlier revision into the
// later one is listed among the changes not being made. Changes that
// rewrite a base section the earlier revision also has (a debate won on
// the section's content) stay: the debate may decide against the
// revision.

// dropRevised removes the appends and inserts that would bring a section
// of an earlier revision into its later revision, the base.
func dropRevised(in PlanInput, changes []Change) ([]Change, []Rejection) {
	if in.LaterRevision == "" || in.LaterRevision != in.Base.Label {
		return changes, nil
	}
	var kept []Change
	var out []Rejection
	for _, c := range changes {
		if c.Approach != Append && c.Approach != Insert || c.Source.Variant.Label == in.Base.Label {
			kept = keepChange(kept, changes, c)
			continue
		}
		out = append(out, notMade(c, fmt.Sprintf("Not added back: the base, Variant %s, is the later revision and has no such section — the revision dropped or consolidated it.",
			in.Base.Label)))
	}
	return kept, out
}
