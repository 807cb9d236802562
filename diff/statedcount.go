package diff

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/internal/words"
)

// A document that tallies its own findings states the same count twice:
// once in its summary ("Two instances of sycophantic agreement … were
// detected.") and once as a labelled figure ("- **Sycophantic agreements
// detected**: 4"). The two cannot both be right. The rule reads only a
// labelled count — a label naming what is counted in at least two words,
// and a value that is a whole number with at most a note in parentheses —
// and the sentences elsewhere in the document that put a number right
// before those same words; a number that counts part of them ("2 of the
// 4 …", "another 2 …") is not their count.

// countLabelValue is a labelled count's value: "4", "**3**", "4 (convergence
// scores accepted uncritically)".
var countLabelValue = regexp.MustCompile(`^\**(\d+)\**(?:\s*\([^)]*\))?\.?$`)

// proseCount is a number in prose; countAfter reads the words after it,
// skipping "instances of".
var (
	proseCount = regexp.MustCompile(`(?i)\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b`)
	countAfter = regexp.MustCompile(`(?i)^\s+(?:(?:instances?|cases?|occurrences?|examples?)\s+of\s+)?((?:["'\w-]+\s+){0,6}["'\w-]+)`)
)

// countNoise are the words of a count's label that say how it was counted,
// not what: "Sycophantic agreements detected" counts sycophantic
// agreements.
var countNoise = wordSet("detected", "found", "identified", "reported", "total", "number", "count", "checked", "flagged",
	"listed", "noted", "warranted", "items", "item", "instances", "instance", "of", "in", "the")

// partialBefore are words before a number that make it count a part.
var partialBefore = regexp.MustCompile(`(?i)\b(?:another|other|additional|more|first|last|top|only|further|remaining)\s+$`)

var numberWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}

type statedCount struct {
	claim   Claim
	label   string // as written, markup removed: "Sycophantic agreements detected"
	subject words.Set
	n       int
}

// detectStatedCounts reports, within each variant, a labelled count and a
// sentence that counts the same things differently.
func detectStatedCounts(in DetectInput) []Contradiction {
	var out []Contradiction
	for v, d := range in.Documents {
		labelled := labelledCounts(d, v)
		if len(labelled) == 0 {
			continue
		}
		for bi, b := range d.Blocks {
			if b.Kind == Code || b.Kind == TableRow || b.Header {
				continue
			}
			src := d.Text(b.Span)
			for _, ix := range proseCount.FindAllStringSubmatchIndex(src, -1) {
				am := countAfter.FindStringSubmatch(src[ix[1]:])
				if am == nil {
					continue
				}
				num, after := src[ix[2]:ix[3]], am[1]
				if partialBefore.MatchString(src[:ix[0]]) || (ix[0] > 0 && strings.ContainsAny(src[ix[0]-1:ix[0]], ".-:/")) ||
					strings.HasPrefix(strings.ToLower(after), "of ") || strings.HasPrefix(strings.ToLower(after), "out of") {
					continue
				}
				n, ok := numberWords[strings.ToLower(num)]
				if !ok {
					var err error
					if n, err = strconv.Atoi(num); err != nil {
						continue
					}
				}
				have := countWords(after)
				line := d.LineAt(b.Span.Start + ix[0])
				for _, lc := range labelled {
					if lc.claim.Line == line || lc.n == n || have.Intersect(lc.subject) < len(lc.subject) {
						continue
					}
					sent := sentenceAround(src, ix[0], ix[1])
					if strings.Contains(sent, "\n") {
						sent = strings.TrimSpace(src[strings.LastIndexByte(src[:ix[0]], '\n')+1:])
						if k := strings.IndexByte(sent, '\n'); k >= 0 {
							sent = sent[:k]
						}
					}
					c := Contradiction{Kind: NumericConflict, Impact: Medium,
						Subject: "the count of “" + lc.label + "”",
						Key:     "stated-count:" + strings.Join(lc.subject, " "),
						Reason:  fmt.Sprintf("the document counts %d in one place and %d in another", n, lc.n),
						Claims: []Claim{{Variant: v, Section: b.Section, Block: bi, Line: line, Text: sent, Quote: sent, Type: Factual},
							lc.claim}}
					sortClaims(c.Claims)
					out = append(out, c)
				}
			}
		}
	}
	return dedupeByKey(out)
}

// eachLabelledCount calls add with every label and value a document
// states as a count may be stated: "- **Label**: value" lines and the
// rows of two-column tables whose second column counts ("| Label | 4 |"
// under "| … | Count |"), each with its claim.
func eachLabelledCount(d *Document, v int, add func(label, value string, at countAt)) {
	refs := docFieldRefs(d)
	for i := range refs {
		if r := &refs[i]; r.Form == FormLabel {
			add(r.Name, r.Value, countAt{d: d, v: v, ref: r, bi: -1})
		}
	}
	for _, t := range tablesOf(d) {
		if len(t.header) != 2 || !isTallyLabel(countHeaders, t.header[1]) {
			continue
		}
		for _, bi := range t.rows {
			if b := &d.Blocks[bi]; len(b.Cells) == 2 {
				add(b.Cells[0], b.Cells[1], countAt{d: d, v: v, bi: bi})
			}
		}
	}
}

// mayStateCount reports whether countLabelValue could match the value
// trimmed: it needs a digit. Most labels give words.
func mayStateCount(value string) bool { return containsDigit(value) }

// countAt is where eachLabelledCount found a label and its value: a
// labelled line's field, or a table row. The claim is built only for the
// few values that are counts, not for every label of the document.
type countAt struct {
	d   *Document
	v   int
	ref *fldRef // the labelled line's field, or nil for a table row
	bi  int     // the table row's block
}

// claim is the statement the label and value make, quoted from the source.
func (at countAt) claim() Claim {
	if r := at.ref; r != nil {
		return Claim{Variant: at.v, Section: r.Section, Block: -1, Line: r.Line, Text: r.Name + ": " + r.Value,
			Quote: strings.TrimSpace(r.Quote), Type: Factual}
	}
	b := &at.d.Blocks[at.bi]
	return Claim{Variant: at.v, Section: b.Section, Block: at.bi, Line: b.Line, Text: b.Text,
		Quote: strings.TrimSpace(at.d.Text(b.Span)), Type: Factual}
}

// labelledCounts finds a document's labelled counts: "- **Label**: 4"
// lines and two-column table rows "| Label | 4 |".
func labelledCounts(d *Document, v int) []statedCount {
	var out []statedCount
	add := func(label, value string, at countAt) {
		if !mayStateCount(value) {
			return
		}
		m := countLabelValue.FindStringSubmatch(strings.TrimSpace(value))
		if m == nil {
			return
		}
		n, err := strconv.Atoi(m[1])
		if err != nil {
			return
		}
		if subject := countWords(label); len(subject) >= 2 {
			out = append(out, statedCount{n: n, label: strings.TrimSpace(fldPlain(label)), subject: subject, claim: at.claim()})
		}
	}
	eachLabelledCount(d, v, add)
	return out
}

// countWords is what a count counts: the stems of its words, without the
// words that say how it was counted.
func countWords(s string) words.Set {
	var ws words.Set
	words.Each(strings.ReplaceAll(s, "\"", " "), func(w string) {
		if countNoise[w] || words.IsStopWord(w) || fldNumeral(w) {
			return
		}
		ws = append(ws, singular(words.Stem(w)))
	})
	return sortedSet(ws)
}
