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
	"github.com/crucible-go/crucible/examples/internal/cli"
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

// maxAsks bounds how often one question is asked again after invalid
// answers; then the default is taken, as at the end of input.
const maxAsks = 5

// choose asks question until the answer is empty (the default), "n"/"no"
// (the default too), or one that parse accepts; "y"/"yes" asks follow,
// the question that names what to enter. parse returns a message for an
// invalid answer, printed before asking again.
func (t *Checkpoints) choose(ctx context.Context, question, follow string, parse func(string) (string, bool)) (string, bool, error) {
	q := question
	for range maxAsks {
		ans, err := t.Ask(ctx, q)
		if err != nil {
			return "", false, err
		}
		switch strings.ToLower(ans) {
		case "", "n", "no":
			return "", false, nil
		case "y", "yes":
			q = follow
			continue
		}
		if msg, ok := parse(ans); !ok {
			fmt.Fprintf(t.Out, "  %s\n", msg)
			q = follow
			continue
		}
		return ans, true, nil
	}
	fmt.Fprintln(t.Out, "  (no valid answer; taking the default)")
	return "", false, nil
}

// AfterDiff asks for priority diff points (checkpoint 1).
func (t *Checkpoints) AfterDiff(ctx context.Context, a *diff.Analysis) ([]string, error) {
	n := func(c diff.Category) int { return len(a.ByCategory(c)) }
	q := fmt.Sprintf("\nDiff analysis complete. %d structural, %d content, %d contradictions, %d unique contributions found.\n"+
		"Would you like to highlight priority areas for debate? [Enter: continue with all diff points; or diff point ids, comma-separated] ",
		n(diff.CategoryStructural), n(diff.CategoryContent), n(diff.CategoryContradiction), n(diff.CategoryUnique))
	ans, ok, err := t.choose(ctx, q, "Diff point ids to debate first, comma-separated (e.g. S-001,C-002; Enter: all): ", func(ans string) (string, bool) {
		for _, id := range cli.SplitList(ans) {
			if _, ok := a.Point(strings.ToUpper(id)); !ok {
				return fmt.Sprintf("(no diff point %q)", id), false
			}
		}
		return "", true
	})
	if err != nil || !ok {
		return nil, err
	}
	var points []string
	for _, id := range cli.SplitList(ans) {
		points = append(points, strings.ToUpper(id))
	}
	return points, nil
}

// AfterDebate asks which unresolved points to mark resolved (checkpoint 2).
func (t *Checkpoints) AfterDebate(ctx context.Context, d *debate.Result) ([]string, error) {
	q := fmt.Sprintf("\nDebate complete. Convergence: %.0f%%. %d/%d contested points resolved.\n"+
		"Would you like to override the convergence assessment? [Enter: accept; or unresolved point ids to mark resolved (%s)] ",
		d.Convergence*100, d.ContestedAgreed, d.Contested, strings.Join(d.Unresolved, ", "))
	follow := fmt.Sprintf("Unresolved point ids to mark resolved, comma-separated (%s; Enter: accept): ", strings.Join(d.Unresolved, ", "))
	ans, ok, err := t.choose(ctx, q, follow, func(ans string) (string, bool) {
		for _, id := range cli.SplitList(ans) {
			if !slices.Contains(d.Unresolved, strings.ToUpper(id)) {
				return fmt.Sprintf("(%q is not an unresolved point)", id), false
			}
		}
		return "", true
	})
	if err != nil || !ok {
		return nil, err
	}
	var ids []string
	for _, id := range cli.SplitList(ans) {
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
	labels := make([]string, 0, len(card.Variants))
	for _, v := range card.Variants {
		labels = append(labels, v.Label)
	}
	follow := fmt.Sprintf("Which variant should be the base? [%s; Enter: accept] ", strings.Join(labels, ", "))
	ans, ok, err := t.choose(ctx, q, follow, func(ans string) (string, bool) {
		if _, ok := card.Variant(strings.ToUpper(ans)); !ok {
			return fmt.Sprintf("(no variant %q; the variants are %s)", ans, strings.Join(labels, ", ")), false
		}
		return "", true
	})
	if err != nil || !ok {
		return "", err
	}
	return strings.ToUpper(ans), nil
}

// AfterPlan asks which planned changes to drop (checkpoint 4).
func (t *Checkpoints) AfterPlan(ctx context.Context, p merge.Plan) (*merge.Plan, error) {
	q := fmt.Sprintf("\nRefactoring plan: %d changes planned, %d rejected. Risk: %s overall.\n"+
		"Would you like to modify the plan before execution? [Enter: execute as-is; or change numbers to drop, comma-separated] ",
		len(p.Changes), len(p.Rejected), p.OverallRisk())
	follow := fmt.Sprintf("Change numbers to drop, comma-separated (1–%d; Enter: execute as-is): ", len(p.Changes))
	var drop []int
	_, ok, err := t.choose(ctx, q, follow, func(ans string) (string, bool) {
		drop = drop[:0]
		for _, s := range cli.SplitList(ans) {
			n, err := strconv.Atoi(strings.TrimPrefix(s, "#"))
			if err != nil || n < 1 || n > len(p.Changes) {
				return fmt.Sprintf("(no change %q; the changes are numbered 1–%d)", s, len(p.Changes)), false
			}
			drop = append(drop, n)
		}
		if len(drop) == 0 {
			return "(no change numbers given)", false
		}
		return "", true
	})
	if err != nil || !ok {
		return nil, err
	}
	q2 := p
	q2.Changes = nil
	for i, c := range p.Changes {
		if !slices.Contains(drop, i+1) {
			q2.Changes = append(q2.Changes, c)
		}
	}
	return &q2, nil
}
