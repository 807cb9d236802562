package scoring

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crucible-go/crucible/diff"
)

// A document's enumerated values — verdict words (ACCEPT, REJECT,
// MODIFY), states (PENDING, RUNNING, DONE), severities, enum members —
// are written in capitals like acronyms, but they stand for themselves:
// the document lists them, and a reader needs no expansion of "REJECT".
// The acronym test (CLA-4) sets them aside. A capitalised word is a value
// when the document uses it as one:
//
//   - in a chain of capitalised words joined by "/", "|", "+" or an arrow
//     (and commas or "or" beside them): "PASS/FAIL/DEFERRED", "PENDING →
//     RUNNING → DONE, or FAILED", "BLOCKING+WARNING";
//   - after a label that introduces values — verdict, status, state,
//     decision, outcome, result, severity, priority, rating, disposition,
//     classification, level, tier, mode, recommendation, assessment,
//     grade, values, "one of", "mark(ed) as", "set to", "returns" — the
//     capitalised words that open what
//     follows it, after a colon, an opening parenthesis or a space: "**Verdict**:
//     **REFUTED**", "one verdict: ACCEPT, REJECT or MODIFY", "7 values
//     (NONE, CHECKING, PASS)", "status PASS" (but of "Status: BLOCKED
//     until the TQ drains" only BLOCKED);
//   - opening the cells of a table column, other than the first, in at
//     least two rows ("| ✅ PROCEED |", "| **VERIFIED** |"), or of any
//     column whose header is such a label;
//   - inside inline code (`PASS_RECOVERED`), which is code, not prose; as
//     a code identifier in prose: an assignment ("RUNNING=208") or a
//     member ("PhaseStatus.SKIPPED"); or quoted on its own ("STILL OPEN");
//   - in a list (commas, "or", "and") with another value or an identifier
//     with an underscore ("INCOMPLETE, HALT, TIMEOUT" beside RUNNING=208),
//     or that a noun calls values ("RELEASE, MILESTONE, and TASK values").
//
// A capitalised word used only in prose, outside these shapes, is still an
// acronym the document must define — "SLO, SLI and SLA" stays a list of
// acronyms.

const valueLabels = `verdicts?|status(?:es)?|states?|decisions?|outcomes?|results?|severit(?:y|ies)|priorit(?:y|ies)|ratings?|dispositions?|classifications?|levels?|tiers?|modes?|recommendations?|assessments?|grades?`

var (
	reCapsWord = regexp.MustCompile(`\b[A-Z][A-Z0-9_]+\b`)
	// reValueChain matches capitalised words joined by "/", "|", "+",
	// arrows, commas, "or" and "and"; a chain names values when one of its
	// joins is "/", "|", "+" or an arrow (reChainJoin) — "SLO, SLI and
	// SLA" is a list of acronyms, "PENDING → RUNNING → DONE, or FAILED"
	// one of states.
	reValueChain = regexp.MustCompile(`\b[A-Z][A-Z0-9_]+\b(?:\**\s*(?:/|\||\+|→|->|⇒|=>|,\s*or|,\s*and|,|or|and)\s*\**\b[A-Z][A-Z0-9_]+\b)+`)
	reChainJoin  = regexp.MustCompile(`/|\||\+|→|->|⇒|=>`)
	// reValueLabel matches a label that introduces values, and captures
	// the rest of its line.
	reValueLabel  = regexp.MustCompile(`(?i)\b(?:` + valueLabels + `|values?|one of|marks?|marked(?: as)?|set to|returns?)\b(?:[^:.;(\n]{0,24}?(?:\*\*|__)?\s*:|\s*\(|\s)(.*)`)
	reValueHeader = regexp.MustCompile(`(?i)\b(?:` + valueLabels + `)\b`)
	// reLeadingCaps matches a table cell that opens with a capitalised
	// word, bold or plain, after any mark ("✅ PROCEED").
	reLeadingCaps = regexp.MustCompile(`^[^\p{L}\p{N}]*[A-Z][A-Z0-9_]+\b`)
	reCodeSpan    = regexp.MustCompile("`[^`]*`")
	// reNamedAfter matches a list's noun that calls it values: "RELEASE,
	// MILESTONE, and TASK values".
	reNamedAfter = regexp.MustCompile(`^\**\s+(?:values|states|statuses|members|verdicts|levels|modes|tiers|outcomes)\b`)
	reIdentifier = regexp.MustCompile(`\b[A-Z][A-Z0-9_]+=|\.[A-Z][A-Z0-9_]+\b`)
	reQuotedCaps = regexp.MustCompile(`["“]([A-Z][A-Z0-9_]+(?:\s+[A-Z][A-Z0-9_]+){0,2})["”]`)
)

// enumeratedValues returns the capitalised words d uses as values.
func enumeratedValues(d *diff.Document) map[string]bool {
	vals := map[string]bool{}
	addAll := func(s string) {
		for _, m := range reCapsWord.FindAllString(s, -1) {
			vals[m] = true
		}
	}
	var header []string        // the header cells of the current table
	var opens []map[string]int // per column, the rows each capitalised word opens
	// valueHeader is reValueHeader's answer for a header cell: a
	// document's tables repeat their headers, and the pattern is costly.
	valueHeaders := map[string]bool{}
	valueHeader := func(cell string) bool {
		v, ok := valueHeaders[cell]
		if !ok {
			v = reValueHeader.MatchString(cell)
			valueHeaders[cell] = v
		}
		return v
	}
	flush := func() {
		for c, set := range opens {
			rows := 0
			for _, n := range set {
				rows += n
			}
			if c > 0 && rows >= 2 || (c < len(header) && valueHeader(header[c])) {
				for v := range set {
					vals[v] = true
				}
			}
		}
		header, opens = nil, nil
	}
	var lists []string // comma lists of capitalised words, for the last rule
	for _, b := range d.Blocks {
		if b.Kind != diff.TableRow {
			flush()
		}
		if b.Kind == diff.Code {
			continue
		}
		src := d.Text(b.Span)
		if strings.IndexByte(src, '`') >= 0 {
			for _, m := range reCodeSpan.FindAllString(src, -1) {
				addAll(m)
			}
		}
		src = maskCode(src)
		// A chain, an identifier and a quoted value all hold a capitalised
		// word of two characters or more; most prose has none to look for.
		caps := capsWords(src)
		if caps >= 2 { // a chain joins two
			for _, loc := range reValueChain.FindAllStringIndex(src, -1) {
				m := src[loc[0]:loc[1]]
				if reChainJoin.MatchString(m) || reNamedAfter.MatchString(src[loc[1]:]) {
					addAll(m)
				} else {
					lists = append(lists, m)
				}
			}
		}
		for _, m := range valueLabelMatches(src) {
			for _, v := range leadingValues(m[1]) {
				vals[v] = true
			}
		}
		if caps > 0 && mayHoldIdentifier(src) {
			for _, m := range reIdentifier.FindAllString(src, -1) {
				addAll(m)
			}
		}
		if caps > 0 && (strings.IndexByte(src, '"') >= 0 || strings.Contains(src, "“")) { // ContainsAny with a non-ASCII rune decodes every rune
			for _, m := range reQuotedCaps.FindAllStringSubmatch(src, -1) {
				addAll(m[1])
			}
		}
		if b.Kind != diff.TableRow {
			continue
		}
		if b.Header {
			flush()
			header = b.Cells
			continue
		}
		for c, cell := range b.Cells {
			for len(opens) <= c {
				opens = append(opens, map[string]int{})
			}
			if leadingCaps(cell) {
				for _, v := range leadingValues(strings.TrimLeftFunc(cell, notAlnum)) {
					opens[c][v]++
				}
			}
		}
	}
	flush()
	for _, l := range lists {
		members := reCapsWord.FindAllString(l, -1)
		if slices.ContainsFunc(members, func(m string) bool { return vals[m] || strings.Contains(m, "_") }) {
			addAll(l)
		}
	}
	return vals
}

// labelCores are lower-case strings every match of reValueLabel starts
// with, at a word boundary: a text without any of them there has no value
// label, and the pattern (case folding over an alternation without a
// literal prefix) is the costly part of the scan, so it runs only on the
// few blocks that have one.
var labelCores = []string{"verdict", "stat", "decision", "outcome", "result", "severit", "priorit", "rating",
	"disposition", "classification", "level", "tier", "mode", "recommendation", "assessment", "grade", "value",
	"one of", "mark", "set to", "return"}

// coresByInitial are the labelCores by their first letter, a to z.
var coresByInitial = func() (by [26][]string) {
	for _, c := range labelCores {
		by[c[0]-'a'] = append(by[c[0]-'a'], c)
	}
	return by
}()

// valueLabelMatches is reValueLabel.FindAllStringSubmatch(src, -1). The
// pattern runs from the first place a match can start (see
// valueLabelStart), with the byte before it for \b: the matches, and so
// their substrings, are the same.
func valueLabelMatches(src string) [][]string {
	start := valueLabelStart(src)
	if start < 0 {
		return nil
	}
	return reValueLabel.FindAllStringSubmatch(src[max(start-1, 0):], -1)
}

// mayHoldValueLabel reports whether s may hold a match of reValueLabel,
// in one pass and without lower-casing s: whether a label core starts,
// in any case, where \b can hold before a letter — at the start or after
// a byte that is not an ASCII word character. Case folding maps two
// non-ASCII letters to ASCII ones, the long s and the Kelvin sign; a text
// with either may hold a label spelt with it, so it may hold one.
func mayHoldValueLabel(s string) bool { return valueLabelStart(s) >= 0 }

// valueLabelStart returns where the first match of reValueLabel in s can
// start, or -1 when there is none: the first label core at a word start
// (no match starts before it, since every match starts with one), or 0 —
// anywhere — once a long s or a Kelvin sign comes first, since a label
// spelt with one may start before it.
func valueLabelStart(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			if c == 0xc5 && i+1 < len(s) && s[i+1] == 0xbf || // ſ
				c == 0xe2 && i+2 < len(s) && s[i+1] == 0x84 && s[i+2] == 0xaa { // K
				return 0
			}
			continue
		}
		if i > 0 && isWordByte(s[i-1]) {
			continue
		}
		if l := lowerASCII(c); l >= 'a' && l <= 'z' {
			for _, core := range coresByInitial[l-'a'] {
				if hasPrefixFoldASCII(s[i:], core) {
					return i
				}
			}
		}
	}
	return -1
}

// leadingCaps is reLeadingCaps.MatchString(cell) without the regexp
// engine, which ran on every cell of every table: after any runes that
// are neither letters nor numbers, a capital and a capital, digit or
// underscore, the run of those not followed by a lower-case ASCII letter
// (\b is ASCII: a non-ASCII letter after the run ends a word).
func leadingCaps(cell string) bool {
	i := 0
	for i < len(cell) {
		r, size := utf8.DecodeRuneInString(cell[i:])
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			break
		}
		i += size
	}
	if i+1 >= len(cell) || cell[i] < 'A' || cell[i] > 'Z' || !isCapsWordByte(cell[i+1]) {
		return false
	}
	j := i + 2
	for j < len(cell) && isCapsWordByte(cell[j]) {
		j++
	}
	return j == len(cell) || cell[j] < 'a' || cell[j] > 'z'
}

// isCapsWordByte reports [A-Z0-9_].
func isCapsWordByte(c byte) bool { return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' }

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFoldASCII reports whether s starts with lower, a lower-case
// ASCII string, in any ASCII case.
func hasPrefixFoldASCII(s, lower string) bool {
	if len(s) < len(lower) {
		return false
	}
	for j := 0; j < len(lower); j++ {
		if lowerASCII(s[j]) != lower[j] {
			return false
		}
	}
	return true
}

func notAlnum(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// reNextValue matches the next capitalised word of a list of values,
// after the separators and emphasis before it.
var reNextValue = regexp.MustCompile(`^(?:[\s,*_/|` + "`" + `]|\bor\b|\band\b|→|->)*([A-Z][A-Z0-9_]*)\b`)

// leadingValues returns the capitalised words that open s, up to the first
// other word: "ACCEPT, REJECT or MODIFY" gives all three, "NOT A SPEC
// CHANGE" all four, "BLOCKED until the TQ drains" only BLOCKED.
func leadingValues(s string) []string {
	var out []string
	for {
		m := reNextValue.FindStringSubmatchIndex(s)
		if m == nil {
			return out
		}
		out = append(out, s[m[2]:m[3]])
		s = s[m[1]:]
	}
}

// maskCode blanks the inline code spans of a line, byte for byte, so that
// offsets into the result are offsets into the line.
// capsWords counts, up to two, the words of s that open with a capital
// letter followed by a capital, a digit or an underscore: where a
// reCapsWord match can start.
func capsWords(s string) int {
	n := 0
	for i := 0; i+1 < len(s) && n < 2; i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' && (i == 0 || !isWordByte(s[i-1])) {
			if next := s[i+1]; next >= 'A' && next <= 'Z' || next >= '0' && next <= '9' || next == '_' {
				n++
			}
		}
	}
	return n
}

// mayHoldIdentifier reports whether s has where a reIdentifier match
// can be: "=" after a capital, digit or underscore, or "." before a
// capital and a capital, digit or underscore.
func mayHoldIdentifier(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '=':
			if i > 0 && (s[i-1] >= 'A' && s[i-1] <= 'Z' || s[i-1] >= '0' && s[i-1] <= '9' || s[i-1] == '_') {
				return true
			}
		case '.':
			if i+2 < len(s) && s[i+1] >= 'A' && s[i+1] <= 'Z' &&
				(s[i+2] >= 'A' && s[i+2] <= 'Z' || s[i+2] >= '0' && s[i+2] <= '9' || s[i+2] == '_') {
				return true
			}
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func maskCode(s string) string {
	if strings.IndexByte(s, '`') < 0 {
		return s
	}
	return reCodeSpan.ReplaceAllStringFunc(s, func(m string) string { return strings.Repeat(" ", len(m)) })
}
