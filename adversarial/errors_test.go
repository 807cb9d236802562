package adversarial

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

// TestRunErrorMatchesTheCause: a failed run returns a *RunError naming the
// stage, whose chain reaches the cause a host can act on, while the
// Result still carries what was finished.
func TestRunErrorMatchesTheCause(t *testing.T) {
	authFailing := func(t *testing.T) *Runner {
		fake := providertest.NewFake()
		fake.Default = func(context.Context, provider.Request) (provider.Response, error) {
			return provider.Response{}, &provider.Error{Kind: provider.ErrAuth, Message: "invalid x-api-key"}
		}
		reg := provider.NewRegistry()
		for _, m := range []string{"opus", "sonnet", "haiku"} {
			require.NoError(t, reg.Register(m, fake))
		}
		return newPipeline(WithRegistry(reg), WithModelAdvocates())
	}
	crash := errors.New("merge executor crashed")
	tests := []struct {
		name   string
		runner func(t *testing.T) *Runner
		stage  Stage
		is     []error
		kept   string // an artifact the failed run still returns
	}{
		{"every advocate fails authentication", authFailing, StageDebate,
			[]error{provider.ErrAuth, debate.ErrTooFewAdvocates}, DiffAnalysisFile},
		{"the merger fails", func(*testing.T) *Runner {
			return newPipeline(WithMerger(merge.Func(func(context.Context, merge.Input) (*merge.Merged, error) { return nil, crash })))
		}, StageMerge, []error{crash}, RefactorPlanFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Input{Compare: sampleDrafts(t), Agents: agentList("opus:architect,sonnet:security,haiku:performance")}
			res, err := tt.runner(t).Run(context.Background(), in)
			require.NotNil(t, res)
			assert.Equal(t, StatusFailed, res.Status)
			var re *RunError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, tt.stage, re.Stage)
			for _, want := range tt.is {
				assert.ErrorIs(t, err, want)
			}
			var names []string
			for _, a := range res.Artifacts {
				names = append(names, a.Name)
			}
			assert.Contains(t, names, tt.kept)
		})
	}
}

func TestValidateFindsMisconfigurationBeforeRun(t *testing.T) {
	reg := provider.NewRegistry()
	require.NoError(t, reg.Register("opus", providertest.NewFake()))
	tests := []struct {
		name string
		opts []Option
		is   []error // nil: valid
		msg  string
	}{
		{"offline default", nil, nil, ""},
		{"models without a registry", []Option{WithModelJudge("gpt"), WithModelAdvocates()}, []error{ErrNoRegistry},
			`model advocates, WithModelJudge("gpt")`},
		{"a judge the registry does not know", []Option{WithRegistry(reg), WithModelJudge("gpt")}, []error{ErrInvalidConfig},
			`the registry has no model "gpt" (it has opus)`},
		{"a default agent that does not parse", []Option{WithDefaultAgent("opus:architect:unterminated \"")}, []error{ErrInvalidConfig}, "WithDefaultAgent"},
		{"a default agent of an unknown model", []Option{WithRegistry(reg), WithModelAdvocates(), WithDefaultAgent("haiku")}, []error{ErrInvalidConfig},
			`the registry has no model "haiku"`},
		{"models the registry knows", []Option{WithRegistry(reg), WithModelAdvocates(), WithDefaultAgent("opus"), WithModelJudge("opus")}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New(tt.opts...)
			err := r.Validate()
			if tt.is == nil {
				require.NoError(t, err)
				return
			}
			for _, want := range tt.is {
				assert.ErrorIs(t, err, want)
			}
			assert.ErrorContains(t, err, tt.msg)
			res, runErr := r.Run(context.Background(), Input{Compare: sampleDrafts(t)})
			assert.Nil(t, res, "an invalid configuration runs nothing")
			assert.Equal(t, err.Error(), runErr.Error())
		})
	}
}
