package debate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/words"
)

// decide builds the scoring matrix: one decision per point of the
// analysis, from the final round's tally.
func decide(a *diff.Analysis, res *Result, aborted bool) []Decision {
	var final *Round
	for i := range res.Rounds {
		if res.Rounds[i].Complete {
			final = &res.Rounds[i]
		}
	}
	debated := make(map[string]bool, len(res.Points))
	for _, id := range res.Points {
		debated[id] = true
	}
	out := make([]Decision, 0, len(a.Points))
	k := -1 // the point's index among the debated points
	for _, p := range a.Points {
		if debated[p.ID] {
			k++
		}
		dec := Decision{Point: p.ID, Title: p.Title, Confidence: 50}
		switch {
		case !debated[p.ID]:
			dec.Agreement = AgreementNotDebated
			dec.Evidence = "Not debated: the point was left out of the debate."
		case aborted || final == nil:
			dec.Agreement = AgreementUndecided
			dec.Round = res.Stop.Round
			dec.Evidence = fmt.Sprintf("Undecided: the debate was aborted in round %d.", res.Stop.Round)
		default:
			dec = decidePoint(dec, k, res, final)
		}
		out = append(out, dec)
	}
	return out
}

// decidedWinners returns the Winner of each of decide's decisions, in
// their order, without deciding the rest of the matrix.
func decidedWinners(a *diff.Analysis, res *Result, aborted bool) []string {
	var final *Round
	for i := range res.Rounds {
		if res.Rounds[i].Complete {
			final = &res.Rounds[i]
		}
	}
	out := make([]string, len(a.Points))
	if aborted || final == nil {
		return out // undecided, or not debated: no winner
	}
	debated := make(map[string]bool, len(res.Points))
	for _, id := range res.Points {
		debated[id] = true
	}
	k := -1 // the point's index among the debated points
	for i, p := range a.Points {
		if debated[p.ID] {
			k++
			t, _ := tallyAt(*final, k, p.ID)
			out[i] = t.Winner
		}
	}
	return out
}

// decidePoint calibrates one decision's confidence: unanimous 90–100,
// majority 60–89, split 50 and unresolved; +10 when a losing advocate
// conceded; 100 only when every losing advocate explicitly conceded; never
// below 50. Within a band the advocates' own confidence sets the place.
func decidePoint(dec Decision, k int, res *Result, final *Round) Decision {
	t, _ := tallyAt(*final, k, dec.Point)
	dec.Leader, dec.Winner, dec.Voters, dec.Round = t.Leader, t.Winner, len(t.Votes), final.Number
	pick := t.Leader
	var mean float64
	for _, v := range t.Votes {
		if pick != "" && v.Prefer == pick {
			dec.Support++
			mean += float64(v.Confidence)
		}
	}
	if dec.Support > 0 {
		mean /= float64(dec.Support)
	}
	strength := (mean - 50) / 50 // 0..1: how sure the supporters are

	if !t.Agreed {
		dec.Agreement = AgreementSplit
		dec.Confidence = 50
		dec.Evidence = splitSummary(t, k, res)
		return dec
	}
	losers := 0
	for _, v := range t.Votes {
		if v.Advocate == dec.Winner {
			continue
		}
		losers++
		if v.Prefer == dec.Winner && conceded(res, final.Number, k, v.Advocate, dec.Point, dec.Winner) {
			dec.Conceded = append(dec.Conceded, v.Advocate)
		}
	}
	boost := 0
	if len(dec.Conceded) > 0 {
		boost = 10
	}
	if t.Unanimous {
		dec.Agreement = AgreementUnanimous
		dec.Confidence = min(90+int(math.Round(9*strength))+boost, 99)
		if losers > 0 && len(dec.Conceded) == losers {
			dec.Confidence = 100
		}
	} else {
		dec.Agreement = AgreementMajority
		share := float64(dec.Support) / float64(dec.Voters)
		c := 60 + int(math.Round(19*(share-2.0/3)*3)) + int(math.Round(10*strength)) + boost
		dec.Confidence = min(max(c, 60), 89)
	}
	dec.Round = heldSince(res, final.Number, k, dec.Point, dec.Winner)
	dec.Evidence = winnerSummary(t, k, dec, res)
	return dec
}

// tallyAt returns the round's tally of the k-th debated point.
func tallyAt(r Round, k int, point string) (Tally, bool) {
	if k >= 0 && k < len(r.Tallies) && r.Tallies[k].Point == point {
		return r.Tallies[k], true
	}
	for _, t := range r.Tallies {
		if t.Point == point {
			return t, true
		}
	}
	return Tally{}, false
}

// conceded reports whether the advocate explicitly conceded the point to
// winner in some round up to the final one.
func conceded(res *Result, final, k int, advocate, point, winner string) bool {
	for _, r := range res.Rounds[:final] {
		t, _ := tallyAt(r, k, point)
		for _, v := range t.Votes {
			if v.Advocate == advocate && v.Concede && v.Prefer == winner {
				return true
			}
		}
	}
	return false
}

// heldSince returns the first round from which the point was agreed on
// winner in every round up to the final one.
func heldSince(res *Result, final, k int, point, winner string) int {
	since := final
	for r := final; r >= 1; r-- {
		round := res.Rounds[r-1]
		t, ok := tallyAt(round, k, point)
		if !ok || !round.Complete || !t.Agreed || t.Winner != winner {
			break
		}
		since = r
	}
	return since
}

// winnerSummary is the evidence summary of an agreed point: the strongest
// supporting evidence (the winner's own advocate's if it spoke), then who
// agreed and conceded. Two sentences at most.
func winnerSummary(t Tally, k int, dec Decision, res *Result) string {
	ev := supportingEvidence(t, k, dec.Winner, res)
	var agree string
	if dec.Agreement == AgreementUnanimous {
		agree = "All " + strconv.Itoa(dec.Voters) + " advocates agree"
	} else {
		agree = strconv.Itoa(dec.Support) + " of " + strconv.Itoa(dec.Voters) + " advocates agree"
	}
	if len(dec.Conceded) > 0 {
		agree += "; " + variantList(dec.Conceded) + " conceded"
	}
	return joinSentences(ev, agree)
}

// splitSummary is the evidence summary of an unresolved point: the vote
// and, when one variant leads, its best evidence.
func splitSummary(t Tally, k int, res *Result) string {
	counts := voteCounts(t.Votes)
	var parts []string
	for _, v := range res.Variants {
		if c := counts[v.Label]; c > 0 {
			parts = append(parts, "Variant "+v.Label+" "+strconv.Itoa(c))
		}
	}
	first := "No majority (" + strings.Join(parts, ", ") + ")"
	if t.Leader == "" {
		return first + "."
	}
	first += "; Variant " + t.Leader + " leads."
	if ev := firstSentence(oneLine(supportingEvidence(t, k, t.Leader, res)), 240); ev != "" {
		return first + " " + ev
	}
	return first
}

// supportingEvidence picks the evidence of the advocate of winner if it
// prefers winner, else of the most confident supporter (the first in input
// order on a tie), from the final round.
func supportingEvidence(t Tally, k int, winner string, res *Result) string {
	best, bestConf := "", -1
	for _, v := range t.Votes {
		if v.Prefer != winner {
			continue
		}
		conf := v.Confidence
		if v.Advocate == winner {
			conf = 1000
		}
		if conf > bestConf {
			best, bestConf = v.Advocate, conf
		}
	}
	final := res.Rounds[len(res.Rounds)-1]
	for i := len(res.Rounds) - 1; i >= 0; i-- {
		if res.Rounds[i].Complete {
			final = res.Rounds[i]
			break
		}
	}
	for _, st := range final.Statements {
		if st.Variant != best {
			continue
		}
		if pos, ok := st.positionAt(k, t.Point); ok {
			return pos.Evidence
		}
	}
	return ""
}

// variantList names advocates: "Variant B advocate", "Variants B and C
// advocates".
func variantList(labels []string) string {
	if len(labels) == 1 {
		return "Variant " + labels[0] + " advocate"
	}
	return "Variants " + strings.Join(labels[:len(labels)-1], ", ") + " and " + labels[len(labels)-1] + " advocates"
}

// joinSentences makes the summary: the first sentence of evidence, then
// tail, each ending in a full stop.
func joinSentences(evidence, tail string) string {
	ev := firstSentence(oneLine(evidence), 240)
	tail = strings.TrimRight(tail, ". ") + "."
	if ev == "" {
		return tail
	}
	return ev + " " + tail
}

// firstSentence returns s up to the end of its first sentence (a '.', '!'
// or '?' followed by a space, outside quotation marks and parentheses —
// a citation "(Variant A, §1. Overview, L3)" does not end one), clipped
// to limit runes, ending in punctuation.
func firstSentence(s string, limit int) string {
	s = strings.TrimSpace(s)
	end, curly, straight, parens := len(s), 0, false, 0
scan:
	for i, r := range s {
		switch r {
		case '(':
			parens++
		case ')':
			parens = max(parens-1, 0)
		case '“':
			curly++
		case '”':
			curly = max(curly-1, 0)
		case '"':
			straight = !straight
		case '.', '!', '?':
			if curly == 0 && !straight && parens == 0 && i+1 < len(s) && s[i+1] == ' ' {
				end = i + 1
				break scan
			}
		}
	}
	s = s[:end]
	s = clip(s, limit)
	if s != "" && !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "…") {
		s += "."
	}
	return s
}

// oneLine collapses whitespace, line breaks included, to single spaces.
func oneLine(s string) string { return words.OneLine(s) }
