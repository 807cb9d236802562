package refs_test

import (
	"fmt"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
)

func ExampleCheck() {
	src := `# Rollout

## 1. Scope

Milestone M1 ships what Section 2 describes; see [Risks](#3-risks).
Section 4 of RFC 9110 is external and does not count.

## 2. Design

See Section 2.1 and Milestone M2.

## 3. Risks

| Milestone | Exit criteria |
|-----------|---------------|
| M1        | Design approved |
`
	doc, err := diff.Parse("plan.md", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	rep := refs.Check(doc)
	fmt.Printf("total %d, resolved %d\n", rep.Total, rep.Resolved)
	for _, r := range rep.Broken() {
		fmt.Println("broken:", r)
	}
	// Output:
	// total 5, resolved 3
	// broken: Section 2.1 (line 10)
	// broken: Milestone M2 (line 10)
}

// A document's headings get GitHub's anchors in order: repeats are
// numbered, punctuation and symbols are dropped, letters of any script
// stay.
func ExampleSlugger() {
	var s refs.Slugger
	for _, title := range []string{"FAQ", "FAQ", "3.2 Caching & Eviction", "Über uns 🚀"} {
		fmt.Println(s.Next(title))
	}
	// Output:
	// faq
	// faq-1
	// 32-caching--eviction
	// über-uns-
}
