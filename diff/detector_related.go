package diff

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// Related statements. A topic's request shows what the variants say in
// the sections aligned to that topic, but a variant often speaks of the
// same thing elsewhere: an executive summary names the function a finding
// section examines, a later section revises a design an earlier one
// proposed, a list of missed findings describes a type another section
// judged. Conflicts between such statements fall between two requests.
// So each topic request also carries, within its budget, the statements
// of other sections that name a distinctive identifier its own statements
// name: a code identifier (snake_case, CamelCase, a file name) or an item
// id ("NR-3") that few statements use. A common identifier (the main
// file every section mentions) links everything and so nothing.

const (
	// relatedShare bounds the related statements of a part to this share
	// of the part's own tokens (but at least relatedFloor tokens), so
	// that the topic stays what the request is about.
	relatedShare = 0.25
	relatedFloor = 400
	// maxIdentUses is how many statements may name an identifier for it
	// to count as distinctive.
	maxIdentUses = 8
)

// detIdentRE matches the identifiers that link statements across
// sections.
var detIdentRE = regexp.MustCompile(`\b(?:[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[\w-]+\.(?:py|go|md|json|ya?ml|ts|js|toml|rs|java|sh)|[A-Z]{1,6}-\d+)\b`)

// statementIdents returns the identifiers a statement names, lower-cased,
// each once.
func statementIdents(s *detStatement) []string {
	if s.kind == stmtCode {
		return nil
	}
	found := detIdentRE.FindAllString(s.text, -1)
	for i, f := range found {
		found[i] = strings.ToLower(f)
	}
	slices.Sort(found)
	return slices.Compact(found)
}

// addRelated adds to every topic part the statements of other parts that
// share a distinctive identifier with it, most shared first, within the
// part's share of room tokens. The final part is left as it is: it
// already reaches across topics.
func addRelated(docs []*Document, parts []detPart, room int) []detPart {
	idents := map[*detStatement][]string{}
	uses := map[string]int{}
	for _, p := range parts {
		for _, s := range p.stmts {
			if _, ok := idents[s]; ok {
				continue
			}
			ids := statementIdents(s)
			idents[s] = ids
			for _, id := range ids {
				uses[id]++
			}
		}
	}
	distinctive := func(id string) bool { return uses[id] >= 2 && uses[id] <= maxIdentUses }
	for i := range parts {
		p := &parts[i]
		if p.final {
			continue
		}
		own := map[*detStatement]bool{}
		names := map[string]bool{}
		for _, s := range p.stmts {
			own[s] = true
			for _, id := range idents[s] {
				if distinctive(id) {
					names[id] = true
				}
			}
		}
		if len(names) == 0 {
			continue
		}
		type candidate struct {
			s      *detStatement
			shared int
		}
		var cands []candidate
		seen := map[*detStatement]bool{}
		for j, q := range parts {
			if j == i {
				continue
			}
			for _, s := range q.stmts {
				if own[s] || seen[s] {
					continue
				}
				seen[s] = true
				n := 0
				for _, id := range idents[s] {
					if names[id] {
						n++
					}
				}
				if n > 0 {
					cands = append(cands, candidate{s, n})
				}
			}
		}
		slices.SortFunc(cands, func(a, b candidate) int {
			return cmp.Or(cmp.Compare(b.shared, a.shared), cmp.Compare(a.s.variant, b.s.variant), cmp.Compare(a.s.block, b.s.block))
		})
		budget := min(room-p.tokens, max(int(relatedShare*float64(p.tokens)), relatedFloor))
		size := 0
		for _, c := range cands {
			n := estimateTokens(renderStatements(docs, []*detStatement{c.s})) + 8 // its section line, now and then
			if size+n > budget {
				continue
			}
			p.stmts = append(p.stmts, c.s)
			p.related++
			size += n
		}
		p.tokens += size
	}
	return parts
}
