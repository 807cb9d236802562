package diff

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/crucible-go/crucible/internal/words"
)

// Field values reduced to what is compared: options, numbers with their
// units, short texts, labels on known scales; when two values agree; and
// the class of a field's name.

type fldValueKind int

const (
	fvNone fldValueKind = iota // prose, or empty: never compared
	fvEnum                     // a label from a vocabulary-like set
	fvNum                      // a number or range with its unit
	fvText                     // a short delimited value, compared word for word
)

// Scales of enumerated values. Labels on one known scale can contradict
// each other; a free label ("GENUINE NEW REQUIREMENT") only differs.
const (
	fscaleVerdict  = "verdict"
	fscaleLevel    = "level"
	fscalePriority = "priority"
	fscaleBool     = "bool"
	fscaleDecision = "decision"
	fscaleToken    = "token"  // a single identifier-like word: direct-test, keep
	fscaleLabel    = "label"  // a short upper-case label of no known scale
	fscaleOption   = "option" // one of a document's lettered or numbered options: "Option B (…)"
)

// fldValue is a value reduced to what is compared.
type fldValue struct {
	kind   fldValueKind
	scale  string
	class  string // what two enumerated or text values must share to agree
	lo, hi float64
	unit   string
	label  string // for people: "OVERSTATED", "CONFIRMED HIGH", "12-16 h"
	// hedged marks a negative verdict whose rationale grants the item may
	// hold: it differs from an accepting verdict without contradicting it.
	hedged bool
}

// fldNormalise normalises a field's value; a labelled list of code spans
// ("**Scope**: `commands.py`, `executor.py`") is the set of what it names.
func fldNormalise(f Field) fldValue {
	return fldNormaliseWith(f, nil)
}

// fldNormaliseWith is fldNormalise with the normalised values of a cache
// (nil for none).
func fldNormaliseWith(f Field, fc *fieldCache) fldValue {
	if f.Form == FormLabel && f.raw != "" {
		if nv, ok := codeList(f.raw); ok {
			return nv
		}
	}
	if f.lines {
		return fc.normalise(f.Value+" lines", f.Bounded, f.Form)
	}
	return fc.normalise(f.Value, f.Bounded, f.Form)
}

// codeList reads a value made of code spans, each optionally followed by
// a note: "`a.py` (CLI layer), `b.py`". Paths count by their base name.
func codeList(raw string) (fldValue, bool) {
	head := strings.TrimSpace(raw)
	for _, sep := range []string{" -- ", " — ", " – "} {
		if i := strings.Index(head, sep); i >= 0 {
			head = head[:i]
		}
	}
	var names []string
	depth, start := 0, 0
	part := func(p string) bool {
		p = strings.TrimSpace(p)
		if !strings.HasPrefix(p, "`") {
			return false
		}
		end := strings.Index(p[1:], "`")
		if end <= 0 {
			return false
		}
		name := p[1 : end+1]
		if rest := strings.TrimSpace(p[end+2:]); rest != "" && !(strings.HasPrefix(rest, "(") && strings.HasSuffix(rest, ")")) {
			return false // prose about the code, not a list of it
		}
		if i := strings.LastIndex(name, "/"); i >= 0 && i < len(name)-1 {
			name = name[i+1:]
		}
		names = append(names, strings.ToLower(name))
		return true
	}
	for i, c := range head {
		switch c {
		case '(':
			depth++
		case ')':
			depth = max(depth-1, 0)
		case ',':
			if depth == 0 {
				if !part(head[start:i]) {
					return fldValue{}, false
				}
				start = i + 1
			}
		}
	}
	if !part(head[start:]) {
		return fldValue{}, false
	}
	slices.Sort(names)
	names = slices.Compact(names)
	return fldValue{kind: fvText, class: "code:" + strings.Join(names, ","), label: strings.Join(names, ", ")}, true
}

// normaliseFieldValue reduces a value for comparison. bounded says the value's
// extent is marked in the source, so a short free text is a value too.
func normaliseFieldValue(raw string, bounded bool, form FieldForm) fldValue {
	v := strings.TrimSpace(fldPlain(raw))
	if v == "" {
		return fldValue{}
	}
	head, after := fldValueHead(v)
	bare := strings.TrimSpace(fldStripParens(head))
	if bare == "" {
		return fldValue{}
	}
	toks := strings.Fields(bare)
	if nv, ok := fldOptionValue(v); ok {
		return nv
	}
	if nv, ok := fldLevelValue(toks, head); ok {
		return nv
	}
	if lbl, rest, ok := fldUpperLabel(head); ok {
		return fldEnumLabel(lbl, rest, after)
	}
	if len(toks) > 1 && strings.HasSuffix(toks[0], ",") && fldKnownWord(strings.TrimSuffix(toks[0], ",")) {
		// "keep, orthogonal (fast vs slow)": a known word, then remarks
		toks = toks[:1]
		head = strings.TrimSuffix(toks[0], ",")
	}
	if len(toks) <= 2 {
		first := strings.ToUpper(strings.Trim(toks[0], ".,;:!"))
		if len(toks) == 1 {
			if _, ok := fldVerdictClass[first]; ok {
				return fldEnumLabel(first, strings.TrimSpace(strings.TrimPrefix(head, toks[0])), after)
			}
			if fldDecisions[first] {
				return fldValue{kind: fvEnum, scale: fscaleDecision, class: first, label: first}
			}
			if b, ok := fldBools[first]; ok && len(first) > 1 {
				return fldValue{kind: fvEnum, scale: fscaleBool, class: b, label: first}
			}
			if fldPriorityRE.MatchString(first) {
				return fldValue{kind: fvEnum, scale: fscalePriority, class: first, label: first}
			}
		}
	}
	if nv, ok := fldNumericValue(bare); ok {
		return nv
	}
	if len(toks) == 1 && fldTokenRE.MatchString(strings.Trim(toks[0], ".,;:!")) {
		t := strings.ToLower(strings.Trim(toks[0], ".,;:!"))
		return fldValue{kind: fvEnum, scale: fscaleToken, class: strings.ToUpper(t), label: t}
	}
	limit := 0
	switch {
	case form == FormYAML:
		limit = 4
	case form == FormTable:
		limit = 6
	case bounded:
		limit = 20
	}
	if n := words.Count(v); n > 0 && n <= limit {
		if form == FormYAML && strings.HasPrefix(v, "[") {
			return fldValue{kind: fvText, class: strings.Join(strings.Fields(v), ""), label: v}
		}
		return fldValue{kind: fvText, class: fldTextClass(v), label: v}
	}
	return fldValue{}
}

// fldOptionRE matches a value that opens by naming one of the options a
// document weighs: "Option B (background subprocess)", "Alternative 2",
// "Approach C for v1". "Hybrid Option B + Option C" names two and is text.
var fldOptionRE = regexp.MustCompile(`^(?i)(option|alternative|approach|strategy|variant|design)\s+([A-Z]|\d{1,2})\b(.*)$`)

var fldSecondOptionRE = regexp.MustCompile(`(?i)\b(option|alternative|approach)\s+([A-Z]|\d{1,2})\b`)

// fldOptionValue reads a chosen option; values naming one option compare
// by its letter or number.
func fldOptionValue(v string) (fldValue, bool) {
	m := fldOptionRE.FindStringSubmatch(v)
	if m == nil || fldSecondOptionRE.MatchString(m[3]) {
		return fldValue{}, false
	}
	// "Option B (…), with a soft-join checkpoint" amends the option: it is
	// not the plain option another variant picks.
	rest := strings.TrimSpace(m[3])
	if strings.HasPrefix(rest, "(") {
		if end := strings.Index(rest, ")"); end >= 0 {
			rest = strings.TrimSpace(rest[end+1:])
		}
	}
	// A clause set off by a comma, a semicolon or a dash adds to the option
	// ("Option B, with a checkpoint"); "Option D (configurable) with three
	// modes" only says how the option is set up.
	rest = strings.ToLower(rest)
	if strings.HasPrefix(rest, "+") || strings.HasPrefix(rest, "plus ") || strings.HasPrefix(rest, "combined") {
		return fldValue{}, false
	}
	if strings.HasPrefix(rest, ",") || strings.HasPrefix(rest, ";") || strings.HasPrefix(rest, "—") || strings.HasPrefix(rest, "-") {
		clause := strings.TrimSpace(strings.TrimLeft(rest, ",;—- "))
		for _, amend := range []string{"with ", "plus ", "and ", "but ", "except "} {
			if strings.HasPrefix(clause, amend) {
				return fldValue{}, false
			}
		}
	}
	label := strings.ToUpper(m[1][:1]) + strings.ToLower(m[1][1:]) + " " + strings.ToUpper(m[2])
	return fldValue{kind: fvEnum, scale: fscaleOption, class: strings.ToUpper(m[1] + " " + m[2]), label: label}, true
}

var fldTokenRE = regexp.MustCompile(`^[A-Za-z][a-z0-9]*(?:[-_][a-z0-9]+)*$`)

// fldValueHead cuts a value at the end of its first clause: a sentence end,
// a dash or a semicolon outside parentheses. after is the rest.
func fldValueHead(v string) (head, after string) {
	depth := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth = max(depth-1, 0)
		case depth > 0:
		case c == '.' && (i+1 == len(v) || v[i+1] == ' ') && !(i > 0 && unicode.IsDigit(rune(v[i-1])) && i+1 < len(v) && unicode.IsDigit(rune(v[i+1]))):
			return strings.TrimSpace(v[:i]), strings.TrimSpace(v[i+1:])
		case c == ';' || (c == ':' && (i+1 == len(v) || v[i+1] == ' ')):
			return strings.TrimSpace(v[:i]), strings.TrimSpace(v[i+1:])
		case strings.HasPrefix(v[i:], " -- ") || strings.HasPrefix(v[i:], " — ") || strings.HasPrefix(v[i:], " – "):
			return strings.TrimSpace(v[:i]), strings.TrimSpace(v[i+3:])
		}
	}
	return strings.TrimSpace(v), ""
}

func fldStripParens(s string) string {
	if !strings.ContainsAny(s, "()") && fldSpaced(s) {
		return s
	}
	var b strings.Builder
	depth := 0
	for _, c := range s {
		switch {
		case c == '(':
			depth++
		case c == ')':
			depth = max(depth-1, 0)
		case depth == 0:
			b.WriteRune(c)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

var fldNumRE = regexp.MustCompile(`^[~≈<>≤≥]*\s*(\d[\d,]*(?:\.\d+)?)\s*([kKmM]\b)?(?:\s*(?:-|–|to)\s*[~≈]?(\d[\d,]*(?:\.\d+)?)\s*([kKmM]\b)?)?\s*([A-Za-z%]+)?`)

// fldNumericValue reads a value that opens with a number or a range and its
// unit: "12-16h including tests", "5-7 days", "300", "~650 LOC".
func fldNumericValue(s string) (fldValue, bool) {
	m := fldNumRE.FindStringSubmatch(s)
	if m == nil {
		return fldValue{}, false
	}
	parse := func(n, mult string) float64 {
		f, err := strconv.ParseFloat(strings.ReplaceAll(n, ",", ""), 64)
		if err != nil {
			return 0
		}
		switch strings.ToLower(mult) {
		case "k":
			f *= 1e3
		case "m":
			f *= 1e6
		}
		return f
	}
	lo := parse(m[1], m[2])
	hi := lo
	if m[3] != "" {
		hi = parse(m[3], m[4])
		if m[2] == "" && m[4] != "" {
			lo = parse(m[1], m[4]) // "150-280k"
		}
	}
	rest := strings.TrimSpace(s[len(m[0]):])
	if rest != "" && !strings.HasPrefix(rest, "(") {
		// "2 of the 3 reviewers" is not a number of anything, nor is
		// "9 phases × T2-deep × ~50k tokens = ~450k tokens" one number
		if words.Count(rest) > 3 || strings.ContainsAny(rest, "×=+*/≈") {
			return fldValue{}, false
		}
	}
	unit := fldUnit(m[5])
	label := strings.TrimSpace(s[:len(m[0])])
	return fldValue{kind: fvNum, lo: min(lo, hi), hi: max(lo, hi), unit: unit, label: label}, true
}

func fldUnit(u string) string {
	u = strings.ToLower(u)
	switch u {
	case "h", "hr", "hrs", "hour", "hours":
		return "h"
	case "d", "day", "days":
		return "d"
	case "w", "wk", "wks", "week", "weeks":
		return "w"
	case "min", "mins", "minute", "minutes":
		return "min"
	case "s", "sec", "secs", "second", "seconds":
		return "s"
	case "ms":
		return "ms"
	}
	return words.Stem(u)
}

// fldTextClass is a short text reduced to its significant words, in order.
func fldTextClass(s string) string {
	var ws []string
	words.Each(s, func(w string) {
		if !words.IsStopWord(w) {
			ws = append(ws, fldStem(w))
		}
	})
	return strings.Join(ws, " ")
}

// agree reports whether two normalised values say the same, and whether
// they can be compared at all: prose is not compared, nor a number with a
// label.
func (a fldValue) agree(b fldValue) (same, comparable bool) {
	if a.kind == fvNone || b.kind == fvNone || a.kind != b.kind {
		return false, false
	}
	switch a.kind {
	case fvNum:
		if a.unit != b.unit {
			return false, false
		}
		if a.unit == "line" {
			return a.lo == b.lo && a.hi == b.hi, true // line numbers name lines: 768 is not 769
		}
		return fldApprox(a.lo, b.lo) && fldApprox(a.hi, b.hi), true
	case fvEnum:
		if a.scale == fscaleVerdict && b.scale == fscaleVerdict {
			return a.class == b.class, true
		}
		if a.scale == fscaleVerdict || b.scale == fscaleVerdict {
			// A verdict and a free label ("GENUINE NEW REQUIREMENT")
			// never say the same; a verdict and a setting are not about
			// the same thing.
			return false, a.scale == fscaleLabel || b.scale == fscaleLabel
		}
		return a.class == b.class, true
	}
	return a.class == b.class, true
}

func fldApprox(x, y float64) bool { return relDiff(x, y) < 0.005 }

// conflicting reports whether two values on one known scale contradict.
func (a fldValue) conflicting(b fldValue) bool {
	if a.kind != fvEnum || b.kind != fvEnum || a.comparableScale() != b.comparableScale() || a.class == b.class || a.hedged || b.hedged {
		return false
	}
	switch a.scale {
	case fscaleVerdict, fscaleLevel, fscalePriority, fscaleBool, fscaleDecision, fscaleToken, fscaleOption:
		return true
	}
	return false
}

// comparableScale groups the scales whose values can contradict each
// other: a known decision ("keep") and another one-word setting
// ("simplify") answer one question.
func (a fldValue) comparableScale() string {
	if a.scale == fscaleDecision {
		return fscaleToken
	}
	return a.scale
}

// ---- field names ----

// fldClass names what a field measures, so that fields of different
// names can be compared: the judgement of a review ("Verdict",
// "Assessment", "Accuracy", "Status") is one field, a severity or impact
// another — and a judgement given as a level is a severity ("My
// Assessment: MEDIUM"). Other names stand for themselves.
//
// It reads of v its kind and scale only (fieldCache.class keys on them).
func fldClass(name string, v fldValue) string {
	n := strings.ToLower(fldStripParens(fldPlain(name)))
	toks := words.Tokens(n)
	if len(toks) == 0 {
		return ""
	}
	head := words.Stem(toks[len(toks)-1])
	switch head {
	case "verdict", "assessment", "accuracy", "evaluation", "conclusion", "judgement", "judgment", "rating", "status":
		switch {
		case v.kind == fvEnum && v.scale == fscaleLevel:
			return "severity"
		case v.kind == fvEnum && v.scale == fscalePriority:
			return "priority"
		case v.kind == fvEnum:
			return "verdict"
		}
		return "verdict:" + n
	case "severity", "impact", "criticality":
		return "severity"
	case "probability", "likelihood":
		return "probability"
	case "priority":
		return "priority"
	}
	return strings.Join(toks, " ")
}
