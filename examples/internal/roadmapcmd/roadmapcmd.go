// Package roadmapcmd is the roadmap example command: it is a command-line
// host for Crucible's roadmap integration, mirroring sc:roadmap's
// adversarial modes:
//
//	roadmap spec.md                                  the standard path: one spec, no adversarial work
//	roadmap --specs a.md,b.md                        multi-spec consolidation (Wave 1A)
//	roadmap spec.md --multi-roadmap --agents SPECS   multi-roadmap generation (Wave 2)
//	roadmap --specs a.md,b.md --multi-roadmap --agents SPECS   combined: Wave 1A, then Wave 2
//	roadmap                                          multi-spec consolidation of the bundled sample specs
//
// with --depth quick|standard|deep, --interactive (the pipeline's four
// checkpoints ask on the terminal, and so does the roadmap when
// convergence is below 60%) and --output DIR. It writes DIR/roadmap.md
// (with the adversarial block in its front matter), DIR/extraction.md and
// the adversarial artifacts (DIR/adversarial/…, and in combined mode Wave
// 1A's under DIR/consolidation/), reports progress and warnings on stderr
// and lists the files it wrote on stdout. Exit status: 0 when the roadmap
// was written, 1 when roadmap generation aborted, 2 for bad input.
//
// Everything runs offline unless --provider names a model provider: the
// pipeline's heuristic advocates and rule-based judge, and the roadmap
// package's baseline author writing the roadmap (and, in multi-roadmap
// mode, each agent's variant). Offline, --agents accepts the seed's model
// names (opus, sonnet, haiku, gpt52, gemini) as labels; no model is called.
package roadmapcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/examples/internal/cli"
	"github.com/crucible-go/crucible/examples/internal/console"
	"github.com/crucible-go/crucible/examples/internal/models"
	"github.com/crucible-go/crucible/examples/samples"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/roadmap"
)

// samples are the bundled specs consolidated when no spec is given: two
// teams' drafts of one refund service.
var bundledSpecs = []string{"refunds-payments.md", "refunds-platform.md"}

type options struct {
	specs, agents, depth, output string
	multiRoadmap, interactive    bool
	models                       *models.Flags
}

// Main runs the command in env and returns its exit status: 0 when the
// roadmap was written, 1 when roadmap generation aborted, 2 for bad usage
// or input.
func Main(ctx context.Context, env cli.Env) int {
	c := cli.New("roadmap", env,
		"roadmap [flags] [spec.md|-]",
		"roadmap --specs a.md,b.md[,…] [--multi-roadmap --agents SPECS] [flags]")
	var o options
	fs := c.Flags
	fs.StringVar(&o.specs, "specs", "", "multi-spec consolidation: comma-separated specs to merge into one (2–10); replaces spec.md")
	fs.BoolVar(&o.multiRoadmap, "multi-roadmap", false, "multi-roadmap generation: competing roadmaps by --agents, merged")
	fs.StringVar(&o.agents, "agents", "", `with --multi-roadmap: agent specs model[:persona[:"instruction"]], comma-separated (2–10)`)
	fs.StringVar(&o.depth, "depth", "standard", "debate depth: quick, standard or deep (1, 2 or 3 rounds)")
	fs.BoolVar(&o.interactive, "interactive", false, "ask at the pipeline's checkpoints and before proceeding below 60% convergence")
	fs.StringVar(&o.output, "output", "", "output directory (default: the first input's directory)")
	o.models = models.RegisterFlags(fs)
	// The spec may come before, between or after the flags, as in
	// "roadmap spec.md --multi-roadmap --agents …".
	positional, code, done := c.Parse()
	if done {
		return code
	}
	if len(positional) > 1 {
		return c.Fail(cli.Usagef("one spec file at most, got: %s", strings.Join(positional, " ")))
	}
	spec := ""
	if len(positional) == 1 {
		spec = positional[0]
	}
	stdout, stderr, now := env.Stdout, env.Stderr, env.Now
	if now == nil {
		now = time.Now
	}

	req, err := buildRequest(c, o, spec)
	if err != nil {
		return c.Fail(cli.Input(err))
	}
	if o.interactive && c.UsesStdin() {
		return c.Fail(cli.Usagef("--interactive asks on standard input, which - already reads"))
	}
	reg, err := c.OpenModels(o.models)
	if err != nil {
		return c.Fail(err)
	}
	sink := &recorder{sink: adversarial.NewDirSink(req.OutputDir)}
	req.Sink = sink

	// One reader for every question: the pipeline's checkpoints and the
	// roadmap's own approval share the terminal.
	var ask *console.Checkpoints
	if o.interactive {
		ask = &console.Checkpoints{In: console.NewLines(env.Stdin), Out: stderr}
	}
	opts := []roadmap.Option{
		roadmap.WithPipeline(newPipeline(reg, *o.models, stderr, now, ask)),
		roadmap.WithClock(now),
		roadmap.WithLogger(logger(stderr)),
	}
	if reg != nil {
		author, err := modelAuthor(reg, o.models.DefaultModel())
		if err != nil {
			return c.Fail(cli.Usagef("%w", err))
		}
		opts = append(opts, roadmap.WithRegistry(reg), roadmap.WithAuthor(author))
	} else {
		opts = append(opts, roadmap.WithRegistry(models.OfflineRegistry()))
	}
	if ask != nil {
		opts = append(opts, roadmap.WithApprover(approver{ask}))
	}
	res, err := roadmap.New(opts...).Run(ctx, req)
	var abort *roadmap.AbortError
	switch {
	case errors.As(err, &abort):
		for _, w := range abort.Warnings {
			c.Warn("%s", w)
		}
		fmt.Fprintf(stderr, "roadmap: %v\n", err)
		if c.JSON {
			_ = c.PrintJSON(summary{Aborted: err.Error(), Files: sink.names})
		} else {
			sink.list(stdout)
		}
		return cli.ExitFailed
	case err != nil:
		return c.Fail(cli.Input(err))
	}
	for _, w := range res.Warnings {
		c.Warn("%s", w)
	}
	if c.JSON {
		if err := c.PrintJSON(summary{Mode: string(res.Mode), Persona: string(res.Persona.Primary), Adversarial: res.Adversarial, Files: sink.names}); err != nil {
			return c.Fail(err)
		}
		return cli.ExitOK
	}
	fmt.Fprintf(stdout, "mode: %s\nprimary persona: %s\n", res.Mode, res.Persona.Primary)
	if a := res.Adversarial; a != nil {
		fmt.Fprintf(stdout, "agents: %s\nconvergence: %s\n", strings.Join(a.Agents, ", "), percent(a.ConvergenceScore))
		if a.BaseVariant != "" {
			fmt.Fprintf(stdout, "base variant: %s\n", a.BaseVariant)
		}
	}
	sink.list(stdout)
	return cli.ExitOK
}

// summary is what --json prints.
type summary struct {
	Mode        string               `json:"mode,omitempty"`
	Persona     string               `json:"primary_persona,omitempty"`
	Adversarial *roadmap.Adversarial `json:"adversarial,omitempty"`
	Aborted     string               `json:"aborted,omitempty"`
	Files       []string             `json:"files"`
}

// newPipeline builds the adversarial pipeline the roadmap's waves invoke.
// Offline (reg nil) it is the pipeline's zero configuration with the
// roadmap package's baseline author generating the Mode B variants; with
// a registry, model-backed advocates, judge, detector, merger and
// generator, as the model flags say. With
// ask set (--interactive), the pipeline's four checkpoints ask on the
// terminal; the roadmap passes Interactive only when the user asked for it.
func newPipeline(reg *provider.Registry, flags models.Flags, stderr io.Writer, now func() time.Time, ask *console.Checkpoints) adversarial.Pipeline {
	opts := []adversarial.Option{adversarial.WithObserver(progress(stderr)), adversarial.WithClock(now)}
	if ask != nil {
		opts = append(opts, adversarial.WithCheckpoints(ask))
	}
	if reg == nil {
		return adversarial.New(append(opts, adversarial.WithGenerator(roadmap.OfflineAuthor{}))...)
	}
	return adversarial.New(append(opts, console.ModelOptions(reg, flags.DefaultModel(), flags)...)...)
}

// modelAuthor writes the roadmap of the standard and multi-spec paths with
// the model, through the pipeline's Mode B generation prompt.
func modelAuthor(reg *provider.Registry, model string) (roadmap.Author, error) {
	g, err := adversarial.NewModelGenerator(reg)
	if err != nil {
		return nil, err
	}
	return roadmap.GeneratorAuthor{Generator: g, Model: model}, nil
}

// buildRequest reads the specs the flags name (or the bundled samples);
// "-" reads standard input.
func buildRequest(c *cli.Command, o options, spec string) (roadmap.Request, error) {
	req := roadmap.Request{MultiRoadmap: o.multiRoadmap, Depth: c.Depth(o.depth),
		Interactive: o.interactive, OutputDir: o.output}
	agents, err := cli.Agents(o.agents)
	if err != nil {
		return req, err
	}
	req.Agents = agents
	switch {
	case o.specs == "" && spec == "":
		fmt.Fprintf(c.Env.Stderr, "No spec or --specs given: consolidating the bundled sample specs (%s).\n", strings.Join(bundledSpecs, ", "))
		drafts, err := c.Drafts(samples.FS(), bundledSpecs)
		if err != nil {
			return req, err
		}
		req.Specs = drafts
		if req.OutputDir == "" {
			req.OutputDir = "roadmap-output"
		}
	case o.specs != "":
		if spec != "" {
			return req, roadmap.ErrSpecAndSpecs
		}
		paths, drafts, err := c.DraftList(o.specs)
		if err != nil {
			return req, err
		}
		req.Specs = drafts
		if req.OutputDir == "" && paths[0] != "-" {
			req.OutputDir = filepath.Dir(paths[0])
		}
	default:
		b, err := c.ReadFile(spec)
		if err != nil {
			return req, err
		}
		name := filepath.Base(spec)
		if spec == "-" {
			name = "stdin.md"
		} else if req.OutputDir == "" {
			req.OutputDir = filepath.Dir(spec)
		}
		req.Spec = &adversarial.Draft{Name: name, Content: b}
	}
	if req.OutputDir == "" {
		req.OutputDir = "."
	}
	return req, nil
}

// approver asks the seed's "Proceed anyway?" question on the terminal. An
// empty answer, or the end of input, takes the default: yes. Any answer
// other than yes or no asks again.
type approver struct{ ask *console.Checkpoints }

func (a approver) Approve(ctx context.Context, q roadmap.Question) (bool, error) {
	prompt := "\n" + q.Prompt + " "
	for {
		ans, err := a.ask.Ask(ctx, prompt)
		if err != nil {
			return false, err
		}
		switch strings.ToLower(ans) {
		case "", "y", "yes":
			return true, nil
		case "n", "no":
			return false, nil
		}
		prompt = "Please answer y or n (Enter: y): "
	}
}

// recorder passes artifacts to a sink and remembers their names, so that
// the program can list what it wrote.
type recorder struct {
	sink  adversarial.Sink
	mu    sync.Mutex
	names []string
}

func (r *recorder) Write(ctx context.Context, name string, content []byte) error {
	if err := r.sink.Write(ctx, name, content); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range r.names {
		if n == name {
			return nil
		}
	}
	r.names = append(r.names, name)
	return nil
}

// list prints the files written, sorted.
func (r *recorder) list(w io.Writer) {
	r.mu.Lock()
	names := append([]string(nil), r.names...)
	r.mu.Unlock()
	sort.Strings(names)
	if len(names) > 0 {
		fmt.Fprintln(w, "wrote:")
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %s\n", n)
	}
}

// progress prints the pipeline's step events on stderr.
func progress(w io.Writer) adversarial.Observer {
	return adversarial.ObserverFunc(func(_ context.Context, e adversarial.Event) {
		switch e.Kind {
		case adversarial.StepStarted:
			fmt.Fprintf(w, "  %s…\n", e.Step)
		case adversarial.StepFinished:
			fmt.Fprintf(w, "  %s done: %s\n", e.Step, e.Detail)
		case adversarial.StepSkipped:
			fmt.Fprintf(w, "  %s skipped: %s\n", e.Step, e.Detail)
		case adversarial.ModelCall:
			status := "ok"
			if e.Err != nil {
				status = e.Err.Error()
			}
			fmt.Fprintf(w, "    model call %s %s (%s): %s\n", e.Step, e.Agent, e.Usage, status)
		}
	})
}

// logger prints the roadmap's wave and routing records on stderr, without
// timestamps.
func logger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey) {
			return slog.Attr{}
		}
		return a
	}}))
}

// percent formats a convergence score as "XX%", rounded down as the
// roadmap's own messages are, so that a score below a threshold never
// reads as the threshold.
func percent(score float64) string {
	return fmt.Sprintf("%d%%", int(math.Floor(score*100+1e-9)))
}
