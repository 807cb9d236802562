package diff

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		sent    string
		claim   bool
		typ     ClaimType
		negated bool
	}{
		{"The API must return within 200 ms.", true, Constraint, false}, // a bound makes it a constraint
		{"The API must be versioned.", true, Requirement, false},
		{"The API must not be versioned.", true, Constraint, true},
		{"Use PostgreSQL for the metadata store.", true, Factual, false},
		{"Phase 2 depends on Phase 1.", true, Dependency, false},
		{"Retry as needed.", false, "", false},
		{"Follow best practices.", false, "", false},
		{"Is this fast enough?", false, "", false},
		{"Things are nice.", false, "", false},
		{"Availability is 99.9% per month.", true, Factual, false},
		{"Never log secrets.", false, "", false}, // no commitment word, no fact: not falsifiable as stated
		{"Clients must never log secrets.", true, Requirement, true},
	}
	for _, tt := range tests {
		c, ok := classify(tt.sent, nil)
		assert.Equal(t, tt.claim, ok, tt.sent)
		if ok {
			assert.Equal(t, tt.typ, c.Type, tt.sent)
			assert.Equal(t, tt.negated, c.Negated, tt.sent)
		}
	}
}

func TestQuantities(t *testing.T) {
	tests := []struct {
		sent    string
		subject string
		dim     string
		lo, hi  float64
		bound   Bound
		text    string
	}{
		{"The retry timeout is 30 seconds.", "retry timeout", "duration", 30, 30, Exact, "30 seconds"},
		{"MAX_RETRY_TIMEOUT = 60 s.", "maximum retry timeout", "duration", 60, 60, Exact, "60 s"},
		{"maxRetryTimeout is 500ms", "maximum retry timeout", "duration", 0.5, 0.5, Exact, "500ms"},
		{"The cache limit is 64 MiB.", "cache limit", "size", 64 << 20, 64 << 20, Exact, "64 MiB"},
		{"Delivery takes 6–8 weeks.", "delivery", "duration", 6 * 604800, 8 * 604800, Exact, "6–8 weeks"},
		{"Responses return at most 50 hits.", "responses return", "count:hit", 50, 50, AtMost, "at most 50 hits"},
		{"The service must support 10,000 concurrent users.", "service support", "count:concurrent", 10000, 10000, Exact, "10,000 concurrent"},
		{"Support 10k users.", "support", "count:user", 10000, 10000, Exact, "10k users"},
		{"Availability of at least 99.9%.", "availability", "percent", 99.9, 99.9, AtLeast, "at least 99.9%"},
		{"Refunds complete within 5 business days.", "refunds complete", "duration", 5 * 86400, 5 * 86400, AtMost, "within 5 business days"},
	}
	for _, tt := range tests {
		qs := quantities(tt.sent, strings.ToLower(tt.sent))
		require.NotEmpty(t, qs, tt.sent)
		q := qs[0]
		assert.Equal(t, sortedSet(subjectWords(tt.subject)), q.Subject, tt.sent)
		assert.Equal(t, tt.dim, q.Dim, tt.sent)
		assert.InDelta(t, tt.lo, q.Lo, 1e-9, tt.sent)
		assert.InDelta(t, tt.hi, q.Hi, 1e-9, tt.sent)
		assert.Equal(t, tt.bound, q.Bound, tt.sent)
		assert.Equal(t, tt.text, q.Text, tt.sent)
	}
	for _, sent := range []string{"FR-001 is done.", "Phase 2 starts.", "Use v1.2 of the SDK.", "At the 95th percentile.", "By 2026 we ship.", "See Section 3.2.",
		// references, formulas, conditions and cited figures state no value
		"The property is at models.py:449-463 in the module.",
		"The halt logic spans lines 764-787 of the executor.",
		"The timeout is max_turns * 120 + 300 seconds.",
		"Files changed: executor.py (+80 LOC for spawn).",
		"When 80% consumed, emit a warning.",
		"If the queue exceeds 500 items, shed load.",
		`The "94% convergence" figure is self-reported.`,
		"The “30 lines” claim is inflated.",
	} {
		assert.Empty(t, quantities(sent, strings.ToLower(sent)), sent)
	}
	for _, sent := range []string{"The delta is ~650 LOC including tests.", "Delivery takes about 3 weeks.", "It costs approximately 40 hours."} {
		qs := quantities(sent, strings.ToLower(sent))
		require.Len(t, qs, 1, sent)
		assert.True(t, qs[0].Approx, "%s: an estimate", sent)
	}
	qs := quantities("Overhead: 92 turns (46 tasks × 2 turns each).", "overhead: 92 turns (46 tasks × 2 turns each).")
	require.Len(t, qs, 1, "the operands of a product are not values")
	assert.Equal(t, "92 turns", qs[0].Text)
	p95 := quantities("The gateway must respond within 200 ms at the 95th percentile.", "the gateway must respond within 200 ms at the 95th percentile.")
	p99 := quantities("The gateway must respond within 100 ms at the 99th percentile.", "the gateway must respond within 100 ms at the 99th percentile.")
	require.Len(t, p95, 1)
	require.Len(t, p99, 1)
	assert.NotEqual(t, p95[0].Dim, p99[0].Dim, "values at different percentiles measure different things")
	c, _, _ := quantitiesConflict(p95[0], p99[0])
	assert.False(t, c)
	qs = quantities("The incident commander escalates after 30 minutes.", "the incident commander escalates after 30 minutes.")
	require.Len(t, qs, 1, "a time after which something happens is a value")
	assert.False(t, qs[0].Approx)
}

func TestQuantitiesConflict(t *testing.T) {
	q := func(lo, hi float64, b Bound) Quantity { return Quantity{Dim: "duration", Lo: lo, Hi: hi, Bound: b} }
	tests := []struct {
		name            string
		a, b            Quantity
		conflict, reqCo bool
	}{
		{"same value other unit", q(30, 30, Exact), q(30, 30, Exact), false, false},
		{"different values", q(30, 30, Exact), q(60, 60, Exact), true, false},
		{"overlapping ranges", q(6, 8, Exact), q(8, 10, Exact), false, false},
		{"disjoint ranges", q(6, 8, Exact), q(10, 12, Exact), true, false},
		{"within a limit", q(0, 30, AtMost), q(20, 20, Exact), false, false},
		{"over a limit", q(30, 30, AtMost), q(45, 45, Exact), true, false},
		{"two different limits", q(30, 30, AtMost), q(60, 60, AtMost), true, false},
		{"minimum over maximum", q(100, 100, AtLeast), q(50, 50, AtMost), true, true},
		{"minimum under maximum", q(10, 10, AtLeast), q(50, 50, AtMost), false, false},
		{"within tolerance", q(100, 100, Exact), q(100.5, 100.5, Exact), false, false},
	}
	for _, tt := range tests {
		c, _, rc := quantitiesConflict(tt.a, tt.b)
		assert.Equal(t, tt.conflict, c, tt.name)
		assert.Equal(t, tt.reqCo, rc, tt.name)
		c2, _, _ := quantitiesConflict(tt.b, tt.a)
		assert.Equal(t, c, c2, "%s: symmetric", tt.name)
	}
	est := q(30, 30, Exact)
	est.Approx = true
	c, _, _ := quantitiesConflict(est, q(60, 60, Exact))
	assert.False(t, c, "an estimate never conflicts")
	other := Quantity{Dim: "size", Lo: 30, Hi: 30}
	c, _, _ = quantitiesConflict(q(30, 30, Exact), other)
	assert.False(t, c, "different dimensions never conflict")
}

func TestDependencyEdges(t *testing.T) {
	tests := []struct {
		sent string
		want []Edge
	}{
		{"Phase 2 depends on Phase 1.", []Edge{{"phase 2", "phase 1"}}},
		{"The upload API depends on the storage layer.", []Edge{{"upload api", "storage layer"}}},
		{"Milestone M3 is blocked by M2.", []Edge{{"m3", "m2"}}},
		{"The schema migration is a prerequisite for the cutover.", []Edge{{"cutover", "schema migration"}}},
		{"The pilot must complete before the rollout.", []Edge{{"rollout", "pilot"}}},
		{"Load testing starts after the staging deploy, then we ship.", []Edge{{"load testing", "staging deploy"}}},
		{"The cutover cannot start until the backfill.", []Edge{{"cutover", "backfill"}}},
		{"We shipped it before lunch.", nil},
		{"X depends on X.", nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, dependencyEdges(tt.sent), tt.sent)
	}
}

func TestChoice(t *testing.T) {
	tests := []struct {
		sent, tech, slot string
	}{
		{"Use PostgreSQL for the metadata store.", "PostgreSQL", "metadata store"},
		{"Sessions are stored in Redis.", "Redis", ""},
		{"The API is written in Go.", "Go", ""},
		{"Migrate from MySQL to PostgreSQL.", "", ""},
		{"Use PostgreSQL or MySQL.", "", ""},
		{"PostgreSQL is popular.", "", ""},
	}
	for _, tt := range tests {
		c, _ := classify(tt.sent, nil)
		if tt.tech == "" {
			assert.Nil(t, c.Choice, tt.sent)
			continue
		}
		require.NotNil(t, c.Choice, tt.sent)
		assert.Equal(t, tt.tech, c.Choice.Tech, tt.sent)
		if tt.slot == "" {
			assert.Empty(t, c.Choice.Slot, tt.sent)
		} else {
			assert.Equal(t, sortedSet(subjectWords(tt.slot)), c.Choice.Slot, tt.sent)
		}
	}
}

func TestQuoteForFindsWrappedSentences(t *testing.T) {
	src := "- The service must log request bodies for\n  auditing, always."
	assert.Equal(t, "The service must log request bodies for\n  auditing, always.", quoteFor("The service must log request bodies for auditing, always.", src))
	assert.Equal(t, "**Bold** text here.", quoteFor("Bold text here.", "- **Bold** text here."), "markup is skipped")
	assert.Equal(t, "expose `POST /v1/events` accepting", quoteFor("expose POST /v1/events accepting", "- FR-1: expose `POST /v1/events` accepting"))
	assert.Equal(t, "- See [the guide](x.md) now.", quoteFor("See the guide now.", "- See [the guide](x.md) now."), "links hide the sentence: the block is quoted")
}

func TestTableRowsCompareByColumnAndRow(t *testing.T) {
	a, err := Parse("a.md", []byte("| Load | Expected p99 |\n|---|---|\n| 10,000 events/s | 120 ms |\n| 50,000 events/s | 350 ms |\n"))
	require.NoError(t, err)
	b, err := Parse("b.md", []byte("| Load | Expected p99 |\n|---|---|\n| 50,000 events/s | 480 ms |\n"))
	require.NoError(t, err)
	got, err := DetectContradictions(t.Context(), a, b)
	require.NoError(t, err)
	require.Len(t, got, 1, "rows for different loads do not contradict; the same load with two values does")
	c := got[0]
	assert.Equal(t, CrossVariant, c.Scope())
	assert.Equal(t, "Expected p99 (50,000 events/s)", c.Subject)
	assert.Equal(t, "| 50,000 events/s | 350 ms |", c.Claims[0].Quote)
	assert.Equal(t, "| 50,000 events/s | 480 ms |", c.Claims[1].Quote)
}

func TestNumericConflictsNeedOneSubject(t *testing.T) {
	tests := []struct {
		name string
		docs []string
		want int // numeric contradictions
	}{
		{"same statement in two unrelated sections of one variant",
			[]string{"# S\n\n## Limits\n\nThe retry timeout is 30 seconds.\n\n## Extra\n\nThe retry timeout is 60 seconds.\n"}, 1},
		{"parallel items of one series each have their own value",
			[]string{"# R\n\n## Phase 1: Model\n\nThe phase duration is 3 days.\n\n## Phase 3: Orchestrator\n\nThe phase duration is 7 days.\n"}, 0},
		{"statements about two named items",
			[]string{"# W\n\n## Example\n\nTask T03.04 costs 8 turns.\nTask T03.06 costs 6 turns.\n"}, 0},
		{"statements about two code identifiers",
			[]string{"# W\n\n## Enums\n\n`PhaseStatus` has 11 values.\n\n`TaskStatus` has 4 values.\n"}, 0},
		{"a requirement id labels the statement, not its subject",
			[]string{"# Q\n\n## Functional\n\n- NOTIF-04: Deliver each notification within 5 minutes.\n\n## Delivery\n\n- NOTIF-05: Deliver each notification within 30 minutes.\n"}, 1},
		{"across variants in aligned sections",
			[]string{"# S\n\n## Limits\n\nThe upload cache limit is 64 MiB.\n", "# S\n\n## Limits\n\nThe upload cache limit is 256 MB.\n"}, 1},
		{"across variants in sections on different topics",
			[]string{"# S\n\n## Upload limits\n\nUploads over 5 GB are refused. The cache size is 64 MiB.\n\n## Rollout\n\nShip to the canary pool first, then the EU region, then everyone.\n",
				"# S\n\n## Upload limits\n\nUploads over 5 GB are refused.\n\n## Rollout\n\nShip to the canary pool first, then the EU region, then everyone. The cache size is 256 MB during the canary.\n"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var docs []*Document
			for i, src := range tt.docs {
				d, err := Parse(Label(i)+".md", []byte(src))
				require.NoError(t, err)
				docs = append(docs, d)
			}
			if len(docs) == 1 {
				docs = append(docs, docs[0]) // Analyze needs two variants; the copy adds nothing new
			}
			a, err := Analyze(context.Background(), docs)
			require.NoError(t, err)
			n := 0
			for _, p := range a.ByCategory(CategoryContradiction) {
				if p.Kind == string(NumericConflict) && (len(tt.docs) > 1 || slices.Equal(p.Variants, []int{0})) {
					n++
				}
			}
			assert.Equal(t, tt.want, n)
		})
	}
}

func TestSeriesItem(t *testing.T) {
	tests := []struct{ header, key, want string }{
		{"", "Phase 3: Remediation Orchestrator", "PHASE 3"},
		{"", "Phase 03 — Certification", "PHASE 3"},
		{"Phase", "3", "PHASE 3"},
		{"Phase", "P3: Remediation Orchestrator", "PHASE 3"},
		{"Step", "**2**", "STEP 2"},
		{"", "Task 2.1: Verify interfaces", "TASK 2.1"},
		{"Phase", "Discovery", ""},
		{"Risk", "3", ""},
		{"", "3. Requirements", ""},
		{"", "T2 — Gate semantics", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, seriesItem(tt.header, tt.key), "%q / %q", tt.header, tt.key)
	}
}

func TestItemDurationsAcrossSectionAndTable(t *testing.T) {
	a := "# Plan\n\n## Phase 2: Filtering\n\n**Duration**: 2 days\n\n## Phase 3: Remediation Orchestrator\n\n**Duration**: 5-7 days\n"
	b := "# Plan\n\n## Phases\n\nWork in order.\n\n## Timeline\n\n| Phase | Name | Estimate |\n|---|---|---|\n| 2 | Filtering | 2 days |\n| 3 | Remediation orchestration | 1.5-2 days |\n| 4 | Certification | 9 days |\n"
	da, err := Parse("a.md", []byte(a))
	require.NoError(t, err)
	db, err := Parse("b.md", []byte(b))
	require.NoError(t, err)
	got := itemDurations(NewDetectInput(da, db), allQuantities(NewDetectInput(da, db)))
	require.Len(t, got, 1, "phase 2 agrees, phase 4 is in one plan only")
	assert.Equal(t, "duration of phase 3", got[0].Subject)
	assert.Equal(t, []int{9, 12}, []int{got[0].Claims[0].Line, got[0].Claims[1].Line})

	c := strings.Replace(b, "Remediation orchestration", "Certification dry run", 1)
	dc, err := Parse("c.md", []byte(c))
	require.NoError(t, err)
	assert.Empty(t, itemDurations(NewDetectInput(da, dc), allQuantities(NewDetectInput(da, dc))), "a renumbered phase about other work is another item")
}

func allQuantities(in DetectInput) []qref {
	var refs []qref
	for v := range in.Claims {
		for ci := range in.Claims[v] {
			c := &in.Claims[v][ci]
			for qi := range c.Quantities {
				refs = append(refs, qref{claim: c, q: &c.Quantities[qi]})
			}
		}
	}
	return refs
}
