// Package cli is the plumbing the example commands share, so that they
// behave alike: what a command receives from its process ([Env]), how it
// parses flags, where its messages go and which exit status it returns.
//
// The package is internal to the examples; it is how these hosts are
// written, not an API of the library.
package cli

import (
	"io"
	"os"
	"time"

	"github.com/crucible-go/crucible/examples/internal/models"
)

// Env is everything a command takes from its process, passed in so that
// tests drive a command in-process exactly as the binary runs it.
type Env struct {
	Args           []string // the arguments after the command's name
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	LookupEnv      models.Env       // os.LookupEnv in the binary
	Now            func() time.Time // time.Now in the binary
	// Adapters are the model adapters linked into this build, by
	// --provider name. The offline build (the commands under examples/)
	// has none; examples/withmodels, a module of its own, links the SDK
	// adapters.
	Adapters map[string]models.Adapter
}

// OS returns the process's environment with the given adapters.
func OS(adapters map[string]models.Adapter) Env {
	return Env{
		Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		LookupEnv: os.LookupEnv, Now: time.Now, Adapters: adapters,
	}
}

// Exit statuses shared by every command.
const (
	ExitOK     = 0 // success, partial success, or help asked for
	ExitFailed = 1 // the run failed (for roadmap: generation aborted)
	ExitUsage  = 2 // bad flags, arguments or input files
)
