// Command roadmap runs the roadmap example; see package roadmapcmd for its flags and
// behaviour. This build is offline: it links no model adapter. With a real
// model, run it through the model-enabled build, a module of its own:
//
//	go -C examples/withmodels run . roadmap --provider anthropic|openai …
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/crucible-go/crucible/examples/internal/cli"
	"github.com/crucible-go/crucible/examples/internal/roadmapcmd"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := roadmapcmd.Main(ctx, cli.OS(nil))
	stop()
	os.Exit(code)
}
