package diff

import (
	"fmt"
	"regexp"
	"strings"
)

// A document that states a value and corrects it in the same line —
// "STALL=22, TIMEOUT=23. Actually: line 21 is `STALL = "stall"`, not line
// 22." — still says both: the author retracts what the line keeps.

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
			if !hasFold(line, "actually") {
				return
			}
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
