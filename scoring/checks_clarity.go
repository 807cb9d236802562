package scoring

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/words"
)

// checkUnambiguous (CLA-1): not one vague indicator ("should consider",
// "might", "as appropriate", "various", "etc.", uncited "best practices",
// …) in the body text; the evidence is the first concrete statement.
func checkUnambiguous(w *view) result {
	var vague []line
	var concrete []line
	for _, l := range w.lines {
		if l.heading {
			continue
		}
		if isVagueLine(l) {
			vague = append(vague, l)
		} else if len(concrete) == 0 && lexicon.ConcreteCount(l.text) > 0 {
			concrete = append(concrete, l)
		}
	}
	if len(vague) > 0 {
		return result{cites: w.cites(vague, 3),
			note: fmt.Sprintf("%d line(s) with vague language (%s) at %s", len(vague), strings.Join(lexicon.VagueMatches(vague[0].text), ", "), lineList(vague, 5))}
	}
	if len(concrete) == 0 {
		return result{note: "No concrete statement to cite"}
	}
	return w.found(concrete, "No vague indicator in the text")
}

// isVagueLine is lexicon.IsVague(l.text), from the line's lower-cased
// text when it is strings.ToLower's: foldLower differs from it only by
// the long s it folds, so a line without one is not lower-cased again.
func isVagueLine(l line) bool {
	if strings.Contains(l.text, "ſ") {
		return lexicon.IsVague(l.text)
	}
	return lexicon.IsVagueLower(l.lower)
}

// checkConcrete (CLA-2): at least half of the substantive statements
// (paragraphs, list items, table rows) carry a concrete indicator — a
// number, date, threshold, named technology or measurable criterion.
func checkConcrete(w *view) result {
	total := 0
	var concrete, abstract []line
	contents := contentsSections(w.d)
	ind := w.d.BlockIndicators()
	bp := boilerplateBlocks(w.d)
	for bi, b := range w.d.Blocks {
		if b.Kind == diff.Code || b.Header || (b.Section >= 0 && contents[b.Section]) || bp[bi] {
			continue
		}
		total++
		if ind[bi].Concrete > 0 {
			concrete = append(concrete, w.blockLine(bi))
		} else {
			abstract = append(abstract, w.blockLine(bi))
		}
	}
	if total == 0 {
		return result{note: "No substantive statements"}
	}
	note := fmt.Sprintf("%d of %d statements concrete (%.0f%%)", len(concrete), total, 100*float64(len(concrete))/float64(total))
	if 2*len(concrete) < total {
		// The flaw is the abstract statements: cite them, not a concrete one.
		return result{cites: w.cites(abstract, 2), note: note + "; at least 50% needed; abstract at " + lineList(abstract, 5)}
	}
	return result{met: true, cites: w.cites(concrete, 2), note: note}
}

// checkPurpose (CLA-3): every top-level section (tables of contents,
// glossaries, appendices and references aside) opens with a paragraph of
// its own before any list, table or subsection — a statement of what the
// section is for.
func checkPurpose(w *view) result {
	var leads []line
	for _, i := range w.contentTop() {
		s := w.d.Sections[i]
		if isAuxiliaryTitle(s.Title) {
			continue
		}
		body := w.d.BlocksIn(s.Body())
		if len(body) == 0 || body[0].Kind != diff.Paragraph || body[0].Section != i {
			return result{cites: []Citation{w.cite(w.headingLine(i))},
				note: fmt.Sprintf("Section %q does not open with a statement of its purpose", s.Title)}
		}
		leads = append(leads, w.blockLine(w.blockAt(body[0].Span.Start)))
	}
	if len(leads) == 0 {
		return result{note: "No top-level section to summarise"}
	}
	return w.found(leads, fmt.Sprintf("All %d top-level sections open with a lead paragraph", len(leads)))
}

var reAuxiliary = regexp.MustCompile(`(?i)contents|glossary|appendi|references|bibliography|index|changelog|revision history`)

// auxiliaryWords are reAuxiliary's alternatives.
var auxiliaryWords = []string{"contents", "glossary", "appendi", "references", "bibliography", "index", "changelog", "revision history"}

// isAuxiliaryTitle is reAuxiliary.MatchString(title). An ASCII title of
// up to 128 bytes is lowered into a buffer on the stack and searched for
// each alternative: for ASCII text the pattern's case folding is ASCII
// lowering (it folds k and s with non-ASCII letters too, so any other
// title goes to the pattern). FuzzIsAuxiliaryTitle keeps the pattern as
// the oracle.
func isAuxiliaryTitle(title string) bool {
	var buf [128]byte
	if len(title) > len(buf) {
		return reAuxiliary.MatchString(title)
	}
	for i := 0; i < len(title); i++ {
		c := title[i]
		if c >= 0x80 {
			return reAuxiliary.MatchString(title)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	lower := buf[:len(title)]
	for _, w := range auxiliaryWords {
		if bytes.Contains(lower, []byte(w)) {
			return true
		}
	}
	return false
}

// acronymDef is an acronym expanded in the text.
type acronymDef struct {
	acronym, expansion string
	line               line
}

var (
	reAcronym = regexp.MustCompile(`\b[A-Z][A-Z0-9&]*[A-Z][A-Z0-9]*s?\b`)
	// "Service Level Objective (SLO)" and "SLO (Service Level Objective)".
	reExpandBefore = regexp.MustCompile(`((?:[A-Za-z][\w-]*\s+){1,6}[A-Za-z][\w-]*)\s*\(([A-Z][A-Z0-9&]{1,7})s?\)`)
	reExpandAfter  = regexp.MustCompile(`\b([A-Z][A-Z0-9&]{1,7})s?\s*\(([A-Za-z][\w\s-]{3,60})\)`)
	reGlossary     = regexp.MustCompile(`^(?:[-*+]\s+)?(?:\*\*|__)?([A-Z][A-Z0-9&]{1,7})(?:\*\*|__)?\s*(?::|—|–| - |\|| stands for | means )\s*(.+)`)
)

// findAcronyms is reAcronym.FindAllStringIndex(s, -1), the rule judge's
// costliest expression, as a byte scan: the expression is ASCII, so every
// match starts at a capital after a boundary, and the backtracking it
// would do is a choice among the capitals of one run (see acronymAt).
func findAcronyms(s string) [][]int {
	var out [][]int
	for p := 0; p+1 < len(s); p++ {
		if !isUpper(s[p]) || p > 0 && isWordByte(s[p-1]) {
			continue
		}
		if end := acronymAt(s, p); end > 0 {
			out = append(out, []int{p, end})
			p = end - 1
		}
	}
	return out
}

// acronymAt returns the end of the match of reAcronym that starts at p,
// where \b holds before the capital s[p], or -1. The expression is
// [A-Z][A-Z0-9&]*[A-Z][A-Z0-9]*s?\b: its starred class runs over
// s[p+1:q], and it backtracks from the greedy end to the last capital e
// after which the match can end. From e, [A-Z0-9]* must take its whole
// run up to f (stopping earlier leaves a word byte on either side, and
// "s?" cannot help there); the match then ends at f+1 after an "s" with a
// boundary, or at f when s[f] is no "s" and is a boundary.
func acronymAt(s string, p int) int {
	q := p + 1
	for q < len(s) && (isUpper(s[q]) || isDigit(s[q]) || s[q] == '&') {
		q++
	}
	for e := q - 1; e > p; e-- {
		if !isUpper(s[e]) {
			continue
		}
		f := e + 1
		for f < len(s) && (isUpper(s[f]) || isDigit(s[f])) {
			f++
		}
		switch {
		case f < len(s) && s[f] == 's':
			if f+1 == len(s) || !isWordByte(s[f+1]) {
				return f + 1
			}
		case f == len(s) || !isWordByte(s[f]):
			return f
		}
	}
	return -1
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// acronymDefinitions returns the acronyms the variant expands, at their
// definition. Two tests ask for them (CLA-4 and terminology), so the view
// keeps them; the result must not be changed.
func acronymDefinitions(w *view) []acronymDef {
	if !w.acronymsDone {
		w.acronyms, w.acronymsDone = findAcronymDefinitions(w), true
	}
	return w.acronyms
}

func findAcronymDefinitions(w *view) []acronymDef {
	var out []acronymDef
	for _, l := range w.lines {
		if l.heading {
			continue
		}
		if m := reGlossary.FindStringSubmatch(l.text); m != nil {
			out = append(out, acronymDef{m[1], strings.TrimSpace(m[2]), l})
		}
		before, after := parenAcronyms(l.text)
		if before {
			for _, m := range reExpandBefore.FindAllStringSubmatch(l.text, -1) {
				if exp := expansionFor(m[2], m[1]); exp != "" {
					out = append(out, acronymDef{m[2], exp, l})
				}
			}
		}
		if after {
			for _, m := range reExpandAfter.FindAllStringSubmatch(l.text, -1) {
				if initialsMatch(m[1], m[2]) {
					out = append(out, acronymDef{m[1], strings.TrimSpace(m[2]), l})
				}
			}
		}
	}
	return out
}

// parenAcronyms reports whether a line can hold what reExpandBefore
// ("…(SLO)") and reExpandAfter ("SLO (…") match: an acronym of two
// characters or more right inside an opening parenthesis, or right before
// one (an "s" and spaces between) that a letter follows. Most lines hold
// neither, and the two expressions, which backtrack over every word of a
// line, are among the rule judge's costliest.
func parenAcronyms(s string) (before, after bool) {
	acr := func(c byte) bool { return isUpper(c) || c >= '0' && c <= '9' || c == '&' }
	for i := strings.IndexByte(s, '('); i >= 0 && i+1 < len(s); {
		if i+2 < len(s) && isUpper(s[i+1]) && acr(s[i+2]) {
			before = true
		}
		if c := s[i+1]; c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' {
			j := i - 1
			for j >= 0 && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\f' || s[j] == '\r') {
				j--
			}
			if j >= 0 && s[j] == 's' {
				j--
			}
			if j >= 1 && acr(s[j]) && acr(s[j-1]) {
				after = true
			}
		}
		if before && after {
			return
		}
		k := strings.IndexByte(s[i+1:], '(')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return before, after
}

// expansionFor trims the words before "(ACR)" to the ones whose initials
// spell it, or returns "" when they do not.
func expansionFor(acr, before string) string {
	ws := strings.Fields(before)
	letters := 0
	for _, r := range acr {
		if r >= 'A' && r <= 'Z' {
			letters++
		}
	}
	for n := min(len(ws), letters+2); n >= 1; n-- {
		cand := strings.Join(ws[len(ws)-n:], " ")
		if initialsMatch(acr, cand) {
			return cand
		}
	}
	return ""
}

// initialsMatch reports whether the acronym's letters appear, in order,
// as initials of the phrase's words (or of their hyphenated parts).
func initialsMatch(acr, phrase string) bool {
	var initials []byte
	for _, w := range strings.FieldsFunc(phrase, func(r rune) bool { return r == ' ' || r == '-' || r == '/' }) {
		if w != "" && !words.IsStopWord(strings.ToLower(w)) {
			initials = append(initials, strings.ToUpper(w[:1])[0])
		}
	}
	i := 0
	for _, c := range []byte(acr) {
		if c < 'A' || c > 'Z' {
			continue
		}
		for i < len(initials) && initials[i] != c {
			i++
		}
		if i == len(initials) {
			return false
		}
		i++
	}
	return len(initials) > 0
}

// checkAcronyms (CLA-4): every acronym used (well-known ones like API,
// UTF-8, SHA-256 or JWT — see terms.go —, requirement-id prefixes, named
// technologies, the document's enumerated values such as ACCEPT or
// PENDING — see values.go — and anything in inline code aside) is expanded or
// glossed where it first appears — "Service Level Objective (SLO)", "SLO
// (Service Level Objective)", or a glossary entry "SLO: …" before its first
// use — and at least one term is defined.
func checkAcronyms(w *view) result {
	defs := acronymDefinitions(w)
	defAt := map[string]int{}
	for _, d := range defs {
		if _, ok := defAt[d.acronym]; !ok {
			defAt[d.acronym] = d.line.no
		}
	}
	seen := map[string]bool{}
	values := enumeratedValues(w.d)
	for _, m := range mentionsOf(w.d) { // "NRs" are the document's NR-… ids
		values[idPrefix(m.ID)] = true
	}
	for _, l := range w.lines {
		if l.heading {
			continue
		}
		text := maskCode(l.text) // code is not prose: `TIMEOUT` is no acronym
		for _, loc := range findAcronyms(text) {
			tok := text[loc[0]:loc[1]]
			a := strings.TrimSuffix(tok, "s")
			if seen[a] || values[tok] || values[a] || isKnownAcronym(a) || len(a) < 2 || len(a) > 8 {
				continue
			}
			if loc[1] < len(text) && text[loc[1]] == '-' { // a requirement id: FR-001
				continue
			}
			if loc[1]+1 < len(text) && text[loc[1]] == '.' && text[loc[1]+1] >= 'a' && text[loc[1]+1] <= 'z' {
				continue // a file name: SKILL.md
			}
			if _, tech := lexicon.Technology(a); tech {
				continue
			}
			seen[a] = true
			if at, ok := defAt[a]; !ok || at > l.no {
				return result{cites: []Citation{w.cite(l)}, note: fmt.Sprintf("%s is used before it is defined (line %d)", a, l.no)}
			}
		}
	}
	if len(defs) == 0 {
		return result{note: "No acronym or domain term is defined"}
	}
	var ls []line
	for _, d := range defs {
		if !containsLine(ls, d.line) {
			ls = append(ls, d.line)
		}
	}
	return w.found(ls, fmt.Sprintf("%d term(s) defined; every acronym defined at first use", len(defAt)))
}

// checkNextSteps (CLA-5): next steps, action items, decisions, open
// questions, owners or a checklist.
func checkNextSteps(w *view) result {
	return lineTest(reNextSteps, 1, "next steps or decision points")(w)
}
