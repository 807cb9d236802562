package tracing_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/examples/samples"
	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
	"github.com/crucible-go/crucible/tracing"
)

// run runs the bundled samples with the model contradiction detector
// behind a traced provider, and returns the spans recorded.
func run(t *testing.T, opts ...adversarial.Option) ([]sdktrace.ReadOnlySpan, error) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	tr := tracing.New(tp)
	fake := providertest.NewFake()
	fake.On().Reply("```json\n{\"contradictions\": []}\n```")
	reg := provider.NewRegistry()
	require.NoError(t, reg.Register("opus", provider.Chain(fake, tr.Middleware())))
	var drafts []adversarial.Draft
	for _, name := range samples.Ingest() {
		b, err := fs.ReadFile(samples.FS(), name)
		require.NoError(t, err)
		drafts = append(drafts, adversarial.Draft{Name: name, Content: b})
	}
	r := adversarial.New(append([]adversarial.Option{adversarial.WithRegistry(reg), adversarial.WithModelDetector("opus"),
		adversarial.WithObserver(tr.Observer())}, opts...)...)
	_, err := r.Run(context.Background(), adversarial.Input{Compare: drafts})
	require.NoError(t, tp.Shutdown(context.Background()))
	return rec.Ended(), err
}

func byName(spans []sdktrace.ReadOnlySpan, name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

func TestModelSpansUnderStepSpans(t *testing.T) {
	spans, err := run(t)
	require.NoError(t, err)
	for _, step := range []string{"diff", "debate", "scoring", "plan", "merge"} {
		require.Len(t, byName(spans, "crucible "+step), 1, "one ended span for the %s step", step)
	}
	diffSpan := byName(spans, "crucible diff")[0]
	calls := byName(spans, "chat opus")
	require.NotEmpty(t, calls, "the detector's calls are traced")
	for _, c := range calls {
		assert.Equal(t, diffSpan.SpanContext().SpanID(), c.Parent().SpanID(), "a model span sits under its step's span")
		attrs := map[string]any{}
		for _, kv := range c.Attributes() {
			attrs[string(kv.Key)] = kv.Value.AsInterface()
		}
		assert.Equal(t, "chat", attrs["gen_ai.operation.name"])
		assert.Equal(t, "opus", attrs["gen_ai.request.model"])
		assert.Contains(t, attrs, "gen_ai.usage.input_tokens")
		assert.Equal(t, "contradiction-detector", attrs["crucible.role"])
	}
}

func TestAFailedStepSpanIsClosedWithAnError(t *testing.T) {
	crash := errors.New("merge executor crashed")
	spans, err := run(t, adversarial.WithMerger(merge.Func(func(context.Context, merge.Input) (*merge.Merged, error) { return nil, crash })))
	require.ErrorIs(t, err, crash)
	merges := byName(spans, "crucible merge")
	require.Len(t, merges, 1, "the failed step's span is ended")
	assert.Equal(t, codes.Error, merges[0].Status().Code)
	assert.Contains(t, merges[0].Status().Description, "merge executor crashed")
}
