package scoring

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

// TestRuleJudgeNotMetEvidence runs every criterion of the rule judge on a
// variant that fails it and checks what the NOT MET cites: the line that
// shows the flaw (cite), never a line that shows the opposite (notCite),
// and nothing at all when the flaw is an absence (cite empty).
func TestRuleJudgeNotMetEvidence(t *testing.T) {
	reqSource := "# Source\n\n- FR-001: Issue tokens within 50 ms.\n- FR-002: Expire sessions after 30 minutes.\n"
	tests := []struct {
		id, doc, source string
		cite            string // a cited quote holds this; "" means no citation at all
		notCite         string // no cited quote holds this
		note            string // the note holds this
	}{
		{id: "CMP-1", source: reqSource, doc: "# V\n\n## Tokens\n\n- FR-001: Tokens in 50 ms.\n",
			notCite: "FR-001", note: "missing: FR-002 — searched sections 1"},
		{id: "CMP-2", doc: "# T\n\nErrors are logged.\n", cite: "Errors are logged.", note: "2 needed"},
		{id: "CMP-3", doc: "# T\n\nThe API serves clients.\n", note: "No evidence found"},
		{id: "CMP-4", doc: "# T\n\n## Goals\n\nBe fast.\n", note: "No evidence found"},
		{id: "CMP-5", doc: "# T\n\nBilling is included.\n", note: "No evidence found"},
		{id: "COR-1", doc: "# T\n\nSee FR-009 for the limits.\n\nThe timeout is 30 seconds.\n", cite: "FR-009", notCite: "timeout"},
		{id: "COR-1", doc: "# T\n\n**Owner**: the platform team\nThe limits follow FR-009.\n", cite: "FR-009", notCite: "Owner"},
		{id: "COR-2", doc: "# T\n\nThe scheduler depends on the queue.\n\nThe queue depends on the scheduler.\n", cite: "depends on"},
		{id: "COR-3", doc: "# T\n\nUse Postgres for sessions.\n\nPostgres also keeps the job queue.\n\nPostgreSQL holds the audit trail.\n",
			cite: "PostgreSQL holds the audit trail.", note: "written 2 ways"},
		{id: "COR-4", doc: "# T\n\nThe request timeout is 30 seconds.\n\nThe request timeout is 60 seconds.\n", cite: "60 seconds"},
		{id: "COR-5", doc: "# T\n\nWe cache tokens because lookups cost 20 ms.\n\nKeys rotate daily.\n", cite: "because", notCite: "Keys rotate"},
		{id: "STR-1", doc: "# T\n\n## 2. Overview\n\nText.\n\n## 1. Design\n\nText.\n", cite: "## 1. Design"},
		{id: "STR-2", doc: "# T\n\n## A\n\nText.\n\n#### A1\n\nText.\n", cite: "#### A1"},
		{id: "STR-3", doc: "# T\n\n## Risks\n\nA.\n\n## Design\n\nB.\n\n## Risk\n\nC.\n", cite: "## Risk", notCite: "## Design"},
		{id: "STR-4", doc: "# T\n\n## A\n\nText.\n", note: "No evidence found"},
		{id: "STR-5", doc: "# Login Specification\n\n## Overview\n\nText.\n", cite: "# Login Specification", note: "A specification needs"},
		{id: "CLA-1", doc: "# T\n\nThe cache holds 512 MiB.\n\nIt might work.\n", cite: "It might work.", notCite: "512 MiB"},
		{id: "CLA-2", doc: "# T\n\nThe cache holds 512 MiB.\n\nWe like it.\n\nIt is nice.\n", cite: "We like it.", notCite: "512 MiB"},
		{id: "CLA-3", doc: "# T\n\n## A\n\n- item\n\n## B\n\nText.\n", cite: "## A", notCite: "## B"},
		{id: "CLA-4", doc: "# T\n\nThe Recovery Time Objective (RTO) is 1 hour.\n\nThe PITR window is 7 days.\n", cite: "PITR", notCite: "RTO"},
		{id: "CLA-5", doc: "# T\n\nShip it.\n", note: "No evidence found"},
		{id: "RSK-1", doc: "# T\n\n## Risks\n\n- Outage of the primary database\n- Signing key leak\n",
			cite: "Outage of the primary database", note: "2 identified without them"},
		{id: "RSK-2", doc: "# T\n\n## Risks\n\n- Outage -> fail over to the replica\n- Signing key leak\n", cite: "Signing key leak", notCite: "Outage"},
		{id: "RSK-3", doc: "# T\n\nA disk failure loses the node.\n", cite: "disk failure", note: "no recovery procedure"},
		{id: "RSK-4", doc: "# T\n\nOrders queue for 10 minutes.\n", note: "No evidence found"},
		{id: "RSK-5", doc: "# T\n\nErrors happen.\n", note: "No evidence found"},
	}
	covered := map[string]bool{}
	for _, tc := range tests {
		covered[tc.id] = true
		t.Run(tc.id, func(t *testing.T) {
			var source = parseOrNil(t, tc.source)
			doc := parse(t, "variant", tc.doc)
			v := judgeOne(t, tc.id, doc, source)
			require.False(t, v.Met, "want NOT MET: %s", v.Note)
			if tc.note != "" {
				assert.Contains(t, v.Note, tc.note)
			}
			quotes := joinQuotes(v.Evidence)
			if tc.cite == "" {
				assert.Empty(t, v.Evidence, "an absence cites no line: %s", quotes)
			} else {
				assert.Contains(t, quotes, tc.cite)
			}
			if tc.notCite != "" {
				assert.NotContains(t, quotes, tc.notCite, "a NOT MET never cites a line that shows the opposite")
			}
			for _, c := range v.Evidence {
				assert.Contains(t, doc.Source, c.Quote)
				assert.Positive(t, c.Line)
			}
		})
	}
	for _, c := range StandardRubric().Criteria() {
		assert.True(t, covered[c.ID], "no NOT MET evidence case for %s", c.ID)
	}
}

func parseOrNil(t *testing.T, src string) *diff.Document {
	t.Helper()
	if src == "" {
		return nil
	}
	return parse(t, "source", src)
}
