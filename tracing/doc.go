// Package tracing produces OpenTelemetry spans for Crucible runs: one span
// per pipeline step, and one GenAI client span per model call, parented on
// the span of the step that made it.
//
// It lives in its own module so that the core module never requires the
// OpenTelemetry SDK. Wire it in two places: the pipeline's observer, and
// the middleware around each provider the host registers.
//
//	t := tracing.New(otel.GetTracerProvider())
//	reg.Register("opus", provider.Chain(anthropicAdapter, t.Middleware()))
//	runner := adversarial.New(adversarial.WithRegistry(reg), adversarial.WithObserver(t.Observer()))
//
// Model spans follow the OpenTelemetry GenAI conventions
// (gen_ai.operation.name, gen_ai.request.model, gen_ai.usage.*); step
// spans are named "crucible <step>" and end with an error status when the
// step fails.
package tracing
