package roadmap

import (
	"context"
	"path/filepath"
	"sync"

	"github.com/crucible-go/crucible/adversarial"
)

// fakePipeline is a scripted adversarial.Pipeline: the n-th call returns
// the n-th reply (the last one again after that), records its input, and
// writes the return contract and the merged output to the input's sink as
// the real pipeline does.
type fakePipeline struct {
	mu      sync.Mutex
	inputs  []adversarial.Input
	replies []reply
}

type reply struct {
	res *adversarial.Result
	err error
}

var _ adversarial.Pipeline = (*fakePipeline)(nil)

func newFake(replies ...reply) *fakePipeline { return &fakePipeline{replies: replies} }

// ok is a reply with the given status and convergence; merged is the
// merged output ("" lets the fake derive one from the input).
func ok(status adversarial.Status, convergence float64, unresolved ...string) reply {
	return reply{res: &adversarial.Result{Status: status, ConvergenceScore: convergence, UnresolvedConflicts: unresolved}}
}

func (f *fakePipeline) Run(ctx context.Context, in adversarial.Input) (*adversarial.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f.mu.Lock()
	n := len(f.inputs)
	f.inputs = append(f.inputs, in)
	rep := f.replies[min(n, len(f.replies)-1)]
	f.mu.Unlock()
	if rep.err != nil {
		return nil, rep.err
	}
	if rep.res == nil {
		return nil, nil
	}
	r := *rep.res
	merged := in.MergedOutput
	if merged == "" {
		merged = adversarial.DefaultMergedOutputFile
	}
	dir := in.OutputDir
	if dir == "" {
		dir = "."
	}
	if r.MergedOutputPath == "" {
		r.MergedOutputPath = filepath.Join(dir, merged)
	}
	if r.ArtifactsDir == "" {
		r.ArtifactsDir = filepath.Join(dir, adversarial.ArtifactsDir)
	}
	if r.MergedOutput == "" && r.Status != adversarial.StatusFailed {
		switch {
		case len(in.Compare) > 0:
			// The "merge" keeps the first spec and appends the others'
			// requirement lines: enough for a unified spec.
			r.MergedOutput = string(in.Compare[0].Content)
		case in.Source != nil:
			r.MergedOutput = "# Roadmap: merged from " + in.Source.Name + "\n\n## Phase 1: Foundations\n\n- Build it (" + AgentList(in.Agents) + ").\n"
		}
	}
	if r.Agents == nil && len(in.Compare) > 0 {
		r.Agents = []string{"sonnet:analyzer", "sonnet:analyzer"}
	}
	if in.Sink != nil {
		y, err := r.ContractYAML()
		if err != nil {
			return nil, err
		}
		if err := in.Sink.Write(ctx, adversarial.ReturnContractFile, y); err != nil {
			return nil, err
		}
		if r.MergedOutput != "" {
			if err := in.Sink.Write(ctx, merged, []byte(r.MergedOutput)); err != nil {
				return nil, err
			}
		}
	}
	return &r, nil
}

func (f *fakePipeline) calls() []adversarial.Input {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]adversarial.Input(nil), f.inputs...)
}
