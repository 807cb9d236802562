package adversarial

import (
	"fmt"
	"strings"
)

// skippedSelection is base-selection.md when scoring was skipped: the first
// variant in input order is the base, as the seed's error matrix says.
func skippedSelection(x *run) string {
	var b strings.Builder
	a := x.res.Steps.Analysis
	b.WriteString("# Base Selection Report\n\n")
	fmt.Fprintf(&b, "Scoring skipped: the variants are substantially identical (%d differences across %d comparable items, under 10%%).\n\n",
		a.Similarity.Differences, a.Similarity.Comparable)
	fmt.Fprintf(&b, "## Selected Base: Variant %s (%s)\n\n### Selection Rationale\n\n", label(0), x.agentOf(0))
	b.WriteString("The variants say the same thing, so any of them serves as the base; the first in input order is selected, which keeps the choice deterministic.\n\n")
	b.WriteString("**Approval**: Auto-approved\n\n### Strengths to Preserve from Base\n\n1. The whole variant: the others add nothing it lacks.\n\n")
	b.WriteString("### Strengths to Incorporate from Non-Base Variants\n\nNone: the variants are substantially identical.\n")
	return b.String()
}
