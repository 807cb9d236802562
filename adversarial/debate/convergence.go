package debate

import (
	"context"
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/diff"
)

// tallyRound counts, for every point, which variant each advocate of the
// round prefers. labels gives the order ties are listed in.
func tallyRound(points []diff.Point, labels []string, sts []Statement) []Tally {
	tallies := make([]Tally, 0, len(points))
	// Every point's votes in one array: at most one per statement each.
	votes := make([]Vote, 0, len(points)*len(sts))
	for k, p := range points {
		t := Tally{Point: p.ID}
		start := len(votes)
		for _, st := range sts {
			if pos, ok := st.positionAt(k, p.ID); ok {
				votes = append(votes, Vote{Advocate: st.Variant, Prefer: pos.Prefer, Confidence: pos.Confidence, Concede: pos.Concede})
			}
		}
		if end := len(votes); end > start {
			t.Votes = votes[start:end:end] // nil when no one voted, as before
		}
		top, leader, tie := 0, "", false
		for _, l := range labels {
			// voteCounts(t.Votes)[l] without a map per point: a round has
			// at most ten votes and ten labels.
			c := 0
			for _, v := range t.Votes {
				if v.Prefer == l {
					c++
				}
			}
			switch {
			case c > top:
				top, leader, tie = c, l, false
			case c == top && c > 0:
				tie = true
			}
		}
		n := len(t.Votes)
		if !tie {
			t.Leader = leader
		}
		t.Unanimous = n > 0 && top == n
		t.Agreed = t.Unanimous || (n > 0 && top*3 >= 2*n)
		if t.Agreed {
			t.Winner = leader
		}
		tallies = append(tallies, t)
	}
	return tallies
}

func voteCounts(votes []Vote) map[string]int {
	counts := make(map[string]int, len(votes))
	for _, v := range votes {
		counts[v.Prefer]++
	}
	return counts
}

// convergence is agreed ÷ total; a debate over no points has nothing to
// disagree on.
func convergence(agreed, total int) float64 {
	if total == 0 {
		return 1
	}
	return float64(agreed) / float64(total)
}

// checkStop applies the early-termination conditions after round r, in
// the order: unanimity, oscillation, stable majority, the depth's last
// round, and (deep) the threshold that makes round 3 unnecessary.
func (d *debate) checkStop(r int) (Stop, bool) {
	cur := d.res.Rounds[r-1]
	conv := percent(cur.Convergence)
	T := d.res.Threshold
	unanimous := true
	for _, t := range cur.Tallies {
		unanimous = unanimous && t.Unanimous
	}
	if unanimous {
		return Stop{Reason: StopUnanimous, Round: r, Log: "Convergence: 100% (unanimous)"}, true
	}
	if r >= 2 {
		prev := d.res.Rounds[r-2]
		if osc := oscillating(prev, cur); len(osc) > 0 && cur.Convergence < T {
			return Stop{Reason: StopOscillation, Round: r, Points: osc,
				Log: fmt.Sprintf("Convergence: %s (oscillation detected on points: %s)", conv, strings.Join(osc, ", "))}, true
		}
		if cur.Convergence >= T && prev.Convergence >= T {
			return Stop{Reason: StopStableMajority, Round: r, Log: fmt.Sprintf("Convergence: %s (stable majority over 2 rounds)", conv)}, true
		}
	}
	if r >= d.rounds {
		return Stop{Reason: StopMaxRounds, Round: r, Log: fmt.Sprintf("Convergence: %s (max rounds reached)", conv)}, true
	}
	if r == 2 && cur.Convergence >= T {
		return Stop{Reason: StopThreshold, Round: r,
			Log: fmt.Sprintf("Convergence: %s (threshold %s reached after round 2)", conv, thresholdPercent(T))}, true
	}
	return Stop{}, false
}

// oscillating returns the points that are unresolved after cur and whose
// leading variant changed since prev: the advocates moved, but between
// winners rather than towards one.
func oscillating(prev, cur Round) []string {
	var out []string
	for i, t := range cur.Tallies {
		if i >= len(prev.Tallies) || t.Agreed {
			continue
		}
		was := prev.Tallies[i].Leader
		if was != "" && t.Leader != "" && was != t.Leader {
			out = append(out, t.Point)
		}
	}
	return out
}

// logSkips records the rounds that did not run after the debate stopped
// following round r, as "Round 2 skipped: depth=quick", "Round 3 skipped:
// convergence N% ≥ T%" and the like.
func (d *debate) logSkips(ctx context.Context, r int) {
	stop := d.res.Stop
	conv := percent(d.res.Rounds[r-1].Convergence)
	if r < 2 {
		if d.depth == DepthQuick {
			d.log(ctx, "Round 2 skipped: depth=quick")
		} else {
			d.log(ctx, "Round 2 skipped: "+stop.Log)
		}
	}
	if r < 3 {
		switch {
		case d.depth != DepthDeep:
			d.log(ctx, "Round 3 skipped: depth="+string(d.depth))
		case r == 2 && d.res.Rounds[r-1].Convergence >= d.res.Threshold:
			d.log(ctx, fmt.Sprintf("Round 3 skipped: convergence %s ≥ %s", conv, thresholdPercent(d.res.Threshold)))
		default:
			d.log(ctx, "Round 3 skipped: "+stop.Log)
		}
	}
}
