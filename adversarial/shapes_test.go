package adversarial

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial/debate"
)

// preferAdvocate argues that one variant wins every point, as a model
// advocate may: whatever section its text sits in.
type preferAdvocate struct{ winner string }

func (a preferAdvocate) Argue(_ context.Context, turn debate.Turn) (debate.Statement, error) {
	st := debate.Statement{Position: "Variant " + a.winner + " states it best."}
	for _, o := range turn.Others {
		st.Steelman = append(st.Steelman, debate.Steelman{Variant: o.Label, Argument: "Variant " + o.Label + " is careful."})
	}
	for _, p := range turn.Points {
		st.Positions = append(st.Positions, debate.PointPosition{Point: p.ID, Prefer: a.winner, Confidence: 90,
			Evidence: "Variant " + a.winner + " says it. It is specific."})
	}
	return st, nil
}

// TestPlanHandlesEverySectionShape runs the pipeline on variants whose
// points sit in sections of every shape — text under the title before
// any section, a title-only document, headings without a title, deep
// nesting, a section holding only code — with advocates that make the
// variant that is not the base win every point. No shape fails the run:
// a fault-free run never fails.
func TestPlanHandlesEverySectionShape(t *testing.T) {
	shapes := []struct {
		name string
		a, b string
	}{
		{"text under the title",
			"# Service\n\nThe API answers within 200 ms.\n\n## Scope\n\nOrders only.\n",
			"# Service\n\nThe API answers within 500 ms and retries twice.\n\n## Scope\n\nOrders only.\n\n## Storage\n\nPostgres.\n"},
		{"title only",
			"# Service\n\nThe API answers within 200 ms. Orders only.\n",
			"# Service\n\nThe API answers within 500 ms. Orders and refunds.\n"},
		{"no title",
			"## Scope\n\nOrders only.\n\n## Limits\n\nThe API answers within 200 ms.\n",
			"## Scope\n\nOrders and refunds.\n\n## Limits\n\nThe API answers within 500 ms.\n"},
		{"deep nesting",
			"# Service\n\n## 1. Design\n\n### 1.1 Storage\n\n#### 1.1.1 Keys\n\nUUID keys.\n",
			"# Service\n\n## 1. Design\n\n### 1.1 Storage\n\n#### 1.1.1 Keys\n\nSequential keys, 8 bytes.\n\n#### 1.1.2 Indexes\n\nOne per tenant.\n"},
		{"code only",
			"# Service\n\n## Config\n\n```yaml\ntimeout: 200ms\n```\n",
			"# Service\n\n## Config\n\n```yaml\ntimeout: 500ms\nretries: 2\n```\n"},
	}
	for _, sh := range shapes {
		for _, winner := range []string{"A", "B"} {
			t.Run(fmt.Sprintf("%s/%s wins", sh.name, winner), func(t *testing.T) {
				r := New(WithClock(fixedClock), WithAdvocates(func(debate.AgentSpec) debate.Advocate { return preferAdvocate{winner} }))
				res, err := r.Run(context.Background(), Input{Depth: "quick", Compare: []Draft{
					{Name: "a.md", Content: []byte(sh.a)}, {Name: "b.md", Content: []byte(sh.b)}}})
				require.NoError(t, err)
				assert.NotEqual(t, StatusFailed, res.Status, "failed at %s: %v", res.FailureStage, res.Warnings)
				assert.NotEmpty(t, res.MergedOutput)
			})
		}
	}
}
