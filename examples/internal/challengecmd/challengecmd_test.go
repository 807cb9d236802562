package challengecmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/crucible-go/crucible/examples/internal/cli"
	"github.com/crucible-go/crucible/internal/golden"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func fixed() time.Time { return time.Date(2026, 2, 13, 9, 0, 0, 0, time.UTC) }

func noEnv(string) (string, bool) { return "", false }

func runMain(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(context.Background(), cli.Env{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, LookupEnv: noEnv, Now: fixed})
	var err error
	if code != cli.ExitOK {
		err = fmt.Errorf("exit %d: %s", code, errOut.String())
	}
	return out.String(), errOut.String(), err
}

// TestRunDefaults runs the program as `go run ./examples/challenge` does:
// offline, on the bundled sample plan.
func TestRunDefaults(t *testing.T) {
	out, _, err := runMain(t)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "default-output.golden"), out)
	sample, err := os.ReadFile(filepath.Join("testdata", "PLAN.md"))
	if err != nil {
		t.Fatal(err)
	}
	// Every challenge quotes the sample: the conflicting retry limits, the
	// vague alerting threshold and the task without verification among
	// them.
	for _, quote := range []string{
		`line 18: "A failed delivery is retried at most 5 times with exponential backoff."`,
		`line 33: "A failed delivery is retried up to 8 times before it moves to the dead-letter table."`,
		`line 46: "Thresholds will be tuned as appropriate once we see production traffic."`,
		`line 38: "Task 3: Delivery dashboard"; line 40: "Implement the delivery dashboard."`,
	} {
		if !strings.Contains(out, quote) {
			t.Errorf("output lacks the evidence %s", quote)
		}
		for i, part := range strings.Split(quote, `"`) {
			if i%2 == 1 && !bytes.Contains(sample, []byte(part)) {
				t.Errorf("the quote %q is not in the sample", part)
			}
		}
	}
	for _, s := range []string{
		"CRUCIBLE ► ADVERSARIAL REVIEW",
		"Round 1: 6 challenges (continue)",
		"defense:  rejected, citing line 53:",
		"the author revised the plan",
		"Outcome: deadlock after 3 of 3 rounds; 4 addressed, 1 resolved by evidence, 0 flagged, 1 remaining",
		"Decision: accept with noted risks",
		"### Adversary review — plan `PLAN.md` (2026-02-13 09:00 UTC)",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q", s)
		}
	}
}

func TestRunVariants(t *testing.T) {
	dir := t.TempDir()
	roadmap := filepath.Join(dir, "ROADMAP.md")
	reqs := filepath.Join(dir, "REQUIREMENTS.md")
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(roadmap, "# Roadmap\n\n### Phase 1: Accounts\n**Requirements**: ACC-01\n**Success Criteria**: a user can sign up in staging.\n\n### Phase 2: Billing\n**Depends on**: Phase 3\n**Success Criteria**: an invoice is sent.\n\n### Phase 3: Reports\n**Success Criteria**: a report renders.\n")
	write(reqs, "# Requirements\n\n- ACC-01: Users can sign up.\n- ACC-02: Users can reset their password.\n")
	tests := []struct {
		name string
		args []string
		want []string
		not  []string
	}{
		{"log only", []string{"-log"}, []string{"### Adversary review — plan `PLAN.md`", "#### Decision"}, []string{"CRUCIBLE ►", "Round 1: 6 challenges"}},
		{"one round", []string{"-rounds", "1"}, []string{"Outcome: max-rounds after 1 of 1 rounds", "Decision: escalate to user"}, []string{"Round 2"}},
		{"two rounds", []string{"-rounds", "2"}, []string{"Outcome: max-rounds after 2 of 2 rounds", "Decision: accept with noted risks"}, nil},
		{"cap per rule", []string{"-max-per-rule", "1"}, []string{"Round 1: 5 challenges", "The same holds in one more place (line 53)."}, nil},
		{"a roadmap with its requirements", []string{"-file", roadmap, "-type", "roadmap", "-context", reqs},
			[]string{"Requirement ACC-02 is not mapped to any phase", `project context line 4: "ACC-02: Users can reset their password."`,
				"Phase 2 depends on phase 3, which comes after it", "Decision: escalate to user"}, []string{"the author revised"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runMain(t, tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.want {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tt.not {
				if strings.Contains(out, s) {
					t.Errorf("output has %q", s)
				}
			}
		})
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-rounds", "0"}, "max rounds 0 is outside 1–10"},
		{[]string{"-rounds", "11"}, "max rounds 11 is outside 1–10"},
		{[]string{"-type", "spec"}, `unknown artifact type "spec"`},
		{[]string{"-type", "roadmap"}, "the bundled sample is a plan"},
		{[]string{"-profile", "premium"}, `unknown model profile "premium"`},
		{[]string{"-file", "/nonexistent/PLAN.md"}, "File not found: /nonexistent/PLAN.md"},
		{[]string{"-provider", "anthropic"}, "this build has no model adapters"},
		{[]string{"-model", "opus"}, "needs --provider"},
		{[]string{"a.md", "extra"}, "unexpected arguments: extra"},
		{[]string{"extra"}, "File not found: extra"},
		{[]string{"-file", "a.md", "b.md"}, "not both"},
		{[]string{"-nope"}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		_, _, err := runMain(t, tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want %q", tt.args, err, tt.want)
		}
	}
}
