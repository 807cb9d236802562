package scoring

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/internal/words"
)

// Reference is what requirement coverage (RC) measures every variant
// against: requirement ids when there are any, else the topics that carry
// requirements.
//
// In Mode B it comes from the source: its requirement ids (FR-001, NFR-12,
// R-7, REQ-3.1, …) with their descriptions or, when the source has no ids,
// its top-level sections that state something (not a table of contents,
// glossary, change log or an empty heading) as topics. In Mode A there is
// no separate source, so the reference is the union of what the variants
// share: the requirement ids of schemes at least two variants use, or —
// when there are none — the topics of the step 1 alignment that some
// variant's section gives content to. A variant then scores 1.0 when it
// covers everything any competitor covers.
//
// "PREFIX-number" is only a requirement id when it is one: names of
// standards, hashes and encodings (SHA-256, ISO-8601, UTF-8, RFC-9110)
// never are, and neither is a lone number-like token that no other id
// shares a prefix with and nothing defines ("phase N-1", "see UC-2").
// Heading counts are not requirements either: the topics are matched, not
// tallied.
type Reference struct {
	// From is "source" (Mode B) or "variants" (Mode A, the union).
	From string `json:"from"`
	// ByTopic is set when the reference has no requirement ids and holds
	// section-level topics instead.
	ByTopic bool `json:"by_topic,omitempty"`
	// Aligned is set when the topics come from the step 1 alignment
	// (Input.Analysis, Mode A): each item then names the variants whose
	// aligned section carries it, and coverage is read from the alignment
	// instead of from matching titles.
	Aligned bool          `json:"aligned,omitempty"`
	Items   []Requirement `json:"items"`
}

// Requirement is one item of the [Reference]: a requirement id and its
// description, or (ID empty) a section-level topic.
type Requirement struct {
	ID   string `json:"id,omitempty"` // upper case: "FR-001"
	Text string `json:"text"`         // the description, or the topic's title
	// Sections, for a topic of the step 1 alignment, maps the label of
	// each variant that covers the topic to the index of its section.
	Sections map[string]int `json:"sections,omitempty"`
}

// unit returns what the reference counts, for metric details.
func (r Reference) unit() string {
	if r.ByTopic {
		return "topics"
	}
	return "requirements"
}

// Reference sources.
const (
	FromSource   = "source"
	FromVariants = "variants"
)

// topicOverlap is the word overlap at which two titles name the same topic
// (the diff step's threshold).
const topicOverlap = 0.6

// buildReference derives the reference from the source, or from the union
// of the variants when there is none. vs carry their labels; an, when it
// aligns exactly these variants, supplies the Mode A topics.
func buildReference(source *diff.Document, vs []Variant, an *diff.Analysis) Reference {
	if source != nil {
		ref := Reference{From: FromSource, Items: requirementIDs([]*diff.Document{source}, 1)}
		if len(ref.Items) == 0 {
			ref.ByTopic = true
			ref.Items = topicsOf([]*diff.Document{source}, true)
		}
		return ref
	}
	docs := documents(vs)
	ref := Reference{From: FromVariants, Items: requirementIDs(docs, 2)}
	if len(ref.Items) > 0 {
		return ref
	}
	ref.ByTopic = true
	if items, ok := alignedTopics(vs, an, true); ok {
		ref.Aligned, ref.Items = true, items
		return ref
	}
	ref.Items = topicsOf(docs, true)
	return ref
}

// requirementIDs returns the requirement ids of docs in order of first
// mention, each with its description: where some document defines the id
// (a heading, list item or table row that opens with it), the rest of that
// text, else the text of its first mention.
//
// An id counts when its prefix is not a standard's (see terms.go), at least
// minDocs of the documents use its prefix — in Mode A an id scheme only one
// variant uses is that variant's own numbering, not a requirement the
// variants share — and it belongs to a scheme: some document defines it,
// another id shares its prefix, or its number is structured ("001",
// "3.1").
func requirementIDs(docs []*diff.Document, minDocs int) []Requirement {
	type entry struct {
		Requirement
		defined bool
	}
	var order []*entry
	byID := map[string]*entry{}
	prefixDocs := map[string]map[int]bool{}
	prefixIDs := map[string]map[string]bool{}
	for di, d := range docs {
		for _, m := range mentionsOf(d) {
			if isStandardPrefix(m.ID) {
				continue
			}
			p := idPrefix(m.ID)
			if prefixDocs[p] == nil {
				prefixDocs[p], prefixIDs[p] = map[int]bool{}, map[string]bool{}
			}
			prefixDocs[p][di] = true
			prefixIDs[p][m.ID] = true
			e := byID[m.ID]
			if e == nil {
				e = &entry{Requirement: m.Requirement, defined: m.defined}
				byID[m.ID] = e
				order = append(order, e)
			} else if m.defined && !e.defined {
				e.Text, e.defined = m.Text, true
			}
		}
	}
	var out []Requirement
	for _, e := range order {
		p := idPrefix(e.ID)
		if len(prefixDocs[p]) >= minDocs && (e.defined || len(prefixIDs[p]) >= 2 || structuredNumber(e.ID)) {
			out = append(out, e.Requirement)
		}
	}
	return out
}

// idPrefix returns the letters of an id: "FR" of "FR-001".
func idPrefix(id string) string {
	p, _, _ := strings.Cut(id, "-")
	return p
}

// structuredNumber reports an id numbered as schemes number their items:
// zero-padded ("FR-001") or with sub-numbers ("REQ-3.1").
func structuredNumber(id string) bool {
	_, n, _ := strings.Cut(id, "-")
	return strings.Contains(n, ".") || (len(n) >= 2 && n[0] == '0')
}

// mention is a requirement id as a document uses it.
type mention struct {
	Requirement
	defined bool // some heading, list item or table row opens with the id
	offset  int  // where the id is first mentioned: the id itself, not its block
}

// mentionsOf returns the requirement ids the document mentions, found
// once per document: the reference (built by Prepare and again by Score)
// and two rubric tests ask. Callers must not change the slice.
func mentionsOf(d *diff.Document) []mention {
	return d.Memo(mentionsKey{}, func() any { return findMentions(d) }).([]mention)
}

// mentionsKey memoises a document's mentions.
type mentionsKey struct{}

func findMentions(d *diff.Document) []mention {
	var out []mention
	at := map[string]int{}
	// span is the source of the heading or block; the id's offset in it
	// is where a citation of the mention points.
	visit := func(text string, cells []string, span diff.Span) {
		if strings.IndexByte(text, '-') < 0 {
			return
		}
		for _, id := range lexicon.RequirementIDs(text) {
			key := strings.ToUpper(id)
			desc, def := describe(text, cells, id)
			if i, ok := at[key]; ok {
				if def && !out[i].defined {
					out[i].Text, out[i].defined = desc, true
				}
				continue
			}
			off := span.Start
			if i := indexFold(d.Text(span), id); i >= 0 {
				off += i
			}
			at[key] = len(out)
			out = append(out, mention{Requirement: Requirement{ID: key, Text: desc}, defined: def, offset: off})
		}
	}
	walkText(d, func(si, bi int) {
		if si >= 0 {
			visit(d.Sections[si].Title, nil, d.Sections[si].Heading)
		} else if b := &d.Blocks[bi]; b.Kind != diff.Code && !b.Header {
			visit(b.Text, b.Cells, b.Span)
		}
	})
	return out
}

// walkText calls f for every section heading (with its index as si, bi
// -1) and every block (si -1, bi its index), in document order.
func walkText(d *diff.Document, f func(si, bi int)) {
	si, bi := 0, 0
	for si < len(d.Sections) || bi < len(d.Blocks) {
		if bi == len(d.Blocks) || (si < len(d.Sections) && d.Sections[si].Span.Start <= d.Blocks[bi].Span.Start) {
			f(si, -1)
			si++
			continue
		}
		f(-1, bi)
		bi++
	}
}

// describe returns the description of id in text and whether text defines
// it: the id opens the text (or the first table cell is the id).
func describe(text string, cells []string, id string) (string, bool) {
	if len(cells) > 1 && strings.EqualFold(strings.TrimSpace(cells[0]), id) {
		return strings.TrimSpace(strings.Join(cells[1:], " ")), true
	}
	t := strings.TrimLeft(text, " *_[(")
	if len(t) >= len(id) && strings.EqualFold(t[:len(id)], id) {
		return strings.TrimSpace(strings.TrimLeft(t[len(id):], " :-–—.)]|*_")), true
	}
	return strings.TrimSpace(text), false
}

// reNoRequirements matches the titles of sections that carry no
// requirements of their own: navigation, glossaries, references, change
// logs, document metadata.
var reNoRequirements = regexp.MustCompile(`(?i)^(?:table of )?contents$|^toc$|glossary|^index$|^references?$|bibliography|changelog|change log|revision history|document (?:history|control|metadata)|^metadata$|^approvals?$|sign-?off`)

// bearsContent reports whether section si of d states something: a
// paragraph, list item, table row or code block in it or its subsections
// that is not a table header, metadata line or table-of-contents entry.
// A heading with nothing under it is a tally, not a topic.
func bearsContent(d *diff.Document, si int) bool {
	span := d.Sections[si].Span
	// d.BlocksIn(span), by index into boilerplateBlocks.
	bp := boilerplateBlocks(d)
	first := sort.Search(len(d.Blocks), func(i int) bool { return d.Blocks[i].Span.Start >= span.Start })
	for i := first; i < len(d.Blocks) && d.Blocks[i].Span.End <= span.End; i++ {
		if !d.Blocks[i].Header && !bp[i] {
			return true
		}
	}
	return false
}

// topicsOf returns the top-level section titles of docs, numbers stripped,
// merging titles that name the same topic; tables of contents and sections
// without content are not topics, nor — when requirements is set — the
// sections that carry no requirements (glossary, references, change log).
func topicsOf(docs []*diff.Document, requirements bool) []Requirement {
	var out []Requirement
	var sets []words.Set
	for _, d := range docs {
		for _, i := range d.TopLevel() {
			title := refs.StripNumber(d.Sections[i].Title)
			if isContents(title) || strings.TrimSpace(title) == "" || !bearsContent(d, i) ||
				(requirements && reNoRequirements.MatchString(strings.TrimSpace(title))) {
				continue
			}
			set := words.NewSet(title)
			dup := false
			for j, s := range sets {
				if sameTopic(title, set, out[j].Text, s) {
					dup = true
					break
				}
			}
			if !dup {
				out = append(out, Requirement{Text: title})
				sets = append(sets, set)
			}
		}
	}
	return out
}

// alignedTopics returns the topics of the step 1 alignment that are a
// top-level section of at least one variant, each with the variants that
// cover it — those whose aligned section, at any depth, bears content. A
// subsection only one variant has ("Key Actions" under each of its
// phases) is that variant's structure, not a topic the others lack: the
// others state the same under the enclosing topic. ok is false when an
// does not align exactly these variants (nil, another count, other
// documents), and the caller falls back to matching titles. With
// requirements set, topics that carry no requirements (glossary,
// references, change log) are left out.
func alignedTopics(vs []Variant, an *diff.Analysis, requirements bool) (items []Requirement, ok bool) {
	if !alignsVariants(vs, an) {
		return nil, false
	}
	top := make([][]bool, len(vs))
	for v, x := range vs {
		top[v] = make([]bool, len(x.Doc.Sections))
		for _, si := range x.Doc.TopLevel() {
			top[v][si] = true
		}
	}
	for _, t := range an.Topics {
		title := strings.TrimSpace(refs.StripNumber(t.Title))
		if !t.Compared || title == "" || isContents(title) || (requirements && reNoRequirements.MatchString(title)) {
			continue
		}
		topLevel := false
		for v, si := range t.Sections {
			topLevel = topLevel || (si >= 0 && top[v][si])
		}
		if !topLevel {
			continue
		}
		secs := map[string]int{}
		for v, si := range t.Sections {
			if si >= 0 && bearsContent(vs[v].Doc, si) {
				secs[vs[v].Label] = si
			}
		}
		if len(secs) > 0 {
			items = append(items, Requirement{Text: title, Sections: secs})
		}
	}
	return items, true
}

// alignsVariants reports whether an is the step 1 analysis of exactly vs,
// in order: same count, same document names, section indices in range.
func alignsVariants(vs []Variant, an *diff.Analysis) bool {
	if an == nil || len(an.Variants) != len(vs) {
		return false
	}
	for i, v := range an.Variants {
		if v.Name != vs[i].Doc.Name {
			return false
		}
	}
	for _, t := range an.Topics {
		if len(t.Sections) != len(vs) {
			return false
		}
		for v, si := range t.Sections {
			if si >= len(vs[v].Doc.Sections) {
				return false
			}
		}
	}
	return true
}

// sectionsKey renders an item's aligned sections for referenceKey.
func sectionsKey(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	labels := make([]string, 0, len(m))
	for l := range m {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	var b strings.Builder
	for _, l := range labels {
		b.WriteString("," + l + "=" + strconv.Itoa(m[l]))
	}
	return b.String()
}

func sameTopic(a string, as words.Set, b string, bs words.Set) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) || as.Dice(bs) >= topicOverlap
}

// isContents reports whether a section title names a table of contents.
func isContents(title string) bool {
	t := strings.TrimSpace(refs.StripNumber(title))
	if len(t) != len("toc") && len(t) != len("contents") && len(t) != len("table of contents") {
		// Lower-casing keeps the length of ASCII text, and shortens no
		// other text to an ASCII word: a title of another length is
		// none of the three, and need not be lower-cased.
		if isASCII(t) || len(t) < len("toc") {
			return false
		}
	}
	switch strings.ToLower(t) {
	case "contents", "table of contents", "toc":
		return true
	}
	return false
}
