package diff

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/internal/words"
)

// Items across variants: what identifies an item — its ids, citations
// and the significant words of its title — and where in its document it
// sits.

// fldItemKey is what identifies an item across variants: its ids and the
// significant words of its title.
type fldItemKey struct {
	header  bool
	ids     []fldItemID
	refs    []string // file:line citations, "models.py:218-228", that identify the item
	allRefs []string // every citation in the title
	fams    []string // the prefixes of every id in the title, identifying or not
	words   words.Set
	// toks is tokens() when the key has ids or citations, made once with
	// the key: keys are shared by every field of their item (and through
	// the field cache by the variants), and each matching read them.
	toks []string
}

type fldItemID struct {
	prefix string // lower-cased: "delta", "d", "nr", "risk", "task"; "" for a bare number
	num    []int  // 2.1 → [2 1]
}

var (
	fldIDRE      = regexp.MustCompile(`\b([A-Za-z]{1,12})(?:[- ]?)(\d+(?:\.\d+)*)\b|\b([A-Za-z]{1,8})-([A-Za-z]{2,8})-(\d+)\b`)
	fldParenIDRE = regexp.MustCompile(`\((\d+(?:\.\d+)+)\)`)
	fldCodeRefRE = regexp.MustCompile(`[\w./-]+\.[a-z]{1,5}:\d+(?:-\d+)?`)
	fldOutlineRE = regexp.MustCompile(`^(?:§\s*)?\d+(?:\.\d+)*[.)]?\s+`)
)

// fldIDStop are words that precede a number without making an id of it.
var fldIDStop = map[string]bool{"line": true, "lines": true, "of": true, "to": true, "and": true, "or": true,
	"v": true, "x": true, "at": true, "by": true, "in": true, "on": true, "the": true, "a": true, "py": true, "md": true}

func newFldItemKey(item string) fldItemKey {
	if strings.TrimSpace(item) == "" {
		return fldItemKey{header: true}
	}
	s := fldPlain(item)
	var k fldItemKey
	for _, r := range fldCodeRefRE.FindAllString(s, -1) {
		k.refs = append(k.refs, strings.ToLower(r))
		k.allRefs = append(k.allRefs, strings.ToLower(r))
	}
	s = fldCodeRefRE.ReplaceAllString(s, " ")
	s = fldOutlineRE.ReplaceAllString(s, "")
	for _, m := range fldParenIDRE.FindAllStringSubmatch(s, -1) {
		k.ids = append(k.ids, fldItemID{num: fldParseNum(m[1])})
	}
	s = fldParenIDRE.ReplaceAllString(s, " ")
	rest := s
	for _, m := range fldIDRE.FindAllStringSubmatchIndex(s, -1) {
		if m[2] >= 0 {
			p := strings.ToLower(s[m[2]:m[3]])
			if fldIDStop[p] || len(p) > 8 {
				continue
			}
			k.ids = append(k.ids, fldItemID{prefix: p, num: fldParseNum(s[m[4]:m[5]])})
			k.fams = append(k.fams, p)
		} else {
			p := strings.ToLower(s[m[6]:m[7]] + "-" + s[m[8]:m[9]])
			k.ids = append(k.ids, fldItemID{prefix: p, num: fldParseNum(s[m[10]:m[11]])})
			k.fams = append(k.fams, p)
		}
		rest = strings.Replace(rest, s[m[0]:m[1]], " ", 1)
	}
	ws := fldWords(rest)
	k.words = ws
	if len(k.ids) > 0 || len(k.refs) > 0 {
		k.toks = k.makeTokens()
	}
	return k
}

func fldParseNum(s string) []int {
	var out []int
	for _, p := range strings.Split(s, ".") {
		n, _ := strconv.Atoi(p)
		out = append(out, n)
	}
	return out
}

// hasFamilyID reports whether the key has an id with a prefix ("Task 2.1"),
// not only a bare number.
func (k *fldItemKey) hasFamilyID() bool {
	for _, id := range k.ids {
		if id.prefix != "" {
			return true
		}
	}
	return false
}

// tokens are what an item key can be found by: its words, id numbers and
// citations; the document's header is found by the header.
//
// The result may be k's own words (when it has nothing else), so callers
// only read it.
func (k *fldItemKey) tokens() []string {
	switch {
	case k.header:
		return headerTokens
	case len(k.ids) == 0 && len(k.refs) == 0:
		return []string(k.words)
	case k.toks != nil:
		return k.toks
	}
	return k.makeTokens()
}

// makeTokens is tokens of a key with ids or citations, made afresh.
func (k *fldItemKey) makeTokens() []string {
	out := slices.Clone([]string(k.words))
	for _, id := range k.ids {
		parts := make([]string, len(id.num))
		for i, n := range id.num {
			parts[i] = strconv.Itoa(n)
		}
		out = append(out, "#"+strings.Join(parts, "."))
	}
	for _, r := range k.refs {
		out = append(out, "@"+r)
	}
	return out
}

// headerTokens are the tokens of the document's header as an item key.
var headerTokens = []string{"^header"}

// fldIDKey writes an id as fmt.Sprint does ("{delta [2 1]}"), without
// reflection: uniqueIDs counts the items that share it.
func fldIDKey(id fldItemID) string {
	b := make([]byte, 0, len(id.prefix)+4+4*len(id.num))
	b = append(b, '{')
	b = append(b, id.prefix...)
	b = append(b, " ["...)
	for i, n := range id.num {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	b = append(b, "]}"...)
	return string(b)
}

// fldIDMatch compares two items' ids: 1 when some id of one is an id of
// the other ("Delta 2.1", "D2.1" and "(2.1)"; "RISK-004" and "Risk 4"),
// -1 when both have an id of one family and they differ, -2 when their
// ids are of different families ("SY-1" and "Step 2": items of two
// different lists) or they cite different places, 0 otherwise.
func fldIDMatch(a, b *fldItemKey) int {
	if len(a.fams) > 0 && len(b.fams) > 0 {
		related := false
		for _, x := range a.fams {
			for _, y := range b.fams {
				related = related || fldPrefixCompatible(x, y)
			}
		}
		if !related {
			return -2
		}
	}
	result := 0
	for _, x := range a.ids {
		for _, y := range b.ids {
			if !fldPrefixCompatible(x.prefix, y.prefix) {
				continue
			}
			if slices.Equal(x.num, y.num) {
				return 1
			}
			if x.prefix != "" && y.prefix != "" {
				result = -1
			}
		}
	}
	for _, r := range a.refs {
		if slices.Contains(b.refs, r) {
			return 1
		}
	}
	if result == 0 && len(a.allRefs) > 0 && len(b.allRefs) > 0 {
		shared := false
		for _, r := range a.allRefs {
			shared = shared || slices.Contains(b.allRefs, r)
		}
		if !shared {
			return -2 // two different citations
		}
	}
	return result
}

func fldPrefixCompatible(a, b string) bool {
	if a == "" || b == "" {
		return true
	}
	return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}

// fldWords is the significant words of a title, lightly stemmed.
func fldWords(s string) words.Set {
	var ws words.Set
	// "lease/heartbeat" names two things; "gate_states" one.
	words.Each(strings.ReplaceAll(s, "/", " "), func(w string) {
		if words.IsStopWord(w) || fldMinorWords[w] || fldNumeral(w) {
			return
		}
		ws = append(ws, fldStem(w))
	})
	slices.Sort(ws)
	return slices.Compact(ws)
}

// fldMinorWords carry no topic in an item's title, beyond the stop words.
var fldMinorWords = map[string]bool{"during": true, "after": true, "before": true, "without": true, "within": true,
	"when": true, "across": true, "per": true, "not": true, "no": true, "over": true, "under": true, "between": true,
	"while": true, "than": true, "too": true, "all": true, "any": true, "line": true, "lines": true}

// fldStem is a light suffix stripper for matching item titles: "failure",
// "fails" and "failing" meet at "fail", "parser" and "parsing" at "pars".
func fldStem(w string) string {
	w = words.Stem(strings.ToLower(w))
	for _, suf := range []string{"ations", "ation", "ition", "ments", "ment", "ness", "ings", "ing", "ures", "ure", "ages", "age", "ions", "ion", "ed", "er", "es"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// fldContext is the words of the titles of the sections an item sits in
// (its own title excluded when the item is its section), below the
// document's title: where in the document the item is.
func fldContext(d *Document, f Field) words.Set {
	var b strings.Builder
	s := f.Section
	if f.Form != FormTable && s >= 0 {
		s = d.Sections[s].Parent // the item is the section itself
	}
	for ; s >= 0 && d.Sections[s].Depth > 0; s = d.Sections[s].Parent {
		b.WriteString(d.Sections[s].Title + " ")
	}
	return fldWords(b.String())
}
