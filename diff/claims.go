package diff

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/words"
)

// ClaimType is the kind of a falsifiable statement, the unit contradiction
// detection compares.
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
	out := slices.Clone(sharedClaims(doc))
	for i := range out {
		out[i].Variant = variant
	}
	return out
}

// sharedClaims returns the document's claims as variant 0: the memoised
// slice itself, which callers must not change.
func sharedClaims(doc *Document) []Claim {
	return sharedClaimsWith(doc, nil)
}

// sharedClaimsWith is sharedClaims reading sentences through a cache that
// other documents of the same analysis share (nil for none).
func sharedClaimsWith(doc *Document, cache *claimCache) []Claim {
	if doc.memo == nil {
		return extractClaims(doc, cache)
	}
	doc.memo.claimsOnce.Do(func() { doc.memo.claims = extractClaims(doc, cache) })
	return doc.memo.claims
}

func extractClaims(doc *Document, cache *claimCache) []Claim {
	const variant = 0
	var hint *sizeHint
	if cache != nil {
		hint = &cache.size
	}
	out := make([]Claim, 0, max(len(doc.Blocks), hint.capFor(len(doc.Blocks))))
	defer func() { hint.record(len(out), len(doc.Blocks)) }()
	forEachSentence(doc, variant, func(sent, lower string, row *tableRow, at sentenceAt) {
		var c Claim
		var ok bool
		switch {
		case cache == nil:
			c, ok = classifyLower(sent, lower, row)
		case row == nil:
			c, ok = cache.classify(sent, lower)
		default:
			c, ok = cache.classifyRow(sent, row)
		}
		if ok {
			at.place(&c)
			out = append(out, c)
		}
	})
	return out
}

// claimCache remembers how sentences outside tables were classified, for
// the documents of one analysis: variants of one artifact repeat most of
// their sentences, and a sentence repeated within a document or across
// them is read once. classifyLower depends on nothing but the sentence
// (its lower-cased form is derived from it), so a cached reading is the
// reading. The claims that share a reading share its slices, which every
// reader of claims only reads, as the copies ExtractClaims hands out
// already do.
type claimCache struct {
	mu   sync.Mutex
	m    map[string]cachedClaim
	rows map[string]cachedClaim // table rows, by rowKey
	size sizeHint               // claims per block of the documents read so far
}

type cachedClaim struct {
	c  Claim // before place: no location, no quote
	ok bool
}

func newClaimCache() *claimCache {
	return &claimCache{m: map[string]cachedClaim{}, rows: map[string]cachedClaim{}}
}

// classifyRow is classifyLower(sent, "", row) for a table row, read once
// per row and header: variants repeat most of their tables. The reading
// depends on the sentence (the cells joined) and on the header and cells
// themselves, which the key holds.
func (cc *claimCache) classifyRow(sent string, row *tableRow) (Claim, bool) {
	k := rowKey(row)
	cc.mu.Lock()
	r, hit := cc.rows[k]
	cc.mu.Unlock()
	if hit {
		return r.c, r.ok
	}
	c, ok := classifyLower(sent, "", row)
	cc.mu.Lock()
	if _, dup := cc.rows[k]; !dup {
		cc.rows[k] = cachedClaim{c, ok}
	}
	cc.mu.Unlock()
	return c, ok
}

// rowKey names a table row with its header: the number of header cells,
// then every cell of both, each as its length and its text, so that no
// two rows share a key whatever their cells hold.
func rowKey(row *tableRow) string {
	b := make([]byte, 0, 64)
	b = strconv.AppendInt(b, int64(len(row.header)), 10)
	for _, cells := range [2][]string{row.header, row.cells} {
		for _, c := range cells {
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(len(c)), 10)
			b = append(b, ':')
			b = append(b, c...)
		}
	}
	return string(b)
}

// classify is classifyLower(sent, lower, nil), read once per sentence.
// Two documents may classify one sentence at once: both get the same
// claim, and the second one stored is dropped.
func (cc *claimCache) classify(sent, lower string) (Claim, bool) {
	cc.mu.Lock()
	r, hit := cc.m[sent]
	cc.mu.Unlock()
	if hit {
		return r.c, r.ok
	}
	c, ok := classifyLower(sent, lower, nil)
	cc.mu.Lock()
	if _, dup := cc.m[sent]; !dup {
		cc.m[sent] = cachedClaim{c, ok}
	}
	cc.mu.Unlock()
	return c, ok
}

// tableRow is a table's data row with its header, for claims read from
// tables.
type tableRow struct {
	header, cells []string
	// headerWords holds subjectWords of each header cell once read; it
	// is shared by the rows of one table, which only read it.
	headerWords *[][]string
}

// sentenceAt is where forEachSentence found a sentence. It is a value
// with a method, not a closure, so that neither it nor the claim it
// places is allocated for each sentence.
type sentenceAt struct {
	doc       *Document
	variant   int
	bi        int
	sent, src string // the sentence; its block's source text
}

// place fills in a claim's location and exact quote: done only for the
// sentences that are claims, since finding the quote costs a search of
// the block.
func (at sentenceAt) place(c *Claim) {
	b := &at.doc.Blocks[at.bi]
	c.Variant, c.Section, c.Block, c.Line = at.variant, b.Section, at.bi, b.Line
	if i, j, ok := locate(at.sent, at.src); ok {
		c.Quote, c.Line = at.src[i:j], at.doc.LineAt(b.Span.Start+i)
	} else {
		c.Quote = strings.TrimSpace(at.src)
	}
}

// forEachSentence calls fn with every sentence of the document's body text
// (not code, not table headers; a table row is one sentence, with its
// header), and where it is, to place the claims among them.
//
// fn also gets the sentence lower-cased when the document has it at hand
// (a sentence of an ASCII block is a piece of the block's lower-cased
// text), else "". The row it gets is reused from one row to the next.
func forEachSentence(doc *Document, variant int, fn func(sent, lower string, row *tableRow, at sentenceAt)) {
	lowerBlocks := doc.lowerBlocks()
	var header []string
	var headerWords *[][]string // of header: reset with it
	var rowBuf tableRow
	for bi := range doc.Blocks {
		b := &doc.Blocks[bi]
		if b.Kind != TableRow {
			header, headerWords = nil, nil
		}
		if b.Header {
			header, headerWords = b.Cells, new([][]string)
		}
		if b.Kind == Code || b.Header {
			continue
		}
		var row *tableRow
		if b.Kind == TableRow && header != nil {
			rowBuf = tableRow{header: header, cells: b.Cells, headerWords: headerWords}
			row = &rowBuf
		}
		src := doc.Text(b.Span)
		ascii := b.Kind != TableRow && isASCII(b.Text)
		from := 0 // where the next sentence is looked for in b.Text
		eachSentence(b, func(sent string) {
			// Any place of an ASCII block holding the sentence holds its
			// lower-cased text in the lower-cased block; the sentences
			// come in order, so the next one is found from the last.
			lower := ""
			if ascii {
				if k := strings.Index(b.Text[from:], sent); k >= 0 {
					lower = lowerBlocks[bi][from+k : from+k+len(sent)]
					from += k + len(sent)
				}
			}
			fn(sent, lower, row, sentenceAt{doc: doc, variant: variant, bi: bi, sent: sent, src: src})
		})
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
	var out []string
	eachSentence(&b, func(s string) { out = append(out, s) })
	return out
}

// eachSentence calls fn with each of sentences(*b) in turn, without the
// slice: most blocks are one sentence, and the steps that read every
// sentence of every block only walk them.
func eachSentence(b *Block, fn func(string)) {
	if b.Kind == TableRow {
		fn(strings.Join(b.Cells, " "))
		return
	}
	t := b.Text
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
			fn(s)
		}
		last = i + 1
	}
	if rest := strings.TrimSpace(t[last:]); rest != "" {
		fn(rest)
	}
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
	return classifyLower(sent, "", row)
}

// classifyLower is classify given strings.ToLower(sent), or "" for
// classify to lower-case it.
func classifyLower(sent, lower string, row *tableRow) (Claim, bool) {
	if len(sent) < 8 {
		return Claim{}, false
	}
	if lower == "" {
		lower = strings.ToLower(sent)
	}
	if !candidate(sent, lower) {
		return Claim{}, false
	}
	// The tokens are read here and dropped (significant copies what it
	// keeps): they live in a buffer on the stack unless the sentence is long.
	var tokBuf [48]string
	var toks []string
	if needsSplit(sent) {
		toks = words.AppendTokens(tokBuf[:0], splitIdentifiers(sent)) // lower-cased by AppendTokens
	} else {
		toks = words.AppendTokens(tokBuf[:0], lower) // the same tokens, without lower-casing sent again
	}
	c := Claim{Text: sent, lower: lower}
	// One lookup per token gives every word class the tests below ask
	// about (they used to scan the tokens once per class), and what
	// significant needs of it: kept for most sentences in infos.
	neg, classes := 0, wordClass(0)
	var infoBuf [64]wordInfo
	infos := infoBuf[:0]
	if len(toks) > len(infoBuf) {
		infos = nil // a long sentence: significant looks its words up again
	}
	for _, t := range toks {
		wi := wordClasses[t]
		if infos != nil {
			infos = append(infos, wi)
		}
		k := wi.class
		classes |= k
		if k&classNegation != 0 {
			neg++
		}
	}
	c.Negated = neg%2 == 1
	hasDigit := containsDigit(sent)
	switch {
	case row != nil:
		c.Quantities = tableQuantities(row.header, row.cells, row.headerWords)
	case hasDigit:
		c.Quantities = quantities(sent, lower)
	}
	if classes&classDependency != 0 && containsAnyOf(lower, dependencyHints) {
		c.Edges = dependencyEdges(sent)
	}
	techs := lexicon.TechnologyIn(sent)
	if !c.Negated && len(techs) > 0 {
		c.Choice = choice(sent, techs)
	}
	switch {
	case len(c.Edges) > 0:
		c.Type = Dependency
	case classes&classConstraint != 0 || containsAnyOf(lower, constraintPairs) || hasComparison(sent) || hasBound(c.Quantities):
		c.Type = Constraint
	case classes&classModal != 0 || containsAnyOf(lower, modalPairs):
		c.Type = Requirement
	case len(c.Quantities) > 0 || c.Choice != nil || hasDigit || len(techs) > 0 || strings.Contains(lower, "zero "):
		c.Type = Factual
	default:
		return Claim{}, false // neither a commitment nor a checkable fact
	}
	if infos != nil {
		c.sig = sortedSet(significantOf(toks, infos))
	} else {
		c.sig = sortedSet(significant(toks))
	}
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

// wordClass says which of the word sets above a word belongs to.
type wordClass uint8

const (
	classInsignificant wordClass = 1 << iota
	classNegation
	classDependency
	classConstraint
	classModal
)

// wordInfo is what classify and significant ask of a word: its classes
// and its synonym ("" for none).
type wordInfo struct {
	class   wordClass
	synonym string
}

// wordClasses joins insignificant, synonyms and the word sets classify
// tests, so each token costs one map lookup, not one per set. It is built
// from those sets, which stay the definitions.
var wordClasses = func() map[string]wordInfo {
	m := map[string]wordInfo{}
	add := func(set map[string]bool, k wordClass) {
		for w := range set {
			wi := m[w]
			wi.class |= k
			m[w] = wi
		}
	}
	add(insignificant, classInsignificant)
	add(negationWords, classNegation)
	add(dependencyWords, classDependency)
	add(constraintWords, classConstraint)
	add(modalWords, classModal)
	for w, syn := range synonyms {
		wi := m[w]
		wi.synonym = syn
		m[w] = wi
	}
	return m
}()

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
	var buf [24]string // the tokens, dropped once read
	return significant(words.AppendTokens(buf[:0], splitIdentifiers(phrase)))
}

// subjectWordsLower is subjectWords given strings.ToLower(phrase), or ""
// when the caller does not have it: a phrase without identifiers to split
// is read from its lower-cased text.
func subjectWordsLower(phrase, lower string) []string {
	if lower == "" || needsSplit(phrase) {
		return subjectWords(phrase)
	}
	var buf [24]string // the tokens, dropped once read
	return significant(words.AppendTokens(buf[:0], lower))
}

// lowerTail returns lower[i:], or "" for a lower-case text not at hand.
func lowerTail(lower string, i int) string {
	if lower == "" {
		return ""
	}
	return lower[i:]
}

// significant keeps the words of toks that name something, normalised.
func significant(toks []string) []string {
	out := make([]string, 0, len(toks))
	for _, w := range toks {
		out = appendSignificant(out, w, wordClasses[w])
	}
	return out
}

// significantOf is significant for tokens whose wordClasses entries the
// caller has looked up already: infos[i] is toks[i]'s.
func significantOf(toks []string, infos []wordInfo) []string {
	out := make([]string, 0, len(toks))
	for i, w := range toks {
		out = appendSignificant(out, w, infos[i])
	}
	return out
}

// appendSignificant appends w, normalised, when it names something; wc is
// its wordClasses entry.
func appendSignificant(out []string, w string, wc wordInfo) []string {
	if wc.class&classInsignificant != 0 || !hasLetter(w) || lexicon.IsRequirementID(w) {
		return out
	}
	if wc.synonym != "" {
		w = wc.synonym
	}
	return append(out, words.Stem(w))
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
