// Package criticcmd is the critic example command: it runs Crucible's
// adversarial critic offline: it selects strategy modes for a context vector
// given by flags, printing the decision trace, then runs a full
// creator–critic–revision cycle over a bundled sample artifact and prints
// the score history.
//
//	go run ./examples/critic
//	go run ./examples/critic -criticality C3 -phase PH-EXPLORE -adr
//	go run ./examples/critic -team TEAM-SINGLE -criticality C4   # rejected
//	go run ./examples/critic docs/DESIGN.md                       # one critique of a file
//	cat DESIGN.md | go run ./examples/critic --json -
//
// No model is called: the offline engine's rule-based strategies and judge
// quote the artifact lines they cite, and the sample's "creator" replays
// the revisions bundled under testdata/.
package criticcmd

import (
	"context"
	"embed"
	"errors"
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
	c := cli.New("critic", env,
		"critic [flags]           mode selection, then a creator–critic–revision cycle on the bundled sample",
		"critic [flags] FILE|-    mode selection, then one critique of FILE (- reads standard input)")
	o, code, done := parseFlags(c)
	if done {
		return code
	}
	return c.Fail(run(ctx, c, o))
}

type options struct {
	vector        critic.Vector
	facts         critic.Facts
	modes         string
	criticality   string
	maxIterations int
	showContext   bool
	file          string
}

// parseFlags parses the flags; done means return code at once.
func parseFlags(c *cli.Command) (o options, code int, done bool) {
	fs := c.Flags
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
	fs.StringVar(&o.modes, "mode", "", "explicit critique modes, e.g. steelman,devils-advocate,llm-as-judge (default: automatic)")
	fs.IntVar(&o.maxIterations, "max-iterations", 4, "circuit breaker for the cycle (at least 3)")
	fs.BoolVar(&o.showContext, "context", false, "print the accumulated pipeline context of the critique")
	args, code, done := c.Parse()
	if done {
		return o, code, true
	}
	if len(args) > 1 {
		return o, c.Fail(cli.Usagef("unexpected arguments: %s", strings.Join(args[1:], " "))), true
	}
	if len(args) == 1 {
		o.file = args[0]
	}
	o.vector = critic.Vector{Phase: critic.Phase(*phase), TargetType: critic.TargetType(*target), Maturity: critic.Maturity(*maturity),
		Team: critic.Team(*team), Enforcement: critic.Enforcement(*enforcement), Platform: critic.Platform(*platform), TokenBudget: critic.TokenBudget(*budget)}
	if cr := strings.TrimSpace(*crit); cr != "" && !strings.EqualFold(cr, "auto-detect") {
		level, err := critic.ParseCriticality(cr)
		if err != nil {
			c.Warn("Invalid criticality value '%s'; falling back to auto-detection.", cr)
		} else {
			o.criticality = cr
		}
		o.vector.Criticality = level
	}
	if o.modes != "" {
		// Unknown modes are a usage error, found before anything runs.
		if _, err := critic.SelectExplicit(o.modes, o.criticality, o.facts); err != nil && !isRejected(err) {
			return o, c.Fail(cli.Usagef("-mode: %w", err)), true
		}
	}
	return o, 0, false
}

func isRejected(err error) bool {
	var rejected *critic.RejectedError
	return errors.As(err, &rejected)
}

func run(ctx context.Context, c *cli.Command, o options) error {
	var artifact critic.Artifact
	if o.file != "" {
		b, err := c.ReadFile(o.file)
		if err != nil {
			return err
		}
		artifact = critic.Artifact{Path: o.file, Content: string(b)}
		if o.file == "-" {
			artifact.Path = "standard input"
		}
		if err := artifact.Validate(); err != nil {
			return cli.Input(err)
		}
	}
	// With --json the text report is discarded and the result printed as
	// JSON at the end; warnings still go to stderr.
	stdout := c.Env.Stdout
	if c.JSON {
		stdout = io.Discard
	}
	now := c.Env.Now
	if now == nil {
		now = time.Now
	}

	fmt.Fprintln(stdout, "== Automatic mode selection")
	sel, err := critic.SelectAutomatic(o.vector, o.facts)
	var rejected *critic.RejectedError
	if errors.As(err, &rejected) {
		printSelection(stdout, c, rejected.Selection)
		fmt.Fprintf(stdout, "\nREJECTED: %s\n", rejected.Reason)
		return jsonIf(c, map[string]any{"selection": rejected.Selection, "rejected": rejected.Reason})
	}
	if err != nil {
		return err
	}
	printSelection(stdout, c, sel)

	if o.file != "" {
		return critique(ctx, c, stdout, o, sel, artifact, now)
	}

	fmt.Fprintln(stdout, "\n== Creator–critic–revision cycle (offline) on", versions[0])
	cr := critic.New(critic.WithClock(now))
	cy := critic.NewCycle(cr, &replay{}, critic.WithMaxIterations(o.maxIterations))
	res, err := cy.Run(ctx, critic.CycleInput{Path: "docs/webhook-delivery.md", Vector: o.vector, Facts: o.facts, Modes: o.modes})
	if errors.As(err, &rejected) {
		fmt.Fprintf(stdout, "REJECTED: %s\n", rejected.Reason)
		return jsonIf(c, map[string]any{"selection": sel, "rejected": rejected.Reason})
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
			c.Warn("iteration %d: %s", it.Number, w.Message)
		}
	}
	if o.showContext && len(res.Iterations) > 1 && res.Iterations[1].Pipeline != nil {
		fmt.Fprintln(stdout, "\n== Pipeline context of the critique")
		fmt.Fprint(stdout, res.Iterations[1].Pipeline.Context())
	}
	printJudge(stdout, lastJudge(res))

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
	for _, cv := range res.Caveats {
		fmt.Fprintf(stdout, "Caveat: %s\n", cv)
	}
	fmt.Fprintf(stdout, "\nOutcome: %s\n", res.Outcome)
	return jsonIf(c, map[string]any{"selection": sel, "cycle": res})
}

// critique runs one critique pipeline over the user's artifact with the
// explicit modes, or the automatically selected ones.
func critique(ctx context.Context, c *cli.Command, stdout io.Writer, o options, sel *critic.Selection, a critic.Artifact, now func() time.Time) error {
	if o.modes != "" {
		explicit, err := critic.SelectExplicit(o.modes, o.criticality, o.facts)
		if err != nil {
			return err
		}
		sel = explicit
	}
	if len(sel.Modes) == 0 {
		fmt.Fprintln(stdout, "\nNo critique: no mode selected.")
		return jsonIf(c, map[string]any{"selection": sel})
	}
	fmt.Fprintf(stdout, "\n== Critique (offline) of %s\n", a.Path)
	res, err := critic.New(critic.WithClock(now)).Run(ctx, critic.PipelineInput{Selection: sel, Artifact: a})
	if res == nil {
		return err
	}
	for _, w := range res.Warnings {
		c.Warn("%s", w.Message)
	}
	score := "no score"
	if s, ok := res.Score(); ok {
		score = fmt.Sprintf("score %.2f (threshold %.2f)", s, res.Threshold)
	}
	fmt.Fprintf(stdout, "%s: %s; %s; %d findings\n", res.Status, critic.FormatModes(res.Modes), score, len(res.Findings()))
	for _, f := range res.Findings() {
		fmt.Fprintf(stdout, "  [%s] %s: %s\n", f.Severity, f.Mode, f.Summary)
	}
	if o.showContext {
		fmt.Fprintln(stdout, "\n== Pipeline context of the critique")
		fmt.Fprint(stdout, res.Context())
	}
	printJudge(stdout, res.Judge)
	if jerr := jsonIf(c, critic.Review{Selection: sel, Pipeline: res}); jerr != nil {
		return jerr
	}
	return err
}

func printJudge(w io.Writer, j *critic.JudgeResult) {
	if j == nil {
		return
	}
	fmt.Fprintf(w, "\nLast judgement (%s rubric):\n", j.Rubric)
	for _, d := range j.Dimensions {
		fmt.Fprintf(w, "  %-22s %.2f  %s\n", d.Name, d.Score, d.Rationale)
	}
}

func printSelection(w io.Writer, c *cli.Command, sel *critic.Selection) {
	v := sel.Vector
	fmt.Fprintf(w, "Context vector: %s %s %s %s %s %s %s %s\n", sel.Declared, v.Phase, v.TargetType, v.Maturity, v.Team, v.Enforcement, v.Platform, v.TokenBudget)
	fmt.Fprintln(w, "Decision trace:")
	for _, line := range strings.Split(strings.TrimRight(sel.Trace.String(), "\n"), "\n") {
		fmt.Fprintln(w, "  "+line)
	}
	for _, warn := range sel.Warnings {
		c.Warn("%s", warn.Message)
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

// jsonIf prints v as JSON when --json asked for it.
func jsonIf(c *cli.Command, v any) error {
	if !c.JSON {
		return nil
	}
	return c.PrintJSON(v)
}
