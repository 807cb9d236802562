package main

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/crucible-go/crucible/examples/internal/models"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/anthropic"
	"github.com/crucible-go/crucible/provider/openai"
)

// adapters are the SDK adapters this build links, by --provider name,
// with the SDKs' own HTTP clients.
func adapters() map[string]models.Adapter { return adaptersWith(nil) }

// adaptersWith is adapters over hc (nil: the SDKs' own), which tests point
// at their servers.
func adaptersWith(hc *http.Client) map[string]models.Adapter {
	return map[string]models.Adapter{
		models.Anthropic: func(env models.Env, table []models.Model, c models.AdapterConfig) (provider.Provider, error) {
			return newAnthropic(env, table, c, hc)
		},
		models.OpenAI: func(env models.Env, table []models.Model, c models.AdapterConfig) (provider.Provider, error) {
			return newOpenAI(env, table, c, hc)
		},
	}
}

func lookup(env models.Env, key string) string {
	v, _ := env(key)
	return strings.TrimSpace(v)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// newAnthropic needs a key; the base URL is optional (a gateway).
func newAnthropic(env models.Env, table []models.Model, c models.AdapterConfig, hc *http.Client) (provider.Provider, error) {
	key, base := lookup(env, anthropic.EnvAPIKey), lookup(env, anthropic.EnvBaseURL)
	if key == "" {
		return nil, fmt.Errorf("--provider %s needs %s in the environment", models.Anthropic, anthropic.EnvAPIKey)
	}
	opts := []anthropic.Option{anthropic.WithAPIKey(key), anthropic.WithBaseURL(orDefault(base, anthropic.DefaultBaseURL))}
	for _, m := range table {
		opts = append(opts, anthropic.WithModel(m.ID, m.Upstream))
	}
	if hc != nil {
		opts = append(opts, anthropic.WithHTTPClient(hc))
	}
	if c.Logger != nil {
		opts = append(opts, anthropic.WithLogger(c.Logger))
	}
	return anthropic.New(opts...), nil
}

// newOpenAI needs a key or, for a local server that takes none, a base URL.
func newOpenAI(env models.Env, table []models.Model, c models.AdapterConfig, hc *http.Client) (provider.Provider, error) {
	key, base := lookup(env, openai.EnvAPIKey), lookup(env, openai.EnvBaseURL)
	if key == "" && base == "" {
		return nil, fmt.Errorf("--provider %s needs %s in the environment (or %s for a local server that needs no key)",
			models.OpenAI, openai.EnvAPIKey, openai.EnvBaseURL)
	}
	opts := []openai.Option{openai.WithAPIKey(key), openai.WithBaseURL(orDefault(base, openai.DefaultBaseURL))}
	for _, m := range table {
		opts = append(opts, openai.WithModel(m.ID, m.Upstream))
		if m.NoTemperature {
			opts = append(opts, openai.WithoutTemperature(m.ID))
		}
	}
	if hc != nil {
		opts = append(opts, openai.WithHTTPClient(hc))
	}
	if c.Logger != nil {
		opts = append(opts, openai.WithLogger(c.Logger))
	}
	return openai.New(opts...), nil
}
