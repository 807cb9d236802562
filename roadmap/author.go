package roadmap

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/lexicon"
)

// Author writes a roadmap for a spec from one agent's perspective: the
// roadmap of the standard and multi-spec paths (from the primary persona),
// and, plugged into a pipeline's Mode B, each competing variant of
// multi-roadmap generation. A model-backed Author replaces
// [OfflineAuthor] when the host has models. Implementations must be safe
// for concurrent use.
type Author interface {
	WriteRoadmap(ctx context.Context, req AuthorRequest) ([]byte, error)
}

// AuthorFunc adapts a function to [Author].
type AuthorFunc func(ctx context.Context, req AuthorRequest) ([]byte, error)

// WriteRoadmap calls f.
func (f AuthorFunc) WriteRoadmap(ctx context.Context, req AuthorRequest) ([]byte, error) {
	return f(ctx, req)
}

// AuthorRequest is what an [Author] writes from.
type AuthorRequest struct {
	Spec *diff.Document
	// Agent is the perspective: its persona orders the phases, its
	// instruction is honoured as far as the author can.
	Agent debate.AgentSpec
}

// OfflineAuthor is the deterministic baseline [Author]. It writes what can
// be derived from the spec's structure without a model, so that the whole
// roadmap flow runs offline and reproducibly; a model-backed Author
// replaces it for roadmaps worth reading as plans.
//
// Each top-level section of the spec (each subsection, when the section
// has subsections; each requirement item, in a section titled
// "Requirements") is a work unit, classified into a persona's domain by the
// keyword scoring of [KeywordDetector]. Every domain with work becomes a
// phase: its deliverables are the units' text (list items whole,
// paragraphs sentence by sentence), its requirements the ids they name, its
// exit criteria their acceptance and the domain's gate. Phases are ordered
// by the agent persona's priorities — its own domain first, then the
// others in [DomainPersonas] order — and the persona plans its own phase in
// most detail: a check of its kind per requirement, the agent's
// instruction, and the sentences of other units that concern its domain.
// Sections of context (purpose, overview, scope, glossary, …) give the
// goal, sections of risks the risk list; a requirement-coverage table, the
// same for every persona, closes the roadmap.
//
// Agents with different personas therefore write roadmaps that differ in
// phase order and emphasis but plan the same work. The offline debate
// cannot judge phase order, so multi-roadmap runs of mixed personas tend to
// end partial with low convergence; agents of one persona write identical
// roadmaps.
type OfflineAuthor struct{}

var _ Author = OfflineAuthor{}

// WriteRoadmap implements [Author].
func (OfflineAuthor) WriteRoadmap(ctx context.Context, req AuthorRequest) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if req.Spec == nil {
		return nil, fmt.Errorf("roadmap: offline author: no spec")
	}
	return []byte(offlineRoadmap(req.Spec, req.Agent)), nil
}

var _ adversarial.Generator = OfflineAuthor{}

// Generate implements adversarial.Generator, so that the pipeline's Mode B
// writes its roadmap variants with the baseline author
// (adversarial.WithGenerator(roadmap.OfflineAuthor{})): one per agent,
// each ordered by that agent's persona.
func (a OfflineAuthor) Generate(ctx context.Context, req adversarial.GenerateRequest) (string, error) {
	out, err := a.WriteRoadmap(ctx, AuthorRequest{Spec: req.Source, Agent: req.Agent})
	return string(out), err
}

// GeneratorAuthor is an [Author] that writes through an
// adversarial.Generator — an adversarial.ModelGenerator, say — as the
// agent Model with the primary persona: how a host with models replaces
// [OfflineAuthor] on the standard and multi-spec paths.
type GeneratorAuthor struct {
	Generator adversarial.Generator
	Model     string
}

// WriteRoadmap implements [Author].
func (g GeneratorAuthor) WriteRoadmap(ctx context.Context, req AuthorRequest) ([]byte, error) {
	if g.Generator == nil {
		return nil, fmt.Errorf("roadmap: GeneratorAuthor without a generator")
	}
	agent := req.Agent
	if agent.Model == "" {
		agent.Model = g.Model
	}
	text, err := g.Generator.Generate(ctx, adversarial.GenerateRequest{Index: 1, Type: GenerateRoadmap, Agent: agent, Source: req.Spec})
	return []byte(text), err
}

// unit is one piece of work the offline author plans.
type unit struct {
	title  string
	domain int
	reqs   []string
	items  []string
}

// contextWords mark sections that describe rather than ask for work.
var contextWords = []string{"purpose", "overview", "introduction", "background", "summary", "goal", "motivation",
	"context", "scope", "glossary", "reference", "appendix", "terminology", "definition", "open question",
	"problem statement", "abstract", "about", "audience", "status"}

func titleHas(title string, list ...string) bool {
	t := strings.ToLower(title)
	for _, w := range list {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// priorities returns the domain indexes in the persona's order: its own
// domain first (an unknown persona has none), then the rest in table
// order.
func priorities(persona string) []int {
	own := domainIndex(persona)
	out := make([]int, 0, len(domains))
	if own >= 0 {
		out = append(out, own)
	}
	for i := range domains {
		if i != own {
			out = append(out, i)
		}
	}
	return out
}

type planned struct {
	units []unit
	goal  string
	risks []string
}

// collect splits the spec into units, the goal sentence and the risks.
func collect(d *diff.Document) planned {
	var p planned
	var walk func(i int, inherited string)
	walk = func(i int, inherited string) {
		s := d.Sections[i]
		direct := directBlocks(d, i)
		switch {
		case titleHas(s.Title, "risk"):
			for _, b := range direct {
				p.risks = append(p.risks, itemTexts(b)...)
			}
			for _, c := range s.Children {
				walk(c, inherited)
			}
			return
		case titleHas(s.Title, contextWords...):
			for _, b := range direct {
				if p.goal == "" && b.Kind == diff.Paragraph {
					p.goal = firstSentence(b.Text)
				}
			}
			return
		case titleHas(s.Title, "requirement"):
			for _, b := range direct {
				text := blockText(b)
				ids := lexicon.RequirementIDs(text)
				if len(ids) == 0 || b.Kind == diff.Code || b.Header {
					continue
				}
				t := newTally()
				t.add(s.Title+" "+text, 1)
				p.units = append(p.units, unit{title: ids[0], domain: domainOf(t), reqs: ids, items: []string{text}})
			}
			for _, c := range s.Children {
				walk(c, s.Title)
			}
			return
		}
		if len(s.Children) > 0 && len(direct) == 0 {
			for _, c := range s.Children {
				walk(c, s.Title)
			}
			return
		}
		// A section with its own text is one unit, subsections included.
		t := newTally()
		t.add(inherited+" "+s.Title, HeadingWeight)
		u := unit{title: s.Title}
		seen := map[string]bool{}
		for _, b := range d.BlocksIn(s.Span) {
			if b.Kind == diff.Code || b.Header {
				continue
			}
			text := blockText(b)
			t.add(text, 1)
			u.items = append(u.items, itemTexts(b)...)
			for _, id := range lexicon.RequirementIDs(text) {
				if !seen[id] {
					seen[id] = true
					u.reqs = append(u.reqs, id)
				}
			}
		}
		for _, c := range s.Children {
			t.add(d.Sections[c].Title, HeadingWeight)
		}
		if len(u.items) == 0 && len(u.reqs) == 0 {
			return
		}
		u.domain = domainOf(t)
		p.units = append(p.units, u)
	}
	top := d.TopLevel()
	for _, i := range top {
		walk(i, "")
	}
	if len(top) == 0 && len(d.Blocks) > 0 {
		// No sections under a title: the whole text is one unit.
		t := newTally()
		u := unit{title: d.Title}
		if u.title == "" {
			u.title = d.Name
		}
		for _, b := range d.Blocks {
			if b.Kind == diff.Code || b.Header {
				continue
			}
			t.add(blockText(b), 1)
			u.items = append(u.items, itemTexts(b)...)
			u.reqs = append(u.reqs, lexicon.RequirementIDs(blockText(b))...)
		}
		u.domain = domainOf(t)
		if len(u.items) > 0 {
			p.units = append(p.units, u)
		}
	}
	return p
}

// domainOf is the best-scoring domain, architecture (foundations) when none
// scores.
func domainOf(t *tally) int {
	if i := t.best(); i >= 0 {
		return i
	}
	return domainIndex(DefaultPersona)
}

// directBlocks returns the blocks of section i outside its subsections.
func directBlocks(d *diff.Document, i int) []diff.Block {
	var out []diff.Block
	for _, b := range d.BlocksIn(d.Sections[i].Span) {
		if b.Section == i {
			out = append(out, b)
		}
	}
	return out
}

// itemTexts is what a block contributes as deliverables: a list item
// whole, a paragraph sentence by sentence, a table row's cells; nothing
// for code and header rows.
func itemTexts(b diff.Block) []string {
	switch b.Kind {
	case diff.ListItem:
		if t := strings.TrimSpace(b.Text); t != "" {
			return []string{t}
		}
	case diff.Paragraph:
		return sentences(b.Text)
	case diff.TableRow:
		if !b.Header {
			return []string{strings.Join(b.Cells, " — ")}
		}
	}
	return nil
}

// sentences splits text after each '.', '!' or '?' followed by a space
// and a capital letter or digit.
func sentences(text string) []string {
	var out []string
	text = strings.TrimSpace(text)
	start := 0
	for i := 0; i+2 < len(text); i++ {
		c := text[i]
		if (c == '.' || c == '!' || c == '?') && text[i+1] == ' ' {
			r, _ := utf8.DecodeRuneInString(text[i+2:])
			if unicode.IsUpper(r) || unicode.IsDigit(r) {
				out = append(out, text[start:i+1])
				start = i + 2
			}
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// firstSentence returns the first of text's sentences.
func firstSentence(text string) string {
	if s := sentences(text); len(s) > 0 {
		return s[0]
	}
	return ""
}

// offlineRoadmap renders the baseline roadmap of d for agent.
func offlineRoadmap(d *diff.Document, agent debate.AgentSpec) string {
	p := collect(d)
	persona := strings.ToLower(agent.Persona)
	own := domainIndex(persona)

	type phase struct {
		domain int
		units  []unit
		reqs   []string
		extra  []string // the persona's cross-cutting items, in its own phase
	}
	byDomain := map[int]*phase{}
	get := func(i int) *phase {
		if byDomain[i] == nil {
			byDomain[i] = &phase{domain: i}
		}
		return byDomain[i]
	}
	for _, u := range p.units {
		ph := get(u.domain)
		ph.units = append(ph.units, u)
		for _, id := range u.reqs {
			if !slices.Contains(ph.reqs, id) {
				ph.reqs = append(ph.reqs, id)
			}
		}
	}
	// The persona looks through the other phases for work in its own
	// domain and plans it in its own phase too: what it knows best, it
	// plans in most detail.
	if own >= 0 {
		for _, u := range p.units {
			if u.domain == own {
				continue
			}
			for _, it := range u.items {
				t := newTally()
				t.add(it, 1)
				if t.score[own] > 0 {
					get(own).extra = append(get(own).extra, fmt.Sprintf("**%s** (from %s): %s", u.title, domains[u.domain].phase, it))
				}
			}
		}
	}
	var phases []*phase
	for _, i := range priorities(persona) {
		if ph := byDomain[i]; ph != nil {
			phases = append(phases, ph)
		}
	}
	// A requirement is planned in the phase of the first unit, in document
	// order, that names it — the same for every persona.
	planIn := map[string]int{} // requirement id → domain
	for _, u := range p.units {
		for _, id := range u.reqs {
			if _, ok := planIn[id]; !ok {
				planIn[id] = u.domain
			}
		}
	}
	all := ExtractRequirements(d)

	var b strings.Builder
	title := d.Title
	if title == "" {
		title = strings.TrimSuffix(d.Name, ".md")
	}
	fmt.Fprintf(&b, "# Roadmap: %s\n\n## Overview\n\n", title)
	fmt.Fprintf(&b, "- **Source**: %s\n", d.Name)
	if p.goal != "" {
		fmt.Fprintf(&b, "- **Goal**: %s\n", p.goal)
	}
	fmt.Fprintf(&b, "- **Phases**: %d, in order; each starts when the one before meets its exit criteria\n", len(phases))
	fmt.Fprintf(&b, "- **Requirements**: %d of %d planned\n", len(planIn), len(all))

	for n, ph := range phases {
		dom := domains[ph.domain]
		fmt.Fprintf(&b, "\n## Phase %d: %s\n\n", n+1, dom.phase)
		fmt.Fprintf(&b, "- **Milestone**: %s complete\n", dom.phase)
		fmt.Fprintf(&b, "- **Requirements**: %s\n", orDefault(strings.Join(ph.reqs, ", "), "none identified"))
		b.WriteString("\n**Deliverables**:\n\n")
		for _, u := range ph.units {
			for _, it := range u.items {
				if len(u.reqs) > 0 && u.title == u.reqs[0] {
					fmt.Fprintf(&b, "- %s\n", it) // a requirement item names itself
				} else {
					fmt.Fprintf(&b, "- **%s**: %s\n", u.title, it)
				}
			}
		}
		for _, it := range ph.extra {
			fmt.Fprintf(&b, "- %s\n", it)
		}
		b.WriteString("\n**Exit criteria**:\n\n")
		switch {
		case ph.domain == own:
			// The persona's own phase: a check per requirement, its kind.
			for _, id := range ph.reqs {
				fmt.Fprintf(&b, "- %s: %s\n", id, dom.check)
			}
		case len(ph.reqs) > 0:
			fmt.Fprintf(&b, "- %s verified by acceptance tests\n", strings.Join(ph.reqs, ", "))
		}
		fmt.Fprintf(&b, "- %s\n", dom.gate)
		if ph.domain == own && agent.Instruction != "" {
			fmt.Fprintf(&b, "- Agent instruction honoured: %s\n", agent.Instruction)
		}
	}

	b.WriteString("\n## Risks\n\n")
	for _, r := range p.risks {
		fmt.Fprintf(&b, "- %s\n", r)
	}
	if len(p.risks) == 0 {
		b.WriteString("- The specification lists no risks.\n")
	}

	b.WriteString("\n## Requirement Coverage\n\n")
	if len(all) == 0 {
		b.WriteString("The specification has no requirement ids.\n")
		return b.String()
	}
	b.WriteString("| Requirement | Phase |\n|-------------|-------|\n")
	for _, r := range all {
		if dom, ok := planIn[r.ID]; ok {
			fmt.Fprintf(&b, "| %s | %s |\n", r.ID, domains[dom].phase)
		} else {
			fmt.Fprintf(&b, "| %s | Not planned (mentioned in %s) |\n", r.ID, cell(r.Section))
		}
	}
	return b.String()
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
