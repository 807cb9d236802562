package diff

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Two ways a document states a fact and, a few lines later, its opposite,
// each readable from the words alone:
//
//   - the size of a series and a supposition that one of its items does
//     not exist: "In the current 9-step pipeline …" beside "… but if there
//     were a step 9, it would also re-run" (a pipeline of nine steps has a
//     step 9);
//   - a value and its correction in the same line: "STALL=22, TIMEOUT=23.
//     Actually: line 21 is `STALL = "stall"`, not line 22." (the author
//     retracts what the line still says).

// blockLines calls fn with each source line of the document's body blocks
// outside code, and the line's number.
func blockLines(d *Document, fn func(bi int, line string, n int)) {
	for bi, b := range d.Blocks {
		if b.Kind == Code || b.Header {
			continue
		}
		src := d.Text(b.Span)
		start := 0
		for start <= len(src) {
			end := strings.IndexByte(src[start:], '\n')
			if end < 0 {
				end = len(src)
			} else {
				end += start
			}
			fn(bi, src[start:end], d.LineAt(b.Span.Start+start))
			start = end + 1
		}
	}
}

// cellSentence is the sentence around line[i:j], within the table cell
// that holds it when the line is a table row.
func cellSentence(line string, i, j int) string {
	start := strings.LastIndexByte(line[:i], '|') + 1
	end := len(line)
	if k := strings.IndexByte(line[j:], '|'); k >= 0 {
		end = j + k
	}
	return sentenceAround(line[start:end], i-start, j-start)
}

// ---- the size of a series against a supposed item ----

// seriesSizeRE states how many items a series has: "9-step pipeline",
// "a 6-phase plan".
var seriesSizeRE = regexp.MustCompile(`(?i)\b(\d{1,3})-(step|phase|stage|milestone|wave)\b`)

// supposedItemRE supposes an item that does not exist: "if there were a
// step 9", "if there was a phase 7".
var supposedItemRE = regexp.MustCompile(`(?i)\bif\s+there\s+(?:were|was|had\s+been)\s+an?\s+(step|phase|stage|milestone|wave)\s+(\d{1,3})\b`)

type seriesStatement struct {
	claim Claim
	word  string // "step"
	n     int
}

// detectSeriesExtent reports, within one section, a series said to have
// N items beside a supposition that its item M ≤ N does not exist.
func detectSeriesExtent(in DetectInput) []Contradiction {
	var out []Contradiction
	for v, d := range in.Documents {
		var sizes, supposed []seriesStatement
		blockLines(d, func(bi int, line string, n int) {
			b := d.Blocks[bi]
			add := func(to *[]seriesStatement, m []int, word string, num string) {
				k, err := strconv.Atoi(num)
				if err != nil {
					return
				}
				quote := cellSentence(line, m[0], m[1])
				*to = append(*to, seriesStatement{n: k, word: strings.ToLower(word),
					claim: Claim{Variant: v, Section: b.Section, Block: bi, Line: n, Text: quote, Quote: quote, Type: Factual}})
			}
			for _, m := range seriesSizeRE.FindAllStringSubmatchIndex(line, -1) {
				add(&sizes, m, line[m[4]:m[5]], line[m[2]:m[3]])
			}
			for _, m := range supposedItemRE.FindAllStringSubmatchIndex(line, -1) {
				add(&supposed, m, line[m[2]:m[3]], line[m[4]:m[5]])
			}
		})
		for _, s := range supposed {
			for _, z := range sizes {
				if z.claim.Section != s.claim.Section || z.word != s.word || s.n > z.n {
					continue
				}
				c := Contradiction{Kind: NumericConflict, Impact: Low,
					Subject: "the number of " + s.word + "s",
					Key:     "series-extent:" + s.word,
					Reason: fmt.Sprintf("a %d-%s series has a %s %d, yet the document supposes there is none",
						z.n, s.word, s.word, s.n),
					Claims: []Claim{z.claim, s.claim}}
				sortClaims(c.Claims)
				out = append(out, c)
				break
			}
		}
	}
	return dedupeByKey(out)
}

// ---- a value and its correction ----

// correctionRE finds a correction: "Actually: line 21 is …, not line 22",
// "actually 120 s, not 60 s". The number after "not" is retracted.
var correctionRE = regexp.MustCompile(`(?i)\bactually\b[:,]?\s+([^.;]*?)\bnot\s+(?:line\s+|at\s+)?(\d+(?:\.\d+)?)\b`)

// detectSelfCorrections reports a line that states a value for a named
// thing ("STALL=22") and then corrects it ("Actually: line 21 is `STALL =
// "stall"`, not line 22"): the correction names the same thing and
// retracts exactly the value stated before it.
func detectSelfCorrections(in DetectInput) []Contradiction {
	var out []Contradiction
	for v, d := range in.Documents {
		blockLines(d, func(bi int, line string, n int) {
			b := d.Blocks[bi]
			for _, m := range correctionRE.FindAllStringSubmatchIndex(line, -1) {
				corr, num := line[m[2]:m[3]], line[m[4]:m[5]]
				before := line[:m[0]]
				// The thing and the value stated before: "STALL=22",
				// "STALL: 22", "STALL at line 22".
				stated := regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*)\s*(?:=|:|\s+at\s+line|\s+on\s+line|\s+is\s+line|\s+is\s+at)\s*` + regexp.QuoteMeta(num) + `\b`)
				var thing string
				var at []int
				for _, sm := range stated.FindAllStringSubmatchIndex(before, -1) {
					name := before[sm[2]:sm[3]]
					if len(name) >= 2 && !strings.EqualFold(name, "line") && regexp.MustCompile(`\b`+regexp.QuoteMeta(name)+`\b`).MatchString(corr) {
						thing, at = name, sm
					}
				}
				if thing == "" {
					continue
				}
				first := cellSentence(line, at[0], at[1])
				second := cellSentence(line, m[0], m[1])
				c := Contradiction{Kind: NumericConflict, Impact: Low,
					Subject: "the value of " + thing,
					Key:     "self-correction:" + thing,
					Reason:  fmt.Sprintf("the line gives %s as %s and then says it is not %s", thing, num, num),
					Claims: []Claim{
						{Variant: v, Section: b.Section, Block: bi, Line: n, Text: first, Quote: first, Type: Factual},
						{Variant: v, Section: b.Section, Block: bi, Line: n, Text: second, Quote: second, Type: Factual},
					}}
				out = append(out, c)
			}
		})
	}
	return dedupeByKey(out)
}
