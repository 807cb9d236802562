package diff

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/words"
)

// The terms the alignment compares sections by: a title's words, ids and
// outline references, a section text's rare words and identifiers, and the
// sparse weighted vectors built from them.

// termVec is a sparse vector: term ids ascending, with their weights.
type termVec struct {
	ids []int32
	w   []float64
}

func (a termVec) dot(b termVec) float64 {
	s, i, j := 0.0, 0, 0
	for i < len(a.ids) && j < len(b.ids) {
		switch {
		case a.ids[i] == b.ids[j]:
			s += a.w[i] * b.w[j]
			i++
			j++
		case a.ids[i] < b.ids[j]:
			i++
		default:
			j++
		}
	}
	return s
}

// tfWeight damps repeats: 1 + ln(n).
func tfWeight(n int32) float64 {
	if int(n) < len(tfTable) {
		return tfTable[n]
	}
	return 1 + math.Log(float64(n))
}

var tfTable = func() (t [64]float64) {
	for n := 1; n < len(t); n++ {
		t[n] = 1 + math.Log(float64(n))
	}
	return t
}()

// termCount is a term and its occurrences.
type termCount struct {
	id int32
	n  int32
}

// mergeCounts adds two lists of term counts sorted by term.
func mergeCounts(a, b []termCount) []termCount {
	out := make([]termCount, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i].id == b[j].id:
			out = append(out, termCount{a[i].id, a[i].n + b[j].n})
			i++
			j++
		case a[i].id < b[j].id:
			out = append(out, a[i])
			i++
		default:
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// termSlab hands out the arrays of many term vectors from a few large
// ones: three vectors per section of every variant were two allocations
// each. Each vector's slices are capped at their share, so nothing one
// appends reaches another's.
type termSlab struct {
	ids []int32
	w   []float64
}

// termSlabSize is the least number of terms a slab allocates at once.
const termSlabSize = 8192

// vec makes a unit vector of terms sorted by id, weighed by weight;
// terms of weight zero are left out.
func (sl *termSlab) vec(tcs []termCount, weight func(termCount) float64) termVec {
	n := len(tcs)
	if len(sl.ids)+n > cap(sl.ids) {
		size := max(n, termSlabSize)
		sl.ids, sl.w = make([]int32, 0, size), make([]float64, 0, size)
	}
	at := len(sl.ids)
	sl.ids, sl.w = sl.ids[:at+n], sl.w[:at+n]
	v := termVec{ids: sl.ids[at : at : at+n], w: sl.w[at : at : at+n]}
	norm := 0.0
	for _, tc := range tcs {
		if x := weight(tc); x > 0 {
			v.ids, v.w = append(v.ids, tc.id), append(v.w, x)
			norm += x * x
		}
	}
	norm = math.Sqrt(norm)
	for k := range v.w {
		v.w[k] /= norm
	}
	return v
}

// leadingNumber matches the outline number a heading opens with:
// "3.", "2.1", "Section 4:", "Part 2 —".
var leadingNumber = regexp.MustCompile(`^(?i:(?:section|part|chapter|§)\s*)?(\d+(?:\.\d+)*)[.):]?(?:\s+[-–—:]?\s*|$)`)

// titleTerms returns the significant terms of section si's heading. The
// outline number it opens with is dropped; a number that does not fit the
// outline ("### 4.4 Rewrite" under "## 3. Language") is a reference to
// another section, and counts as an id "§4.4". A number after a word makes
// an item id with it ("Phase 2" → "phase#2"), as do requirement ids
// ("NR-3") and words mixing letters and digits ("T1").
func titleTerms(d *Document, si int) []string {
	s := d.Sections[si]
	title := strings.TrimSpace(s.Title)
	var out []string
	if mayLeadNumber(title) {
		if m := leadingNumber.FindStringSubmatchIndex(title); m != nil && m[1] < len(title) {
			num := title[m[2]:m[3]]
			if ref, ok := outlineReference(d, si, num); ok {
				out = append(out, "§"+ref)
			}
			title = title[m[1]:]
		}
	}
	toks := words.Tokens(title)
	var partBuf [4]string // a word's parts, most often the word itself
	prevWord := ""
	for _, tok := range toks {
		switch {
		case digitsAndDots(tok):
			if prevWord != "" {
				out = append(out, prevWord+"#"+tok)
			} else if strings.Contains(tok, ".") {
				out = append(out, "§"+tok)
			}
			prevWord = ""
			continue
		case lexicon.IsRequirementID(tok) || hasDigit(tok) && hasLetter(tok):
			out = append(out, tok)
			if m := sectionSign.FindStringSubmatch(tok); m != nil {
				out = append(out, "§"+m[1]) // "SS4.4", "sec3.2"
			}
			prevWord = ""
			continue
		}
		prevWord = ""
		if words.IsStopWord(tok) {
			continue
		}
		for _, part := range appendWordParts(partBuf[:0], tok) {
			if !words.IsStopWord(part) {
				out = append(out, stemTerm(part))
			}
		}
		if isPlainWord(tok) {
			prevWord = stemTerm(tok)
		}
	}
	return out
}

// mayLeadNumber reports whether leadingNumber could match title: its
// match opens with a digit, or with "section", "part", "chapter" or "§"
// in any case. A title opening with another ASCII byte is not looked at;
// one opening with another byte is left to the pattern, whose case
// folding reaches beyond ASCII.
func mayLeadNumber(title string) bool {
	if title == "" {
		return true
	}
	c := title[0]
	return c >= utf8.RuneSelf || isDigit(c) || strings.IndexByte("sSpPcC", c) >= 0
}

// sectionSign matches a reference to a numbered section written as a
// word: "ss4.4", "sec3.2".
var sectionSign = regexp.MustCompile(`^[a-z]{1,3}(\d+\.\d+(?:\.\d+)*)$`)

// outlineReference reports whether a dotted number opening a heading is
// not the heading's place in the outline: its parent's heading opens with
// another number than the dotted number's prefix.
func outlineReference(d *Document, si int, num string) (string, bool) {
	dot := strings.LastIndexByte(num, '.')
	p := d.Sections[si].Parent
	if dot < 0 || p < 0 {
		return "", false
	}
	m := leadingNumber.FindStringSubmatch(strings.TrimSpace(d.Sections[p].Title))
	if m == nil || m[1] == num[:dot] {
		return "", false
	}
	return num, true
}

// eachBodyToken calls fn with each token of section si's own text (its
// subsections' excluded), lower-cased, in order, and whether it is in
// prose (a paragraph or list item, not a table row or code). Each token
// gives the text its terms (tokenTerms).
func eachBodyToken(d *Document, si int, fn func(tok string, inProse bool)) {
	lo, hi := d.blockRange(d.Sections[si].Span)
	lower := d.lowerBlocks()
	for bi := lo; bi < hi; bi++ {
		if d.Blocks[bi].Section != si {
			continue
		}
		k := d.Blocks[bi].Kind
		inProse := k == Paragraph || k == ListItem
		words.EachLower(lower[bi], func(tok string) { fn(tok, inProse) })
	}
}

// tokenTerms calls emit with the terms of one token of a section's text:
// none for a stop word; a number, identifier or id as it is (and a path's
// file name); a word stemmed; a hyphenated word's parts stemmed. The terms
// depend on the token alone.
func tokenTerms(tok string, emit func(string)) {
	switch {
	case words.IsStopWord(tok):
	case digitsAndDots(tok):
		if len(tok) >= 2 {
			emit(tok)
		}
	case lexicon.IsRequirementID(tok) || !isPlainWord(tok) && !strings.Contains(tok, "-"):
		emit(tok) // identifiers, file names, ids
		if i := strings.LastIndexByte(tok, '/'); i >= 0 && i+1 < len(tok) {
			emit(tok[i+1:]) // a path's file name
		}
	case isPlainWord(tok):
		if len(tok) >= 3 {
			emit(stemTerm(tok))
		}
	default:
		for _, part := range wordParts(tok) {
			if len(part) >= 3 && !words.IsStopWord(part) {
				emit(stemTerm(part))
			}
		}
	}
}

// tokenTermIDs remembers the term ids of each token of the texts the
// alignment measures: the variants share most of their words, and a
// token's terms depend on it alone, so each is read once.
type tokenTermIDs struct {
	byToken map[string][]int32 // each stretch of all
	all     []int32
	// proseID marks, by term id, the terms that are item ids
	// (isHeadingIDTerm, not a plain word): the ones prose mentions are
	// counted of.
	proseID []bool
}

func newTokenTermIDs() *tokenTermIDs { return &tokenTermIDs{byToken: map[string][]int32{}} }

// ids returns the ids of tokenTerms(tok), in order, numbering new terms
// with id the first time tok is read, as reading its terms would.
func (tt *tokenTermIDs) ids(tok string, id func(string) int32) []int32 {
	if ts, ok := tt.byToken[tok]; ok {
		return ts
	}
	at := len(tt.all)
	tokenTerms(tok, func(t string) {
		i := id(t)
		for int(i) >= len(tt.proseID) {
			tt.proseID = append(tt.proseID, false)
		}
		tt.proseID[i] = !isPlainWord(t) && isHeadingIDTerm(t)
		tt.all = append(tt.all, i)
	})
	ts := tt.all[at:len(tt.all):len(tt.all)]
	tt.byToken[tok] = ts
	return ts
}

// wordParts splits a hyphenated word: "cold-start" → "cold", "start".
// A part of one letter makes the word a name ("SOL-D", "Plan-B") that
// stays whole.
func wordParts(tok string) []string {
	if isPlainWord(tok) || strings.ContainsAny(tok, "_./") {
		return []string{tok}
	}
	parts := strings.FieldsFunc(tok, func(r rune) bool { return r == '-' || r == '\'' || r == '’' })
	if strings.Contains(tok, "-") && slices.ContainsFunc(parts, func(p string) bool { return len(p) == 1 }) {
		return []string{tok}
	}
	return parts
}

// appendWordParts appends wordParts(tok) to dst: a caller with a buffer
// on its stack splits the common plain word without an allocation.
func appendWordParts(dst []string, tok string) []string {
	if isPlainWord(tok) || strings.ContainsAny(tok, "_./") {
		return append(dst, tok)
	}
	return append(dst, wordParts(tok)...)
}

// stemTerm reduces a word to a crude stem: the singular, cut to
// alignStemLen letters, so that "orchestration" and "orchestrator" or
// "validate" and "validation" meet.
func stemTerm(w string) string {
	w = words.Stem(w)
	if !isPlainWord(w) {
		return w
	}
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		w = w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ed"):
		w = w[:len(w)-2]
	}
	if len(w) > alignStemLen {
		return w[:alignStemLen]
	}
	return w
}

// isPlainWord reports whether tok is ASCII letters only.
func isPlainWord(tok string) bool {
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return tok != ""
}

// digitsAndDots reports whether tok is digits and dots: "3", "2.1".
func digitsAndDots(tok string) bool {
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return tok != ""
}

func hasDigit(tok string) bool { return strings.ContainsAny(tok, "0123456789") }
