package diff

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Reviewers who check where a document says code lives write their
// corrections in prose: "The `stall_status` property is at
// `models.py:449-463` (not 452-463 as claimed …)". That sentence places
// the named code at one range and denies the other. Another reviewer who
// confirms the denied place for the same code ("`sprint/models.py:452-463`:
// `MonitorState.stall_status` property … -- CONFIRMED"), or corrects it to
// a third place, contradicts it. The rule reads only those two explicit
// forms — a correction with its "(not …)" and a confirmation marked by a
// reviewer's word on the same line — and names the code by the identifier
// both write, so a place cited in passing, a quoted claim or a proposal
// that copies the old citation is never read as confirming it.

// locationCorrection reads "`name` … at `file.py:449-463` (not 452-463":
// the name, the file, the corrected range and the denied one.
var locationCorrection = regexp.MustCompile("`([A-Za-z_][\\w.]*)`[^.;`]{0,60}?\\bat\\s+`?([\\w./-]+\\.[A-Za-z]{1,5}):(\\d+)\\s*[-–]\\s*(\\d+)`?\\s*\\(not\\s+(?:lines?\\s+)?(\\d+)\\s*[-–]\\s*(\\d+)")

// citedRange finds "file.py:452-463" on a line.
var citedRange = regexp.MustCompile(`([\w./-]+\.[A-Za-z]{1,5}):(\d+)\s*[-–]\s*(\d+)\b`)

// confirmedMark is a reviewer's word that the citation on its line holds.
var confirmedMark = regexp.MustCompile(`\b(?:CONFIRMED|VERIFIED|CORRECT|ACCURATE)\b`)

// codeName finds the identifiers written as code on a line.
var codeName = regexp.MustCompile("`([^`\n]+)`")

type locationStatement struct {
	claim  Claim
	file   string // base name
	name   string // the code named
	at     string // the range the statement places it at
	denied string // for a correction, the range it denies
}

// detectLocationCorrections reports, across variants, one variant's
// correction of where named code lives against another's confirmation of
// the denied place, or its correction to a different place.
func detectLocationCorrections(in DetectInput) []Contradiction {
	var corrections, confirmations []locationStatement
	for v, d := range in.Documents {
		for bi, b := range d.Blocks {
			if b.Kind == Code || b.Header {
				continue
			}
			src := d.Text(b.Span)
			if !hasColonDigit(src) {
				continue // no line of it can cite "file.py:N"; spares splitting it
			}
			for _, line := range strings.Split(src, "\n") {
				if !hasColonDigit(line) {
					continue // both forms cite "file.py:N-M"
				}
				off := strings.Index(src, line)
				lineNo := d.LineAt(b.Span.Start + off)
				claim := func(quote string) Claim {
					return Claim{Variant: v, Section: b.Section, Block: bi, Line: lineNo, Text: quote, Quote: quote, Type: Factual}
				}
				found := false
				for _, ix := range locationCorrection.FindAllStringSubmatchIndex(line, -1) {
					found = true
					m := func(g int) string { return line[ix[2*g]:ix[2*g+1]] }
					corrections = append(corrections, locationStatement{claim: claim(sentenceAround(line, ix[0], ix[1])),
						file: baseName(m(2)), name: lastName(m(1)), at: m(3) + "-" + m(4), denied: m(5) + "-" + m(6)})
				}
				if found || !confirmedMark.MatchString(line) || strings.Contains(strings.ToLower(line), "not ") {
					continue
				}
				refs := citedRange.FindAllStringSubmatch(line, -1)
				if len(refs) != 1 {
					continue // a line citing several places confirms none of them in particular
				}
				for _, n := range codeName.FindAllStringSubmatch(line, -1) {
					if citedRange.MatchString(n[1]) {
						continue
					}
					confirmations = append(confirmations, locationStatement{claim: claim(strings.TrimSpace(line)),
						file: baseName(refs[0][1]), name: lastName(n[1]), at: refs[0][2] + "-" + refs[0][3]})
				}
			}
		}
	}
	type key struct{ file, name string }
	var keys []key
	byKey := map[key][]locationStatement{}
	for _, s := range append(corrections, confirmations...) {
		k := key{s.file, s.name}
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], s)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].file != keys[j].file {
			return keys[i].file < keys[j].file
		}
		return keys[i].name < keys[j].name
	})
	var out []Contradiction
	for _, k := range keys {
		ss := byKey[k]
		for _, c := range ss {
			if c.denied == "" {
				continue
			}
			for _, o := range ss {
				if o.claim.Variant == c.claim.Variant || o.at == c.at {
					continue
				}
				// another reviewer confirms the denied place, or corrects
				// the same denied place to another
				if (o.denied == "" && o.at == c.denied) || (o.denied == c.denied && o.claim.Variant > c.claim.Variant) {
					con := Contradiction{Kind: NumericConflict, Impact: Low,
						Subject: fmt.Sprintf("where `%s` is in %s", k.name, k.file),
						Key:     "location:" + k.file + ":" + k.name,
						Reason:  fmt.Sprintf("one variant places it at lines %s and not %s, another at %s", c.at, c.denied, o.at),
						Claims:  []Claim{c.claim, o.claim}}
					sortClaims(con.Claims)
					out = append(out, con)
				}
			}
		}
	}
	return dedupeByKey(out)
}

// dedupeByKey keeps the first contradiction of each key and variant pair.
func dedupeByKey(cs []Contradiction) []Contradiction {
	seen := map[string]bool{}
	var out []Contradiction
	for _, c := range cs {
		k := c.Key + fmt.Sprint(variantList(c))
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}

// baseName is a path's last element.
func baseName(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// lastName is the last part of a dotted name, without a call's
// parentheses: "MonitorState.stall_status" → "stall_status".
func lastName(n string) string {
	n = strings.TrimSuffix(strings.TrimSpace(n), "()")
	if i := strings.LastIndexByte(n, '.'); i >= 0 && i < len(n)-1 {
		n = n[i+1:]
	}
	return n
}

// sentenceAround widens line[i:j] to the sentence holding it: from the
// end of the sentence before (". ") to the end of its own, a closing
// parenthesis included.
func sentenceAround(line string, i, j int) string {
	start := strings.LastIndex(line[:i], ". ")
	if start < 0 {
		start = 0
	} else {
		start += 2
	}
	end := len(line)
	depth := strings.Count(line[start:j], "(") - strings.Count(line[start:j], ")")
	for k := j; k < len(line); k++ {
		switch line[k] {
		case '(':
			depth++
		case ')':
			depth--
		case '.':
			if depth <= 0 && (k+1 == len(line) || line[k+1] == ' ') {
				end = k + 1
			}
		}
		if end < len(line) {
			break
		}
	}
	return strings.TrimSpace(line[start:end])
}
