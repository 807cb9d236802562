// Package challengecmd is the challenge example command: it runs Crucible's
// single-adversary challenge loop over a bundled sample plan and prints the
// outcome: each round's challenges with the evidence they quote, the
// defense, how the debate ended, the final decision and the decision-log
// entry a host would append to its state file.
//
//	go run ./examples/challenge
//	go run ./examples/challenge -rounds 2
//	go run ./examples/challenge -log            # only the decision-log entry
//	go run ./examples/challenge -type roadmap -context REQUIREMENTS.md ROADMAP.md
//	cat PLAN.md | go run ./examples/challenge -json -
//	go -C examples/withmodels run . challenge -provider anthropic -profile quality
//
// By default nothing calls a model: the offline adversary's rule-based
// checks challenge the plan, the rule-based defender answers, the sample's
// "author" applies the revision bundled under testdata/ after round 1, and
// the rule-based decider makes the final call. With -provider the
// adversary is a model; the defender and decider stay rule-based.
package challengecmd

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/crucible-go/crucible/adversarial/challenge"
	"github.com/crucible-go/crucible/examples/internal/cli"
	"github.com/crucible-go/crucible/examples/internal/models"
)

//go:embed testdata/*.md
var bundled embed.FS

// The sample plan as its author wrote it, and as the author revised it
// after the first round of challenges.
const (
	samplePath     = "testdata/PLAN.md"
	sampleRevision = "testdata/PLAN-r1.md"
)

// Main runs the command in env and returns its exit status.
func Main(ctx context.Context, env cli.Env) int {
	c := cli.New("challenge", env,
		"challenge [flags]            the bundled sample plan",
		"challenge [flags] FILE|-     a Markdown artifact of -type (- reads standard input)")
	o, err := parseFlags(c)
	if err != nil {
		if errors.Is(err, errDone) {
			return o.code
		}
		return c.Fail(err)
	}
	return c.Fail(run(ctx, c, o))
}

// errDone says Parse has already answered (help, or a usage error).
var errDone = errors.New("done")

type options struct {
	cfg        challenge.Config
	file       string
	typ        challenge.ArtifactType
	context    string
	logOnly    bool
	maxPerRule int
	models     *models.Flags
	code       int
}

func parseFlags(c *cli.Command) (options, error) {
	var o options
	fs := c.Flags
	rounds := fs.Int("rounds", challenge.DefaultMaxRounds, "maximum rounds of debate (1–10)")
	profile := fs.String("profile", string(challenge.DefaultProfile), "model profile for -provider anthropic: quality (opus), balanced (sonnet), budget (haiku)")
	typ := fs.String("type", string(challenge.Plan), "artifact type of FILE: requirements, roadmap, plan, verification")
	fs.StringVar(&o.file, "file", "", "the same as the FILE argument")
	fs.StringVar(&o.context, "context", "", "a file with the project context (e.g. REQUIREMENTS.md for a roadmap); - is standard input")
	fs.BoolVar(&o.logOnly, "log", false, "print only the decision-log entry")
	fs.IntVar(&o.maxPerRule, "max-per-rule", challenge.DefaultMaxPerRule, "most challenges one offline check raises (0: no cap)")
	o.models = models.RegisterFlags(fs)
	args, code, done := c.Parse()
	if done {
		o.code = code
		return o, errDone
	}
	switch {
	case len(args) > 1:
		return o, cli.Usagef("unexpected arguments: %s", strings.Join(args[1:], " "))
	case len(args) == 1 && o.file != "":
		return o, cli.Usagef("give the file as an argument or with -file, not both")
	case len(args) == 1:
		o.file = args[0]
	}
	if *rounds < 1 {
		return o, cli.Usagef("-rounds: max rounds %d is outside 1–%d", *rounds, challenge.MaxRoundsLimit)
	}
	t, err := challenge.ParseArtifactType(*typ)
	if err != nil {
		return o, cli.Usagef("-type: %w", err)
	}
	o.typ = t
	o.cfg = challenge.Config{Enabled: true, MaxRounds: *rounds, Profile: challenge.Profile(strings.ToLower(*profile))}
	if err := o.cfg.Validate(); err != nil {
		return o, cli.Usagef("%w", err)
	}
	return o, nil
}

func run(ctx context.Context, c *cli.Command, o options) error {
	stdout := c.Env.Stdout
	in, revisions, err := load(c, o)
	if err != nil {
		return err
	}
	adversary, describe, err := newAdversary(c, o)
	if err != nil {
		return err
	}
	now := c.Env.Now
	if now == nil {
		now = time.Now
	}
	loop := challenge.New(challenge.WithConfig(o.cfg), challenge.WithAdversary(adversary),
		challenge.WithDefender(&author{revisions: revisions}), challenge.WithClock(now))

	out, err := loop.Run(ctx, in)
	if err != nil && out == nil {
		return err
	}
	switch {
	case c.JSON:
		if jerr := c.PrintJSON(out); jerr != nil {
			return jerr
		}
	case o.logOnly:
		fmt.Fprint(stdout, out.Markdown())
	default:
		bar := strings.Repeat("━", 54)
		fmt.Fprintf(stdout, "%s\n CRUCIBLE ► ADVERSARIAL REVIEW\n%s\n\n", bar, bar)
		fmt.Fprintf(stdout, "◆ Challenging %s %s (%s, up to %d rounds)...\n", in.Type, in.Name, describe, o.cfg.Rounds())
		printOutcome(stdout, out)
		fmt.Fprintln(stdout, "\n== Decision-log entry (append it to the project's state file)")
		fmt.Fprintln(stdout)
		fmt.Fprint(stdout, out.Markdown())
	}
	// The adversary is advisory: an error still leaves the artifact usable,
	// but the run reports it.
	return err
}

// load returns the input and the author's revisions: the bundled sample
// and its revision, or the file with none.
func load(c *cli.Command, o options) (challenge.Input, []string, error) {
	in := challenge.Input{Type: o.typ}
	if o.context != "" {
		b, err := c.ReadFile(o.context)
		if err != nil {
			return in, nil, err
		}
		in.Context = string(b)
	}
	if o.file != "" {
		b, err := c.ReadFile(o.file)
		if err != nil {
			return in, nil, err
		}
		in.Name, in.Artifact = o.file, string(b)
		if o.file == "-" {
			in.Name = "standard input"
		}
		return in, nil, nil
	}
	if o.typ != challenge.Plan {
		return in, nil, cli.Usagef("the bundled sample is a plan; give a FILE for another type")
	}
	sample, err := bundled.ReadFile(samplePath)
	if err != nil {
		return in, nil, err
	}
	revision, err := bundled.ReadFile(sampleRevision)
	if err != nil {
		return in, nil, err
	}
	in.Name, in.Artifact = "PLAN.md", string(sample)
	return in, []string{string(revision)}, nil
}

// newAdversary returns the offline adversary, or a model through the
// registry the -provider and -model flags open.
func newAdversary(c *cli.Command, o options) (challenge.Adversary, string, error) {
	reg, err := c.OpenModels(o.models)
	if err != nil {
		return nil, "", err
	}
	if reg == nil {
		return challenge.Offline(challenge.WithMaxPerRule(o.maxPerRule)), "offline adversary", nil
	}
	cfg := o.cfg
	if m := strings.TrimSpace(o.models.Model); m != "" || !strings.EqualFold(o.models.Provider, models.Anthropic) {
		// Profiles name Claude models; other providers use --model or
		// their default.
		cfg.Model = o.models.DefaultModel()
	}
	a, err := challenge.NewModelAdversaryFor(reg, cfg)
	if err != nil {
		return nil, "", err
	}
	id, _ := cfg.ResolveModel(reg)
	return a, "adversary model " + id, nil
}

// author is the sample's defender: the rule-based defense, plus the
// revision the author wrote after each round, while there is one.
type author struct{ revisions []string }

func (a *author) Defend(ctx context.Context, req challenge.DefenseRequest) (challenge.Defense, error) {
	d, err := challenge.RuleDefender{}.Defend(ctx, req)
	if err != nil {
		return d, err
	}
	if i := req.Round - 1; i < len(a.revisions) {
		d.Revised = a.revisions[i]
		d.Summary += " The author revised the plan."
	}
	return d, nil
}

func printOutcome(w io.Writer, out *challenge.Outcome) {
	byID := map[string]challenge.Tracked{}
	for _, t := range out.Challenges {
		byID[t.ID] = t
	}
	for _, r := range out.Rounds {
		rep := r.Reply
		if rep.NoObjections {
			fmt.Fprintf(w, "\nRound %d: no objections\n", r.Number)
			continue
		}
		noun := "challenges"
		if len(rep.Challenges) == 1 {
			noun = "challenge"
		}
		fmt.Fprintf(w, "\nRound %d: %d %s (%s)\n", r.Number, len(rep.Challenges), noun, rep.Convergence.Status)
		for _, a := range rep.Assessments {
			fmt.Fprintf(w, "  defense of %s: %s\n", a.Challenge, a.Status)
		}
		for _, c := range rep.Challenges {
			t := byID[fmt.Sprintf("%d.%d", r.Number, c.Number)]
			fmt.Fprintf(w, "  %s [%s] %s: %s\n", t.ID, c.Severity, c.Title, c.Concern)
			fmt.Fprintf(w, "       evidence: %s\n", c.Evidence)
			if t.Response != nil {
				fmt.Fprintf(w, "       defense:  %s", t.Response.Action)
				if t.Response.Evidence != "" {
					fmt.Fprintf(w, ", citing %s", t.Response.Evidence)
				}
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "       now:      %s\n", t.State)
		}
		if r.Revised {
			fmt.Fprintln(w, "  the author revised the plan")
		}
	}
	fmt.Fprintf(w, "\nOutcome: %s", out.Status)
	if out.Error != "" {
		fmt.Fprintf(w, " (%s)", out.Error)
	}
	rem := out.Remaining()
	fmt.Fprintf(w, " after %d of %d rounds; %d addressed, %d resolved by evidence, %d flagged, %d remaining\n",
		len(out.Rounds), out.MaxRounds, out.Count(challenge.StateAddressed), out.Count(challenge.StateResolved),
		out.Count(challenge.StateFlagged), len(rem))
	if d := out.Decision; d != nil {
		fmt.Fprintf(w, "Decision: %s — %s\n", d.Verdict, d.Rationale)
	}
	if out.Revised {
		fmt.Fprintln(w, "The artifact comes back revised.")
	}
}
