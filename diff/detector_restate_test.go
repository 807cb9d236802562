package diff

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

// restatingProvider answers the detector's topic requests: the first with
// the phase count (A1/B1), the others with the duration of phase 1
// (A7/B6); and the restatement check with groups, or fails it.
func restatingProvider(groups string, fail error) (provider.Provider, *[]provider.Request) {
	var mu sync.Mutex
	var seen []provider.Request
	p := provider.Func(func(_ context.Context, req provider.Request) (provider.Response, error) {
		mu.Lock()
		seen = append(seen, req)
		mu.Unlock()
		part := req.Tag(TagDetectorPart)
		switch {
		case part == TagDetectorRestatements && fail != nil:
			return provider.Response{}, fail
		case part == TagDetectorRestatements:
			return providertest.TextResponse(req, groups), nil
		case strings.HasPrefix(part, "1/"):
			return providertest.TextResponse(req, `{"contradictions": [{"subject": "number of phases the service ships in", "kind": "numeric", "sides": [{"id": "A1"}, {"id": "B1"}], "confidence": "high", "reason": "3 phases against 2"}]}`), nil
		}
		return providertest.TextResponse(req, `{"contradictions": [{"subject": "duration of phase 1", "kind": "numeric", "sides": [{"id": "A7"}, {"id": "B6"}], "confidence": "high", "reason": "2 weeks against 4"}]}`), nil
	})
	return p, &seen
}

// TestModelDetectorMergesRestatedFindings: with several requests, the
// model is asked which verified findings report one disagreement, and a
// group it names becomes one finding citing all their statements; a
// failed check keeps the findings as found, a cancelled one is an error,
// and the check can be turned off.
func TestModelDetectorMergesRestatedFindings(t *testing.T) {
	docs := planDocs(t)
	detect := func(t *testing.T, p provider.Provider, opts ...ModelDetectorOption) (Findings, error) {
		m, err := NewModelDetector(p, "opus", append([]ModelDetectorOption{WithDetectorGroupTokens(1)}, opts...)...)
		require.NoError(t, err)
		plan, err := m.Plan(NewDetectInput(docs...))
		require.NoError(t, err)
		require.Greater(t, len(plan.Requests), 1, "the test needs several topic requests")
		return m.DetectAll(context.Background(), NewDetectInput(docs...))
	}
	subjects := func(f Findings) []string {
		var out []string
		for _, c := range f.Contradictions {
			out = append(out, c.Subject)
		}
		return out
	}

	t.Run("a group is one finding", func(t *testing.T) {
		p, seen := restatingProvider(`{"groups": [{"findings": ["F1", "F2"], "subject": "how the phases are planned"}]}`, nil)
		f, err := detect(t, p)
		require.NoError(t, err)
		require.Len(t, f.Contradictions, 1)
		c := f.Contradictions[0]
		assert.Equal(t, "number of phases the service ships in", c.Subject)
		assert.Equal(t, [][2]int{{0, 5}, {0, 19}, {1, 5}, {1, 18}}, claimLines(c.Claims))
		assert.Contains(t, c.Reason, `(reported again as "duration of phase 1")`)
		last := (*seen)[len(*seen)-1]
		assert.Equal(t, TagDetectorRestatements, last.Tag(TagDetectorPart))
		assert.Contains(t, last.Messages[0].Content, "F1 (numeric; between variants A, B): number of phases the service ships in")
		assert.Contains(t, last.Messages[0].Content, "  - B L18: Phase 1 — Duration: 4 weeks; Owner: Ana")
		assert.NotNil(t, last.Schema)
	})
	t.Run("no group", func(t *testing.T) {
		p, _ := restatingProvider(`{"groups": []}`, nil)
		f, err := detect(t, p)
		require.NoError(t, err)
		assert.ElementsMatch(t, []string{"number of phases the service ships in", "duration of phase 1"}, subjects(f))
	})
	t.Run("a failed check keeps the findings", func(t *testing.T) {
		p, _ := restatingProvider("", &provider.Error{Kind: provider.ErrUnavailable, Provider: "fake", Message: "down"})
		f, err := detect(t, p)
		require.NoError(t, err)
		assert.Len(t, f.Contradictions, 2)
	})
	t.Run("a cancelled check is an error", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		p := provider.Func(func(_ context.Context, req provider.Request) (provider.Response, error) {
			if req.Tag(TagDetectorPart) == TagDetectorRestatements {
				cancel()
				return provider.Response{}, context.Canceled
			}
			inner, _ := restatingProvider("", nil)
			return inner.Complete(ctx, req)
		})
		m, err := NewModelDetector(p, "opus", WithDetectorGroupTokens(1))
		require.NoError(t, err)
		_, err = m.DetectAll(ctx, NewDetectInput(docs...))
		assert.True(t, errors.Is(err, context.Canceled), "%v", err)
	})
	t.Run("turned off", func(t *testing.T) {
		p, seen := restatingProvider(`{"groups": [{"findings": ["F1", "F2"]}]}`, nil)
		f, err := detect(t, p, WithDetectorRestatements(false))
		require.NoError(t, err)
		assert.Len(t, f.Contradictions, 2)
		for _, req := range *seen {
			assert.NotEqual(t, TagDetectorRestatements, req.Tag(TagDetectorPart))
		}
	})
}

func TestGroupRestatements(t *testing.T) {
	finding := func(subject string, lines ...[2]int) verified {
		c := Contradiction{Subject: subject, Reason: "why"}
		for _, l := range lines {
			c.Claims = append(c.Claims, Claim{Variant: l[0], Line: l[1]})
		}
		return verified{c: c}
	}
	cs := func() []verified {
		return []verified{
			finding("across 1", [2]int{0, 1}, [2]int{1, 1}),
			finding("across 2", [2]int{0, 5}, [2]int{1, 9}),
			finding("inside A", [2]int{0, 20}, [2]int{0, 30}),
			finding("inside B", [2]int{1, 20}, [2]int{1, 30}),
			finding("across 3", [2]int{0, 40}, [2]int{1, 40}),
		}
	}
	tests := []struct {
		name   string
		groups []restateGroup
		want   []string
	}{
		{"a group merges into its first member", []restateGroup{{Findings: []string{"F5", "F1"}}}, []string{"across 1", "across 2", "inside A", "inside B"}},
		{"unknown and repeated ids do not count", []restateGroup{{Findings: []string{"F2", "F9", "x", "f2"}}}, []string{"across 1", "across 2", "inside A", "inside B", "across 3"}},
		{"inside one variant with across", []restateGroup{{Findings: []string{"F1", "F3"}}}, []string{"across 1", "across 2", "inside A", "inside B", "across 3"}},
		{"inside two different variants", []restateGroup{{Findings: []string{"F3", "F4"}}}, []string{"across 1", "across 2", "inside A", "inside B", "across 3"}},
		{"a finding in two groups joins the first", []restateGroup{{Findings: []string{"F1", "F2"}}, {Findings: []string{"F2", "F5"}}}, []string{"across 1", "inside A", "inside B", "across 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := groupRestatements(cs(), tt.groups, func(string, ...any) {})
			var got []string
			for _, f := range out {
				got = append(got, f.c.Subject)
			}
			assert.Equal(t, tt.want, got)
		})
	}
	merged := groupRestatements(cs(), []restateGroup{{Findings: []string{"F1", "F5"}}}, func(string, ...any) {})
	assert.Equal(t, [][2]int{{0, 1}, {0, 40}, {1, 1}, {1, 40}}, claimLines(merged[0].c.Claims))
	assert.Equal(t, `why (reported again as "across 3")`, merged[0].c.Reason)
}

// TestRestatementRequestWithinBudget: a list of findings too long for the
// input budget is not sent.
func TestRestatementRequestWithinBudget(t *testing.T) {
	docs := planDocs(t)
	long := strings.Repeat("a long reason that explains the conflict at length ", 8)
	var cs []verified
	for i := range 200 {
		cs = append(cs, verified{c: Contradiction{Kind: NumericConflict, Subject: fmt.Sprintf("value %d", i), Reason: long,
			Claims: []Claim{{Variant: 0, Line: 5, Text: "The service ships in 3 phases over 6 weeks."}, {Variant: 1, Line: 5, Text: "The service ships in 2 phases over 5 weeks."}}}})
	}
	m, err := NewModelDetector(providertest.NewFake(), "opus", WithDetectorBudget(4000))
	require.NoError(t, err)
	_, ok, err := m.restatementRequest(context.Background(), NewDetectInput(docs...), cs)
	require.NoError(t, err)
	assert.False(t, ok, "200 findings do not fit 4,000 tokens")
	req, ok, err := m.restatementRequest(context.Background(), NewDetectInput(docs...), cs[:3])
	require.NoError(t, err)
	require.True(t, ok)
	assert.LessOrEqual(t, estimateTokens(req.Prompt()), 4000)
}
