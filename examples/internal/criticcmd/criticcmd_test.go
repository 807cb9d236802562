package criticcmd

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crucible-go/crucible/examples/internal/cli"
	"github.com/crucible-go/crucible/internal/golden"
)

func fixed() time.Time { return time.Date(2026, 2, 13, 9, 0, 0, 0, time.UTC) }

func runMain(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(context.Background(), cli.Env{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Now: fixed})
	var err error
	if code != cli.ExitOK {
		err = fmt.Errorf("exit %d: %s", code, errOut.String())
	}
	return out.String(), errOut.String(), err
}

func TestRunDefaults(t *testing.T) {
	out, _, err := runMain(t)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "default-output.golden"), out)
	for _, s := range []string{
		"Decision trace:",
		"[8] sequencing ORDER fired",
		"Selected modes (C2, threshold 0.92, ~18200 tokens):",
		"== Score history",
		"| 2 | critique | 0.57 |",
		"Outcome: ACCEPT",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q", s)
		}
	}
}

func TestRunVariants(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"escalation survives exploration", []string{"-criticality", "C1", "-phase", "PH-EXPLORE", "-adr"},
			[]string{"AE-003 fired", "PR-001 fired", "Selected modes (C3"}},
		{"single agent C4 rejected", []string{"-criticality", "C4", "-team", "TEAM-SINGLE"},
			[]string{"REJECTED: C4 review NOT PERMITTED for TEAM-SINGLE. Escalate to TEAM-MULTI + TEAM-HIL."}},
		{"exhausted C4 ends the session", []string{"-criticality", "C4", "-budget", "TOK-EXHAUST"},
			[]string{"none — end the session", "Escalation AE-006 (MANDATORY)", "Outcome: ESCALATE"}},
		{"default circuit breaker escalates", []string{"-max-iterations", "3"},
			[]string{"circuit breaker at iteration 3", "Outcome: ESCALATE"}},
		{"explicit modes", []string{"-mode", "red-team,devils-advocate,llm-as-judge", "-context"},
			[]string{"red-team,devils-advocate,llm-as-judge; score", "## Mode: red-team (S-001)"}},
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
		})
	}
}

func TestRunBadInput(t *testing.T) {
	if _, _, err := runMain(t, "-nope"); err == nil {
		t.Error("unknown flag accepted")
	}
	if _, _, err := runMain(t, "a.md", "stray"); err == nil {
		t.Error("stray argument accepted")
	}
	if _, _, err := runMain(t, "-mode", "chaos"); err == nil || !strings.Contains(err.Error(), "Unknown mode 'chaos'") {
		t.Errorf("unknown mode: %v", err)
	}
	_, errOut, err := runMain(t, "-criticality", "C9")
	if err != nil || !strings.Contains(errOut, "Invalid criticality value 'C9'; falling back to auto-detection.") {
		t.Errorf("invalid criticality: %v %q", err, errOut)
	}
}
