package merge

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
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
	var why []string
	neutral := neutralTitle(raw, personas)
	if neutral != raw {
		why = append(why, "it named one variant's perspective over merged content")
	}
	plain := neutralTitle(title.title, personas)
	if t, dropped := dropReplacedParts(neutral, r.in.Plan.Amendments); len(dropped) > 0 {
		neutral = t
		plain, _ = dropReplacedParts(plain, r.in.Plan.Amendments)
		why = append(why, fmt.Sprintf("%s stated the base's value the merge replaced", strings.Join(dropped, ", ")))
	}
	if len(why) == 0 {
		return
	}
	title.heading = atxHeading(1, neutral)
	title.title = plain
	title.markModified("title neutralised: " + strings.Join(why, "; "))
}

// titleListRE splits a title into the parts of its list: "Background
// Subprocess, Sidecar-Only, Opt-in Flag".
var titleListRE = regexp.MustCompile(`,[ \t]+|[ \t]+(?:--|—|–|\|)[ \t]+`)

// dropReplacedParts removes from a title the parts that state a value
// the plan replaced in the base's own text: a proposal's title that lists
// its choices ("…, Sidecar-Only, …") would otherwise name a choice the
// merged document no longer makes. A part goes when all its words are in
// an amendment's old text and not all in its new one. One part at least
// stays; the parts removed are returned.
func dropReplacedParts(title string, amendments []Amendment) (string, []string) {
	seps := titleListRE.FindAllStringIndex(title, -1)
	if len(seps) == 0 || len(amendments) == 0 {
		return title, nil
	}
	type part struct{ text, sep string }
	var parts []part
	at := 0
	for _, s := range seps {
		parts = append(parts, part{text: title[at:s[0]], sep: title[s[0]:s[1]]})
		at = s[1]
	}
	parts = append(parts, part{text: title[at:]})
	replaced := func(p string) bool {
		w := titleWords(p)
		if len(w) == 0 {
			return false
		}
		for _, a := range amendments {
			old, nw := titleWords(a.Old), titleWords(a.New)
			if subset(w, old) && !subset(w, nw) {
				return true
			}
		}
		return false
	}
	var kept []part
	var dropped []string
	for _, p := range parts {
		if replaced(p.text) {
			dropped = append(dropped, strconv.Quote(strings.TrimSpace(p.text)))
			continue
		}
		kept = append(kept, p)
	}
	if len(dropped) == 0 || len(kept) == 0 {
		return title, nil
	}
	var b strings.Builder
	for i, p := range kept {
		b.WriteString(p.text)
		if i < len(kept)-1 {
			// the separator that followed it, or the last one kept
			sep := p.sep
			if sep == "" {
				sep = ", "
			}
			b.WriteString(sep)
		}
	}
	return b.String(), dropped
}

// titleWords returns the lower-case words of s, letters and digits.
func titleWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		out[w] = true
	}
	return out
}

func subset(a, b map[string]bool) bool {
	for w := range a {
		if !b[w] {
			return false
		}
	}
	return true
}

// frontFirst returns the front matter as the merged document opens with
// it: YAML front matter must be the first thing in a file for its parsers
// to see it, so blank lines before it go.
func frontFirst(front string) string {
	return strings.TrimLeft(front, "\n")
}
