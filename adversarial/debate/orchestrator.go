package debate

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/words"
)

// OrchestratorThreshold is the number of advocates from which [Run] adds
// an orchestrator: it groups similar variants, runs
// elimination rounds within the groups and debates the finalists, so that
// ten advocates do not all argue every point with each other. The
// orchestrator is infrastructure: it does not count towards the 2–10
// agent limit.
const OrchestratorThreshold = 5

// orchestrate runs the elimination rounds and the final debate. The final
// debate's transcript is the run's; its log documents the groups and the
// eliminations.
//
// An advocate that fails in an elimination round (after its retry) is
// dropped there, as in any debate: the group goes on with whoever remains.
// A group left with one advocate gives it a bye; a group left with none
// sends no finalist. Should fewer than two finalists remain, the best
// remaining runners-up join the final; only when fewer than two advocates
// remain in all does the debate abort. Which groups fail never decides
// whether the run goes on: only how many advocates remain does.
func orchestrate(ctx context.Context, in Input, cfg config, points []diff.Point) (*Result, error) {
	groups := groupVariants(in.Variants)
	// The groups' elimination rounds are independent: they run at once.
	// Their background work waits until every group's advocates have
	// their turns (see firstTurns).
	var debated []string
	for _, grp := range groups {
		if len(grp) > 1 {
			debated = append(debated, labelsOf(in, grp)...)
		}
	}
	elim := cfg
	elim.eliminations = newFirstTurns(debated)
	results := make([]*Result, len(groups))
	g, gctx := errgroup.WithContext(ctx)
	for gi, grp := range groups {
		if len(grp) == 1 {
			continue
		}
		g.Go(func() error {
			sub := subset(in, grp)
			sub.Depth = DepthQuick // an elimination round is one round of statements
			res, err := debateOnce(gctx, sub, elim)
			var de *Error
			if err != nil && errors.Is(err, ErrTooFewAdvocates) && errors.As(err, &de) && de.Result != nil && gctx.Err() == nil {
				res, err = de.Result, nil // whoever remains goes on
			}
			if err != nil {
				return fmt.Errorf("elimination round of group %d (%s): %w", gi+1, strings.Join(labelsOf(in, grp), ", "), err)
			}
			results[gi] = res
			return nil
		})
	}
	// While the elimination rounds' first turns are in flight, every
	// variant is measured once for the heuristic: the groups and the final
	// share the measures.
	warmed := warmMeasures(gctx, elim.eliminations, cfg.shared, in, points)
	err := g.Wait()
	warmed()
	if err != nil {
		return nil, err
	}
	var log []string
	var finalists, runnersUp []int
	var failures []AgentFailure
	won := map[int]int{}
	for gi, grp := range groups {
		names := labelsOf(in, grp)
		if len(grp) == 1 {
			finalists = append(finalists, grp[0])
			log = append(log, fmt.Sprintf("Orchestrator: group %d (%s) advances Variant %s unopposed", gi+1, names[0], names[0]))
			continue
		}
		res := results[gi]
		failures = append(failures, res.Failures...)
		dropped := res.Dropped()
		var left []int
		tally := make([]string, 0, len(grp))
		for _, i := range grp {
			l := in.Variants[i].Label
			if slices.Contains(dropped, l) {
				tally = append(tally, l+" failed")
				continue
			}
			won[i] = res.PointsWon(l)
			tally = append(tally, fmt.Sprintf("%s %d", l, won[i]))
			left = append(left, i)
		}
		switch len(left) {
		case 0:
			log = append(log, fmt.Sprintf("Orchestrator: group %d (%s) — every advocate failed; the group sends no finalist", gi+1, strings.Join(names, ", ")))
			continue
		case 1:
			finalists = append(finalists, left[0])
			log = append(log, fmt.Sprintf("Orchestrator: group %d (%s) — the other advocates failed (%s); Variant %s advances by a bye",
				gi+1, strings.Join(names, ", "), strings.Join(tally, ", "), in.Variants[left[0]].Label))
			continue
		}
		best := left[0]
		for _, i := range left[1:] {
			if won[i] > won[best] {
				best = i
			}
		}
		for _, i := range left {
			if i != best {
				runnersUp = append(runnersUp, i)
			}
		}
		finalists = append(finalists, best)
		log = append(log, fmt.Sprintf("Orchestrator: group %d (%s) — elimination round, points won: %s; Variant %s advances",
			gi+1, strings.Join(names, ", "), strings.Join(tally, ", "), in.Variants[best].Label))
	}
	if len(finalists) < 2 {
		// Whoever remains debates: the best runners-up fill the final.
		sort.SliceStable(runnersUp, func(a, b int) bool {
			if won[runnersUp[a]] != won[runnersUp[b]] {
				return won[runnersUp[a]] > won[runnersUp[b]]
			}
			return runnersUp[a] < runnersUp[b]
		})
		for _, i := range runnersUp {
			if len(finalists) >= 2 {
				break
			}
			finalists = append(finalists, i)
			log = append(log, fmt.Sprintf("Orchestrator: Variant %s joins the final as the best runner-up: too few finalists remain", in.Variants[i].Label))
		}
	}
	sort.Ints(finalists)
	if len(finalists) < 2 {
		// Fewer than two advocates remain in all: the debate aborts. The
		// result holds a group's rounds and every failure, so the caller
		// finds the survivor.
		var res *Result
		for _, r := range results {
			if r != nil {
				res = r
				break
			}
		}
		// The group's round becomes the run's result: its scoring
		// matrix, which an elimination round goes without, as its
		// debate ended.
		res.Decisions = decide(in.Analysis, res, res.Stop.Reason == StopAborted)
		res.Failures = nil
		res.EliminationFailures = failures
		res.Stop = Stop{Reason: StopAborted, Round: 1, Log: "Debate aborted: fewer than 2 advocates remain after the elimination rounds"}
		res.Log = append(log, res.Stop.Log)
		return nil, &Error{Result: res, Err: ErrTooFewAdvocates}
	}
	res, err := debateOnce(ctx, subset(in, finalists), cfg)
	if res == nil {
		var de *Error
		if errors.As(err, &de) {
			res = de.Result
		}
	}
	if res != nil {
		res.EliminationFailures = failures
		res.Log = append(log, res.Log...)
		res.Log = append(res.Log, fmt.Sprintf("Orchestrator: final debate among %s", strings.Join(labelsOf(in, finalists), ", ")))
	}
	return res, err
}

func labelsOf(in Input, idx []int) []string {
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = in.Variants[i].Label
	}
	return out
}

// subset is the debate input restricted to the variants at the indexes,
// which must be in input order.
func subset(in Input, idx []int) Input {
	out := in
	out.Variants, out.Advocates = nil, nil
	for _, i := range idx {
		out.Variants = append(out.Variants, in.Variants[i])
		out.Advocates = append(out.Advocates, in.Advocates[i])
	}
	return out
}

// groupVariants groups similar variants deterministically: ⌈n/3⌉ groups
// of at most ⌈n/⌈n/3⌉⌉ variants, formed by repeatedly joining the two
// groups whose variants are most alike (the average word overlap of their
// texts), ties broken by input order.
func groupVariants(vs []Variant) [][]int {
	n := len(vs)
	want := (n + 2) / 3
	limit := (n + want - 1) / want
	// The grouping runs before any advocate is asked, on the critical
	// path: the word sets are built at once (one goroutine per CPU) and
	// each pair's overlap is computed once, not once per candidate join.
	sets := make([]words.Set, n)
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, v := range vs {
		if v.Doc != nil {
			g.Go(func() error {
				sets[i] = words.NewSet(v.Doc.Source)
				return nil
			})
		}
	}
	_ = g.Wait() // building a set cannot fail
	dice := make([][]float64, n)
	for i := range dice {
		dice[i] = make([]float64, n)
		for j := range i {
			dice[i][j] = sets[i].Dice(sets[j])
			dice[j][i] = dice[i][j]
		}
	}
	sim := func(a, b []int) float64 {
		total := 0.0
		for _, i := range a {
			for _, j := range b {
				total += dice[i][j]
			}
		}
		return total / float64(len(a)*len(b))
	}
	groups := make([][]int, n)
	for i := range groups {
		groups[i] = []int{i}
	}
	for len(groups) > want {
		bi, bj, best := -1, -1, -1.0
		for i := range groups {
			for j := i + 1; j < len(groups); j++ {
				if len(groups[i])+len(groups[j]) > limit {
					continue
				}
				if s := sim(groups[i], groups[j]); s > best {
					bi, bj, best = i, j, s
				}
			}
		}
		if bi < 0 {
			limit++ // no two groups fit together: let them grow by one
			continue
		}
		merged := append(append([]int(nil), groups[bi]...), groups[bj]...)
		sort.Ints(merged)
		groups[bi] = merged
		groups = append(groups[:bj], groups[bj+1:]...)
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i][0] < groups[j][0] })
	return groups
}
