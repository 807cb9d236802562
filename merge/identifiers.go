package merge

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/crucible-go/crucible/diff"
)

// Text a change imports may use names its variant defines elsewhere — a
// test fixture, a constant, a helper — in a section the merge did not
// bring. The merged document then mentions something it never defines.
// Validation reports each such name with where its variant defines it, so
// a reader can bring the definition or reword the text; it does not fail
// the merge, since the name may be defined outside the document.

// MissingIdentifier is a name imported text uses whose definition the
// merged document lacks.
type MissingIdentifier struct {
	Name    string     `json:"name"`
	Change  int        `json:"change"`  // the change whose text uses it
	Variant string     `json:"variant"` // the variant that defines it
	Section SectionRef `json:"section"` // where that variant defines it
}

// inlineIdent is a code span naming something: snake_case, CamelCase or
// dotted names, optionally called ("fixture_dir()", "ParseAgents").
var inlineIdent = regexp.MustCompile("`([A-Za-z_][A-Za-z0-9_.]*)(?:\\(\\))?`")

// looksDefined reports whether text defines name: a code line declaring
// or assigning it.
func looksDefined(text, name string) bool {
	q := regexp.QuoteMeta(name)
	re := regexp.MustCompile(`(?m)^\s*(?:(?:async\s+)?def|class|func|const|var|let|type|@pytest\.fixture[^\n]*\n\s*def)\s+` + q + `\b|(?m)^\s*` + q + `\s*(?::[^=\n]*)?=[^=]`)
	return re.MatchString(text)
}

var fileName = regexp.MustCompile(`\.[a-z]{1,4}$`)

// isIdentifier keeps names that are clearly code: an underscore, an
// inner capital or a dot, and at least four characters.
func isIdentifier(name string) bool {
	if len(name) < 4 {
		return false
	}
	if fileName.MatchString(name) {
		return false // a file, not something the document defines
	}
	if strings.ContainsAny(name, "_.") {
		return true
	}
	for i, r := range name {
		if i > 0 && r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

// missingIdentifiers lists, for every change, the names its text uses
// that its variant defines outside the imported section while the merged
// document defines them nowhere.
func missingIdentifiers(in Input, merged *diff.Document) []MissingIdentifier {
	if merged == nil {
		return nil
	}
	var out []MissingIdentifier
	seen := map[string]bool{}
	for _, c := range in.Plan.Changes {
		vi := slices.IndexFunc(in.Plan.Variants, func(v VariantRef) bool { return v.Label == c.Source.Variant.Label })
		if vi < 0 || vi >= len(in.Variants) || in.Variants[vi] == nil {
			continue
		}
		src := in.Variants[vi]
		for _, m := range inlineIdent.FindAllStringSubmatch(c.Source.Text, -1) {
			name := m[1]
			if seen[name] || !isIdentifier(name) || looksDefined(c.Source.Text, name) || looksDefined(merged.Source, name) {
				continue
			}
			for si, s := range src.Sections {
				body := src.Text(s.Span)
				if len(s.Children) > 0 {
					body = src.Text(diff.Span{Start: s.Span.Start, End: src.Sections[s.Children[0]].Span.Start})
				}
				if looksDefined(body, name) {
					seen[name] = true
					out = append(out, MissingIdentifier{Name: name, Change: c.Number, Variant: c.Source.Variant.Label, Section: refOf(src, si)})
					break
				}
			}
		}
	}
	return out
}

// describe words a missing identifier for merge-log.md.
func (m MissingIdentifier) describe() string {
	return fmt.Sprintf("`%s` — used by Change #%d, defined in Variant %s, %s, which the merge did not bring", m.Name, m.Change, m.Variant, m.Section)
}
