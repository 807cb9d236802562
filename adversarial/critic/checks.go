package critic

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
)

// The detectors the offline strategies and the offline judge share. Each
// reads the document and returns the lines it rests on, so every verdict
// can quote them.

var (
	rePlaceholder   = regexp.MustCompile(`(?i)\b(todo|tbd|fixme)\b|\bXXX\b|\?\?\?|lorem ipsum`)
	reAbsolute      = regexp.MustCompile(`(?i)\b(always|never|guarantee[sd]?|impossible|zero[- ]downtime|no risk|cannot fail|in all cases|completely (?:safe|secure))\b|\b100\s?%`)
	reVague         = regexp.MustCompile(`(?i)\b(fast|faster|scalable|robust|simple|easy|seamless(?:ly)?|efficient|high[- ]performance|user[- ]friendly|flexible|blazing)\b`)
	reNumber        = regexp.MustCompile(`\d`)
	reWeasel        = regexp.MustCompile(`(?i)\b(studies show|it is (?:well )?known|industry standard|best practice|experts agree|research shows|widely accepted)\b`)
	reCitation      = regexp.MustCompile(`\]\(|\[\d+\]|https?://|\([A-Z][A-Za-z]+,? \d{4}\)`)
	reDecision      = regexp.MustCompile(`(?i)\b(we will|we chose|we choose|we decided|we recommend|we propose|the team will|decision:|is recommended|recommendation:)`)
	reRationale     = regexp.MustCompile(`(?i)\b(because|so that|since|rationale|therefore|in order to|to avoid|which lets|as a result|due to)\b`)
	reAssumption    = regexp.MustCompile(`(?i)\b(assum(?:e|es|ed|ing|ption|ptions)|given that|we expect)\b`)
	reMitigation    = regexp.MustCompile(`(?i)(mitigat|fallback|contingen|rollback|roll back|workaround|circuit breaker|retry|retries)`)
	reFailure       = regexp.MustCompile(`(?i)\b(fail(?:ure|ures|over|s|ed)?|fallback|retr(?:y|ies)|degrad\w*|timeouts?|circuit breaker|outage)\b`)
	reOwner         = regexp.MustCompile(`(?i)\bowner\b|@\w+|\b\d{4}-\d{2}-\d{2}\b|\bQ[1-4]\b|\bweek \d+|\bsprint \d+|\bby (?:mon|tues|wednes|thurs|fri)day\b`)
	reVerification  = regexp.MustCompile(`(?i)\b(tests?|testing|tested|verif\w*|validat\w*|acceptance|monitor\w*|measur\w*|benchmark\w*)\b`)
	reRollout       = regexp.MustCompile(`(?i)\b(rollout|roll out|rollback|roll back|migration|migrate|deploy\w*|canary|feature flag)\b`)
	reIdentifier    = regexp.MustCompile(`\b[A-Z]{2,6}(?:-\d{1,4})+\b`)
	reRequirementID = regexp.MustCompile(`^(REQ|FR|NFR|US|AC)-`)
	reLink          = regexp.MustCompile(`\]\([^)]+\)|https?://`)
	reHardRule      = regexp.MustCompile(`\b(MUST(?: NOT)?|SHALL(?: NOT)?|REQUIRED|HARD)\b`)

	headOverview   = regexp.MustCompile(`(?i)summary|overview|purpose|context|background|problem|introduction|goal|motivation`)
	headRisks      = regexp.MustCompile(`(?i)risk|limitation|threat|concern`)
	headScope      = regexp.MustCompile(`(?i)scope|non-goals?|goals? and non`)
	headAcceptance = regexp.MustCompile(`(?i)acceptance|success (?:criteria|metrics)|definition of done|exit criteria|verification|testing`)
	headAlternat   = regexp.MustCompile(`(?i)alternative|options? considered|trade-?offs?|rejected`)
	headReferences = regexp.MustCompile(`(?i)reference|sources|bibliography|related|links|traceability`)
	headNextSteps  = regexp.MustCompile(`(?i)next steps|action items|plan|rollout|milestones|timeline|tasks|work items`)
	headDecision   = regexp.MustCompile(`(?i)decision|recommendation|proposal|proposed|approach|solution`)
)

// placeholders: unresolved TODO, TBD, FIXME, ??? markers.
func placeholders(d *document) []int { return d.find(rePlaceholder) }

// emptySections: headings with neither content nor subsections.
func emptySections(d *document) []int {
	var out []int
	for i, h := range d.headings {
		hasSub := i+1 < len(d.headings) && d.headings[i+1].level > h.level && d.headings[i+1].line <= h.end
		if !hasSub && !d.hasContent(&d.headings[i]) {
			out = append(out, h.line)
		}
	}
	return out
}

// duplicateHeadings: the same heading text twice under the same parent.
func duplicateHeadings(d *document) []int {
	var out []int
	seen := map[string]bool{}
	var parents []heading // stack
	for _, h := range d.headings {
		for len(parents) > 0 && parents[len(parents)-1].level >= h.level {
			parents = parents[:len(parents)-1]
		}
		parent := 0
		if len(parents) > 0 {
			parent = parents[len(parents)-1].line
		}
		key := fmt.Sprintf("%d|%d|%s", parent, h.level, strings.ToLower(h.text))
		if seen[key] {
			out = append(out, h.line)
		}
		seen[key] = true
		parents = append(parents, h)
	}
	return out
}

// headingSkips: a heading more than one level deeper than the one before.
func headingSkips(d *document) []int {
	var out []int
	for i := 1; i < len(d.headings); i++ {
		if d.headings[i].level > d.headings[i-1].level+1 {
			out = append(out, d.headings[i].line)
		}
	}
	return out
}

// badTableRows: table rows whose cell count differs from their header's.
func badTableRows(d *document) []int {
	var out []int
	width := 0
	for i, l := range d.lines {
		if !d.prose[i] {
			width = 0
			continue
		}
		cells := tableCells(l)
		switch {
		case cells == nil:
			width = 0
		case width == 0:
			width = len(cells)
		case isDelimiterRow(cells):
		case len(cells) != width:
			out = append(out, i+1)
		}
	}
	return out
}

// quantity is a number with a unit stated about a subject.
type quantity struct {
	line    int
	subject string  // the content words before the number
	dim     string  // time, percent, size, rate, count
	value   float64 // in the dimension's base unit
	text    string  // as written, e.g. "200 ms"
}

var reQuantity = regexp.MustCompile(`(?i)(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(ms|milliseconds?|s|secs?|seconds?|min|minutes?|h|hours?|days?|%|percent|kb|mb|gb|tb|rps|qps|req/s|requests per second)\b`)

var units = map[string]struct {
	dim   string
	scale float64
}{
	"ms": {"time", 0.001}, "millisecond": {"time", 0.001}, "milliseconds": {"time", 0.001},
	"s": {"time", 1}, "sec": {"time", 1}, "secs": {"time", 1}, "second": {"time", 1}, "seconds": {"time", 1},
	"min": {"time", 60}, "minute": {"time", 60}, "minutes": {"time", 60},
	"h": {"time", 3600}, "hour": {"time", 3600}, "hours": {"time", 3600},
	"day": {"time", 86400}, "days": {"time", 86400},
	"%": {"percent", 1}, "percent": {"percent", 1},
	"kb": {"size", 1e3}, "mb": {"size", 1e6}, "gb": {"size", 1e9}, "tb": {"size", 1e12},
	"rps": {"rate", 1}, "qps": {"rate", 1}, "req/s": {"rate", 1}, "requests per second": {"rate", 1},
}

var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "is": true, "are": true, "be": true, "to": true, "at": true,
	"in": true, "on": true, "for": true, "with": true, "and": true, "or": true, "under": true, "below": true,
	"above": true, "most": true, "least": true, "within": true, "than": true, "less": true, "more": true,
	"by": true, "it": true, "its": true, "will": true, "must": true, "shall": true, "should": true, "set": true,
	"up": true, "we": true, "our": true, "has": true, "have": true, "about": true, "approximately": true,
	"around": true, "p": true, "over": true, "was": true, "were": true, "from": true, "not": true, "no": true,
	"every": true, "each": true, "per": true, "after": true, "before": true, "max": true, "maximum": true,
	"minimum": true, "min": true, "target": true, "only": true, "all": true, "can": true, "may": true,
}

var reWord = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_-]*`)

// quantities extracts every number-with-unit from the prose. The subject is
// the last two content words before the number in the same clause, so
// "p99 latency under 200 ms" and "p99 latency of 300 ms" share a subject.
func quantities(d *document) []quantity {
	if d.qsOK {
		return d.qs
	}
	d.qs, d.qsOK = extractQuantities(d), true
	return d.qs
}

func extractQuantities(d *document) []quantity {
	var out []quantity
	d.proseLines(func(n int, text string) {
		for _, m := range reQuantity.FindAllStringSubmatchIndex(text, -1) {
			if m[0] > 0 && isWordByte(text[m[0]-1]) {
				continue // part of an identifier such as REQ-200 or v2
			}
			raw := strings.ReplaceAll(text[m[2]:m[3]], ",", "")
			v, err := strconv.ParseFloat(raw, 64)
			if err != nil {
				continue
			}
			u := units[strings.ToLower(text[m[4]:m[5]])]
			clause := text[:m[0]]
			if k := strings.LastIndexAny(clause, ".;:|(,"); k >= 0 {
				clause = clause[k+1:]
			}
			var words []string
			for _, w := range reWord.FindAllString(clause, -1) {
				w = strings.ToLower(w)
				if !stopwords[w] {
					words = append(words, w)
				}
			}
			if len(words) == 0 {
				continue
			}
			if len(words) > 2 {
				words = words[len(words)-2:]
			}
			out = append(out, quantity{line: n, subject: strings.Join(words, " "), dim: u.dim,
				value: v * u.scale, text: strings.TrimSpace(text[m[0]:m[1]])})
		}
	})
	return out
}

func isWordByte(c byte) bool {
	return c == '-' || c == '_' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// empiricalQuantities are the quantities stated as facts about the world —
// in the summary, background or problem statement, or before any heading —
// rather than as design parameters or targets, which need no source.
func empiricalQuantities(d *document) []quantity {
	var out []quantity
	for _, q := range quantities(d) {
		if h := d.section(q.line); h == nil || h.level == 1 || headOverview.MatchString(h.text) {
			out = append(out, q)
		}
	}
	return out
}

// contradiction is two statements of one quantity with different values.
type contradiction struct {
	a, b quantity
}

// contradictions pairs each quantity with the first earlier statement of the
// same subject and dimension that gives a different value.
func contradictions(d *document) []contradiction {
	qs := quantities(d)
	var out []contradiction
	for j := range qs {
		for i := 0; i < j; i++ {
			if qs[i].subject == qs[j].subject && qs[i].dim == qs[j].dim && qs[i].line != qs[j].line &&
				math.Abs(qs[i].value-qs[j].value) > 1e-9*math.Max(1, math.Abs(qs[i].value)) {
				out = append(out, contradiction{qs[i], qs[j]})
				break
			}
		}
	}
	return out
}

// identifiers returns each identifier (REQ-001, ADR-003) with the lines it
// appears on and whether one of them defines it: a heading, the start of a
// list item or the first cell of a table row.
type identifier struct {
	id      string
	lines   []int
	defined bool
}

// An identifier is defined by a list item that starts with it, or by a line
// that starts with it followed by a colon ("REQ-1: …").
var (
	reDefinition  = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s*)?(?:\*\*|__)?([A-Z]{2,6}(?:-\d{1,4})+)\b`)
	reDefinition2 = regexp.MustCompile(`^\s*(?:\*\*|__)?([A-Z]{2,6}(?:-\d{1,4})+)\b(?:\*\*|__)?:`)
)

// definedID returns the identifier a non-heading, non-table line defines.
func definedID(line string) string {
	if m := reDefinition.FindStringSubmatch(line); m != nil {
		return m[1]
	}
	if m := reDefinition2.FindStringSubmatch(line); m != nil {
		return m[1]
	}
	return ""
}

func identifiers(d *document) []identifier {
	if !d.idsOK {
		d.ids, d.idsOK = extractIdentifiers(d), true
	}
	return d.ids
}

func extractIdentifiers(d *document) []identifier {
	idx := map[string]int{}
	var out []identifier
	for i, l := range d.lines {
		if !d.prose[i] {
			continue
		}
		for _, id := range reIdentifier.FindAllString(l, -1) {
			k, ok := idx[id]
			if !ok {
				k = len(out)
				idx[id] = k
				out = append(out, identifier{id: id})
			}
			if n := len(out[k].lines); n == 0 || out[k].lines[n-1] != i+1 {
				out[k].lines = append(out[k].lines, i+1)
			}
		}
		def := ""
		if d.isHeading(i) {
			if m := reIdentifier.FindString(l); m != "" {
				def = m
			}
		} else if cells := tableCells(l); cells != nil {
			if m := reIdentifier.FindString(cells[0]); m != "" && strings.HasPrefix(strings.Trim(cells[0], "*_ "), m) {
				def = m
			}
		} else {
			def = definedID(l)
		}
		if k, ok := idx[def]; ok {
			out[k].defined = true
		}
	}
	return out
}

// inReferences reports whether id appears in a references section.
func inReferences(d *document, id string) bool {
	for _, h := range d.sectionsMatching(headReferences) {
		if strings.Contains(d.bodyText(h), id) {
			return true
		}
	}
	return false
}

// brokenAnchors: internal links to headings that do not exist. The links
// are goldmark's link nodes with a "#…" destination (refs.Find), so a link
// inside code, or one to another file, is never checked; the document is
// parsed only when some line may hold such a link.
func brokenAnchors(d *document) []int {
	maybe := false
	for _, l := range d.lines {
		if strings.Contains(l, "#") && strings.Contains(l, "]") {
			maybe = true
			break
		}
	}
	if !maybe {
		return nil
	}
	doc, err := diff.Parse("artifact.md", []byte(strings.Join(d.lines, "\n")))
	if err != nil {
		return nil
	}
	x := refs.NewIndex(doc)
	var out []int
	for _, r := range refs.Find(doc) {
		if r.Kind != refs.Anchor || (len(out) > 0 && out[len(out)-1] == r.Line) {
			continue
		}
		if _, ok := x.Resolve(r); !ok {
			out = append(out, r.Line)
		}
	}
	return out
}

// withoutOnLine returns the lines matching re whose line does not also
// match unless.
func withoutOnLine(d *document, re, unless *regexp.Regexp) []int {
	var out []int
	for _, n := range d.find(re) {
		if !unless.MatchString(d.line(n)) {
			out = append(out, n)
		}
	}
	return out
}

// vagueClaims: qualitative adjectives with no number on the line.
func vagueClaims(d *document) []int { return withoutOnLine(d, reVague, reNumber) }

// weaselCitations: appeals to authority with no citation on the line.
func weaselCitations(d *document) []int { return withoutOnLine(d, reWeasel, reCitation) }

// decisionsWithoutRationale splits decision lines into those with a reason
// on the line or the two after it, and those without.
func decisionsWithoutRationale(d *document) (with, without []int) {
	for _, n := range d.find(reDecision) {
		ok := false
		for k := n; k <= n+2 && k <= len(d.lines); k++ {
			if d.isProse(k) && reRationale.MatchString(d.line(k)) {
				ok = true
				break
			}
		}
		if ok {
			with = append(with, n)
		} else {
			without = append(without, n)
		}
	}
	return with, without
}

// riskItems returns the list items and table rows of risk sections, split by
// whether they mention a mitigation.
func riskItems(d *document) (mitigated, bare []int) {
	for _, h := range d.sectionsMatching(headRisks) {
		for _, n := range d.body(h) {
			l := d.line(n)
			cells := tableCells(l)
			isItem := strings.HasPrefix(strings.TrimSpace(l), "- ") || strings.HasPrefix(strings.TrimSpace(l), "* ") || listNumber.MatchString(strings.TrimSpace(l))
			if cells != nil {
				if isDelimiterRow(cells) || n == d.firstTableRow(n) {
					continue // header and delimiter rows
				}
				isItem = true
			}
			if !isItem {
				continue
			}
			if reMitigation.MatchString(l) || (cells != nil && d.tableHasMitigationColumn(n) && lastCellFilled(cells)) {
				mitigated = append(mitigated, n)
			} else {
				bare = append(bare, n)
			}
		}
	}
	return mitigated, bare
}

// firstTableRow returns the first line of the table holding line n.
func (d *document) firstTableRow(n int) int {
	for n > 1 && d.isProse(n-1) && tableCells(d.line(n-1)) != nil {
		n--
	}
	return n
}

func (d *document) tableHasMitigationColumn(n int) bool {
	return reMitigation.MatchString(d.line(d.firstTableRow(n)))
}

func lastCellFilled(cells []string) bool {
	last := strings.TrimSpace(cells[len(cells)-1])
	return last != "" && last != "-" && last != "—" && !rePlaceholder.MatchString(last)
}

// itemText returns list item n with its continuation lines: the following
// indented prose lines up to the next item or blank line.
func (d *document) itemText(n int) string {
	text := d.line(n)
	for k := n + 1; k <= len(d.lines) && d.isProse(k); k++ {
		l := d.line(k)
		t := strings.TrimSpace(l)
		if t == "" || isBlockStart(t) || d.isHeading(k-1) || !strings.HasPrefix(l, " ") {
			break
		}
		text += " " + t
	}
	return text
}

// listItems returns the list items of a section.
func (d *document) listItems(h *heading) []int {
	var out []int
	for _, n := range d.body(h) {
		t := strings.TrimSpace(d.line(n))
		if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ") || listNumber.MatchString(t) {
			out = append(out, n)
		}
		if cells := tableCells(t); cells != nil && !isDelimiterRow(cells) && n != d.firstTableRow(n) {
			out = append(out, n)
		}
	}
	return out
}

// sentences returns the word counts of the sentences in prose paragraphs
// (lists, tables and headings excluded) and the paragraphs' word counts with
// their first lines.
func (d *document) paragraphs() (sentenceWords []int, paras []struct{ line, words int }) {
	var cur []string
	start := 0
	flush := func() {
		if len(cur) == 0 {
			return
		}
		text := strings.Join(cur, " ")
		words := len(strings.Fields(text))
		paras = append(paras, struct{ line, words int }{start, words})
		for _, s := range splitSentences(text) {
			if n := len(strings.Fields(s)); n > 0 {
				sentenceWords = append(sentenceWords, n)
			}
		}
		cur = nil
	}
	for i, l := range d.lines {
		t := strings.TrimSpace(l)
		if !d.prose[i] || t == "" || d.isHeading(i) || isSetextUnderline(d, i) || isBlockStart(t) {
			flush()
			continue
		}
		if len(cur) == 0 {
			start = i + 1
		}
		cur = append(cur, t)
	}
	flush()
	return sentenceWords, paras
}

var reSentenceEnd = regexp.MustCompile(`[.!?]["')\]]?\s+`)

func splitSentences(s string) []string { return reSentenceEnd.Split(s, -1) }

func sortFMEA(rows []FMEARow) {
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].RPN > rows[j].RPN })
}
