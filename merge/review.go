package merge

import (
	"context"
	"fmt"
	"strings"
)

// Reviewer is the host's interactive checkpoint after the plan (the
// pipeline's fourth, in interactive mode): it shows the plan to the user —
// [Plan.Summary] is the question, [Plan.Markdown] the full plan — and
// returns their verdict. An error (the user aborted, the context ended)
// stops the pipeline.
type Reviewer interface {
	ReviewPlan(ctx context.Context, p Plan) (Verdict, error)
}

// ReviewerFunc adapts a function to [Reviewer].
type ReviewerFunc func(ctx context.Context, p Plan) (Verdict, error)

// ReviewPlan calls f(ctx, p).
func (f ReviewerFunc) ReviewPlan(ctx context.Context, p Plan) (Verdict, error) { return f(ctx, p) }

// Verdict is the user's answer at checkpoint 4.
type Verdict struct {
	// Plan is the modified plan (changes added, removed or edited); nil
	// approves the plan as it is.
	Plan *Plan
	// Overrides says in the user's words what they changed; the plan
	// records them with the differences [Review] finds itself.
	Overrides []string
}

// Review runs checkpoint 4. Without a reviewer the plan stays
// auto-approved. A verdict without a plan makes it user-approved; a
// modified plan is renumbered 1…n, validated and marked user-modified, and
// every difference from the proposed plan is listed as an override. The
// approval time comes from the clock set with [WithClock].
func Review(ctx context.Context, p Plan, r Reviewer, opts ...Option) (Plan, error) {
	if r == nil {
		return p, nil
	}
	cfg := newConfig(opts)
	v, err := r.ReviewPlan(ctx, p)
	if err != nil {
		return p, fmt.Errorf("plan review: %w", err)
	}
	if v.Plan == nil {
		p.Review = ReviewStatus{State: UserApproved, By: "user", At: cfg.now(), Overrides: v.Overrides}
		return p, nil
	}
	q := *v.Plan
	if q.BaseDigest != p.BaseDigest || q.Base.Label != p.Base.Label {
		return p, &InputError{Kind: ErrInvalidPlan, Errs: []error{fmt.Errorf("the modified plan changes the base from %s; override the base at checkpoint 3 instead", p.Base)}}
	}
	q.Changes = append([]Change(nil), q.Changes...)
	renumber := map[int]int{}
	for i := range q.Changes {
		c := &q.Changes[i]
		if c.Number != i+1 {
			renumber[c.Number] = i + 1
			c.Rollback = strings.ReplaceAll(c.Rollback, fmt.Sprintf("Change #%d", c.Number), fmt.Sprintf("Change #%d", i+1))
			c.Number = i + 1
		}
	}
	q.Weaknesses = append([]Weakness(nil), q.Weaknesses...)
	for i := range q.Weaknesses {
		if n, ok := renumber[q.Weaknesses[i].Change]; ok {
			q.Weaknesses[i].Change = n
		}
	}
	q.Review = ReviewStatus{State: UserModified, By: "user", At: cfg.now(), Overrides: append(append([]string(nil), v.Overrides...), planDiff(p, q)...)}
	if err := q.Validate(); err != nil {
		return p, err
	}
	return q, nil
}

// planDiff lists how q's changes differ from p's, matching changes by
// their source section.
func planDiff(p, q Plan) []string {
	key := func(c Change) string {
		return c.Source.Variant.Label + "|" + c.Source.Section.Number + "|" + c.Source.Section.Title
	}
	qi := map[string]Change{}
	for _, c := range q.Changes {
		qi[key(c)] = c
	}
	var out []string
	pk := map[string]bool{}
	for _, c := range p.Changes {
		pk[key(c)] = true
		n, ok := qi[key(c)]
		if !ok {
			out = append(out, fmt.Sprintf("Removed Change #%d (%s from %s)", c.Number, c.Title, c.Source.Variant))
			continue
		}
		if n.Approach != c.Approach {
			out = append(out, fmt.Sprintf("Change #%d (%s): approach %s → %s", n.Number, n.Title, c.Approach, n.Approach))
		}
		if n.Target != c.Target {
			out = append(out, fmt.Sprintf("Change #%d (%s): target %s → %s", n.Number, n.Title, c.Target, n.Target))
		}
		if n.Source.Text != c.Source.Text {
			out = append(out, fmt.Sprintf("Change #%d (%s): source text edited", n.Number, n.Title))
		}
	}
	for _, c := range q.Changes {
		if !pk[key(c)] {
			out = append(out, fmt.Sprintf("Added Change #%d (%s from %s)", c.Number, c.Title, c.Source.Variant))
		}
	}
	return out
}
