package debate

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/internal/words"
)

var sets = []string{"content", "contradictions", "identical", "ordering", "organization", "styles", "unique"}

// The heuristic advocates are deterministic: two debates over the same
// set give byte-identical results, whatever the order round 1's
// goroutines finish in.
func TestHeuristicDeterministic(t *testing.T) {
	for _, set := range sets {
		t.Run(set, func(t *testing.T) {
			run := func(limit int) []byte {
				in := setInput(t, set, nil)
				in.Depth, in.Threshold = DepthDeep, 0.99
				res, err := Run(context.Background(), in, WithConcurrency(limit))
				require.NoError(t, err)
				b, err := json.Marshal(res)
				require.NoError(t, err)
				return b
			}
			first := run(0)
			assert.Equal(t, string(first), string(run(1)))
			assert.Equal(t, string(first), string(run(0)))
		})
	}
}

// Agreement never falls as the margins narrow: every change of preference
// is a concession to the best-measured variant, so a point once agreed
// stays agreed on the same winner, and convergence never decreases.
func TestHeuristicConvergenceNeverDecreases(t *testing.T) {
	for _, set := range sets {
		t.Run(set, func(t *testing.T) {
			in := setInput(t, set, nil)
			in.Depth, in.Threshold = DepthDeep, 0.99
			res, err := Run(context.Background(), in)
			require.NoError(t, err)
			for i := 1; i < len(res.Rounds); i++ {
				prev, cur := res.Rounds[i-1], res.Rounds[i]
				assert.GreaterOrEqual(t, cur.Convergence, prev.Convergence, "round %d", cur.Number)
				for k, t0 := range prev.Tallies {
					t1 := cur.Tallies[k]
					if t0.Agreed {
						assert.True(t, t1.Agreed, "%s stays agreed", t0.Point)
						assert.Equal(t, t0.Winner, t1.Winner, "%s keeps its winner", t0.Point)
					}
					for j, v0 := range t0.Votes {
						v1 := t1.Votes[j]
						if v0.Prefer != v1.Prefer {
							assert.Equal(t, v0.Advocate, v0.Prefer, "%s: only an advocate holding its own variant moves", t0.Point)
							assert.True(t, v1.Concede, "%s: the move is a concession", t0.Point)
						}
					}
				}
			}
		})
	}
}

// A losing advocate's concession only adds agreement: with narrower
// margins in round 1 (more concessions) convergence is at least as high.
func TestHeuristicConcessionRaisesConvergence(t *testing.T) {
	for _, set := range sets {
		t.Run(set, func(t *testing.T) {
			conv := func(m float64) (float64, int) {
				in := setInput(t, set, nil)
				in.Depth = DepthQuick
				for i := range in.Advocates {
					in.Advocates[i] = NewHeuristicAdvocate(WithMargins(m, m, m))
				}
				res, err := Run(context.Background(), in)
				require.NoError(t, err)
				conceded := 0
				for _, st := range res.Rounds[0].Statements {
					for _, p := range st.Positions {
						conceded += boolInt(p.Concede)
					}
				}
				return res.Convergence, conceded
			}
			lastConv, lastConceded := -1.0, -1
			for _, m := range []float64{0.5, 0.3, 0.2, 0.1, 0.05, 0} {
				c, n := conv(m)
				assert.GreaterOrEqual(t, n, lastConceded, "margin %.2f", m)
				assert.GreaterOrEqual(t, c, lastConv, "margin %.2f", m)
				lastConv, lastConceded = c, n
			}
		})
	}
}

var quoteRE = regexp.MustCompile(`“([^”]*)” \(Variant ([A-Z])`)

// Every quotation the heuristic advocates make is text of the variant it
// names.
func TestHeuristicQuotesRealLines(t *testing.T) {
	for _, set := range sets {
		t.Run(set, func(t *testing.T) {
			in := setInput(t, set, nil)
			in.Depth = DepthDeep
			res, err := Run(context.Background(), in)
			require.NoError(t, err)
			source := map[string]string{}
			for _, v := range in.Variants {
				source[v.Label] = oneLine(v.Doc.Source)
			}
			quotes := quoteRE.FindAllStringSubmatch(res.Markdown(), -1)
			if len(in.Analysis.Points) > 0 {
				require.NotEmpty(t, quotes)
			}
			for _, q := range quotes {
				quote := strings.TrimSuffix(q[1], "…")
				assert.Contains(t, source[q[2]], quote, "quoted from Variant %s", q[2])
			}
		})
	}
}

// The heuristic statements satisfy the engine's validation in every
// round, and the steelman names what each opponent does best.
func TestHeuristicStatementShape(t *testing.T) {
	in := setInput(t, "content", nil)
	in.Depth, in.Threshold = DepthDeep, 0.99
	res, err := Run(context.Background(), in)
	require.NoError(t, err)
	assert.Empty(t, res.Failures)
	require.Len(t, res.Rounds, 3)
	r1 := res.Rounds[0].Statements[0]
	require.Len(t, r1.Steelman, 2)
	assert.Contains(t, r1.Steelman[0].Argument, "The strongest case for Variant B is")
	assert.NotEmpty(t, r1.Strengths)
	assert.NotEmpty(t, r1.Weaknesses)
	// round 2 answers the criticisms raised against each variant
	for _, st := range res.Rounds[1].Statements {
		for _, r := range st.Responses {
			require.NotNil(t, r.About)
			assert.Equal(t, st.Variant, r.About.Against)
		}
	}
}

func TestHeuristicGoldenTranscripts(t *testing.T) {
	for _, tt := range []struct {
		set   string
		depth Depth
	}{{"contradictions", DepthDeep}, {"content", DepthStandard}, {"unique", DepthQuick}} {
		t.Run(tt.set, func(t *testing.T) {
			in := setInput(t, tt.set, nil)
			in.Depth = tt.depth
			res, err := Run(context.Background(), in)
			require.NoError(t, err)
			checkGolden(t, "heuristic/"+tt.set+".md", res.Markdown())
		})
	}
}

// A debate may run over a subset of the analysed variants (elimination
// rounds): positions then prefer only the variants debated.
func TestHeuristicSubset(t *testing.T) {
	in := setInput(t, "contradictions", nil)
	in.Variants = []Variant{in.Variants[0], in.Variants[2]}
	in.Advocates = in.Advocates[:2]
	res, err := Run(context.Background(), in)
	require.NoError(t, err)
	for _, r := range res.Rounds {
		for _, st := range r.Statements {
			for _, p := range st.Positions {
				assert.Contains(t, []string{"A", "C"}, p.Prefer)
			}
		}
	}
	assert.Equal(t, []VariantWins{{"A", res.PointsWon("A")}, {"C", res.PointsWon("C")}}, res.Wins)
}

func TestIsStatement(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"**Severity:** Medium", false},
		{"**Assessment**: **CORRECTLY RATED**.", false},
		{"**Classification**: Overlap -- **SHOULD BE CONFLICT (MEDIUM)**", false},
		{"### 1.1 The Failure Chain", false},
		{"Fine.", false},
		{"User runs: roadmap run spec.md --agents opus:architect,haiku:analyzer", true},
		{"**Verdict**: OVERSTATED. The code exists as described, but the blocker is not one.", true},
		{"The retry timeout is 30 seconds for every upload.", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, isStatement(tt.text), tt.text)
	}
}

var clipInputs = []string{"", "short", "exactly ten", "a text longer than ten runes", "ünïcödé téxt lönger thän ten", "ab\xffcd efgh ijkl mnop",
	"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\xf4", "ten runes!", "eleven runes", "\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD"}

// TestClip checks the one-pass clip against the conversion to runes it
// stands in for, at the limits the transcript uses and at the edges.
func TestClip(t *testing.T) {
	for _, s := range clipInputs {
		for _, n := range []int{1, 2, 10, 11, 80, 160, 240} {
			assert.Equal(t, clipRunes(s, n), clip(s, n), "clip(%q, %d)", s, n)
		}
	}
	assert.Equal(t, "a text lo…", clip("a text longer than ten runes", 10))
}

func FuzzClip(f *testing.F) {
	for _, s := range clipInputs {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = 1 + int(uint(n)%300)
		if got, want := clip(s, n), clipRunes(s, n); got != want {
			t.Fatalf("clip(%q, %d) = %q, want %q", s, n, got, want)
		}
	})
}

// TestDiceAtLeast90 holds the size bound to the overlap it stands in
// front of, over every pair of sets of up to 24 words drawn from a small
// vocabulary (so that large overlaps occur).
func TestDiceAtLeast90(t *testing.T) {
	vocab := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"}
	var all []words.Set
	for n := 0; n <= 24; n++ {
		for shift := range 3 {
			var b strings.Builder
			for i := range n {
				b.WriteString(vocab[(i+shift)%len(vocab)])
				b.WriteString(strconv.Itoa((i + shift) / len(vocab)))
				b.WriteByte(' ')
			}
			all = append(all, words.NewSet(b.String()))
		}
	}
	rejected, accepted := 0, 0
	for _, a := range all {
		for _, b := range all {
			want := a.Dice(b) >= 0.9
			if got := diceAtLeast90(a, b); got != want {
				t.Fatalf("diceAtLeast90(%v, %v) = %v, Dice says %v", a, b, got, want)
			}
			if want {
				accepted++
			} else {
				rejected++
			}
		}
	}
	if accepted == 0 || rejected == 0 {
		t.Fatalf("the sets never test both answers: %d accepted, %d rejected", accepted, rejected)
	}
}

func TestTrimOpeners(t *testing.T) {
	for _, w := range []string{"", "(", "([\"'x", "'quoted'", "[a]", "plain", "x(", "\"\"(", "(é", "\u00a0(x"} {
		if got, want := trimOpeners(w), strings.TrimLeft(w, "([\"'"); got != want {
			t.Errorf("trimOpeners(%q) = %q, strings.TrimLeft gives %q", w, got, want)
		}
	}
}
