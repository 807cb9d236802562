package merge

import (
	"fmt"
	"strings"
)

// describe words a change's integration point, its impact if it fails and
// its rollback. base names the base variant in rollbacks; zero leaves it
// as "the base".
func describe(c Change, level int, src, base VariantRef) (integration, impact, rollback string) {
	baseName := "the base"
	if base.Label != "" {
		baseName = base.String()
	}
	t := c.Target.String()
	name := fmt.Sprintf("%q", c.Title)
	switch c.Approach {
	case Replace:
		integration = fmt.Sprintf("The text under the heading of %s is replaced by %s's %s; the base heading stays.", t, src.String(), c.Source.Section)
		if c.Heading != "" {
			integration = fmt.Sprintf("The text under the heading of %s is replaced by %s's %s, and the heading becomes %q: the base's title describes the text replaced.", t, src.String(), c.Source.Section, c.Heading)
		}
		if subs := describeSubsections(c.Subsections); subs != "" {
			integration += " Subsections " + subs
		}
		return integration,
			fmt.Sprintf("%s keeps the base text; the strength is not incorporated.", t),
			fmt.Sprintf("Restore %s from %s.", t, baseName)
	case Restructure:
		return fmt.Sprintf("%s is reorganised after the structure of %s's %s; base content and subsections are kept.", t, src.String(), c.Source.Section),
			fmt.Sprintf("%s keeps the base structure.", t),
			fmt.Sprintf("Restore %s from %s.", t, baseName)
	case Insert:
		return fmt.Sprintf("New subsection %s at the end of %s, as H%d.", name, t, min(level+1, 6)),
			fmt.Sprintf("%s lacks %s; no base text is affected.", t, name),
			fmt.Sprintf("Delete the section tagged \"merged per Change #%d\".", c.Number)
	}
	if c.Target.IsZero() {
		return fmt.Sprintf("New section %s at the end of the document.", name),
			fmt.Sprintf("The merged document lacks %s; no base text is affected.", name),
			fmt.Sprintf("Delete the section tagged \"merged per Change #%d\".", c.Number)
	}
	return fmt.Sprintf("New section %s after %s, as H%d.", name, t, level),
		fmt.Sprintf("The merged document lacks %s; no base text is affected.", name),
		fmt.Sprintf("Delete the section tagged \"merged per Change #%d\".", c.Number)
}

func rejection(in PlanInput, d Decision) Rejection {
	var alts []string
	for _, pos := range d.Positions {
		if pos.Variant != in.Base.Label && pos.Summary != "" {
			alts = append(alts, "Variant "+pos.Variant+": "+pos.Summary)
		}
	}
	r := Rejection{Point: d.Point, Topic: d.Topic, NonBase: strings.Join(alts, "; ")}
	if r.NonBase == "" {
		r.NonBase = d.Topic
	}
	if d.Winner == "" {
		r.Rationale = fmt.Sprintf("Unresolved in the debate (confidence %d%%); the base approach stays by default.", d.Confidence)
		return r
	}
	r.Rationale = strings.TrimRight(d.Evidence, ". ")
	if r.Rationale != "" {
		r.Rationale += " "
	}
	where := ""
	if d.Round > 0 {
		where = fmt.Sprintf("Round %d, ", d.Round)
	}
	r.Rationale += fmt.Sprintf("(%sconfidence %d%%).", where, d.Confidence)
	return r
}

// fixIndex finds, by diff point, the first change made for it and the
// first change dropped for it.
type fixIndex struct {
	changes []Change
	dropped []Rejection
	change  map[string]int
	drop    map[string]int
}

func newFixIndex(changes []Change, dropped []Rejection) fixIndex {
	x := fixIndex{changes: changes, dropped: dropped, change: map[string]int{}, drop: map[string]int{}}
	for i, c := range changes {
		if _, ok := x.change[c.Rationale.Point]; !ok {
			x.change[c.Rationale.Point] = i
		}
	}
	for i, r := range dropped {
		if _, ok := x.drop[r.Point]; !ok {
			x.drop[r.Point] = i
		}
	}
	return x
}

func weakness(in PlanInput, d Decision, fixes fixIndex) Weakness {
	w := Weakness{Issue: d.Topic, Point: d.Point, Better: d.Winner}
	if w.Issue == "" {
		w.Issue = d.Evidence
	}
	if !d.BaseSection.IsZero() {
		w.Issue = strings.TrimRight(w.Issue, ". ") + " (base " + d.BaseSection.String() + ")"
	}
	if i, ok := fixes.change[d.Point]; ok {
		c := fixes.changes[i]
		w.Change = c.Number
		w.Fix = fixText(c)
		return w
	}
	if i, ok := fixes.drop[d.Point]; ok {
		// the rationales of dropped changes mostly say so themselves
		// ("Not taken: …", "Not added: …")
		w.Fix = fixes.dropped[i].Rationale
		if !strings.HasPrefix(w.Fix, "Not ") {
			w.Fix = "Not merged: " + w.Fix
		}
		return w
	}
	w.Fix = fmt.Sprintf("Not merged automatically: Variant %s's position has no section to take; revise the base by hand.", d.Winner)
	return w
}

// fixText says how change c fixes a weakness.
func fixText(c Change) string {
	src := fmt.Sprintf("Variant %s's %s", c.Source.Variant.Label, c.Source.Section)
	switch c.Approach {
	case Replace:
		return fmt.Sprintf("Change #%d replaces the body of %s with %s.", c.Number, c.Target, src)
	case Restructure:
		return fmt.Sprintf("Change #%d reorganises %s after %s.", c.Number, c.Target, src)
	case Insert:
		return fmt.Sprintf("Change #%d adds %s under %s.", c.Number, src, c.Target)
	}
	if c.Target.IsZero() {
		return fmt.Sprintf("Change #%d adds %s at the end of the document.", c.Number, src)
	}
	return fmt.Sprintf("Change #%d adds %s after %s.", c.Number, src, c.Target)
}
