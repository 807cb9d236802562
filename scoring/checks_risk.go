package scoring

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/lexicon"
)

// risk is a risk the variant identifies.
type risk struct {
	line      line
	assessed  bool // probability and impact given
	mitigated bool
}

// Risk registers name their assessment columns in full or by the usual
// abbreviations: L or P (Lik., Prob.) for likelihood, I or Sev. for
// impact, and "L×I" or "P/I" for a column holding both.
var (
	reRiskCol     = regexp.MustCompile(`(?i)\b(?:risks?|threats?|hazards?)\b`)
	reProbCol     = regexp.MustCompile(`(?i)probability|likelihood|^\W*(?:l|p|lik|prob)\.?\W*$`)
	reImpactCol   = regexp.MustCompile(`(?i)impact|severity|consequence|^\W*(?:i|imp|sev)\.?\W*$`)
	reBothCol     = regexp.MustCompile(`(?i)^\W*(?:l|p|likelihood|probability)\s*[/×x*]\s*(?:i|impact)\W*$`)
	reMitigCol    = regexp.MustCompile(`(?i)mitigation|response|countermeasure|contingency|plan|action`)
	reProbInline  = compile(`(?i)(?:probability|likelihood)\s*(?::|=|is)?\s*(?:\*\*)?\s*(?:low|medium|high|very \w+|\d+\s?%)|\b(?:L|P|Prob|Lik)\.?\s*[:=]\s*(?:\*\*)?(?:low|med(?:ium)?|high|very \w+|\d+\s?%|[LMH]\b)`)
	reImpactInlin = compile(`(?i)(?:impact|severity)\s*(?::|=|is)?\s*(?:\*\*)?\s*(?:low|medium|high|critical|very \w+|\d+)|\b(?:I|Imp|Sev)\.?\s*[:=]\s*(?:\*\*)?(?:low|med(?:ium)?|high|critical|very \w+|\d+|[LMH]\b)`)
	// reAssessment matches a likelihood or impact rating, to tell the
	// text after a risk's colon that rates it from the text that treats it.
	reAssessment = regexp.MustCompile(`(?i)\(?\b(?:probability|likelihood|impact|severity|prob|lik|imp|sev|L|P|I)\b\.?\s*(?::|=|is)?\s*(?:\*\*)?(?:very\s+)?(?:low|medium|med|high|critical|[LMH]\b|\d+\s?%?)(?:\*\*)?\)?[,;.]?`)
)

// mayRateProbability reports whether reProbInline may match text, whose
// foldLower form is lower: a match names the probability or likelihood in
// full, or abbreviates it (L, P, Prob, Lik, from a word boundary) right
// before a ':' or '=', with at most a '.' and spaces between. Nearly every
// list item has a colon, few have a rating, and the expression's own
// prefilter keys ("l", "p") rule out almost nothing. A text with a letter
// that case folding maps to an ASCII one (ſ, K) may spell an abbreviation
// with it, so it may match.
func mayRateProbability(text, lower string) bool {
	if strings.Contains(lower, "probability") || strings.Contains(lower, "likelihood") ||
		strings.Contains(text, "ſ") || strings.Contains(text, "\u212a") {
		return true
	}
	for j := 0; j < len(text); j++ {
		if text[j] != ':' && text[j] != '=' {
			continue
		}
		k := j
		for k > 0 && isSpaceASCII(text[k-1]) {
			k--
		}
		if k > 0 && text[k-1] == '.' {
			k--
		}
		for _, abbr := range [...]string{"l", "p", "prob", "lik"} {
			if start := k - len(abbr); start >= 0 && hasPrefixFoldASCII(text[start:k], abbr) && (start == 0 || !isWordByte(text[start-1])) {
				return true
			}
		}
	}
	return false
}

// isSpaceASCII reports whether c is in \s: a space, \t, \n, \f or \r.
func isSpaceASCII(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// mitigatedOnLine reports whether a risk's own line states what is done
// about it: mitigation wording, an arrow ("->", "→", "=>") to the
// response, or — under a risk heading or in a register — the text after
// the risk's colon, once its likelihood and impact ratings are set aside
// ("Replica lag: throttle the backfill").
func mitigatedOnLine(text string) bool {
	if reMitigation.MatchString(text) {
		return true
	}
	rest := reAssessment.ReplaceAllString(text, " ")
	_, after, ok := strings.Cut(rest, ": ")
	if !ok {
		return false
	}
	n := 0
	for _, f := range strings.Fields(after) {
		if strings.IndexFunc(f, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) >= 0 {
			n++
		}
	}
	return n >= 2
}

// risks finds the identified risks: rows of a table whose header names a
// risk column or probability and impact columns, and list items under a
// heading that names risks or that state a probability and an impact.
func (w *view) risks() []risk {
	if !w.risksDone { // RSK-1 and RSK-2 both ask
		w.risksFound, w.risksDone = w.findRisks(), true
	}
	return w.risksFound
}

// riskColumn is what a header cell names, for findRisks.
type riskColumn uint8

const (
	colOther riskColumn = iota
	colBoth             // probability × impact
	colProb
	colImpact
	colMitigation
	colRisk
)

// riskColumnOf classifies a header cell; the first pattern that matches
// decides.
func riskColumnOf(cell string) riskColumn {
	switch {
	case reBothCol.MatchString(cell):
		return colBoth
	case reProbCol.MatchString(cell):
		return colProb
	case reImpactCol.MatchString(cell):
		return colImpact
	case reMitigCol.MatchString(cell):
		return colMitigation
	case reRiskCol.MatchString(cell):
		return colRisk
	}
	return colOther
}

func (w *view) findRisks() []risk {
	var out []risk
	riskTitle := map[int]bool{} // by section: reRiskH's answer for its title
	// A document's tables repeat their headers ("Field | Value"): each
	// distinct cell is classified once.
	columns := map[string]riskColumn{}
	bs := w.d.Blocks
	for i := 0; i < len(bs); i++ {
		b := bs[i]
		if b.Kind == diff.TableRow && b.Header {
			prob, imp, mit := -1, -1, -1
			riskCol := false
			for c, cell := range b.Cells {
				kind, ok := columns[cell]
				if !ok {
					kind = riskColumnOf(cell)
					columns[cell] = kind
				}
				switch kind {
				case colBoth:
					prob, imp = c, c
				case colProb:
					prob = c
				case colImpact:
					imp = c
				case colMitigation:
					mit = c
				case colRisk:
					riskCol = true
				}
			}
			if !riskCol && (prob < 0 || imp < 0) {
				continue
			}
			for j := i + 1; j < len(bs) && bs[j].Kind == diff.TableRow && !bs[j].Header && bs[j].Line <= bs[j-1].EndLine+2; j++ {
				r := bs[j]
				cell := func(c int) bool { return c >= 0 && c < len(r.Cells) && strings.Trim(r.Cells[c], " -–—") != "" }
				out = append(out, risk{line: w.blockLine(j), assessed: cell(prob) && cell(imp),
					mitigated: cell(mit) || reMitigation.MatchString(r.Text) || (len(r.Cells) > 0 && mitigatedOnLine(r.Cells[0]))})
				i = j
			}
			continue
		}
		if b.Kind != diff.ListItem {
			continue
		}
		lower := foldLower(b.Text)
		inline := mayRateProbability(b.Text, lower) && reProbInline.find(b.Text, lower) != nil && reImpactInlin.find(b.Text, lower) != nil
		under := false
		if b.Section >= 0 {
			m, ok := riskTitle[b.Section]
			if !ok {
				m = reRiskH.MatchString(w.d.Sections[b.Section].Title)
				riskTitle[b.Section] = m
			}
			under = m
		}
		if inline || under {
			out = append(out, risk{line: w.blockLine(i), assessed: inline, mitigated: mitigatedOnLine(b.Text)})
		}
	}
	return out
}

// checkRisksAssessed (RSK-1): at least three risks each with a probability
// and an impact (table columns, or "probability: …, impact: …").
func checkRisksAssessed(w *view) result {
	var assessed, bare []line
	rs := w.risks()
	for _, r := range rs {
		if r.assessed {
			assessed = append(assessed, r.line)
		} else {
			bare = append(bare, r.line)
		}
	}
	note := fmt.Sprintf("%d risk(s) with probability and impact", len(assessed))
	if len(assessed) < 3 {
		if len(rs) == 0 {
			return w.notFound("risks with probability and impact")
		}
		// Cite what shows the shortfall: the risks without an assessment
		// (the flaw), or else the few assessed ones (too few).
		cites := w.cites(bare, 2)
		if len(bare) == 0 {
			cites = w.cites(assessed, 3)
		}
		if len(bare) > 0 {
			note += fmt.Sprintf("; %d identified without them at %s", len(bare), lineList(bare, 5))
		}
		return result{cites: cites, note: note + "; at least 3 needed"}
	}
	return w.found(assessed, note+" at "+lineList(assessed, 5))
}

// checkMitigations (RSK-2): risks are identified and every one has a
// mitigation (a mitigation column filled in, or mitigation wording).
func checkMitigations(w *view) result {
	rs := w.risks()
	if len(rs) == 0 {
		return w.notFound("identified risks")
	}
	var lines []line
	for _, r := range rs {
		if !r.mitigated {
			return result{cites: []Citation{w.cite(r.line)}, note: fmt.Sprintf("The risk at line %d has no mitigation", r.line.no)}
		}
		lines = append(lines, r.line)
	}
	return w.found(lines, fmt.Sprintf("All %d identified risks have a mitigation", len(rs)))
}

// checkRecovery (RSK-3): failure modes (failure, outage, crash, data
// loss, …) and recovery procedures (recover, rollback, restore, failover,
// backup, retry, …) are both addressed.
func checkRecovery(w *view) result {
	fail, rec := w.grep(reFailure, true, 4), w.grep(reRecovery, true, 4) // lineList shows 3, then "…"
	switch {
	case len(fail) == 0 && len(rec) == 0:
		return w.notFound("failure modes or recovery procedures")
	case len(rec) == 0:
		return result{cites: w.cites(fail, 1), note: "Failure modes named, but no recovery procedure"}
	case len(fail) == 0:
		return result{cites: w.cites(rec, 1), note: "Recovery named, but no failure mode"}
	}
	cites := []Citation{w.cite(fail[0])}
	if rec[0].no != fail[0].no {
		cites = append(cites, w.cite(rec[0]))
	}
	return result{met: true, cites: cites, note: fmt.Sprintf("Failure modes at %s; recovery at %s", lineList(fail, 3), lineList(rec, 3))}
}

// checkExternalFailures (RSK-4): a line names an external dependency
// (external, third-party, vendor, upstream, provider, or a named
// technology) together with how it fails (unavailable, outage, timeout,
// degraded, rate-limited, deprecated, …).
func checkExternalFailures(w *view) result {
	var ls []line
	for _, l := range w.lines {
		if len(ls) == 6 { // lineList shows 5, then "…"
			break
		}
		loc := reExtFailure.find(l.text, l.lower)
		if loc == nil {
			continue
		}
		if reExternal.find(l.text, l.lower) != nil || len(lexicon.TechnologyIn(l.text)) > 0 {
			l.quote = sentence(l.text, loc[0])
			ls = append(ls, l)
		}
	}
	if len(ls) == 0 {
		return w.notFound("external dependencies with failure scenarios")
	}
	return w.found(ls, "External dependency failures at "+lineList(ls, 5))
}

// checkMonitoring (RSK-5): monitoring, alerting, dashboards, metrics,
// health checks, SLOs, canaries, tracing or validation.
func checkMonitoring(w *view) result {
	return lineTest(reMonitoring, 1, "monitoring or validation mechanisms")(w)
}
