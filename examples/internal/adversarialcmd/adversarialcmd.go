// Package adversarialcmd is the adversarial example command: it is a
// command-line host for Crucible's adversarial pipeline, mirroring
// /sc:adversarial:
//
//	adversarial --compare a.md,b.md[,…]            Mode A: compare existing files
//	adversarial --source F --generate TYPE --agents SPECS   Mode B: generate, then compare
//	adversarial                                     the bundled sample variants
//
// It writes the artifacts under --output (DIR/adversarial/… and
// DIR/merged-output.md), reports progress on stderr and prints the return
// contract as YAML on stdout. Exit status: 0 for success or partial, 1 for
// failed, 2 for bad input. Everything runs offline unless --provider names
// a model provider.
package adversarialcmd

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/examples/internal/cli"
	"github.com/crucible-go/crucible/examples/internal/console"
	"github.com/crucible-go/crucible/examples/internal/models"
	"github.com/crucible-go/crucible/examples/samples"
)

type options struct {
	compare, source, generate, agents string
	depth, focus, output, mergedName  string
	convergence                       float64
	interactive                       bool
	models                            *models.Flags
}

// Main runs the command in env and returns its exit status.
func Main(ctx context.Context, env cli.Env) int {
	c := cli.New("adversarial", env,
		"adversarial [flags]                                   the bundled sample variants",
		"adversarial --compare a.md,b.md[,…] [flags]           Mode A: compare existing files",
		"adversarial --source F --generate TYPE --agents SPECS  Mode B: generate, then compare")
	var o options
	fs := c.Flags
	fs.StringVar(&o.compare, "compare", "", "Mode A: comma-separated Markdown files to compare (2–10); - is standard input")
	fs.StringVar(&o.source, "source", "", "Mode B: the source file to generate variants from; - is standard input")
	fs.StringVar(&o.generate, "generate", "", "Mode B: the artifact type to generate (roadmap, spec, design, …)")
	fs.StringVar(&o.agents, "agents", "", `Mode B: agent specs model[:persona[:"instruction"]], comma-separated (2–10)`)
	fs.StringVar(&o.depth, "depth", "standard", "debate depth: quick, standard or deep")
	fs.Float64Var(&o.convergence, "convergence", 0.80, "convergence threshold, 0.50–0.99")
	fs.StringVar(&o.focus, "focus", "", "comma-separated focus areas for the debate")
	fs.BoolVar(&o.interactive, "interactive", false, "ask on the terminal at the four decision points")
	fs.StringVar(&o.output, "output", "", "output directory (default: the first input's directory)")
	fs.StringVar(&o.mergedName, "merged", adversarial.DefaultMergedOutputFile, "file name of the merged output")
	o.models = models.RegisterFlags(fs)
	args, code, done := c.Parse()
	if done {
		return code
	}
	if len(args) > 0 {
		return c.Fail(cli.Usagef("unexpected arguments: %s", strings.Join(args, " ")))
	}

	in, err := buildInput(c, o)
	if err != nil {
		return c.Fail(err)
	}
	if o.interactive && c.UsesStdin() {
		return c.Fail(cli.Usagef("--interactive asks on standard input, which - already reads"))
	}
	reg, err := c.OpenModels(o.models)
	if err != nil {
		return c.Fail(err)
	}
	in.Sink = adversarial.NewDirSink(in.OutputDir)

	opts := []adversarial.Option{adversarial.WithObserver(progress(env.Stderr))}
	if reg != nil {
		opts = append(opts, console.ModelOptions(reg, o.models.DefaultModel(), *o.models)...)
	}
	if o.interactive {
		opts = append(opts, adversarial.WithCheckpoints(&console.Checkpoints{In: console.NewLines(env.Stdin), Out: env.Stderr}))
	}
	res, err := adversarial.New(opts...).Run(ctx, in)
	if res == nil {
		return c.Fail(cli.Input(err))
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "adversarial: %v\n", err)
	}
	for _, w := range res.Warnings {
		c.Warn("%s", w)
	}
	console.PrintUsage(env.Stderr, res.Usage)
	if c.JSON {
		if jerr := c.PrintJSON(res); jerr != nil {
			return c.Fail(jerr)
		}
	} else {
		contract, yerr := res.ContractYAML()
		if yerr != nil {
			return c.Fail(yerr)
		}
		env.Stdout.Write(contract)
	}
	if res.Status == adversarial.StatusFailed || err != nil {
		return cli.ExitFailed
	}
	return cli.ExitOK
}

// buildInput turns the flags into the pipeline's input, reading files from
// disk or standard input (or the bundled samples when no mode is given).
// Its errors are bad input.
func buildInput(c *cli.Command, o options) (adversarial.Input, error) {
	in := adversarial.Input{
		Depth: c.Depth(o.depth), Convergence: c.Convergence(o.convergence), Focus: cli.SplitList(o.focus),
		Interactive: o.interactive, MergedOutput: o.mergedName, OutputDir: o.output,
	}
	agents, err := cli.Agents(o.agents)
	if err != nil {
		return in, err
	}
	modeB := o.source != "" || o.generate != "" || o.agents != ""
	if o.compare != "" && (o.source != "" || o.generate != "") {
		return in, cli.Input(adversarial.ErrModeConflict)
	}
	switch {
	case o.compare == "" && !modeB:
		fmt.Fprintf(c.Env.Stderr, "No --compare or --source given: running on the bundled sample variants (%s).\n", strings.Join(samples.Ingest(), ", "))
		drafts, err := c.Drafts(samples.FS(), samples.Ingest())
		if err != nil {
			return in, err
		}
		in.Compare, in.ArtifactType = drafts, "Specification"
		if in.OutputDir == "" {
			in.OutputDir = "crucible-output"
		}
	case o.compare != "":
		paths, drafts, err := c.DraftList(o.compare)
		if err != nil {
			return in, err
		}
		in.Compare = drafts
		in.Agents = agents
		if in.OutputDir == "" && len(paths) > 0 && paths[0] != "-" {
			in.OutputDir = filepath.Dir(paths[0])
		}
	default:
		in.Generate, in.Agents = o.generate, agents
		if o.source != "" {
			b, err := c.ReadFile(o.source)
			if err != nil {
				return in, err
			}
			name := filepath.Base(o.source)
			if o.source == "-" {
				name = "stdin.md"
			} else if in.OutputDir == "" {
				in.OutputDir = filepath.Dir(o.source)
			}
			in.Source = &adversarial.Draft{Name: name, Content: b}
		}
	}
	if in.OutputDir == "" {
		in.OutputDir = "."
	}
	if _, err := in.Mode(); err != nil {
		return in, cli.Input(err)
	}
	return in, nil
}

// progress prints step events on stderr.
func progress(w io.Writer) adversarial.Observer {
	start := time.Now()
	return adversarial.ObserverFunc(func(_ context.Context, e adversarial.Event) {
		switch e.Kind {
		case adversarial.StepStarted:
			fmt.Fprintf(w, "[%5.1fs] %s…\n", time.Since(start).Seconds(), e.Step)
		case adversarial.StepFinished:
			fmt.Fprintf(w, "[%5.1fs] %s done: %s\n", time.Since(start).Seconds(), e.Step, e.Detail)
		case adversarial.StepSkipped:
			fmt.Fprintf(w, "[%5.1fs] %s skipped: %s\n", time.Since(start).Seconds(), e.Step, e.Detail)
		case adversarial.ModelCall:
			status := "ok"
			if e.Err != nil {
				status = e.Err.Error()
			}
			fmt.Fprintf(w, "          model call %s %s (%s, %s): %s\n", e.Step, e.Agent, e.Usage, e.Duration.Round(time.Millisecond), status)
		}
	})
}
