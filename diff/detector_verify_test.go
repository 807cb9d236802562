package diff

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider/providertest"
)

// detectOne replays one reply through a model detector on the two plan
// revisions of testdata/detector. Their statements:
//
//	A1 L5 "The service ships in 3 phases over 6 weeks."   (1. Overview)
//	A2 L7 "Status: Draft"
//	A3 L11 "The phases run in this order:"                 (2. Phases)
//	A4 L13 "Phase 1 builds the client; it reuses the retry helper, …"
//	A5 L14 "The client keeps a pool of 4 connections."
//	A6 L15 "Phase 2 adds resumable uploads."
//	A7 L19 "Phase 1 — Duration: 2 weeks; Owner: Ana"
//	A8 L20 "Phase 2 — Duration: 3 weeks; Owner: Ben"
//	A10 L27-29 code, A11 L34 open question               (4. Open Questions)
//	B1 L5 "The service ships in 2 phases over 5 weeks."
//	B2 L7 "Status: Approved", B3 L11 "The phases run in this order:"
//	B4 L13 "Phase 1 builds the client and the resumable uploads."
//	B5 L14 "The client keeps a pool of 8 connections."
//	B6 L18 "Phase 1 — Duration: 4 weeks; Owner: Ana", B7 L19 total
func detectOne(t *testing.T, reply string) Findings {
	t.Helper()
	fake := providertest.NewFake()
	fake.On().Reply(reply)
	m, err := NewModelDetector(fake, "opus")
	require.NoError(t, err)
	f, err := m.DetectAll(context.Background(), NewDetectInput(planDocs(t)...))
	require.NoError(t, err)
	return f
}

func claimLines(cs []Claim) [][2]int {
	out := make([][2]int, len(cs))
	for i, c := range cs {
		out[i] = [2]int{c.Variant, c.Line}
	}
	return out
}

// TestModelDetectorLeavesOutSides scripts the rule that leaves out a side
// failing verification: the finding survives on the sides that pass when
// they still make it, and is downgraded to a content difference when they
// do not.
func TestModelDetectorLeavesOutSides(t *testing.T) {
	tests := []struct {
		name  string
		sides string
		kind  string
		subj  string
		lines [][2]int // the contradiction's claims; nil when downgraded
		why   string   // in the reason of the contradiction or the difference
	}{
		{
			name: "a side not naming the subject is left out", kind: "numeric", subj: "number of phases",
			sides: `{"id": "A1"}, {"id": "B1"}, {"id": "B2"}`,
			lines: [][2]int{{0, 5}, {1, 5}},
			why:   `(1 statement left out: the subject "number of phases" is not named in B2 (line 7) or its section)`,
		},
		{
			name: "a side of a numeric finding stating no number is left out", kind: "numeric", subj: "phases of the service",
			sides: `{"id": "A1"}, {"id": "B3"}, {"id": "B1"}`,
			lines: [][2]int{{0, 5}, {1, 5}},
			why:   "(1 statement left out: a numeric conflict, but B3 (line 11) states no number)",
		},
		{
			name: "the sides left all in one variant: downgraded", kind: "choice", subj: "client",
			sides: `{"id": "A4"}, {"id": "A5"}, {"id": "B2"}`,
			why:   `not reported as a contradiction: the subject "client" is not named in B2 (line 7) or its section`,
		},
		{
			name: "the sides left name too little of the subject: downgraded", kind: "scope", subj: "phase delivery schedule",
			sides: `{"id": "A1"}, {"id": "B1"}, {"id": "A11"}`,
			why:   `not reported as a contradiction: the subject "phase delivery schedule" is not named in A11 (line 34) or its section`,
		},
		{
			name: "every side holds: nothing left out", kind: "numeric", subj: "client connection pool",
			sides: `{"id": "A5"}, {"id": "B5"}`,
			lines: [][2]int{{0, 14}, {1, 14}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := detectOne(t, `{"contradictions": [{"subject": "`+tt.subj+`", "kind": "`+tt.kind+`", "sides": [`+tt.sides+`], "confidence": "high", "reason": "they differ"}]}`)
			if tt.lines == nil {
				assert.Empty(t, f.Contradictions)
				require.Len(t, f.Differences, 1)
				assert.Equal(t, UnconfirmedContradiction, f.Differences[0].Kind)
				assert.Contains(t, f.Differences[0].Reason, tt.why)
				return
			}
			require.Len(t, f.Contradictions, 1)
			assert.Empty(t, f.Differences)
			c := f.Contradictions[0]
			assert.Equal(t, tt.lines, claimLines(c.Claims))
			if tt.why == "" {
				assert.Equal(t, "they differ", c.Reason)
			} else {
				assert.Equal(t, "they differ "+tt.why, c.Reason)
			}
		})
	}
}

// TestModelDetectorMergesRestatements scripts the rule that merges a
// finding restating an earlier one: reported once; findings that only
// share a line, or name other items, stay apart.
func TestModelDetectorMergesRestatements(t *testing.T) {
	f := detectOne(t, `{"contradictions": [
	  {"subject": "connection pool size", "kind": "numeric", "sides": [{"id": "A5"}, {"id": "B5"}], "confidence": "high", "reason": "4 against 8"},
	  {"subject": "size of the client's connection pool (phase 1)", "kind": "numeric", "sides": [{"id": "A5"}, {"id": "B4"}], "confidence": "high", "reason": "restated from another request"},
	  {"subject": "duration of phase 1", "kind": "numeric", "sides": [{"id": "A7"}, {"id": "B6"}], "confidence": "high", "reason": "2 weeks against 4"},
	  {"subject": "duration of phase 2", "kind": "numeric", "sides": [{"id": "A8"}, {"id": "B6"}], "confidence": "high", "reason": "3 weeks against 4"},
	  {"subject": "owner of phase 1", "kind": "field", "sides": [{"id": "B6"}, {"id": "A7"}], "confidence": "high", "reason": "the same lines again"}
	]}`)
	var subjects []string
	for _, c := range f.Contradictions {
		subjects = append(subjects, c.Subject)
	}
	assert.ElementsMatch(t, []string{"connection pool size", "duration of phase 1", "duration of phase 2"}, subjects,
		"the restated pool size and the same lines again are merged; phase 2 shares a line with phase 1 but is another item")
	assert.Empty(t, f.Differences)
}

// TestAnalyzeMergesModelRestatementOfRule: a model finding citing a line of
// a rule finding and another line with the same subject is the rule's
// conflict found again — one row, found by both.
func TestAnalyzeMergesModelRestatementOfRule(t *testing.T) {
	docs := planDocs(t)
	fake := providertest.NewFake()
	fake.On().Reply(`{"contradictions": [
	  {"subject": "the pool the client keeps (connections)", "kind": "numeric", "sides": [{"id": "A5"}, {"id": "B4"}], "confidence": "high", "reason": "the draft's pool against the revision's phase 1"}
	]}`)
	m, err := NewModelDetector(fake, "opus")
	require.NoError(t, err)
	a, err := Analyze(context.Background(), docs, WithClock(fixedClock), WithDetectors(RuleDetector{}, m))
	require.NoError(t, err)
	var pool []Point
	for _, p := range append(a.ByCategory(CategoryContradiction), a.ByCategory(CategoryContent)...) {
		for _, e := range p.Evidence {
			if e.Variant == 0 && e.Line == 14 {
				pool = append(pool, p)
				break
			}
		}
	}
	require.Len(t, pool, 1, "one row for the pool size")
	assert.Contains(t, pool[0].Reason, "found by the rules and the model")
}

func TestConflictRestates(t *testing.T) {
	cross := func(subject string, lines ...[2]int) Contradiction {
		c := Contradiction{Subject: subject}
		for _, l := range lines {
			c.Claims = append(c.Claims, Claim{Variant: l[0], Line: l[1]})
		}
		return c
	}
	a1, a2, a3, a4 := [2]int{0, 10}, [2]int{0, 20}, [2]int{0, 30}, [2]int{0, 40}
	b1, b2, b3 := [2]int{1, 10}, [2]int{1, 20}, [2]int{1, 30}
	tests := []struct {
		name string
		a, b Contradiction
		want bool
	}{
		{"same lines", cross("pool size", a1, b1), cross("owner", b1, a1), true},
		{"two of three lines each", cross("x", a1, a2, b1), cross("y", a1, a2, b2), true},
		{"two common lines of many", cross("x", a1, a2, a3, a4, b1, b2), cross("y", a1, a2, b3), false},
		{"a common line, the subject qualified", cross("Duration of phase 2", a1, b1), cross("Duration of Phase 2 (interactive prompt)", a2, b1), true},
		{"a common line, another phase", cross("Duration of phase 2", a1, b1), cross("Duration of phase 3", a2, b1), false},
		{"a common line, another file", cross("size of the executor.py change", a1, b1), cross("size of the notify.py change", a1, b2), false},
		{"a common line, another subject", cross("connection pool size", a1, b1), cross("retry timeout", a1, b2), false},
		{"a common line, one word of three shared", cross("connection pool size", a1, b1), cross("retry pool timeout", a1, b2), false},
		{"the same subject, no common line", cross("connection pool size", a1, b1), cross("connection pool size", a2, b2), false},
		{"within one variant against across", cross("pool size", a1, a2), cross("pool size", a1, b1), false},
		{"within two different variants", cross("pool size", a1, a2), cross("pool size", b1, b2), false},
		{"variants not among each other's", cross("pool size", a1, b1), cross("pool size", a1, [2]int{2, 10}), false},
		{"one variant's lines among three", cross("pool size", a1, b1), cross("pool size", a1, b2, [2]int{2, 10}), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := shapeOf(tt.a), shapeOf(tt.b)
			assert.Equal(t, tt.want, a.restates(b))
			assert.Equal(t, tt.want, b.restates(a), "symmetric")
		})
	}
}

// TestCoverageCiting: which indexed contradiction a finding restates.
func TestCoverageCiting(t *testing.T) {
	claim := func(v, line int) Claim { return Claim{Variant: v, Line: line} }
	indexed := []Contradiction{
		{Claims: []Claim{claim(0, 318), claim(0, 140)}}, // a count row against a verdict elsewhere
		{Claims: []Claim{claim(0, 10), claim(1, 20), claim(2, 30)}},
	}
	cov := newCoverage(indexed)
	tests := []struct {
		name   string
		claims []Claim
		want   int // -1: none
	}{
		{"same statements", []Claim{claim(0, 318), claim(0, 140)}, 0},
		{"fewer sides of a wider finding", []Claim{claim(1, 20), claim(2, 30)}, 1},
		{"more sides than the indexed finding", []Claim{claim(0, 318), claim(0, 140), claim(1, 5)}, 0},
		{"one statement cited twice, inside a finding", []Claim{claim(0, 318), claim(0, 318)}, 0},
		{"one statement shared with a finding of two others", []Claim{claim(0, 318), claim(1, 7)}, -1},
		{"no statement in common", []Claim{claim(1, 7), claim(2, 8)}, -1},
		{"nothing cited", nil, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := cov.citing(Contradiction{Claims: tt.claims})
			if !ok {
				got = -1
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
