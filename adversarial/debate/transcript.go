package debate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/diff"
)

// Markdown renders debate-transcript.md as ARTIFACTS.md lays it out:
// metadata (with agent failures and skipped rounds), one section per round
// that ran, the scoring matrix with a row for every diff point, and the
// convergence assessment with the reason the debate stopped. Advocates'
// prose is folded onto single lines, so nothing in it can add headings or
// break a table.
func (r *Result) Markdown() string {
	var b strings.Builder
	b.Grow(r.markdownSize())
	b.WriteString("# Adversarial Debate Transcript\n\n## Metadata\n\n")
	completed := 0
	for _, rd := range r.Rounds {
		completed += boolInt(rd.Complete)
	}
	focus := "All"
	if len(r.Focus) > 0 {
		focus = strings.Join(r.Focus, ", ")
	}
	fmt.Fprintf(&b, "- Depth: %s\n- Rounds completed: %d\n- Convergence achieved: %s of contested points (%s of all points, uncontested ones included)\n- Convergence threshold: %s\n- Focus areas: %s\n- Advocate count: %d\n",
		r.Depth, completed, percent(r.Convergence), percent(r.Overall), thresholdPercent(r.Threshold), focus, len(r.Variants))
	b.WriteString("- Agent failures: " + r.failureSummary() + "\n")
	for _, f := range r.EliminationFailures {
		if !f.Recovered {
			fmt.Fprintf(&b, "- Elimination round: Variant %s advocate (%s) failed %s (%s); dropped before the final\n", f.Variant, f.Agent, f.retried(), cell(f.Error))
		}
	}
	for _, f := range r.Failures {
		switch {
		case f.Fallback != "":
			fmt.Fprintf(&b, "- Refused: %s in round %d (%s); the %s argued that turn\n", r.advocateName(f.Variant), f.Round, cell(f.Error), f.Fallback)
		case f.Recovered:
			fmt.Fprintf(&b, "- Retried: %s in round %d (%s); the retry succeeded\n", r.advocateName(f.Variant), f.Round, cell(f.Error))
		}
	}
	if len(r.Excluded) > 0 {
		fmt.Fprintf(&b, "- Points debated: %d of %d (not debated: %s)\n", len(r.Points), len(r.Points)+len(r.Excluded), strings.Join(r.Excluded, ", "))
	}
	for _, l := range r.Log {
		b.WriteString("- " + l + "\n")
	}
	for _, w := range r.Warnings {
		b.WriteString("- Warning: " + oneLine(w) + "\n")
	}

	titles := map[int]string{1: "Round 1: Advocate Statements", 2: "Round 2: Rebuttals", 3: "Round 3: Final Arguments"}
	for _, rd := range r.Rounds {
		fmt.Fprintf(&b, "\n## %s\n\n", titles[rd.Number])
		if rd.Complete {
			fmt.Fprintf(&b, "Convergence after round %d: %s (%d of %d contested points agreed; %d of %d points with the uncontested ones).\n",
				rd.Number, percent(rd.Convergence), rd.ContestedAgreed, rd.Contested, rd.Agreed, len(r.Points))
		} else {
			fmt.Fprintf(&b, "The debate was aborted during round %d.\n", rd.Number)
		}
		for _, v := range r.Variants {
			r.writeTurn(&b, rd, v)
		}
	}

	b.WriteString("\n## Scoring Matrix\n\n| Diff Point | Winner | Confidence | Evidence Summary |\n|------------|--------|------------|------------------|\n")
	for _, d := range r.Decisions {
		winner := "Variant " + d.Winner
		switch {
		case d.Agreement == AgreementNotDebated:
			winner = "Not debated"
		case d.Agreement == AgreementUndecided:
			winner = "Undecided"
		case d.Winner == "":
			winner = "Unresolved"
		}
		fmt.Fprintf(&b, "| %s | %s | %d%% | %s |\n", d.Point, winner, d.Confidence, cell(d.Evidence))
	}

	contested := r.contestedSet()
	var open, openUncontested, differences []string
	for _, id := range r.Unresolved {
		if contested(id) {
			open = append(open, id)
		} else {
			openUncontested = append(openUncontested, id)
		}
	}
	for _, id := range r.Points {
		if !contested(id) && strings.HasPrefix(id, diff.CategoryContent.Prefix()+"-") {
			differences = append(differences, id)
		}
	}
	fmt.Fprintf(&b, "\n## Convergence Assessment\n\n- Points resolved: %d of %d contested points (structure, contradictions, and content on which two or more variants take positions)\n",
		r.ContestedAgreed, r.Contested)
	if n := len(r.Points) - r.Contested; n > 0 {
		fmt.Fprintf(&b, "- Uncontested points agreed: %d of %d (unique contributions and content differences of coverage, depth or wording; debated for their value, not counted in the convergence)\n", r.Agreed-r.ContestedAgreed, n)
	}
	if len(differences) > 0 {
		fmt.Fprintf(&b, "- Content not contested: %s\n", strings.Join(differences, ", "))
	}
	fmt.Fprintf(&b, "- Alignment: %s\n- Threshold: %s\n- Status: %s\n- Unresolved points: %s\n",
		percent(r.Convergence), thresholdPercent(r.Threshold), r.Status, listOrNone(open))
	if len(openUncontested) > 0 {
		fmt.Fprintf(&b, "- Uncontested points left open: %s (not conflicts)\n", strings.Join(openUncontested, ", "))
	}
	fmt.Fprintf(&b, "- Stopped after round %d: %s — %s\n", r.Stop.Round, stopWords[r.Stop.Reason], r.Stop.Log)
	var wins []string
	for _, w := range r.Wins {
		wins = append(wins, fmt.Sprintf("Variant %s %d", w.Variant, w.Won))
	}
	b.WriteString("- Points won: " + strings.Join(wins, ", ") + "\n")
	return b.String()
}

// markdownSize estimates the transcript's length from its tables, a row
// per point per statement and per decision, which make almost all of it:
// a transcript of thousands of points grows its builder once, not by
// doubling.
func (r *Result) markdownSize() int {
	const row = len("| ") + len(" | Variant ") + len(" (conceded)") + len(" | 100% | ") + len(" |\n")
	n := 4 << 10
	for _, rd := range r.Rounds {
		for _, st := range rd.Statements {
			n += 1<<10 + len(st.Position)
			for _, cs := range [][]Claim{st.Strengths, st.NewEvidence, st.Remaining} {
				for _, c := range cs {
					n += 32 + len(c.Point) + len(c.Text) + len(c.Evidence)
				}
			}
			for _, w := range st.Weaknesses {
				n += 32 + len(w.Point) + len(w.Text) + len(w.Evidence)
			}
			for _, c := range st.Concessions {
				n += 4 + len(c)
			}
			for _, resp := range st.Responses {
				n += 64 + len(resp.Reply)
				if c := resp.About; c != nil {
					n += len(c.Text)
				}
			}
			for _, p := range st.Positions {
				n += row + len(p.Point) + len(p.Prefer) + len(p.Evidence)
			}
		}
	}
	for _, d := range r.Decisions {
		n += row + len(d.Point) + len(d.Evidence) + len("Unresolved")
	}
	return n
}

func listOrNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

var stopWords = map[StopReason]string{
	StopUnanimous:      "unanimous",
	StopStableMajority: "stable majority",
	StopThreshold:      "threshold reached",
	StopMaxRounds:      "max rounds",
	StopOscillation:    "oscillation",
	StopAborted:        "aborted",
}

func (r *Result) failureSummary() string {
	var parts []string
	for _, f := range r.Failures {
		if !f.Recovered {
			parts = append(parts, fmt.Sprintf("%s failed in round %d %s (%s)", r.advocateName(f.Variant), f.Round, f.retried(), cell(f.Error)))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	left := len(r.Variants) - len(parts)
	if r.Stop.Reason == StopAborted {
		return strings.Join(parts, "; ") + fmt.Sprintf("; %s left, the debate was aborted", plural(left, "advocate"))
	}
	return strings.Join(parts, "; ") + fmt.Sprintf("; the debate continued with %s", plural(left, "advocate"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// advocateName is "Variant C advocate (haiku)".
func (r *Result) advocateName(label string) string {
	for _, v := range r.Variants {
		if v.Label == label && v.Agent != "" {
			return fmt.Sprintf("Variant %s advocate (%s)", label, v.Agent)
		}
	}
	return "Variant " + label + " advocate"
}

// writeTurn renders what variant v's advocate said in the round, or that
// it failed there.
func (r *Result) writeTurn(b *strings.Builder, rd Round, v Participant) {
	agent := v.Agent
	if agent == "" {
		agent = "default"
	}
	var heading string
	switch rd.Number {
	case 1:
		heading = fmt.Sprintf("### Variant %s Advocate (%s)", v.Label, agent)
	case 2:
		heading = fmt.Sprintf("### Variant %s Rebuttal", v.Label)
	default:
		heading = fmt.Sprintf("### Variant %s Final Position", v.Label)
	}
	for _, st := range rd.Statements {
		if st.Variant == v.Label {
			b.WriteString("\n" + heading + "\n")
			writeStatement(b, st, r.Variants)
			return
		}
	}
	left := len(r.Variants)
	for _, f := range r.Failures {
		if f.Recovered {
			continue
		}
		left--
		if f.Variant != v.Label || f.Round != rd.Number {
			continue
		}
		then := "The debate continued without this advocate."
		if left < 2 {
			then = "Fewer than 2 advocates remained, so the debate was aborted."
		}
		fmt.Fprintf(b, "\n%s\n\n*Failed %s: %s. %s*\n", heading, f.retried(), oneLine(f.Error), then)
	}
}

func writeStatement(b *strings.Builder, st Statement, variants []Participant) {
	switch st.Round {
	case 1:
		field(b, "Position", st.Position)
		for _, v := range variants {
			if v.Label == st.Variant {
				continue
			}
			for _, s := range st.Steelman {
				if s.Variant == v.Label {
					field(b, "Steelman of Variant "+v.Label, s.Argument)
				}
			}
		}
		claims(b, "Key strengths claimed", st.Strengths)
		for _, v := range variants {
			if v.Label == st.Variant {
				continue
			}
			var ws []Claim
			for _, w := range st.Weaknesses {
				if w.Against == v.Label {
					ws = append(ws, Claim{Point: w.Point, Text: w.Text, Evidence: w.Evidence})
				}
			}
			claims(b, "Weaknesses identified in Variant "+v.Label, ws)
		}
		list(b, "Concessions", st.Concessions)
	case 2:
		b.WriteString("\n**Response to criticisms**:\n\n")
		if len(st.Responses) == 0 {
			b.WriteString("- No criticisms were raised against this variant.\n")
		}
		for i, resp := range st.Responses {
			about := ""
			if c := resp.About; c != nil {
				about = fmt.Sprintf("Variant %s%s: “%s” — ", c.From, pointSuffix(c.Point), oneLine(c.Text))
			}
			verdict := "Response"
			if resp.Conceded {
				verdict = "Conceded"
			}
			fmt.Fprintf(b, "%d. %s%s: %s\n", i+1, about, verdict, oneLine(resp.Reply))
		}
		field(b, "Updated assessment", st.Position)
		claims(b, "New evidence", st.NewEvidence)
		list(b, "Concessions", st.Concessions)
	default:
		field(b, "Final position", st.Position)
		claims(b, "Remaining disagreements", st.Remaining)
		list(b, "Final concessions", st.Concessions)
	}
	b.WriteString("\n**Positions on diff points**:\n\n| Diff Point | Prefers | Confidence | Evidence |\n|---|---|---|---|\n")
	// A row per point per statement: written piece by piece, not with
	// fmt — "| point | Variant X[ (conceded)] | n% | evidence |".
	for _, p := range st.Positions {
		b.WriteString("| ")
		b.WriteString(p.Point)
		b.WriteString(" | Variant ")
		b.WriteString(p.Prefer)
		if p.Concede {
			b.WriteString(" (conceded)")
		}
		b.WriteString(" | ")
		b.WriteString(strconv.Itoa(p.Confidence))
		b.WriteString("% | ")
		b.WriteString(cell(p.Evidence))
		b.WriteString(" |\n")
	}
}

func pointSuffix(point string) string {
	if point == "" {
		return ""
	}
	return " on " + point
}

func field(b *strings.Builder, name, text string) {
	text = oneLine(text)
	if text == "" {
		text = "—"
	}
	fmt.Fprintf(b, "\n**%s**: %s\n", name, text)
}

func claims(b *strings.Builder, name string, cs []Claim) {
	fmt.Fprintf(b, "\n**%s**:\n\n", name)
	if len(cs) == 0 {
		b.WriteString("- None.\n")
		return
	}
	for i, c := range cs {
		point := ""
		if c.Point != "" {
			point = c.Point + ": "
		}
		line := fmt.Sprintf("%d. %s%s", i+1, point, oneLine(c.Text))
		if ev := oneLine(c.Evidence); ev != "" {
			line += " — Evidence: " + ev
		}
		b.WriteString(line + "\n")
	}
}

func list(b *strings.Builder, name string, items []string) {
	fmt.Fprintf(b, "\n**%s**:\n\n", name)
	if len(items) == 0 {
		b.WriteString("- None.\n")
		return
	}
	for _, it := range items {
		b.WriteString("- " + oneLine(it) + "\n")
	}
}

// cell makes text safe for a table cell.
func cell(s string) string {
	return strings.ReplaceAll(oneLine(s), "|", `\|`)
}

// SkippedTranscript is debate-transcript.md for a run that does not debate
// because its variants are substantially identical (the analysis's
// Similarity.Identical): the protocol skips the debate for such variants,
// and the transcript says why, with every diff point undecided.
func SkippedTranscript(a *diff.Analysis, depth Depth, threshold float64) string {
	var b strings.Builder
	b.WriteString("# Adversarial Debate Transcript\n\n## Metadata\n\n")
	fmt.Fprintf(&b, "- Depth: %s\n- Rounds completed: 0\n- Convergence achieved: 100%%\n- Convergence threshold: %.0f%%\n", depth, threshold*100)
	focus := "All"
	if len(a.Focus) > 0 {
		focus = strings.Join(a.Focus, ", ")
	}
	fmt.Fprintf(&b, "- Focus areas: %s\n- Advocate count: 0 (debate skipped)\n", focus)
	fmt.Fprintf(&b, "- Debate skipped: variants substantially identical (%d differences across %d comparable items, under 10%%)\n",
		a.Similarity.Differences, a.Similarity.Comparable)
	b.WriteString("\n## Scoring Matrix\n\n")
	if len(a.Points) == 0 {
		b.WriteString("_No diff points: nothing to score._\n")
	} else {
		b.WriteString("| Diff Point | Winner | Confidence | Evidence Summary |\n|---|---|---|---|\n")
		for _, p := range a.Points {
			fmt.Fprintf(&b, "| %s | — | 50%% | Not debated: variants substantially identical. |\n", p.ID)
		}
	}
	b.WriteString("\n## Convergence Assessment\n\n")
	fmt.Fprintf(&b, "- Points resolved: %d of %d\n- Alignment: 100%%\n- Threshold: %.0f%%\n- Status: CONVERGED\n- Unresolved points: none\n",
		len(a.Points), len(a.Points), threshold*100)
	b.WriteString("- Stopped: before round 1 — the variants are substantially identical, so no debate is needed\n")
	return b.String()
}

// retried says how the turn was retried: once by the debate, once inside
// the advocate (an unusable reply sent back with its problem), or not at
// all (an error no retry can mend).
func (f AgentFailure) retried() string {
	if f.Attempts >= 2 {
		return "after a retry"
	}
	if strings.Contains(f.Error, "invalid model reply") {
		return "after a retry with the problem"
	}
	return "without a retry (the error is not retryable)"
}
