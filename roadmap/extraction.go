package roadmap

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/lexicon"
)

// Requirement is one requirement id found in a spec, with where it first
// appears.
type Requirement struct {
	ID      string `json:"id"`
	Section string `json:"section"` // "2 Requirements", or the title alone
	Line    int    `json:"line"`
	Text    string `json:"text"` // the block that names it, as plain text
}

// ExtractRequirements returns the requirement ids of spec (FR-001, NFR-2,
// …) in order of first appearance, each with the block that first names
// it. Code blocks are not searched.
func ExtractRequirements(spec *diff.Document) []Requirement {
	var out []Requirement
	seen := map[string]bool{}
	for _, b := range spec.Blocks {
		if b.Kind == diff.Code {
			continue
		}
		text := blockText(b)
		for _, id := range lexicon.RequirementIDs(text) {
			if seen[id] {
				continue
			}
			seen[id] = true
			out = append(out, Requirement{ID: id, Section: sectionName(spec, b.Section), Line: b.Line, Text: text})
		}
	}
	return out
}

// blockText is a block's plain text; a table row's cells joined with " — ".
func blockText(b diff.Block) string {
	if b.Kind == diff.TableRow && len(b.Cells) > 0 {
		return strings.Join(b.Cells, " — ")
	}
	return b.Text
}

func sectionName(d *diff.Document, i int) string {
	if i < 0 || i >= len(d.Sections) {
		return "(before the first heading)"
	}
	s := d.Sections[i]
	if s.Number == "" {
		return s.Title
	}
	return s.Number + " " + s.Title
}

// Extraction is what Wave 1B extracts from the spec a roadmap is built
// on — in multi-spec and combined modes the unified spec — together with
// the run's decisions and warnings. Markdown renders extraction.md.
type Extraction struct {
	Spec         string        `json:"spec"` // the spec's name
	Title        string        `json:"title"`
	Mode         Mode          `json:"mode"`
	Generated    time.Time     `json:"generated"`
	Requirements []Requirement `json:"requirements"`
	Persona      Detection     `json:"persona"`
	// Agents are the expanded agents of multi-roadmap generation.
	Agents       []string     `json:"agents,omitempty"`
	Orchestrator bool         `json:"orchestrator,omitempty"`
	Invocations  []Invocation `json:"invocations,omitempty"`
	Warnings     []Warning    `json:"warnings,omitempty"`
}

// Markdown renders extraction.md: metadata, requirements, the domain
// analysis behind the primary persona, the warnings of Wave 0 and, in an
// adversarial mode, the "Consolidation Warnings" of the pipeline's waves,
// each as a "> **Warning**:" block.
func (e *Extraction) Markdown() string {
	var b strings.Builder
	title := e.Title
	if title == "" {
		title = e.Spec
	}
	fmt.Fprintf(&b, "# Extraction: %s\n\n## Metadata\n\n", title)
	fmt.Fprintf(&b, "- Source: %s\n", e.Spec)
	fmt.Fprintf(&b, "- Mode: %s\n", e.Mode)
	fmt.Fprintf(&b, "- Generated: %s\n", e.Generated.UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "- Requirements extracted: %d\n", len(e.Requirements))
	fmt.Fprintf(&b, "- Primary persona: %s (%s)\n", e.Persona.Primary, e.Persona.Reason)
	if len(e.Agents) > 0 {
		fmt.Fprintf(&b, "- Agents (expanded): %s\n", strings.Join(e.Agents, ", "))
		if e.Orchestrator {
			fmt.Fprintf(&b, "- Orchestrator: added for %d agents (≥ %d; not counted toward the 2-10 limit)\n", len(e.Agents), debate.OrchestratorThreshold)
		} else {
			fmt.Fprintf(&b, "- Orchestrator: not needed (%d agents, < %d)\n", len(e.Agents), debate.OrchestratorThreshold)
		}
	}
	for _, inv := range e.Invocations {
		fmt.Fprintf(&b, "- Wave %s invocation: `%s`\n", inv.Wave, inv.CommandLine())
	}

	b.WriteString("\n## Requirements\n\n")
	if len(e.Requirements) == 0 {
		b.WriteString("No requirement ids found.\n")
	} else {
		b.WriteString("| ID | Section | Line | Requirement |\n|----|---------|------|-------------|\n")
		for _, r := range e.Requirements {
			fmt.Fprintf(&b, "| %s | %s | %d | %s |\n", r.ID, cell(r.Section), r.Line, cell(r.Text))
		}
	}

	b.WriteString("\n## Domain Analysis\n\n")
	if len(e.Persona.Scores) == 0 {
		fmt.Fprintf(&b, "Primary persona: %s. %s.\n", e.Persona.Primary, upperFirst(e.Persona.Reason))
	} else {
		b.WriteString("| Persona | Score | Keywords |\n|---------|-------|----------|\n")
		for _, s := range e.Persona.Scores {
			fmt.Fprintf(&b, "| %s | %d | %s |\n", s.Persona, s.Score, cell(strings.Join(s.Keywords, ", ")))
		}
	}

	var input []Warning
	waves := map[Wave][]Warning{}
	var order []Wave
	for _, w := range e.Warnings {
		if w.Wave == "" {
			input = append(input, w)
			continue
		}
		if _, ok := waves[w.Wave]; !ok {
			order = append(order, w.Wave)
		}
		waves[w.Wave] = append(waves[w.Wave], w)
	}
	if len(input) > 0 {
		b.WriteString("\n## Input Warnings\n\n")
		for _, w := range input {
			fmt.Fprintf(&b, "- %s\n", w.Message)
		}
	}
	if e.Mode.Adversarial() {
		b.WriteString("\n## Consolidation Warnings\n")
		if len(order) == 0 {
			b.WriteString("\nNone.\n")
		}
		for _, wave := range order {
			if e.Mode == ModeCombined {
				fmt.Fprintf(&b, "\n### %s\n", wave.Title())
			}
			for _, w := range waves[wave] {
				b.WriteString("\n")
				b.WriteString(quoteWarning(w.Message))
			}
		}
	}
	return b.String()
}

// quoteWarning renders a warning as a Markdown block quote: the first line
// after "**Warning**:", every line quoted.
func quoteWarning(msg string) string {
	var b strings.Builder
	for i, line := range strings.Split(msg, "\n") {
		if i == 0 {
			b.WriteString("> **Warning**: ")
		} else {
			b.WriteString("> ")
		}
		b.WriteString(line)
		b.WriteString("\n")
	}
	return b.String()
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
