package diff

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/internal/words"
)

// The field comparison: disagreements and contradictions across the
// variants, and the fields of one topic for the content rows.

// compareFields compares the labelled fields of the variants: the
// disagreements, sorted by their first value's position, and the
// contradictions among them (values on one known scale that differ).
// fc is the analysis's cache of read fields (nil for none).
func compareFields(docs []*Document, topics []topic, fc *fieldCache) ([]FieldDisagreement, []Contradiction) {
	topicOf := fldSectionTopics(docs, topics)
	size := map[string]int{} // fields per class, duplicates included
	for _, d := range docs {
		for _, r := range docFieldRefsWith(d, fc) {
			if r.class != "" {
				size[r.class]++
			}
		}
	}
	byClass := map[string][]fldRef{}
	var classes []string
	for v, d := range docs {
		seen := map[string]int{} // item|class → index in byClass[class], for duplicates within the variant
		for _, r := range docFieldRefs(d) {
			if r.class == "" {
				continue
			}
			f := r.Field
			f.Variant, r.Variant = v, v
			cls := r.class
			if f.Section >= 0 {
				r.topic = topicOf[v][f.Section]
			}
			var dup string // as fmt.Sprintf("%d|%s|%d|%s") and ("%d|%s|%s") write them
			if f.Form == FormTable {
				dup = strconv.Itoa(f.Line) + "|" + cls + "|" + strconv.Itoa(f.Section) + "|" + f.Item
			} else {
				dup = strconv.Itoa(f.Section) + "|" + f.Item + "|" + cls
			}
			classes = addByClass(byClass, classes, seen, dup, r, size[cls])
		}
	}
	for _, cls := range classes {
		uniqueIDs(byClass[cls])
	}
	renumbered := fldRenumberings(byClass)
	clustered := map[string][][]fldRef{}
	for _, cls := range classes {
		clustered[cls] = fldMatchItems(byClass[cls], len(docs), renumbered)
	}
	corroborate(clustered)
	var fds []FieldDisagreement
	var cs []Contradiction
	for _, cls := range classes {
		for _, cluster := range clustered[cls] {
			if fd, c, ok := fldDisagreement(cluster); ok {
				fds = append(fds, fd)
				if c != nil {
					cs = append(cs, *c)
				}
			}
		}
	}
	slices.SortStableFunc(fds, func(a, b FieldDisagreement) int {
		x, y := a.Values[0], b.Values[0]
		if x.Variant != y.Variant {
			return x.Variant - y.Variant
		}
		if x.Line != y.Line {
			return x.Line - y.Line
		}
		return strings.Compare(a.Field, b.Field)
	})
	return fds, cs
}

// fldSectionTopics maps each variant's sections to the topic they fall in:
// their own, else their nearest ancestor's.
func fldSectionTopics(docs []*Document, topics []topic) [][]int {
	out := make([][]int, len(docs))
	for v, d := range docs {
		own := map[int]int{}
		for ti, t := range topics {
			if v < len(t.sections) && t.sections[v] >= 0 {
				own[t.sections[v]] = ti
			}
		}
		out[v] = make([]int, len(d.Sections))
		for si := range d.Sections {
			out[v][si] = -1
			for s := si; s >= 0; s = d.Sections[s].Parent {
				if ti, ok := own[s]; ok {
					out[v][si] = ti
					break
				}
			}
		}
	}
	return out
}

// fldDisagreement reports a cluster whose values differ, and the
// contradiction it makes when values on one known scale conflict.
func fldDisagreement(cluster []fldRef) (FieldDisagreement, *Contradiction, bool) {
	if len(cluster) < 2 {
		return FieldDisagreement{}, nil, false
	}
	slices.SortStableFunc(cluster, func(a, b fldRef) int { return a.Variant - b.Variant })
	differ := false
	for i := range cluster {
		for j := i + 1; j < len(cluster); j++ {
			if same, ok := cluster[i].norm.agree(cluster[j].norm); ok && !same {
				differ = true
			}
		}
	}
	if !differ {
		return FieldDisagreement{}, nil, false
	}
	first := cluster[0]
	fd := FieldDisagreement{Item: fldItemTitle(first.Item), Field: first.Name}
	for _, r := range cluster {
		fv := FieldValue{Variant: r.Variant, Section: r.Section, Line: r.Line, Value: r.Value, Quote: r.Quote}
		if r.norm.kind == fvEnum {
			fv.Class = r.norm.class
		}
		fd.Values = append(fd.Values, fv)
	}
	return fd, fldContradiction(cluster, fd), true
}

// fldItemTitle names an item for people; the document's header is "(header)".
func fldItemTitle(item string) string {
	if strings.TrimSpace(item) == "" {
		return "(header)"
	}
	return clip(fldPlain(item), 80)
}

// fldContradiction builds the contradiction of a disagreement whose
// values on one known scale conflict: verdicts of reviewers, levels,
// decisions, identifier-like settings. A number is a contradiction only
// for an item both variants name by the same id; prose and free labels
// never are.
func fldContradiction(cluster []fldRef, fd FieldDisagreement) *Contradiction {
	var sides []fldRef
	scale := ""
	conflict := false
	for _, r := range cluster {
		if r.weak {
			// matched by a weak title overlap, corroborated only by
			// another field agreeing: "The cache outage" and "The gateway
			// outage" may both be rated High. The items only may be one:
			// a difference, not a contradiction.
			return nil
		}
	}
	loose := false
	for _, r := range cluster {
		loose = loose || r.confirmed
	}
	for _, r := range cluster {
		if r.norm.kind == fvEnum && r.norm.scale != fscaleLabel {
			if scale == "" {
				scale = r.norm.comparableScale()
			}
			if r.norm.comparableScale() == scale {
				sides = append(sides, r)
			}
		}
	}
	for i := range sides {
		for j := i + 1; j < len(sides); j++ {
			if fldIDMatch(sides[i].key, sides[j].key) < 0 {
				return nil // matched by title across renumbered ids: not clearly one item
			}
			if sides[i].norm.conflicting(sides[j].norm) && (!loose || fldLevelsApart(sides[i].norm, sides[j].norm)) {
				conflict = true
			}
		}
	}
	if loose {
		// A confirmed weak match is one item only as far as its levels
		// go: numbers, choices and dependencies need the item's id.
		if !conflict || len(sides) < 2 {
			return nil
		}
	}
	if !conflict {
		sides, conflict = fldNumericSides(cluster)
		scale = "number"
	}
	if !conflict {
		sides, conflict = fldChoiceSides(cluster)
		if conflict {
			scale = fscaleOption
		}
	}
	if !conflict {
		sides, conflict = fldDependencySides(cluster)
		if conflict {
			scale = "dependency"
		}
	}
	if !conflict || len(sides) < 2 {
		return nil
	}
	kind := FieldConflict
	switch scale {
	case fscaleVerdict:
		kind = VerdictConflict
	case fscaleOption:
		kind = ChoiceConflict
	case "dependency":
		kind = DependencyConflict
	}
	c := &Contradiction{Kind: kind, Subject: fd.Item + ": " + fd.Field, Key: "field:" + cluster[0].class + ":" + strings.Join(cluster[0].key.words, " ")}
	var vals []string
	for _, r := range sides {
		c.Claims = append(c.Claims, Claim{Variant: r.Variant, Section: r.Section, Block: -1, Line: r.Line, Text: r.Name + ": " + r.Value,
			Quote: r.Quote, Type: Factual, lower: strings.ToLower(r.Value)})
		if !slices.Contains(vals, r.norm.label) {
			vals = append(vals, r.norm.label)
		}
	}
	// A rating or verdict that differs matters to whoever acts on it, but
	// it is one judgement against another, not an impossible design.
	c.Impact = Medium
	switch scale {
	case fscaleVerdict:
		c.Reason = "reviewers' verdicts differ (" + strings.Join(vals, " vs ") + ")"
	case fscaleLevel:
		c.Reason = "ratings differ (" + strings.Join(vals, " vs ") + ")"
	case fscaleOption:
		c.Reason = "different options chosen (" + strings.Join(vals, " vs ") + ")"
	case "dependency":
		c.Reason = "different prerequisites (" + strings.Join(vals, " vs ") + ")"
	default:
		c.Reason = "values differ (" + strings.Join(vals, " vs ") + ")"
	}
	return c
}

// fldLevelRank orders the levels of fldLevels.
var fldLevelRank = map[string]int{"LOW": 1, "MEDIUM": 2, "HIGH": 3, "CRITICAL": 4}

// fldLevelsApart reports whether two ordinal levels or ranges of levels
// share no level: "Low" and "Medium-High" cannot describe one rating,
// "Low" and "Low-Medium" can.
func fldLevelsApart(a, b fldValue) bool {
	if a.scale != fscaleLevel || b.scale != fscaleLevel {
		return false
	}
	span := func(class string) (int, int, bool) {
		lo, hi, _ := strings.Cut(class, "-")
		if hi == "" {
			hi = lo
		}
		x, ok1 := fldLevelRank[lo]
		y, ok2 := fldLevelRank[hi]
		return min(x, y), max(x, y), ok1 && ok2
	}
	alo, ahi, ok1 := span(a.class)
	blo, bhi, ok2 := span(b.class)
	return ok1 && ok2 && (ahi < blo || bhi < alo)
}

// fldNumericSides returns the numeric values of a cluster when they differ
// and every one names its item by an id the others share, or by the same
// cited place ("executor.py:764-768": reviewers of one citation).
func fldNumericSides(cluster []fldRef) ([]fldRef, bool) {
	var sides []fldRef
	for _, r := range cluster {
		if r.norm.kind == fvNum && (len(r.key.ids) > 0 && len(r.key.words) > 0 || len(r.key.refs) > 0) {
			sides = append(sides, r)
		}
	}
	if len(sides) < 2 {
		return nil, false
	}
	differ := false
	for i := range sides {
		for j := i + 1; j < len(sides); j++ {
			a, b := sides[i].key, sides[j].key
			sameID := fldIDMatch(a, b) > 0 && len(a.ids) > 0 && len(b.ids) > 0 && a.words.Dice(b.words) >= 0.8
			if !sameID && !fldSameCitation(a, b) {
				return nil, false
			}
			if same, ok := sides[i].norm.agree(sides[j].norm); ok && !same {
				differ = true
			}
		}
	}
	return sides, differ
}

// withFieldContradictions adds the contradictions read from labelled
// fields to the detectors' findings, dropping those a detector already
// reported (same signature, scope and variants), in the detectors' order.
func withFieldContradictions(cs, fields []Contradiction) []Contradiction {
	if len(fields) == 0 {
		return cs
	}
	seen := map[string]bool{}
	for _, c := range cs {
		seen[c.Signature()+"|"+string(c.Scope())+"|"+fmt.Sprint(variantList(c))] = true
	}
	out := slices.Clone(cs)
	for _, c := range fields {
		if k := c.Signature() + "|" + string(c.Scope()) + "|" + fmt.Sprint(variantList(c)); !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	SortContradictions(out)
	return out
}

// ---- fields of one topic, for the content comparison ----

// topicField is one field compared within a topic: its values in the
// variants whose sections of the topic give it.
type topicField struct {
	name   string         // as the first variant giving it writes it
	item   string         // the table row's key; empty for the section itself
	byVar  map[int]fldRef // variant → value
	differ bool
}

// label is the field's name for people, with the row it belongs to when
// it comes from a table: "Verdict", "R-002 … / Probability".
func (tf topicField) label() string {
	if tf.item == "" {
		return tf.name
	}
	return clip(tf.item, 40) + " / " + tf.name
}

// nameIn is the field's name as variant v writes it.
func (tf topicField) nameIn(v int) string {
	r, ok := tf.byVar[v]
	if !ok || tf.item != "" {
		return tf.label()
	}
	return r.Name
}

// value is what variant v gives, for a table cell: the label when the
// value has one ("CONFIRMED HIGH"), else the value as written.
func (tf topicField) value(v int) string {
	r, ok := tf.byVar[v]
	if !ok {
		return "—"
	}
	if r.norm.kind == fvEnum && r.norm.label != "" {
		return r.norm.label
	}
	return clip(r.Value, 40)
}

// topicFields compares the labelled fields of a topic's sections (their
// own text, as the content comparison reads it): the fields at least two
// variants give comparable values for, the differing ones first, then in
// the order of the first variant's text.
func topicFields(docs []*Document, t topic) []topicField {
	size := map[string]int{} // fields per class, duplicates included
	for v, si := range t.sections {
		if si >= 0 {
			for _, sf := range sectionFields(docs[v])[si] {
				if sf.class != "" {
					size[sf.class]++
				}
			}
		}
	}
	byClass := map[string][]fldRef{}
	var classes []string
	header := &fldItemKey{header: true} // the key of the topic itself, shared by its fields
	for v, si := range t.sections {
		if si < 0 {
			continue
		}
		seen := map[string]int{}
		for _, sf := range sectionFields(docs[v])[si] {
			f, nv := sf.Field, sf.norm
			f.Variant = v
			cls := sf.class // fldClass(f.Name, nv)
			if cls == "" || nv.kind == fvNone {
				continue
			}
			key := sf.key // newFldItemKey(f.Item)
			if f.Form != FormTable {
				f.Item = "" // the section is the item: the topic itself
				key = header
			}
			r := fldRef{Field: f, norm: nv, class: cls, key: key, topic: 0}
			dup := cls
			if f.Form == FormTable {
				dup = strconv.Itoa(f.Line) + "|" + cls + "|" + f.Item // as fmt.Sprintf("%d|%s|%s") writes it
			}
			classes = addByClass(byClass, classes, seen, dup, r, size[cls])
		}
	}
	clustered := map[string][][]fldRef{}
	for _, cls := range classes {
		uniqueIDs(byClass[cls])
		clustered[cls] = fldMatchItems(byClass[cls], len(docs), nil)
	}
	corroborate(clustered)
	var out []topicField
	for _, cls := range classes {
		for _, cl := range clustered[cls] {
			if len(cl) < 2 {
				continue
			}
			tf := topicField{name: cl[0].Name, item: cl[0].Item, byVar: map[int]fldRef{}}
			comparable := false
			for i, r := range cl {
				tf.byVar[r.Variant] = r
				for _, o := range cl[i+1:] {
					if same, ok := r.norm.agree(o.norm); ok {
						comparable = true
						tf.differ = tf.differ || !same
					}
				}
			}
			if comparable {
				out = append(out, tf)
			}
		}
	}
	first := func(tf topicField) (int, int) {
		for v := range docs {
			if r, ok := tf.byVar[v]; ok {
				return v, r.Line
			}
		}
		return len(docs), 0
	}
	slices.SortStableFunc(out, func(a, b topicField) int {
		if a.differ != b.differ {
			if a.differ {
				return -1
			}
			return 1
		}
		av, al := first(a)
		bv, bl := first(b)
		if av != bv {
			return av - bv
		}
		return al - bl
	})
	return out
}

// fieldLines returns the lines of a variant's section that hold labelled
// fields with a value short enough to compare: a line that only labels a
// value ("**Verdict**: CONFIRMED", "**Confidence:** high") says too little
// to summarise the section. Table rows are not such lines.
func fieldLines(d *Document, v, si int) map[int]bool {
	var lines map[int]bool // nil, and read as empty, for most sections
	for _, f := range sectionFields(d)[si] {
		if f.Form != FormTable {
			if lines == nil {
				lines = map[int]bool{}
			}
			lines[f.Line] = true
		}
	}
	return lines
}

// addByClass files r under its class unless the variant already gave the
// same field (dup says which): a repeated table cell replaces the earlier
// one, since the rightmost column of a row is its own judgement; a
// repeated labelled line is dropped. It returns classes with r's class
// appended the first time it is seen; size preallocates a class's slice.
func addByClass(byClass map[string][]fldRef, classes []string, seen map[string]int, dup string, r fldRef, size int) []string {
	if i, ok := seen[dup]; ok {
		if r.Form == FormTable {
			byClass[r.class][i] = r
		}
		return classes
	}
	if _, ok := byClass[r.class]; !ok {
		classes = append(classes, r.class)
		byClass[r.class] = make([]fldRef, 0, size)
	}
	seen[dup] = len(byClass[r.class])
	byClass[r.class] = append(byClass[r.class], r)
	return classes
}

// decisionFields name a field whose value is a decision the document
// takes: what it chose, not what it observed.
var decisionFields = map[string]bool{"choice": true, "decision": true, "approach": true, "strategy": true,
	"recommendation": true, "chosen": true, "selected": true}

// choiceDissimilar is the largest word overlap two stated decisions may
// share and still be different decisions.
const choiceDissimilar = 0.2

// fldChoiceSides returns the sides of a labelled decision ("**Choice:**
// Auto-tier via the rubric" / "**Choice:** T2-deep always") when two
// variants' values share under a fifth of their words: different choices
// for one question. Items must be matched by their id, as for numbers.
func fldChoiceSides(cluster []fldRef) ([]fldRef, bool) {
	var sides []fldRef
	for _, r := range cluster {
		toks := words.Tokens(r.Name)
		if r.norm.kind != fvText || len(toks) == 0 || !decisionFields[words.Stem(toks[len(toks)-1])] || r.norm.class == "" {
			return nil, false
		}
		sides = append(sides, r)
	}
	for i := range sides {
		for j := i + 1; j < len(sides); j++ {
			if fldIDMatch(sides[i].key, sides[j].key) <= 0 {
				return nil, false
			}
		}
	}
	for i := range sides {
		for j := i + 1; j < len(sides); j++ {
			a := words.Set(sortedSet(strings.Fields(sides[i].norm.class)))
			b := words.Set(sortedSet(strings.Fields(sides[j].norm.class)))
			if a.Dice(b) < choiceDissimilar {
				return sides, len(sides) >= 2
			}
		}
	}
	return nil, false
}

// fldSameCitation reports whether two items cite one place of a source
// file, and no other.
func fldSameCitation(a, b *fldItemKey) bool {
	if len(a.refs) == 0 || len(a.refs) != len(a.allRefs) || len(b.refs) != len(b.allRefs) {
		return false
	}
	for _, r := range a.refs {
		if !slices.Contains(b.refs, r) {
			return false
		}
	}
	return len(a.refs) == len(b.refs)
}

// dependencyField reports whether a field's name says what an item needs
// first: "depends_on", "Dependencies", "Prerequisites", "Blocked by".
func dependencyField(name string) bool {
	for _, t := range words.Tokens(strings.ReplaceAll(strings.ToLower(name), "_", " ")) {
		switch words.Stem(t) {
		case "depend", "depends", "dependency", "dependencies", "prerequisite", "prerequisites", "blocked":
			return true
		}
	}
	return false
}

// fldDependencyIDs reads a dependency value made only of item ids ("[3.1,
// 3.2, 3.3]", "T1, T4", "none"): the ids, and whether the value is such a
// list. Prose ("after the schema lands") is not.
func fldDependencyIDs(v string) ([]string, bool) {
	v = strings.TrimSpace(strings.Trim(strings.TrimSpace(fldPlain(v)), "[]()"))
	if v == "" || strings.EqualFold(v, "none") || v == "-" || v == "—" {
		return nil, true
	}
	var ids []string
	for _, p := range strings.Split(v, ",") {
		p = strings.Trim(strings.TrimSpace(p), "`'\"")
		if !listedID.MatchString(p) {
			return nil, false
		}
		ids = append(ids, strings.ToLower(p))
	}
	return sortedSet(ids), true
}

// fldDependencySides returns the sides of a dependency field whose lists
// of prerequisite ids differ for one item, named by the same id in every
// variant with near-identical titles (as numbers need): "Task 4.1 …
// depends_on: [3.1, 3.2, 3.3]" against "depends_on: [3.1]".
func fldDependencySides(cluster []fldRef) ([]fldRef, bool) {
	var sides []fldRef
	lists := map[int]string{}
	for _, r := range cluster {
		if !dependencyField(r.Name) {
			return nil, false
		}
		ids, ok := fldDependencyIDs(r.Value)
		if !ok || len(r.key.ids) == 0 {
			return nil, false
		}
		lists[len(sides)] = strings.Join(ids, ",")
		sides = append(sides, r)
	}
	differ := false
	for i := range sides {
		for j := i + 1; j < len(sides); j++ {
			a, b := sides[i].key, sides[j].key
			if fldIDMatch(a, b) <= 0 || a.words.Dice(b.words) < 0.6 {
				return nil, false
			}
			differ = differ || lists[i] != lists[j]
		}
	}
	return sides, differ && len(sides) >= 2
}
