package tracing

import (
	"context"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/provider"
)

// instrumentation is the name spans are recorded under.
const instrumentation = "github.com/crucible-go/crucible/tracing"

// Tracer makes the spans of Crucible runs with one OpenTelemetry tracer.
// It is safe for concurrent use by any number of runs.
type Tracer struct {
	tracer trace.Tracer
}

// New returns a Tracer recording to tp.
func New(tp trace.TracerProvider) *Tracer {
	return &Tracer{tracer: tp.Tracer(instrumentation)}
}

// Observer returns the pipeline observer: it opens a span when a step
// starts (as [adversarial.StepTracer], so the step's model calls run under
// it) and ends it when the step finishes or fails.
func (t *Tracer) Observer() adversarial.Observer { return stepObserver{t} }

type stepObserver struct{ t *Tracer }

var (
	_ adversarial.Observer   = stepObserver{}
	_ adversarial.StepTracer = stepObserver{}
)

// StartStep implements [adversarial.StepTracer].
func (o stepObserver) StartStep(ctx context.Context, step adversarial.Stage) context.Context {
	ctx, _ = o.t.tracer.Start(ctx, "crucible "+string(step), trace.WithAttributes(attribute.String("crucible.step", string(step))))
	return ctx
}

// Observe implements [adversarial.Observer].
func (o stepObserver) Observe(ctx context.Context, e adversarial.Event) {
	switch e.Kind {
	case adversarial.StepFinished:
		span := trace.SpanFromContext(ctx)
		if e.Detail != "" {
			span.SetAttributes(attribute.String("crucible.detail", e.Detail))
		}
		span.End()
	case adversarial.StepFailed:
		span := trace.SpanFromContext(ctx)
		if e.Err != nil {
			span.RecordError(e.Err)
			span.SetStatus(codes.Error, e.Err.Error())
		} else {
			span.SetStatus(codes.Error, "step failed")
		}
		span.End()
	case adversarial.StepSkipped:
		_, span := o.t.tracer.Start(ctx, "crucible "+string(e.Step), trace.WithAttributes(
			attribute.String("crucible.step", string(e.Step)), attribute.Bool("crucible.skipped", true),
			attribute.String("crucible.detail", e.Detail)))
		span.End()
	}
}

// Middleware returns provider middleware that records each model call as
// a GenAI client span ("chat <model>") under the span in the call's
// context — a step's, when the pipeline made the call.
func (t *Tracer) Middleware() provider.Middleware {
	return func(next provider.Provider) provider.Provider {
		return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
			attrs := []attribute.KeyValue{
				attribute.String("gen_ai.operation.name", "chat"),
				attribute.String("gen_ai.request.model", req.Model),
			}
			if req.MaxTokens > 0 {
				attrs = append(attrs, attribute.Int("gen_ai.request.max_tokens", req.MaxTokens))
			}
			if req.Temperature != nil {
				attrs = append(attrs, attribute.Float64("gen_ai.request.temperature", *req.Temperature))
			}
			for _, tag := range []string{provider.TagStep, provider.TagRole, provider.TagAgent} {
				if v := req.Tag(tag); v != "" {
					attrs = append(attrs, attribute.String("crucible."+tag, v))
				}
			}
			ctx, span := t.tracer.Start(ctx, "chat "+req.Model, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
			defer span.End()
			resp, err := next.Complete(ctx, req)
			if err != nil {
				span.RecordError(err)
				span.SetStatus(codes.Error, err.Error())
				return resp, err
			}
			if resp.Provider != "" {
				span.SetAttributes(attribute.String("gen_ai.system", resp.Provider))
			}
			span.SetAttributes(
				attribute.String("gen_ai.response.model", resp.Model),
				attribute.StringSlice("gen_ai.response.finish_reasons", []string{string(resp.FinishReason)}),
				attribute.Int64("gen_ai.usage.input_tokens", resp.Usage.InputTokens),
				attribute.Int64("gen_ai.usage.output_tokens", resp.Usage.OutputTokens),
				attribute.String("crucible.cached", strconv.FormatBool(resp.Cached)),
			)
			return resp, nil
		})
	}
}
