package critic

import (
	"context"
	"errors"
	"fmt"
)

// Creator produces and revises the artifact: the host's creator agent. The
// creator applies self-refinement (S-010) implicitly while it writes.
type Creator interface {
	// Create returns the first version of the artifact (iteration 1).
	Create(ctx context.Context, req CreateRequest) (Artifact, error)
	// Revise returns a new version that addresses the critique.
	Revise(ctx context.Context, req RevisionRequest) (Artifact, error)
}

// CreateRequest asks for the first version of the artifact.
type CreateRequest struct {
	Path      string
	Iteration int
}

// RevisionRequest asks for a revision.
type RevisionRequest struct {
	Iteration int
	// Artifact is the version that was critiqued.
	Artifact Artifact
	// Critique is the latest pipeline run over it.
	Critique *PipelineResult
	// ImprovementAreas are the judge's, weakest dimension first.
	ImprovementAreas []string
	// Findings are every mode's findings.
	Findings []Finding
}

// Outcome is what the cycle decided.
type Outcome string

// Outcomes of the extended-cycle decision.
const (
	Accept            Outcome = "ACCEPT"
	AcceptWithCaveats Outcome = "ACCEPT_WITH_CAVEATS"
	Escalate          Outcome = "ESCALATE"
	Revise            Outcome = "REVISE"
)

// CycleDecision is one decision of the cycle, with the rule behind it.
type CycleDecision struct {
	Iteration int      `json:"iteration"`
	Outcome   Outcome  `json:"outcome"`
	Score     *float64 `json:"score,omitempty"`
	Reason    string   `json:"reason"`
}

// Decide applies the extended-cycle rule after a scored iteration.
// scores are the scored iterations so far, the current one last:
//
//	IF score >= threshold: ACCEPT
//	ELIF iteration >= maxIterations: ACCEPT_WITH_CAVEATS if score >= 0.85, else ESCALATE
//	ELIF the last two improvements were both < 0.05: ACCEPT_WITH_CAVEATS (plateau)
//	ELSE: REVISE
func Decide(iteration int, scores []float64, threshold float64, maxIterations int) CycleDecision {
	d := CycleDecision{Iteration: iteration}
	if len(scores) == 0 {
		d.Outcome, d.Reason = Escalate, "no quality score to decide on"
		return d
	}
	s := scores[len(scores)-1]
	d.Score = ptr(s)
	switch {
	case atLeast(s, threshold):
		d.Outcome, d.Reason = Accept, fmt.Sprintf("score %.2f meets the %.2f threshold", s, threshold)
	case iteration >= maxIterations:
		if atLeast(s, CaveatFloor) {
			d.Outcome, d.Reason = AcceptWithCaveats, fmt.Sprintf("circuit breaker at iteration %d: score %.2f is below %.2f but at least %.2f", iteration, s, threshold, CaveatFloor)
		} else {
			d.Outcome, d.Reason = Escalate, fmt.Sprintf("circuit breaker at iteration %d: score %.2f is below %.2f; escalate to the user (P-020)", iteration, s, CaveatFloor)
		}
	case plateau(scores):
		n := len(scores)
		d.Outcome, d.Reason = AcceptWithCaveats, fmt.Sprintf("plateau: improvements %+.2f and %+.2f are both below %.2f", round6(scores[n-2]-scores[n-3]), round6(s-scores[n-2]), PlateauDelta)
	default:
		d.Outcome, d.Reason = Revise, fmt.Sprintf("score %.2f is below %.2f; revise (iteration %d of at most %d)", s, threshold, iteration, maxIterations)
	}
	return d
}

// Cycle runs the creator–critic–revision cycle: create (iteration 1),
// critique with automatic or explicit selection (iteration 2), then revise
// and verify with llm-as-judge and chain-of-verification (iteration 3 and,
// past the minimum, further iterations) until [Decide] stops it.
type Cycle struct {
	critic    *Critic
	creator   Creator
	max       int
	threshold float64
	monitor   *LeniencyMonitor
	verify    []Mode
	budget    int64
}

// CycleOption configures a [Cycle].
type CycleOption func(*Cycle)

// WithMaxIterations sets the circuit breaker. Default 3; values below the
// 3-iteration minimum cycle (H-14) are raised to 3.
func WithMaxIterations(n int) CycleOption {
	return func(c *Cycle) { c.max = max(n, DefaultMaxIterations) }
}

// WithThreshold sets the acceptance threshold. Default: the critique
// selection's (0.92 with automatic or explicit selection).
func WithThreshold(t float64) CycleOption { return func(c *Cycle) { c.threshold = t } }

// WithLeniencyMonitor shares a monitor across cycles, so that scores
// consistently above 0.95 across artifacts are flagged. Default: none.
func WithLeniencyMonitor(m *LeniencyMonitor) CycleOption { return func(c *Cycle) { c.monitor = m } }

// WithTokenBudget caps each pipeline run's tokens. Default 0: no cap.
func WithTokenBudget(n int64) CycleOption { return func(c *Cycle) { c.budget = n } }

// NewCycle returns a cycle that critiques with c and creates and revises
// with creator. A nil critic means New().
func NewCycle(c *Critic, creator Creator, opts ...CycleOption) *Cycle {
	if c == nil {
		c = New()
	}
	cy := &Cycle{critic: c, creator: creator, max: DefaultMaxIterations, verify: []Mode{LLMAsJudge, ChainOfVerification}}
	for _, o := range opts {
		o(cy)
	}
	return cy
}

// CycleInput is one artifact's cycle.
type CycleInput struct {
	// Path names the artifact the creator writes.
	Path string
	// Vector and Facts drive automatic selection of the critique modes.
	Vector Vector
	Facts  Facts
	// Modes, when not empty, names the critique modes explicitly
	// (--mode syntax) instead of automatic selection.
	Modes string
}

// CycleIteration is one iteration's artifact and critique.
type CycleIteration struct {
	Number    int             `json:"number"`
	Kind      string          `json:"kind"`
	Artifact  Artifact        `json:"artifact"`
	Selection *Selection      `json:"selection,omitempty"`
	Pipeline  *PipelineResult `json:"pipeline,omitempty"`
}

// CycleResult is how a cycle ended.
type CycleResult struct {
	Outcome    Outcome          `json:"outcome"`
	Reason     string           `json:"reason"`
	Final      Artifact         `json:"final"`
	Iterations []CycleIteration `json:"iterations"`
	Decisions  []CycleDecision  `json:"decisions"`
	Tracking   *Tracking        `json:"tracking"`
	Flags      []LeniencyFlag   `json:"flags,omitempty"`
	// Caveats document the shortfall of an ACCEPT_WITH_CAVEATS.
	Caveats []string `json:"caveats,omitempty"`
}

// Run runs the cycle. The critique selection's rejection (a C4 review for a
// single agent) is returned as the [*RejectedError]; a creator's or a
// pipeline's error is returned with the result so far.
func (cy *Cycle) Run(ctx context.Context, in CycleInput) (*CycleResult, error) {
	if cy.creator == nil {
		return nil, fmt.Errorf("%w: the cycle needs a creator", ErrInvalidInput)
	}
	if in.Path == "" {
		return nil, ErrArtifactRequired
	}
	now := cy.critic.now
	res := &CycleResult{}

	// Iteration 1: create, with implicit self-refinement.
	art, err := cy.creator.Create(ctx, CreateRequest{Path: in.Path, Iteration: 1})
	if err != nil {
		return nil, fmt.Errorf("critic: create: %w", err)
	}
	if art.Path == "" {
		art.Path = in.Path
	}
	if err := art.Validate(); err != nil {
		return nil, err
	}

	// Iteration 2: critique.
	var sel *Selection
	if in.Modes != "" {
		sel, err = SelectExplicit(in.Modes, in.Vector.Criticality.orEmpty(), in.Facts)
		if err == nil {
			sel.Vector, _, _ = in.Vector.resolve(in.Facts.RemainingTokens)
		}
	} else {
		sel, err = SelectAutomatic(in.Vector, in.Facts)
	}
	if err != nil {
		return nil, err
	}
	if cy.threshold > 0 {
		sel.Threshold = cy.threshold
	}
	res.Tracking = NewTracking(art.Path, sel.Threshold, sel.Criticality)
	res.Tracking.Record(IterationRecord{Iteration: 1, Kind: KindCreate, ModesApplied: []Mode{SelfRefine},
		Notes: "Creator self-improvement", ArtifactHash: art.Hash(), Timestamp: now()})
	res.Iterations = append(res.Iterations, CycleIteration{Number: 1, Kind: KindCreate, Artifact: art})
	res.Final = art

	if sel.EndSession {
		return cy.end(res, CycleDecision{Iteration: 2, Outcome: Escalate,
			Reason: "selection ended the session: no review is possible now; human review is mandatory"}), nil
	}
	iteration := 2
	run, err := cy.critique(ctx, res, iteration, KindCritique, art, sel)
	if err != nil {
		return res, err
	}
	if d, stop := cy.checkAbort(run, iteration); stop {
		return cy.end(res, d), nil
	}
	res.Decisions = append(res.Decisions, CycleDecision{Iteration: iteration, Outcome: Revise, Score: scoreOf(run),
		Reason: "critique complete; the revision follows (3-iteration minimum cycle, H-14)"})

	// Iterations 3…: revise, then verify.
	verify := &Selection{Source: SourceExplicit, Declared: sel.Declared, Criticality: sel.Criticality, Vector: sel.Vector,
		Modes: cy.verify, Threshold: sel.Threshold}
	verify.Modes, _ = Sequence(verify.Modes)
	verify.EstimatedTokens = EstimateTokens(verify.Modes)
	for {
		iteration++
		revised, err := cy.creator.Revise(ctx, RevisionRequest{Iteration: iteration, Artifact: art, Critique: run,
			ImprovementAreas: improvementAreas(run), Findings: run.Findings()})
		if err != nil {
			return res, fmt.Errorf("critic: revise (iteration %d): %w", iteration, err)
		}
		if revised.Path == "" {
			revised.Path = art.Path
		}
		if err := revised.Validate(); err != nil {
			return res, err
		}
		art = revised
		res.Final = art
		run, err = cy.critique(ctx, res, iteration, KindRevise, art, verify)
		if err != nil {
			return res, err
		}
		if d, stop := cy.checkAbort(run, iteration); stop {
			return cy.end(res, d), nil
		}
		var d CycleDecision
		if run.Abort != nil || run.Judge == nil {
			// The gate cannot pass this iteration: revise while iterations
			// remain, then escalate.
			why := "no quality score"
			if run.Abort != nil {
				why = run.Abort.Reason
			}
			d = CycleDecision{Iteration: iteration, Outcome: Revise, Reason: why + "; revise"}
			if iteration >= cy.max {
				d.Outcome, d.Reason = Escalate, fmt.Sprintf("circuit breaker at iteration %d: %s", iteration, why)
			}
		} else {
			d = Decide(iteration, res.Tracking.Scores(), sel.Threshold, cy.max)
		}
		if d.Outcome != Revise {
			return cy.end(res, d), nil
		}
		res.Decisions = append(res.Decisions, d)
	}
}

func (c Criticality) orEmpty() string {
	if c.Valid() {
		return c.String()
	}
	return ""
}

func scoreOf(r *PipelineResult) *float64 {
	if s, ok := r.Score(); ok {
		return ptr(s)
	}
	return nil
}

func improvementAreas(r *PipelineResult) []string {
	if r.Judge == nil {
		return nil
	}
	return r.Judge.ImprovementAreas
}

// critique runs one pipeline and records the iteration.
func (cy *Cycle) critique(ctx context.Context, res *CycleResult, iteration int, kind string, art Artifact, sel *Selection) (*PipelineResult, error) {
	run, err := cy.critic.Run(ctx, PipelineInput{Selection: sel, Artifact: art, Iteration: iteration, TokenBudget: cy.budget})
	if run != nil {
		res.Iterations = append(res.Iterations, CycleIteration{Number: iteration, Kind: kind, Artifact: art, Selection: sel, Pipeline: run})
	}
	if err != nil {
		return nil, fmt.Errorf("critic: iteration %d: %w", iteration, err)
	}
	rec := IterationRecord{Iteration: iteration, Kind: kind, Score: scoreOf(run), ImprovementAreas: improvementAreas(run),
		ArtifactHash: art.Hash(), Timestamp: cy.critic.now()}
	for _, o := range run.Outputs {
		rec.ModesApplied = append(rec.ModesApplied, o.Mode)
	}
	switch {
	case run.Abort != nil:
		rec.Notes = "Pipeline aborted: " + run.Abort.Reason
	case kind == KindCritique:
		rec.Notes = fmt.Sprintf("%s critique (%s selection)", sel.Criticality, sel.Source)
	default:
		rec.Notes = "Revision verified"
	}
	if run.Status == StatusPartial {
		rec.Notes += fmt.Sprintf("; partial run, %d modes skipped", len(run.Skipped))
	}
	res.Tracking.Record(rec)
	return run, nil
}

// checkAbort stops the cycle on a governance violation, which halts the
// cycle at once and escalates to human review.
func (cy *Cycle) checkAbort(run *PipelineResult, iteration int) (CycleDecision, bool) {
	if run.Abort != nil && run.Abort.Escalate {
		return CycleDecision{Iteration: iteration, Outcome: Escalate, Reason: run.Abort.Reason}, true
	}
	return CycleDecision{}, false
}

// end records the final decision, the caveats and the anti-leniency flags.
func (cy *Cycle) end(res *CycleResult, d CycleDecision) *CycleResult {
	res.Decisions = append(res.Decisions, d)
	res.Outcome, res.Reason = d.Outcome, d.Reason
	if last := len(res.Tracking.Iterations) - 1; last >= 0 && res.Tracking.Iterations[last].Notes != "" && d.Outcome != Revise {
		res.Tracking.Iterations[last].Notes += fmt.Sprintf("; %s", d.Outcome)
	}
	if d.Outcome == AcceptWithCaveats && d.Score != nil {
		res.Caveats = append(res.Caveats, fmt.Sprintf("Score %.2f is %.2f below the %.2f threshold: %s.",
			*d.Score, round6(res.Tracking.Threshold-*d.Score), res.Tracking.Threshold, d.Reason))
		if rec := res.Tracking.lastScored(); rec != nil {
			res.Caveats = append(res.Caveats, rec.ImprovementAreas...)
		}
	}
	res.Flags = res.Tracking.Flags()
	if cy.monitor != nil && d.Score != nil && (d.Outcome == Accept || d.Outcome == AcceptWithCaveats) {
		if f := cy.monitor.Observe(res.Tracking.Artifact, *d.Score); f != nil {
			res.Flags = append(res.Flags, *f)
		}
	}
	return res
}

// CreatorFuncs adapts two functions to [Creator].
type CreatorFuncs struct {
	CreateFunc func(ctx context.Context, req CreateRequest) (Artifact, error)
	ReviseFunc func(ctx context.Context, req RevisionRequest) (Artifact, error)
}

// Create calls CreateFunc.
func (f CreatorFuncs) Create(ctx context.Context, req CreateRequest) (Artifact, error) {
	if f.CreateFunc == nil {
		return Artifact{}, errors.New("critic: creator has no CreateFunc")
	}
	return f.CreateFunc(ctx, req)
}

// Revise calls ReviseFunc.
func (f CreatorFuncs) Revise(ctx context.Context, req RevisionRequest) (Artifact, error) {
	if f.ReviseFunc == nil {
		return Artifact{}, errors.New("critic: creator has no ReviseFunc")
	}
	return f.ReviseFunc(ctx, req)
}
