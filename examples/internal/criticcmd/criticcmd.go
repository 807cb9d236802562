// Package criticcmd is the critic example command: it runs Crucible's
// adversarial critic offline: it selects strategy modes for a context vector
// given by flags, printing the decision trace, then runs a full
// creator–critic–revision cycle over a bundled sample artifact and prints
// the score history.
//
//	go run ./examples/critic
//	go run ./examples/critic -criticality C3 -phase PH-EXPLORE -adr
//	go run ./examples/critic -team TEAM-SINGLE -criticality C4   # rejected
//
// No model is called: the offline engine's rule-based strategies and judge
// quote the artifact lines they cite, and the sample's "creator" replays
// the revisions bundled under testdata/.
package criticcmd

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/crucible-go/crucible/adversarial/critic"
	"github.com/crucible-go/crucible/examples/internal/cli"
)

//go:embed testdata/*.md
var bundled embed.FS

// versions are the sample artifact as its creator wrote it (v1) and revised
// it after each critique.
var versions = []string{
	"testdata/webhook-delivery-v1.md",
	"testdata/webhook-delivery-v2.md",
	"testdata/webhook-delivery-v3.md",
}

// Main runs the command in env and returns its exit status.
func Main(ctx context.Context, env cli.Env) int {
	if err := run(ctx, env.Args, env.Stdout, env.Stderr, env.Now); err != nil {
		fmt.Fprintln(env.Stderr, "critic:", err)
		return cli.ExitFailed
	}
	return cli.ExitOK
}

type options struct {
	vector        critic.Vector
	facts         critic.Facts
	modes         string
	maxIterations int
	showContext   bool
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("critic", flag.ContinueOnError)
	fs.SetOutput(stderr)
	crit := fs.String("criticality", "C2", "criticality C1–C4, or auto-detect")
	phase := fs.String("phase", string(critic.PhaseDesign), "review phase: PH-EXPLORE, PH-DESIGN, PH-IMPL, PH-VALID, PH-MAINT")
	target := fs.String("target", string(critic.TargetArch), "target type: TGT-CODE, TGT-ARCH, TGT-REQ, TGT-RES, TGT-DEC, TGT-PROC")
	maturity := fs.String("maturity", string(critic.MaturityDraft), "maturity: MAT-DRAFT, MAT-REVIEW, MAT-APPR, MAT-BASE")
	team := fs.String("team", string(critic.TeamMulti), "team: TEAM-SINGLE, TEAM-MULTI, TEAM-HIL")
	enforcement := fs.String("enforcement", "", "enforcement: ENF-FULL, ENF-PORT, ENF-MIN (default: derived from the platform)")
	platform := fs.String("platform", string(critic.PlatformCC), "platform: PLAT-CC, PLAT-CC-WIN, PLAT-GENERIC")
	budget := fs.String("budget", string(critic.BudgetFull), "token budget: TOK-FULL, TOK-CONST, TOK-EXHAUST")
	fs.BoolVar(&o.facts.ModifiesConstitution, "constitution", false, "the artifact modifies the constitution (AE-001)")
	fs.BoolVar(&o.facts.ModifiesRules, "rules", false, "the artifact modifies the rules files (AE-002)")
	fs.BoolVar(&o.facts.ADR, "adr", false, "the artifact is a new or modified ADR (AE-003)")
	fs.BoolVar(&o.facts.ModifiesBaselinedADR, "baselined-adr", false, "the artifact modifies a baselined ADR (AE-004)")
	fs.BoolVar(&o.facts.SecurityRelevant, "security", false, "the artifact modifies security-relevant code (AE-005)")
	fs.StringVar(&o.modes, "mode", "", "explicit critique modes for the cycle, e.g. steelman,devils-advocate,llm-as-judge (default: automatic)")
	fs.IntVar(&o.maxIterations, "max-iterations", 4, "circuit breaker for the cycle (at least 3)")
	fs.BoolVar(&o.showContext, "context", false, "print the accumulated pipeline context of the critique")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	o.vector = critic.Vector{Phase: critic.Phase(*phase), TargetType: critic.TargetType(*target), Maturity: critic.Maturity(*maturity),
		Team: critic.Team(*team), Enforcement: critic.Enforcement(*enforcement), Platform: critic.Platform(*platform), TokenBudget: critic.TokenBudget(*budget)}
	if c := strings.TrimSpace(*crit); c != "" && !strings.EqualFold(c, "auto-detect") {
		level, err := critic.ParseCriticality(c)
		if err != nil {
			fmt.Fprintf(stderr, "warning: Invalid criticality value '%s'; falling back to auto-detection.\n", c)
		}
		o.vector.Criticality = level
	}
	return o, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer, now func() time.Time) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}

	fmt.Fprintln(stdout, "== Automatic mode selection")
	sel, err := critic.SelectAutomatic(o.vector, o.facts)
	var rejected *critic.RejectedError
	if errors.As(err, &rejected) {
		printSelection(stdout, rejected.Selection)
		fmt.Fprintf(stdout, "\nREJECTED: %s\n", rejected.Reason)
		return nil
	}
	if err != nil {
		return err
	}
	printSelection(stdout, sel)

	fmt.Fprintln(stdout, "\n== Creator–critic–revision cycle (offline) on", versions[0])
	c := critic.New(critic.WithClock(now))
	cy := critic.NewCycle(c, &replay{}, critic.WithMaxIterations(o.maxIterations))
	res, err := cy.Run(ctx, critic.CycleInput{Path: "docs/webhook-delivery.md", Vector: o.vector, Facts: o.facts, Modes: o.modes})
	if errors.As(err, &rejected) {
		fmt.Fprintf(stdout, "REJECTED: %s\n", rejected.Reason)
		return nil
	}
	if err != nil {
		return err
	}
	for _, it := range res.Iterations {
		if it.Pipeline == nil {
			fmt.Fprintf(stdout, "iteration %d (%s): %s\n", it.Number, it.Kind, it.Artifact.Path)
			continue
		}
		score := "no score"
		if s, ok := it.Pipeline.Score(); ok {
			score = fmt.Sprintf("score %.2f", s)
		}
		fmt.Fprintf(stdout, "iteration %d (%s): %s; %s; %d findings\n", it.Number, it.Kind, critic.FormatModes(it.Pipeline.Modes), score, len(it.Pipeline.Findings()))
		if it.Pipeline.Abort != nil {
			fmt.Fprintf(stdout, "  aborted: %s\n", it.Pipeline.Abort.Reason)
		}
		for _, w := range it.Pipeline.Warnings {
			fmt.Fprintf(stdout, "  warning: %s\n", w.Message)
		}
	}
	if o.showContext && len(res.Iterations) > 1 && res.Iterations[1].Pipeline != nil {
		fmt.Fprintln(stdout, "\n== Pipeline context of the critique")
		fmt.Fprint(stdout, res.Iterations[1].Pipeline.Context())
	}
	if j := lastJudge(res); j != nil {
		fmt.Fprintf(stdout, "\nLast judgement (%s rubric):\n", j.Rubric)
		for _, d := range j.Dimensions {
			fmt.Fprintf(stdout, "  %-22s %.2f  %s\n", d.Name, d.Score, d.Rationale)
		}
	}

	fmt.Fprintln(stdout, "\n== Score history")
	fmt.Fprint(stdout, res.Tracking.Markdown())
	fmt.Fprintln(stdout, "\nDecisions:")
	for _, d := range res.Decisions {
		fmt.Fprintf(stdout, "  iteration %d: %s — %s\n", d.Iteration, d.Outcome, d.Reason)
	}
	if len(res.Flags) == 0 {
		fmt.Fprintln(stdout, "Anti-leniency flags: none")
	}
	for _, f := range res.Flags {
		fmt.Fprintf(stdout, "Anti-leniency flag %s (iteration %d): %s — %s\n", f.Check, f.Iteration, f.Action, f.Detail)
	}
	for _, c := range res.Caveats {
		fmt.Fprintf(stdout, "Caveat: %s\n", c)
	}
	fmt.Fprintf(stdout, "\nOutcome: %s\n", res.Outcome)
	return nil
}

func printSelection(w io.Writer, sel *critic.Selection) {
	v := sel.Vector
	fmt.Fprintf(w, "Context vector: %s %s %s %s %s %s %s %s\n", sel.Declared, v.Phase, v.TargetType, v.Maturity, v.Team, v.Enforcement, v.Platform, v.TokenBudget)
	fmt.Fprintln(w, "Decision trace:")
	for _, line := range strings.Split(strings.TrimRight(sel.Trace.String(), "\n"), "\n") {
		fmt.Fprintln(w, "  "+line)
	}
	for _, warn := range sel.Warnings {
		fmt.Fprintln(w, "Warning:", warn.Message)
	}
	for _, e := range sel.Escalations {
		kind := "recommended"
		if e.Mandatory {
			kind = "MANDATORY"
		}
		fmt.Fprintf(w, "Escalation %s (%s): %s\n", e.Rule, kind, e.Reason)
	}
	if sel.Modes == nil && sel.EndSession {
		fmt.Fprintln(w, "Selected modes: none — end the session; human review is mandatory")
		return
	}
	fmt.Fprintf(w, "Selected modes (%s, threshold %.2f, ~%d tokens):\n", sel.Criticality, sel.Threshold, sel.EstimatedTokens)
	for i, m := range sel.Modes {
		role := "recommended"
		for _, r := range sel.Required {
			if r == m {
				role = "required"
			}
		}
		if sel.Required == nil {
			role = "selected"
		}
		fmt.Fprintf(w, "  %d. %-22s %-6s %-11s ~%d tokens\n", i+1, m, m.Strategy(), role, m.EstimatedTokens())
	}
	if len(sel.Modes) == 0 {
		fmt.Fprintln(w, "  none — end the session; human review is mandatory")
	}
}

func lastJudge(res *critic.CycleResult) *critic.JudgeResult {
	for i := len(res.Iterations) - 1; i >= 0; i-- {
		if p := res.Iterations[i].Pipeline; p != nil && p.Judge != nil {
			return p.Judge
		}
	}
	return nil
}

// replay is the sample's creator: it hands out the bundled versions in turn,
// as a model-backed creator would write and revise the artifact. After the
// last version it returns the last one again.
type replay struct{ next int }

func (r *replay) load() (critic.Artifact, error) {
	name := versions[min(r.next, len(versions)-1)]
	r.next++
	a, err := critic.LoadArtifact(bundled, name)
	if err != nil {
		return critic.Artifact{}, err
	}
	a.Path = name
	return a, nil
}

func (r *replay) Create(context.Context, critic.CreateRequest) (critic.Artifact, error) {
	return r.load()
}

func (r *replay) Revise(context.Context, critic.RevisionRequest) (critic.Artifact, error) {
	return r.load()
}
