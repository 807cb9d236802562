package critic

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

// TestCriticReplyStyles is the critic's row of the seam × reply-style
// table: its model engine's replies written in each shape real models
// use, on the first attempt and (for the styles that carry no answer) on
// every attempt. Each cell is recovered (the same findings as the clean
// reply, nothing said), degraded (a warning or an error that names the
// cause) or — never — silently wrong: other findings and nothing said.
func TestCriticReplyStyles(t *testing.T) {
	run := func(t *testing.T, mw provider.Middleware) (*PipelineResult, error) {
		fake := providertest.NewFake()
		fake.On(providertest.Tag(provider.TagRole, "devils-advocate")).Reply(daReply)
		p := provider.Provider(fake)
		if mw != nil {
			p = mw(fake)
		}
		return modelCritic(t, p).Run(context.Background(), PipelineInput{Selection: explicit(t, "devils-advocate", "C2"), Artifact: sample(t)})
	}
	findings := func(res *PipelineResult) string {
		b, err := json.Marshal(res.Outputs)
		require.NoError(t, err)
		return string(b)
	}
	clean, err := run(t, nil)
	require.NoError(t, err)
	require.Len(t, clean.Outputs, 1)
	require.NotEmpty(t, clean.Outputs[0].DevilsAdvocate.Challenges)

	noAnswer := map[providertest.Style]bool{providertest.StyleTruncated: true, providertest.StyleRefusalText: true,
		providertest.StyleRefusalError: true, providertest.StyleEmpty: true}
	type cell struct {
		style providertest.Style
		every bool
	}
	var cells []cell
	for _, s := range providertest.Styles {
		cells = append(cells, cell{s, false})
		if noAnswer[s] {
			cells = append(cells, cell{s, true})
		}
	}
	var recovered, degraded int
	for _, c := range cells {
		name := string(c.style)
		if c.every {
			name += "/every-attempt"
		}
		t.Run(name, func(t *testing.T) {
			res, err := run(t, providertest.Messy(providertest.MessyOptions{Style: c.style, EveryAttempt: c.every}))
			switch {
			case err != nil:
				degraded++
				assert.NotEmpty(t, err.Error())
			case len(res.Warnings) > 0 || res.Abort != nil:
				degraded++
			default:
				require.Equal(t, findings(clean), findings(res), "different findings and nothing said: silently wrong")
				recovered++
			}
			if c.every {
				// No attempt carries the answer: the critic must not
				// present findings as the model's.
				if err == nil && res.Abort == nil {
					var said []string
					for _, w := range res.Warnings {
						said = append(said, w.Message)
					}
					assert.NotEmpty(t, said, "no answer on any attempt, and nothing said")
				}
			}
		})
	}
	t.Logf("critic × %d reply styles: %d recovered, %d degraded with a warning or an error, 0 silently wrong",
		len(cells), recovered, degraded)
}
