package critic

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/internal/golden"
)

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func track(crit Criticality, scores []float64, hashes []string) *Tracking {
	tr := NewTracking("a.md", 0.92, crit)
	tr.Record(IterationRecord{Iteration: 1, Kind: KindCreate, ModesApplied: ms(SelfRefine), ArtifactHash: "h0", Timestamp: epoch})
	for i, s := range scores {
		h := "h" + string(rune('1'+i))
		if hashes != nil {
			h = hashes[i]
		}
		tr.Record(IterationRecord{Iteration: i + 2, Kind: KindRevise, Score: ptr(s), ArtifactHash: h, Timestamp: epoch})
	}
	return tr
}

func TestTrend(t *testing.T) {
	tests := []struct {
		name      string
		scores    []float64
		delta     *float64
		rate      *float64
		projected *int
		plateau   bool
	}{
		{"none", nil, nil, nil, nil, false},
		{"one", []float64{0.78}, nil, nil, nil, false},
		{"one passing", []float64{0.93}, nil, nil, ptr(0), false},
		{"seed example", []float64{0.78, 0.93}, ptr(0.15), ptr(0.15), ptr(0), false},
		{"projection", []float64{0.60, 0.70, 0.80}, ptr(0.1), ptr(0.1), ptr(2), false},
		{"projection rounds up", []float64{0.60, 0.75}, ptr(0.15), ptr(0.15), ptr(2), false},
		{"no progress: no projection", []float64{0.80, 0.80}, ptr(0.0), ptr(0.0), nil, false},
		{"decline", []float64{0.85, 0.80}, ptr(-0.05), ptr(-0.05), nil, false},
		{"plateau", []float64{0.80, 0.84, 0.87}, ptr(0.03), ptr(0.035), ptr(2), true},
		{"float noise is not a plateau", []float64{0.77, 0.82, 0.87}, ptr(0.05), ptr(0.05), ptr(1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := track(C2, tt.scores, nil).Trend()
			assert.Equal(t, tt.delta, tr.Delta)
			assert.Equal(t, tt.rate, tr.AverageRate)
			assert.Equal(t, tt.projected, tr.ProjectedIterations)
			assert.Equal(t, tt.plateau, tr.Plateau)
		})
	}
}

func TestRecordDeltaAndThreshold(t *testing.T) {
	tr := track(C2, []float64{0.78, 0.93}, nil)
	r := tr.Iterations[2]
	assert.Equal(t, ptr(0.15), r.ImprovementDelta)
	assert.Equal(t, ptr(true), r.ThresholdMet)
	assert.Nil(t, tr.Iterations[1].ImprovementDelta)
	assert.Equal(t, ptr(false), tr.Iterations[1].ThresholdMet)
	assert.Nil(t, tr.Iterations[0].ThresholdMet)
}

func TestLeniencyFlags(t *testing.T) {
	tests := []struct {
		name   string
		crit   Criticality
		scores []float64
		hashes []string
		want   []string
	}{
		{"clean", C2, []float64{0.70, 0.80, 0.93}, nil, nil},
		{"jump above 0.20", C2, []float64{0.60, 0.85}, nil, []string{FlagJump}},
		{"jump of exactly 0.20 is not flagged", C2, []float64{0.60, 0.80}, nil, nil},
		{"improvement without change", C2, []float64{0.70, 0.75}, []string{"same", "same"}, []string{FlagNoChange}},
		{"no change, no improvement", C2, []float64{0.70, 0.70}, []string{"same", "same"}, nil},
		{"first iteration high at C2", C2, []float64{0.91, 0.95}, nil, []string{FlagFirstHigh}},
		{"first iteration high at C1 is expected", C1, []float64{0.91}, nil, nil},
		{"first iteration at 0.90 is not flagged", C3, []float64{0.90}, nil, nil},
		{"several", C3, []float64{0.95, 0.60, 0.90}, []string{"a", "b", "b"}, []string{FlagFirstHigh, FlagJump, FlagNoChange}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range track(tt.crit, tt.scores, tt.hashes).Flags() {
				got = append(got, f.Check)
				assert.NotEmpty(t, f.Action)
				assert.NotEmpty(t, f.Detail)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestLeniencyMonitor(t *testing.T) {
	var m LeniencyMonitor
	assert.Nil(t, m.Observe("a", 0.96))
	assert.Nil(t, m.Observe("b", 0.97))
	f := m.Observe("c", 0.99)
	require.NotNil(t, f)
	assert.Equal(t, FlagRecalibrate, f.Check)
	assert.Equal(t, "Flag for rubric recalibration", f.Action)
	assert.Nil(t, m.Observe("d", 0.95), "0.95 is not above 0.95")
	assert.Nil(t, m.Observe("e", 0.99))

	m2 := &LeniencyMonitor{Window: 2}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); m2.Observe("x", 0.99) }()
	}
	wg.Wait()
	assert.NotNil(t, m2.Observe("y", 0.99))
}

func TestTrackingRendering(t *testing.T) {
	tr := NewTracking("docs/adr-003.md", 0.92, C2)
	tr.Record(IterationRecord{Iteration: 1, Kind: KindCreate, ModesApplied: ms(SelfRefine), Notes: "Creator self-improvement", ArtifactHash: "a", Timestamp: epoch})
	tr.Record(IterationRecord{Iteration: 2, Kind: KindCritique, Score: ptr(0.78), ModesApplied: ms(Steelman, Constitutional, DevilsAdvocate, LLMAsJudge),
		ImprovementAreas: []string{"Completeness: missing edge case analysis", "Traceability: 3 claims unlinked"}, Notes: "Standard C2 critique", ArtifactHash: "a", Timestamp: epoch})
	tr.Record(IterationRecord{Iteration: 3, Kind: KindRevise, Score: ptr(0.93), ModesApplied: ms(ChainOfVerification, LLMAsJudge),
		Notes: "Revision addressed all improvement areas; quality gate PASS", ArtifactHash: "b", Timestamp: epoch})
	y, err := tr.YAML()
	require.NoError(t, err)
	checkGolden(t, "tracking.yaml", string(y))
	checkGolden(t, "tracking.md", tr.Markdown())
}
