package providertest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

// A Fake answers by rule, in the order the rules were added. Here the first
// judge call fails and later ones succeed, so a test can exercise a retry.
func ExampleFake() {
	fake := providertest.NewFake()
	fake.On(providertest.Tag(provider.TagRole, "judge")).
		Fail(&provider.Error{Kind: provider.ErrUnavailable, Retryable: true}).Once()
	fake.On(providertest.Tag(provider.TagRole, "judge")).Reply(`{"verdict": "MET"}`)
	fake.On(providertest.Contains("steelman")).Reply("The strongest case for B is its risk table.")

	ask := func(role, text string) {
		req := provider.Request{Model: "opus", Messages: []provider.Message{{Role: provider.RoleUser, Content: text}}}
		resp, err := fake.Complete(context.Background(), req.WithTag(provider.TagRole, role))
		fmt.Printf("%q %v\n", resp.Text, err)
	}
	ask("judge", "Is criterion 1 met?")
	ask("judge", "Is criterion 1 met?")
	ask("advocate", "First steelman variant B.")
	fmt.Println(fake.CallCount(providertest.Tag(provider.TagRole, "judge")))
	// Output:
	// "" provider unavailable
	// "{\"verdict\": \"MET\"}" <nil>
	// "The strongest case for B is its risk table." <nil>
	// 2
}

// Run is the conformance suite for any Provider; a test file calls it with
// its *testing.T:
//
//	func TestMyAdapter(t *testing.T) { providertest.Run(t, myadapter.New(…)) }
//
// Check runs the same checks where there is no *testing.T, as here: a
// provider behind the library's own middleware passes, and one that
// answers a cancelled call, accepts a request with no messages and
// reports no usage does not.
func ExampleRun() {
	good := provider.Chain(providertest.Echo(), provider.Retry())
	fmt.Println("echo with retry:", providertest.Check(good))

	careless := provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
		return provider.Response{Text: "ok", FinishReason: provider.FinishStop}, nil
	})
	// Check joins one error per failed check, each named by its check.
	var failed interface{ Unwrap() []error }
	if errors.As(providertest.Check(careless), &failed) {
		for _, err := range failed.Unwrap() {
			name, _, _ := strings.Cut(err.Error(), ":")
			fmt.Println("careless provider fails", name)
		}
	}
	// Output:
	// echo with retry: <nil>
	// careless provider fails Complete
	// careless provider fails InvalidRequest
	// careless provider fails CanceledContext
	// careless provider fails ExpiredDeadline
	// careless provider fails Concurrent
}
