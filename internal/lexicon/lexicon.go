// Package lexicon holds the word lists and patterns the deterministic steps
// share to judge prose: which phrases are vague ("as appropriate", "might",
// "best practices" without a citation) and which marks make a statement
// concrete (numbers with units, dates, thresholds, named technologies).
// The diff step uses it to tell claims from vague statements, the scoring
// step to compute the specificity ratio; both must agree, so the lists live
// here once.
package lexicon

import (
	"sort"
	"strings"
)

// vaguePhrases are the vague indicators of the specificity ratio ("as
// needed", "properly", "best practices" without a citation, …),
// lower-cased. A statement containing one is vague and no scorable claim.
var vaguePhrases = []string{
	"as appropriate", "as needed", "as necessary", "if necessary", "where possible", "where appropriate",
	"when appropriate", "appropriate", "properly", "adequate", "adequately", "should consider",
	"might", "various", "etc", "best practice", "best practices", "industry standard",
	"industry-standard", "reasonable", "sufficient", "as required", "and so on", "tbd", "to be determined",
}

// vagueByFirst indexes the vague phrases by their first word.
var vagueByFirst = func() map[string][]string {
	m := map[string][]string{}
	for _, p := range vaguePhrases {
		first := p
		if i := strings.IndexAny(p, " -"); i > 0 {
			first = p[:i]
		}
		m[first] = append(m[first], p)
	}
	return m
}()

// vagueShapes marks the lengths and first bytes of the first words of
// vaguePhrases: most words of a text have another shape, and skip the
// map lookup (longer words are looked up).
var vagueShapes = func() (t [24][256]bool) {
	for first := range vagueByFirst {
		if len(first) < len(t) {
			t[len(first)][first[0]] = true
		}
	}
	return t
}()

// standards are named standards whose mention is a citation.
var standards = []string{"rfc", "iso", "iec", "nist", "owasp", "wcag", "pci", "soc2", "soc 2", "gdpr", "hipaa"}

// cites reports whether lower-cased text cites a source, which redeems
// "best practices" and "industry standard": a reference in brackets, a
// URL, or a named standard ("RFC 9110", "ISO 27001", "OWASP ASVS").
func cites(lower string) bool {
	if strings.Contains(lower, "http://") || strings.Contains(lower, "https://") {
		return true
	}
	if i := strings.IndexByte(lower, '['); i >= 0 && strings.IndexByte(lower[i+1:], ']') > 0 {
		return true
	}
	for _, std := range standards {
		for from := 0; ; {
			i := strings.Index(lower[from:], std)
			if i < 0 {
				break
			}
			at := from + i
			if wordBoundary(lower, at-1) && wordBoundary(lower, at+len(std)) {
				return true
			}
			from = at + len(std)
		}
	}
	return false
}

// VagueMatches returns the vague indicators found in s, lower-cased, in
// order of appearance. "best practices" and "industry standard" do not
// count when the statement cites a source. A longer phrase wins over a
// shorter one inside it ("as appropriate", not also "appropriate").
func VagueMatches(s string) []string { return VagueMatchesLower(strings.ToLower(s)) }

// VagueMatchesLower is VagueMatches for text the caller has already
// lower-cased with strings.ToLower, so a hot loop lower-cases once.
func VagueMatchesLower(lower string) []string {
	type hit struct {
		at     int
		phrase string
	}
	var hits []hit
	// One pass over the words: each word start is looked up among the
	// first words of the phrases.
	for i := 0; i < len(lower); {
		if !wordBoundary(lower, i-1) || wordBoundary(lower, i) {
			i++
			continue
		}
		j := i
		for j < len(lower) && !wordBoundary(lower, j) {
			j++
		}
		if w := lower[i:j]; len(w) < len(vagueShapes) && !vagueShapes[len(w)][w[0]] {
			i = j
			continue // no phrase starts with a word of this length and first byte
		}
		for _, p := range vagueByFirst[lower[i:j]] {
			if strings.HasPrefix(lower[i:], p) && wordBoundary(lower, i+len(p)) {
				hits = append(hits, hit{i, p})
			}
		}
		i = j
	}
	if len(hits) == 0 {
		return nil
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].at != hits[j].at {
			return hits[i].at < hits[j].at
		}
		return len(hits[i].phrase) > len(hits[j].phrase)
	})
	cited := -1 // unknown until a phrase needs it
	var out []string
	end := -1
	for _, h := range hits {
		if h.at < end {
			continue // inside a longer phrase already counted
		}
		end = h.at + len(h.phrase)
		if strings.HasPrefix(h.phrase, "best practice") || strings.HasPrefix(h.phrase, "industry") {
			if cited < 0 {
				cited = 0
				if cites(lower) {
					cited = 1
				}
			}
			if cited == 1 {
				continue
			}
		}
		out = append(out, h.phrase)
	}
	return out
}

// wordBoundary reports whether byte i of a lower-cased s lies outside a
// word: before the start, past the end, or not a letter, digit or '_'.
func wordBoundary(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return true
	}
	c := s[i]
	return !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80 || c == '_')
}

// IsVague reports whether s contains a vague indicator.
func IsVague(s string) bool { return len(VagueMatches(s)) > 0 }

// IsVagueLower is IsVague for text already lower-cased with strings.ToLower.
func IsVagueLower(lower string) bool { return len(VagueMatchesLower(lower)) > 0 }

// ConcreteMatches returns the concrete indicators in s, in order: numbers
// and quantities ("5 milestones", "80%"), dates and timeframes ("by Q3",
// "2026-03-01", "6–8 weeks"), thresholds ("<200ms", "≥99.9%"), measurable
// criteria ("zero critical vulnerabilities", "within 5 minutes") and named
// technologies. A phrase counts once: "within 5 minutes" is one indicator.
//
// It is a hand-written scanner rather than a regular expression because
// the scoring and diff steps run it over every block of every variant.
func ConcreteMatches(s string) []string {
	var out []string
	scanConcrete(s, func(m string) { out = append(out, m) })
	return out
}

// ConcreteCount returns len(ConcreteMatches(s)) without building the list.
func ConcreteCount(s string) int {
	n := 0
	scanConcrete(s, func(string) { n++ })
	return n
}

// ConcreteCountLower is ConcreteCount(s) for a caller that has s with its
// ASCII letters lower-cased at hand (strings.ToLower of an ASCII s): the
// diff step counts every block, whose lower-cased text it keeps anyway.
// lower must be as long as s.
func ConcreteCountLower(s, lower string) int {
	n := 0
	scanConcreteLower(s, lower, func(string) { n++ })
	return n
}

func scanConcrete(s string, emit func(string)) {
	scanConcreteLower(s, asciiLower(s), emit)
}

// scanConcreteLower is scanConcrete with asciiLower(s) given.
func scanConcreteLower(s, lower string, emit func(string)) {
	for i := 0; i < len(lower); {
		c := lower[i]
		switch {
		case isDigit(c) && boundary(lower, i-1):
			j := scanQuantity(lower, i)
			emit(s[i:j])
			i = j
		case c == '<' || c == '>' || strings.HasPrefix(lower[i:], "≤") || strings.HasPrefix(lower[i:], "≥"):
			j := i + 1
			if c >= 0x80 {
				j = i + len("≤")
			}
			if j < len(lower) && lower[j] == '=' {
				j++
			}
			k := skipSpaces(lower, j)
			if k < len(lower) && isDigit(lower[k]) {
				end := scanQuantity(lower, k)
				emit(s[i:end])
				i = end
				continue
			}
			i = j
		case isLetter(c) && boundary(lower, i-1):
			end := wordEnd(lower, i)
			if j, ok := wordIndicator(lower, i, end); ok {
				emit(s[i:j])
				i = j
				continue
			}
			i = end
		default:
			i++
		}
	}
	for _, t := range TechnologyIn(s) {
		emit(t.Name)
	}
}

var qualifiers = []string{"at least ", "at most ", "no more than ", "no less than ", "within ", "under ", "below ", "above ", "up to "}

var months = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
	"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"}

// qualifiersByFirst files qualifiers by their first letter: every word
// of a text passes wordIndicator, and trying each qualifier on it was
// most of the time spent there.
var qualifiersByFirst = func() (t [26][]string) {
	for _, q := range qualifiers {
		t[q[0]-'a'] = append(t[q[0]-'a'], q)
	}
	return t
}()

// isMonth reports whether w is one of months: a switch, which the
// compiler turns into a search by length and bytes, for a loop of string
// comparisons (TestIsMonthIsTheList keeps the two the same).
func isMonth(w string) bool {
	switch w {
	case "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
		"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec":
		return true
	}
	return false
}

// wordIndicator checks the word lower[i:end] for an indicator that starts
// with a word: a qualified quantity, a month and year, a quarter or half,
// "zero <something>".
func wordIndicator(lower string, i, end int) (int, bool) {
	switch lower[i] {
	case 'a', 'b', 'd', 'f', 'h', 'j', 'm', 'n', 'o', 'q', 's', 'u', 'w', 'z':
	default:
		return 0, false // no qualifier, month, quarter, half or "zero" starts otherwise
	}
	// The qualifiers that start with this word's letter: no two of them
	// are prefixes of one text, so the first that matches is the one.
	for _, q := range qualifiersByFirst[lower[i]-'a'] {
		if strings.HasPrefix(lower[i:], q) {
			k := skipSpaces(lower, i+len(q))
			if k < len(lower) && isDigit(lower[k]) {
				return scanQuantity(lower, k), true
			}
		}
	}
	w := lower[i:end]
	if isMonth(w) {
		k := end
		if k < len(lower) && lower[k] == '.' {
			k++
		}
		k = skipSpaces(lower, k)
		if digitsAt(lower, k, 4) && boundary(lower, k+4) {
			return k + 4, true
		}
	}
	if (w == "q" || w == "h") && end+1 <= len(lower) && digitsAt(lower, end, 1) && boundary(lower, end+1) {
		if d := lower[end]; w == "q" && d >= '1' && d <= '4' || w == "h" && (d == '1' || d == '2') {
			end++
			if k := skipSpaces(lower, end); k > end && digitsAt(lower, k, 4) && boundary(lower, k+4) {
				return k + 4, true
			}
			return end, true
		}
	}
	if w == "zero" {
		k := skipSpaces(lower, end)
		if k > end && k < len(lower) && isLetter(lower[k]) {
			return wordEnd(lower, k), true
		}
	}
	return 0, false
}

var units = map[string]bool{"ms": true, "s": true, "sec": true, "secs": true, "second": true, "seconds": true,
	"min": true, "mins": true, "minute": true, "minutes": true, "h": true, "hr": true, "hrs": true, "hour": true,
	"hours": true, "day": true, "days": true, "week": true, "weeks": true, "month": true, "months": true,
	"year": true, "years": true, "kb": true, "kib": true, "mb": true, "mib": true, "gb": true, "gib": true,
	"tb": true, "tib": true, "rps": true, "qps": true, "req/s": true, "users": true, "requests": true,
	"nodes": true, "replicas": true, "times": true, "x": true}

var spanUnits = map[string]bool{"day": true, "days": true, "week": true, "weeks": true, "month": true, "months": true,
	"sprint": true, "sprints": true, "year": true, "years": true}

// scanQuantity reads the number at lower[i] and what belongs to it — an
// ISO date, a range of time ("6–8 weeks"), a unit ("200 ms", "99.9%") —
// and returns where it ends.
func scanQuantity(lower string, i int) int {
	if digitsAt(lower, i, 4) && len(lower) >= i+10 && lower[i+4] == '-' && digitsAt(lower, i+5, 2) && lower[i+7] == '-' && digitsAt(lower, i+8, 2) {
		return i + 10
	}
	j := scanNumber(lower, i)
	// a range of time: "6-8 weeks", "6–8 weeks"
	k := skipSpaces(lower, j)
	if dash := dashAt(lower, k); dash > 0 {
		m := skipSpaces(lower, k+dash)
		if m < len(lower) && isDigit(lower[m]) {
			n := scanNumber(lower, m)
			u := skipSpaces(lower, n)
			if e := wordEnd(lower, u); u < len(lower) && spanUnits[lower[u:e]] {
				return e
			}
		}
	}
	if j < len(lower) && lower[j] == '%' {
		return j + 1
	}
	u := skipSpaces(lower, j)
	if e := unitEnd(lower, u); e > u && units[lower[u:e]] && boundary(lower, e) {
		return e
	}
	return j
}

func scanNumber(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	for i+1 < len(s) && (s[i] == '.' || s[i] == ',') && isDigit(s[i+1]) {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	return i
}

func dashAt(s string, i int) int {
	switch {
	case i < len(s) && s[i] == '-':
		return 1
	case strings.HasPrefix(s[i:], "–"):
		return len("–")
	}
	return 0
}

// unitEnd returns the end of a unit word at i: letters, and "/s" as in
// "req/s".
func unitEnd(s string, i int) int {
	e := wordEnd(s, i)
	if e+1 < len(s) && s[e] == '/' && isLetter(s[e+1]) {
		e = wordEnd(s, e+1)
	}
	return e
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' }

// boundary reports whether byte i of s is not part of a word.
func boundary(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return true
	}
	c := s[i]
	return !(isLetter(c) || isDigit(c) || c == '_' || c >= 0x80)
}

func wordEnd(s string, i int) int {
	for i < len(s) && isLetter(s[i]) {
		i++
	}
	return i
}

func skipSpaces(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func digitsAt(s string, i, n int) bool {
	if i < 0 || i+n > len(s) {
		return false
	}
	for k := i; k < i+n; k++ {
		if !isDigit(s[k]) {
			return false
		}
	}
	return true
}

func isTechRune(r rune) bool {
	return r == '.' || r == '+' || r == '#' || r == '-' || ('0' <= r && r <= '9') || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')
}

// RequirementIDs returns the requirement identifiers in s, in order of
// appearance and without repeats: one to five capital letters, a hyphen and
// a number, as in FR-001, NFR-12, R-7, REQ-3.1.
func RequirementIDs(s string) []string {
	var out []string
	seen := map[string]bool{}
	for i := 1; i+1 < len(s); i++ {
		if s[i] != '-' || !isDigit(s[i+1]) {
			continue
		}
		start := i
		for start > 0 && s[start-1] >= 'A' && s[start-1] <= 'Z' {
			start--
		}
		if n := i - start; n < 1 || n > 5 || (start > 0 && !boundaryByte(s[start-1])) {
			continue
		}
		end := i + 1
		for end < len(s) && isDigit(s[end]) {
			end++
		}
		for end+1 < len(s) && s[end] == '.' && isDigit(s[end+1]) {
			end++
			for end < len(s) && isDigit(s[end]) {
				end++
			}
		}
		if end < len(s) && !boundaryByte(s[end]) {
			continue
		}
		if id := s[start:end]; !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
		i = end
	}
	return out
}

// IsRequirementID reports whether s is exactly a requirement identifier,
// in either case: "FR-001", "nfr-12", "REQ-3.1".
func IsRequirementID(s string) bool {
	i := 0
	for i < len(s) && (s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z') {
		i++
	}
	if i < 1 || i > 5 || i+1 >= len(s) || s[i] != '-' || !isDigit(s[i+1]) {
		return false
	}
	j := scanNumber(s, i+1)
	for j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
		j = scanNumber(s, j+1)
	}
	return j == len(s)
}

func boundaryByte(c byte) bool {
	return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '-' || c >= 0x80)
}
