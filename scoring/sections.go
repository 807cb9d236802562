package scoring

import (
	"fmt"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/internal/words"
)

// topicCount is how many topics each variant covers, for section coverage
// (SC): what matters is which subjects a variant treats, not how many H2
// headings it has — a variant that splits one subject over four headings
// covers no more than one that treats it under one, and a roadmap whose
// phases are H1 covers as much as one whose phases are H2.
type topicCount struct {
	covered []int // per variant, in input order
	union   int   // the topics any variant covers
	most    int   // the largest of covered
	aligned bool  // the topics are the step 1 alignment's
}

// countTopics counts the topics each variant covers: with the step 1
// analysis of these variants, the aligned topics whose content the
// analysis compares, each covered by the variants whose aligned section
// bears content; without it, the union of the variants' top-level
// section topics (titles without numbers, merged at the diff step's word
// overlap), each covered by a variant with a section of that title.
func countTopics(vs []Variant, an *diff.Analysis) topicCount {
	tc := topicCount{covered: make([]int, len(vs))}
	if items, ok := alignedTopics(vs, an, false); ok {
		tc.aligned = true
		tc.union = len(items)
		for _, it := range items {
			for i, v := range vs {
				if _, ok := it.Sections[v.Label]; ok {
					tc.covered[i]++
				}
			}
		}
	} else {
		docs := documents(vs)
		topics := topicsOf(docs, false)
		tc.union = len(topics)
		for i, d := range docs {
			tc.covered[i] = titlesCovering(d, topics)
		}
	}
	for _, n := range tc.covered {
		tc.most = max(tc.most, n)
	}
	return tc
}

// titlesCovering counts the topics a section of d with content is titled
// for.
func titlesCovering(d *diff.Document, topics []Requirement) int {
	sets := make([]words.Set, len(d.Sections))
	for i, s := range d.Sections {
		sets[i] = words.NewSet(refs.StripNumber(s.Title))
	}
	n := 0
	for _, t := range topics {
		ts := words.NewSet(t.Text)
		for i, s := range d.Sections {
			if s.Depth >= 1 && sameTopic(refs.StripNumber(s.Title), sets[i], t.Text, ts) && bearsContent(d, i) {
				n++
				break
			}
		}
	}
	return n
}

// sectionCoverage is the SC metric of variant i: the topics it covers over
// the most any variant covers, so that at least one variant scores 1.0;
// 1.0 for all when no variant covers a topic.
func (tc topicCount) sectionCoverage(i int) Metric {
	of := "top-level topics"
	if tc.aligned {
		of = "aligned topics"
	}
	return ratioMetric("section_coverage", "SC", WeightSC, tc.covered[i], tc.most,
		fmt.Sprintf("%d/%d topics covered, of %d %s", tc.covered[i], tc.most, tc.union, of), "no topics in any variant", 1)
}
