// Command adversarial runs the adversarial example; see package adversarialcmd for its flags and
// behaviour. This build is offline: it links no model adapter. With a real
// model, run it through the model-enabled build, a module of its own:
//
//	go -C examples/withmodels run . adversarial --provider anthropic|openai …
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/crucible-go/crucible/examples/internal/adversarialcmd"
	"github.com/crucible-go/crucible/examples/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := adversarialcmd.Main(ctx, cli.OS(nil))
	stop()
	os.Exit(code)
}
