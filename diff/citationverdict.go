package diff

import (
	"fmt"
	"regexp"
	"strings"
)

// Reviewers judge a document's code citations in tables ("| … at
// `sprint/executor.py:73-79` | … | **INACCURACY**: the formula is at line
// 78 … |") and in prose ("… (`sprint/executor.py:73-79`) -- the line
// reference is correct …"). A citation one reviewer calls correct and
// another inaccurate is a verdict contradiction. Tables against tables are
// compared as labelled fields; this rule adds the prose judgements, read
// only from the explicit "the line reference is correct/wrong" form on a
// line that cites exactly one place.

// citationJudgement reads "the line reference is correct", "the citation
// is inaccurate".
var citationJudgement = regexp.MustCompile(`(?i)\bthe (?:line )?(?:reference|citation|line number|line range)s? (?:is|are) (?:\*\*)?(correct|accurate|right|wrong|incorrect|inaccurate|off|imprecise)\b`)

type citationVerdict struct {
	claim Claim
	class string // "agree" or "disagree"
	prose bool
}

// detectCitationVerdicts reports, across variants, a prose judgement of a
// citation against another variant's opposite judgement of it.
func detectCitationVerdicts(in DetectInput) []Contradiction {
	by := map[string][]citationVerdict{} // file:range → judgements
	var keys []string
	note := func(k string, cv citationVerdict) {
		if by[k] == nil {
			keys = append(keys, k)
		}
		by[k] = append(by[k], cv)
	}
	for v, d := range in.Documents {
		lines := fldSourceLines(d)
		for bi, b := range d.Blocks {
			if b.Kind == Code || b.Kind == TableRow || b.Header {
				continue
			}
			for n := b.Line; n <= b.EndLine; n++ {
				line := lines(n)
				if !hasColonDigit(line) {
					continue // the judgement counts only beside one cited range
				}
				m := citationJudgement.FindStringSubmatchIndex(line)
				if m == nil {
					continue
				}
				refs := citedRange.FindAllStringSubmatch(line, -1)
				if len(refs) != 1 {
					continue
				}
				class := "disagree"
				switch strings.ToLower(line[m[2]:m[3]]) {
				case "correct", "accurate", "right":
					class = "agree"
				}
				quote := sentenceAround(line, m[0], m[1])
				note(baseName(refs[0][1])+":"+refs[0][2]+"-"+refs[0][3], citationVerdict{class: class, prose: true,
					claim: Claim{Variant: v, Section: b.Section, Block: bi, Line: n, Text: quote, Quote: quote, Type: Factual}})
			}
		}
		for _, r := range docFieldRefs(d) {
			if r.norm.kind != fvEnum || r.norm.scale != fscaleVerdict || len(r.key.allRefs) != 1 {
				continue
			}
			class := r.norm.class
			if class != "agree" && class != "disagree" {
				continue
			}
			ref := r.key.allRefs[0]
			file, rng, _ := strings.Cut(ref, ":")
			note(baseName(file)+":"+rng, citationVerdict{class: class,
				claim: Claim{Variant: v, Section: r.Section, Block: -1, Line: r.Line, Text: r.Name + ": " + r.Value, Quote: strings.TrimSpace(r.Quote), Type: Factual}})
		}
	}
	var out []Contradiction
	for _, k := range keys {
		for _, p := range by[k] {
			if !p.prose {
				continue
			}
			for _, o := range by[k] {
				if o.claim.Variant == p.claim.Variant || o.class == p.class || (o.prose && o.claim.Variant < p.claim.Variant) {
					continue
				}
				c := Contradiction{Kind: VerdictConflict, Impact: Medium, Subject: "whether the citation " + k + " is accurate",
					Key:    "citation-verdict:" + k,
					Reason: fmt.Sprintf("one reviewer judges the citation %s, another %s", judged(p.class), judged(o.class)),
					Claims: []Claim{p.claim, o.claim}}
				sortClaims(c.Claims)
				out = append(out, c)
			}
		}
	}
	return dedupeByKey(out)
}

func judged(class string) string {
	if class == "agree" {
		return "accurate"
	}
	return "inaccurate"
}
