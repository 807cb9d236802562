package debate

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

// A script says, per round and variant, which variant each advocate
// prefers on each point: one letter per point, upper case to prefer,
// lower case to prefer and concede ("AbA" prefers A on the first point,
// concedes the second to B, prefers A on the third).
type script map[int]map[string]string

// synthetic builds a debate over n hand-made variants and a hand-made
// analysis with the given number of points, so that tests control every
// position exactly.
func synthetic(t testing.TB, n, points int) Input {
	t.Helper()
	return syntheticOf(t, n, points, diff.CategoryStructural, diff.CategoryContent, diff.CategoryContradiction, diff.CategoryUnique)
}

// syntheticOf is synthetic with the points' categories taken in turn from
// cats.
func syntheticOf(t testing.TB, n, points int, cats ...diff.Category) Input {
	t.Helper()
	a := &diff.Analysis{ArtifactType: "Specification", Generated: fixedClock()}
	in := Input{Analysis: a}
	for i := range n {
		l := diff.Label(i)
		src := fmt.Sprintf("# Variant %s\n\n## Scope\n\nVariant %s keeps the retry timeout at %d seconds.\n\n## Storage\n\nUse store number %d.\n", l, l, 10*(i+1), i+1)
		d, err := diff.Parse(strings.ToLower(l)+".md", []byte(src))
		require.NoError(t, err)
		a.Variants = append(a.Variants, diff.VariantInfo{Label: l, Name: d.Name, Sections: 2, Lines: d.Lines, Words: d.Words, MaxDepth: 1})
		in.Variants = append(in.Variants, Variant{Label: l, Agent: []string{"opus:architect", "sonnet:security", "haiku", "gpt52:qa", "gemini"}[i%5], Doc: d})
	}
	seq := map[diff.Category]int{}
	for k := range points {
		c := cats[k%len(cats)]
		seq[c]++
		p := diff.Point{ID: fmt.Sprintf("%s-%03d", c.Prefix(), seq[c]), Category: c, Kind: "scripted", Title: fmt.Sprintf("Scripted point %d", k+1),
			Rating: diff.Medium, Reason: "scripted"}
		for i := range n {
			p.Positions = append(p.Positions, diff.Position{Text: "position of " + diff.Label(i), Section: 1})
			p.Variants = append(p.Variants, i)
			if c == diff.CategoryContradiction {
				// The timeouts differ: the variants' claims on line 5 are
				// the conflict, so the content points on that section
				// are contested (see contest.go).
				p.Scope = diff.CrossVariant
				p.Evidence = append(p.Evidence, diff.Evidence{Variant: i, Line: 5, Quote: fmt.Sprintf("Variant %s keeps the retry timeout at %d seconds.", diff.Label(i), 10*(i+1))})
			}
		}
		a.Points = append(a.Points, p)
	}
	// keep the analysis's order: S, C, X, U
	ordered := make([]diff.Point, 0, len(a.Points))
	for _, c := range []diff.Category{diff.CategoryStructural, diff.CategoryContent, diff.CategoryContradiction, diff.CategoryUnique} {
		ordered = append(ordered, a.ByCategory(c)...)
	}
	a.Points = ordered
	return in
}

// scriptedFake answers advocate requests from the script: round 1
// statements criticise the next variant on the first point, round 2
// statements answer every criticism.
func scriptedFake(t testing.TB, in Input, s script) *providertest.Fake {
	t.Helper()
	labels := make([]string, len(in.Variants))
	for i, v := range in.Variants {
		labels[i] = v.Label
	}
	var ids []string
	for _, p := range in.Analysis.Points {
		ids = append(ids, p.ID)
	}
	f := providertest.NewFake()
	// Replies are built once per turn, so that benchmarks measure the
	// debate rather than the fake.
	var mu sync.Mutex
	replies := map[string]provider.Response{}
	f.Default = func(_ context.Context, req provider.Request) (provider.Response, error) {
		round, _ := strconv.Atoi(req.Tag(provider.TagRound))
		self := req.Tag(provider.TagVariant)
		prefs, ok := s[round][self]
		if !ok {
			return provider.Response{}, fmt.Errorf("script has no round %d for variant %s", round, self)
		}
		n := criticismCount(req)
		key := fmt.Sprint(round, self, n)
		mu.Lock()
		defer mu.Unlock()
		resp, ok := replies[key]
		if !ok {
			resp = providertest.TextResponse(req, scriptedReply(round, self, labels, ids, prefs, n))
			replies[key] = resp
		}
		return resp, nil
	}
	return f
}

// criticismCount reads how many criticisms the prompt lists.
func criticismCount(req provider.Request) int {
	return strings.Count(req.Messages[len(req.Messages)-1].Content, ". From Variant ")
}

func scriptedReply(round int, self string, labels, ids []string, prefs string, criticisms int) string {
	r := statementReply{Position: fmt.Sprintf("Variant %s argues its case in round %d.", self, round)}
	for _, l := range labels {
		if l == self {
			continue
		}
		r.Steelman = append(r.Steelman, Steelman{Variant: l, Argument: "Variant " + l + " is thorough where it counts."})
		if round == 1 && labels[(indexOf(labels, self)+1)%len(labels)] == l {
			r.Weaknesses = append(r.Weaknesses, criticismReply{Against: l, Point: ids[0], Text: "Variant " + l + " is vague on " + ids[0], Evidence: "“position of " + l + "”"})
		}
	}
	r.Strengths = []Claim{{Point: ids[0], Text: "Variant " + self + " is specific", Evidence: "“Variant " + self + " keeps the retry timeout”"}}
	for i := range criticisms {
		r.Responses = append(r.Responses, responseReply{Criticism: i + 1, Reply: "Counter-evidence: the section is specific."})
	}
	if round == 3 {
		r.Remaining = []Claim{{Point: ids[0], Text: "still holds", Evidence: "“Use store number”"}}
	}
	for k, id := range ids {
		c := rune(prefs[k])
		pos := positionReply{Point: id, Prefer: string(unicode.ToUpper(c)), Confidence: 80, Evidence: "scripted evidence for " + id + ". A second sentence."}
		if unicode.IsLower(c) {
			pos.Concede = true
			pos.Confidence = 90
			r.Concessions = append(r.Concessions, id+" goes to Variant "+pos.Prefer)
		}
		r.Positions = append(r.Positions, pos)
	}
	b, _ := json.MarshalIndent(r, "", "  ")
	return "Here is my statement.\n\n```json\n" + string(b) + "\n```\n"
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// modelAdvocates returns model advocates for the variants over p.
func modelAdvocates(t testing.TB, in Input, p provider.Provider) []Advocate {
	t.Helper()
	var out []Advocate
	for _, v := range in.Variants {
		spec, err := ParseAgentSpec(v.Agent)
		require.NoError(t, err)
		a, err := NewModelAdvocate(p, spec)
		require.NoError(t, err)
		out = append(out, a)
	}
	return out
}
