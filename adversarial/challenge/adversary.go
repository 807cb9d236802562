package challenge

import "context"

// Adversary challenges one artifact in one round: it returns challenges
// (assessing the previous round's defense from round 2 on) or no
// objections. Implementations must be safe for concurrent use and return
// promptly, with an error wrapping ctx.Err(), once ctx is done.
//
// [Offline] is the deterministic implementation, a [ModelAdversary] asks a
// language model.
type Adversary interface {
	Challenge(ctx context.Context, req Request) (*Reply, error)
}

// AdversaryFunc adapts a function to the [Adversary] interface.
type AdversaryFunc func(ctx context.Context, req Request) (*Reply, error)

// Challenge calls f(ctx, req).
func (f AdversaryFunc) Challenge(ctx context.Context, req Request) (*Reply, error) {
	return f(ctx, req)
}

// Request is what the adversary receives each round: the request message
// (artifact type, artifact, project context, round and maximum; from round
// 2 the previous challenges and the defense).
type Request struct {
	Type ArtifactType
	// Name names the artifact for people ("PLAN.md"); may be empty.
	Name string
	// Artifact is the current text, revised by earlier defenses.
	Artifact string
	// Context is the project context: what is being built, constraints,
	// core value. May be empty.
	Context   string
	Round     int
	MaxRounds int
	// Previous is the adversary's reply of the previous round, nil in
	// round 1.
	Previous *Reply
	// Defense answers Previous; nil in round 1.
	Defense *Defense
	// Settled are the earlier challenges the evidence rule resolved — each
	// rejected with evidence — so an adversary can avoid raising them
	// again. The loop resolves a settled challenge raised again anyway.
	Settled []Challenge
}
