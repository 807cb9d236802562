package debate

import (
	"fmt"
	"slices"
	"strings"
)

// MarkResolved applies a user's override at the checkpoint after the
// debate: each unresolved point among ids goes to the variant most
// advocates preferred (on a tie, the variant with the most votes in the
// last round, the earliest in input order among equals), the convergence,
// status and points won are recomputed, and Log records it. Points that
// are resolved already, unknown or without any vote are left as they are.
func (r *Result) MarkResolved(ids []string) {
	var marked []string
	for i := range r.Decisions {
		dec := &r.Decisions[i]
		if !slices.Contains(ids, dec.Point) || dec.Resolved() || !slices.Contains(r.Unresolved, dec.Point) {
			continue
		}
		winner := dec.Leader
		if winner == "" {
			winner = tieBreak(r, dec.Point)
		}
		if winner == "" {
			continue
		}
		dec.Winner = winner
		marked = append(marked, dec.Point)
		r.Unresolved = slices.DeleteFunc(r.Unresolved, func(p string) bool { return p == dec.Point })
	}
	if len(marked) == 0 {
		return
	}
	r.Consensus = resolvedConsensus(r)
	if r.Convergence >= r.Threshold {
		r.Status = Converged
	}
	r.Wins = recountWins(r)
	r.Log = append(r.Log, fmt.Sprintf("Approval: user-overridden — marked resolved by the user: %s (convergence now %.0f%%)",
		strings.Join(marked, ", "), r.Convergence*100))
}

// tieBreak picks, for a point the advocates split on evenly, the variant
// with the most votes in the last round, the earliest in input order among
// equals: a user who marks the point resolved accepts that choice.
func tieBreak(d *Result, point string) string {
	if len(d.Rounds) == 0 {
		return ""
	}
	votes := map[string]int{}
	for _, t := range d.Rounds[len(d.Rounds)-1].Tallies {
		if t.Point == point {
			for _, v := range t.Votes {
				votes[v.Prefer]++
			}
		}
	}
	best := ""
	for _, v := range d.Variants {
		if votes[v.Label] > votes[best] {
			best = v.Label
		}
	}
	return best
}

func recountWins(d *Result) []VariantWins {
	out := slices.Clone(d.Wins)
	for i := range out {
		out[i].Won = 0
		for _, dec := range d.Decisions {
			if dec.Winner == out[i].Variant {
				out[i].Won++
			}
		}
	}
	return out
}

// resolvedConsensus counts the agreed points after an override: the
// decided ones among the points debated.
func resolvedConsensus(r *Result) Consensus {
	tallies := make([]Tally, 0, len(r.Points))
	for _, id := range r.Points {
		t := Tally{Point: id, Agreed: true}
		if dec, ok := r.Decision(id); ok && !dec.Resolved() {
			t.Agreed = false
		}
		tallies = append(tallies, t)
	}
	return consensus(tallies, r.contestedSet())
}
