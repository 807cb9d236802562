// Package models turns the example programs' --provider and --model flags
// into a [provider.Registry] of real models, so every host offers the same
// choice:
//
//	--provider offline    the library's deterministic offline implementations
//	                      (the default; no key, no network)
//	--provider anthropic  Claude through the Messages API; ANTHROPIC_API_KEY
//	                      required, ANTHROPIC_BASE_URL optional
//	--provider openai     OpenAI or any OpenAI-compatible server (Ollama, vLLM,
//	                      llama.cpp, LM Studio, OpenRouter); OPENAI_API_KEY, or
//	                      OPENAI_BASE_URL for a local server that needs no key
//
// --model picks the model a run uses by default: one of the aliases below,
// or any name the server knows (e.g. llama3.1:8b on Ollama), which is then
// registered too. Agent specs such as "opus:architect" resolve through the
// same registry.
//
//	anthropic: opus → claude-opus-5-5, sonnet → claude-sonnet-5-5 (default),
//	           haiku → claude-haiku-5-5
//	openai:    gpt52 → gpt-5.2 (default), gpt55 → gpt-5.5,
//	           gpt54-mini → gpt-5.4-mini (sent without temperature, as
//	           OpenAI's small reasoning models take none but the default)
//
// Each upstream name is also an alias of its id. The adapters' SDK retries
// are off; the registry's providers are wrapped in [provider.Retry] instead
// (see [WithMiddleware]).
//
// The package compiles no SDK: [Open] builds providers through the
// [Adapter] functions the build links. The offline commands under
// examples/ link none, so that the quick start compiles no vendor SDK;
// examples/withmodels, a module of its own, links provider/anthropic and
// provider/openai, and --provider anthropic|openai anywhere else names
// that command ([ModelCommand]).
//
// The package is internal to the examples: it is how these hosts wire
// models, not an API of the library.
package models
