package merge

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

// TestValidationCatchesPlantedDefects plants one defect at a time into a
// merged document — through the change that brings it, as a real merge
// would — and checks that validation fails it and the log says why. The
// clean merge beside each shows that the check is not simply failing
// everything.
func TestValidationCatchesPlantedDefects(t *testing.T) {
	const base = "# Service\n\n## 1. Goals\n\np99 latency under 200 ms at 50,000 events/s.\n\n## 2. Risks\n\nNone known. See Section 1.\n\n## 3. Ops\n\nRun.\n"
	sameRisk := TopicMatcherFunc(func(a, b string) bool {
		return strings.Contains(strings.ToLower(a), "risk") && strings.Contains(strings.ToLower(b), "risk")
	})
	tests := []struct {
		name   string
		change Change
		opts   []Option
		reason string // a Reasons entry must contain it
		failed func(v Validation) bool
	}{
		{"imported contradiction: a table against the base's goal",
			change(1, Append, SectionRef{Number: "3"}, "## Load Test\n\n| Metric | Value |\n|---|---|\n| p99 latency | 350 ms at 50,000 events/s |\n"),
			[]Option{WithScanner(latencyScanner)}, "contradiction re-scan: 1 contradiction the base did not have",
			func(v Validation) bool { return v.Rescan.State == RescanFailed }},
		{"broken reference imported",
			change(1, Append, SectionRef{Number: "3"}, "## Tests\n\nAdd the Section 7 tests.\n"),
			nil, "internal references: 1 broken reference",
			func(v Validation) bool { return !v.References.Passed }},
		{"duplicate topic, same title",
			change(1, Append, SectionRef{Number: "3"}, "## Risks\n\nData loss.\n"),
			nil, "structural integrity: 1 duplicated topic",
			func(v Validation) bool { return !v.Structure.Passed }},
		{"duplicate topic, host matcher",
			change(1, Append, SectionRef{Number: "3"}, "## Risks & Mitigations\n\nData loss.\n"),
			[]Option{WithTopicMatcher(sameRisk)}, "structural integrity: 1 duplicated topic",
			func(v Validation) bool { return !v.Structure.Passed }},
		{"level gap imported",
			change(1, Append, SectionRef{Number: "3"}, "## Extra\n\n#### Deep\n\nx\n"),
			nil, "structural integrity: 1 heading problem",
			func(v Validation) bool { return !v.Structure.Passed }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := mustParse(t, "a.md", base)
			opts := append([]Option{WithClock(fixedClock), WithScanner(nil)}, tt.opts...)
			m, err := NewSectionMerger(opts...).Merge(context.Background(), Input{Base: b, Plan: planOf(b, tt.change)})
			require.NoError(t, err)
			v := m.Log.Validation
			assert.True(t, tt.failed(v), m.Log.Markdown())
			assert.False(t, v.Passed())
			assert.Equal(t, StatusPartial, m.Status())
			assert.True(t, containsAny(m.Log.Reasons, tt.reason), "reasons %q lack %q", m.Log.Reasons, tt.reason)
			md := m.Log.Markdown()
			assert.Contains(t, md, "- **Partial because:** ")
			assert.Contains(t, md, "- **Post-merge validation:** FAIL\n")

			clean := change(1, Append, SectionRef{Number: "3"}, "## Glossary\n\nTerms; see Section 2.\n")
			ok, err := NewSectionMerger(opts...).Merge(context.Background(), Input{Base: b, Plan: planOf(b, clean)})
			require.NoError(t, err)
			assert.True(t, ok.Log.Validation.Passed(), ok.Log.Markdown())
			assert.Empty(t, ok.Log.Reasons)
		})
	}
}

// latencyScanner stands in for the step-1 detector: it reports p99
// latencies that differ at one load, wherever they are stated.
var latencyScanner = ScannerFunc(func(_ context.Context, docs []*diff.Document) ([]Contradiction, error) {
	re := regexp.MustCompile(`(\d+) ms at 50,000`)
	vals := map[string]bool{}
	for _, d := range docs {
		for _, m := range re.FindAllStringSubmatch(d.Source, -1) {
			vals[m[1]] = true
		}
	}
	if len(vals) < 2 {
		return nil, nil
	}
	return []Contradiction{{Signature: "p99@50k", Description: "p99 latency at 50,000 events/s differs"}}, nil
})

func containsAny(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
