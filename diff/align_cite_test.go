package diff

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIDFamily(t *testing.T) {
	for term, want := range map[string]string{"fr-12": "fr", "s2": "s", "sol-d": "sol", "t1": "t"} {
		assert.Equal(t, want, idFamily(term), term)
	}
}

func TestIsHeadingIDTerm(t *testing.T) {
	tests := []struct {
		term string
		want bool
	}{
		{"ov-4", true},
		{"nr-12", true},
		{"t1", true},
		{"sol-d", true},       // a name with a one-letter part
		{"plan-b", true},      // likewise
		{"cold-start", false}, // a hyphenated word
		{"phase#2", false},    // a numbered word, compared as a title term
		{"§4.4", false},       // an outline reference
		{"run_id", false},     // an identifier of code
		{"api", false},
		{"2.1", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.term, func(t *testing.T) {
			assert.Equal(t, tt.want, isHeadingIDTerm(tt.term))
		})
	}
}

// The item one variant names in a heading ("OV-4: …") and another
// discusses under a heading of its own framing, citing the id in its
// prose: aligned when the citing section centres on the id, not when the
// id only sits in a table row or among many ids cited alike.
func TestAlignSectionsByCitedHeadingID(t *testing.T) {
	a := "# Review A\n\n" +
		"## OV-3: Signature change\n\nThe keyword-only parameters keep the old callers working.\n\n" +
		"## OV-4: Pre-writing the result file\n\nWriting the report before launch and writing it after exit are two strategies with different timing; keep one.\n\n" +
		"## OV-5: Prompt boundary\n\nThe stop line belongs in the prompt template only.\n"
	tests := []struct {
		name  string
		b     string
		want  []string
		alone []string
	}{
		{
			name: "prose centred on the id",
			b: "# Review B\n\n" +
				"## Fault 1: Discard Gap\n\nThe analysis (OV-4) states that crashes before launch cannot matter. That holds only while the collector never raises; wrap it in a handler.\n\n" +
				"## Fault 2: Logger Drops\n\nUnknown statuses vanish from the event log without a warning.\n",
			want: []string{"A:OV-4: Pre-writing the result file | B:Fault 1: Discard Gap"},
		},
		{
			name: "the id only in a table row",
			b: "# Review B\n\n" +
				"## Fault 1: Discard Gap\n\n| Item | Verdict |\n|---|---|\n| OV-4 | crashes before launch cannot matter |\n\nThat holds only while the collector never raises; wrap it in a handler.\n\n" +
				"## Fault 2: Logger Drops\n\nUnknown statuses vanish from the event log without a warning.\n",
			alone: []string{"A:OV-4: Pre-writing the result file", "B:Fault 1: Discard Gap"},
		},
		{
			name: "prose citing every item alike",
			b: "# Review B\n\n" +
				"## Fault 1: Discard Gap\n\nThe analysis (OV-3, OV-4, OV-5) states that crashes before launch cannot matter. That holds only while the collector never raises; wrap it in a handler.\n\n" +
				"## Fault 2: Logger Drops\n\nUnknown statuses vanish from the event log without a warning.\n",
			alone: []string{"A:OV-4: Pre-writing the result file", "B:Fault 1: Discard Gap"},
		},
		{
			name: "another item of the same list citing it",
			b: "# Review B\n\n" +
				"## OV-6: Retry budget\n\nUnlike OV-4, the retry budget resets after every launch, so crashes before launch cannot exhaust it.\n\n" +
				"## Fault 2: Logger Drops\n\nUnknown statuses vanish from the event log without a warning.\n",
			alone: []string{"A:OV-4: Pre-writing the result file", "B:OV-6: Retry budget"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkAligned(t, []string{a, tt.b}, tt.want, tt.alone) })
	}
}
