package diff

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Placement conflicts. Plans of one artifact (two roadmaps of one spec,
// a plan and its revision) each assign deliverables to their phases. When
// both build the same named thing — a file, a type, a schema — in phases
// the alignment says are different work, they disagree on when it is done:
// "Extend `.roadmap-state.json`" in one plan's Phase 1 and in the other's
// Phase 5. Only a thing each variant builds in exactly one phase counts,
// and only where both variants have both phases; a thing built in several
// phases, or used rather than built, says nothing about placement.

// ScopeConflict: claims about what something contains or covers that
// cannot both hold, such as one deliverable built in different phases.
const ScopeConflict ContradictionKind = "scope"

// buildVerbs open or mark a deliverable that is built, not merely used.
var buildVerbRE = regexp.MustCompile(`(?i)\b(?:add|adds|added|create|creates|created|extend|extends|extended|generate|generates|generated|implement|implements|implemented|introduce|introduces|introduced|emit|emits|emission|build|builds|define|defines|defined|new)\b`)

// placement is where a variant builds a named thing: the block that says
// so and the phase section it sits in.
type placement struct {
	blocks  []int // every block of the phase that builds it
	section int
}

// detectPlacement reports the named deliverables two variants build in
// phases of different topics.
func detectPlacement(in DetectInput) []Contradiction {
	if len(in.Topics) == 0 {
		return nil
	}
	topicOf := make([]map[int]int, len(in.Documents))
	for v := range in.Documents {
		topicOf[v] = map[int]int{}
	}
	for t, tp := range in.Topics {
		for v, si := range tp.Sections {
			if si >= 0 && v < len(topicOf) {
				topicOf[v][si] = t
			}
		}
	}
	built := make([]map[string]placement, len(in.Documents)) // per variant: thing → its one placement
	for v, d := range in.Documents {
		built[v] = buildPlacements(d)
	}
	set := map[string]bool{}
	for _, b := range built {
		for name := range b {
			set[name] = true
		}
	}
	things := make([]string, 0, len(set))
	for name := range set {
		things = append(things, name)
	}
	slices.Sort(things)
	var out []Contradiction
	for _, name := range things {
		var claims []Claim
		var phases []string
		first := -1
		for v, d := range in.Documents {
			p, ok := built[v][name]
			if !ok {
				continue
			}
			t, aligned := topicOf[v][p.section]
			if !aligned {
				continue
			}
			if first < 0 {
				first = t
			} else if t == first || !coversBoth(in.Topics[t], in.Topics[first]) {
				continue
			}
			for _, bi := range p.blocks {
				b := d.Blocks[bi]
				claims = append(claims, Claim{Variant: v, Section: b.Section, Block: bi, Line: b.Line,
					Text: b.Text, Quote: firstLine(d.Text(b.Span)), Type: Factual})
			}
			phases = append(phases, fmt.Sprintf("%s: %s", Label(v), d.Sections[p.section].Title))
		}
		if len(phases) < 2 {
			continue
		}
		out = append(out, Contradiction{Kind: ScopeConflict, Subject: "phase in which `" + name + "` is built", Claims: claims,
			Impact: Medium, Key: "placement:" + name,
			Reason: "the variants build it in phases on different topics (" + strings.Join(phases, "; ") + ")"})
	}
	return out
}

// coversBoth reports whether every variant with a section on one topic
// also has one on the other: only then do two phases compete for the same
// deliverable.
func coversBoth(a, b Topic) bool {
	n := 0
	for v := range a.Sections {
		if v < len(b.Sections) && a.Sections[v] >= 0 && b.Sections[v] >= 0 {
			n++
		}
	}
	return n >= 2
}

// buildPlacements returns the named things a document builds in exactly
// one phase: a code span in a list item or paragraph that also has a
// building verb, under a section whose heading names a series item
// ("Phase 3"). The key is the code span's leading identifier.
func buildPlacements(d *Document) map[string]placement {
	seen := map[string]placement{}
	multi := map[string]bool{}
	for bi, b := range d.Blocks {
		if b.Kind != ListItem && b.Kind != Paragraph {
			continue
		}
		phase := seriesSection(d, b.Section)
		if phase < 0 || !buildVerbRE.MatchString(b.Text) {
			continue
		}
		for _, span := range codeSpans(d.Text(b.Span)) {
			name := leadingIdentifier(span)
			if len(name) < 4 {
				continue
			}
			p, ok := seen[name]
			switch {
			case !ok:
				seen[name] = placement{blocks: []int{bi}, section: phase}
			case p.section != phase:
				multi[name] = true
			case !slices.Contains(p.blocks, bi):
				p.blocks = append(p.blocks, bi)
				seen[name] = p
			}
		}
	}
	for name := range multi {
		delete(seen, name)
	}
	return seen
}

// seriesSection returns the nearest section holding si whose heading
// names a stage of a plan ("Phase 3", "Milestone 2", "Wave 1"), or -1.
// Tasks and numbered questions ("T2 — Gate semantics") are not stages.
func seriesSection(d *Document, si int) int {
	items := headingSeriesItems(d)
	for s := si; s >= 0 && s < len(d.Sections); s = d.Sections[s].Parent {
		if items[s] != "" && !strings.HasPrefix(items[s], "TASK ") {
			return s
		}
	}
	return -1
}

type headingSeriesKey struct{}

// headingSeriesItems returns seriesItem of every section's title, once per
// document.
func headingSeriesItems(d *Document) []string {
	return d.Memo(headingSeriesKey{}, func() any {
		out := make([]string, len(d.Sections))
		for i, s := range d.Sections {
			out[i] = seriesItem("", s.Title)
		}
		return out
	}).([]string)
}

// leadingIdentifier returns the name a code span starts with:
// "PhaseStatus.PREFLIGHT_PASS" of `PhaseStatus.PREFLIGHT_PASS = "x"`,
// ".roadmap-state.json" of itself.
func leadingIdentifier(span string) string {
	span = strings.TrimSpace(span)
	end := strings.IndexAny(span, " =(:,[{")
	if end >= 0 {
		span = span[:end]
	}
	return strings.Trim(span, "`'\"")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
