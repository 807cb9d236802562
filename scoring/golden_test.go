package scoring

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

type scenario struct {
	name string
	opts []Option
	in   func(t *testing.T) Input
}

func scenarios() []scenario {
	tieJudge := func(a, b []string) scripted {
		base := []string{"CMP-1", "CMP-3", "STR-1", "STR-2", "STR-4", "CLA-2", "RSK-5"}
		return scripted{"A": append(slices.Clone(base), a...), "B": append(slices.Clone(base), b...)}
	}
	return []scenario{
		{name: "clear-winner", in: func(t *testing.T) Input {
			strong, weak, source := load(t, "strong.md"), load(t, "weak.md"), load(t, "source.md")
			analysis, err := diff.Analyze(context.Background(), []*diff.Document{strong, weak}, diff.WithSource(source))
			require.NoError(t, err)
			debate := &Debate{}
			for i, p := range analysis.Points {
				winner := diff.Label(p.Variants[i%len(p.Variants)])
				debate.Points = append(debate.Points, PointOutcome{Point: p.ID, Winner: winner, Confidence: 70 + i%3*10,
					Evidence: "The winning variant states it concretely.", Round: 1 + i%2})
			}
			return Input{Variants: []Variant{{Doc: strong, Agent: "opus:architect"}, {Doc: weak, Agent: "sonnet:security"}},
				Source: source, Analysis: analysis, Debate: debate}
		}},
		{name: "tie-level-1", opts: []Option{WithJudge(tieJudge([]string{"COR-1", "COR-2"}, nil))}, in: func(t *testing.T) Input {
			return Input{Variants: twins(t), Debate: won("A", 2, "B", 5)}
		}},
		{name: "tie-level-2", opts: []Option{WithJudge(tieJudge([]string{"CLA-1"}, []string{"COR-4"}))}, in: func(t *testing.T) Input {
			return Input{Variants: twins(t), Debate: won("A", 3, "B", 3)}
		}},
		{name: "tie-level-3", opts: []Option{WithJudge(tieJudge(nil, nil))}, in: func(t *testing.T) Input {
			return Input{Variants: twins(t)}
		}},
		{name: "bias-disagreement", opts: []Option{WithJudge(&favourFirst{})}, in: func(t *testing.T) Input {
			// Pass 1 favours A, pass 2 favours C; the re-evaluation finds
			// the criteria met only in C, the variant that names Redis.
			vs := threeVariants(t)
			vs[1], vs[2] = vs[2], vs[1]
			return Input{Variants: vs}
		}},
		{name: "floor-rule", opts: []Option{WithInvariantDimension()}, in: func(t *testing.T) Input {
			vs := twins(t)
			vs[1].Doc = parse(t, "b", twinDoc+"\nConcurrent logins for one user are serialised by a lock on the session row.\n")
			return Input{Variants: vs}
		}},
	}
}

// TestGolden renders base-selection.md for each scenario: a clear winner
// (Mode B, rule judge, debate and unique contributions), a tie decided at
// each tiebreaker level, a judge whose position bias the dual pass
// catches, and the sixth dimension's floor rule.
func TestGolden(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			card, err := New(sc.opts...).Score(context.Background(), sc.in(t))
			require.NoError(t, err)
			md := card.Markdown()
			checkGolden(t, sc.name+".md", md)

			// The scorecard is plain data: JSON and back renders the same.
			b, err := json.Marshal(card)
			require.NoError(t, err)
			var back Scorecard
			require.NoError(t, json.Unmarshal(b, &back))
			assert.Equal(t, md, back.Markdown())
		})
	}
}

func TestGoldenScenariosAreWhatTheyClaim(t *testing.T) {
	want := map[string]func(*testing.T, *Scorecard){
		"clear-winner": func(t *testing.T, c *Scorecard) {
			assert.Equal(t, 0, c.Tiebreak.Level)
			assert.Equal(t, "A", c.Selection.Base)
			assert.Equal(t, FromSource, c.Reference.From)
		},
		"tie-level-1": func(t *testing.T, c *Scorecard) {
			assert.Equal(t, [2]any{1, "B"}, [2]any{c.Tiebreak.Level, c.Selection.Base})
		},
		"tie-level-2": func(t *testing.T, c *Scorecard) {
			assert.Equal(t, [2]any{2, "B"}, [2]any{c.Tiebreak.Level, c.Selection.Base})
		},
		"tie-level-3": func(t *testing.T, c *Scorecard) {
			assert.Equal(t, [2]any{3, "A"}, [2]any{c.Tiebreak.Level, c.Selection.Base})
		},
		"bias-disagreement": func(t *testing.T, c *Scorecard) {
			assert.Equal(t, [3]int{50, 50, 75}, [3]int{c.Bias.Disagreements, c.Bias.Changed, c.Bias.Pairs})
			assert.Equal(t, "C", c.Selection.Base)
		},
		"floor-rule": func(t *testing.T, c *Scorecard) {
			a, _ := c.Variant("A")
			assert.True(t, a.BelowFloor)
			assert.Equal(t, "B", c.Selection.Base)
		},
	}
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			card, err := New(sc.opts...).Score(context.Background(), sc.in(t))
			require.NoError(t, err)
			want[sc.name](t, card)
		})
	}
}

// TestScoreDeterministic: the same input twice gives the same scorecard,
// byte for byte, though the passes run in parallel.
func TestScoreDeterministic(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			in := sc.in(t)
			var outs []string
			for range 3 {
				card, err := New(sc.opts...).Score(context.Background(), in)
				require.NoError(t, err)
				b, err := json.Marshal(card)
				require.NoError(t, err)
				outs = append(outs, string(b)+card.Markdown())
			}
			assert.Equal(t, outs[0], outs[1])
			assert.Equal(t, outs[0], outs[2])
		})
	}
}
