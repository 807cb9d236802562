package adversarial

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

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
				at.Sections = append(at.Sections, merge.TopicSection{Variant: label(v), Section: x.sectionRef(v, si)})
			}
		}
		out = append(out, at)
	}
	return out
}

// planConflicts resolves every labelled-field disagreement and every
// contradiction between variants: each gets one winning variant, by the
// first rule that decides it — the debate's winner of the point, the later
// revision when the variants are successive revisions, a strict majority
// of the variants giving the same value, the base (the variant scoring
// chose).
func (x *run) planConflicts(a *diff.Analysis, d *debate.Result, base int) []merge.ResolvedConflict {
	var out []merge.ResolvedConflict
	used := map[string]bool{} // points a field disagreement already stands for
	for _, f := range a.Fields {
		k := merge.ResolvedConflict{Subject: f.Item + " / " + f.Field}
		var lines []diff.Evidence
		for _, v := range f.Values {
			k.Values = append(k.Values, merge.ConflictValue{Variant: label(v.Variant), Value: v.Value, Text: v.Quote})
			lines = append(lines, diff.Evidence{Variant: v.Variant, Line: v.Line})
		}
		if p, ok := pointAt(a, lines); ok {
			k.Point = p.ID
			used[p.ID] = true
		}
		k.Winner, k.Rule = x.conflictWinner(d, k, base)
		out = append(out, k)
	}
	for _, p := range a.ByCategory(diff.CategoryContradiction) {
		if used[p.ID] || p.Scope == diff.IntraVariant {
			continue
		}
		k := merge.ResolvedConflict{Point: p.ID, Subject: p.Title}
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
		k.Winner, k.Rule = x.conflictWinner(d, k, base)
		out = append(out, k)
	}
	return out
}

// pointAt returns the contradiction point whose evidence includes every
// given line.
func pointAt(a *diff.Analysis, lines []diff.Evidence) (diff.Point, bool) {
	for _, p := range a.ByCategory(diff.CategoryContradiction) {
		all := true
		for _, l := range lines {
			found := false
			for _, e := range p.Evidence {
				found = found || e.Variant == l.Variant && e.Line == l.Line
			}
			all = all && found
		}
		if all {
			return p, true
		}
	}
	return diff.Point{}, false
}

// conflictWinner picks the winning variant of a conflict and says why.
func (x *run) conflictWinner(d *debate.Result, k merge.ResolvedConflict, base int) (string, string) {
	gives := func(l string) bool {
		for _, v := range k.Values {
			if v.Variant == l {
				return true
			}
		}
		return false
	}
	if d != nil && k.Point != "" {
		if dec, ok := d.Decision(k.Point); ok && dec.Resolved() && gives(dec.Winner) {
			return dec.Winner, fmt.Sprintf("debate: %s won %s (round %d, confidence %d%%)", "Variant "+dec.Winner, k.Point, dec.Round, dec.Confidence)
		}
	}
	if r := x.latestRevision(); r >= 0 && gives(label(r)) {
		return label(r), fmt.Sprintf("revision: Variant %s is the later revision (%s), and the debate did not decide otherwise", label(r), x.revisionMark(r))
	}
	counts := map[string][]string{}
	for _, v := range k.Values {
		key := strings.ToLower(strings.Join(strings.Fields(v.Value), " "))
		counts[key] = append(counts[key], v.Variant)
	}
	for _, v := range k.Values {
		key := strings.ToLower(strings.Join(strings.Fields(v.Value), " "))
		if ls := counts[key]; 2*len(ls) > len(k.Values) {
			return ls[0], fmt.Sprintf("majority: Variants %s give the same value", strings.Join(ls, " and "))
		}
	}
	if gives(label(base)) {
		return label(base), "the base: the debate left it open and no value has a majority, so the variant scoring chose keeps its own"
	}
	return k.Values[0].Variant, "the first variant in input order: the debate left it open, no value has a majority and the base gives none"
}

// revisionMarker finds the words by which a document says it revises
// another: "(REVISED)", "Revision 2", "v2", "updated".
var revisionMarker = regexp.MustCompile(`(?i)\b(revised|revision(\s+\d+)?|rev\.?\s*\d+|v\d+(\.\d+)*|updated|supersedes)\b`)

// latestRevision returns the variant that is the later revision of the
// others, or -1: exactly one variant's title or file name carries a
// revision marker, or version numbers ("v2", "v3") order them and one is
// highest.
func (x *run) latestRevision() int {
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
