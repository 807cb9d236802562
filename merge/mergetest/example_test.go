package mergetest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/merge/mergetest"
)

// stripping is a host's merger that post-processes the section merger's
// output and, in doing so, drops the provenance tags the contract requires.
type stripping struct{ merge.Merger }

func (s stripping) Merge(ctx context.Context, in merge.Input) (*merge.Merged, error) {
	m, err := s.Merger.Merge(ctx, in)
	if m != nil {
		var kept []string
		for _, line := range strings.Split(m.Output, "\n") {
			if !strings.HasPrefix(line, "<!-- Source:") {
				kept = append(kept, line)
			}
		}
		m.Output = strings.Join(kept, "\n")
	}
	return m, err
}

// Run is the conformance suite for any merge.Merger; a test file calls it
// with its *testing.T:
//
//	func TestMyMerger(t *testing.T) { mergetest.Run(t, mymerger.New(…)) }
//
// Check runs the same checks where there is no *testing.T, as here: the
// library's section merger passes, and a merger that drops provenance
// tags does not.
func ExampleRun() {
	fmt.Println("section merger:", mergetest.Check(merge.NewSectionMerger()))

	var failed interface{ Unwrap() []error }
	if errors.As(mergetest.Check(stripping{merge.NewSectionMerger()}), &failed) {
		for _, err := range failed.Unwrap() {
			name, _, _ := strings.Cut(err.Error(), ":")
			fmt.Println("stripping merger fails", name)
		}
	}
	// Output:
	// section merger: <nil>
	// stripping merger fails EmptyPlan
	// stripping merger fails Changes
	// stripping merger fails FailedChangeContinues
	// stripping merger fails ForgedProvenance
}
