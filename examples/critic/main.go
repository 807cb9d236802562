// Command critic runs the critic example; see package criticcmd for its flags and
// behaviour. This build is offline: it links no model adapter. With a real
// model, run it through the model-enabled build, a module of its own:
//
//	go -C examples/withmodels run . critic --provider anthropic|openai …
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/crucible-go/crucible/examples/internal/cli"
	"github.com/crucible-go/crucible/examples/internal/criticcmd"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := criticcmd.Main(ctx, cli.OS(nil))
	stop()
	os.Exit(code)
}
