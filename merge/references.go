package merge

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
)

// Internal references follow the sections they name. A merge moves
// sections (renumbering, see renumber.go) and brings text written against
// another variant's numbering, so "the helper from §3.2" or "add the §7
// tests" would otherwise point at whatever now carries that number — a
// different topic, silently, since the number still resolves.
//
// Every internal reference of the merged document ("Section 3.2", "§3.2",
// "see 3.2", "[x](#3-storage)") is read in the numbering of the text it
// sits in: base text in the base's, incorporated text in its variant's.
// When the section it names is in the merged document, the reference is
// rewritten to that section's number or anchor now. When it names a
// section of its variant that the merge did not bring, it is reported
// broken even if the number happens to resolve. References to numbers the
// base itself does not define are left to validation.

// seeNumberRE is "see 3.2": a bare dotted number after "see", which
// internal/refs does not count as a reference (a bare "see 3" is too
// often a quantity).
var seeNumberRE = regexp.MustCompile(`(?i)\bsee[ \t]+(\d{1,3}(?:\.\d+)+)\b`)

// maySeeNumber is false only when seeNumberRE cannot match s: every
// match holds "ee" in some case after its s (the regexp folds s with ſ,
// never e with anything but E) and an ASCII digit after that. The
// regexp, case-insensitive, has no literal to skip ahead by and reads
// every block of the merged document; most blocks fail this first
// (FuzzMaySeeNumber holds the two together).
func maySeeNumber(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i]|0x20 == 'e' && s[i-1]|0x20 == 'e' {
			return strings.ContainsAny(s[i+1:], "0123456789")
		}
	}
	return false
}

// staleRef is a reference whose target the merge did not bring: where it
// sits (a node's own text, or the text before the first heading when n is
// nil) and why it is broken.
type staleRef struct {
	n   *node
	off int // in n.own (or the tree's pre)
	ref BrokenRef
}

// referenceFix is what rewriting the references did.
type referenceFix struct {
	Rewritten []string // "Section 3.2 → Section 4.2"
	stale     []staleRef
}

// fixReferences rewrites the references of the merged tree to the merged
// numbering, in the sections' own text, and tags each base section it
// edits as modified.
func (r *run) fixReferences(rn renumbering) referenceFix {
	var fix referenceFix
	plain, own := r.tree.renderPlain()
	plain = trimFinal(plain)
	doc, err := diff.Parse("merged", []byte(plain))
	var nodes []*node
	r.tree.walk(func(n *node) { nodes = append(nodes, n) })
	if err != nil || doc.Source != plain || len(nodes) != len(doc.Sections) {
		return fix // cannot map the text back to the sections: leave it
	}
	x := r.refTargets(nodes, rn)
	found := refs.Find(doc)
	found = append(found, seeNumbers(doc, found)...)
	sort.Slice(found, func(i, j int) bool { return found[i].Span.Start > found[j].Span.Start }) // edit from the end
	for _, ref := range found {
		if ref.Kind != refs.Section && ref.Kind != refs.Anchor {
			continue
		}
		var n *node
		text, base := &r.tree.pre, len(r.tree.front)
		if i := doc.SectionAt(ref.Span.Start); i >= 0 {
			n = nodes[i]
			text, base = &n.own, own[n]
		}
		rel := ref.Span.Start - base
		if rel < 0 || rel+len(ref.Text) > len(*text) || (*text)[rel:rel+len(ref.Text)] != ref.Text {
			continue // in a heading, or not where the rendering says: leave it
		}
		label := "" // the base's numbering
		if n != nil && n.attr.Origin == Incorporated {
			label = n.attr.Variant.Label
		}
		target, missing := x.resolve(label, ref)
		if missing == "" && target != nil && ref.Kind == refs.Section && rn.after[target] == "" {
			missing = fmt.Sprintf("the section it names, %q, has no number in the merged document", target.title)
		}
		if missing != "" {
			fix.stale = append(fix.stale, staleRef{n: n, off: rel, ref: BrokenRef{Kind: ref.Kind, Text: ref.Text, Target: ref.Target, Reason: missing}})
			continue
		}
		if target == nil {
			continue
		}
		old, now := ref.Target, rn.after[target]
		if ref.Kind == refs.Anchor {
			old, now = "#"+old, "#"+refs.Slug(target.title)
		}
		k := strings.LastIndex(ref.Text, old)
		if now == old || k < 0 {
			continue
		}
		repl := ref.Text[:k] + now + ref.Text[k+len(old):]
		*text = (*text)[:rel] + repl + (*text)[rel+len(ref.Text):]
		fix.Rewritten = append(fix.Rewritten, ref.Text+" → "+repl)
		if n != nil {
			n.markModified("references rewritten to the merged numbering")
		}
	}
	// document order for the log
	for i, j := 0, len(fix.Rewritten)-1; i < j; i, j = i+1, j-1 {
		fix.Rewritten[i], fix.Rewritten[j] = fix.Rewritten[j], fix.Rewritten[i]
	}
	for i, j := 0, len(fix.stale)-1; i < j; i, j = i+1, j-1 {
		fix.stale[i], fix.stale[j] = fix.stale[j], fix.stale[i]
	}
	return fix
}

// staleIn places the stale references in the final document d (rendered
// with tags and header h, its sections being nodes) and returns them with
// their lines.
func (f referenceFix) staleIn(d *diff.Document, nodes []*node, t *tree, h string) []BrokenRef {
	index := map[*node]int{}
	for i, n := range nodes {
		index[n] = i
	}
	var out []BrokenRef
	for _, s := range f.stale {
		b := s.ref
		off := len(t.front) + len(h) + s.off
		if i, ok := index[s.n]; ok && s.n != nil && i < len(d.Sections) {
			off = d.Sections[i].Heading.End + 1 + len(s.n.attr.Tag()) + 1 + s.off
		}
		if off <= len(d.Source) {
			b.Line = d.LineAt(off)
		}
		out = append(out, b)
	}
	return out
}

// explicitNumber returns r's number when its heading states it, "" when
// the number is only the section's outline position. Only a number the
// text shows is one a reference can be taken to mean: references to
// outline counts are as often to another document's sections.
func explicitNumber(r SectionRef) string {
	if n, _, _, ok := refs.HeadingNumber(r.Title); ok && n == r.Number {
		return n
	}
	return ""
}

// seeNumbers finds "see 3.2" in prose text (never in code, a link or
// HTML; see refs.Prose) outside the references already found.
func seeNumbers(doc *diff.Document, found []refs.Ref) []refs.Ref {
	var out []refs.Ref
	prose := refs.Prose(doc)
	for _, b := range doc.Blocks {
		if b.Kind == diff.Code {
			continue
		}
		p := prose[b.Span.Start:b.Span.End]
		if !maySeeNumber(p) {
			continue
		}
		text := doc.Text(b.Span)
		for _, m := range seeNumberRE.FindAllStringSubmatchIndex(p, -1) {
			start, end := b.Span.Start+m[0], b.Span.Start+m[1]
			overlaps := false
			for _, f := range found {
				if f.Span.Start < end && start < f.Span.End {
					overlaps = true
					break
				}
			}
			if !overlaps {
				out = append(out, refs.Ref{Kind: refs.Section, Text: text[m[0]:m[1]], Target: text[m[2]:m[3]],
					Span: diff.Span{Start: start, End: end}, Line: doc.LineAt(start)})
			}
		}
	}
	return out
}

// refTargets indexes the merged sections by what references in each
// numbering call them.
type refTargets struct {
	byNumber map[string]map[string]*node // numbering ("" base, else label) → number → node
	bySlug   map[string]map[string]*node // numbering → anchor → node
	variants map[string]*diff.Document   // label → the variant, when the input has it
	indexes  map[string]*refs.Index
	nodes    []*node
}

func (r *run) refTargets(nodes []*node, rn renumbering) *refTargets {
	x := &refTargets{byNumber: map[string]map[string]*node{}, bySlug: map[string]map[string]*node{}, variants: map[string]*diff.Document{},
		indexes: map[string]*refs.Index{}, nodes: nodes}
	add := func(m map[string]map[string]*node, label, key string, n *node) {
		if key == "" {
			return
		}
		if m[label] == nil {
			m[label] = map[string]*node{}
		}
		if _, dup := m[label][key]; !dup {
			m[label][key] = n
		}
	}
	for _, n := range nodes {
		switch {
		case n.origin >= 0:
			add(x.byNumber, "", rn.before[n], n)
			add(x.bySlug, "", refs.Slug(r.in.Base.Sections[n.origin].Title), n)
			if n.attr.Origin == Incorporated { // a replaced section: the source's names reach it too
				add(x.byNumber, n.attr.Variant.Label, explicitNumber(n.attr.Section), n)
			}
		case n.attr.Origin == Incorporated:
			add(x.byNumber, n.attr.Variant.Label, explicitNumber(n.attr.Section), n)
			add(x.bySlug, n.attr.Variant.Label, refs.Slug(n.attr.Section.Title), n)
		}
	}
	if len(r.in.Variants) == len(r.in.Plan.Variants) {
		for i, v := range r.in.Plan.Variants {
			if d := r.in.Variants[i]; d != nil {
				x.variants[v.Label] = d
			}
		}
	}
	return x
}

// resolve returns the merged section ref names when read in label's
// numbering, or why it is missing; (nil, "") when the reference is not
// one the merge can follow (the base never defined it).
func (x *refTargets) resolve(label string, ref refs.Ref) (*node, string) {
	table := x.byNumber
	if ref.Kind == refs.Anchor {
		table = x.bySlug
	}
	if n := table[label][ref.Target]; n != nil {
		return n, ""
	}
	if label == "" {
		return nil, ""
	}
	// incorporated text naming another section of its variant: find that
	// section by title in the merged document
	v := x.variants[label]
	if v == nil {
		return nil, ""
	}
	title := ""
	idx := x.indexes[label]
	if idx == nil {
		idx = refs.NewIndex(v)
		x.indexes[label] = idx
	}
	if i, ok := idx.Resolve(ref); ok && i >= 0 {
		title = v.Sections[i].Title
		if ref.Kind == refs.Section && explicitNumber(SectionRef{Number: ref.Target, Title: title}) == "" {
			// the number is only an outline count there; such references
			// often name another document's sections: leave them
			return nil, ""
		}
	}
	if title == "" {
		return nil, "" // broken in its variant already; validation reports it
	}
	for _, n := range x.nodes {
		if n.origin >= 0 && sameHeading(n.title, title) {
			return n, ""
		}
	}
	for _, n := range x.nodes {
		if sameHeading(n.title, title) {
			return n, ""
		}
	}
	return nil, fmt.Sprintf("it names Variant %s's section %q, which the merged document does not have", label, title)
}
