package roadmap

import (
	"context"
	"testing"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/provider"
)

// agentList parses an --agents list for a test input; a list a test writes
// must parse.
func agentList(list string) []debate.AgentSpec {
	specs, err := debate.ParseAgents(list)
	if err != nil {
		panic(err)
	}
	return specs
}

// seedModels is a registry of the model names sc:roadmap documents for
// --agents; its models answer nothing.
func seedModels(t testing.TB) *provider.Registry {
	reg := provider.NewRegistry()
	none := provider.Func(func(context.Context, provider.Request) (provider.Response, error) {
		t.Error("no model may be called")
		return provider.Response{}, provider.ErrInvalidRequest
	})
	for _, m := range []string{"gemini", "gpt52", "haiku", "opus", "sonnet"} {
		if err := reg.Register(m, none); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}
