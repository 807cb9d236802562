package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/examples/internal/models"
	"github.com/crucible-go/crucible/provider"
)

// Command is one run of an example command: its flags, its process
// environment and the conventions every example shares.
//
//   - -h and --help print the usage on stdout and exit 0;
//   - a usage error (an unknown flag, a bad value, a wrong number of
//     arguments) prints the error and the usage on stderr and exits 2;
//   - bad input (a missing file, a directory where a file is expected)
//     prints one line on stderr and exits 2;
//   - "-" where a file is expected reads standard input;
//   - --json prints the result as JSON on stdout instead of text;
//   - warnings and progress go to stderr, results to stdout.
//
// A command adds its own flags to Flags before calling Parse; flags every
// example shares (--json today) are registered by [New], which is where
// another shared flag belongs.
type Command struct {
	Name  string
	Env   Env
	Flags *flag.FlagSet
	// JSON is set by --json.
	JSON bool

	synopsis  []string
	stdinUsed string // the flag or argument that took standard input
}

// New returns the command name running in env; synopsis lines follow
// "usage:" in the usage text.
func New(name string, env Env, synopsis ...string) *Command {
	c := &Command{Name: name, Env: env, synopsis: synopsis}
	c.Flags = flag.NewFlagSet(name, flag.ContinueOnError)
	c.Flags.SetOutput(io.Discard) // Parse reports errors itself
	c.Flags.Usage = func() {}
	c.Flags.BoolVar(&c.JSON, "json", false, "print the result as JSON on stdout")
	return c
}

// Usage writes the usage text to w.
func (c *Command) Usage(w io.Writer) {
	for i, s := range c.synopsis {
		prefix := "usage: "
		if i > 0 {
			prefix = "       "
		}
		fmt.Fprintf(w, "%s%s\n", prefix, s)
	}
	fmt.Fprintln(w, "\nflags:")
	c.Flags.SetOutput(w)
	c.Flags.PrintDefaults()
	c.Flags.SetOutput(io.Discard)
	fmt.Fprintf(w, "\nA file argument of - reads standard input. Exit status: %d success, %d failed, %d bad usage or input.\n",
		ExitOK, ExitFailed, ExitUsage)
}

// Parse parses the command's arguments; flags may come before, between or
// after the positional arguments, which it returns. When done is set the
// command must return code at once: help was printed (0) or the
// arguments were wrong (2, with the usage printed).
func (c *Command) Parse() (positional []string, code int, done bool) {
	args := c.Env.Args
	for {
		if err := c.Flags.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				c.Usage(c.Env.Stdout)
				return nil, ExitOK, true
			}
			return nil, c.Fail(Usagef("%v", err)), true
		}
		if c.Flags.NArg() == 0 {
			return positional, 0, false
		}
		positional = append(positional, c.Flags.Arg(0))
		args = c.Flags.Args()[1:]
	}
}

// UsageError is an error in how the command was called: it exits 2 with
// the usage.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef returns a *UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// InputError is bad input — a file that is missing, a directory, unreadable
// standard input: it exits 2 with one line, no usage.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Input wraps err as an *InputError; nil stays nil.
func Input(err error) error {
	if err == nil {
		return nil
	}
	var ie *InputError
	if errors.As(err, &ie) {
		return err
	}
	return &InputError{Err: err}
}

// Fail reports err on stderr as "name: err" and returns the exit status
// its kind calls for: 2 for usage errors (with the usage) and input
// errors, 1 otherwise. A nil err returns 0.
func (c *Command) Fail(err error) int {
	if err == nil {
		return ExitOK
	}
	msg := strings.TrimPrefix(UserMessage(err), c.Name+": ")
	fmt.Fprintf(c.Env.Stderr, "%s: %s\n", c.Name, msg)
	var ue *UsageError
	var ie *InputError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintln(c.Env.Stderr)
		c.Usage(c.Env.Stderr)
		return ExitUsage
	case errors.As(err, &ie):
		return ExitUsage
	}
	return ExitFailed
}

// Warn prints a warning on stderr.
func (c *Command) Warn(format string, args ...any) {
	fmt.Fprintf(c.Env.Stderr, "warning: "+format+"\n", args...)
}

// PrintJSON writes v as indented JSON on stdout.
func (c *Command) PrintJSON(v any) error {
	enc := json.NewEncoder(c.Env.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Check reports, as an *InputError with one clean message, why path cannot
// be read as an input file: it does not exist or is a directory. "-"
// (standard input) passes.
func Check(path string) error {
	if path == "-" {
		return nil
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &InputError{Err: fmt.Errorf("%w: %s", adversarial.ErrFileNotFound, path)}
	case err != nil:
		return &InputError{Err: err}
	case st.IsDir():
		return &InputError{Err: fmt.Errorf("%s is a directory; give a file", path)}
	}
	return nil
}

// ReadFile reads the input file path, or standard input for "-" (once per
// run: a second "-" is a usage error), with [Check]'s messages.
func (c *Command) ReadFile(path string) ([]byte, error) {
	if path == "-" {
		return c.readStdin(path)
	}
	if err := Check(path); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	return b, nil
}

func (c *Command) readStdin(what string) ([]byte, error) {
	if c.stdinUsed != "" {
		return nil, Usagef("standard input (-) can be read only once")
	}
	c.stdinUsed = what
	b, err := io.ReadAll(c.Env.Stdin)
	if err != nil {
		return nil, &InputError{Err: fmt.Errorf("read standard input: %w", err)}
	}
	return b, nil
}

// UsesStdin reports whether an input file was read from standard input, so
// that a command does not also ask questions there.
func (c *Command) UsesStdin() bool { return c.stdinUsed != "" }

// Files returns an fs.FS over operating-system paths as the user typed
// them, absolute or relative (unlike os.DirFS), in which "-" is standard
// input. Checking the paths with [Check] first gives the clean messages.
func (c *Command) Files() fs.ReadFileFS { return files{c} }

type files struct{ c *Command }

func (f files) Open(name string) (fs.File, error) {
	if name == "-" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	return os.Open(name)
}

func (f files) ReadFile(name string) ([]byte, error) {
	if name == "-" {
		return f.c.readStdin(name)
	}
	return os.ReadFile(name)
}

// SplitList splits a comma-separated flag value (--compare a.md,b.md,
// --focus security,performance) into trimmed, non-empty items.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// OpenModels opens the registry --provider and --model ask for, with the
// adapters this build links (see [models.Open]); its errors are bad input,
// and the one for a build without adapters names this command.
func (c *Command) OpenModels(f *models.Flags) (*provider.Registry, error) {
	reg, err := models.Open(*f, c.Env.LookupEnv, c.Env.Adapters)
	if err != nil {
		if errors.Is(err, models.ErrNoAdapter) {
			err = errors.New(strings.Replace(err.Error(), "<command>", c.Name, 1))
		}
		return nil, Input(err)
	}
	return reg, nil
}

// Drafts reads names from fsys as the pipeline's drafts, printing the
// loader's warnings on stderr; its errors are bad input.
func (c *Command) Drafts(fsys fs.FS, names []string) ([]adversarial.Draft, error) {
	drafts, warnings, err := adversarial.LoadVariants(fsys, names)
	if err != nil {
		return nil, Input(err)
	}
	for _, w := range warnings {
		c.Warn("%s", w)
	}
	return drafts, nil
}

// DraftList reads a comma-separated list of files given on the command
// line ("-" is standard input), each checked first, and returns the paths
// with their drafts.
func (c *Command) DraftList(list string) ([]string, []adversarial.Draft, error) {
	paths := SplitList(list)
	for _, p := range paths {
		if err := Check(p); err != nil {
			return nil, nil, err
		}
	}
	drafts, err := c.Drafts(c.Files(), paths)
	return paths, drafts, err
}

// Depth reads a --depth value the way the commands always have: empty
// means standard, and an unknown value is a warning and standard.
func (c *Command) Depth(s string) debate.Depth {
	d, warn := debate.ParseDepth(s)
	if warn != "" {
		c.Warn("%s", warn)
	}
	return d
}

// Convergence reads a --convergence threshold: a value in [0.50, 0.99] is
// kept, zero means the default, and anything else is the warning
// "Convergence <value> out of range [0.50, 0.99], using 0.80" and the
// default.
func (c *Command) Convergence(v float64) float64 {
	switch {
	case v == 0:
		return debate.DefaultConvergence
	case debate.ValidConvergence(v):
		return v
	}
	c.Warn("Convergence %s out of range [0.50, 0.99], using %.2f", strconv.FormatFloat(v, 'f', -1, 64), debate.DefaultConvergence)
	return debate.DefaultConvergence
}

// Agents parses an --agents list (empty gives none); a malformed list is
// bad input. Models and personas are checked by the run, which knows the
// registry.
func Agents(list string) ([]debate.AgentSpec, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	specs, err := debate.ParseAgents(list)
	return specs, Input(err)
}
