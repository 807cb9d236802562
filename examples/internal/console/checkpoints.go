// Package console asks the adversarial pipeline's four checkpoint
// questions on a terminal, for the example programs: one line of input per
// question, an empty line (or the end of input) taking the default the
// seed's non-interactive mode would take. It is how these hosts talk to a
// user, not an API of the library.
package console

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/scoring"
)

// Lines reads one answer at a time: a trimmed line, or "" at the end of
// input. Every question a program asks must go through one Lines, since a
// second reader over the same input would buffer answers meant for the
// first.
type Lines func() (string, error)

// NewLines returns the Lines of r.
func NewLines(r io.Reader) Lines {
	sc := bufio.NewScanner(r)
	return func() (string, error) {
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return "", err
			}
			return "", nil // end of input: take the defaults
		}
		return strings.TrimSpace(sc.Text()), nil
	}
}

// Checkpoints asks the user at the pipeline's four checkpoints, in the
// seed's words, writing the questions to Out and reading answers from In.
type Checkpoints struct {
	In  Lines
	Out io.Writer
}

var _ adversarial.Checkpoints = (*Checkpoints)(nil)

// Ask writes question and reads the answer; it is how every question of a
// program shares the one input.
func (t *Checkpoints) Ask(ctx context.Context, question string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	fmt.Fprint(t.Out, question)
	return t.In()
}

// AfterDiff asks for priority diff points (checkpoint 1).
func (t *Checkpoints) AfterDiff(ctx context.Context, a *diff.Analysis) ([]string, error) {
	n := func(c diff.Category) int { return len(a.ByCategory(c)) }
	ans, err := t.Ask(ctx, fmt.Sprintf("\nDiff analysis complete. %d structural, %d content, %d contradictions, %d unique contributions found.\n"+
		"Would you like to highlight priority areas for debate? [Enter: continue with all diff points; or diff point ids, comma-separated] ",
		n(diff.CategoryStructural), n(diff.CategoryContent), n(diff.CategoryContradiction), n(diff.CategoryUnique)))
	if err != nil || ans == "" {
		return nil, err
	}
	var points []string
	for _, id := range adversarial.SplitList(ans) {
		if _, ok := a.Point(strings.ToUpper(id)); ok {
			points = append(points, strings.ToUpper(id))
		} else {
			fmt.Fprintf(t.Out, "  (no diff point %q; ignored)\n", id)
		}
	}
	return points, nil
}

// AfterDebate asks which unresolved points to mark resolved (checkpoint 2).
func (t *Checkpoints) AfterDebate(ctx context.Context, d *debate.Result) ([]string, error) {
	ans, err := t.Ask(ctx, fmt.Sprintf("\nDebate complete. Convergence: %.0f%%. %d/%d contested points resolved.\n"+
		"Would you like to override the convergence assessment? [Enter: accept; or unresolved point ids to mark resolved (%s)] ",
		d.Convergence*100, d.ContestedAgreed, d.Contested, strings.Join(d.Unresolved, ", ")))
	if err != nil || ans == "" {
		return nil, err
	}
	var ids []string
	for _, id := range adversarial.SplitList(ans) {
		ids = append(ids, strings.ToUpper(id))
	}
	return ids, nil
}

// AfterScoring asks for a base to use instead of the scored one (checkpoint 3).
func (t *Checkpoints) AfterScoring(ctx context.Context, card *scoring.Scorecard) (string, error) {
	base, _ := card.Variant(card.Selection.Base)
	q := fmt.Sprintf("\nBase selected: %s with score %.3f.", base.Spec(), base.Final)
	if ru, ok := card.Variant(card.Tiebreak.RunnerUp); ok {
		q += fmt.Sprintf(" Runner-up: %s with score %.3f. Margin: %.1f%%.", ru.Spec(), ru.Final, card.Tiebreak.Margin*100)
	}
	q += "\nWould you like to override the base selection? [Enter: accept; or a variant letter] "
	ans, err := t.Ask(ctx, q)
	if err != nil || ans == "" {
		return "", err
	}
	return strings.ToUpper(ans), nil
}

// AfterPlan asks which planned changes to drop (checkpoint 4).
func (t *Checkpoints) AfterPlan(ctx context.Context, p merge.Plan) (*merge.Plan, error) {
	ans, err := t.Ask(ctx, fmt.Sprintf("\nRefactoring plan: %d changes planned, %d rejected. Risk: %s overall.\n"+
		"Would you like to modify the plan before execution? [Enter: execute as-is; or change numbers to drop, comma-separated] ",
		len(p.Changes), len(p.Rejected), p.OverallRisk()))
	if err != nil || ans == "" {
		return nil, err
	}
	var drop []int
	for _, s := range adversarial.SplitList(ans) {
		n, err := strconv.Atoi(strings.TrimPrefix(s, "#"))
		if err != nil || n < 1 || n > len(p.Changes) {
			fmt.Fprintf(t.Out, "  (no change %q; ignored)\n", s)
			continue
		}
		drop = append(drop, n)
	}
	if len(drop) == 0 {
		return nil, nil
	}
	q := p
	q.Changes = nil
	for i, c := range p.Changes {
		if !slices.Contains(drop, i+1) {
			q.Changes = append(q.Changes, c)
		}
	}
	return &q, nil
}
