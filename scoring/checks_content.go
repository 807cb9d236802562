package scoring

import (
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/lexicon"
)

// checkRequirements (CMP-1): every item of the reference — the source's
// requirements, or in Mode A the union of the variants' — is covered, as
// requirement coverage measures it (id, three-word run, or topic). NOT MET
// names what is missing and cites nothing: absence has no line.
func checkRequirements(w *view) result {
	ref := w.req.Reference
	if len(ref.Items) == 0 {
		return result{note: "The reference holds no requirements or topics to cover"}
	}
	c := cover(w.d, w.v.Label, ref, nil)
	note := fmt.Sprintf("%d/%d %s of the %s covered", c.matched, len(ref.Items), ref.unit(), referenceName(ref))
	if c.matched < len(ref.Items) {
		// What is missing has no line to quote; a covered item's line
		// would cite the opposite of the verdict.
		return result{note: fmt.Sprintf("%s; missing: %s — searched sections %s", note, joinMax(c.unmatched, 5), w.searched())}
	}
	if c.first < 0 {
		return result{note: note}
	}
	return result{met: true, cites: []Citation{w.citeAt(c.first)}, note: note}
}

func referenceName(r Reference) string {
	if r.From == FromSource {
		return "source"
	}
	return "variants' union"
}

// joinMax joins up to n items, then "…".
func joinMax(items []string, n int) string {
	if len(items) > n {
		return strings.Join(items[:n], ", ") + ", …"
	}
	return strings.Join(items, ", ")
}

// checkEdgeCases (CMP-2): at least two lines deal with edge cases or
// failures (failure, error, timeout, invalid, fallback, outage, …).
func checkEdgeCases(w *view) result {
	return lineTest(reEdgeCases, 2, "edge cases or failure scenarios")(w)
}

// checkDependencies (CMP-3): a line or heading names dependencies or
// prerequisites ("depends on", "prerequisite", "requires", "blocked by").
func checkDependencies(w *view) result {
	return lineTest(reDependencies, 1, "dependencies or prerequisites")(w)
}

// checkSuccessCriteria (CMP-4): success, acceptance, completion or exit
// criteria, a definition of done, success metrics or KPIs.
func checkSuccessCriteria(w *view) result {
	return lineTest(reSuccess, 1, "success or completion criteria")(w)
}

// checkOutOfScope (CMP-5): an explicit out-of-scope statement: "out of
// scope", "non-goals", "will not support …", "is excluded".
func checkOutOfScope(w *view) result {
	return lineTest(reOutOfScope, 1, "out-of-scope statements")(w)
}

// checkNoHallucination (COR-1): the variant makes scorable claims, every
// requirement id it mentions is defined in it, in the source or in the
// reference (an id
// defined nowhere is an invented requirement; names of standards such as
// UTF-8 or SHA-256, and lone ids outside any scheme, are not requirement
// ids — see Reference), and — in Mode B — none of
// its claims contradicts the source. Offline, facts outside the source
// cannot be checked; this is what can.
func checkNoHallucination(w *view) result {
	w.analyse()
	if len(w.claims) == 0 {
		return result{note: "No scorable claims to check"}
	}
	defined := map[string]bool{}
	// In Mode A the reference holds the ids of schemes the variants share:
	// an id the other variants use too is corroborated, not invented.
	for _, it := range w.req.Reference.Items {
		if it.ID != "" {
			defined[it.ID] = true
		}
	}
	if w.req.Source != nil {
		for _, m := range mentionsOf(w.req.Source) {
			defined[m.ID] = true
		}
	}
	ms := mentionsOf(w.d)
	siblings := map[string]int{}
	for _, m := range ms {
		siblings[idPrefix(m.ID)]++
	}
	for _, m := range ms {
		// "SHA-256" names a standard, and a lone "N-1" or "UC-2" that no
		// other id shares a prefix with is no claim to a requirement
		// scheme: neither can be an invented requirement.
		if isStandardPrefix(m.ID) || (siblings[idPrefix(m.ID)] < 2 && !structuredNumber(m.ID)) {
			continue
		}
		if !m.defined && !defined[m.ID] {
			return result{cites: []Citation{w.citeAt(m.offset)},
				note: fmt.Sprintf("Cites %s, which neither the variant nor the source defines", m.ID)}
		}
	}
	if w.req.Source != nil {
		cs, err := diff.DetectContradictions(w.ctx, w.req.Source, w.d)
		if err != nil {
			w.err = err
			return result{}
		}
		for _, c := range cs {
			if c.Scope() != diff.CrossVariant {
				continue
			}
			for _, cl := range c.Claims {
				if cl.Variant == 1 {
					return result{cites: []Citation{w.citeClaim(cl)},
						note: fmt.Sprintf("Contradicts the source on %s: %s", c.Subject, c.Reason)}
				}
			}
		}
	}
	note := fmt.Sprintf("%d claims checked; every requirement id cited is defined", len(w.claims))
	if w.req.Source != nil {
		note += "; none contradicts the source"
	}
	return result{met: true, cites: []Citation{w.citeClaim(w.claims[0])}, note: note}
}

// checkFeasible (COR-2): the variant states constraints or requirements
// and none is made impossible by another — no requirement–constraint
// conflict and no dependency cycle among its claims.
func checkFeasible(w *view) result {
	w.analyse()
	for _, c := range w.contras {
		if c.Kind == diff.RequirementConstraint || c.Kind == diff.DependencyCycle {
			return result{cites: []Citation{w.citeClaim(c.Claims[0]), w.citeClaim(c.Claims[len(c.Claims)-1])},
				note: fmt.Sprintf("Infeasible: %s (%s)", c.Subject, c.Reason)}
		}
	}
	var stated []diff.Claim
	for _, c := range w.claims {
		if c.Type == diff.Constraint || c.Type == diff.Requirement {
			stated = append(stated, c)
		}
	}
	if len(stated) == 0 {
		return result{note: "States no constraints or requirements to check feasibility against"}
	}
	return result{met: true, cites: []Citation{w.citeClaim(stated[0])},
		note: fmt.Sprintf("%d requirements and constraints; no requirement–constraint conflict or dependency cycle", len(stated))}
}

// checkTerminology (COR-3): terms recur, and consistently: no technology
// is written two ways ("Postgres" and "PostgreSQL") and no acronym is
// expanded two ways.
func checkTerminology(w *view) result {
	terms := map[string]*termUse{}
	var order []string
	note := func(name, spelling string, l line) {
		u := terms[name]
		if u == nil {
			u = &termUse{spellings: map[string]bool{}}
			terms[name] = u
			order = append(order, name)
		}
		if !u.spellings[spelling] {
			u.firsts = append(u.firsts, l)
		}
		u.spellings[spelling] = true
		if n := len(u.lines); n == 0 || u.lines[n-1].no != l.no {
			u.lines = append(u.lines, l)
		}
	}
	for _, l := range w.lines {
		eachTermWord(l.text, func(word string) {
			if t, ok := lexicon.Technology(word); ok {
				note(t.Name, strings.ToLower(word), l)
			}
		})
	}
	for _, d := range acronymDefinitions(w) {
		note(d.acronym, strings.ToLower(d.expansion), d.line)
	}
	for _, name := range order {
		u := terms[name]
		if len(u.spellings) > 1 {
			// The first line of each spelling shows the flaw; the first two
			// uses may well share one spelling.
			return result{cites: w.cites(u.firsts, 2),
				note: fmt.Sprintf("%s is written %d ways: %s", name, len(u.spellings), strings.Join(sortedKeys(u.spellings), ", "))}
		}
	}
	for _, name := range order {
		if u := terms[name]; len(u.lines) >= 2 {
			return result{met: true, cites: w.cites(u.lines, 2),
				note: fmt.Sprintf("%d terms used consistently; %s recurs at %s", len(order), name, lineList(u.lines, 5))}
		}
	}
	return result{note: "No technical term or defined acronym recurs, so consistency cannot be shown"}
}

// termUse is how a variant writes one term.
type termUse struct {
	spellings map[string]bool
	lines     []line // every line using the term
	firsts    []line // the first line of each spelling, in order
}

func notWordRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '+' || r == '#')
}

// eachTermWord calls f with each of strings.FieldsFunc(s, notWordRune),
// in order, without building the slice (checkTerminology splits every
// line). The word characters are ASCII, so each byte of a multi-byte rune
// separates words as the rune does.
func eachTermWord(s string, f func(string)) {
	for i := 0; i < len(s); {
		if !isTermByte(s[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && isTermByte(s[j]) {
			j++
		}
		f(s[i:j])
		i = j
	}
}

// isTermByte is !notWordRune for an ASCII byte, false for any byte of a
// multi-byte rune.
func isTermByte(c byte) bool {
	return c < 0x80 && !notWordRune(rune(c))
}

// checkNoContradictions (COR-4): the variant makes claims and the
// contradiction detectors of the IC metric find none among them.
func checkNoContradictions(w *view) result {
	w.analyse()
	if len(w.contras) > 0 {
		c := w.contras[0]
		var cites []Citation
		for _, cl := range c.Claims {
			cites = append(cites, w.citeClaim(cl))
		}
		return result{cites: cites, note: fmt.Sprintf("%d internal contradiction(s); first: %s (%s)", len(w.contras), c.Subject, c.Reason)}
	}
	if len(w.claims) == 0 {
		return result{note: "No scorable claims"}
	}
	return result{met: true, cites: []Citation{w.citeClaim(w.claims[0])},
		note: fmt.Sprintf("No contradiction among %d scorable claims (IC 1.00)", len(w.claims))}
}

// checkRationale (COR-5): claims come with reasons: at least two lines
// give a rationale ("because", "so that", "due to", "based on", a citation
// or a link), or a section is headed Rationale or Justification.
func checkRationale(w *view) result {
	if hs := w.headingsMatching(reRationaleH); len(hs) > 0 {
		return w.found(hs, "A section gives the rationale")
	}
	return lineTest(reRationale, 2, "rationale or evidence")(w)
}
