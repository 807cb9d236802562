package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/crucible-go/crucible/examples/internal/models"
	"github.com/crucible-go/crucible/provider"
)

// A host defines the flags, parses them and opens the registry with the
// adapters it links; a local OpenAI-compatible server stands in for Ollama
// here.
func Example_open() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"llama3.1:8b",
			"choices":[{"index":0,"message":{"role":"assistant","content":"Variant B."},"finish_reason":"stop"}],
			"usage":{"prompt_tokens":30,"completion_tokens":3,"total_tokens":33}}`)
	}))
	defer srv.Close()

	fs := flag.NewFlagSet("adversarial", flag.ContinueOnError)
	flags := models.RegisterFlags(fs)
	if err := fs.Parse([]string{"--provider", "openai", "--model", "llama3.1:8b"}); err != nil {
		fmt.Println(err)
		return
	}
	environment := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1"} // os.LookupEnv in a real host
	reg, err := models.Open(*flags, func(k string) (string, bool) { v, ok := environment[k]; return v, ok }, adapters())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reg.Names())
	resp, err := reg.Complete(context.Background(), provider.Request{
		Model:    flags.DefaultModel(),
		Messages: []provider.Message{{Role: provider.RoleUser, Content: "Which variant wins?"}},
	})
	fmt.Println(resp.Text, resp.Usage, err)
	// Output:
	// [gpt-5.2 gpt-5.4-mini gpt-5.5 gpt52 gpt54-mini gpt55 llama3.1:8b]
	// Variant B. in=30 out=3 <nil>
}
