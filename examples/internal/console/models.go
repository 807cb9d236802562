package console

import (
	"fmt"
	"io"
	"sort"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/examples/internal/models"
	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/provider"
)

// ModelOptions switches a pipeline's collaborators to models from reg:
// advocates, the rubric judge, the contradiction detector and the merger
// (for every change kind, unless --section-merger keeps the section
// merger), with model as the default for agents that name none, and
// --call-timeout when given.
func ModelOptions(reg *provider.Registry, model string, flags models.Flags) []adversarial.Option {
	opts := []adversarial.Option{
		adversarial.WithRegistry(reg),
		adversarial.WithModelAdvocates(),
		adversarial.WithDefaultAgent(model),
		adversarial.WithModelJudge(model),
		adversarial.WithModelDetector(model),
	}
	if !flags.SectionMerger {
		opts = append(opts, adversarial.WithModelMerger(model), adversarial.WithMergerOptions(merge.WithAllChanges()))
	}
	if flags.CallTimeout > 0 {
		opts = append(opts, adversarial.WithCallTimeout(flags.CallTimeout))
	}
	return opts
}

// PrintUsage writes a model-backed run's usage on w: the total, then each
// step's and each agent's calls and tokens, so a user sees where the
// tokens went. Nothing for an offline run.
func PrintUsage(w io.Writer, u adversarial.Usage) {
	if u.Calls == 0 {
		return
	}
	fmt.Fprintf(w, "usage: %d calls, %d input + %d output tokens\n", u.Calls, u.Total.InputTokens, u.Total.OutputTokens)
	for _, part := range []struct {
		what  string
		calls map[string]int
		by    map[string]provider.Usage
	}{{"step", u.StepCalls, u.ByStep}, {"agent", u.AgentCalls, u.ByAgent}} {
		names := make([]string, 0, len(part.by))
		for n := range part.by {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(w, "  %s %-28s %4d calls, %8d input + %7d output tokens\n", part.what, n, part.calls[n], part.by[n].InputTokens, part.by[n].OutputTokens)
		}
	}
}
