package merge

import (
	"context"
	"fmt"
	"strings"

	"github.com/crucible-go/crucible/diff"
)

// Merger executes a refactoring plan against the base (step 5).
//
// Merge applies the plan's changes in order. A change that cannot be
// applied is marked Failed and the merge goes on; the result is then
// partial, as it is when post-merge validation fails. Bad input — no base,
// an invalid plan, a base the plan was not made for — returns a nil
// *Merged and an error matching ErrInvalidInput, ErrInvalidPlan or
// ErrBaseMismatch. A failure of the executor itself returns both: a
// *Merged with status failed that keeps the plan, the log and the merge as
// far as it got, and an [*ExecutorError].
//
// Implementations must be safe for concurrent use.
type Merger interface {
	Merge(ctx context.Context, in Input) (*Merged, error)
}

// Func adapts a function to the [Merger] interface.
type Func func(ctx context.Context, in Input) (*Merged, error)

// Merge calls f(ctx, in).
func (f Func) Merge(ctx context.Context, in Input) (*Merged, error) { return f(ctx, in) }

// Input is what a merge works on.
type Input struct {
	// Base is the selected base variant; the plan's changes are made to it.
	Base *diff.Document
	// Plan is the (reviewed) refactoring plan.
	Plan Plan
	// Variants are the other input variants, in the order of
	// Plan.Variants. References in incorporated text are read in their
	// variant's numbering, so that one naming a section the merge did not
	// bring is found; without them (or in another number) such
	// references are only checked against the merged document.
	Variants []*diff.Document
}

// Status is the outcome of a merge, as the return contract reports it.
type Status string

// The merge statuses.
const (
	StatusSuccess Status = "success" // every change applied, validation passed
	StatusPartial Status = "partial" // a change failed or was skipped, or validation failed
	StatusFailed  Status = "failed"  // the executor failed; see Merged.Log.Failure
)

// Merged is the result of a merge.
type Merged struct {
	// Output is the merged document: the provenance header, then the base
	// with the plan applied and a Source tag after every heading. When the
	// merge failed it holds the changes applied before the failure.
	Output string `json:"output"`
	// Provenance maps every section of Output to its source, in document
	// order.
	Provenance []SectionProvenance `json:"provenance"`
	Log        Log                 `json:"log"`
	// Plan is the plan executed, kept so that a failed merge can be
	// finished by hand.
	Plan Plan `json:"plan"`
	// Doc is Output parsed.
	Doc *diff.Document `json:"-"`
	// Fallbacks lists the changes the merge executor (the model) failed
	// on after its one retry: each was applied by the section merger
	// instead, or skipped when only a model could apply it. A host shows
	// them as warnings; the merge goes on rather than failing.
	Fallbacks []ExecutorFallback `json:"fallbacks,omitempty"`
}

// ExecutorFallback is one change the merge executor failed on.
type ExecutorFallback struct {
	Change   int    `json:"change"`
	Attempts int    `json:"attempts"`
	Cause    string `json:"cause"`
	// Skipped is set when no section merger could apply the change (a
	// restructure): it is listed as skipped, for manual execution.
	Skipped bool  `json:"skipped,omitempty"`
	Err     error `json:"-"`
}

// Status returns the merge's status.
func (m *Merged) Status() Status { return m.Log.Status }

// SectionMerger is the deterministic, offline merger: it splices Markdown
// at section boundaries. It applies replace, append and insert changes and
// fails restructure changes with [ErrNeedsModel]. Sections no change
// touches keep their bytes exactly, with two exceptions: comments
// imitating provenance are neutralised in every input, and a blank line
// separates a section that does not end with one from a section the merge
// adds after it.
type SectionMerger struct {
	cfg *config
}

var _ Merger = (*SectionMerger)(nil)

// NewSectionMerger returns a section merger. It honours [WithClock],
// [WithLogger] and [WithScanner].
func NewSectionMerger(opts ...Option) *SectionMerger {
	return &SectionMerger{cfg: newConfig(opts)}
}

// Merge implements [Merger].
func (m *SectionMerger) Merge(ctx context.Context, in Input) (*Merged, error) {
	return execute(ctx, m.cfg, in, "section merger (deterministic)", nil)
}

// assemble renders the merged document, maps its provenance and validates
// it.
func (r *run) assemble(ctx context.Context, executor string, failure *ExecutorError) (*Merged, error) {
	at := r.cfg.now()
	amended := r.amend()
	r.frameTitle()
	fix := r.fixReferences(r.renumber())
	recounted := r.recount()
	h := header(r.in.Plan.Base, at)
	out := trimFinal(r.tree.render(true, h))
	m := &Merged{
		Plan:      r.in.Plan,
		Fallbacks: r.fallbacks,
		Log: Log{Base: r.in.Plan.Base, Executor: executor, Time: at, Changes: r.results, Amendments: amended,
			Recounts: recounted, ValuesNotTaken: valuesNotTaken(r.in.Plan)},
	}
	var nodes []*node
	r.tree.walk(func(n *node) { nodes = append(nodes, n) })
	doc, err := diff.Parse("merged", []byte(out))
	m.Output = out
	if err == nil {
		m.Doc = doc
		if len(nodes) != len(doc.Sections) {
			err = fmt.Errorf("the merged document parses into %d sections, the merge made %d", len(doc.Sections), len(nodes))
		} else {
			m.Provenance = make([]SectionProvenance, len(nodes))
			for i, n := range nodes {
				s := doc.Sections[i]
				if s.Level != n.level {
					err = fmt.Errorf("section %q parses at H%d, the merge made H%d", s.Title, s.Level, n.level)
					break
				}
				m.Provenance[i] = SectionProvenance{Section: refOf(doc, i), Level: s.Level, Line: s.Line, Attribution: n.attr}
			}
		}
	}
	if err != nil && failure == nil {
		failure = &ExecutorError{Err: fmt.Errorf("internal: %w", err)}
	}
	if failure != nil {
		m.Log.Status = StatusFailed
		m.Log.Failure = failure.Error()
		m.Log.Validation = Validation{NotRun: "the merge executor failed; the output holds the changes applied before the failure"}
		return m, failure
	}
	m.Log.Validation = validate(ctx, r.cfg, r.in, doc, nodes, fix.Rewritten, fix.staleIn(doc, nodes, r.tree, h))
	m.Log.Status = StatusSuccess
	if !m.Log.Validation.Passed() || m.Log.count(ChangeApplied) != len(m.Log.Changes) {
		m.Log.Status = StatusPartial
		m.Log.Reasons = m.Log.reasons()
	}
	return m, nil
}

// trimFinal ends the document with exactly one newline, as normalised
// variants do.
func trimFinal(s string) string {
	t := strings.TrimRight(s, "\n")
	if t == "" {
		return ""
	}
	return t + "\n"
}
