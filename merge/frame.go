package merge

import (
	"regexp"
	"strings"
)

// The document frame: the title comes from the base, but once content
// from other variants is merged in, wording in it that names one
// variant's perspective ("Variant 1: …", "Proposal A — …", "… Architect
// Perspective", "Security Review -- …") claims the whole merged document
// for one side. That wording is removed; the rest of the title stays. A
// title that would become empty is kept as it is.

var (
	// "Variant 1:", "Proposal A —", "Position B:" opening a title
	variantPrefixRE = regexp.MustCompile(`(?i)^(?:variant|proposal|position|option|alternative)[ \t]+[A-Z0-9]{1,2}[ \t]*(?::|-{1,2}|—|–)[ \t]*`)
	// "… Architect Perspective", "(Security Viewpoint)", "- from the QA point of view"
	perspectiveRE = regexp.MustCompile(`(?i)(?:[ \t]*[-—–:|(][ \t]*|[ \t]+from[ \t]+)(?:(?:an?|the)[ \t]+)?(?:[\p{L}\p{N}'’/&-]+[ \t]+){0,4}(?:perspective|viewpoint|point[ \t]+of[ \t]+view)\)?[ \t]*$`)
	// the parts of a title: "Architect Validation -- Cross-Spec Overlap Analysis"
	titlePartRE = regexp.MustCompile(`[ \t]+(?:--|—|–|\|)[ \t]+`)
)

// roleWords name reviewer roles and personas; a title part that holds one
// speaks for that role.
var roleWords = []string{"architect", "analyst", "analyzer", "security", "scribe", "qa", "auditor", "reviewer",
	"skeptic", "skeptical", "forensic", "devops", "frontend", "backend", "performance", "refactorer", "mentor"}

// neutralTitle removes from a title the wording that names one variant's
// perspective. personas are extra role words (the agent specs' personas).
func neutralTitle(title string, personas []string) string {
	t := strings.TrimSpace(variantPrefixRE.ReplaceAllString(title, ""))
	if s := strings.TrimSpace(perspectiveRE.ReplaceAllString(t, "")); s != "" {
		t = s
	}
	parts := titlePartRE.Split(t, -1)
	seps := titlePartRE.FindAllString(t, -1)
	if len(parts) > 1 {
		var keep []string
		sep := " — "
		if len(seps) > 0 {
			sep = seps[0]
		}
		for _, p := range parts {
			if !namesRole(p, personas) {
				keep = append(keep, p)
			}
		}
		if len(keep) > 0 {
			t = strings.Join(keep, sep)
		}
	}
	if strings.TrimSpace(t) == "" {
		return title
	}
	return t
}

func namesRole(s string, personas []string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		for _, role := range roleWords {
			if w == role {
				return true
			}
		}
		for _, p := range personas {
			if p != "" && p != "default" && p != "original" && w == strings.ToLower(p) {
				return true
			}
		}
	}
	return false
}

// frameTitle neutralises the document title when the merge brought in
// content from other variants, tagging it as modified.
func (r *run) frameTitle() {
	incorporated := false
	r.tree.walk(func(n *node) {
		if n.attr.Origin == Incorporated {
			incorporated = true
		}
	})
	if !incorporated || len(r.tree.roots) == 0 {
		return
	}
	title := r.tree.roots[0]
	if title.level != 1 || title.origin < 0 {
		return
	}
	var personas []string
	for _, v := range append([]VariantRef{r.in.Plan.Base}, r.in.Plan.Variants...) {
		if i := strings.LastIndexByte(v.Agent, ':'); i >= 0 {
			personas = append(personas, v.Agent[i+1:])
		}
	}
	raw := atxText(title.heading)
	neutral := neutralTitle(raw, personas)
	if neutral == raw {
		return
	}
	title.heading = atxHeading(1, neutral)
	title.title = neutralTitle(title.title, personas)
	title.markModified("title neutralised: it named one variant's perspective over merged content")
}

// frontFirst returns the front matter as the merged document opens with
// it: YAML front matter must be the first thing in a file for its parsers
// to see it, so blank lines before it go.
func frontFirst(front string) string {
	return strings.TrimLeft(front, "\n")
}
