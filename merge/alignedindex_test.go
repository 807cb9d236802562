package merge

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// alignedIndexPerVariant is the per-variant pass alignedIndexes replaced:
// the reference it must agree with.
func alignedIndexPerVariant(in PlanInput, v Variant) []int {
	out := make([]int, len(v.Doc.Sections))
	for i := range out {
		out[i] = -1
	}
	for _, t := range in.Alignment {
		bi, vis := -1, []int(nil)
		for _, s := range t.Sections {
			switch s.Variant {
			case in.Base.Label:
				if i, ok := locate(in.Base.Doc, s.Section); ok && in.Base.Doc.Sections[i].Depth > 0 {
					bi = i
				}
			case v.Label:
				if i, ok := locate(v.Doc, s.Section); ok {
					vis = append(vis, i)
				}
			}
		}
		if bi < 0 {
			continue
		}
		for _, i := range vis {
			if out[i] < 0 {
				out[i] = bi
			}
		}
	}
	return out
}

// TestAlignedIndexes checks the one-pass index against the per-variant
// one on random alignments: sections found and not, topics without a base
// section or with two, a variant labelled like the base, repeated labels.
func TestAlignedIndexes(t *testing.T) {
	doc := func(name string, n int) Variant {
		var b strings.Builder
		b.WriteString("# Spec\n\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "## %d. Topic %d\n\nText %d.\n\n### %d.1 Detail %d\n\nMore.\n\n", i, i, i, i, i)
		}
		return Variant{Label: name, Doc: mustParse(t, name+".md", b.String())}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	aligned := 0
	for round := range 50 {
		in := PlanInput{Base: doc("A", 6)}
		in.Variants = []Variant{doc("B", 5), doc("C", 7), doc("A", 4), doc("D", 3)}
		if round%2 == 1 {
			in.Variants = append(in.Variants, doc("B", 8)) // a repeated label
		}
		labels := []string{"A", "B", "C", "D", "E"}
		for range 12 {
			var topic AlignedTopic
			for range 1 + rng.IntN(5) {
				ref := SectionRef{Number: fmt.Sprint(1 + rng.IntN(9)), Title: fmt.Sprintf("Topic %d", 1+rng.IntN(9))}
				if rng.IntN(3) == 0 {
					ref = SectionRef{Number: fmt.Sprintf("%d.1", 1+rng.IntN(9))}
				}
				topic.Sections = append(topic.Sections, TopicSection{Variant: labels[rng.IntN(len(labels))], Section: ref})
			}
			in.Alignment = append(in.Alignment, topic)
		}
		got := in.alignedIndexes(in.Variants)
		want := map[string][]int{}
		for _, v := range in.Variants {
			want[v.Label] = alignedIndexPerVariant(in, v)
		}
		for label, w := range want {
			for _, bi := range w {
				if bi >= 0 {
					aligned++
				}
			}
			if !slices.Equal(got[label], w) {
				t.Fatalf("round %d, variant %s: got %v, want %v", round, label, got[label], w)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("round %d: %d indexes, want %d", round, len(got), len(want))
		}
	}
	if aligned == 0 {
		t.Fatal("no section was aligned in any round: the rounds test nothing")
	}
}
