package scoring

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRuleJudgeMisfires holds one case per misfire seen on real variant
// sets (issue 16), each written fresh: a verdict the rule judge used to get
// wrong, with the verdict a reader would give and the line it must cite.
func TestRuleJudgeMisfires(t *testing.T) {
	tests := []struct {
		name, id string
		doc      string
		met      bool
		quote    string // a cited quote contains this
		note     string // the note contains this
		notNote  string // the note does not contain this
	}{
		{name: "risk register with L and I columns", id: "RSK-1", met: true,
			doc: "# Cache Rollout\n\n## Risk Register\n\n| # | Risk | L | I | Mitigation |\n|---|---|---|---|---|\n" +
				"| 1 | Cold cache stampede | M | H | Warm the cache before cut-over |\n" +
				"| 2 | Stale reads after failover | L | M | Version every entry |\n" +
				"| 3 | Memory pressure on nodes | H | M | Cap entries at 2 GiB per node |\n",
			quote: "Cold cache stampede", note: "3 risk(s) with probability and impact"},
		{name: "risk table with Prob. and Sev. columns", id: "RSK-1", met: true,
			doc: "# Plan\n\n## Risks\n\n| Threat | Prob. | Sev. | Response |\n|---|---|---|---|\n" +
				"| Key leak | Low | High | Rotate keys |\n| Quota cut | Med | Med | Second vendor |\n| Bad deploy | High | Low | Canary first |\n",
			quote: "Key leak"},
		{name: "inline likelihood and impact abbreviations", id: "RSK-1", met: true,
			doc: "# Plan\n\n## Risks\n\n- Queue backlog (L: high, I: medium) -> shed load\n" +
				"- Token expiry drift (L: low, I: high) -> sync clocks\n- Disk full (P: medium, I: high) -> alert at 80%\n",
			quote: "Queue backlog"},
		{name: "mitigation after an arrow on the risk's line", id: "RSK-2", met: true,
			doc: "# Migration\n\n## Risks\n\n- Lock contention on the orders table -> batch the backfill + run it off-peak\n" +
				"- Replica lag during backfill → throttle to 500 rows/s\n- Old clients send v1 payloads: keep the v1 parser for one release\n" +
				"- Rollback loses new rows. Mitigation: dual-write for 7 days\n",
			quote: "Lock contention", note: "All 4 identified risks have a mitigation"},
		{name: "a risk without mitigation is still cited", id: "RSK-2", met: false,
			doc:   "# Migration\n\n## Risks\n\n- Lock contention on the orders table -> batch the backfill\n- Replica lag during the backfill\n",
			quote: "Replica lag during the backfill", note: "line 6 has no mitigation"},
		{name: "encodings and hashes are not invented requirement ids", id: "COR-1", met: true,
			doc: "# Export\n\n- EXP-1: Files are written as UTF-8 without a byte-order mark.\n" +
				"- EXP-2: Each file carries its SHA-256 digest and an ISO-8601 timestamp.\n\nEXP-1 and EXP-2 apply to every export.\n",
			quote: "Files are written as UTF-8", notNote: "UTF-8"},
		{name: "well-known protocols and formats need no definition", id: "CLA-4", met: true,
			doc: "# Transport\n\nA Recovery Point Objective (RPO) of 5 minutes holds.\n\n" +
				"Clients speak HTTP/2 over TLS 1.3 and send JSON; payloads are UTF-8, signed with HMAC-SHA256 and hashed with SHA-256.\n\n" +
				"Tokens are JWTs; dumps are gzip-compressed CSV or YAML; the RPO is checked nightly.\n",
			quote: "Recovery Point Objective (RPO)"},
		{name: "verdict words are values, not undefined terms", id: "CLA-4", met: true,
			doc: "# Review of the Proposal\n\nEach change gets one verdict: ACCEPT, REJECT or MODIFY.\n\n" +
				"| Change | Verdict |\n|---|---|\n| Drop the cache | REJECT |\n| Batch writes | ACCEPT |\n\n" +
				"We ACCEPT the batching because the Write-Ahead Log (WAL) already orders writes.\n",
			quote: "Write-Ahead Log (WAL)", notNote: "ACCEPT"},
		{name: "state names listed in the document are values", id: "CLA-4", met: true,
			doc: "# Job Runner\n\nA job moves through PENDING → RUNNING → DONE, or FAILED when a step errors.\n\n" +
				"**Status**: BLOCKED until the Task Queue (TQ) drains.\n\nA FAILED job is retried once; the TQ keeps it.\n",
			quote: "Task Queue (TQ)"},
		{name: "a real undefined acronym is still caught", id: "CLA-4", met: false,
			doc:   "# Plan\n\nThe Recovery Time Objective (RTO) is 1 hour.\n\nThe PITR window is 7 days.\n",
			quote: "The PITR window is 7 days.", note: "PITR is used before it is defined"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, "variant", tc.doc)
			v := judgeOne(t, tc.id, doc, nil)
			require.Equal(t, tc.met, v.Met, "%s: %s", tc.id, v.Note)
			if tc.note != "" {
				assert.Contains(t, v.Note, tc.note)
			}
			if tc.notNote != "" {
				assert.NotContains(t, v.Note, tc.notNote)
			}
			require.NotEmpty(t, v.Evidence, "the verdict cites a line: %s", v.Note)
			assert.Contains(t, joinQuotes(v.Evidence), tc.quote)
			for _, c := range v.Evidence {
				assert.Contains(t, doc.Source, c.Quote, "a quote is exact text of the variant")
			}
		})
	}
}
