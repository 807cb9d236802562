package scoring

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
)

// RuleJudge is the deterministic, offline [Judge]: every criterion is a
// test on the text that quotes the lines it matched, so each MET verdict
// cites evidence anyone can find in the variant. It needs no model, and the
// same variant always gets the same verdicts.
//
// Its verdicts do not depend on the order it sees the variants in, so its
// two passes always agree; asked to re-evaluate a dispute it applies the
// same test to the variant alone. The tests are heuristics — a reader's
// checklist, not understanding — and each one's doc comment (checks_*.go)
// says exactly what it looks for.
//
// The zero value is ready to use and safe for concurrent use.
type RuleJudge struct{}

var _ Judge = RuleJudge{}

// Evaluate implements [Judge].
func (RuleJudge) Evaluate(ctx context.Context, req RubricRequest) (RubricVerdicts, error) {
	byID := map[string]Criterion{}
	for _, c := range req.Criteria {
		byID[c.ID] = c
	}
	var out RubricVerdicts
	ref := referenceKey(req.Reference)
	for _, v := range req.Variants {
		if v.Doc == nil {
			return out, fmt.Errorf("scoring: Variant %s: %w", v.Label, ErrNoDocument)
		}
		var w *view // built only when a test has not run on this document before
		run := func(check func(*view) result) (result, error) {
			if w == nil {
				// The result goes into the document's memo for later
				// passes and runs, so it must not record this call's
				// cancellation; the loop below checks ctx instead.
				w = newView(context.WithoutCancel(ctx), v, &req)
			}
			r := check(w)
			return r, w.err
		}
		var crits []Criterion
		if len(req.Disputes) == 0 {
			crits = req.Criteria
		} else {
			for _, d := range req.Disputes {
				if d.Variant == v.Label {
					crits = append(crits, byID[d.Criterion])
				}
			}
		}
		for _, c := range crits {
			if err := ctx.Err(); err != nil {
				return out, err
			}
			check := checks[c.ID]
			if check == nil {
				return out, fmt.Errorf("scoring: the rule judge has no test for criterion %q", c.ID)
			}
			// A test's result depends on the variant, the source and the
			// reference alone, so the second pass (and a re-evaluation)
			// reads it from the document's memo instead of running again.
			key := ruleKey{criterion: c.ID, label: v.Label, source: req.Source, reference: ref}
			memo := v.Doc.Memo(key, func() any {
				r, err := run(check)
				r = quotable(r)
				return ruleMemo{r, err, claimFor(c, v.Label, r.met)}
			}).(ruleMemo)
			if memo.err != nil {
				if ctx.Err() != nil {
					return out, ctx.Err()
				}
				return out, memo.err
			}
			r := memo.result
			out.Verdicts = append(out.Verdicts, Verdict{Variant: v.Label, Criterion: c.ID, Met: r.met,
				Claim: memo.claim, Evidence: r.cites, Note: r.note})
		}
	}
	return out, nil
}

// ruleKey identifies a rule test's result in a document's memo.
type ruleKey struct {
	criterion, label string
	source           *diff.Document
	reference        string
}

type ruleMemo struct {
	result result // after quotable
	err    error
	claim  string
}

// quotable turns a met result whose cited lines are too short to quote
// into a result not met: a line like "0" proves nothing and would not
// survive the scorer's evidence check. It is applied once, as the result
// enters the memo, not on every pass that reads it.
func quotable(r result) result {
	if r.met {
		for _, c := range r.cites {
			if !citable(c.Quote) {
				return result{cites: r.cites, note: "The lines that meet the test are too short to quote as evidence: " + r.note}
			}
		}
	}
	return r
}

// referenceKey summarises a reference for ruleKey.
// It is written into one builder sized up front: a reference of thousands
// of items makes a long key, asked for by every Evaluate and quantify.
func referenceKey(r Reference) string {
	n := len(r.From) + len("/topics/aligned")
	for _, it := range r.Items {
		n += 2 + len(it.ID) + len(it.Text)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(r.From)
	if r.ByTopic {
		b.WriteString("/topics")
	}
	if r.Aligned {
		b.WriteString("/aligned")
	}
	for _, it := range r.Items {
		b.WriteByte('|')
		b.WriteString(it.ID)
		b.WriteByte(':')
		b.WriteString(it.Text)
		if len(it.Sections) > 0 {
			b.WriteString(sectionsKey(it.Sections))
		}
	}
	return b.String()
}

// result is what a test finds.
type result struct {
	met   bool
	cites []Citation
	note  string
}

// line is a line of a variant a test can match and quote: a heading, or a
// line of body text outside code blocks.
type line struct {
	text    string // the source line, trimmed: exact text of the variant
	lower   string // text, lower-cased, for the patterns' prefilters
	quote   string // the part of text to quote, when narrower: the sentence that matched
	no      int    // 1-based line number
	section int    // innermost section, -1 before the first heading
	heading bool
	level   int // heading level, 0 for body text
	block   int // index in Document.Blocks, -1 for a heading
}

// view is a variant prepared for the tests.
type view struct {
	ctx   context.Context
	v     Variant
	d     *diff.Document
	req   *RubricRequest
	lines []line
	grams []bigrams // per line, bigramsOf its lower-cased text; see grep
	err   error     // the first error of a lazy computation

	blockLine0 []int       // per block, the index in lines of its first line; -1 for none
	headLine   []int       // per section, the index in lines of its heading
	byNumber   map[int]int // line number → index in lines of its first line

	claims  []diff.Claim
	contras []diff.Contradiction
	done    bool

	risksFound []risk // see risks
	risksDone  bool

	acronyms     []acronymDef // see acronymDefinitions
	acronymsDone bool

	titleLower []string // per section, foldLower of its title; see headingsMatching
}

func newView(ctx context.Context, v Variant, req *RubricRequest) *view {
	w := &view{ctx: ctx, v: v, d: v.Doc, req: req}
	d := v.Doc
	// A table of contents restates headings; its lines are no evidence.
	contents := contentsSections(d)
	// At most a line per heading and per line of the source: one
	// allocation instead of a slice of large lines grown by doubling.
	w.lines = make([]line, 0, len(d.Sections)+strings.Count(d.Source, "\n")+1)
	walkText(d, func(si, bi int) {
		if si >= 0 {
			s := d.Sections[si]
			text, _, _ := strings.Cut(d.Text(s.Heading), "\n")
			text = strings.TrimSpace(text)
			w.lines = append(w.lines, line{text: text, lower: foldLower(text), no: s.Line, section: si, heading: true, level: s.Level, block: -1})
			return
		}
		b := &d.Blocks[bi]
		if b.Kind == diff.Code || (b.Section >= 0 && contents[b.Section]) {
			return
		}
		// The block's lines, as strings.Split would give them, without
		// the slice.
		rest, more := d.Text(b.Span), true
		for i := 0; more; i++ {
			var l string
			l, rest, more = strings.Cut(rest, "\n")
			if l = strings.TrimSpace(l); l != "" {
				w.lines = append(w.lines, line{text: l, lower: foldLower(l), no: b.Line + i, section: b.Section, block: bi})
			}
		}
	})
	w.blockLine0 = make([]int, len(d.Blocks))
	for i := range w.blockLine0 {
		w.blockLine0[i] = -1
	}
	w.headLine = make([]int, len(d.Sections))
	w.byNumber = make(map[int]int, len(w.lines))
	w.grams = make([]bigrams, len(w.lines))
	for i, l := range w.lines {
		w.grams[i] = bigramsOf(l.lower)
		if l.heading {
			w.headLine[l.section] = i
		} else if w.blockLine0[l.block] < 0 {
			w.blockLine0[l.block] = i
		}
		if _, ok := w.byNumber[l.no]; !ok {
			w.byNumber[l.no] = i
		}
	}
	return w
}

// analyse extracts the variant's claims and its contradictions once.
func (w *view) analyse() {
	if w.done {
		return
	}
	w.done = true
	claims, contras, err := ruleConsistency(w.ctx, w.d)
	if err != nil && w.err == nil {
		w.err = err
	}
	w.claims, w.contras = claims, contras
}

// grep returns the first limit lines re matches (all of them when limit
// is 0); headings only when headings is set. Each line's quote is narrowed
// to the sentence that matched. A test that cites or counts only a few
// lines asks for no more than it uses.
func (w *view) grep(re pattern, headings bool, limit int) []line {
	var out []line
	for i, l := range w.lines {
		if limit > 0 && len(out) == limit {
			break
		}
		if !headings && l.heading || !re.mayHold(&w.grams[i]) {
			continue
		}
		if loc := re.find(l.text, l.lower); loc != nil {
			l.quote = sentence(l.text, loc[0])
			out = append(out, l)
		}
	}
	return out
}

// sentence returns the sentence of a line holding byte offset at; table
// rows and headings are quoted whole.
func sentence(text string, at int) string {
	if strings.HasPrefix(text, "|") || strings.HasPrefix(text, "#") {
		return text
	}
	start := 0
	for i := at - 1; i > 0; i-- {
		if text[i] == ' ' && strings.ContainsRune(".!?", rune(text[i-1])) {
			start = i + 1
			break
		}
	}
	end := len(text)
	for i := at; i+1 < len(text); i++ {
		if strings.ContainsRune(".!?", rune(text[i])) && text[i+1] == ' ' {
			end = i + 1
			break
		}
	}
	return strings.TrimSpace(text[start:end])
}

// headingsMatching returns the heading lines whose title matches re; the
// document title does not count.
func (w *view) headingsMatching(re pattern) []line {
	if w.titleLower == nil { // several tests ask, each with its own pattern
		w.titleLower = make([]string, len(w.d.Sections))
		for i, s := range w.d.Sections {
			w.titleLower[i] = foldLower(s.Title)
		}
	}
	var out []line
	for _, l := range w.lines {
		if l.heading && w.d.Sections[l.section].Depth > 0 && re.find(w.d.Sections[l.section].Title, w.titleLower[l.section]) != nil {
			out = append(out, l)
		}
	}
	return out
}

// cite quotes a line, or the sentence of it that matched when that is
// long enough to quote.
func (w *view) cite(l line) Citation {
	q := l.quote
	if q == "" || !citable(q) {
		q = l.text
	}
	return Citation{Quote: q, Section: w.sectionRef(l.section), Line: l.no}
}

// cites quotes up to n lines.
func (w *view) cites(ls []line, n int) []Citation {
	var out []Citation
	for i, l := range ls {
		if i == n {
			break
		}
		out = append(out, w.cite(l))
	}
	return out
}

// citeAt quotes the line holding byte offset off.
func (w *view) citeAt(off int) Citation {
	no := w.d.LineAt(off)
	if i, ok := w.byNumber[no]; ok {
		return w.cite(w.lines[i])
	}
	start := strings.LastIndexByte(w.d.Source[:off], '\n') + 1
	end := strings.IndexByte(w.d.Source[off:], '\n')
	if end < 0 {
		end = len(w.d.Source) - off
	}
	return Citation{Quote: strings.TrimSpace(w.d.Source[start : off+end]), Section: w.sectionRef(w.d.SectionAt(off)), Line: no}
}

// citeClaim quotes a claim.
func (w *view) citeClaim(c diff.Claim) Citation {
	return Citation{Quote: c.Quote, Section: w.sectionRef(c.Section), Line: c.Line}
}

// sectionRef names a section as "2.1 Caching".
func (w *view) sectionRef(i int) string {
	if i < 0 || i >= len(w.d.Sections) {
		return ""
	}
	return sectionName(w.d.Sections[i])
}

// sectionName names a section by its title when the title carries its own
// number ("3. Caching"), else by outline number and title ("2.1 Caching").
func sectionName(s diff.Section) string {
	if _, _, _, ok := refs.HeadingNumber(s.Title); ok || s.Number == "" {
		return s.Title
	}
	return s.Number + " " + s.Title
}

// lineList renders line numbers: "lines 4, 9, 12".
func lineList(ls []line, n int) string {
	var nums []string
	for i, l := range ls {
		if i == n {
			nums = append(nums, "…")
			break
		}
		nums = append(nums, strconv.Itoa(l.no))
	}
	if len(ls) == 1 {
		return "line " + nums[0]
	}
	return "lines " + strings.Join(nums, ", ")
}

// notFound is the CEV evidence for a criterion with nothing to cite.
func (w *view) notFound(what string) result {
	return result{note: fmt.Sprintf("No evidence found — searched sections %s for %s", w.searched(), what)}
}

// searched lists the top-level sections searched: "1–7", or "all text"
// when the variant has none.
func (w *view) searched() string {
	top := w.d.TopLevel()
	if len(top) == 0 {
		return "(none; searched all text)"
	}
	first, last := w.d.Sections[top[0]].Number, w.d.Sections[top[len(top)-1]].Number
	if len(top) == 1 {
		return first
	}
	return first + "–" + last
}

// found is a MET result quoting up to three lines.
func (w *view) found(ls []line, note string) result {
	return result{met: true, cites: w.cites(ls, 3), note: note}
}

// headingLine returns the line of section i's heading.
func (w *view) headingLine(i int) line { return w.lines[w.headLine[i]] }

// blockAt returns the index of the block starting at byte offset start.
func (w *view) blockAt(start int) int {
	return sort.Search(len(w.d.Blocks), func(i int) bool { return w.d.Blocks[i].Span.Start >= start })
}

// blockLine returns the first line of block bi.
func (w *view) blockLine(bi int) line {
	if i := w.blockLine0[bi]; i >= 0 {
		return w.lines[i]
	}
	b := w.d.Blocks[bi]
	return line{text: strings.TrimSpace(w.d.Text(b.Span)), no: b.Line, section: b.Section, block: bi}
}
