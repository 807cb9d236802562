package scoring

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

// judgeOne runs the rule judge on one criterion of one document.
func judgeOne(t *testing.T, id string, doc, source *diff.Document) Verdict {
	t.Helper()
	c, ok := ExtendedRubric().Criterion(id)
	require.True(t, ok, id)
	req := RubricRequest{Pass: Pass1, Variants: []Variant{{Label: "A", Doc: doc}}, Criteria: []Criterion{c},
		Source: source, Reference: buildReference(source, []Variant{{Label: "A", Doc: doc}}, nil)}
	got, err := RuleJudge{}.Evaluate(context.Background(), req)
	require.NoError(t, err)
	require.Len(t, got.Verdicts, 1)
	return got.Verdicts[0]
}

func TestRuleJudgeCoversEveryCriterion(t *testing.T) {
	for _, c := range ExtendedRubric().Criteria() {
		assert.NotNil(t, checks[c.ID], "no test for %s", c.ID)
	}
	assert.Len(t, checks, ExtendedRubric().Len(), "a test for a criterion the rubric lacks")
	assert.Equal(t, 25, StandardRubric().Len())
	assert.Equal(t, 30, ExtendedRubric().Len())
}

// TestRuleJudgeCriteria runs every criterion's test on a document that
// meets it — the verdict must quote the line it matched — and on one that
// does not.
func TestRuleJudgeCriteria(t *testing.T) {
	reqSource := "# Source\n\n- FR-001: Issue tokens within 50 ms.\n- FR-002: Expire sessions after 30 minutes.\n"
	risks := func(rows ...string) string {
		return "# T\n\n## Risks\n\n| Risk | Probability | Impact | Mitigation |\n|---|---|---|---|\n" + strings.Join(rows, "\n") + "\n"
	}
	tests := []struct {
		id      string
		source  string // Mode B source, if any
		met     string
		quote   string // the MET verdict quotes text containing this
		notMet  []string
		because string // the NOT MET note contains this (first notMet document)
	}{
		{id: "CMP-1", source: reqSource,
			met:    "# V\n\n- FR-001: Tokens in 50 ms.\n- FR-002: Expiry after 30 minutes.\n",
			quote:  "FR-001",
			notMet: []string{"# V\n\n- FR-001: Tokens in 50 ms.\n"}, because: "missing: FR-002"},
		{id: "CMP-2", met: "# T\n\nIf the cache fails, requests fall back to the database.\n\nInvalid tokens are rejected.\n",
			quote: "If the cache fails", notMet: []string{"# T\n\nErrors are logged.\n", "# T\n\nAll good.\n"}, because: "2 needed"},
		{id: "CMP-3", met: "# T\n\nThe API depends on the auth service.\n", quote: "depends on",
			notMet: []string{"# T\n\nThe API serves clients.\n"}, because: "No evidence found — searched sections"},
		{id: "CMP-4", met: "# T\n\n## Success Criteria\n\nLatency under 50 ms.\n", quote: "## Success Criteria",
			notMet: []string{"# T\n\n## Goals\n\nBe fast.\n"}},
		{id: "CMP-5", met: "# T\n\nOut of scope: billing and invoicing.\n", quote: "Out of scope",
			notMet: []string{"# T\n\nBilling is included.\n"}},
		{id: "COR-1", met: "# T\n\n- FR-001: Issue tokens within 50 ms.\n\nFR-001 is met by the gateway.\n",
			quote:   "Issue tokens within 50 ms",
			notMet:  []string{"# T\n\nSee FR-009 for the limits.\n\nThe timeout is 30 seconds.\n", "# T\n\nJust words.\n"},
			because: "Cites FR-009, which neither the variant nor the source defines"},
		{id: "COR-1", source: "# S\n\nThe session timeout is 30 minutes.\n",
			met: "# T\n\nThe session timeout is 30 minutes.\n", quote: "The session timeout is 30 minutes.",
			notMet: []string{"# T\n\nThe session timeout is 60 minutes.\n"}, because: "Contradicts the source"},
		{id: "COR-2", met: "# T\n\nThe service must respond within 50 ms.\n", quote: "must respond within 50 ms",
			notMet:  []string{"# T\n\nThe scheduler depends on the queue.\n\nThe queue depends on the scheduler.\n", "# T\n\nHello.\n"},
			because: "Infeasible"},
		{id: "COR-3", met: "# T\n\nUse PostgreSQL for sessions.\n\nPostgreSQL also stores audit logs.\n", quote: "PostgreSQL",
			notMet:  []string{"# T\n\nUse Postgres for sessions.\n\nPostgreSQL also stores audit logs.\n", "# T\n\nUse PostgreSQL once.\n"},
			because: "PostgreSQL is written 2 ways"},
		{id: "COR-4", met: "# T\n\nThe request timeout is 30 seconds.\n\nUse PostgreSQL for sessions.\n", quote: "The request timeout is 30 seconds.",
			notMet:  []string{"# T\n\nThe request timeout is 30 seconds.\n\nThe request timeout is 60 seconds.\n", "# T\n\nWords.\n"},
			because: "1 internal contradiction(s)"},
		{id: "COR-5", met: "# T\n\nWe cache tokens because lookups cost 20 ms.\n\nKeys rotate daily so that leaks expire.\n", quote: "because",
			notMet: []string{"# T\n\nWe cache tokens because lookups cost 20 ms.\n"}, because: "2 needed"},
		{id: "COR-5", met: "# T\n\n## Rationale\n\nWords.\n", quote: "## Rationale"},
		{id: "STR-1", met: "# T\n\n## 1. Overview\n\nText.\n\n## 2. Design\n\nText.\n", quote: "## 1. Overview",
			notMet:  []string{"# T\n\n## 2. Overview\n\nText.\n\n## 1. Design\n\nText.\n", "# T\n\n## Design\n\nText.\n\n## Overview\n\nText.\n"},
			because: "numbers out of order"},
		{id: "STR-2", met: "# T\n\n## Design\n\nText.\n\n### Storage\n\nText.\n", quote: "### Storage",
			notMet: []string{"# T\n\n## A\n\nText.\n\n#### A1\n\nText.\n", "# T\n\n### Early\n\n## A\n\nText.\n"}, because: "skip a level"},
		{id: "STR-3", met: "# T\n\n## Scope\n\nA.\n\n## Design\n\nB.\n\n## Risks\n\nC.\n", quote: "## Scope",
			notMet:  []string{"# T\n\n## Risks\n\nA.\n\n## Design\n\nB.\n\n## Risk\n\nC.\n", "# T\n\n## Scope\n\nA.\n\n## Design\n\n## Risks\n\nC.\n", "# T\n\n## A\n\nx.\n"},
			because: "cover the same concern"},
		{id: "STR-4", met: "# T\n\n## Table of Contents\n\n- [A](#a)\n\n## A\n\nText.\n", quote: "## Table of Contents",
			notMet: []string{"# T\n\n## A\n\nText.\n"}},
		{id: "STR-4", met: "# T\n\n## 1. A\n\nSee Section 2 for the design.\n\n## 2. B\n\nText.\n", quote: "See Section 2"},
		{id: "STR-5", met: "# Login Specification\n\n## Overview\n\nText.\n\n## Requirements\n\n- The service must issue tokens.\n- The service must expire tokens.\n- The service shall log logins.\n",
			quote:  "must issue tokens",
			notMet: []string{"# Login Specification\n\n## Overview\n\nText.\n", "## Untitled\n\nText.\n"}, because: "A specification needs"},
		{id: "STR-5", met: "# Product Roadmap\n\n## Milestone 1\n\nShip login.\n", quote: "## Milestone 1",
			notMet: []string{"# Product Roadmap\n\n## Ideas\n\nShip login.\n"}},
		{id: "CLA-1", met: "# T\n\nThe cache holds 512 MiB.\n", quote: "512 MiB",
			notMet: []string{"# T\n\nThe cache holds 512 MiB.\n\nIt might work.\n"}, because: "might"},
		{id: "CLA-2", met: "# T\n\nThe cache holds 512 MiB.\n\nTokens live 30 minutes.\n\nWe like it.\n", quote: "512 MiB",
			notMet: []string{"# T\n\nThe cache holds 512 MiB.\n\nWe like it.\n\nIt is nice.\n"}, because: "1 of 3 statements concrete"},
		{id: "CLA-3", met: "# T\n\n## A\n\nThis section sets the scope.\n\n- item\n\n## B\n\nThis one designs it.\n", quote: "This section sets the scope.",
			notMet: []string{"# T\n\n## A\n\n- item\n\n## B\n\nText.\n"}, because: `Section "A" does not open`},
		{id: "CLA-4", met: "# T\n\nThe Service Level Objective (SLO) is 99.9%.\n\nThe SLO is reviewed monthly.\n", quote: "Service Level Objective (SLO)",
			notMet:  []string{"# T\n\nThe SLO is 99.9%.\n\nThe Service Level Objective (SLO) is reviewed.\n", "# T\n\nPlain words.\n"},
			because: "SLO is used before it is defined"},
		{id: "CLA-4", met: "# T\n\n## Glossary\n\n- SKS: session key store\n\n## Design\n\nThe SKS holds keys.\n", quote: "SKS: session key store"},
		{id: "CLA-5", met: "# T\n\nNext steps: ship the canary by Friday.\n", quote: "Next steps",
			notMet: []string{"# T\n\nShip it.\n"}},
		{id: "RSK-1", met: risks("| Outage | High | High | Fail over |", "| Key leak | Low | High | Rotate |", "| Spike | Medium | Low | Scale |"),
			quote:  "| Outage | High | High | Fail over |",
			notMet: []string{risks("| Outage | High | High | Fail over |", "| Key leak | Low | High | Rotate |")}, because: "at least 3 needed"},
		{id: "RSK-1", met: "# T\n\n- Outage: probability high, impact high.\n- Leak: likelihood low, severity high.\n- Spike: probability: medium, impact: low.\n", quote: "Outage"},
		{id: "RSK-2", met: risks("| Outage | High | High | Fail over |", "| Key leak | Low | High | Rotate |"), quote: "| Key leak |",
			notMet: []string{risks("| Outage | High | High | Fail over |", "| Key leak | Low | High | |"), "# T\n\nNo risks.\n"}, because: "has no mitigation"},
		{id: "RSK-3", met: "# T\n\nA disk failure loses the node.\n\nRestore from the nightly backup.\n", quote: "A disk failure loses the node.",
			notMet: []string{"# T\n\nA disk failure loses the node.\n"}, because: "no recovery procedure"},
		{id: "RSK-4", met: "# T\n\nIf the payment provider is unavailable, orders queue for 10 minutes.\n", quote: "payment provider is unavailable",
			notMet: []string{"# T\n\nOrders queue for 10 minutes.\n"}},
		{id: "RSK-5", met: "# T\n\nAn alert fires when errors exceed 1%.\n", quote: "An alert fires",
			notMet: []string{"# T\n\nErrors happen.\n"}},
		{id: "INV-1", met: "# T\n\nAn empty list returns no page.\n", quote: "empty list", notMet: []string{"# T\n\nLists exist.\n"}},
		{id: "INV-2", met: "# T\n\nConcurrent writes use optimistic locking.\n", quote: "Concurrent writes", notMet: []string{"# T\n\nWrites happen.\n"}},
		{id: "INV-3", met: "# T\n\nThe API rejects invalid input with 400.\n", quote: "rejects invalid input", notMet: []string{"# T\n\nThe API answers.\n"}},
		{id: "INV-4", met: "# T\n\nPage numbers run from 1 to 50 inclusive.\n", quote: "inclusive", notMet: []string{"# T\n\nPages run.\n"}},
		{id: "INV-5", met: "# T\n\nDark mode interacts with the print view.\n", quote: "interacts with", notMet: []string{"# T\n\nDark mode exists.\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			var source *diff.Document
			if tc.source != "" {
				source = parse(t, "source", tc.source)
			}
			doc := parse(t, "met", tc.met)
			v := judgeOne(t, tc.id, doc, source)
			require.True(t, v.Met, "want MET: %s", v.Note)
			require.NotEmpty(t, v.Evidence)
			assert.Contains(t, v.Evidence[0].Quote+" "+joinQuotes(v.Evidence), tc.quote)
			x := newEvidenceIndex(doc)
			for _, c := range v.Evidence {
				assert.Contains(t, doc.Source, c.Quote, "a quote is exact text of the variant")
				assert.True(t, x.found(c.Quote))
				assert.Positive(t, c.Line)
			}
			for i, src := range tc.notMet {
				v := judgeOne(t, tc.id, parse(t, "notmet", src), source)
				assert.False(t, v.Met, "document %d: want NOT MET", i)
				assert.NotEmpty(t, v.Note)
				if i == 0 && tc.because != "" {
					assert.Contains(t, v.Note, tc.because)
				}
			}
		})
	}
}

func joinQuotes(cs []Citation) string {
	var qs []string
	for _, c := range cs {
		qs = append(qs, c.Quote)
	}
	return strings.Join(qs, " ")
}

func TestRuleJudgeReevaluatesOnlyDisputes(t *testing.T) {
	doc := load(t, "strong.md")
	r := StandardRubric()
	req := RubricRequest{Pass: Reevaluation, Variants: []Variant{{Label: "B", Doc: doc}}, Criteria: r.Criteria(),
		Disputes: []Dispute{{Variant: "B", Criterion: "CMP-4"}, {Variant: "B", Criterion: "CLA-1"}}}
	got, err := RuleJudge{}.Evaluate(context.Background(), req)
	require.NoError(t, err)
	require.Len(t, got.Verdicts, 2)
	assert.Equal(t, "CMP-4", got.Verdicts[0].Criterion)
	assert.Equal(t, "CLA-1", got.Verdicts[1].Criterion)
	assert.True(t, got.Verdicts[0].Met)
}

func TestRuleJudgeOrderIndependent(t *testing.T) {
	a, b := load(t, "strong.md"), load(t, "weak.md")
	crits := StandardRubric().Criteria()
	fwd, err := RuleJudge{}.Evaluate(context.Background(), RubricRequest{Variants: []Variant{{Label: "A", Doc: a}, {Label: "B", Doc: b}}, Criteria: crits})
	require.NoError(t, err)
	rev, err := RuleJudge{}.Evaluate(context.Background(), RubricRequest{Variants: []Variant{{Label: "B", Doc: b}, {Label: "A", Doc: a}}, Criteria: crits})
	require.NoError(t, err)
	byKey := func(vs []Verdict) map[pairKey]Verdict {
		m := map[pairKey]Verdict{}
		for _, v := range vs {
			m[pairKey{v.Variant, v.Criterion}] = v
		}
		return m
	}
	assert.Equal(t, byKey(fwd.Verdicts), byKey(rev.Verdicts))
}
