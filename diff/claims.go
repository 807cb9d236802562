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

// ClaimType is the kind of a falsifiable statement, per the seed's
// contradiction detection protocol.
type ClaimType string

// Kinds of claim.
const (
	Factual     ClaimType = "factual"     // facts, numbers, dates, technologies
	Requirement ClaimType = "requirement" // what must, shall or should be done
	Constraint  ClaimType = "constraint"  // limits, thresholds, boundaries
	Dependency  ClaimType = "dependency"  // prerequisites, sequences
)

// Claim is a specific, falsifiable statement found in a variant: the unit
// the contradiction detectors compare. Vague statements ("as appropriate",
// "as needed", best practices without a citation) are never claims.
type Claim struct {
	Variant int       `json:"variant"` // index of the variant in input order
	Section int       `json:"section"` // index in the variant's Sections, -1 before the first heading
	Block   int       `json:"block"`   // index in the variant's Blocks
	Line    int       `json:"line"`
	Text    string    `json:"text"`  // the sentence, as plain text
	Quote   string    `json:"quote"` // exact source text: the sentence if it occurs verbatim, else its block
	Type    ClaimType `json:"type"`
	Negated bool      `json:"negated,omitempty"` // "must not", "do not", "never", …
	// Quantities are the measured values the claim states.
	Quantities []Quantity `json:"quantities,omitempty"`
	// Choice is set when the claim picks a technology: "Use PostgreSQL for
	// the session store".
	Choice *Choice `json:"choice,omitempty"`
	// Edges are the dependencies the claim states: "A depends on B".
	Edges []Edge `json:"edges,omitempty"`

	sig   []string // significant words with negations and modals removed
	lower string   // Text lower-cased
}

// Quantity is a value a claim gives for something measurable, in canonical
// units (seconds, bytes, percent, or a count of a named thing).
type Quantity struct {
	Subject []string `json:"subject"` // significant words naming what is measured, sorted
	Phrase  string   `json:"phrase"`  // the subject as written, for people
	Dim     string   `json:"dim"`     // "duration", "size", "percent", "rate" or "count:<noun>"
	Lo      float64  `json:"lo"`
	Hi      float64  `json:"hi"`
	Bound   Bound    `json:"bound,omitempty"`
	// Item names the item of a series the value belongs to when a table
	// row says so: "PHASE 3" for the row "| 3 | … | 1.5-2 days |" under
	// "| Phase | … | Estimate |", or "| P3: Orchestrator | 5-7 days |".
	Item string `json:"item,omitempty"`
	// Approx is set for an estimate ("~650 LOC", "about 3 weeks"): two
	// estimates that differ are a difference of judgement, not a
	// contradiction.
	Approx bool   `json:"approx,omitempty"`
	Text   string `json:"text"` // the value as written, e.g. "6–8 weeks"
}

// Bound says whether a quantity is a limit rather than a value.
type Bound string

// Bounds of a [Quantity].
const (
	Exact   Bound = ""    // the value (or range) itself
	AtMost  Bound = "max" // "at most", "under", "no more than", "within", "≤"
	AtLeast Bound = "min" // "at least", "no less than", "more than", "≥"
)

// Choice is a technology a claim picks for a purpose.
type Choice struct {
	Tech     string           `json:"tech"`
	Category lexicon.Category `json:"category"`
	Slot     []string         `json:"slot"` // what it is for, as significant words; empty when unsaid
	Phrase   string           `json:"phrase"`
}

// Edge is a dependency: From cannot proceed without To.
type Edge struct {
	From string `json:"from"` // normalised names
	To   string `json:"to"`
}

// ExtractClaims returns the claims in doc, in document order, labelled with
// variant. Code blocks and table header rows hold no claims.
//
// A parsed document extracts its claims once and hands out copies, so the
// steps that all need them (diff, scoring, the rubric judge) share the
// work. The slices inside each claim (Quantities, Edges) are shared with
// that cache: treat them as read-only.
func ExtractClaims(doc *Document, variant int) []Claim {
	var base []Claim
	if doc.memo == nil {
		base = extractClaims(doc)
	} else {
		doc.memo.claimsOnce.Do(func() { doc.memo.claims = extractClaims(doc) })
		base = doc.memo.claims
	}
	out := slices.Clone(base)
	for i := range out {
		out[i].Variant = variant
	}
	return out
}

func extractClaims(doc *Document) []Claim {
	const variant = 0
	out := make([]Claim, 0, len(doc.Blocks))
	forEachSentence(doc, variant, func(sent string, row *tableRow, place func(*Claim)) {
		if c, ok := classify(sent, row); ok {
			place(&c)
			out = append(out, c)
		}
	})
	return out
}

// tableRow is a table's data row with its header, for claims read from
// tables.
type tableRow struct {
	header, cells []string
}

// forEachSentence calls fn with every sentence of the document's body text
// (not code, not table headers; a table row is one sentence, with its
// header), and a function that fills in a claim's location and exact quote
// — called only for the sentences that need it, since finding the quote
// costs a search of the block.
func forEachSentence(doc *Document, variant int, fn func(sent string, row *tableRow, place func(*Claim))) {
	var header []string
	for bi, b := range doc.Blocks {
		if b.Kind != TableRow {
			header = nil
		}
		if b.Header {
			header = b.Cells
		}
		if b.Kind == Code || b.Header {
			continue
		}
		var row *tableRow
		if b.Kind == TableRow && header != nil {
			row = &tableRow{header: header, cells: b.Cells}
		}
		src := doc.Text(b.Span)
		for _, sent := range sentences(b) {
			fn(sent, row, func(c *Claim) {
				c.Variant, c.Section, c.Block, c.Line = variant, b.Section, bi, b.Line
				if i, j, ok := locate(sent, src); ok {
					c.Quote, c.Line = src[i:j], doc.LineAt(b.Span.Start+i)
				} else {
					c.Quote = strings.TrimSpace(src)
				}
			})
		}
	}
}

// quoteFor returns the exact source text of a sentence, so the quote can be
// checked against the variant: the sentence itself, or the stretch of
// source that holds its words with other line breaks or spacing (a
// sentence wrapped over two lines). When markup inside the sentence hides
// it, the block's whole source.
func quoteFor(sent, src string) string {
	if i, j, ok := locate(sent, src); ok {
		return src[i:j]
	}
	return strings.TrimSpace(src)
}

// locate finds sent in src and returns the source span that holds it. Any
// run of white space in sent matches any run of white space in src, and
// inline markup characters in src (` * _ ~) are skipped, so a sentence that
// wraps over two lines or has `code` or *emphasis* in it is still found.
func locate(sent, src string) (int, int, bool) {
	if i := strings.Index(src, sent); i >= 0 {
		return i, i + len(sent), true
	}
	sent = strings.Join(strings.Fields(sent), " ")
	if sent == "" {
		return 0, 0, false
	}
	first := sent[0]
	for start := 0; start < len(src); start++ {
		if src[start] != first {
			continue
		}
		if end, ok := matchFrom(sent, src, start); ok {
			// take in markup that opens before the first word or closes
			// after the last, so the quote is balanced: "**Bold** text"
			for start > 0 && isMarkup(src[start-1]) {
				start--
			}
			for end < len(src) && isMarkup(src[end]) {
				end++
			}
			return start, end, true
		}
	}
	return 0, 0, false
}

// matchFrom matches sent against src from start, skipping markup in src.
func matchFrom(sent, src string, start int) (int, bool) {
	i, j := 0, start
	for i < len(sent) {
		if j >= len(src) {
			return 0, false
		}
		switch c := src[j]; {
		case sent[i] == ' ':
			if !isSpace(c) && !isMarkup(c) {
				return 0, false
			}
			for j < len(src) && (isSpace(src[j]) || isMarkup(src[j])) {
				j++
			}
			i++
		case c == sent[i]:
			i++
			j++
		case isMarkup(c):
			j++
		default:
			return 0, false
		}
	}
	return j, true
}

func isSpace(c byte) bool  { return c == ' ' || c == '\n' || c == '\t' }
func isMarkup(c byte) bool { return c == '`' || c == '*' || c == '_' || c == '~' }

// sentences splits a block's text into sentences at ".", "!", "?" or ";"
// followed by white space — but not after "e.g", "i.e" or "vs". A table
// row is one sentence: its cells joined by spaces, so "| Retry timeout |
// 30 s |" reads "Retry timeout 30 s".
func sentences(b Block) []string {
	if b.Kind == TableRow {
		return []string{strings.Join(b.Cells, " ")}
	}
	t := b.Text
	var out []string
	last := 0
	for i := 0; i+1 < len(t); i++ {
		switch t[i] {
		case '.', '!', '?', ';':
		default:
			continue
		}
		if t[i+1] != ' ' && t[i+1] != '\n' && t[i+1] != '\t' {
			continue
		}
		if head := t[last:i]; strings.HasSuffix(head, "e.g") || strings.HasSuffix(head, "i.e") || strings.HasSuffix(head, "vs") {
			continue
		}
		if s := strings.TrimSpace(t[last : i+1]); s != "" {
			out = append(out, s)
		}
		last = i + 1
	}
	if rest := strings.TrimSpace(t[last:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

var (
	modalWords      = wordSet("must", "shall", "should", "will", "required", "require", "requires")
	modalPairs      = []string{"needs to", "need to", "has to", "have to", "is to"}
	constraintWords = wordSet("limit", "limited", "limits", "maximum", "minimum", "max", "min", "only", "cannot", "can't",
		"restricted", "constraint", "constraints", "budget", "cap", "capped")
	constraintPairs = []string{"at most", "at least", "no more than", "no less than", "must not", "shall not", "single-", "single "}
	negationWords   = wordSet("not", "no", "never", "don't", "doesn't", "mustn't", "shan't", "cannot", "can't", "won't",
		"avoid", "prohibit", "prohibited", "forbid", "forbidden", "disallow", "disallowed")
	// dependencyWords: a sentence without one of them states no
	// dependency; the word test is cheaper than the phrase test below.
	dependencyWords = wordSet("depend", "depends", "dependent", "relies", "rely", "blocked", "wait", "waits",
		"prerequisite", "prerequisites", "until", "after", "before")
	// dependencyHints are the phrases without which no dependency pattern
	// can match: a cheap test before the regular expressions.
	dependencyHints = []string{"depend", "relies", "rely", "blocked by", "wait", "prerequisite", "until",
		"start after", "starts after", "begin after", "begins after", "run after", "runs after", "happen after",
		"happens after", "come after", "comes after", "only after",
		"complete before", "completes before", "finish before", "finishes before", "happen before", "happens before",
		"come before", "comes before", "land before", "lands before"}
)

func hasComparison(s string) bool {
	return strings.IndexByte(s, '<') >= 0 || strings.IndexByte(s, '>') >= 0 || strings.Contains(s, "≤") || strings.Contains(s, "≥")
}

func containsDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}

func wordSet(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

func anyWord(toks []string, set map[string]bool) bool {
	for _, t := range toks {
		if set[t] {
			return true
		}
	}
	return false
}

func containsAnyOf(lower string, subs []string) bool {
	for _, s := range subs {
		if strings.Contains(lower, s) {
			return true
		}
	}
	return false
}

// candidate reports whether a sentence could be a claim at all: long
// enough, not a question, not vague. lower is strings.ToLower(sent).
func candidate(sent, lower string) bool {
	return len(sent) >= 8 && !strings.HasSuffix(strings.TrimSpace(sent), "?") && !lexicon.IsVagueLower(lower)
}

// classify decides whether a sentence is a claim and of what type, and
// extracts its quantities, choice and dependency edges. It runs once per
// sentence of every variant, so it checks words before it reaches for a
// regular expression.
func classify(sent string, row *tableRow) (Claim, bool) {
	if len(sent) < 8 {
		return Claim{}, false
	}
	lower := strings.ToLower(sent)
	if !candidate(sent, lower) {
		return Claim{}, false
	}
	toks := words.Tokens(splitIdentifiers(sent)) // lower-cased by Tokens
	c := Claim{Text: sent, lower: lower}
	neg := 0
	for _, t := range toks {
		if negationWords[t] {
			neg++
		}
	}
	c.Negated = neg%2 == 1
	hasDigit := containsDigit(sent)
	switch {
	case row != nil:
		c.Quantities = tableQuantities(row.header, row.cells)
	case hasDigit:
		c.Quantities = quantities(sent, lower)
	}
	if anyWord(toks, dependencyWords) && containsAnyOf(lower, dependencyHints) {
		c.Edges = dependencyEdges(sent)
	}
	techs := lexicon.TechnologyIn(sent)
	if !c.Negated && len(techs) > 0 {
		c.Choice = choice(sent, techs)
	}
	switch {
	case len(c.Edges) > 0:
		c.Type = Dependency
	case anyWord(toks, constraintWords) || containsAnyOf(lower, constraintPairs) || hasComparison(sent) || hasBound(c.Quantities):
		c.Type = Constraint
	case anyWord(toks, modalWords) || containsAnyOf(lower, modalPairs):
		c.Type = Requirement
	case len(c.Quantities) > 0 || c.Choice != nil || hasDigit || len(techs) > 0 || strings.Contains(lower, "zero "):
		c.Type = Factual
	default:
		return Claim{}, false // neither a commitment nor a checkable fact
	}
	c.sig = sortedSet(significant(toks))
	return c, true
}

func hasBound(qs []Quantity) bool {
	for _, q := range qs {
		if q.Bound != Exact {
			return true
		}
	}
	return false
}

// fillers are words that carry no subject: verbs of being and setting,
// modals, negations, comparison words.
var fillers = map[string]bool{
	"is": true, "are": true, "be": true, "been": true, "was": true, "were": true, "set": true, "use": true,
	"using": true, "used": true, "must": true, "shall": true, "should": true, "will": true, "can": true,
	"may": true, "need": true, "needs": true, "take": true, "takes": true, "value": true, "default": true,
	"approximately": true, "about": true, "around": true, "roughly": true, "least": true, "most": true,
	"than": true, "more": true, "less": true, "up": true, "within": true, "under": true, "below": true,
	"above": true, "over": true, "no": true, "not": true, "never": true, "each": true, "every": true,
	"per": true, "all": true, "have": true, "has": true, "get": true, "gets": true, "do": true, "does": true,
	"don't": true, "cannot": true, "can't": true, "won't": true, "required": true, "require": true,
	"requires": true, "exactly": true, "only": true, "also": true, "then": true, "so": true, "after": true,
	"before": true, "until": true, "we": true, "they": true, "which": true, "should'nt": true, "avoid": true,
	"prohibited": true, "forbidden": true, "configured": true, "equal": true, "equals": true, "target": true,
}

// insignificant joins the stop words and the fillers: one lookup per word.
var insignificant = func() map[string]bool {
	m := map[string]bool{}
	for w := range fillers {
		m[w] = true
	}
	for _, w := range words.StopWords() {
		m[w] = true
	}
	return m
}()

var synonyms = map[string]string{
	"max": "maximum", "min": "minimum", "config": "configuration", "cfg": "configuration",
	"db": "database", "ttl": "expiry", "expiration": "expiry", "timeouts": "timeout",
	"latencies": "latency", "mem": "memory", "conn": "connection", "conns": "connection",
}

func needsSplit(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '`' || c >= 'A' && c <= 'Z' && i > 0 && (s[i-1] >= 'a' && s[i-1] <= 'z' || s[i-1] >= '0' && s[i-1] <= '9') {
			return true
		}
	}
	return false
}

// splitIdentifiers turns identifiers into words: MAX_RETRY_TIMEOUT and
// maxRetryTimeout both read "max retry timeout".
func splitIdentifiers(s string) string {
	if !needsSplit(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '`':
			b.WriteByte(' ')
			continue
		case c >= 'A' && c <= 'Z' && i > 0 && (s[i-1] >= 'a' && s[i-1] <= 'z' || s[i-1] >= '0' && s[i-1] <= '9'):
			b.WriteByte(' ')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// subjectWords returns the significant, normalised words of a phrase:
// identifiers split (MAX_RETRY_TIMEOUT and maxRetryTimeout read "max retry
// timeout"), stop words, fillers, numbers and requirement ids dropped,
// synonyms unified and words stemmed.
func subjectWords(phrase string) []string {
	return significant(words.Tokens(splitIdentifiers(phrase)))
}

// significant keeps the words of toks that name something, normalised.
func significant(toks []string) []string {
	out := make([]string, 0, len(toks))
	for _, w := range toks {
		if insignificant[w] || !hasLetter(w) || lexicon.IsRequirementID(w) {
			continue
		}
		if s, ok := synonyms[w]; ok {
			w = s
		}
		out = append(out, words.Stem(w))
	}
	return out
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// sortedSet sorts ws in place and drops repeats; every caller passes a
// slice it has just built.
func sortedSet(ws []string) []string {
	slices.Sort(ws)
	return slices.Compact(ws)
}

// boundPhrases turn a number into a limit; longer phrases first, so "at
// most" is not read as "most".
var boundPhrases = []string{"no more than", "no less than", "fewer than", "maximum of", "minimum of", "at least", "at most",
	"less than", "more than", "maximum", "minimum", "up to", "under", "below", "above", "within", "over", "max", "min",
	"≤", "≥", "<=", ">=", "<", ">"}

// scanQuantities finds every number in sent with what surrounds it, as
// index pairs in the layout of regexp's FindAllStringSubmatchIndex:
// [whole, bound, first number, second number (a range), "k", unit], -1
// for parts that are absent.
//
// lower is strings.ToLower(sent), which the caller usually has already.
func scanQuantities(sent, lower string) [][]int {
	var out [][]int
	if len(lower) != len(sent) {
		lower = sent // non-ASCII case changes would shift offsets; bounds still match lower-case text
	}
	for i := 0; i < len(sent); i++ {
		if !isDigit(sent[i]) || (i > 0 && isDigit(sent[i-1])) {
			continue
		}
		m := []int{i, 0, -1, -1, i, 0, -1, -1, -1, -1, -1, -1}
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
	for _, m := range scanQuantities(sent, lower) {
		q, start, end, ok := parseQuantity(sent, m)
		if !ok {
			continue
		}
		q.Phrase, q.Subject = quantitySubject(sent[prevEnd:start], sent[end:])
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

var percentileRE = regexp.MustCompile(`(?i)^[^,;.]{0,24}?\b(?:at\s+(?:the\s+)?(\d{1,2}(?:\.\d+)?)(?:st|nd|rd|th)\s+percentile|p(\d{2}(?:\.\d+)?)\b)`)

// percentileOf returns the percentile a value is stated at, read from the
// words right after it ("at the 95th percentile", "p99"), or "".
func percentileOf(after string) string {
	m := percentileRE.FindStringSubmatch(after)
	if m == nil {
		return ""
	}
	return m[1] + m[2]
}

// tableQuantities reads the quantities of a table row. A cell's value
// measures its column (the header) for its row (the first cell), so
// "| 50,000 events/s | 16 | 350 ms |" under "| Load | Instances | Expected
// p99 |" says the expected p99 at 50,000 events/s is 350 ms — and rows for
// different loads never contradict each other.
func tableQuantities(header, cells []string) []Quantity {
	if len(cells) < 2 {
		return nil
	}
	key := subjectWords(cells[0])
	rowDim := ""
	if containsDigit(cells[0]) {
		// A numeric row key ("10,000 events/s") names a condition, not a
		// subject: values under different conditions never compare.
		rowDim = "@" + strings.ToLower(strings.Join(strings.Fields(cells[0]), ""))
	}
	var out []Quantity
	for j := 1; j < len(cells) && j < len(header); j++ {
		for _, m := range scanQuantities(cells[j], strings.ToLower(cells[j])) {
			q, _, _, ok := parseQuantity(cells[j], m)
			if !ok {
				continue
			}
			q.Subject = sortedSet(append(subjectWords(header[j]), key...))
			q.Dim += rowDim
			q.Item = seriesItem(header[0], cells[0])
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

// parseQuantity turns one match of scanQuantities into a Quantity, without
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
	before = strings.ToLower(tail(strings.TrimRight(before, " *_`("), 24))
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
	if i := strings.LastIndexAny(before, ",;:.(—"); i >= 0 {
		before = before[i+1:]
	}
	f := strings.Fields(strings.ToLower(before))
	for i, w := range f {
		if i > 3 {
			break
		}
		if conditionWords[strings.Trim(w, "*_`\"")] {
			return true
		}
	}
	return false
}

func nextWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return strings.TrimRight(f[0], ".,;:!?)")
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
func quantitySubject(before, after string) (string, []string) {
	var pre []string
	if i := strings.LastIndexAny(before, ",;:("); i >= 0 {
		if pre = subjectWords(before[i+1:]); len(pre) > 0 {
			before = before[i+1:]
		}
	}
	if len(pre) == 0 {
		pre = subjectWords(before)
	}
	if len(pre) > 3 {
		pre = pre[len(pre)-3:]
	}
	phrase := rawPhrase(before)
	subj := pre
	if len(pre) < 2 {
		if i := strings.IndexAny(after, ",;:."); i >= 0 {
			after = after[:i]
		}
		post := subjectWords(after)
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
	f := strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '=' || r == '`' || r == '*' })
	trim := func(w string) string { return strings.ToLower(strings.Trim(w, ".,;:!?()[]\"'")) }
	insignificant := func(w string) bool {
		w = trim(w)
		return w == "" || words.IsStopWord(w) || fillers[w] || lexicon.IsRequirementID(w) || !hasLetter(w)
	}
	for len(f) > 0 && insignificant(f[0]) {
		f = f[1:]
	}
	for len(f) > 0 && insignificant(f[len(f)-1]) {
		f = f[:len(f)-1]
	}
	if len(f) > 6 {
		f = f[len(f)-6:]
	}
	return strings.Trim(strings.Join(f, " "), ".,;:!?()[]\"'")
}

var (
	choiceRE = regexp.MustCompile(`(?i)\b(?:use|uses|using|adopt|adopts|choose|chooses|select|selects|standardi[sz]e on|built on|backed by|runs? on|deploy(?:ed)? (?:to|on)|written in|implemented in|store[sd]? (?:\w+ )?in|persist(?:ed)? (?:\w+ )?in|live[sd]? in|kept in)\b`)
	slotRE   = regexp.MustCompile(`(?i)\b(?:for|as)\s+(?:the\s+|a\s+|an\s+|our\s+|all\s+)?([^,.;:()]+)`)
)

// choice finds a technology picked for a purpose. A sentence naming two
// technologies of one category ("migrate from MySQL to PostgreSQL", "use
// PostgreSQL or MySQL") picks neither.
func choice(sent string, techs []lexicon.Tech) *Choice {
	if len(techs) == 0 || !choiceRE.MatchString(sent) {
		return nil
	}
	t := techs[0]
	for _, o := range techs[1:] {
		if o.Category == t.Category && o.Name != t.Name {
			return nil
		}
	}
	c := &Choice{Tech: t.Name, Category: t.Category}
	if m := slotRE.FindStringSubmatch(sent); m != nil {
		c.Phrase = strings.TrimSpace(m[1])
		c.Slot = sortedSet(subjectWords(m[1]))
	}
	return c
}

// dependencyPhrases are the ways a sentence states a dependency, with the
// side that names the prerequisite: "A depends on B" makes A wait for B;
// "A is a prerequisite for B" (reverse) makes B wait for A.
var dependencyPhrases = []struct {
	phrase  string
	reverse bool
}{
	{" depends on ", false}, {" depend on ", false}, {" depends upon ", false}, {" depend upon ", false},
	{" relies on ", false}, {" rely on ", false}, {" is dependent on ", false}, {" are dependent on ", false},
	{" is blocked by ", false}, {" are blocked by ", false}, {" waits for ", false}, {" wait for ", false},
	{" cannot start until ", false}, {" cannot begin until ", false}, {" can't start until ", false},
	{" must not start until ", false}, {" cannot start before ", false}, {" cannot begin before ", false},
	{" starts after ", false}, {" start after ", false}, {" begins after ", false}, {" begin after ", false},
	{" runs after ", false}, {" run after ", false}, {" happens after ", false}, {" happen after ", false},
	{" comes after ", false}, {" come after ", false}, {" starts only after ", false}, {" begins only after ", false},
	{" is a prerequisite for ", true}, {" is a prerequisite of ", true}, {" is a prerequisite to ", true},
	{" is prerequisite for ", true}, {" are prerequisites for ", true}, {" are prerequisites of ", true},
	{" completes before ", true}, {" complete before ", true}, {" finishes before ", true}, {" finish before ", true},
	{" happens before ", true}, {" happen before ", true}, {" comes before ", true}, {" come before ", true},
	{" lands before ", true}, {" land before ", true},
}

// dependencyEdges extracts "A depends on B" statements and their variants.
func dependencyEdges(sent string) []Edge {
	s := strings.TrimRight(sent, ".!;")
	lower := " " + strings.ToLower(s) + " "
	if len(lower) != len(s)+2 {
		return nil // non-ASCII case folding shifted the offsets; no phrase here is non-ASCII
	}
	best, bestAt := -1, len(lower)
	for i, p := range dependencyPhrases {
		if at := strings.Index(lower, p.phrase); at >= 0 && at < bestAt {
			best, bestAt = i, at
		}
	}
	if best < 0 {
		return nil
	}
	p := dependencyPhrases[best]
	// lower is s padded with a space each side: the phrase covers
	// s[bestAt-1 : bestAt-1+len(phrase)], spaces included.
	left, right := "", ""
	if bestAt > 0 {
		left = s[:bestAt-1]
	}
	if start := bestAt - 1 + len(p.phrase); start < len(s) {
		right = s[start:]
	}
	from, to := nodeName(left, true), nodeName(right, false)
	if p.reverse {
		from, to = to, from
	}
	if from == "" || to == "" || from == to {
		return nil
	}
	return []Edge{{From: from, To: to}}
}

// nodeCuts end a dependency's noun phrase: the left side keeps what
// follows the last of them, the right side what precedes the first.
var nodeCuts = wordSet("then", "which", "that", "and", "because", "before", "after", "so", "while", "for", "to", "in",
	"once", "is", "are", "has", "have", "being", "complete", "completes", "finish", "finishes", "start", "starts")

// leadingNoise opens a noun phrase without naming anything.
var leadingNoise = wordSet("the", "a", "an", "our", "its", "their", "this", "that", "all", "both", "each", "every",
	"must", "should", "will", "can", "also")

var labelHeads = wordSet("phase", "milestone", "stage", "step", "module", "wave", "sprint")

// nodeName normalises the noun phrase of a dependency: the last words
// before the verb (left) or the first after it (right), at most four,
// lower-cased and stemmed, articles dropped. "Milestone M2" and "M2" name
// the same node: a milestone, phase or deliverable id wins over its label.
func nodeName(phrase string, left bool) string {
	if left {
		if i := strings.LastIndexAny(phrase, ",;:("); i >= 0 {
			phrase = phrase[i+1:]
		}
	} else if i := strings.IndexAny(phrase, ",;:("); i >= 0 {
		phrase = phrase[:i]
	}
	toks := words.Tokens(phrase)
	if left {
		for i := len(toks) - 1; i >= 0; i-- {
			if nodeCuts[toks[i]] {
				toks = toks[i+1:]
				break
			}
		}
	} else {
		for i, t := range toks {
			if nodeCuts[t] {
				toks = toks[:i]
				break
			}
		}
	}
	for len(toks) > 0 && leadingNoise[toks[0]] {
		toks = toks[1:]
	}
	for len(toks) > 0 && trailingModals[toks[len(toks)-1]] {
		toks = toks[:len(toks)-1] // "the API must" completes before …
	}
	if len(toks) == 0 {
		return ""
	}
	for _, t := range toks {
		if isIDToken(t) {
			return t // "Milestone M2" and "M2" name one node: m2
		}
	}
	for i, t := range toks {
		if labelHeads[t] && i+1 < len(toks) {
			return t + " " + toks[i+1]
		}
	}
	if left && len(toks) > 4 {
		toks = toks[len(toks)-4:]
	} else if len(toks) > 4 {
		toks = toks[:4]
	}
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = words.Stem(t)
	}
	return strings.Join(out, " ")
}

// isIDToken reports milestone, deliverable and phase ids: m2, d1.3, p3,
// ms4.
func isIDToken(t string) bool {
	i := 0
	switch {
	case strings.HasPrefix(t, "ms"):
		i = 2
	case len(t) > 0 && (t[0] == 'm' || t[0] == 'd' || t[0] == 'p'):
		i = 1
	default:
		return false
	}
	if i >= len(t) || !isDigit(t[i]) {
		return false
	}
	j := scanNum(t, i)
	return j == len(t)
}

var trailingModals = wordSet("must", "should", "will", "can", "may", "shall", "also", "only", "to")
