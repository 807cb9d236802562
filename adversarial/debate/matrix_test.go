package debate

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

// vote is a compact position for matrix tests: "B" prefers B, "b80"
// prefers B with confidence 80 and concedes.
func votes(round int, labels []string, spec ...string) Round {
	r := Round{Number: round, Complete: true}
	for i, s := range spec {
		c := s[:1]
		conf := 80
		if len(s) > 1 {
			conf = 0
			for _, d := range s[1:] {
				conf = conf*10 + int(d-'0')
			}
		}
		r.Statements = append(r.Statements, Statement{Round: round, Variant: labels[i], Positions: []PointPosition{
			{Point: "C-001", Prefer: strings.ToUpper(c), Confidence: conf, Concede: c != strings.ToUpper(c), Evidence: "Evidence for " + strings.ToUpper(c) + ". More."},
		}})
	}
	return r
}

func matrixFor(t *testing.T, rounds ...Round) Decision {
	t.Helper()
	labels := []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}
	a := &diff.Analysis{Points: []diff.Point{{ID: "C-001", Title: "Caching"}}}
	res := &Result{Points: []string{"C-001"}}
	n := len(rounds[0].Statements)
	for i := range n {
		res.Variants = append(res.Variants, Participant{Label: labels[i]})
	}
	for _, r := range rounds {
		r.Tallies = tallyRound(a.Points, labels[:n], r.Statements)
		r.Consensus = consensus(r.Tallies, res.contestedSet())
		res.Rounds = append(res.Rounds, r)
	}
	ds := decide(a, res, false)
	require.Len(t, ds, 1)
	return ds[0]
}

func TestScoringMatrixCalibration(t *testing.T) {
	l := []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}
	tests := []struct {
		name      string
		rounds    []Round
		winner    string
		conf      int
		agreement Agreement
		conceded  []string
		round     int
		evidence  string
	}{
		{"unanimous", []Round{votes(1, l, "A", "A", "A")}, "A", 95, AgreementUnanimous, nil, 1,
			"Evidence for A. All 3 advocates agree."},
		{"unanimous weak evidence", []Round{votes(1, l, "A50", "A50", "A50")}, "A", 90, AgreementUnanimous, nil, 1, ""},
		{"unanimous strong, no concession, never 100", []Round{votes(1, l, "A100", "A100", "A100")}, "A", 99, AgreementUnanimous, nil, 1, ""},
		{"unanimous, one of two losers conceded", []Round{votes(1, l, "A50", "a50", "A50")}, "A", 99, AgreementUnanimous, []string{"B"}, 1,
			"Evidence for A. All 3 advocates agree; Variant B advocate conceded."},
		{"unanimous, every loser conceded", []Round{votes(1, l, "A", "a", "a")}, "A", 100, AgreementUnanimous, []string{"B", "C"}, 1,
			"Evidence for A. All 3 advocates agree; Variants B and C advocates conceded."},
		{"majority", []Round{votes(1, l, "A", "A", "C")}, "A", 66, AgreementMajority, nil, 1, "Evidence for A. 2 of 3 advocates agree."},
		{"majority with concession", []Round{votes(1, l, "A", "a", "C")}, "A", 76, AgreementMajority, []string{"B"}, 1, ""},
		{"majority capped at 89", []Round{votes(1, l, "A100", "a100", "a100", "a100", "a100", "a100", "a100", "a100", "a100", "J")},
			"A", 89, AgreementMajority, []string{"B", "C", "D", "E", "F", "G", "H", "I"}, 1, ""},
		{"majority floor 60", []Round{votes(1, l, "A50", "A50", "C")}, "A", 60, AgreementMajority, nil, 1, ""},
		{"split", []Round{votes(1, l, "A", "B", "C")}, "", 50, AgreementSplit, nil, 1, "No majority (Variant A 1, Variant B 1, Variant C 1)."},
		{"split with a leader", []Round{votes(1, l, "A", "A", "C", "D")}, "", 50, AgreementSplit, nil, 1,
			"No majority (Variant A 2, Variant C 1, Variant D 1); Variant A leads. Evidence for A."},
		{"two of two needed", []Round{votes(1, l, "A", "B")}, "", 50, AgreementSplit, nil, 1, ""},
		{"concession in an earlier round counts", []Round{votes(1, l, "A", "a", "A"), votes(2, l, "A", "A", "A")}, "A", 99, AgreementUnanimous, []string{"B"}, 1, ""},
		{"a concession taken back does not", []Round{votes(1, l, "A", "a", "C"), votes(2, l, "A", "B", "A")}, "A", 66, AgreementMajority, nil, 1, ""},
		{"round the winner held from", []Round{votes(1, l, "A", "B", "C"), votes(2, l, "A", "a", "C"), votes(3, l, "A", "a", "a")}, "A", 100, AgreementUnanimous, []string{"B", "C"}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := matrixFor(t, tt.rounds...)
			assert.Equal(t, tt.winner, d.Winner)
			assert.Equal(t, tt.conf, d.Confidence)
			assert.Equal(t, tt.agreement, d.Agreement)
			assert.Equal(t, tt.conceded, d.Conceded)
			assert.Equal(t, tt.round, d.Round)
			if tt.evidence != "" {
				assert.Equal(t, tt.evidence, d.Evidence)
			}
		})
	}
}

// Whatever the votes, confidence stays in its band and 100 needs every
// losing advocate's explicit concession.
func TestScoringMatrixBands(t *testing.T) {
	l := []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		n := 2 + r.IntN(9)
		spec := make([]string, n)
		for i := range spec {
			c := l[r.IntN(3)]
			if c != l[i] && r.IntN(2) == 0 {
				c = strings.ToLower(c)
			}
			spec[i] = c + []string{"50", "65", "80", "100"}[r.IntN(4)]
		}
		d := matrixFor(t, votes(1, l, spec...))
		switch d.Agreement {
		case AgreementUnanimous:
			assert.True(t, d.Confidence >= 90 && d.Confidence <= 100, "%v: %d", spec, d.Confidence)
		case AgreementMajority:
			assert.True(t, d.Confidence >= 60 && d.Confidence <= 89, "%v: %d", spec, d.Confidence)
		case AgreementSplit:
			assert.Equal(t, 50, d.Confidence)
		}
		if d.Confidence == 100 {
			losers := 0
			for i := range n {
				if l[i] != d.Winner {
					losers++
				}
			}
			assert.Len(t, d.Conceded, losers, "%v", spec)
		}
		assert.LessOrEqual(t, strings.Count(d.Evidence, ". "), 1, "at most two sentences: %q", d.Evidence)
	}
}

func TestFirstSentence(t *testing.T) {
	tests := []struct{ in, want string }{
		{"One. Two.", "One."},
		{"“The retry timeout is 30 seconds. It is fixed.” (Variant A, L5): 2 concrete. More.", "“The retry timeout is 30 seconds. It is fixed.” (Variant A, L5): 2 concrete."},
		{`He said "stop. now" and left. Then`, `He said "stop. now" and left.`},
		{"“## 1. Overview” (Variant A, §1. Overview, L3): covers 4 topics. All agree.", "“## 1. Overview” (Variant A, §1. Overview, L3): covers 4 topics."},
		{"no full stop", "no full stop."},
		{"v1.2 is used", "v1.2 is used."},
		{"", ""},
		{strings.Repeat("x", 300), strings.Repeat("x", 239) + "…"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, firstSentence(tt.in, 240), tt.in)
	}
}

func TestPercentNeverRoundsUpToTheThreshold(t *testing.T) {
	assert.Equal(t, "79%", percent(0.7999))
	assert.Equal(t, "80%", percent(0.8))
	assert.Equal(t, "83%", percent(5.0/6))
	assert.Equal(t, "100%", percent(1))
	assert.Equal(t, "80%", thresholdPercent(0.80))
	assert.Equal(t, "82.5%", thresholdPercent(0.825))
}

func TestConfigHelpers(t *testing.T) {
	for _, tt := range []struct {
		in    string
		want  Depth
		warns string
	}{{"", DepthStandard, ""}, {"quick", DepthQuick, ""}, {" Deep ", DepthDeep, ""}, {"fast", DepthStandard, "Unknown depth fast, using standard"}} {
		d, w := ParseDepth(tt.in)
		assert.Equal(t, tt.want, d, tt.in)
		assert.Equal(t, tt.warns, w, tt.in)
	}
	for v, want := range map[float64]bool{0: true, 0.5: true, 0.99: true, 0.8: true, 0.49: false, 1: false, -0.3: false} {
		assert.Equal(t, want, ValidConvergence(v), v)
	}
}
