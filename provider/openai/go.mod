module github.com/crucible-go/crucible/provider/openai

go 1.25.0

require (
	github.com/crucible-go/crucible v0.0.0-00010101000000-000000000000
	github.com/openai/openai-go/v3 v3.74.0
	github.com/stretchr/testify v1.12.1
	go.uber.org/goleak v1.3.0
)

require (
	github.com/coder/websocket v1.8.15 // indirect
	github.com/tidwall/gjson v1.19.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
)

// Development against the checkout this module lives in. A host's build
// ignores this line and uses the core version it requires.
replace github.com/crucible-go/crucible => ../..
