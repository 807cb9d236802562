package diff

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The known scales of labelled values — reviewers' verdicts, ordinal
// levels, decisions, booleans, priorities — and reading a value's leading
// upper-case label or level.

// fldVerdictClass maps reviewers' verdict words to what they mean for the
// reviewed claim. Words of one class agree.
var fldVerdictClass = map[string]string{
	"ACCURATE": "agree", "CONFIRMED": "agree", "VERIFIED": "agree", "CORRECT": "agree", "VALID": "agree",
	"VALIDATED": "agree", "CONSISTENT": "agree", "SOUND": "agree", "SUPPORTED": "agree", "JUSTIFIED": "agree",
	"AGREE": "agree", "AGREED": "agree", "TRUE": "agree", "GENUINE": "agree", "LEGITIMATE": "agree",
	"PARTIAL": "partial", "CLOSE": "partial", "APPROXIMATE": "partial",
	"INACCURATE": "disagree", "INCORRECT": "disagree", "REFUTED": "disagree", "WRONG": "disagree", "INVALID": "disagree",
	"INCONSISTENT": "disagree", "UNSUPPORTED": "disagree", "UNJUSTIFIED": "disagree", "DISPUTED": "disagree",
	"FALSE": "disagree", "DISAGREE": "disagree", "INACCURACY": "disagree", "INACCURACIES": "disagree",
	"OVERSTATED": "overstated", "EXAGGERATED": "overstated", "INFLATED": "overstated", "OVERESTIMATED": "overstated",
	"UNDERSTATED": "understated", "UNDERESTIMATED": "understated",
	"UNVERIFIABLE": "unverifiable", "UNVERIFIED": "unverifiable", "UNCLEAR": "unverifiable", "INCONCLUSIVE": "unverifiable",
}

// fldLevels is the ordinal scale of severities, impacts and probabilities.
var fldLevels = map[string]string{
	"LOW": "LOW", "MEDIUM": "MEDIUM", "MED": "MEDIUM", "MODERATE": "MEDIUM", "HIGH": "HIGH", "CRITICAL": "CRITICAL",
}

var fldDecisions = map[string]bool{
	"ACCEPT": true, "ACCEPTED": true, "MODIFY": true, "REJECT": true, "REJECTED": true, "APPROVE": true,
	"APPROVED": true, "DEFER": true, "DEFERRED": true, "KEEP": true, "DISCARD": true, "RETAIN": true, "REMOVE": true,
	"ADOPT": true, "DROP": true, "MERGE": true,
}

var fldBools = map[string]string{"YES": "YES", "NO": "NO", "TRUE": "YES", "FALSE": "NO", "Y": "YES", "N": "NO"}

var fldPriorityRE = regexp.MustCompile(`^P[0-4]$`)

// qualifiers start the words that narrow a positive verdict ("ACCURATE
// with correction", "ACCURATE on the gap identification"); corrections
// in parentheses do the same ("ACCURATE (line range … is imprecise)").
var (
	fldQualifierWords = map[string]bool{"with": true, "but": true, "except": true, "in": true, "on": true, "for": true,
		"though": true, "although": true, "apart": true, "mostly": true, "partially": true}
	fldCorrectionRE = regexp.MustCompile(`(?i)\b(?:not|imprecise|inaccurate|incorrect|wrong|off by|offset|minor|but|except|however|partially|partly|should be|actually)\b`)
)

// fldUpperLabel finds a leading upper-case label: "OVERSTATED", "CONFIRMED
// HIGH", "PARTIALLY_CONFIRMED", "NOT A SPEC REQUIREMENT". An acronym
// followed by ordinary words ("TUI completion guard") is not a label.
func fldUpperLabel(head string) (label, rest string, ok bool) {
	// Most values do not open with a capitalised word: they are told by
	// their first word, before every word is split out.
	if t := strings.TrimRight(firstField(head), ".,;:!"); strings.HasPrefix(t, "(") || !fldUpperToken(t) {
		return "", "", false
	}
	toks := strings.Fields(head)
	var run []string
	i := 0
	for ; i < len(toks); i++ {
		t := strings.TrimRight(toks[i], ".,;:!")
		if strings.HasPrefix(t, "(") || !fldUpperToken(t) {
			break
		}
		run = append(run, t)
		if t != toks[i] {
			i++
			break // punctuation ends the label
		}
	}
	if len(run) == 0 {
		return "", "", false
	}
	long := false
	for _, t := range run {
		if fldLetters(t) >= 2 {
			long = true
		}
	}
	if !long {
		return "", "", false
	}
	rest = strings.TrimSpace(strings.Join(toks[i:], " "))
	label = strings.Join(run, " ")
	if rest != "" && !strings.HasPrefix(rest, "(") {
		next := strings.ToLower(firstField(rest))
		_, known := fldVerdictClass[strings.TrimSuffix(strings.ToUpper(run[0]), "LY")]
		if !fldQualifierWords[next] && next != "to" && !known && !fldKnownWord(run[0]) {
			return "", "", false
		}
	}
	return label, rest, true
}

func fldKnownWord(w string) bool {
	w = strings.ToUpper(w)
	_, v := fldVerdictClass[w]
	_, l := fldLevels[w]
	return v || l || fldDecisions[w] || strings.HasPrefix(w, "PARTIAL") || w == "NOT"
}

func fldUpperToken(t string) bool {
	if t == "" || fldLetters(t) == 0 {
		return false
	}
	for _, c := range t {
		switch {
		case unicode.IsLower(c):
			return false
		case unicode.IsUpper(c), unicode.IsDigit(c), c == '_', c == '-', c == '/', c == '&':
		default:
			return false
		}
	}
	return true
}

func fldLetters(s string) int {
	n := 0
	for _, c := range s {
		if unicode.IsLetter(c) {
			n++
		}
	}
	return n
}

// fldEnumLabel classifies a label: a verdict (with its agreement class, a
// qualified positive verdict counting as partial), a decision, a boolean,
// a priority, or a free label.
func fldEnumLabel(label, rest, after string) fldValue {
	up := strings.ToUpper(strings.ReplaceAll(label, "_", " "))
	toks := strings.Fields(up)
	nv := fldValue{kind: fvEnum, label: strings.ToUpper(label)}
	if len(toks) == 0 {
		return fldValue{}
	}
	cls := ""
	switch {
	case len(toks) == 1:
		cls = fldVerdictClass[toks[0]]
	case len(toks) == 2 && (toks[0] == "PARTIALLY" || toks[0] == "PARTLY" || toks[0] == "MOSTLY" || toks[0] == "LARGELY"):
		if fldVerdictClass[toks[1]] == "agree" {
			cls = "partial"
		}
	case len(toks) == 2 && toks[0] == "NOT":
		switch fldVerdictClass[toks[1]] {
		case "agree":
			cls = "disagree"
		case "disagree":
			cls = "agree"
		}
	case fldVerdictClass[toks[0]] != "" && fldVerdictNoun(toks[1:]):
		// "GENUINE NEW REQUIREMENT", "VALID CONCERN": a verdict word that
		// names what it judges is that verdict.
		cls = fldVerdictClass[toks[0]]
	}
	if cls != "" {
		if cls == "agree" && fldQualified(rest) {
			cls = "partial"
			nv.label += " (qualified)"
		}
		nv.scale, nv.class = fscaleVerdict, cls
		nv.hedged = cls != "agree" && fldConcedes(after)
		return nv
	}
	if len(toks) == 1 {
		switch {
		case fldDecisions[toks[0]]:
			nv.scale, nv.class = fscaleDecision, toks[0]
			return nv
		case fldBools[toks[0]] != "" && len(toks[0]) > 1:
			nv.scale, nv.class = fscaleBool, fldBools[toks[0]]
			return nv
		case fldPriorityRE.MatchString(toks[0]):
			nv.scale, nv.class = fscalePriority, toks[0]
			return nv
		}
	}
	nv.scale, nv.class = fscaleLabel, strings.Join(toks, " ")
	return nv
}

// fldVerdictNotNoun are words after a verdict word that change what it
// says rather than name what it judges: "CORRECT BUT INCOMPLETE", "VALID
// EXCEPT …", "ACCURATE IN PART".
var fldVerdictNotNoun = map[string]bool{"NOT": true, "BUT": true, "EXCEPT": true, "IN": true, "WITH": true, "ON": true,
	"FOR": true, "TO": true, "AS": true, "OR": true, "AND": true, "IF": true, "UNLESS": true, "PARTIALLY": true, "PARTLY": true,
	"MOSTLY": true, "LARGELY": true, "ONLY": true, "YET": true, "THOUGH": true, "ALTHOUGH": true}

// fldVerdictNoun reports whether the words after a verdict word only name
// what it judges ("NEW REQUIREMENT", "CONCERN"): none of them qualifies,
// negates or is itself a verdict, a level or a decision.
func fldVerdictNoun(toks []string) bool {
	if len(toks) == 0 || len(toks) > 3 {
		return false
	}
	for _, t := range toks {
		if fldVerdictNotNoun[t] || fldKnownWord(t) || fldLetters(t) < 2 {
			return false
		}
	}
	return true
}

// fldConcessionRE finds a rationale that grants the reviewed item may hold
// after all: "OVERSTATED. The requirement may be legitimate …".
var fldConcessionRE = regexp.MustCompile(`(?i)\b(?:may|might|could)\s+(?:well\s+|still\s+)?be\s+(?:legitimate|valid|justified|genuine|reasonable|warranted|correct|right)\b`)

// fldConcedes reports whether the first sentence after a negative verdict
// concedes that the item may hold: such a verdict disputes how the item
// is argued or ranked, not that it holds, so it does not contradict a
// reviewer who accepts the item.
func fldConcedes(after string) bool {
	if i := strings.IndexAny(after, ".;"); i >= 0 {
		after = after[:i]
	}
	return fldConcessionRE.MatchString(after)
}

// fldQualified reports whether the words after a positive verdict narrow it.
func fldQualified(rest string) bool {
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return false
	}
	if strings.HasPrefix(rest, "(") {
		end := strings.Index(rest, ")")
		if end < 0 {
			end = len(rest)
		}
		return fldCorrectionRE.MatchString(rest[:end])
	}
	return fldQualifierWords[strings.ToLower(firstField(rest))]
}

var fldLevelTokRE = regexp.MustCompile(`^(?i)(LOW|MEDIUM|MED|MODERATE|HIGH|CRITICAL)(?:[-/](LOW|MEDIUM|MED|MODERATE|HIGH|CRITICAL))?$`)

// fldLevelStart reports whether t can match fldLevelTokRE, which needs a
// level word first: an ASCII start other than l, m, h or c (in either
// case) cannot. A non-ASCII start is left to the pattern.
func fldLevelStart(t string) bool {
	if t == "" {
		return false
	}
	switch c := t[0]; {
	case c >= utf8.RuneSelf:
		return true
	default:
		return strings.IndexByte("lLmMhHcC", c) >= 0
	}
}

// fldLevelTok returns the two level words fldLevelTokRE finds in t (its
// submatches; the second may be empty), and whether it matches. An ASCII token is
// read without the pattern: one level word, or two joined by '-' or '/',
// in either case — most tokens are not, and the pattern allocated for
// each. A token with other bytes is left to the pattern, whose case
// folding reaches beyond ASCII.
func fldLevelTok(t string) (first, second string, ok bool) {
	if !isASCII(t) {
		if m := fldLevelTokRE.FindStringSubmatch(t); m != nil {
			return m[1], m[2], true
		}
		return "", "", false
	}
	first = t
	if i := strings.IndexAny(t, "-/"); i >= 0 {
		first, second = t[:i], t[i+1:]
		if !fldIsLevelWord(second) {
			return "", "", false
		}
	}
	if !fldIsLevelWord(first) {
		return "", "", false
	}
	return first, second, true
}

// fldIsLevelWord reports whether the ASCII word w is one of the level
// words of fldLevelTokRE, in any case.
func fldIsLevelWord(w string) bool {
	for _, l := range fldLevelWords {
		if len(w) == len(l) && hasFold(w, l) {
			return true
		}
	}
	return false
}

// fldLevelWords are the words fldLevelTokRE is made of, lower-cased.
var fldLevelWords = [...]string{"low", "medium", "med", "moderate", "high", "critical"}

// fldLevelValue reads an ordinal level: "Low", "Low-Medium", "CONFIRMED
// HIGH", "RECLASSIFY to CRITICAL", "HIGH -- P0 blocker". The value must
// name one level; "High (TUI) / Medium (Logger)" names two and is not one.
func fldLevelValue(toks []string, head string) (fldValue, bool) {
	found := ""
	for i, t := range toks {
		t = strings.Trim(t, ".,;:!*")
		if !fldLevelStart(t) {
			continue
		}
		first, second, ok := fldLevelTok(t)
		if !ok {
			continue
		}
		// Title-case level words count only as the whole value ("Low",
		// "Medium-High"); inside longer text only shouted ones do.
		if len(toks) > 1 && t != strings.ToUpper(t) {
			return fldValue{}, false
		}
		if len(toks) > 1 && i > 0 && !fldUpperToken(strings.Trim(toks[0], ".,;:!")) {
			return fldValue{}, false
		}
		if found != "" {
			return fldValue{}, false
		}
		found = fldLevels[strings.ToUpper(first)]
		if second != "" {
			found += "-" + fldLevels[strings.ToUpper(second)]
		}
	}
	if found == "" {
		return fldValue{}, false
	}
	if len(toks) > 1 {
		// Every other word must be part of a label: "CONFIRMED HIGH",
		// "RECLASSIFY to HIGH"; not "HIGH availability is required".
		for _, t := range toks {
			t = strings.Trim(t, ".,;:!*")
			if !fldUpperToken(t) && t != "to" && t != "as" {
				return fldValue{}, false
			}
		}
	}
	return fldValue{kind: fvEnum, scale: fscaleLevel, class: found, label: strings.ToUpper(strings.Join(strings.Fields(fldStripParens(head)), " "))}, true
}
