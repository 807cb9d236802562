package adversarial

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/merge"
)

// The plan's view of step 1: which sections cover the same topic, and
// which value wins each conflict, so that the merge extends a topic in its
// one place and states one value for each conflict.

// planAlignment converts the topics that two or more variants cover.
func (x *run) planAlignment(a *diff.Analysis) []merge.AlignedTopic {
	var out []merge.AlignedTopic
	for _, t := range a.Topics {
		if t.Covered() < 2 {
			continue
		}
		at := merge.AlignedTopic{Title: t.Title}
		for v, si := range t.Sections {
			if si >= 0 && v < len(x.docs) {
				// located already: the plan need not look it up by name
				at.Sections = append(at.Sections, merge.TopicSectionAt(label(v), x.docs[v], si))
			}
		}
		out = append(out, at)
	}
	return out
}

// planConflicts resolves every labelled-field disagreement and every
// contradiction between variants: each gets one winning variant, by the
// first rule that decides it (see conflictWinner).
//
// byValue lists the contradiction points that labelled-field
// disagreements stand for: their resolution is by value.
func (x *run) planConflicts(a *diff.Analysis, d *debate.Result, base int) (conflicts []merge.ResolvedConflict, byValue map[string]bool) {
	var out []merge.ResolvedConflict
	byValue = map[string]bool{}
	// The winner of a field disagreement, by the contradiction point it
	// stands for: the point's other statements follow it.
	decided := map[string]merge.ResolvedConflict{}
	stated := map[string]map[string]string{} // by the same point: each variant's value as it gives it
	pointAt := contradictionAt(a)
	// the analysis's points by category, listed once: the loop below asks
	// for them per field
	contradictions := a.ByCategory(diff.CategoryContradiction)
	content := a.ByCategory(diff.CategoryContent)
	for _, f := range a.Fields {
		k := merge.ResolvedConflict{Subject: f.Item + " / " + f.Field}
		var lines []diff.Evidence
		keys := map[string]string{} // variant → what its value is compared by
		given := map[string]string{}
		for _, v := range f.Values {
			given[label(v.Variant)] = valueOf(v.Value, v.Class)
			k.Values = append(k.Values, merge.ConflictValue{Variant: label(v.Variant), Value: valueOf(v.Value, v.Class), Text: v.Quote})
			lines = append(lines, diff.Evidence{Variant: v.Variant, Line: v.Line})
			keys[label(v.Variant)] = v.Class
			if v.Class == "" {
				keys[label(v.Variant)] = valueKey(v.Value)
			}
		}
		p, stands := pointAt(lines)
		if stands {
			k.Point = p.ID
		}
		k.Winner, k.Rule = x.conflictWinner(d, k, base, keys)
		if !stands && strings.HasPrefix(k.Rule, "the base:") {
			// no contradiction point of its own: the debate's decision on
			// the sections that state the values decides, so that the
			// winning section's choice and its reasons stay together
			if w, rule, ok := sectionWinnerAmong(content, d, f); ok {
				k.Winner, k.Rule = w, rule
				// a contradiction point over some of the same lines
				// (two of the three variants' choices) follows it, or
				// the two resolutions would write one variant's value
				// into another's statement
				for _, q := range contradictions {
					if _, taken := decided[q.ID]; !taken && len(q.Evidence) > 0 && evidenceAmong(q.Evidence, lines) {
						decided[q.ID], stated[q.ID] = k, given
					}
				}
			}
		}
		if stands {
			decided[p.ID], stated[p.ID] = k, given
			byValue[p.ID] = true
		}
		// A value of the winner's class agrees with it however it is
		// worded: the merge leaves it as it is.
		var won string
		for _, v := range k.Values {
			if v.Variant == k.Winner {
				won = v.Value
			}
		}
		for i, v := range k.Values {
			if v.Variant != k.Winner && keys[v.Variant] == keys[k.Winner] {
				k.Values[i].Value = won
			}
		}
		out = append(out, k)
	}
	// A value a later revision changed is a conflict the merge resolves as
	// well (the later revision wins unless the debate decided otherwise);
	// step 1 reports it as a change, not a contradiction.
	points := slices.Clip(contradictions) // appended to: a copy of its own
	for _, p := range content {
		if p.Kind == diff.RevisionChange {
			points = append(points, p)
		}
	}
	for _, p := range points {
		if p.Scope == diff.IntraVariant {
			continue
		}
		k := merge.ResolvedConflict{Point: p.ID, Subject: p.Title,
			Exclusive: p.Kind == string(diff.ExclusiveChoice) || p.Kind == string(diff.ChoiceConflict)}
		seen := map[int]bool{}
		for _, e := range p.Evidence {
			if seen[e.Variant] || e.Variant >= len(x.docs) {
				continue
			}
			seen[e.Variant] = true
			k.Values = append(k.Values, merge.ConflictValue{Variant: label(e.Variant), Value: e.Quote, Text: e.Quote})
		}
		if len(k.Values) < 2 {
			continue
		}
		var given map[string]string // each variant's value of the field decided, if one decided it
		if f, ok := decided[p.ID]; ok && slices.ContainsFunc(k.Values, func(v merge.ConflictValue) bool { return v.Variant == f.Winner }) {
			k.Winner, k.Rule = f.Winner, f.Rule+", as for "+f.Subject
			given = stated[p.ID]
		} else {
			k.Winner, k.Rule = x.conflictWinner(d, k, base, nil)
		}
		// Each losing variant's other statements of the point are values
		// not taken too, so the merge restates them all; they are added
		// after the winner is chosen, which counts variants, not lines.
		// k.Values as slices.Contains would find them: a scan while they
		// are few, a set once they are many (a point of hundreds of lines)
		var have map[merge.ConflictValue]bool
		for _, e := range p.Evidence[1:] {
			if e.Variant >= len(x.docs) || label(e.Variant) == k.Winner {
				continue
			}
			v := merge.ConflictValue{Variant: label(e.Variant), Value: e.Quote, Text: e.Quote}
			if have == nil && len(k.Values) >= manyValues {
				have = make(map[merge.ConflictValue]bool, len(k.Values)+len(p.Evidence))
				for _, w := range k.Values {
					have[w] = true
				}
			}
			switch {
			case have != nil && !have[v]:
				have[v] = true
				k.Values = append(k.Values, v)
			case have == nil && !slices.Contains(k.Values, v):
				k.Values = append(k.Values, v)
			}
		}
		// The statement of a variant that gives the field's winning value
		// in a form of its own ("**Verdict**: OVERSTATED. …" beside the
		// winner's table row "… | Overstated |") agrees with the winner: it
		// is not a value to remove. One that gives another value of the
		// winner's class ("PARTIALLY_CONFIRMED" for "ACCURATE with
		// correction") is still restated, so that the document words the
		// verdict one way.
		if won := given[k.Winner]; won != "" {
			for i, v := range k.Values {
				if v.Variant != k.Winner && strings.EqualFold(given[v.Variant], won) {
					k.Values[i].Value = winnerValue(k)
				}
			}
		}
		out = append(out, k)
	}
	return out, byValue
}

// manyValues is the number of a conflict's values from which
// planConflicts looks them up in a set rather than scanning them.
const manyValues = 16

// sectionWinner returns the winner of the debate's decision on the
// content point that compares the sections stating the field's values
// (each value's section is that variant's section of the point), when the
// debate resolved it for a variant that gives a value. A field with no
// contradiction point of its own — a labelled "Choice:" whose variants
// chose three ways — is otherwise left to the base, and a section the
// debate preferred would be taken with the base's choice written into it
// over its own reasons.
func sectionWinner(a *diff.Analysis, d *debate.Result, f diff.FieldDisagreement) (string, string, bool) {
	if d == nil {
		return "", "", false
	}
	return sectionWinnerAmong(a.ByCategory(diff.CategoryContent), d, f)
}

// sectionWinnerAmong is sectionWinner given the analysis's content points.
func sectionWinnerAmong(content []diff.Point, d *debate.Result, f diff.FieldDisagreement) (string, string, bool) {
	if d == nil {
		return "", "", false
	}
	for _, p := range content {
		n := 0
		for _, v := range f.Values {
			if v.Section < 0 || v.Variant >= len(p.Positions) || p.Positions[v.Variant].Section != v.Section {
				n = 0
				break
			}
			n++
		}
		if n < 2 {
			continue
		}
		dec, ok := d.Decision(p.ID)
		if !ok || !dec.Resolved() {
			return "", "", false
		}
		for _, v := range f.Values {
			if label(v.Variant) == dec.Winner {
				return dec.Winner, fmt.Sprintf("debate: Variant %s won %s on the sections that state it (round %d, confidence %d%%)", dec.Winner, p.ID, dec.Round, dec.Confidence), true
			}
		}
		return "", "", false
	}
	return "", "", false
}

// evidenceAmong reports whether every line of ev is one of lines.
func evidenceAmong(ev, lines []diff.Evidence) bool {
	for _, e := range ev {
		if !slices.ContainsFunc(lines, func(l diff.Evidence) bool { return l.Variant == e.Variant && l.Line == e.Line }) {
			return false
		}
	}
	return true
}

// contradictionAt returns a function giving the first contradiction point
// (in the analysis's order) whose evidence includes every given line. It
// indexes the points by their evidence lines once: a document of
// thousands of fields would otherwise scan every point for each.
func contradictionAt(a *diff.Analysis) func(lines []diff.Evidence) (diff.Point, bool) {
	points := a.ByCategory(diff.CategoryContradiction)
	type line struct{ variant, line int }
	byLine := map[line][]int{} // ascending point indexes
	for i, p := range points {
		for _, e := range p.Evidence {
			l := line{e.Variant, e.Line}
			if ps := byLine[l]; len(ps) == 0 || ps[len(ps)-1] != i {
				byLine[l] = append(ps, i)
			}
		}
	}
	has := func(p diff.Point, l diff.Evidence) bool {
		for _, e := range p.Evidence {
			if e.Variant == l.Variant && e.Line == l.Line {
				return true
			}
		}
		return false
	}
	return func(lines []diff.Evidence) (diff.Point, bool) {
		if len(lines) == 0 {
			if len(points) == 0 {
				return diff.Point{}, false
			}
			return points[0], true // every point includes no line
		}
		for _, i := range byLine[line{lines[0].Variant, lines[0].Line}] {
			all := true
			for _, l := range lines[1:] {
				all = all && has(points[i], l)
			}
			if all {
				return points[i], true
			}
		}
		return diff.Point{}, false
	}
}

// conflictWinner picks the winning variant of a conflict and says why.
// For a labelled judgement (a verdict, a severity: field is set) the
// reviewers' count is the evidence, so a strict majority decides first;
// otherwise the debate's winner of the point does. Then the later
// revision, the majority, the base, the first variant in input order.
func (x *run) conflictWinner(d *debate.Result, k merge.ResolvedConflict, base int, keys map[string]string) (string, string) {
	field := keys != nil
	key := func(v merge.ConflictValue) string {
		if field {
			return keys[v.Variant]
		}
		return valueKey(v.Value)
	}
	gives := func(l string) bool {
		for _, v := range k.Values {
			if v.Variant == l {
				return true
			}
		}
		return false
	}
	majority := func() (string, string, bool) {
		counts := map[string][]string{}
		for _, v := range k.Values {
			counts[key(v)] = append(counts[key(v)], v.Variant)
		}
		for _, v := range k.Values {
			if ls := counts[key(v)]; 2*len(ls) > len(k.Values) {
				w := ls[0]
				if slices.Contains(ls, label(base)) {
					w = label(base) // the majority's value, as the base words it
				}
				return w, fmt.Sprintf("majority: Variants %s give the same value", strings.Join(ls, " and ")), true
			}
		}
		return "", "", false
	}
	if field {
		if w, rule, ok := majority(); ok {
			return w, rule
		}
	}
	if d != nil && k.Point != "" {
		if dec, ok := x.decision(d, k.Point); ok && dec.Resolved() && gives(dec.Winner) {
			return dec.Winner, fmt.Sprintf("debate: %s won %s (round %d, confidence %d%%)", "Variant "+dec.Winner, k.Point, dec.Round, dec.Confidence)
		}
	}
	if r := x.latestRevision(); r >= 0 && gives(label(r)) {
		return label(r), fmt.Sprintf("revision: Variant %s is the later revision (%s), and the debate did not decide otherwise", label(r), x.revisionMark(r))
	}
	if w, rule, ok := majority(); ok {
		return w, rule
	}
	if gives(label(base)) {
		return label(base), "the base: the debate left it open and no value has a majority, so the variant scoring chose keeps its own"
	}
	return k.Values[0].Variant, "the first variant in input order: the debate left it open, no value has a majority and the base gives none"
}

// decision is d.Decision(point) through an index built once per result:
// the plan asks for the decision of every conflict, hundreds in a run of
// ten variants, and Decision scans the decisions.
func (x *run) decision(d *debate.Result, point string) (debate.Decision, bool) {
	if x.decisions.of != d {
		x.decisions.of, x.decisions.by = d, make(map[string]debate.Decision, len(d.Decisions))
		for i := len(d.Decisions) - 1; i >= 0; i-- { // the first of a point's decisions stays, as Decision returns it
			x.decisions.by[d.Decisions[i].Point] = d.Decisions[i]
		}
	}
	dec, ok := x.decisions.by[point]
	return dec, ok
}

// valueOf is the value a field gives, as the merge states it: up to the
// word of its class ("CONFIRMED HIGH" rates HIGH), else the label that
// opens it ("OVERSTATED" of "OVERSTATED. The finding is correct, but …"),
// else the whole value.
func valueOf(v, class string) string {
	fields := strings.Fields(v)
	if class != "" && len(fields) > 1 && !strings.EqualFold(strings.Trim(fields[0], ".,:;()*_"), class) {
		// A label before the word the value is compared by qualifies it:
		// "CONFIRMED HIGH" and "RECLASSIFY to CRITICAL" rate HIGH and
		// CRITICAL. The value runs to that word, so that stating the
		// winner replaces the whole rating, not the label before it.
		for i, f := range fields[1:] {
			if strings.EqualFold(strings.Trim(f, ".,:;()*_"), class) {
				return strings.Trim(strings.Join(fields[:i+2], " "), ".,:;()*_")
			}
		}
	}
	if len(fields) > 1 && isLabel(strings.Trim(fields[0], ".,:;()*_")) {
		return strings.Trim(fields[0], ".,:;()*_")
	}
	return strings.TrimSpace(v)
}

func isLabel(w string) bool {
	return w != "" && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsUpper(r) && r != '_' && r != '-' }) < 0
}

// valueKey is what two values are compared by: a label that opens a
// value ("OVERSTATED. The finding is correct, but …") by itself, so that
// it equals the bare "Overstated"; any other value whole, case and
// spacing aside.
func valueKey(v string) string {
	fields := strings.Fields(v)
	if len(fields) == 0 {
		return ""
	}
	first := strings.Trim(fields[0], ".,:;()*_")
	if isLabel(first) || len(fields) == 1 {
		return strings.ToLower(first)
	}
	return strings.ToLower(strings.Join(fields, " "))
}

// revisionMarker finds the words by which a document says it revises
// another: "(REVISED)", "Revision 2", "v2", "updated".
var revisionMarker = regexp.MustCompile(`(?i)\b(revised|revision(\s+\d+)?|rev\.?\s*\d+|v\d+(\.\d+)*|updated|supersedes)\b`)

// latestRevision returns the variant that is the later revision of the
// others, or -1: exactly one variant's title or file name carries a
// revision marker, or version numbers ("v2", "v3") order them and one is
// highest.
func (x *run) latestRevision() int {
	// The answer depends on the variants alone, and a plan asks it once
	// per conflict it settles: found once per run.
	if x.latest == nil {
		r := x.findLatestRevision()
		x.latest = &r
	}
	return *x.latest
}

func (x *run) findLatestRevision() int {
	best, bestVersion, marked := -1, -1.0, 0
	for i := range x.docs {
		m := x.revisionMark(i)
		if m == "" {
			continue
		}
		marked++
		v := -0.5
		if n := versionNumber.FindStringSubmatch(m); n != nil {
			v, _ = strconv.ParseFloat(n[1], 64)
		}
		switch {
		case v > bestVersion:
			best, bestVersion = i, v
		case v == bestVersion:
			best = -2 // two variants claim the same place: no order
		}
	}
	if best < 0 || marked == len(x.docs) && bestVersion < 0 {
		return -1
	}
	return best
}

var versionNumber = regexp.MustCompile(`(?i)(?:v|rev\.?\s*|revision\s+)(\d+(?:\.\d+)?)`)

// revisionMark returns the revision marker of variant i's title or file
// name, or "".
func (x *run) revisionMark(i int) string {
	d := x.docs[i]
	for _, s := range d.Sections {
		if s.Level == 1 {
			if m := revisionMarker.FindString(s.Title); m != "" {
				return fmt.Sprintf("its title says %q", m)
			}
			break
		}
	}
	if m := revisionMarker.FindString(d.Name); m != "" {
		return fmt.Sprintf("its name says %q", m)
	}
	return ""
}

// winnerValue returns the winner's value of a resolved conflict.
func winnerValue(k merge.ResolvedConflict) string {
	for _, v := range k.Values {
		if v.Variant == k.Winner {
			return v.Value
		}
	}
	return ""
}
