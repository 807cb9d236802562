package debate

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/internal/words"
)

// OrchestratorThreshold is the number of advocates from which [Run] adds
// the seed's orchestrator: it groups similar variants, runs
// elimination rounds within the groups and debates the finalists, so that
// ten advocates do not all argue every point with each other. The
// orchestrator is infrastructure: it does not count towards the 2–10
// agent limit.
const OrchestratorThreshold = 5

// orchestrate runs the elimination rounds and the final debate. The final
// debate's transcript is the run's; its log documents the groups and the
// eliminations.
func orchestrate(ctx context.Context, in Input, cfg config) (*Result, error) {
	groups := groupVariants(in.Variants)
	// The groups' elimination rounds are independent: they run at once.
	results := make([]*Result, len(groups))
	g, gctx := errgroup.WithContext(ctx)
	for gi, grp := range groups {
		if len(grp) == 1 {
			continue
		}
		g.Go(func() error {
			sub := subset(in, grp)
			sub.Depth = DepthQuick // an elimination round is one round of statements
			res, err := debateOnce(gctx, sub, cfg)
			if err != nil {
				return fmt.Errorf("elimination round of group %d (%s): %w", gi+1, strings.Join(labelsOf(in, grp), ", "), err)
			}
			results[gi] = res
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var log []string
	var finalists []int
	for gi, grp := range groups {
		names := labelsOf(in, grp)
		if len(grp) == 1 {
			finalists = append(finalists, grp[0])
			log = append(log, fmt.Sprintf("Orchestrator: group %d (%s) advances Variant %s unopposed", gi+1, names[0], names[0]))
			continue
		}
		res := results[gi]
		best, tally := grp[0], make([]string, 0, len(grp))
		for _, i := range grp {
			won := res.PointsWon(in.Variants[i].Label)
			tally = append(tally, fmt.Sprintf("%s %d", in.Variants[i].Label, won))
			if won > res.PointsWon(in.Variants[best].Label) {
				best = i
			}
		}
		finalists = append(finalists, best)
		log = append(log, fmt.Sprintf("Orchestrator: group %d (%s) — elimination round, points won: %s; Variant %s advances",
			gi+1, strings.Join(names, ", "), strings.Join(tally, ", "), in.Variants[best].Label))
	}
	sort.Ints(finalists)
	res, err := debateOnce(ctx, subset(in, finalists), cfg)
	if res != nil {
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
	sets := make([]words.Set, n)
	for i, v := range vs {
		if v.Doc != nil {
			sets[i] = words.NewSet(v.Doc.Source)
		}
	}
	sim := func(a, b []int) float64 {
		total := 0.0
		for _, i := range a {
			for _, j := range b {
				total += sets[i].Dice(sets[j])
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
