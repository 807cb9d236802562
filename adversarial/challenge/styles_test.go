package challenge

import (
	"context"
	"reflect"
	"testing"

	"github.com/crucible-go/crucible/provider/providertest"
)

// TestAdversaryReplyStyles is the challenge adversary's row of the seam ×
// reply-style table: each shape a real model writes, on the first attempt
// and (for the styles that carry no answer) on every attempt, ends either
// recovered (the clean reply's challenges) or as an error naming the
// cause — never as a reply the model did not give.
func TestAdversaryReplyStyles(t *testing.T) {
	req := Request{Type: Plan, Artifact: artifact, Round: 1, MaxRounds: 3}
	run := func(mw func(p *providertest.Fake) *ModelAdversary) (*Reply, error) {
		fake := providertest.NewFake()
		fake.On().Reply(replyFor(1))
		return mw(fake).Challenge(context.Background(), req)
	}
	clean, err := run(func(f *providertest.Fake) *ModelAdversary { return newModel(t, f) })
	if err != nil {
		t.Fatal(err)
	}
	noAnswer := map[providertest.Style]bool{providertest.StyleTruncated: true, providertest.StyleRefusalText: true,
		providertest.StyleRefusalError: true, providertest.StyleEmpty: true}
	for _, s := range providertest.Styles {
		for _, every := range []bool{false, true} {
			if every && !noAnswer[s] {
				continue
			}
			name := string(s)
			if every {
				name += "/every-attempt"
			}
			t.Run(name, func(t *testing.T) {
				got, err := run(func(f *providertest.Fake) *ModelAdversary {
					return newModel(t, providertest.Messy(providertest.MessyOptions{Style: s, EveryAttempt: every})(f))
				})
				switch {
				case err != nil:
					if err.Error() == "" {
						t.Error("an error that names nothing")
					}
				case every:
					t.Errorf("no attempt carried an answer, yet the adversary returned %+v", got)
				case !reflect.DeepEqual(clean.Challenges, got.Challenges) || !reflect.DeepEqual(clean.Convergence, got.Convergence) || clean.NoObjections != got.NoObjections:
					t.Errorf("silently wrong: %+v, the clean reply gave %+v", got, clean)
				}
			})
		}
	}
}
