package diff

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTableBounds(t *testing.T) {
	table := "## Capacity\n\n| Load | Instances | Expected p99 |\n|---|---|---|\n| 10,000 events/s | 4 | 120 ms |\n| 50,000 events/s | 16 | 350 ms |\n"
	tests := []struct {
		name, goal string
		want       int
	}{
		{"a row that breaks the goal's bound", "- Accept 50,000 events per second with p99 ingest latency under 200 ms.\n", 1},
		{"a row within the bound", "- Accept 50,000 events per second with p99 ingest latency under 500 ms.\n", 0},
		{"another load: no row to compare", "- Accept 20,000 events per second with p99 ingest latency under 200 ms.\n", 0},
		{"another metric", "- Accept 50,000 events per second with p50 ingest latency under 200 ms.\n", 0},
		{"a count that is no rate", "- Keep 50,000 events in memory with p99 ingest latency under 200 ms.\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse("spec.md", []byte("# Spec\n\n## Goals\n\n"+tt.goal+"\n"+table))
			require.NoError(t, err)
			cs, err := DetectContradictions(context.Background(), d)
			require.NoError(t, err)
			var got []Contradiction
			for _, c := range cs {
				if c.Key == "duration@50000/s:p99" {
					got = append(got, c)
				}
			}
			require.Len(t, got, tt.want, "%+v", cs)
			if tt.want > 0 {
				assert.Equal(t, "p99 at 50000/s", got[0].Subject)
				assert.Contains(t, got[0].Reason, "350 ms")
				assert.Equal(t, []int{5, 12}, []int{got[0].Claims[0].Line, got[0].Claims[1].Line})
			}
		})
	}
}
