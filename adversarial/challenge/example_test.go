package challenge_test

import (
	"context"
	"fmt"
	"time"

	"github.com/crucible-go/crucible/adversarial/challenge"
)

// The loop runs offline by default: the rule-based adversary challenges
// the plan, the rule-based defender answers, and the rule-based decider
// makes the final call.
func ExampleLoop_Run() {
	plan := `# Plan: nightly export

## Tasks

### Task 1: Export job

Write the orders of the day to S3 as CSV, retrying as needed.

**Verify:** ` + "`go test ./export`" + ` passes.

### Task 2: Export page

Implement the export page.
`
	loop := challenge.New(
		challenge.WithConfig(challenge.Config{Enabled: true}), // off unless enabled
		challenge.WithClock(func() time.Time { return time.Date(2026, 2, 13, 9, 0, 0, 0, time.UTC) }),
	)
	out, err := loop.Run(context.Background(), challenge.Input{Type: challenge.Plan, Name: "PLAN.md", Artifact: plan})
	if err != nil {
		panic(err)
	}
	for _, c := range out.Rounds[0].Reply.Challenges {
		fmt.Printf("%d. %s (%s): %s\n", c.Number, c.Category, c.Severity, c.Evidence)
	}
	fmt.Println(out.Status, len(out.Remaining()), out.Decision.Verdict)
	// Output:
	// 1. Complexity hiding (significant): line 11: "Task 2: Export page"; line 13: "Implement the export page."
	// 2. Verification gaps (significant): line 11: "Task 2: Export page"; line 13: "Implement the export page."
	// 3. Missing wiring (significant): line 13: "Implement the export page."
	// 4. Verification gaps (minor): line 7: "Write the orders of the day to S3 as CSV, retrying as needed."
	// deadlock 4 accept with noted risks
}

// Parse reads a reply in the widely used fork's dialect and maps it onto
// the package's own severities and convergence statuses.
func ExampleParse() {
	reply, err := challenge.Parse(`## ADVERSARY CHALLENGES

**Checkpoint:** plan
**Round:** 1/3
**Challenges Found:** 1

### Challenge 1: Dashboard has no data source

**Severity:** BLOCKING
**Concern:** No task builds the API the dashboard reads.
**Evidence:** PLAN.md: "Implement the delivery dashboard."
**Affected:** Task 3

### Convergence Recommendation

**Recommendation:** CONTINUE
**Rationale:** A blocking concern is open.
**Remaining Concerns:** 1 BLOCKING, 0 MAJOR, 0 MINOR
`)
	if err != nil {
		panic(err)
	}
	c := reply.Challenges[0]
	fmt.Println(reply.Dialect, c.Severity, c.Quotes[0].Text, reply.Convergence.Status, reply.Convergence.Remaining)
	// Output: fork critical Implement the delivery dashboard. continue 1
}

// ParseConfig reads the adversary's settings from a project's JSON
// configuration.
func ExampleParseConfig() {
	cfg, err := challenge.ParseConfig([]byte(`{
  "model_profile": "budget",
  "workflow": {"adversary": true},
  "adversary": {"max_rounds": 2, "checkpoints": ["roadmap", "plans"]}
}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(cfg.Enabled, cfg.Rounds(), cfg.Checkpoints, cfg.ModelName(), cfg.Checkpoint(challenge.Verification))
	// Output: true 2 [roadmap plan] haiku false
}
