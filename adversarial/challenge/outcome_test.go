package challenge

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// authorDefender answers by rule and, like an author, fixes the conflicting
// retry limit in round 1.
func authorDefender(t *testing.T) Defender {
	return DefenderFunc(func(ctx context.Context, req DefenseRequest) (Defense, error) {
		d, err := RuleDefender{}.Defend(ctx, req)
		if err == nil && req.Round == 1 {
			d.Revised = strings.Replace(req.Artifact, "retried up to 8 times", "retried at most 5 times", 1)
			if d.Revised == req.Artifact {
				t.Error("the sample no longer has the conflict")
			}
		}
		return d, err
	})
}

func TestOutcomeMarkdownGolden(t *testing.T) {
	tests := []struct {
		name     string
		typ      ArtifactType
		file     string
		defender Defender
	}{
		{"plan", Plan, "plan.md", authorDefender(t)},
		{"requirements", Requirements, "requirements.md", nil},
		{"plan-clean", Plan, "plan-clean.md", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Input{Type: tt.typ, Name: strings.ToUpper(strings.TrimSuffix(tt.file, ".md")) + ".md",
				Artifact: readFile(t, filepath.Join("testdata", "artifacts", tt.file))}
			o, err := enabled(WithDefender(tt.defender)).Run(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			md := o.Markdown()
			checkGolden(t, filepath.Join("outcomes", tt.name+".md"), md)
			again, err := enabled(WithDefender(tt.defender)).Run(context.Background(), in)
			if err != nil || again.Markdown() != md {
				t.Error("a second run differs")
			}
			b, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			var back Outcome
			if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(&back, o) {
				t.Errorf("the outcome does not survive JSON: %v", err)
			}
		})
	}
}

func TestOutcomeSample(t *testing.T) {
	in := Input{Type: Plan, Name: "PLAN.md", Artifact: readFile(t, filepath.Join("testdata", "artifacts", "plan.md"))}
	o, err := enabled(WithDefender(authorDefender(t))).Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	// Round 1 raises six challenges; the author fixes the conflict and the
	// bounded back-off is rejected with evidence; round 2 sees four left;
	// round 3 sees the same four: deadlock, and none is critical.
	if o.Status != StatusDeadlock || len(o.Rounds) != 3 || !o.Revised {
		t.Fatalf("status %s after %d rounds, revised %v", o.Status, len(o.Rounds), o.Revised)
	}
	if o.Count(StateAddressed) != 1 || o.Count(StateResolved) != 1 || len(o.Remaining()) != 4 {
		t.Errorf("addressed %d, resolved %d, remaining %d", o.Count(StateAddressed), o.Count(StateResolved), len(o.Remaining()))
	}
	if o.Decision == nil || o.Decision.Verdict != AcceptWithRisks {
		t.Errorf("decision %+v", o.Decision)
	}
	if !strings.Contains(o.Artifact, "retried at most 5 times before it moves") {
		t.Error("the final artifact lacks the revision")
	}
	for _, want := range []string{
		"### Adversary review — plan `PLAN.md` (2026-02-13 09:00 UTC)",
		`Evidence: line 13: "A failed delivery is retried at most 5 times with exponential backoff."; line 28:`,
		"Result: addressed — the adversary judged it addressed",
		`Evidence: line 48: "but never wait more than 10 minutes between attempts"`,
		"#### Remaining concerns",
		"**Accept with noted risks.**",
	} {
		if !strings.Contains(o.Markdown(), want) {
			t.Errorf("the log lacks %q", want)
		}
	}
}
