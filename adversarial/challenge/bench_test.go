package challenge

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crucible-go/crucible/internal/samplegen"
)

// BenchmarkParse parses a native-format reply of 50 challenges with a
// defense assessment: the largest reply a model would plausibly send.
func BenchmarkParse(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("## CHALLENGES\n\n**Round:** 2/3\n\n")
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&sb, "### Challenge %d: Verification gaps\n**Concern:** Task %d has no verification step and hides its work.\n"+
			"**Evidence:** line %d: \"Implement the export page %d.\"\n**Severity:** significant\n**Recommendation:** Add a Verify line.\n\n", i, i, 10+i, i)
	}
	sb.WriteString("### Defense Assessment\n\n| Previous Challenge | Status | Notes |\n|---|---|---|\n")
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&sb, "| Challenge %d | unaddressed | still there |\n", i)
	}
	sb.WriteString("\n### Convergence Assessment\n\n**Status:** continue\n**Remaining concerns:** 50\n**Recommendation:** continue debate\n")
	reply := sb.String()
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(reply); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOfflineFindings runs every check of a type over a synthetic
// specification of about 100 KB — far longer than a real plan.
func BenchmarkOfflineFindings(b *testing.B) {
	src := string(samplegen.Spec(7, 100_000))
	for _, typ := range ArtifactTypes() {
		b.Run(string(typ), func(b *testing.B) {
			adv := Offline()
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			var n int
			for b.Loop() {
				cs, err := adv.Findings(context.Background(), typ, src, "")
				if err != nil {
					b.Fatal(err)
				}
				n = len(cs)
			}
			b.ReportMetric(float64(n), "challenges")
		})
	}
}

// BenchmarkLoopOffline runs the whole offline loop — three rounds of
// adversary, defense and the final decision — over the sample plan, and
// renders the decision log.
func BenchmarkLoopOffline(b *testing.B) {
	in := Input{Type: Plan, Name: "PLAN.md", Artifact: readFile(b, filepath.Join("testdata", "artifacts", "plan.md"))}
	l := enabled()
	b.ReportAllocs()
	for b.Loop() {
		o, err := l.Run(context.Background(), in)
		if err != nil {
			b.Fatal(err)
		}
		_ = o.Markdown()
	}
}
