package diff

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/words"
)

// Quantities: the numbers a sentence states with their units, bounds and
// subjects, and the numbers that are not values (references, labels,
// formula operands, conditions, cited figures).

// boundPhrases turn a number into a limit; longer phrases first, so "at
// most" is not read as "most".
var boundPhrases = []string{"no more than", "no less than", "fewer than", "maximum of", "minimum of", "at least", "at most",
	"less than", "more than", "maximum", "minimum", "up to", "under", "below", "above", "within", "over", "max", "min",
	"≤", "≥", "<=", ">=", "<", ">"}

// appendQuantityMatches appends to out every number in sent with what
// surrounds it, as index pairs in the layout of regexp's
// FindAllStringSubmatchIndex: [whole, bound, first number, second number
// (a range), "k", unit], -1 for parts that are absent. A caller with a
// small array on its stack reads a sentence's few numbers without an
// allocation.
//
// lower is strings.ToLower(sent), which the caller usually has already.
func appendQuantityMatches(out [][12]int, sent, lower string) [][12]int {
	if len(lower) != len(sent) {
		lower = sent // non-ASCII case changes would shift offsets; bounds still match lower-case text
	}
	for i := 0; i < len(sent); i++ {
		if !isDigit(sent[i]) || (i > 0 && isDigit(sent[i-1])) {
			continue
		}
		m := [12]int{i, 0, -1, -1, i, 0, -1, -1, -1, -1, -1, -1}
		j := scanNum(sent, i)
		m[5] = j
		// the bound just before the number
		before := strings.TrimRight(lower[:i], " \t")
		for _, p := range boundPhrases {
			if strings.HasSuffix(before, p) {
				at := len(before) - len(p)
				if p[0] >= 'a' && p[0] <= 'z' && at > 0 && isWordByte(lower[at-1]) {
					continue
				}
				m[0], m[2], m[3] = at, at, len(before)
				break
			}
		}
		// a range: "6-8", "6 – 8", "6 to 8"
		k := skipBlanks(sent, j)
		dash := 0
		switch {
		case strings.HasPrefix(sent[k:], "-"):
			dash = 1
		case strings.HasPrefix(sent[k:], "–"), strings.HasPrefix(sent[k:], "—"):
			dash = len("–")
		case strings.HasPrefix(lower[k:], "to ") && k > j:
			dash = 2
		}
		if dash > 0 {
			if n := skipBlanks(sent, k+dash); n < len(sent) && isDigit(sent[n]) {
				m[6], m[7] = n, scanNum(sent, n)
				j = m[7]
			}
		}
		// "10k"
		if k := skipBlanks(sent, j); k < len(sent) && (sent[k] == 'k' || sent[k] == 'K') && (k+1 == len(sent) || !isWordByte(sent[k+1])) {
			m[8], m[9] = k, k+1
			j = k + 1
		}
		// the unit: "%", or a word with an optional "/word"
		if k := skipBlanks(sent, j); k < len(sent) {
			switch {
			case sent[k] == '%':
				m[10], m[11] = k, k+1
			case isLetterByte(sent[k]) || strings.HasPrefix(sent[k:], "µ"):
				e := k
				for e < len(sent) && (isLetterByte(sent[e]) || strings.HasPrefix(sent[e:], "µ")) {
					if sent[e] >= 0x80 {
						e += len("µ")
					} else {
						e++
					}
				}
				if e+1 < len(sent) && sent[e] == '/' && isLetterByte(sent[e+1]) {
					e++
					for e < len(sent) && isLetterByte(sent[e]) {
						e++
					}
				}
				m[10], m[11] = k, e
			}
			if m[11] > 0 {
				j = m[11]
			}
		}
		m[1] = j
		out = append(out, m)
		i = j - 1
	}
	return out
}

// scanNum reads "10,000", "99.9" or "30" at i.
func scanNum(s string, i int) int {
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j-i <= 3 { // thousands separators: 10,000
		k := j
		for k+4 <= len(s) && s[k] == ',' && isDigit(s[k+1]) && isDigit(s[k+2]) && isDigit(s[k+3]) && (k+4 == len(s) || !isDigit(s[k+4])) {
			k += 4
		}
		if k > j {
			return k
		}
	}
	if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	return j
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isWordByte(c byte) bool   { return isLetterByte(c) || isDigit(c) || c == '_' }

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

type unitInfo struct {
	dim   string
	scale float64
}

var unitTable = map[string]unitInfo{
	"ms": {"duration", 0.001}, "msec": {"duration", 0.001}, "millisecond": {"duration", 0.001}, "milliseconds": {"duration", 0.001},
	"s": {"duration", 1}, "sec": {"duration", 1}, "secs": {"duration", 1}, "second": {"duration", 1}, "seconds": {"duration", 1},
	"min": {"duration", 60}, "mins": {"duration", 60}, "minute": {"duration", 60}, "minutes": {"duration", 60},
	"h": {"duration", 3600}, "hr": {"duration", 3600}, "hrs": {"duration", 3600}, "hour": {"duration", 3600}, "hours": {"duration", 3600},
	"day": {"duration", 86400}, "days": {"duration", 86400}, "week": {"duration", 604800}, "weeks": {"duration", 604800},
	"month": {"duration", 2629800}, "months": {"duration", 2629800}, "year": {"duration", 31557600}, "years": {"duration", 31557600},
	"b": {"size", 1}, "byte": {"size", 1}, "bytes": {"size", 1},
	"kb": {"size", 1e3}, "kib": {"size", 1 << 10}, "mb": {"size", 1e6}, "mib": {"size", 1 << 20},
	"gb": {"size", 1e9}, "gib": {"size", 1 << 30}, "tb": {"size", 1e12}, "tib": {"size", 1 << 40},
	"%": {"percent", 1}, "percent": {"percent", 1},
	"rps": {"rate", 1}, "qps": {"rate", 1}, "req/s": {"rate", 1}, "requests/s": {"rate", 1}, "tps": {"rate", 1},
}

// notCountNouns follow a number without naming what it counts.
var notCountNouns = map[string]bool{"and": true, "or": true, "of": true, "to": true, "the": true, "a": true,
	"in": true, "at": true, "for": true, "is": true, "are": true, "th": true, "st": true, "nd": true, "rd": true,
	"x": true, "on": true, "by": true, "with": true, "per": true,
	// verbs that follow a label's number: "Phase 2 depends on …"
	"depends": true, "depend": true, "ships": true, "ship": true, "takes": true, "take": true, "runs": true,
	"starts": true, "ends": true, "begins": true, "was": true, "will": true, "must": true, "should": true,
	"can": true, "has": true, "have": true, "may": true, "needs": true, "requires": true, "covers": true}

// labelWords name things by number ("Phase 2", "Section 3.2", "week 4"):
// the number that follows one is a name, not a quantity.
var labelWords = map[string]bool{"phase": true, "milestone": true, "step": true, "stage": true, "sprint": true,
	"week": true, "wave": true, "release": true, "version": true, "section": true, "chapter": true, "part": true,
	"item": true, "iteration": true, "day": true, "month": true, "quarter": true, "year": true, "level": true,
	"tier": true, "option": true, "priority": true, "round": true, "appendix": true, "figure": true, "table": true,
	"rule": true, "case": true, "no": true, "number": true, "task": true, "epic": true, "story": true,
	"line": true, "lines": true, "l": true, "t": true, "r": true, "steps": true, "phases": true, "tasks": true}

// afterLabel reports whether the text before a number ends with a label
// word and a space.
func afterLabel(before string) bool {
	before = strings.TrimRight(before, " ")
	i := strings.LastIndexFunc(before, func(r rune) bool { return !unicode.IsLetter(r) })
	return labelWords[strings.ToLower(before[i+1:])]
}

// quantities extracts the measured values of a sentence. Numbers that are
// part of identifiers (FR-001, v1.2, M2, p99), ordinals (95th), years and
// list numbering are not quantities.
func quantities(sent, lower string) []Quantity {
	var out []Quantity
	prevEnd := 0
	// An ASCII sentence's lower-cased text has its words at the same
	// offsets: the subjects are read from it without lower-casing again.
	ascii := len(lower) == len(sent) && isASCII(sent)
	var buf [4][12]int
	for _, m := range appendQuantityMatches(buf[:0], sent, lower) {
		q, start, end, ok := parseQuantity(sent, m[:])
		if !ok {
			continue
		}
		lowBefore, lowAfter := "", ""
		if ascii {
			lowBefore, lowAfter = lower[prevEnd:start], lower[end:]
		}
		q.Phrase, q.Subject = quantitySubject(sent[prevEnd:start], sent[end:], lowBefore, lowAfter)
		prevEnd = end
		if len(q.Subject) == 0 {
			continue
		}
		if p := percentileOf(sent[end:]); p != "" {
			q.Dim += "@p" + p // "200 ms at the 95th percentile" measures another thing than the 99th
		}
		out = append(out, q)
	}
	return out
}

// percentileOf returns the percentile a value is stated at, read from the
// words right after it ("at the 95th percentile", "p99"), or "".
func percentileOf(after string) string {
	if !mayStatePercentile(after) {
		return ""
	}
	return percentileMatch(after)
}

// mayStatePercentile reports whether percentileRE (now percentileMatch)
// could match s: its
// match opens, after at most 24 runes none of which is ',', ';' or '.',
// with "p" and two digits, or with "at" followed somewhere by
// "percentile". Most values have neither: "p99" later in the sentence,
// which hasPercentile accepts, used to send them to the expression.
func mayStatePercentile(s string) bool {
	for i, n := 0, 0; i < len(s) && n <= 24; n++ {
		switch c := s[i]; {
		case c == ',' || c == ';' || c == '.':
			return false
		case c|0x20 == 'p' && i+2 < len(s) && isDigit(s[i+1]) && isDigit(s[i+2]):
			return true
		case c|0x20 == 'a' && i+1 < len(s) && s[i+1]|0x20 == 't' && hasFold(s[i:], "percentile"):
			return true
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return false
}

// tableQuantities reads the quantities of a table row. A cell's value
// measures its column (the header) for its row (the first cell), so
// "| 50,000 events/s | 16 | 350 ms |" under "| Load | Instances | Expected
// p99 |" says the expected p99 at 50,000 events/s is 350 ms — and rows for
// different loads never contradict each other.
//
// headerWords, when not nil, keeps subjectWords of each header cell for
// the other rows of the table: every value of every row read them again.
func tableQuantities(header, cells []string, headerWords *[][]string) []Quantity {
	if len(cells) < 2 {
		return nil
	}
	item, itemRead := "", false // the row's series item, read once
	key := subjectWords(cells[0])
	rowDim := ""
	if containsDigit(cells[0]) {
		// A numeric row key ("10,000 events/s") names a condition, not a
		// subject: values under different conditions never compare.
		rowDim = "@" + strings.ToLower(strings.Join(strings.Fields(cells[0]), ""))
	}
	// subjectOf returns a new slice of header j's words and the row's
	// key, for sortedSet to sort in place.
	subjectOf := func(j int) []string {
		if headerWords == nil {
			return append(subjectWords(header[j]), key...)
		}
		if *headerWords == nil {
			*headerWords = make([][]string, len(header))
		}
		hw := *headerWords
		if hw[j] == nil {
			hw[j] = subjectWords(header[j])
		}
		out := make([]string, 0, len(hw[j])+len(key))
		return append(append(out, hw[j]...), key...)
	}
	var out []Quantity
	for j := 1; j < len(cells) && j < len(header); j++ {
		var buf [4][12]int
		for _, m := range appendQuantityMatches(buf[:0], cells[j], strings.ToLower(cells[j])) {
			q, _, _, ok := parseQuantity(cells[j], m[:])
			if !ok {
				continue
			}
			q.Subject = sortedSet(subjectOf(j))
			q.Dim += rowDim
			if !itemRead {
				item, itemRead = seriesItem(header[0], cells[0]), true
			}
			q.Item = item
			q.Phrase = header[j] + " (" + cells[0] + ")"
			if len(q.Subject) > 0 {
				out = append(out, q)
			}
		}
	}
	return out
}

// seriesWords name the items of a plan's series: phases, steps, tasks.
// Of the one-letter prefixes only P (phase), M (milestone) and W (wave)
// count: "T2" numbers tasks in one plan and questions in another.
var seriesWords = map[string]string{"phase": "PHASE", "phases": "PHASE", "step": "STEP", "steps": "STEP",
	"stage": "STAGE", "milestone": "MILESTONE", "wave": "WAVE", "sprint": "SPRINT", "task": "TASK", "tasks": "TASK",
	"iteration": "ITERATION", "week": "WEEK", "p": "PHASE", "m": "MILESTONE", "w": "WAVE"}

var seriesRE = regexp.MustCompile(`^(?i)([a-z]+)?[ \t]*[-#]?[ \t]*(\d+(?:\.\d+)?)\b`)

// seriesItem returns the item of a series a heading or a table row names:
// "PHASE 3" for "Phase 3: Certification", for "P3: Certification", or for
// the row key "3" under a column headed "Phase". Empty when it names none.
func seriesItem(columnHeader, key string) string {
	if !containsDigit(key) {
		return "" // seriesRE needs a digit: most titles and row keys have none
	}
	key = strings.TrimSpace(strings.Trim(strings.TrimSpace(key), "*_`"))
	m := seriesRE.FindStringSubmatch(key)
	if m == nil {
		return ""
	}
	word := strings.ToLower(m[1])
	if word == "" {
		word = strings.ToLower(strings.TrimSpace(strings.Trim(columnHeader, "*_`# ")))
	}
	if series, ok := seriesWords[word]; ok {
		num := m[2]
		if n, err := strconv.Atoi(num); err == nil {
			num = strconv.Itoa(n) // "Phase 03" is "Phase 3"
		}
		return series + " " + num
	}
	return ""
}

// parseQuantity turns one match of appendQuantityMatches into a Quantity, without
// its subject. It reports false for numbers that are not quantities: parts
// of identifiers (FR-001, v1.2, p99), labels ("Phase 2"), ordinals (95th),
// years and bare numbers with no unit or counted noun.
func parseQuantity(sent string, m []int) (q Quantity, start, end int, ok bool) {
	start, end = m[0], m[1]
	if numStart := m[4]; numStart > 0 {
		if r := rune(sent[numStart-1]); unicode.IsLetter(r) || r == '-' || r == '.' || r == '_' || r == '#' || r == '/' {
			return q, 0, 0, false
		}
		if sent[numStart-1] == ':' && numStart > 1 && !isSpace(sent[numStart-2]) {
			return q, 0, 0, false // a reference: "models.py:482", "12:30"
		}
		if afterLabel(sent[:numStart]) {
			return q, 0, 0, false
		}
	}
	if inFormula(sent, m[0], m[1]) || conditional(sent[:m[0]]) || quoted(sent, m[0], m[1]) {
		return q, 0, 0, false
	}
	a := parseNumber(sent[m[4]:m[5]])
	b := a
	if m[6] >= 0 {
		b = parseNumber(sent[m[6]:m[7]])
	}
	if m[8] >= 0 { // "10k"
		a, b = a*1000, b*1000
	}
	unit := ""
	if m[10] >= 0 {
		unit = strings.ToLower(sent[m[10]:m[11]])
	}
	if _, known := unitTable[unit]; !known && unit != "" {
		// "5 business days": an adjective between the number and its unit
		if next := nextWord(sent[end:]); next != "" {
			if _, known := unitTable[strings.ToLower(next)]; known {
				unit = strings.ToLower(next)
				end += strings.Index(sent[end:], next) + len(next)
			}
		}
	}
	if end < len(sent) && (sent[end] == '-' || unicode.IsLetter(rune(sent[end]))) && unit != "" && unit != "%" {
		// "2-week" or "30second": only when the unit is whole
		if _, known := unitTable[unit]; !known {
			return q, 0, 0, false
		}
	}
	if ui, known := unitTable[unit]; known {
		q = Quantity{Dim: ui.dim, Lo: a * ui.scale, Hi: b * ui.scale}
	} else {
		noun := strings.Trim(unit, "/")
		if noun == "" || notCountNouns[noun] || len(noun) < 2 || isOrdinalSuffix(sent, m[5], noun) {
			return q, 0, 0, false
		}
		if a >= 1900 && a <= 2100 && m[6] < 0 && a == float64(int(a)) {
			return q, 0, 0, false // a year
		}
		q = Quantity{Dim: "count:" + words.Stem(noun), Lo: a, Hi: b}
	}
	if q.Lo > q.Hi {
		q.Lo, q.Hi = q.Hi, q.Lo
	}
	q.Bound = boundOf(m, sent)
	q.Approx = approximate(sent[:m[0]])
	q.Text = strings.TrimSpace(sent[start:end])
	return q, start, end, true
}

// approxMarks precede an estimate.
var approxMarks = []string{"~", "≈", "about", "approximately", "approx.", "approx", "roughly", "around", "circa", "ca.",
	"estimated", "est.", "estimate", "nearly", "almost", "some"}

// approximate reports whether the text before a number ends with a mark of
// an estimate.
func approximate(before string) bool {
	before = tail(strings.TrimRight(before, " *_`("), 24)
	var buf [24]byte
	if b, ok := lowerASCII(buf[:0], before); ok {
		before = string(b) // does not escape: no allocation for 24 bytes
	} else {
		before = strings.ToLower(before)
	}
	for _, m := range approxMarks {
		if strings.HasSuffix(before, m) && (len(m) == 1 || m == "≈" || len(before) == len(m) || !isWordByte(before[len(before)-len(m)-1])) {
			return true
		}
	}
	return false
}

// inFormula reports whether the number at sent[start:end] is an operand of
// arithmetic ("max_turns * 120 + 300", "46 tasks × 2", "+~80 LOC"): a term
// of a formula or an increment is not a value stated for its subject.
func inFormula(sent string, start, end int) bool {
	before := strings.TrimRight(sent[:start], " ~≈")
	after := strings.TrimLeft(sent[end:], " ")
	for _, op := range []string{"*", "×", "+", "÷"} {
		if strings.HasSuffix(before, op) || strings.HasPrefix(after, op) {
			return true
		}
	}
	return strings.HasPrefix(after, "x ") && !strings.HasPrefix(strings.TrimRight(sent[:start], " "), "x")
}

// quoted reports whether sent[start:end] lies inside quotation marks: a
// value cited from elsewhere ("the "94% convergence" figure") is not one
// the document states.
func quoted(sent string, start, end int) bool {
	// A quotation is short: look at most quoteWindow bytes either side, so
	// a sentence with thousands of numbers costs linear time.
	before, after := tail(sent[:start], quoteWindow), head(sent[end:], quoteWindow)
	if strings.Count(before, "\"")%2 == 1 && strings.Contains(after, "\"") {
		return true
	}
	if strings.IndexByte(before, 0xE2) < 0 {
		return false // no curly quotation mark (both begin with the byte E2) before the number
	}
	return strings.LastIndex(before, "“") > strings.LastIndex(before, "”") && strings.Contains(after, "”")
}

const quoteWindow = 160

// tail returns the last n bytes of s (fewer at a rune boundary) and head
// the first n: bounded windows around a number.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// conditionWords open a clause that states a condition: the number after
// one is a trigger ("When 80% consumed, emit WARN"), not a value the
// document gives its subject.
var conditionWords = map[string]bool{"when": true, "if": true, "once": true, "unless": true, "whenever": true,
	"e.g": true, "e.g.": true, "example": true, "eg": true}

// conditional reports whether the clause that holds a number, up to the
// number, opens with a condition or an example.
func conditional(before string) bool {
	before = tail(before, quoteWindow) // the clause's first words are near the number
	if i := lastClauseMark(before); i >= 0 {
		before = before[i+1:]
	}
	// The first four words, lower-cased one at a time: this runs for
	// every number of every document.
	var buf [16]byte
	for i := 0; i < 4; i++ {
		before = strings.TrimLeftFunc(before, unicode.IsSpace)
		if before == "" {
			break
		}
		end := strings.IndexFunc(before, unicode.IsSpace)
		if end < 0 {
			end = len(before)
		}
		w := strings.Trim(before[:end], "*_`\"")
		before = before[end:]
		if len(w) > len(buf) {
			continue // longer than every condition word
		}
		b, ascii := buf[:len(w)], true
		for j := 0; j < len(w); j++ {
			c := w[j]
			if c >= utf8.RuneSelf {
				ascii = false
				break
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b[j] = c
		}
		if ascii && conditionWords[string(b)] || !ascii && conditionWords[strings.ToLower(w)] {
			return true
		}
	}
	return false
}

// lowerASCII appends s lower-cased to buf when s is ASCII, and reports
// false (with buf unchanged) when it is not: strings.ToLower without the
// allocation, for the short windows read around every number.
func lowerASCII(buf []byte, s string) ([]byte, bool) {
	n := len(buf)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return buf[:n], false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf, true
}

// lastClauseMark is strings.LastIndexAny(s, ",;:.(—") without decoding
// every rune backwards (the set holds a non-ASCII rune, which takes
// LastIndexAny off its fast path): the marks are bytes but "—", which is
// found by its last byte.
func lastClauseMark(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ',', ';', ':', '.', '(':
			return i
		case 0x94: // "—" is E2 80 94
			if i >= 2 && s[i-1] == 0x80 && s[i-2] == 0xE2 {
				return i - 2
			}
		}
	}
	return -1
}

func nextWord(s string) string {
	return strings.TrimRight(firstField(s), ".,;:!?)")
}

func isOrdinalSuffix(sent string, numEnd int, noun string) bool {
	return numEnd < len(sent) && sent[numEnd] != ' ' && (noun == "th" || noun == "st" || noun == "nd" || noun == "rd" || strings.HasPrefix(noun, "th"))
}

func boundOf(m []int, sent string) Bound {
	if m[2] < 0 {
		return Exact
	}
	switch strings.ToLower(sent[m[2]:m[3]]) {
	case "at most", "no more than", "up to", "under", "below", "within", "less than", "fewer than", "maximum of", "max", "maximum", "≤", "<=", "<":
		return AtMost
	default:
		return AtLeast
	}
}

func parseNumber(s string) float64 {
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	if err != nil {
		return 0
	}
	return v
}

// quantitySubject names what a quantity measures: the last three
// significant words before it in its clause, completed from the words after
// it when fewer than two precede it.
//
// lowBefore and lowAfter are before and after lower-cased, when the caller
// has them byte for byte (an ASCII sentence), else "".
func quantitySubject(before, after, lowBefore, lowAfter string) (string, []string) {
	var pre []string
	if i := strings.LastIndexAny(before, ",;:("); i >= 0 {
		if pre = subjectWordsLower(before[i+1:], lowerTail(lowBefore, i+1)); len(pre) > 0 {
			before, lowBefore = before[i+1:], lowerTail(lowBefore, i+1)
		}
	}
	if len(pre) == 0 {
		pre = subjectWordsLower(before, lowBefore)
	}
	if len(pre) > 3 {
		pre = pre[len(pre)-3:]
	}
	phrase := rawPhrase(before)
	subj := pre
	if len(pre) < 2 {
		if i := strings.IndexAny(after, ",;:."); i >= 0 {
			after = after[:i]
			if lowAfter != "" {
				lowAfter = lowAfter[:i]
			}
		}
		post := subjectWordsLower(after, lowAfter)
		subj = append(slices.Clone(pre), post[:min(len(post), 3-len(pre))]...)
		if p := rawPhrase(after); len(pre) == 0 && p != "" {
			phrase = p
		} else if p != "" {
			phrase += " … " + p
		}
	}
	return phrase, sortedSet(subj)
}

// rawPhrase returns the words of a clause as written, without the leading
// and trailing words that name nothing ("the", "must", "is", "takes"), at
// most six: "Delivery of the first release takes" gives "Delivery of the
// first release".
func rawPhrase(s string) string {
	// The words' spans, on the stack for all but the longest clauses.
	var buf [32][2]int
	f := buf[:0]
	start := -1
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if unicode.IsSpace(r) || r == '=' || r == '`' || r == '*' {
			if start >= 0 {
				f = append(f, [2]int{start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += size
	}
	if start >= 0 {
		f = append(f, [2]int{start, len(s)})
	}
	for len(f) > 0 && phraseFiller(s[f[0][0]:f[0][1]]) {
		f = f[1:]
	}
	for len(f) > 0 && phraseFiller(s[f[len(f)-1][0]:f[len(f)-1][1]]) {
		f = f[:len(f)-1]
	}
	if len(f) > 6 {
		f = f[len(f)-6:]
	}
	if len(f) == 0 {
		return ""
	}
	// The words joined by single spaces: the source itself when that is
	// how it separates them, as it mostly does.
	joined := s[f[0][0]:f[len(f)-1][1]]
	for k := 1; k < len(f); k++ {
		if f[k][0] != f[k-1][1]+1 || s[f[k-1][1]] != ' ' {
			var b strings.Builder
			for k, w := range f {
				if k > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(s[w[0]:w[1]])
			}
			joined = b.String()
			break
		}
	}
	return strings.Trim(joined, ".,;:!?()[]\"'")
}

// phraseFiller reports whether a word of a clause names nothing: a stop
// word, a filler, a requirement id or no word at all, once its
// punctuation is trimmed. Short ASCII words are lower-cased on the stack.
func phraseFiller(w string) bool {
	w = strings.Trim(w, ".,;:!?()[]\"'")
	var buf [32]byte
	if len(w) <= len(buf) {
		if b, ok := lowerASCII(buf[:0], w); ok {
			w = string(b) // does not escape: no allocation
		} else {
			w = strings.ToLower(w)
		}
	} else {
		w = strings.ToLower(w)
	}
	return w == "" || words.IsStopWord(w) || fillers[w] || lexicon.IsRequirementID(w) || !hasLetter(w)
}
