package merge

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/diff"
)

// Two optional inputs of the plan let the pipeline pass on what step 1
// and the debate found, as plain data (this package imports neither):
//
//   - the topic alignment: which section of each variant covers the same
//     topic. A non-base section aligned to a base section is never added
//     as a new section — a topic would then appear twice — but replaces
//     (and so extends, see graft) the aligned base section;
//   - the resolved conflicts: for each contradiction or field
//     disagreement, each variant's value and the winner. A change that
//     would import a losing value has its text edited to state the
//     winning one, and every losing value is listed among the changes not
//     being made with its source and the rule that rejected it.

// TopicSection is one variant's section of an aligned topic.
type TopicSection struct {
	Variant string     `json:"variant"` // label
	Section SectionRef `json:"section"`

	// at is the section's index in doc plus one, as TopicSectionAt
	// knows it; zero when unknown.
	at  int
	doc *diff.Document
}

// TopicSectionAt returns the TopicSection of section i of d, the document
// of variant label, named as step 1 names a topic's sections (by outline
// number and title) and located already: the plan need not look the
// section up by its name, which in documents of thousands of sections
// is the bulk of its lookups. Where locating the name would find another
// section — an earlier one of the same title whose explicit heading
// number is i's outline number — the plan takes that one, as it does
// for a TopicSection named alone (see ownRef). An i outside d names
// nothing.
func TopicSectionAt(label string, d *diff.Document, i int) TopicSection {
	if d == nil || i < 0 || i >= len(d.Sections) {
		return TopicSection{Variant: label}
	}
	s := d.Sections[i]
	return TopicSection{Variant: label, Section: SectionRef{Number: s.Number, Title: s.Title}, at: i + 1, doc: d}
}

// AlignedTopic is one topic of the step-1 alignment (diff.Topic): its
// title and the section of each variant that covers it; a variant without
// one is absent.
type AlignedTopic struct {
	Title    string         `json:"title"`
	Sections []TopicSection `json:"sections"`
}

// ConflictValue is one variant's value in a conflict, with the text that
// states it (a quote of the variant, used to find it in a change).
type ConflictValue struct {
	Variant string `json:"variant"` // label
	Value   string `json:"value"`
	Text    string `json:"text,omitempty"`
}

// ResolvedConflict is a contradiction or field disagreement and its
// resolution: the subject (item and field, or what the conflict is
// about), the values and the winning variant with the rule that chose it
// ("debate, Round 2, confidence 80%", "scoring: higher combined score",
// "tie: the base").
type ResolvedConflict struct {
	Point   string          `json:"point,omitempty"` // diff point id, if any
	Subject string          `json:"subject"`
	Values  []ConflictValue `json:"values"`
	Winner  string          `json:"winner"` // label
	Rule    string          `json:"rule"`
	// Exclusive is set when the values are exclusive choices — one
	// architecture, one technology, one option for a question — rather
	// than measurements or verdicts: a variant that states a losing choice
	// in its lead is a rival proposal (see dropRival).
	Exclusive bool `json:"exclusive,omitempty"`
}

// alignedBase returns the base section aligned with section src of
// variant label, if the alignment has one.
func (in PlanInput) alignedBase(label string, src SectionRef) (SectionRef, bool) {
	if len(in.Alignment) == 0 {
		// nothing aligned: alignedIndex would be all -1, built (one slot
		// per section) for every section asked about
		return SectionRef{}, false
	}
	v := in.variant(label)
	if v.Doc == nil {
		return SectionRef{}, false
	}
	si, ok := locate(v.Doc, src)
	if !ok {
		return SectionRef{}, false
	}
	return in.alignedAt(v, si)
}

// alignedBaseOf is alignedBase for section sec of v, by its reference
// (refOf), located once per section (see selfAt).
func (in PlanInput) alignedBaseOf(v Variant, sec int) (SectionRef, bool) {
	if len(in.Alignment) == 0 {
		return SectionRef{}, false
	}
	if w := in.variant(v.Label); w.Doc != v.Doc || in.memo == nil {
		return in.alignedBase(v.Label, refOf(v.Doc, sec))
	}
	si := in.selfAt(v, sec)
	if si < 0 {
		return SectionRef{}, false
	}
	return in.alignedAt(v, si)
}

// alignedAt is alignedBase for section si of v, located.
func (in PlanInput) alignedAt(v Variant, si int) (SectionRef, bool) {
	label := v.Label
	if in.alignIndex != nil {
		if bi := in.alignIndex[label][si]; bi >= 0 {
			return refOf(in.Base.Doc, bi), true
		}
		return SectionRef{}, false
	}
	if bi := in.alignedIndex(v)[si]; bi >= 0 {
		return refOf(in.Base.Doc, bi), true
	}
	return SectionRef{}, false
}

// alignedIndex maps each section of v to the base section the alignment
// puts it with (-1 for none).
func (in PlanInput) alignedIndex(v Variant) []int {
	return in.alignedIndexes([]Variant{v})[v.Label]
}

// alignedIndexes is alignedIndex for each variant of vs with a document,
// by label, in one pass over the alignment: NewPlan builds them once,
// from the alignment's sections located once (see topicSections).
func (in PlanInput) alignedIndexes(vs []Variant) map[string][]int {
	at := in.topicSections()
	baseOf := make([]int, len(in.Alignment))
	for ti, t := range in.Alignment {
		bi := -1
		for k, s := range t.Sections {
			if s.Variant != in.Base.Label {
				continue
			}
			if i := at.index(in, ti, k, in.Base.Doc); i >= 0 && in.Base.Doc.Sections[i].Depth > 0 {
				bi = i
			}
		}
		baseOf[ti] = bi
	}
	out := map[string][]int{}
	for _, v := range vs {
		if v.Doc == nil {
			continue
		}
		idx := make([]int, len(v.Doc.Sections))
		for i := range idx {
			idx[i] = -1
		}
		if v.Label != in.Base.Label {
			for ti, t := range in.Alignment {
				if baseOf[ti] < 0 {
					continue
				}
				for k, s := range t.Sections {
					if s.Variant != v.Label {
						continue
					}
					if i := at.index(in, ti, k, v.Doc); i >= 0 && idx[i] < 0 {
						idx[i] = baseOf[ti]
					}
				}
			}
		}
		out[v.Label] = idx
	}
	return out
}

// topicPositions holds the alignment's sections located: at[t][k] is the
// index of section k of topic t in docs[its variant] (-1 when the label
// names no variant or the document has no such section). NewPlan builds
// it once, since the alignment names every aligned section of every
// variant and alignedIndexes, pruneAligned and topicOf all need them
// located.
type topicPositions struct {
	at   [][]int
	docs map[string]*diff.Document
}

// index returns the index of section k of topic t in d, the document of
// its variant: as located, or located now when d is not the document
// located in (a label used twice).
func (p *topicPositions) index(in PlanInput, t, k int, d *diff.Document) int {
	if p.docs[in.Alignment[t].Sections[k].Variant] == d {
		return p.at[t][k]
	}
	if i, ok := locate(d, in.Alignment[t].Sections[k].Section); ok {
		return i
	}
	return -1
}

// topicSections returns the alignment's sections located, as NewPlan
// located them or, for a PlanInput NewPlan did not build, now.
func (in PlanInput) topicSections() *topicPositions {
	if in.topicAt != nil {
		return in.topicAt
	}
	return in.locateTopics()
}

// locateTopics locates the alignment's sections. Each variant's sections
// are located on their own, a few variants at a time: locating builds
// each document's section index the first time, and the plan waits for
// all of it. Where two variants share a label the later one's document
// is located in (as it would overwrite the earlier's index in
// alignedIndexes), and the base's label names the base.
func (in PlanInput) locateTopics() *topicPositions {
	p := &topicPositions{at: make([][]int, len(in.Alignment)), docs: map[string]*diff.Document{}}
	for ti, t := range in.Alignment {
		row := make([]int, len(t.Sections))
		for k := range row {
			row[k] = -1
		}
		p.at[ti] = row
	}
	var labels []string // in input order, so the work is the same each run
	for _, v := range append([]Variant{in.Base}, in.Variants...) {
		if v.Doc == nil {
			continue
		}
		if _, seen := p.docs[v.Label]; !seen {
			labels = append(labels, v.Label)
		} else if v.Label == in.Base.Label {
			continue // the base's label names the base
		}
		p.docs[v.Label] = v.Doc
	}
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, label := range labels {
		d := p.docs[label]
		g.Go(func() error {
			for ti, t := range in.Alignment {
				for k, s := range t.Sections {
					if s.Variant != label {
						continue
					}
					if s.doc == d && ownRef(d, s.at-1, s.Section) {
						p.at[ti][k] = s.at - 1 // locating s.Section finds it
					} else if i, ok := locate(d, s.Section); ok {
						p.at[ti][k] = i
					}
				}
			}
			return nil
		})
	}
	_ = g.Wait() // locating cannot fail
	return p
}

func (in PlanInput) variant(label string) Variant {
	for _, v := range in.Variants {
		if v.Label == label {
			return v
		}
	}
	return Variant{}
}

// resolveConflicts makes the changes state only the winning values and
// lists every losing value as a change not made.
func resolveConflicts(in PlanInput, changes []Change) ([]Rejection, []Amendment) {
	return resolveConflictsBlocks(in, changes, gramBlock)
}

// resolveConflictsBlocks is resolveConflicts probing the changes of a
// variant in blocks of block changes (see blockGrams): the block size
// changes how much is probed, never the answer.
func resolveConflictsBlocks(in PlanInput, changes []Change, block int) ([]Rejection, []Amendment) {
	var out []Rejection
	var amendments []Amendment
	grams := make([]gramSet, len(changes)) // built when first needed, dropped when the text changes
	var products []uint32                  // a losing value's gram products (gramProducts), reused
	byVariant := map[string][]int{}        // the changes from each variant, in plan order
	blocks := map[string][]gramSet{}       // blockGrams of byVariant's lists, built when first needed
	for i := range changes {
		label := changes[i].Source.Variant.Label
		byVariant[label] = append(byVariant[label], i)
	}
	for _, k := range in.Conflicts {
		var win *ConflictValue
		for i := range k.Values {
			if k.Values[i].Variant == k.Winner {
				win = &k.Values[i]
				break
			}
		}
		if win == nil {
			continue
		}
		// every losing value's rationale opens the same way: built once
		// per conflict (%q is strconv.Quote)
		wins := "Variant " + k.Winner + "'s value " + strconv.Quote(win.Value) + " wins (" + strings.TrimRight(k.Rule, ". ") + ")."
		for _, lose := range k.Values {
			if lose.Variant == k.Winner || strings.EqualFold(lose.Value, win.Value) {
				continue
			}
			var edited, removed []string
			said, by := restatement(k, lose, *win)
			if by == "" && movesRationale(lose, said) {
				by = said.Variant // the winner's row: its rationale comes along
			}
			products = gramProducts(products[:0], lose.Text) // for every change below
			list := byVariant[lose.Variant]
			bs, ok := blocks[lose.Variant]
			if !ok && len(list) > 0 {
				bs = blockGrams(changes, list, block)
				blocks[lose.Variant] = bs
			}
			for b := range bs {
				// A block that cannot hold the value has no change that
				// does: stateWinner finds a value only as it is written
				// (lose.Text, or the value itself), whose runs are all
				// in the block's set if they are in a member's text.
				if !bs[b].mayStateLoserProducts(lose, products) {
					continue
				}
				for _, i := range list[b*block : min((b+1)*block, len(list))] {
					c := &changes[i]
					if grams[i].bits == nil {
						grams[i] = newGramSet(c.Source.Text)
					}
					if !grams[i].mayStateLoserProducts(lose, products) {
						continue
					}
					text, ok := stateWinner(c.Source.Text, lose, said)
					if !ok {
						continue
					}
					c.Source.Text, grams[i] = text, gramSet{}
					bs[b].add(text) // the block still rules out only what no member holds
					if lose.Value == lose.Text && !strings.Contains(text, win.Text) {
						removed = append(removed, "#"+strconv.Itoa(c.Number))
					} else {
						edited = append(edited, "#"+strconv.Itoa(c.Number))
					}
				}
			}
			why := wins
			if len(removed) > 0 {
				why += fmt.Sprintf(" Change %s no longer carries the losing statement (it cannot be restated in its form).", strings.Join(removed, ", "))
			}
			switch {
			case len(edited) > 0 && by == k.Winner:
				why += fmt.Sprintf(" Change %s was edited to state it with its rationale, in the words of Variant %s.", strings.Join(edited, ", "), by)
			case len(edited) > 0 && by != "":
				why += fmt.Sprintf(" Change %s was edited to state it with its rationale, in the words of Variant %s, which gives the same value.", strings.Join(edited, ", "), by)
			case len(edited) > 0:
				why += fmt.Sprintf(" Change %s was edited to state it.", strings.Join(edited, ", "))
			case len(removed) > 0:
			case lose.Variant == in.Base.Label:
				if a, ok := baseAmendments(in, k, lose, *win); ok {
					amendments = append(amendments, a)
					why += fmt.Sprintf(" The base's text is amended to state it (amendment %d).", len(amendments))
				} else {
					why += " The base states the losing value; revise it by hand where no change replaces that text."
				}
			}
			out = append(out, Rejection{Point: pointOrDash(k.Point), Topic: k.Subject,
				NonBase: "Variant " + lose.Variant + ": " + k.Subject + " = " + lose.Value, Rationale: why, Value: true})
		}
	}
	return out, amendments
}

// restatement returns the winning value as it restates the losing one:
// the winner's own when it is stated after the same label as the losing
// value, else that of a variant agreeing with the winner whose statement
// has the losing one's label ("**Verdict**: OVERSTATED. The finding is
// correct, but …" for "**Verdict: CONFIRMED**. Three axes exist …" where
// the winner states its value in a table row). A label and its rationale
// move together: swapping the label alone leaves the losing rationale
// arguing for the value it no longer names.
//
// by names the agreeing variant whose words are used, empty for the
// winner's own.
func restatement(k ResolvedConflict, lose, win ConflictValue) (said ConflictValue, by string) {
	if lose.Text == "" || lose.Value == lose.Text || sameLabel(lose, win) {
		return win, ""
	}
	for _, v := range k.Values {
		if v.Variant == lose.Variant || v.Variant == win.Variant || v.Text == "" || !strings.EqualFold(v.Value, win.Value) {
			continue
		}
		if sameLabelFold(lose, v) {
			return ConflictValue{Variant: win.Variant, Value: win.Value, Text: v.Text}, v.Variant
		}
	}
	return win, ""
}

// sameLabelFold is sameLabel with the values found whatever their case:
// a value the plan rewrote to the winner's wording ("Overstated") stands
// in an agreeing variant's text as it wrote it ("OVERSTATED").
func sameLabelFold(a, b ConflictValue) bool {
	at, bt := strings.ToLower(a.Text), strings.ToLower(b.Text)
	i, j := strings.Index(at, strings.ToLower(a.Value)), strings.Index(bt, strings.ToLower(b.Value))
	if i <= 0 || j <= 0 || strings.Contains(b.Text, "\n") {
		return false
	}
	return sameLabelText(at[:i], bt[:j])
}

// stateWinner rewrites the losing value in text to the winning one: in
// the losing variant's quote when text holds it, else wherever the value
// stands as a whole word. ok is false when text does not state the
// losing value.
func stateWinner(text string, lose, win ConflictValue) (string, bool) {
	if lose.Text != "" && lose.Value == lose.Text {
		return restate(text, lose.Text, win.Text)
	}
	// whether text holds the losing quote, asked once: the tests below
	// all start with it
	quoted := lose.Text != "" && strings.Contains(text, lose.Text)
	if quoted && strings.Contains(lose.Text, lose.Value) {
		if row, ok := restateRow(lose, win); ok {
			return strings.ReplaceAll(text, lose.Text, row), true
		}
	}
	if quoted && win.Text != "" && sameLabelFold(lose, win) {
		// a labelled value and its rationale move together
		return strings.ReplaceAll(text, lose.Text, win.Text), true
	}
	if quoted && strings.Contains(lose.Text, lose.Value) {
		return strings.ReplaceAll(text, lose.Text, strings.ReplaceAll(lose.Text, lose.Value, win.Value)), true
	}
	// Elsewhere in the text only a value that names one thing is
	// replaced — a number with its unit ("0.6", "64 KiB"); a word such as
	// CONFIRMED or MEDIUM also judges other items there.
	if strings.TrimSpace(lose.Value) == "" || !strings.ContainsAny(lose.Value, "0123456789") {
		return text, false
	}
	return replaceWholeWord(text, lose.Value, win.Value)
}

// restate handles a conflict whose values are whole statements (the
// claims of a contradiction): the losing statement becomes the winning
// one where both have the same form — two table rows of as many cells,
// two list items, two sentences of prose — and is removed otherwise, since
// a table row cannot stand in for a sentence. ok is false when text does
// not hold the losing statement.
func restate(text, lose, win string) (string, bool) {
	at := strings.Index(text, lose)
	if at < 0 {
		return text, false
	}
	if win != "" && statementForm(lose) == statementForm(win) {
		return strings.ReplaceAll(text, lose, win), true
	}
	// Remove it: its whole line when it is one, else the statement and
	// the space after it.
	lineStart := strings.LastIndexByte(text[:at], '\n') + 1
	lineEnd := len(text)
	if i := strings.IndexByte(text[at:], '\n'); i >= 0 {
		lineEnd = at + i + 1
	}
	if strings.TrimSpace(text[lineStart:at]) == "" || isListMarker(strings.TrimSpace(text[lineStart:at])) {
		if strings.TrimSpace(text[at+len(lose):lineEnd]) == "" {
			before, after := text[:lineStart], text[lineEnd:]
			if (before == "" || strings.HasSuffix(before, "\n\n")) && strings.HasPrefix(after, "\n") {
				after = after[1:] // the line stood between blank lines: one of them goes with it
			}
			return before + after, true
		}
	}
	end := at + len(lose)
	if end < len(text) && text[end] == ' ' {
		end++
	}
	return text[:at] + text[end:], true
}

// statementForm names the shape of a statement's source text: a table row
// with its cell count, a list item, or prose.
func statementForm(s string) string {
	t := strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(t, "|"):
		return fmt.Sprintf("row/%d", strings.Count(strings.Trim(t, "|"), "|")+1)
	case isListMarker(strings.SplitN(t, " ", 2)[0]):
		return "item"
	}
	return "prose"
}

// isListMarker reports whether s is a list item's marker: "-", "*", "+",
// "1." or "1)".
func isListMarker(s string) bool {
	switch s {
	case "-", "*", "+":
		return true
	}
	n := strings.TrimRight(s, ".)")
	if n == s || n == "" {
		return false
	}
	for _, r := range n {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// replaceWholeWord replaces value where it stands as a whole word in
// text — neither a letter, a digit nor a dot just before it, neither a
// letter nor a digit just after it — with repl. ok is false when it
// stands nowhere so. It is the regexp
//
//	(^|[^\p{L}\p{N}.])VALUE($|[^\p{L}\p{N}])
//
// replacing each match with ${1}repl${2}, written out: the pattern
// begins with a class, so the regexp engine has no literal to search for
// and steps through every byte of text, and most texts do not hold the
// value. As with the pattern, matches do not overlap: the character after
// one match cannot be the one before the next. Invalid UTF-8 decodes to
// U+FFFD, one byte at a time, as it does for the regexp.
// TestReplaceWholeWord and FuzzReplaceWholeWord check it against the
// pattern.
func replaceWholeWord(text, value, repl string) (string, bool) {
	if value == "" {
		return text, false
	}
	var b strings.Builder
	last := 0 // the end of the last match: the next one starts at or after it
	found := false
	for from := 0; ; {
		j := strings.Index(text[from:], value)
		if j < 0 {
			break
		}
		i := from + j
		_, w := utf8.DecodeRuneInString(text[i:])
		from = i + w
		if i > 0 {
			// the rune before is the match's first, so it must not be the
			// last match's final one
			r, w := utf8.DecodeLastRuneInString(text[:i])
			if !wordBoundaryRune(r, true) || i-w < last {
				continue
			}
		}
		end := i + len(value)
		if end < len(text) {
			r, w := utf8.DecodeRuneInString(text[end:])
			if !wordBoundaryRune(r, false) {
				continue
			}
			end += w
		}
		if !found {
			b.Grow(len(text) + len(repl) - len(value))
			found = true
		}
		b.WriteString(text[last:i])
		b.WriteString(repl)
		b.WriteString(text[i+len(value) : end])
		last = end
		from = max(from, end)
	}
	if !found {
		return text, false
	}
	b.WriteString(text[last:])
	return b.String(), true
}

// wordBoundaryRune reports whether r may stand next to a whole word:
// neither a letter nor a digit, nor, before it, a dot.
func wordBoundaryRune(r rune, before bool) bool {
	return !(before && r == '.') && !unicode.IsLetter(r) && !unicode.IsNumber(r)
}
