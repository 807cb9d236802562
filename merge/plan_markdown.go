package merge

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/diff"
)

// Validate reports everything that keeps a plan from being executed:
// changes numbered 1…n in order, each with a title, a known approach, a
// non-base source whose text is one Markdown section, and a target (only
// an append may go to the end of the document). The error is an
// [*InputError] matching [ErrInvalidPlan].
func (p Plan) Validate() error { return p.validate(nil) }

// validate is Validate, noting in parsed (when not nil) the document of
// each source text that is one section: the merge then splices it
// without parsing it again.
func (p Plan) validate(parsed map[string]*diff.Document) error {
	var errs []error
	if p.Base.Label == "" {
		errs = append(errs, errors.New("the plan names no base variant"))
	}
	sources := parseSources(p.Changes)
	for i, c := range p.Changes {
		where := fmt.Sprintf("change #%d", c.Number)
		if c.Number != i+1 {
			errs = append(errs, fmt.Errorf("change %d of the plan is numbered %d; number changes 1…n in plan order", i+1, c.Number))
		}
		if strings.TrimSpace(c.Title) == "" {
			errs = append(errs, fmt.Errorf("%s has no title", where))
		}
		if !c.Approach.valid() {
			errs = append(errs, fmt.Errorf("%s: unknown approach %q (want replace, append, insert or restructure)", where, c.Approach))
		}
		if c.Target.IsZero() && c.Approach != Append {
			errs = append(errs, fmt.Errorf("%s: a %s needs a target section", where, c.Approach))
		}
		switch {
		case c.Source.Variant.Label == "":
			errs = append(errs, fmt.Errorf("%s names no source variant", where))
		case c.Source.Variant.Label == p.Base.Label:
			errs = append(errs, fmt.Errorf("%s takes from the base itself", where))
		}
		if d, err := sources[i].doc, sources[i].err; err != nil {
			errs = append(errs, fmt.Errorf("%s: source text %v", where, err))
		} else if parsed != nil {
			parsed[c.Source.Text] = d
		}
		if c.Risk.Level != "" && c.Risk.Level.rank() == 0 {
			errs = append(errs, fmt.Errorf("%s: unknown risk level %q", where, c.Risk.Level))
		}
	}
	switch p.Review.State {
	case AutoApproved, UserApproved, UserModified:
	default:
		errs = append(errs, fmt.Errorf("unknown review state %q", p.Review.State))
	}
	if len(errs) > 0 {
		return &InputError{Kind: ErrInvalidPlan, Errs: errs}
	}
	return nil
}

type parsedSource struct {
	doc *diff.Document
	err error
}

// parseSources parses each change's source text (parseSourceText), a few
// at a time: a plan of a hundred changes holds a hundred documents to
// parse, each on its own, and the merge waits for them before it starts.
// Each result lands at its change's index, so the order of the work does
// not show.
func parseSources(changes []Change) []parsedSource {
	out := make([]parsedSource, len(changes))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, c := range changes {
		g.Go(func() error {
			out[i].doc, out[i].err = parseSourceText(c.Source.Text)
			return nil
		})
	}
	_ = g.Wait() // the errors are the results'
	return out
}

// checkSourceText checks that s is one section: a heading first, and every
// later heading below it.
func checkSourceText(s string) error {
	_, err := parseSourceText(s)
	return err
}

// parseSourceText is checkSourceText returning the parsed document, as
// prepareSource parses it.
func parseSourceText(s string) (*diff.Document, error) {
	d, err := diff.Parse("source", []byte(s))
	if err != nil {
		return nil, err
	}
	if len(d.Sections) == 0 {
		return nil, errors.New("has no heading")
	}
	if d.FrontMatter != nil || strings.TrimSpace(d.Source[:d.Sections[0].Span.Start]) != "" {
		return nil, errors.New("has text before its heading")
	}
	if d.Sections[0].Span.End != len(d.Source) {
		return nil, errors.New("holds more than one section")
	}
	return d, nil
}

// variant returns the reference for label, with its agent spec when the
// plan knows it.
func (p Plan) variant(label string) VariantRef {
	if label == p.Base.Label {
		return p.Base
	}
	for _, v := range p.Variants {
		if v.Label == label {
			return v
		}
	}
	return VariantRef{Label: label}
}

// Summary is the question the interactive checkpoint after the plan asks
// the user: "Refactoring plan: N changes planned, N rejected. Risk: …
// overall. Would you like to modify the plan before execution?"
func (p Plan) Summary() string {
	warning := ""
	if w := p.Warning(); w != "" {
		warning = "\nWarning: " + w + "."
	}
	return fmt.Sprintf("Refactoring plan: %d changes planned, %d rejected.\nRisk: %s overall.%s\nWould you like to modify the plan before execution?",
		len(p.Changes), len(p.Rejected), p.OverallRisk(), warning)
}

// LargePlan is the most changes a person can be expected to review one
// by one. A plan with more (a document of thousands of sections compared
// with a short one brings each of them as a change) is still made and
// executed whole — the merge log accounts for every change — but it says
// so: [Plan.Warning] is set and refactor-plan.md opens its changes with a
// table grouping them by approach, target and source variant, which is
// what such a plan can be reviewed by.
const LargePlan = 100

// Warning says why the plan is too large to review change by change, or
// is empty when it is not (see [LargePlan]).
func (p Plan) Warning() string {
	if len(p.Changes) <= LargePlan {
		return ""
	}
	return fmt.Sprintf("the refactoring plan has %d changes, more than the %d a person can review one by one; "+
		"the plan groups them by approach, target and source variant (%d groups): review the groups, and consider comparing fewer or shorter variants",
		len(p.Changes), LargePlan, len(p.changeGroups()))
}

// changeGroup is the changes of a large plan that do the same thing in
// the same place: one approach, one target, one source variant.
type changeGroup struct {
	approach Approach
	target   SectionRef
	variant  VariantRef
	numbers  []int
	risk     RiskLevel
}

// changeGroups groups the changes, in the order of each group's first
// change.
func (p Plan) changeGroups() []changeGroup {
	type key struct {
		approach Approach
		target   SectionRef
		label    string
	}
	at := map[key]int{}
	var out []changeGroup
	for _, c := range p.Changes {
		k := key{c.Approach, c.Target, c.Source.Variant.Label}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, changeGroup{approach: c.Approach, target: c.Target, variant: c.Source.Variant})
		}
		g := &out[i]
		g.numbers = append(g.numbers, c.Number)
		if c.Risk.Level.rank() > g.risk.rank() {
			g.risk = c.Risk.Level
		}
	}
	return out
}

// maxGroupRows bounds the group table of a large plan: past it, the
// remaining groups are counted, not listed.
const maxGroupRows = 50

// writeGroups writes the group table of a large plan.
func (p Plan) writeGroups(b *strings.Builder) {
	groups := p.changeGroups()
	fmt.Fprintf(b, "\n%d changes in %d groups (see the warning above): each group does one thing in one place. Every change follows in full.\n\n", len(p.Changes), len(groups))
	b.WriteString("| Changes | Count | Approach | Target | From | Risk |\n|---------|-------|----------|--------|------|------|\n")
	for i, g := range groups {
		if i == maxGroupRows {
			rest := 0
			for _, g := range groups[i:] {
				rest += len(g.numbers)
			}
			fmt.Fprintf(b, "| … | %d | %d more groups | | | |\n", rest, len(groups)-i)
			break
		}
		target := "end of the document"
		if !g.target.IsZero() {
			target = g.target.String()
		}
		fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %s |\n", numberRanges(g.numbers), len(g.numbers), g.approach,
			mdCell(target), mdCell(g.variant.String()), g.risk)
	}
}

// numberRanges writes ascending change numbers as ranges: "#1–#37, #40".
func numberRanges(ns []int) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, fmt.Sprintf("#%d", ns[i]))
		} else {
			parts = append(parts, fmt.Sprintf("#%d–#%d", ns[i], ns[j]))
		}
		i = j + 1
	}
	if len(parts) > 6 {
		parts = append(parts[:5], fmt.Sprintf("… (%d ranges)", len(parts)))
	}
	return strings.Join(parts, ", ")
}

// Markdown renders refactor-plan.md as ARTIFACTS.md lays it out.
func (p Plan) Markdown() string {
	var b strings.Builder
	// A change takes about 1 KB of text, a weakness a few hundred bytes,
	// and the rejections what their cells hold (rejectionsSize): room made
	// up front, a plan of thousands of changes is not copied at every
	// doubling of the builder, nor grown again for its rejections.
	b.Grow(4096 + 1024*len(p.Changes) + 256*len(p.Weaknesses) + rejectionsSize(p.Rejected))
	fmt.Fprintf(&b, "# Refactoring Plan: Merge into Base (Variant %s)\n\n## Overview\n\n", mdInline(p.Base.Label))
	fmt.Fprintf(&b, "- **Base:** %s\n", mdInline(p.Base.String()))
	var from []string
	for _, v := range p.Sources() {
		from = append(from, v.String())
	}
	if len(from) == 0 {
		from = []string{"none"}
	}
	fmt.Fprintf(&b, "- **Incorporating strengths from:** %s\n", mdInline(strings.Join(from, ", ")))
	fmt.Fprintf(&b, "- **Planned changes:** %d\n", len(p.Changes))
	fmt.Fprintf(&b, "- **Overall risk:** %s\n", p.OverallRisk())
	if w := p.Warning(); w != "" {
		fmt.Fprintf(&b, "- **Warning:** %s\n", mdInline(strings.ToUpper(w[:1])+w[1:]))
	}

	b.WriteString("\n## Planned Changes\n")
	if len(p.Changes) == 0 {
		b.WriteString("\nNone: the base is merged as it is.\n")
	}
	if len(p.Changes) > LargePlan {
		p.writeGroups(&b)
	}
	// Written piece by piece rather than with fmt: a large run lists
	// thousands of changes, each in full.
	for _, c := range p.Changes {
		b.WriteString("\n### Change ")
		b.WriteString(strconv.Itoa(c.Number))
		b.WriteString(": ")
		writeInline(&b, c.Title)
		b.WriteString(" (from Variant ")
		writeInline(&b, c.Source.Variant.Label)
		b.WriteString(")\n\n- **Source:** ")
		writeInline(&b, c.Source.Variant.String())
		b.WriteString(", ")
		writeInline(&b, c.Source.Section.String())
		target := "end of the document"
		if !c.Target.IsZero() {
			target = c.Target.String()
		}
		b.WriteString("\n- **Target:** ")
		writeInline(&b, target)
		b.WriteString("; approach: ")
		b.WriteString(string(c.Approach))
		b.WriteString("\n- **Rationale:** ")
		writeInline(&b, c.Rationale.String())
		b.WriteString("\n- **Integration point:** ")
		writeInline(&b, c.Integration)
		b.WriteString("\n- **Risk:** ")
		b.WriteString(string(c.Risk.Level))
		b.WriteString(" — ")
		writeInline(&b, c.Risk.Reason)
		b.WriteString("\n")
		if len(c.Removes) > 0 {
			b.WriteString("- **May remove:** ")
			writeInline(&b, strings.Join(c.Removes, "; "))
			b.WriteString("\n")
		}
	}

	b.WriteString("\n## Base Weaknesses\n\n")
	if len(p.Weaknesses) == 0 {
		b.WriteString("None: the base lost no debated point.\n")
	} else {
		b.WriteString("| Diff Point | Issue | Better Variant | Fix Approach |\n|------------|-------|----------------|--------------|\n")
		for _, w := range p.Weaknesses {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdCell(w.Point), mdCell(w.Issue), mdCell(p.variant(w.Better).String()), mdCell(w.Fix))
		}
	}

	b.WriteString("\n## Changes NOT Being Made\n\n")
	if len(p.Rejected) == 0 {
		b.WriteString("None: the base won no debated point and none stayed unresolved.\n")
	} else {
		b.WriteString("| Diff Point | Non-Base Approach | Rationale for Keeping Base |\n|------------|-------------------|----------------------------|\n")
		writeRejections(&b, p.Rejected)
	}

	b.WriteString("\n## Risk Summary\n\n")
	if len(p.Changes) == 0 {
		b.WriteString("No changes, no risk.\n")
	} else {
		b.WriteString("| Change # | Risk | Impact if Failed | Rollback |\n|----------|------|------------------|----------|\n")
		for _, c := range p.Changes {
			writeRow(&b, strconv.Itoa(c.Number), string(c.Risk.Level), c.Impact, c.Rollback)
		}
	}

	b.WriteString("\n## Review Status\n\n")
	fmt.Fprintf(&b, "- **Status:** %s\n", p.Review.State)
	fmt.Fprintf(&b, "- **Approved by:** %s\n", mdInline(p.Review.By))
	fmt.Fprintf(&b, "- **Approval timestamp:** %s\n", p.Review.At.UTC().Format(time.RFC3339))
	if len(p.Review.Overrides) == 0 {
		b.WriteString("- **User overrides:** none\n")
	} else {
		b.WriteString("- **User overrides:**\n")
		for _, o := range p.Review.Overrides {
			fmt.Fprintf(&b, "  - %s\n", mdInline(o))
		}
	}
	return b.String()
}
