package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"go.uber.org/goleak"

	"github.com/crucible-go/crucible/examples/internal/cli"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDispatch(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stdout string // substring
		stderr string // substring
	}{
		{nil, cli.ExitUsage, "", "usage: withmodels COMMAND"},
		{[]string{"-h"}, cli.ExitOK, "usage: withmodels COMMAND", ""},
		{[]string{"nope"}, cli.ExitUsage, "", `unknown command "nope"`},
		// The command runs with the SDK adapters linked: --provider openai
		// gets as far as asking for a key.
		{[]string{"adversarial", "--provider", "openai"}, cli.ExitUsage, "", "--provider openai needs OPENAI_API_KEY"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			env := cli.Env{Args: tt.args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
				LookupEnv: func(string) (string, bool) { return "", false }, Adapters: adapters()}
			code := run(context.Background(), env)
			assert.Equal(t, tt.code, code, "stderr: %s", errOut.String())
			assert.Contains(t, out.String(), tt.stdout)
			assert.Contains(t, errOut.String(), tt.stderr)
		})
	}
}
