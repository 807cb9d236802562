package merge

import (
	"fmt"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
)

// A merged document that holds one topic twice — "Risks" appended beside
// the base's "Risks", two "Milestone" sections under one parent, or "Key
// Risks" beside "Risks & Mitigations" — states two versions of the same
// thing, which no reader can reconcile. Validation fails it: sections of
// the same level under the same parent must not name the same topic.
// Titles equal up to case, spacing and numbering always do; a host that
// knows more (the step-1 topic alignment, a model) supplies a
// [TopicMatcher] for the rest.

// RuleDuplicate is the structural rule against one topic twice.
const RuleDuplicate = "duplicate-topic"

// TopicMatcher decides whether two section titles name the same topic.
// It is asked only about sections of the same level under the same parent
// whose normalised titles differ.
type TopicMatcher interface {
	SameTopic(a, b string) bool
}

// TopicMatcherFunc adapts a function to [TopicMatcher].
type TopicMatcherFunc func(a, b string) bool

// SameTopic calls f(a, b).
func (f TopicMatcherFunc) SameTopic(a, b string) bool { return f(a, b) }

// WithTopicMatcher adds a host's judgement of which section titles name
// the same topic to the duplicate-topic check. Default: none; titles equal
// up to case, spacing and numbering are duplicates anyway. For both
// mergers.
func WithTopicMatcher(m TopicMatcher) Option {
	return option(func(c *config) { c.topics = m })
}

// duplicateTopics lists the sections of d that repeat a topic of an
// earlier sibling of the same level. Titles are normalised once and
// looked up by parent and level, so the check stays linear; a host's
// matcher is asked only about siblings.
func duplicateTopics(d *diff.Document, m TopicMatcher) []Problem {
	type place struct{ parent, level int }
	first := map[place]map[string]int{} // normalised title → first section
	siblings := map[place][]int{}
	var out []Problem
	for i, s := range d.Sections {
		if s.Depth == 0 {
			continue
		}
		at := place{s.Parent, s.Level}
		if first[at] == nil {
			first[at] = map[string]int{}
		}
		key := normTitle(refs.StripNumber(s.Title))
		j, dup := first[at][key]
		if !dup && m != nil {
			for _, k := range siblings[at] {
				if m.SameTopic(d.Sections[k].Title, s.Title) {
					j, dup = k, true
					break
				}
			}
		}
		if dup {
			p := d.Sections[j]
			out = append(out, Problem{Rule: RuleDuplicate, Line: s.Line, Heading: s.Title,
				Detail: fmt.Sprintf("%q repeats the topic of %q (line %d)", s.Title, p.Title, p.Line)})
		} else {
			first[at][key] = i
		}
		siblings[at] = append(siblings[at], i)
	}
	return out
}
