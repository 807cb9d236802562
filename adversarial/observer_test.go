package adversarial

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

type spanKey struct{}

// tracer is a StepTracer that puts the step's name in its context, as a
// tracing observer would put its span, and records every event with the
// step its context carries.
type tracer struct {
	mu     sync.Mutex
	events []string // kind step [in step]
	open   map[string]int
}

func (tr *tracer) StartStep(ctx context.Context, step Stage) context.Context {
	return context.WithValue(ctx, spanKey{}, string(step))
}

func (tr *tracer) Observe(ctx context.Context, e Event) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.open == nil {
		tr.open = map[string]int{}
	}
	in, _ := ctx.Value(spanKey{}).(string)
	switch e.Kind {
	case StepStarted:
		tr.open[string(e.Step)]++
	case StepFinished, StepFailed:
		tr.open[string(e.Step)]--
	case ModelCall:
		tr.events = append(tr.events, string(e.Kind)+" "+string(e.Step)+" in "+in)
		return
	}
	tr.events = append(tr.events, string(e.Kind)+" "+string(e.Step)+" in "+in)
}

var _ StepTracer = (*tracer)(nil)

func TestObserverSeesStepsAndCallsInTheirContexts(t *testing.T) {
	fake := providertest.NewFake()
	fake.Default = func(_ context.Context, req provider.Request) (provider.Response, error) {
		return providertest.TextResponse(req, advocateReply(req)), nil
	}
	reg := provider.NewRegistry()
	for _, m := range []string{"opus", "sonnet", "haiku"} {
		require.NoError(t, reg.Register(m, fake))
	}
	crash := errors.New("merge executor crashed")
	tests := []struct {
		name   string
		opts   []Option
		failed string // the step that fails, if any
	}{
		{"model advocates, success", []Option{WithRegistry(reg), WithModelAdvocates()}, ""},
		{"the merge fails", []Option{WithMerger(merge.Func(func(context.Context, merge.Input) (*merge.Merged, error) { return nil, crash }))}, string(StageMerge)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &tracer{}
			in := Input{Compare: sampleDrafts(t), Agents: agentList("opus:architect,sonnet:security,haiku:performance")}
			_, err := newPipeline(append(tt.opts, WithObserver(tr))...).Run(context.Background(), in)
			for step, n := range tr.open {
				assert.Zero(t, n, "step %s: every StepStarted is closed by one StepFinished or StepFailed", step)
			}
			if tt.failed != "" {
				require.Error(t, err)
				assert.Contains(t, tr.events, "step-failed "+tt.failed+" in "+tt.failed)
			} else {
				require.NoError(t, err)
				assert.Contains(t, tr.events, "step-finished "+string(StageMerge)+" in "+string(StageMerge))
				assert.Contains(t, tr.events, "model-call "+string(StageDebate)+" in "+string(StageDebate),
					"the debate's model calls run in the debate step's context")
			}
			for _, e := range tr.events {
				if f := strings.Fields(e); f[0] == string(ModelCall) {
					require.Len(t, f, 4, e)
					assert.Equal(t, f[1], f[3], "a model call runs in the context of its own step: %s", e)
				}
			}
		})
	}
}
