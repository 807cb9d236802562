package critic

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"
)

// Score-tracking and anti-leniency thresholds (H-16).
const (
	// PlateauDelta: an improvement below this for two consecutive
	// iterations is a plateau.
	PlateauDelta = 0.05
	// JumpDelta: an improvement above this in one iteration is flagged for
	// human review.
	JumpDelta = 0.20
	// FirstIterationHigh: a first score above this for a C2+ artifact is
	// flagged for review.
	FirstIterationHigh = 0.90
	// ConsistentlyHigh: final scores above this across artifacts flag the
	// rubric for recalibration.
	ConsistentlyHigh = 0.95
	// CaveatFloor: at the circuit breaker, a score at or above this is
	// accepted with caveats; below it the cycle escalates.
	CaveatFloor = 0.85
	// DefaultMaxIterations is the circuit breaker (H-14's 3-iteration
	// minimum cycle).
	DefaultMaxIterations = 3
)

// Iteration kinds.
const (
	KindCreate   = "create"
	KindCritique = "critique"
	KindRevise   = "revise"
)

// IterationRecord is one iteration of the quality-tracking schema.
type IterationRecord struct {
	Iteration int    `json:"iteration" yaml:"iteration"`
	Kind      string `json:"kind" yaml:"kind"`
	// Score is nil for an iteration without a critique (creation).
	Score            *float64 `json:"score" yaml:"score"`
	ModesApplied     []Mode   `json:"modes_applied" yaml:"modes_applied"`
	ImprovementAreas []string `json:"improvement_areas,omitempty" yaml:"improvement_areas,omitempty"`
	// ImprovementDelta is the change from the previous scored iteration.
	ImprovementDelta *float64  `json:"improvement_delta,omitempty" yaml:"improvement_delta,omitempty"`
	ThresholdMet     *bool     `json:"threshold_met,omitempty" yaml:"threshold_met,omitempty"`
	Notes            string    `json:"notes,omitempty" yaml:"notes,omitempty"`
	ArtifactHash     string    `json:"artifact_hash" yaml:"artifact_hash"`
	Timestamp        time.Time `json:"timestamp" yaml:"timestamp"`
}

// Tracking follows S-014 scores across the iterations of one artifact.
type Tracking struct {
	Artifact    string            `json:"artifact" yaml:"artifact"`
	Threshold   float64           `json:"threshold" yaml:"threshold"`
	Criticality Criticality       `json:"criticality" yaml:"-"`
	Iterations  []IterationRecord `json:"iterations" yaml:"iterations"`
}

// NewTracking starts tracking an artifact against a threshold.
func NewTracking(artifact string, threshold float64, crit Criticality) *Tracking {
	return &Tracking{Artifact: artifact, Threshold: threshold, Criticality: crit}
}

// round6 removes float noise from score arithmetic: scores carry two
// decimals, so 0.87 - 0.82 must compare as 0.05, not 0.0499999….
func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

func ptr[T any](v T) *T { return &v }

// Record appends an iteration, filling in its improvement delta and whether
// it met the threshold.
func (t *Tracking) Record(rec IterationRecord) {
	if rec.Score != nil {
		s := *rec.Score
		rec.ThresholdMet = ptr(atLeast(s, t.Threshold))
		if prev := t.lastScored(); prev != nil {
			rec.ImprovementDelta = ptr(round6(s - *prev.Score))
		}
	}
	t.Iterations = append(t.Iterations, rec)
}

func (t *Tracking) lastScored() *IterationRecord {
	for i := len(t.Iterations) - 1; i >= 0; i-- {
		if t.Iterations[i].Score != nil {
			return &t.Iterations[i]
		}
	}
	return nil
}

// Scores returns the scores of the scored iterations, in order.
func (t *Tracking) Scores() []float64 {
	var out []float64
	for _, r := range t.Iterations {
		if r.Score != nil {
			out = append(out, *r.Score)
		}
	}
	return out
}

// Trend is the trend analysis over the scored iterations.
type Trend struct {
	// Delta is current − previous score; nil with fewer than two scores.
	Delta *float64 `json:"delta,omitempty"`
	// AverageRate is total improvement (last − first score) over the
	// number of improvement steps; nil with fewer than two scores.
	AverageRate *float64 `json:"average_rate,omitempty"`
	// ProjectedIterations is (threshold − current) / average rate, rounded
	// up: 0 once the threshold is met; nil when the rate is not positive.
	ProjectedIterations *int `json:"projected_iterations,omitempty"`
	// Plateau: the last two deltas were both below 0.05.
	Plateau bool `json:"plateau"`
}

// Trend computes the trend metrics.
func (t *Tracking) Trend() Trend {
	return trendOf(t.Scores(), t.Threshold)
}

func trendOf(scores []float64, threshold float64) Trend {
	var tr Trend
	n := len(scores)
	if n == 0 {
		return tr
	}
	cur := scores[n-1]
	if atLeast(cur, threshold) {
		tr.ProjectedIterations = ptr(0)
	}
	if n < 2 {
		return tr
	}
	tr.Delta = ptr(round6(cur - scores[n-2]))
	tr.AverageRate = ptr(round6((cur - scores[0]) / float64(n-1)))
	if tr.ProjectedIterations == nil && *tr.AverageRate > 0 {
		tr.ProjectedIterations = ptr(int(math.Ceil(round6((threshold - cur) / *tr.AverageRate))))
	}
	tr.Plateau = plateau(scores)
	return tr
}

// plateau reports whether the last two improvements were both below
// PlateauDelta.
func plateau(scores []float64) bool {
	n := len(scores)
	if n < 3 {
		return false
	}
	return round6(scores[n-1]-scores[n-2]) < PlateauDelta && round6(scores[n-2]-scores[n-3]) < PlateauDelta
}

// Anti-leniency checks.
const (
	FlagJump        = "SCORE_JUMP"         // > 0.20 in one iteration: human review
	FlagNoChange    = "NO_ARTIFACT_CHANGE" // improvement without artifact change: leniency drift
	FlagFirstHigh   = "FIRST_ITERATION_HIGH"
	FlagRecalibrate = "RUBRIC_RECALIBRATION" // consistently > 0.95 across artifacts
)

// LeniencyFlag is one anti-leniency finding.
type LeniencyFlag struct {
	Check     string `json:"check" yaml:"check"`
	Iteration int    `json:"iteration,omitempty" yaml:"iteration,omitempty"`
	Action    string `json:"action" yaml:"action"`
	Detail    string `json:"detail" yaml:"detail"`
}

// Flags runs the per-artifact anti-leniency checks: a jump above 0.20 in
// one iteration, an improvement with no artifact change, and a first score
// above 0.90 for a C2+ artifact.
func (t *Tracking) Flags() []LeniencyFlag {
	var out []LeniencyFlag
	var prev *IterationRecord
	first := true
	for i := range t.Iterations {
		r := &t.Iterations[i]
		if r.Score == nil {
			continue
		}
		s := *r.Score
		if first && t.Criticality >= C2 && s > FirstIterationHigh {
			out = append(out, LeniencyFlag{Check: FlagFirstHigh, Iteration: r.Iteration, Action: "Flag for review",
				Detail: fmt.Sprintf("first score %.2f above %.2f for a %s artifact; C2+ artifacts rarely score this high initially", s, FirstIterationHigh, t.Criticality)})
		}
		first = false
		if prev != nil {
			d := round6(s - *prev.Score)
			if d > JumpDelta {
				out = append(out, LeniencyFlag{Check: FlagJump, Iteration: r.Iteration, Action: "Flag for human review (unusual improvement)",
					Detail: fmt.Sprintf("score rose %.2f → %.2f (+%.2f) in one iteration", *prev.Score, s, d)})
			}
			if d > 0 && r.ArtifactHash != "" && r.ArtifactHash == prev.ArtifactHash {
				out = append(out, LeniencyFlag{Check: FlagNoChange, Iteration: r.Iteration, Action: "Flag as potential leniency drift",
					Detail: fmt.Sprintf("score rose %.2f → %.2f but the artifact did not change", *prev.Score, s)})
			}
		}
		prev = r
	}
	return out
}

// LeniencyMonitor watches final scores across artifacts for the one
// anti-leniency check that needs more than one artifact: scores
// consistently above 0.95. It is safe for concurrent use; the zero value
// uses a window of 3 artifacts.
type LeniencyMonitor struct {
	// Window is how many consecutive artifacts must score above 0.95
	// before the rubric is flagged; 0 means 3.
	Window int

	mu     sync.Mutex
	recent []float64
}

// Observe records an artifact's final score and returns a recalibration
// flag when the last Window artifacts all scored above 0.95.
func (m *LeniencyMonitor) Observe(artifact string, score float64) *LeniencyFlag {
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.Window
	if w <= 0 {
		w = 3
	}
	m.recent = append(m.recent, score)
	if len(m.recent) > w {
		m.recent = m.recent[len(m.recent)-w:]
	}
	if len(m.recent) < w {
		return nil
	}
	for _, s := range m.recent {
		if s <= ConsistentlyHigh {
			return nil
		}
	}
	return &LeniencyFlag{Check: FlagRecalibrate, Action: "Flag for rubric recalibration",
		Detail: fmt.Sprintf("the last %d artifacts, up to %s, all scored above %.2f", w, artifact, ConsistentlyHigh)}
}

// YAML renders the tracking as a quality_tracking document: the artifact,
// the threshold and one entry per iteration.
func (t *Tracking) YAML() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(struct {
		Q *Tracking `yaml:"quality_tracking"`
	}{t}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Markdown renders the score history as a table, with the trend and flags.
func (t *Tracking) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| Iteration | Kind | Score | Δ | Threshold met | Modes | Notes |\n|---|---|---|---|---|---|---|\n")
	for _, r := range t.Iterations {
		score, delta, met := "—", "—", "—"
		if r.Score != nil {
			score = fmt.Sprintf("%.2f", *r.Score)
		}
		if r.ImprovementDelta != nil {
			delta = fmt.Sprintf("%+.2f", *r.ImprovementDelta)
		}
		if r.ThresholdMet != nil {
			met = fmt.Sprint(*r.ThresholdMet)
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %s |\n", r.Iteration, r.Kind, score, delta, met, FormatModes(r.ModesApplied), cell(r.Notes))
	}
	tr := t.Trend()
	fmt.Fprintf(&b, "\nTrend: ")
	var parts []string
	if tr.Delta != nil {
		parts = append(parts, fmt.Sprintf("delta %+.2f", *tr.Delta))
	}
	if tr.AverageRate != nil {
		parts = append(parts, fmt.Sprintf("average rate %+.3f per iteration", *tr.AverageRate))
	}
	if tr.ProjectedIterations != nil {
		parts = append(parts, fmt.Sprintf("projected iterations to %.2f: %d", t.Threshold, *tr.ProjectedIterations))
	}
	parts = append(parts, fmt.Sprintf("plateau %v", tr.Plateau))
	b.WriteString(strings.Join(parts, "; "))
	b.WriteString("\n")
	return b.String()
}
