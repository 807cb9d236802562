package scoring

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/crucible-go/crucible/internal/words"
)

// Markdown renders base-selection.md as ARTIFACTS.md lays it out:
// quantitative table, one CEV table per rubric dimension and the
// qualitative summary, the position-bias log, the combined scores with the
// margin and tiebreaker, and the selected base with its rationale and the
// strengths to preserve and to incorporate. The rendering depends only on
// the scorecard.
func (s *Scorecard) Markdown() string {
	var b strings.Builder
	b.WriteString("# Base Selection Report\n\n")
	for _, w := range s.Warnings {
		fmt.Fprintf(&b, "> Warning: %s.\n", strings.TrimSuffix(w, "."))
	}
	if len(s.Warnings) > 0 {
		b.WriteString("\n")
	}
	s.renderQuant(&b)
	s.renderQual(&b)
	s.renderBias(&b)
	s.renderCombined(&b)
	s.renderSelection(&b)
	return b.String()
}

func (s *Scorecard) renderQuant(b *strings.Builder) {
	b.WriteString("## Quantitative Scoring (50% weight)\n\n")
	head := []string{"Metric", "Weight"}
	for _, v := range s.Variants {
		head = append(head, v.Spec())
	}
	tableHead(b, head...)
	names := [...]string{"requirement_coverage", "internal_consistency", "specificity_ratio", "dependency_completeness", "section_coverage"}
	weights := [...]float64{WeightRC, WeightIC, WeightSR, WeightDC, WeightSC}
	for mi := range names {
		row := []string{names[mi], fmt.Sprintf("%.2f", weights[mi])}
		for _, v := range s.Variants {
			m := v.Quant.Metrics()[mi]
			row = append(row, fmt.Sprintf("%.2f (%s)", m.Score, m.Detail))
		}
		tableRow(b, row...)
	}
	row := []string{"**quant_score**", ""}
	for _, v := range s.Variants {
		row = append(row, fmt.Sprintf("**%.2f**", v.Quant.Score))
	}
	tableRow(b, row...)
	b.WriteString("\n")
	fmt.Fprintf(b, "Requirement coverage is measured against %s.\n\n", s.referenceText())
}

func (s *Scorecard) referenceText() string {
	n := len(s.Reference.Items)
	unit := s.Reference.unit()
	if s.Reference.From == FromSource {
		return fmt.Sprintf("the source: %d %s", n, unit)
	}
	return fmt.Sprintf("the union of the variants' %s, as there is no separate source (Mode A): %d %s", unit, n, unit)
}

func (s *Scorecard) renderQual(b *strings.Builder) {
	b.WriteString("## Qualitative Scoring (50% weight) — Additive Binary Rubric\n\n")
	for di, d := range s.Rubric.Dimensions {
		fmt.Fprintf(b, "### %s (%d criteria)\n\n", d.Name, len(d.Criteria))
		head := []string{"Criterion"}
		for _, v := range s.Variants {
			head = append(head, "Variant "+v.Label, "Evidence")
		}
		tableHead(b, head...)
		for _, c := range d.Criteria {
			row := []string{c.ID + " " + c.Text}
			for _, v := range s.Variants {
				vd := verdictFor(v.Qual.Verdicts, c.ID)
				row = append(row, vd.Word(), evidenceCell(vd))
			}
			tableRow(b, row...)
		}
		row := []string{"**Subtotal**"}
		for _, v := range s.Variants {
			t := v.Qual.Dimensions[di]
			row = append(row, fmt.Sprintf("**%d/%d**", t.Met, t.Total), "")
		}
		tableRow(b, row...)
		b.WriteString("\n")
	}
	b.WriteString("### Qualitative Summary\n\n")
	head := []string{"Dimension"}
	for _, v := range s.Variants {
		head = append(head, "Variant "+v.Label)
	}
	tableHead(b, head...)
	for di, d := range s.Rubric.Dimensions {
		row := []string{d.Name}
		for _, v := range s.Variants {
			t := v.Qual.Dimensions[di]
			cell := fmt.Sprintf("%d/%d", t.Met, t.Total)
			if d.ID == Invariants && v.BelowFloor {
				cell += " (below floor)"
			}
			row = append(row, cell)
		}
		tableRow(b, row...)
	}
	row := []string{"**qual_score**"}
	for _, v := range s.Variants {
		row = append(row, fmt.Sprintf("**%d/%d = %.2f**", v.Qual.Met, v.Qual.Total, v.Qual.Score))
	}
	tableRow(b, row...)
	b.WriteString("\n")
}

func verdictFor(vs []Verdict, id string) Verdict {
	for _, v := range vs {
		if v.Criterion == id {
			return v
		}
	}
	return Verdict{Criterion: id}
}

// evidenceCell renders a verdict's evidence for a table cell.
func evidenceCell(v Verdict) string {
	var parts []string
	if v.Unverified != "" {
		return "Cited evidence not found in the variant, counted as NOT MET: “" + clip(v.Unverified, 100) + "”"
	}
	for _, c := range v.Evidence {
		parts = append(parts, citation(c))
	}
	quotes := strings.Join(parts, "; ")
	switch {
	case v.Met:
		return quotes
	case quotes == "":
		return v.Note
	default:
		return v.Note + ": " + quotes
	}
}

func citation(c Citation) string {
	q := "“" + clip(c.Quote, 120) + "”"
	var where []string
	if c.Section != "" {
		where = append(where, "§"+c.Section)
	}
	if c.Line > 0 {
		where = append(where, fmt.Sprintf("line %d", c.Line))
	}
	if len(where) > 0 {
		q += " (" + strings.Join(where, ", ") + ")"
	}
	return q
}

// clip shortens s to n runes with an ellipsis, whitespace collapsed.
func clip(s string, n int) string {
	s = oneLine(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n])) + "…"
}

func (s *Scorecard) renderBias(b *strings.Builder) {
	b.WriteString("## Position-Bias Mitigation\n\n")
	var fwd, rev []string
	for _, v := range s.Variants {
		fwd = append(fwd, v.Label)
	}
	for i := len(fwd) - 1; i >= 0; i-- {
		rev = append(rev, fwd[i])
	}
	fmt.Fprintf(b, "Pass 1 evaluated the variants in input order (%s), pass 2 in reverse order (%s). Where the passes disagreed, a re-evaluation citing both passes' evidence gave the final verdict.\n\n",
		strings.Join(fwd, ", "), strings.Join(rev, ", "))
	tableHead(b, "Criterion", "Variant", "Pass 1", "Pass 2", "Agreement", "Final")
	for _, e := range s.Bias.Entries {
		agree := "Yes"
		if !e.Agree {
			agree = "No — re-evaluated"
		}
		tableRow(b, e.Criterion, e.Variant, word(e.Pass1), word(e.Pass2), agree, word(e.Final))
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "- Disagreements re-evaluated: %d\n", s.Bias.Disagreements)
	fmt.Fprintf(b, "- Final verdicts changed: %d\n", s.Bias.Changed)
	fmt.Fprintf(b, "- Agreement rate: %s (%d of %d criterion–variant pairs)\n", percent(s.Bias.Agreement),
		s.Bias.Pairs-s.Bias.Disagreements, s.Bias.Pairs)
	fmt.Fprintf(b, "- MET verdicts whose cited evidence was not found (counted as NOT MET): %d\n\n", s.Bias.Downgraded)
}

func word(met bool) string {
	if met {
		return MET
	}
	return NotMET
}

func (s *Scorecard) renderCombined(b *strings.Builder) {
	b.WriteString("## Combined Scoring\n\n")
	tableHead(b, "Variant", "Quant (×0.50)", "Qual (×0.50)", "**Final Score**", "Debate Tiebreaker")
	for _, l := range s.Ranking {
		v, _ := s.Variant(l)
		debate := "no debate outcomes"
		if s.Debated {
			debate = fmt.Sprintf("%d %s won", v.Won, plural(v.Won, "point", "points"))
		}
		if v.BelowFloor {
			debate += "; below floor"
		}
		tableRow(b, v.Spec(), fmt.Sprintf("%.3f", 0.5*v.Quant.Score), fmt.Sprintf("%.3f", 0.5*v.Qual.Score),
			fmt.Sprintf("**%.3f**", v.Final), debate)
	}
	b.WriteString("\n")
	t := s.Tiebreak
	if t.RunnerUp == "" {
		fmt.Fprintf(b, "**Margin**: not applicable (%s)\n\n", t.Evidence)
	} else {
		side := "above"
		if t.Under {
			side = "under"
		}
		fmt.Fprintf(b, "**Margin**: %s (Variant %s over Variant %s; %s the 5%% tiebreaker threshold)\n\n", percent(t.Margin), t.Leader, t.RunnerUp, side)
	}
	if t.Level == 0 {
		b.WriteString("**Tiebreaker applied**: No\n\n")
	} else {
		fmt.Fprintf(b, "**Tiebreaker applied**: Yes (level %d) — %s\n\n", t.Level, t.Evidence)
	}
}

func (s *Scorecard) renderSelection(b *strings.Builder) {
	sel := s.Selection
	fmt.Fprintf(b, "## Selected Base: Variant %s (%s)\n\n", sel.Base, sel.Agent)
	b.WriteString("### Selection Rationale\n\n")
	for _, p := range sel.Rationale {
		b.WriteString(p + "\n\n")
	}
	fmt.Fprintf(b, "**Approval**: %s\n\n", sel.Approval)
	b.WriteString("### Strengths to Preserve from Base\n\n")
	strengthList(b, sel.Preserve, false)
	b.WriteString("### Strengths to Incorporate from Non-Base Variants\n\n")
	strengthList(b, sel.Incorporate, true)
}

func strengthList(b *strings.Builder, ss []Strength, variant bool) {
	if len(ss) == 0 {
		b.WriteString("None identified.\n\n")
		return
	}
	for i, st := range ss {
		fmt.Fprintf(b, "%d. ", i+1)
		if variant {
			fmt.Fprintf(b, "**Variant %s**", st.Variant)
			if loc := location(st); loc != "" {
				b.WriteString(", " + loc)
			}
			b.WriteString(": ")
		} else if loc := location(st); loc != "" {
			b.WriteString(loc + ": ")
		}
		b.WriteString(oneLine(st.Description))
		var src []string
		switch st.Kind {
		case FromDebate:
			src = append(src, "won debate point "+st.Point)
			if st.Round > 0 {
				src = append(src, fmt.Sprintf("round %d", st.Round))
			}
			if st.Confidence > 0 {
				src = append(src, fmt.Sprintf("%d%% confidence", st.Confidence))
			}
		case FromUnique:
			src = append(src, "unique contribution "+st.Point)
			if st.Rating != "" {
				src = append(src, st.Rating+" value")
			}
		case FromScore:
			src = append(src, "scoring")
		}
		fmt.Fprintf(b, " [%s]\n", strings.Join(src, ", "))
	}
	b.WriteString("\n")
}

func location(st Strength) string {
	switch {
	case st.Section < 0:
		return ""
	case st.SectionNumber != "":
		return fmt.Sprintf("Section %s %s", st.SectionNumber, oneLine(st.SectionTitle))
	case st.SectionTitle != "":
		return "Section " + oneLine(st.SectionTitle)
	}
	return ""
}

func oneLine(s string) string { return words.OneLine(s) }

func tableHead(b *strings.Builder, cells ...string) {
	tableRow(b, cells...)
	seps := make([]string, len(cells))
	for i := range seps {
		seps[i] = "---"
	}
	b.WriteString("|" + strings.Join(seps, "|") + "|\n")
}

func tableRow(b *strings.Builder, cells ...string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + cellText(c) + " |")
	}
	b.WriteString("\n")
}

// cellText makes text safe inside a table cell: one line, pipes escaped.
func cellText(s string) string {
	s = oneLine(s)
	return strings.ReplaceAll(s, "|", `\|`)
}
