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
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/examples/internal/cli"
	"github.com/crucible-go/crucible/examples/internal/console"
	"github.com/crucible-go/crucible/examples/internal/models"
	"github.com/crucible-go/crucible/examples/samples"
)

// Main runs the command in env and returns its exit status.
func Main(ctx context.Context, env cli.Env) int {
	return run(ctx, env.Args, env.Stdin, env.Stdout, env.Stderr, env.LookupEnv, env.Adapters)
}

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

type options struct {
	compare, source, generate, agents string
	depth, focus, output, mergedName  string
	convergence                       float64
	interactive                       bool
	models                            *models.Flags
}

// run is the program, with its environment passed in so tests can drive
// it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, env models.Env, adapters map[string]models.Adapter) int {
	fs := flag.NewFlagSet("adversarial", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.compare, "compare", "", "Mode A: comma-separated Markdown files to compare (2–10)")
	fs.StringVar(&o.source, "source", "", "Mode B: the source file to generate variants from")
	fs.StringVar(&o.generate, "generate", "", "Mode B: the artifact type to generate (roadmap, spec, design, …)")
	fs.StringVar(&o.agents, "agents", "", `Mode B: agent specs model[:persona[:"instruction"]], comma-separated (2–10)`)
	fs.StringVar(&o.depth, "depth", "standard", "debate depth: quick, standard or deep")
	fs.Float64Var(&o.convergence, "convergence", 0.80, "convergence threshold, 0.50–0.99")
	fs.StringVar(&o.focus, "focus", "", "comma-separated focus areas for the debate")
	fs.BoolVar(&o.interactive, "interactive", false, "ask on the terminal at the four decision points")
	fs.StringVar(&o.output, "output", "", "output directory (default: the first input's directory)")
	fs.StringVar(&o.mergedName, "merged", adversarial.DefaultMergedOutputFile, "file name of the merged output")
	o.models = models.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "adversarial: unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		return exitUsage
	}

	in, err := buildInput(o, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "adversarial: %v\n", err)
		return exitUsage
	}
	reg, err := models.Open(*o.models, env, adapters)
	if err != nil {
		fmt.Fprintf(stderr, "adversarial: %v\n", err)
		return exitUsage
	}
	in.Sink = adversarial.NewDirSink(in.OutputDir)

	opts := []adversarial.Option{adversarial.WithObserver(progress(stderr))}
	if reg != nil {
		opts = append(opts, console.ModelOptions(reg, o.models.DefaultModel())...)
	}
	if o.interactive {
		opts = append(opts, adversarial.WithCheckpoints(&console.Checkpoints{In: console.NewLines(stdin), Out: stderr}))
	}
	res, err := adversarial.New(opts...).Run(ctx, in)
	if res == nil {
		fmt.Fprintf(stderr, "adversarial: %v\n", err)
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "adversarial: %v\n", err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	contract, yerr := res.ContractYAML()
	if yerr != nil {
		fmt.Fprintf(stderr, "adversarial: %v\n", yerr)
		return exitFailed
	}
	stdout.Write(contract)
	if res.Status == adversarial.StatusFailed || err != nil {
		return exitFailed
	}
	return exitOK
}

// buildInput turns the flags into the pipeline's input, reading files from
// disk (or the bundled samples when no mode is given).
func buildInput(o options, stderr io.Writer) (adversarial.Input, error) {
	in := adversarial.Input{
		Depth: o.depth, Convergence: o.convergence, Focus: adversarial.SplitList(o.focus),
		Interactive: o.interactive, MergedOutput: o.mergedName, OutputDir: o.output,
	}
	modeB := o.source != "" || o.generate != "" || o.agents != ""
	if o.compare != "" && (o.source != "" || o.generate != "") {
		return in, adversarial.ErrModeConflict
	}
	switch {
	case o.compare == "" && !modeB:
		fmt.Fprintf(stderr, "No --compare or --source given: running on the bundled sample variants (%s).\n", strings.Join(samples.Ingest(), ", "))
		drafts, warnings, err := adversarial.LoadVariants(samples.FS(), samples.Ingest())
		if err != nil {
			return in, err
		}
		printWarnings(stderr, warnings)
		in.Compare, in.ArtifactType = drafts, "Specification"
		if in.OutputDir == "" {
			in.OutputDir = "crucible-output"
		}
	case o.compare != "":
		paths := adversarial.SplitList(o.compare)
		drafts, warnings, err := loadFiles(paths)
		if err != nil {
			return in, err
		}
		printWarnings(stderr, warnings)
		in.Compare = drafts
		in.Agents = o.agents
		if in.OutputDir == "" && len(paths) > 0 {
			in.OutputDir = filepath.Dir(paths[0])
		}
	default:
		in.Generate, in.Agents = o.generate, o.agents
		if o.source != "" {
			b, err := os.ReadFile(o.source)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return in, fmt.Errorf("%w: %s", adversarial.ErrFileNotFound, o.source)
				}
				return in, err
			}
			in.Source = &adversarial.Draft{Name: filepath.Base(o.source), Content: b}
			if in.OutputDir == "" {
				in.OutputDir = filepath.Dir(o.source)
			}
		}
	}
	if in.OutputDir == "" {
		in.OutputDir = "."
	}
	if _, err := in.Mode(); err != nil {
		return in, err
	}
	return in, nil
}

// loadFiles reads Mode A files from disk with the seed's validation. The
// paths are operating-system paths as the user typed them, absolute or
// relative to the working directory.
func loadFiles(paths []string) ([]adversarial.Draft, []string, error) {
	return adversarial.LoadVariants(osFiles{}, paths)
}

// osFiles reads operating-system paths for LoadVariants. It is a host
// adapter: unlike os.DirFS it accepts any path the user gives, absolute or
// relative, which is what a command line needs.
type osFiles struct{}

func (osFiles) Open(name string) (fs.File, error)    { return os.Open(name) }
func (osFiles) ReadFile(name string) ([]byte, error) { return os.ReadFile(name) }

func printWarnings(w io.Writer, warnings []string) {
	for _, s := range warnings {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
}

// progress prints step events on stderr.
func progress(w io.Writer) adversarial.Observer {
	start := time.Now()
	return adversarial.ObserverFunc(func(e adversarial.Event) {
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
