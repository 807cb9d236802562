// Command withmodels runs the example commands with real models: the same
// adversarial, challenge, critic and roadmap commands as under examples/,
// built with the SDK adapters (provider/anthropic, provider/openai) so that
// --provider anthropic|openai works. It is a module of its own so that the
// core module, and the offline quick start, compile no vendor SDK.
//
// From the repository's root:
//
//	go -C examples/withmodels run . adversarial --provider anthropic --output /tmp/crucible-run
//	go -C examples/withmodels run . challenge --provider openai --model llama3.1:8b
//
// Paths are relative to examples/withmodels (go -C changes directory), so
// give absolute ones. Keys and base URLs come from the environment; see
// the root README.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"

	"github.com/crucible-go/crucible/examples/internal/adversarialcmd"
	"github.com/crucible-go/crucible/examples/internal/challengecmd"
	"github.com/crucible-go/crucible/examples/internal/cli"
	"github.com/crucible-go/crucible/examples/internal/criticcmd"
	"github.com/crucible-go/crucible/examples/internal/roadmapcmd"
)

// commands are the example commands by name.
var commands = map[string]func(context.Context, cli.Env) int{
	"adversarial": adversarialcmd.Main,
	"challenge":   challengecmd.Main,
	"critic":      criticcmd.Main,
	"roadmap":     roadmapcmd.Main,
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, cli.OS(adapters()))
	stop()
	os.Exit(code)
}

// run dispatches to the command named by the first argument.
func run(ctx context.Context, env cli.Env) int {
	if len(env.Args) == 0 {
		usage(env.Stderr)
		return cli.ExitUsage
	}
	name := env.Args[0]
	if name == "-h" || name == "-help" || name == "--help" || name == "help" {
		usage(env.Stdout)
		return cli.ExitOK
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(env.Stderr, "withmodels: unknown command %q\n", name)
		usage(env.Stderr)
		return cli.ExitUsage
	}
	env.Args = env.Args[1:]
	return cmd(ctx, env)
}

func usage(w io.Writer) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "usage: withmodels COMMAND [flags]   (COMMAND -h for its flags)")
	fmt.Fprintln(w, "commands:", names)
	fmt.Fprintln(w, "--provider anthropic|openai and --model choose the models; keys come from the environment.")
}
