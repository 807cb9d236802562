package diff

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMinimalPairs(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want []string // reasons of the minimal-pair contradictions
	}{
		{"one word differs in the predicate",
			"# P\n\nOne subprocess per phase (unchanged architecture). The runner allocates turns.\n",
			"# P\n\nOne subprocess per task. The runner allocates turns.\n",
			[]string{"the same statement with a different choice: phase vs task"}},
		{"the subject differs: another claim, not another choice",
			"# P\n\n## Limits\n\nThe gateway retries failed calls twice.\n",
			"# P\n\n## Limits\n\nThe worker retries failed calls twice.\n",
			nil},
		{"list items are enumerations, not choices",
			"# P\n\n## Risks\n\n- Vendor outage during peak hours.\n",
			"# P\n\n## Risks\n\n- Vendor lockin during peak hours.\n",
			nil},
		{"two words differ",
			"# P\n\n## Rollout\n\nShip the canary to one region first.\n",
			"# P\n\n## Rollout\n\nShip the beta to all regions first.\n",
			nil},
		{"a choice another rule names is reported once",
			"# P\n\n## Storage\n\nUse PostgreSQL for the metadata store.\n",
			"# P\n\n## Storage\n\nUse MongoDB for the metadata store.\n",
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Parse("a.md", []byte(tt.a))
			require.NoError(t, err)
			b, err := Parse("b.md", []byte(tt.b))
			require.NoError(t, err)
			an, err := Analyze(context.Background(), []*Document{a, b})
			require.NoError(t, err)
			var got []string
			for _, p := range an.ByCategory(CategoryContradiction) {
				if p.Kind == string(ExclusiveChoice) && len(p.Reason) > 0 && p.Reason[:8] == "the same" {
					got = append(got, p.Reason)
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
