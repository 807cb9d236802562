package diff

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Reviews that verify a document's code citations say what a line of a
// source file holds: "Line 243 is blank.", "Line 203 is the end of
// `to_context_summary`.". Two reviewers who say that the same line of the
// same file is blank and that it holds something cannot both be right.
// The rule compares only that distinction, which needs no knowledge of
// the code: any other difference in how two reviewers describe a line is
// a difference of wording, not a contradiction.

// sourceFileRef finds a cited source file and its line or line range:
// "models.py:203-241", "`executor.py:243`".
var sourceFileRef = regexp.MustCompile(`\b([A-Za-z0-9_][A-Za-z0-9_./-]*\.[A-Za-z]{1,5}):(\d+)`)

// lineIsStatement reads "Line N is …" up to the end of its sentence or
// cell; a period inside an identifier ("to_yaml.join") does not end it.
var lineIsStatement = regexp.MustCompile(`(?i)\bline (\d+) is ((?:[^.|;]|\.[^\s|])+)`)

// blankLine says that a line holds nothing.
var blankLine = regexp.MustCompile(`(?i)^(?:an? |the )?(?:blank|empty)\b`)

type lineStatement struct {
	claim Claim
	blank bool
}

// detectLineContent reports, across variants, a line of a cited file that
// one variant says is blank and another says holds something.
func detectLineContent(in DetectInput) []Contradiction {
	by := map[string]map[int][]lineStatement{} // file:line → variant → statements
	for v, d := range in.Documents {
		for bi, b := range d.Blocks {
			if b.Kind == Code || b.Header {
				continue
			}
			file := citedFile(b)
			if file == "" {
				continue
			}
			src := d.Text(b.Span)
			for _, m := range lineIsStatement.FindAllStringSubmatch(b.Text, -1) {
				desc := strings.TrimSpace(m[2])
				if negatedDescription(desc) {
					continue
				}
				quote := strings.TrimSpace(m[0])
				i, j, ok := locate(quote, src)
				if !ok {
					continue
				}
				key := file + ":" + m[1]
				if by[key] == nil {
					by[key] = map[int][]lineStatement{}
				}
				by[key][v] = append(by[key][v], lineStatement{
					claim: Claim{Variant: v, Section: b.Section, Block: bi, Line: d.LineAt(b.Span.Start + i),
						Text: quote, Quote: src[i:j], Type: Factual},
					blank: blankLine.MatchString(desc),
				})
			}
		}
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []Contradiction
	for _, k := range keys {
		// Every statement each side makes about the line is cited, so a
		// reader sees all the places to correct.
		var blank, filled []Claim
		for _, v := range sortedKeys(by[k]) {
			for _, s := range by[k][v] {
				if s.blank {
					blank = append(blank, s.claim)
				} else {
					filled = append(filled, s.claim)
				}
			}
		}
		if !acrossVariants(blank, filled) {
			continue
		}
		file, line, _ := strings.Cut(k, ":")
		c := Contradiction{Kind: NumericConflict, Subject: fmt.Sprintf("what line %s of %s holds", line, file),
			Impact: Low, Key: "line-content:" + k,
			Reason: fmt.Sprintf("one variant says the line is blank, another says what it holds (%q vs %q)", blank[0].Text, filled[0].Text),
			Claims: append(append([]Claim{}, blank...), filled...)}
		sortClaims(c.Claims)
		out = append(out, c)
	}
	return out
}

// acrossVariants reports whether some claim of a and some claim of b come
// from different variants.
func acrossVariants(a, b []Claim) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Variant != y.Variant {
				return true
			}
		}
	}
	return false
}

// citedFile is the source file a block is about: the first file cited in
// a table row's first cell, else in the block.
func citedFile(b Block) string {
	text := b.Text
	if b.Kind == TableRow && len(b.Cells) > 0 {
		text = b.Cells[0]
	}
	if !hasColonDigit(text) {
		return ""
	}
	if m := sourceFileRef.FindStringSubmatch(text); m != nil {
		return m[1][strings.LastIndexByte(m[1], '/')+1:]
	}
	return ""
}

func negatedDescription(desc string) bool {
	lower := strings.ToLower(desc)
	return strings.HasPrefix(lower, "not ") || strings.HasPrefix(lower, "no ") || strings.HasPrefix(lower, "n't")
}
