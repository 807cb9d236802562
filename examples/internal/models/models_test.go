package models

import (
	"context"
	"errors"
	"flag"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
)

// env is a fake environment.
func env(kv ...string) Env { return MapEnv(kv...) }

func ask(t *testing.T, reg *provider.Registry, model string) provider.Response {
	t.Helper()
	resp, err := reg.Complete(context.Background(), provider.Request{
		Model: model, Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	require.NoError(t, err)
	return resp
}

func TestRegisterFlags(t *testing.T) {
	tests := []struct {
		args []string
		want Flags
	}{
		{nil, Flags{Provider: "offline"}},
		{[]string{"--provider", "anthropic", "--model", "opus"}, Flags{Provider: "anthropic", Model: "opus"}},
		{[]string{"-provider=openai"}, Flags{Provider: "openai"}},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		f := RegisterFlags(fs)
		require.NoError(t, fs.Parse(tt.args))
		assert.Equal(t, tt.want, *f)
	}
}

func TestDefaultModel(t *testing.T) {
	assert.Equal(t, "", Flags{Provider: "offline"}.DefaultModel())
	assert.Equal(t, "", Flags{}.DefaultModel())
	assert.Equal(t, "sonnet", Flags{Provider: "anthropic"}.DefaultModel())
	assert.Equal(t, "gpt52", Flags{Provider: " OpenAI "}.DefaultModel())
	assert.Equal(t, "haiku", Flags{Provider: "anthropic", Model: "haiku"}.DefaultModel())
}

func TestOpenOffline(t *testing.T) {
	reg, err := Open(Flags{Provider: "offline"}, env(), nil)
	assert.NoError(t, err)
	assert.Nil(t, reg)
	reg, err = Open(Flags{}, nil, nil)
	assert.NoError(t, err)
	assert.Nil(t, reg)
}

func TestOpenErrors(t *testing.T) {
	tests := []struct {
		name  string
		flags Flags
		env   Env
		want  string
	}{
		{"unknown provider", Flags{Provider: "gemini"}, env(), `unknown --provider "gemini"; want one of offline, anthropic, openai`},
		{"no adapter linked", Flags{Provider: "Anthropic"}, env(),
			"--provider anthropic: this build has no model adapters (the SDK adapters are modules of their own); run the model-enabled build: go -C examples/withmodels run . <command> --provider anthropic …"},
		{"model without provider", Flags{Provider: "offline", Model: "opus"}, env(),
			`--model "opus" needs --provider anthropic or openai; the offline implementations use no model`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, err := Open(tt.flags, tt.env, nil)
			require.Error(t, err)
			assert.Nil(t, reg)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestModels(t *testing.T) {
	m := Models("anthropic")
	require.Len(t, m, 3)
	m[0].Upstream = "changed"
	assert.Equal(t, "claude-opus-5-5", Models("anthropic")[0].Upstream, "Models returns a copy")
	assert.Nil(t, Models("offline"))
	assert.Equal(t, "gpt-5.2", Models("OPENAI")[0].Upstream)
}

// fake is an Adapter over a scripted provider that fails its first fails
// calls as unavailable and records what it was built with.
type fake struct {
	table []Model
	calls int
	fails int
}

func (f *fake) adapter(env Env, table []Model, _ AdapterConfig) (provider.Provider, error) {
	if _, ok := env("KEY"); !ok {
		return nil, errors.New("needs KEY")
	}
	f.table = table
	return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
		f.calls++
		if f.calls <= f.fails {
			return provider.Response{}, &provider.Error{Kind: provider.ErrUnavailable, Retryable: true, Err: errors.New("503")}
		}
		return provider.Response{Text: "ok " + req.Model, FinishReason: provider.FinishStop}, nil
	}), nil
}

func TestOpenWithAdapter(t *testing.T) {
	f := &fake{}
	adapters := map[string]Adapter{OpenAI: f.adapter}
	_, err := Open(Flags{Provider: "openai"}, env(), adapters)
	assert.EqualError(t, err, "needs KEY", "the adapter's own error comes back as it is")

	reg, err := Open(Flags{Provider: "openai", Model: "Qwen/Qwen2.5-7B-Instruct"}, env("KEY", "k"), adapters)
	require.NoError(t, err)
	assert.Equal(t, []string{"gpt-5.2", "gpt-5.4-mini", "gpt-5.5", "gpt52", "gpt54-mini", "gpt55", "qwen/qwen2.5-7b-instruct"}, reg.Names())
	require.Len(t, f.table, 4, "the table plus the --model the server knows")
	assert.Equal(t, Model{ID: "Qwen/Qwen2.5-7B-Instruct", Upstream: "Qwen/Qwen2.5-7B-Instruct"}, f.table[3])

	reg, err = Open(Flags{Provider: "openai", Model: "gpt-5.5"}, env("KEY", "k"), adapters)
	require.NoError(t, err)
	assert.Len(t, reg.Names(), 6, "an upstream name already in the table adds no entry")
}

func TestOpenRetriesByDefault(t *testing.T) {
	f := &fake{fails: 1}
	reg, err := Open(Flags{Provider: "openai"}, env("KEY", "k"), map[string]Adapter{OpenAI: f.adapter},
		WithMiddleware(provider.Retry(provider.WithBackoff(time.Millisecond, time.Millisecond))))
	require.NoError(t, err)
	assert.Equal(t, "ok gpt52", ask(t, reg, "gpt52").Text)
	assert.Equal(t, 2, f.calls, "one failure, one retry")

	// WithMiddleware() with nothing: no retry.
	f = &fake{fails: 1}
	reg, err = Open(Flags{Provider: "openai"}, env("KEY", "k"), map[string]Adapter{OpenAI: f.adapter}, WithMiddleware())
	require.NoError(t, err)
	_, err = reg.Complete(context.Background(), provider.Request{Model: "gpt52", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	assert.ErrorIs(t, err, provider.ErrUnavailable)
}

func TestCallTimeoutFlag(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	flags := RegisterFlags(fs)
	require.NoError(t, fs.Parse([]string{"--provider", "openai", "--call-timeout", "20ms", "--section-merger"}))
	assert.Equal(t, 20*time.Millisecond, flags.CallTimeout)
	assert.True(t, flags.SectionMerger)

	// A call that outlasts --call-timeout ends with a timeout.
	slow := func(env Env, _ []Model, _ AdapterConfig) (provider.Provider, error) {
		return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
			<-ctx.Done()
			return provider.Response{}, ctx.Err()
		}), nil
	}
	reg, err := Open(*flags, env("KEY", "k"), map[string]Adapter{OpenAI: slow}, WithMiddleware())
	require.NoError(t, err)
	_, err = reg.Complete(context.Background(), provider.Request{Model: "gpt52", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	assert.ErrorIs(t, err, provider.ErrTimeout)
}

func TestOfflineRegistryAnswersNoCall(t *testing.T) {
	reg := OfflineRegistry()
	assert.Equal(t, []string{"gemini", "gpt52", "haiku", "opus", "sonnet"}, reg.Names())
	_, err := reg.Complete(context.Background(), provider.Request{Model: "opus",
		Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}})
	assert.ErrorIs(t, err, ErrValidationOnly)
	assert.ErrorIs(t, err, provider.ErrInvalidRequest)
	assert.False(t, provider.IsRetryable(err))
}
