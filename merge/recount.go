package merge

import (
	"strings"

	"github.com/crucible-go/crucible/diff"
)

// A merge that resolves a review table's values to other variants', or
// brings a variant's table with the summary under it, leaves a sentence
// that counted the table's rows — "4 items are rated too HIGH, 2 items
// are rated correctly HIGH" — counting a table that no longer holds
// those ratings. The re-scan would report it as a contradiction the merge
// introduced. The table is the evidence and the count is arithmetic, so
// the merge restates the count from the table (see diff.Recounts) and
// the log lists each restatement. A count the base already got wrong in
// the same way is the base's, left to validation like the base's other
// contradictions.

// Recounted is a count the merge restated from the table it counts.
type Recounted struct {
	Section string `json:"section"` // the merged section holding the sentence
	Before  string `json:"before"`  // "4 items are rated too HIGH"
	After   string `json:"after"`   // "5 items are rated too HIGH"
	Reason  string `json:"reason"`  // what the table gives
}

// recount restates the stale counts of the merged tree's re-rating
// tallies in the sections' own text.
func (r *run) recount() []Recounted {
	// only a sentence saying how many items "are rated" counts a table's
	// re-ratings: without one, no second parse of the merged text
	rated := false
	r.tree.walk(func(n *node) {
		rated = rated || strings.Contains(n.own, " rated ") || strings.Contains(n.own, " Rated ") || strings.Contains(n.own, " RATED ")
	})
	if !rated {
		return nil
	}
	plain, own := r.tree.renderPlain()
	plain = trimFinal(plain)
	doc, err := diff.Parse("merged", []byte(plain))
	if err != nil || doc.Source != plain {
		return nil // the lines would not map back to the sections' text
	}
	found := diff.Recounts(doc)
	if len(found) == 0 {
		return nil
	}
	inBase := map[string]bool{}
	for _, rc := range diff.Recounts(r.in.Base) {
		inBase[rc.Said+"\x00"+rc.Count] = true
	}
	lineStart := lineOffsets(plain)
	var nodes []*node
	r.tree.walk(func(n *node) { nodes = append(nodes, n) })
	var out []Recounted
	for _, rc := range found {
		if inBase[rc.Said+"\x00"+rc.Count] || rc.Line < 1 || rc.Line > len(lineStart) {
			continue
		}
		at := lineStart[rc.Line-1]
		for _, n := range nodes {
			start, ok := own[n]
			if !ok || at < start || at >= start+len(n.own) {
				continue
			}
			i := strings.Index(n.own[at-start:], rc.Said)
			if i < 0 {
				break
			}
			i += at - start
			n.own = n.own[:i] + rc.Count + n.own[i+len(rc.Said):]
			if n.attr.Origin == BaseOriginal || n.attr.Origin == BaseModified {
				reason := "a count restated from its table"
				if n.attr.Origin == BaseModified && n.attr.Reason != "" {
					reason = n.attr.Reason + "; " + reason
				}
				n.attr = Attribution{Origin: BaseModified, Reason: reason}
			}
			out = append(out, Recounted{Section: n.title, Before: rc.Said, After: rc.Count, Reason: rc.Reason})
			break
		}
	}
	return out
}

// lineOffsets returns the byte offset at which each line of s starts.
func lineOffsets(s string) []int {
	out := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && i+1 < len(s) {
			out = append(out, i+1)
		}
	}
	return out
}
