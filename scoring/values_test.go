package scoring

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEnumeratedValues(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		values  []string // must be values
		acronym []string // must stay acronyms (not values)
	}{
		{name: "a chain of states", doc: "# T\n\nJobs go PENDING → RUNNING → DONE, or FAILED.\n",
			values: []string{"PENDING", "RUNNING", "DONE", "FAILED"}},
		{name: "slash-joined outcomes", doc: "# T\n\nThe gate returns PASS/FAIL/DEFERRED.\n",
			values: []string{"PASS", "FAIL", "DEFERRED"}},
		{name: "a list of acronyms is no enumeration", doc: "# T\n\nWe track SLO, SLI and SLA.\n",
			acronym: []string{"SLO", "SLI", "SLA"}},
		{name: "values after a label, up to the first other word",
			doc:    "# T\n\n**Verdict**: **REFUTED** -- see below.\n\nEach change gets one verdict: ACCEPT, REJECT or MODIFY.\n\nStatus: BLOCKED until the TQ drains.\n",
			values: []string{"REFUTED", "ACCEPT", "REJECT", "MODIFY", "BLOCKED"}, acronym: []string{"TQ"}},
		{name: "a verdict column; the first column is not values",
			doc:    "# T\n\n| Claim | Check |\n|---|---|\n| KMS rotates keys | **VERIFIED** |\n| HSM is used | **REFUTED** -- no HSM |\n",
			values: []string{"VERIFIED", "REFUTED"}, acronym: []string{"KMS", "HSM"}},
		{name: "a column headed by a value label", doc: "# T\n\n| Item | Severity |\n|---|---|\n| Drift | HIGH |\n",
			values: []string{"HIGH"}},
		{name: "inline code", doc: "# T\n\nThe enum gains `PASS_RECOVERED` and `TIMEOUT`.\n",
			values: []string{"PASS_RECOVERED", "TIMEOUT"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := enumeratedValues(parse(t, "v", tc.doc))
			for _, v := range tc.values {
				assert.True(t, got[v], "%s is a value", v)
			}
			for _, a := range tc.acronym {
				assert.False(t, got[a], "%s is not a value", a)
			}
		})
	}
}

func TestMitigatedOnLine(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"- Lock contention -> batch the backfill + run it off-peak", true},
		{"- Replica lag → throttle to 500 rows/s", true},
		{"- Old clients: keep the v1 parser for one release", true},
		{"- Rollback loses rows. Mitigation: dual-write for 7 days", true},
		{"- Queue backlog (L: high, I: medium): shed load at the edge", true},
		{"- Outage: probability high, impact high.", false},
		{"- Queue backlog (L: high, I: medium)", false},
		{"- Replica lag during the backfill", false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, mitigatedOnLine(tc.line), tc.line)
	}
}
