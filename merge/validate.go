package merge

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
)

// Contradiction is one contradiction a [ContradictionScanner] found.
type Contradiction struct {
	// Signature identifies the contradiction across documents: the same
	// conflict found in a variant and in the merged document has the same
	// signature, whatever the documents are called.
	Signature   string `json:"signature"`
	Description string `json:"description"`
}

// ContradictionScanner finds contradictions within and across documents
// (the step-1 contradiction detection). The merge's re-scan runs it once
// over the base and once over the merged document, and reports the merged
// document's findings whose signatures the base did not have.
type ContradictionScanner interface {
	Scan(ctx context.Context, docs []*diff.Document) ([]Contradiction, error)
}

// ScannerFunc adapts a function to [ContradictionScanner].
type ScannerFunc func(ctx context.Context, docs []*diff.Document) ([]Contradiction, error)

// Scan calls f(ctx, docs).
func (f ScannerFunc) Scan(ctx context.Context, docs []*diff.Document) ([]Contradiction, error) {
	return f(ctx, docs)
}

// Validation is the post-merge validation: structural integrity, internal
// references and the contradiction re-scan. Structure and references fail
// only on problems the merge introduced; problems the base already had are
// listed and marked.
type Validation struct {
	// NotRun says why validation did not run (the merge failed); empty
	// when it ran.
	NotRun     string              `json:"not_run,omitempty"`
	Structure  StructureCheck      `json:"structure"`
	References ReferenceCheck      `json:"references"`
	Rescan     ContradictionRescan `json:"rescan"`
	// Identifiers are names imported text uses that the merged document
	// never defines (reported; they do not fail validation).
	Identifiers []MissingIdentifier `json:"identifiers,omitempty"`
}

// Passed reports whether validation ran and no check failed. A re-scan
// that did not run for want of a scanner does not fail validation.
func (v Validation) Passed() bool {
	return v.NotRun == "" && v.Structure.Passed && v.References.Passed &&
		(v.Rescan.State == RescanPassed || v.Rescan.State == RescanNotRun)
}

// Problem is one structural problem of the merged document.
type Problem struct {
	Rule    string `json:"rule"` // "start", "level-gap", "orphan", "order"
	Line    int    `json:"line"`
	Heading string `json:"heading"`
	Detail  string `json:"detail"`
	InBase  bool   `json:"in_base,omitempty"` // the base has it too
}

// The structural rules of the post-merge validation.
const (
	RuleStart    = "start"     // the document starts with H1 or H2
	RuleLevelGap = "level-gap" // no heading level gaps (H2 → H4 without H3)
	RuleOrphan   = "orphan"    // no subsection without a parent section
	RuleOrder    = "order"     // explicit section numbers ascend and nest
	// RuleDuplicate (topics.go): no topic twice among siblings
)

// StructureCheck is the structural-integrity check.
type StructureCheck struct {
	Passed   bool      `json:"passed"`
	Problems []Problem `json:"problems,omitempty"`
}

// BrokenRef is an internal reference of the merged document that does not
// resolve.
type BrokenRef struct {
	Kind   refs.Kind `json:"kind"`
	Text   string    `json:"text"`
	Target string    `json:"target"`
	Line   int       `json:"line"`
	InBase bool      `json:"in_base,omitempty"` // broken in the base too, in base text
	// InSource is set for a reference in incorporated text that was
	// broken in the variant the text came from, or that the base has
	// broken the same way (most often it names a section of the document
	// the variants discuss): the merge did not break it.
	InSource bool `json:"in_source,omitempty"`
	// Reason says why a reference that resolves is still broken: it was
	// written against a variant's numbering and names a section the merge
	// did not bring.
	Reason string `json:"reason,omitempty"`
}

// ReferenceCheck counts the merged document's internal references.
type ReferenceCheck struct {
	Passed   bool        `json:"passed"`
	Total    int         `json:"total"`
	Resolved int         `json:"resolved"`
	Broken   []BrokenRef `json:"broken,omitempty"`
	// Rewritten lists the references the merge rewrote to the merged
	// numbering, as "Section 3.2 → Section 4.2 (line 14)".
	Rewritten []string `json:"rewritten,omitempty"`
}

// RescanState is the outcome of the contradiction re-scan.
type RescanState string

// The re-scan outcomes.
const (
	RescanPassed RescanState = "passed"  // no new contradictions
	RescanFailed RescanState = "failed"  // new contradictions introduced
	RescanNotRun RescanState = "not-run" // no scanner configured
	RescanError  RescanState = "error"   // the scanner failed
)

// ContradictionRescan is the contradiction re-scan.
type ContradictionRescan struct {
	State RescanState     `json:"state"`
	New   []Contradiction `json:"new,omitempty"`
	// Baseline counts the distinct contradictions found in the base.
	Baseline int `json:"baseline"`
	// Unresolved are the base's own contradictions that the merged
	// document still holds: both statements are the base's, no variant's
	// value was chosen over them, and the merge does not pick one of two
	// statements of the base on its own. They do not fail validation (the
	// merge did not introduce them); merge-log.md lists them so that a
	// reader resolves them.
	Unresolved []Contradiction `json:"unresolved,omitempty"`
	Err        string          `json:"error,omitempty"`
}

// validate checks the merged document; nodes are its sections as the
// merge made them (so a finding can be traced to base or incorporated
// text); rewritten and stale are what rewriting its references did and
// found.
func validate(ctx context.Context, cfg *config, in Input, merged *diff.Document, nodes []*node, rewritten []string, stale []BrokenRef) Validation {
	// The re-scan, the costly check, runs beside the others: they only
	// read the documents.
	var scan ContradictionRescan
	var g errgroup.Group
	g.Go(func() error {
		scan = rescan(ctx, cfg.scanner, in, merged)
		return nil
	})
	v := Validation{
		Structure:   checkStructure(merged, in.Base, cfg.topics),
		References:  checkReferences(merged, in, nodes, rewritten, stale),
		Identifiers: missingIdentifiers(in, merged),
	}
	_ = g.Wait()
	v.Rescan = scan
	return v
}

func checkStructure(merged, base *diff.Document, topics TopicMatcher) StructureCheck {
	got := append(structureProblems(merged), duplicateTopics(merged, topics)...)
	known := map[string]bool{}
	for _, p := range append(structureProblems(base), duplicateTopics(base, topics)...) {
		known[p.Rule+"|"+p.Detail] = true
	}
	c := StructureCheck{Passed: true, Problems: got}
	for i := range c.Problems {
		p := &c.Problems[i]
		p.InBase = known[p.Rule+"|"+p.Detail]
		if !p.InBase {
			c.Passed = false
		}
	}
	return c
}

// structureProblems applies the structural rules: starts with H1 or H2, no
// level gaps, no orphaned subsections, and explicit numbers in order.
func structureProblems(d *diff.Document) []Problem {
	var out []Problem
	add := func(rule string, i int, format string, args ...any) {
		s := d.Sections[i]
		out = append(out, Problem{Rule: rule, Line: s.Line, Heading: s.Title, Detail: fmt.Sprintf(format, args...)})
	}
	for i, s := range d.Sections {
		switch {
		case i == 0 && s.Level > 2:
			add(RuleStart, i, "the document starts with H%d %q, not H1 or H2", s.Level, s.Title)
		case s.Parent < 0 && s.Level > 2:
			add(RuleOrphan, i, "H%d %q has no parent section", s.Level, s.Title)
		case s.Parent >= 0 && s.Level > d.Sections[s.Parent].Level+1:
			p := d.Sections[s.Parent]
			add(RuleLevelGap, i, "H%d %q → H%d %q without H%d", p.Level, p.Title, s.Level, s.Title, p.Level+1)
		}
	}
	// explicit numbers: siblings ascend, children extend their parent's
	lastNum := map[int]string{} // parent → last numbered child's number
	for i, s := range d.Sections {
		n, _, _, ok := refs.HeadingNumber(s.Title)
		if !ok {
			continue
		}
		if s.Parent >= 0 {
			if pn, _, _, pok := refs.HeadingNumber(d.Sections[s.Parent].Title); pok && !strings.HasPrefix(n, pn+".") {
				add(RuleOrder, i, "%q is numbered %s under %q", s.Title, n, d.Sections[s.Parent].Title)
			}
		}
		if prev, ok := lastNum[s.Parent]; ok && compareNumbers(n, prev) <= 0 {
			add(RuleOrder, i, "%q (%s) comes after section %s", s.Title, n, prev)
		}
		lastNum[s.Parent] = n
	}
	return out
}

// compareNumbers compares dotted section numbers component by component.
func compareNumbers(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, _ := strconv.Atoi(as[i])
		y, _ := strconv.Atoi(bs[i])
		if x != y {
			return x - y
		}
	}
	return len(as) - len(bs)
}

// checkReferences resolves the merged document's references. A broken
// one fails the check unless it sits in text that was broken where the
// text came from already — the base's text in the base, an incorporated
// section's in its variant (the merge cannot be blamed for references to
// other documents, "the spec's §4.4"); one written against a variant's
// numbering that names a section the merge did not bring fails even
// though its number may resolve.
func checkReferences(merged *diff.Document, in Input, nodes []*node, rewritten []string, stale []BrokenRef) ReferenceCheck {
	rep := refs.Check(merged)
	brokenIn := func(d *diff.Document) map[string]bool {
		out := map[string]bool{}
		for _, r := range refs.Check(d).Broken() {
			out[string(r.Kind)+"|"+r.Target] = true
		}
		return out
	}
	known := brokenIn(in.Base)
	inBaseText := func(off int) bool {
		i := merged.SectionAt(off)
		return i < 0 || len(nodes) != len(merged.Sections) || nodes[i].attr.Origin != Incorporated
	}
	// the variant an incorporated section's text came from: its broken
	// references, found once per variant
	sourceBroken := map[string]map[string]bool{}
	inSource := func(off int, key string) bool {
		i := merged.SectionAt(off)
		if i < 0 || len(nodes) != len(merged.Sections) || nodes[i].attr.Origin != Incorporated || len(in.Variants) != len(in.Plan.Variants) {
			return false
		}
		label := nodes[i].attr.Variant.Label
		if sourceBroken[label] == nil {
			sourceBroken[label] = map[string]bool{}
			for vi, v := range in.Plan.Variants {
				if v.Label == label && in.Variants[vi] != nil {
					sourceBroken[label] = brokenIn(in.Variants[vi])
				}
			}
		}
		return sourceBroken[label][key]
	}
	c := ReferenceCheck{Passed: true, Total: rep.Total, Resolved: rep.Resolved, Rewritten: rewritten}
	explained := map[string]bool{} // broken references stale explains
	for _, b := range stale {
		explained[fmt.Sprint(b.Line, "|", b.Text)] = true
	}
	for _, r := range rep.Broken() {
		if explained[fmt.Sprint(r.Line, "|", r.Text)] {
			explained[fmt.Sprint(r.Line, "|", r.Text)] = false // counted as broken already
			continue
		}
		key := string(r.Kind) + "|" + r.Target
		b := BrokenRef{Kind: r.Kind, Text: r.Text, Target: r.Target, Line: r.Line,
			InBase: known[key] && inBaseText(r.Span.Start)}
		// incorporated text may carry another variant's words (a
		// rationale moved with its value): a reference the base has broken
		// the same way names what the base cites outside itself too
		b.InSource = !b.InBase && (inSource(r.Span.Start, key) || known[key])
		if !b.InBase && !b.InSource {
			c.Passed = false
		}
		c.Broken = append(c.Broken, b)
	}
	for _, b := range stale {
		c.Passed = false
		if explained[fmt.Sprint(b.Line, "|", b.Text)] { // it resolves, to the wrong section
			c.Resolved = max(c.Resolved-1, 0)
		}
		c.Broken = append(c.Broken, b)
	}
	sort.SliceStable(c.Broken, func(i, j int) bool { return c.Broken[i].Line < c.Broken[j].Line })
	return c
}

func rescan(ctx context.Context, s ContradictionScanner, in Input, merged *diff.Document) ContradictionRescan {
	if s == nil {
		return ContradictionRescan{State: RescanNotRun}
	}
	// The baseline is the base alone. The conflicts between the variants
	// are exactly what a merge must not import: counting them as known
	// would let every imported conflict pass as "not new".
	before, err := s.Scan(ctx, []*diff.Document{in.Base})
	if err != nil {
		return ContradictionRescan{State: RescanError, Err: "scanning the base: " + err.Error()}
	}
	after, err := s.Scan(ctx, []*diff.Document{merged})
	if err != nil {
		return ContradictionRescan{State: RescanError, Err: "scanning the merged document: " + err.Error()}
	}
	known := map[string]bool{}
	for _, c := range before {
		known[c.Signature] = true
	}
	r := ContradictionRescan{State: RescanPassed, Baseline: len(known)}
	kept := map[string]bool{}
	for _, c := range after {
		switch {
		case !known[c.Signature]:
			known[c.Signature] = true // report each new one once
			kept[c.Signature] = true
			r.New = append(r.New, c)
		case !kept[c.Signature]:
			kept[c.Signature] = true
			r.Unresolved = append(r.Unresolved, c)
		}
	}
	if len(r.New) > 0 {
		r.State = RescanFailed
	}
	return r
}
