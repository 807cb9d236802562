package scoring

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/crucible-go/crucible/diff"
)

// Judge applies the qualitative rubric. The scorer calls it three ways:
// pass 1 with the variants in input order, pass 2 with them reversed (the
// two run in parallel), and then, for the criterion–variant pairs on which
// the passes disagree, a re-evaluation whose verdicts are final.
//
// Evaluate must return exactly one verdict per pair it is asked about:
// every variant × every criterion on a pass, every dispute on a
// re-evaluation. A MET verdict must cite evidence — text quoted from the
// variant — and the scorer checks that the quote occurs in the variant: a
// MET it cannot find becomes NOT MET.
//
// Implementations must be safe for concurrent use. [RuleJudge] is the
// deterministic offline judge; [ModelJudge] asks a model.
type Judge interface {
	Evaluate(ctx context.Context, req RubricRequest) (RubricVerdicts, error)
}

// JudgeFunc adapts a function to the [Judge] interface.
type JudgeFunc func(ctx context.Context, req RubricRequest) (RubricVerdicts, error)

// Evaluate calls f(ctx, req).
func (f JudgeFunc) Evaluate(ctx context.Context, req RubricRequest) (RubricVerdicts, error) {
	return f(ctx, req)
}

// Pass numbers of a [RubricRequest].
const (
	Reevaluation = 0 // the re-evaluation of disputed pairs
	Pass1        = 1 // variants in input order
	Pass2        = 2 // variants in reverse order
)

// RubricRequest asks a judge for verdicts.
type RubricRequest struct {
	// Pass is Pass1, Pass2 or Reevaluation.
	Pass int
	// Variants are the variants to evaluate, in the order the judge is to
	// see them: input order on pass 1, reversed on pass 2, and on a
	// re-evaluation only the variant whose pairs are disputed.
	Variants []Variant
	// Criteria are the rubric's criteria, in rubric order.
	Criteria []Criterion
	// Source is the Mode B source, nil in Mode A.
	Source *diff.Document
	// Reference is what "covers all explicit requirements" is held to: the
	// source's requirements, or in Mode A the union of the variants'.
	Reference Reference
	// Focus are the run's focus areas, if any.
	Focus []string
	// Disputes is set on a re-evaluation: the pairs the two passes
	// disagreed on, each with both passes' verdicts and evidence. The judge
	// answers exactly these, and its verdicts are final.
	Disputes []Dispute
}

// Dispute is a criterion–variant pair on which the two passes disagreed.
type Dispute struct {
	Variant   string  `json:"variant"`
	Criterion string  `json:"criterion"`
	Pass1     Verdict `json:"pass1"`
	Pass2     Verdict `json:"pass2"`
}

// RubricVerdicts is a judge's answer.
type RubricVerdicts struct {
	Verdicts []Verdict `json:"verdicts"`
}

// Verdict is one Claim–Evidence–Verdict record: whether a criterion is met
// in a variant, and the evidence.
type Verdict struct {
	Variant   string `json:"variant"`   // label
	Criterion string `json:"criterion"` // criterion ID
	Met       bool   `json:"met"`
	// Claim is the CEV claim: "<criterion> is met in Variant X" (or "not
	// met"); the scorer fills it in when the judge leaves it empty.
	Claim string `json:"claim"`
	// Evidence are the passages of the variant the verdict rests on; a MET
	// verdict needs at least one, and every quote must occur in the
	// variant.
	Evidence []Citation `json:"evidence,omitempty"`
	// Note explains the verdict; for NOT MET without evidence, "No
	// evidence found — searched sections …".
	Note string `json:"note,omitempty"`
	// Unverified is set when the judge said MET but cited text the variant
	// does not contain (or cited nothing); the scorer then made the
	// verdict NOT MET. It holds the offending quote.
	Unverified string `json:"unverified,omitempty"`
}

// Citation is a passage of a variant quoted as evidence.
type Citation struct {
	Quote   string `json:"quote"`
	Section string `json:"section,omitempty"` // e.g. "2.1 Caching"
	Line    int    `json:"line,omitempty"`    // 1-based, when known
}

// Verdict words of the Claim–Evidence–Verdict protocol.
const (
	MET    = "MET"
	NotMET = "NOT MET"
)

// Word returns MET or NOT MET.
func (v Verdict) Word() string {
	if v.Met {
		return MET
	}
	return NotMET
}

// pairKey identifies a criterion–variant pair.
type pairKey struct{ variant, criterion string }

// collect checks a judge's answer against what was asked and returns the
// verdicts by pair. want lists the pairs asked about.
func collect(got RubricVerdicts, want []pairKey) (map[pairKey]Verdict, error) {
	asked := make(map[pairKey]bool, len(want))
	for _, k := range want {
		asked[k] = true
	}
	out := make(map[pairKey]Verdict, len(want))
	for _, v := range got.Verdicts {
		k := pairKey{v.Variant, v.Criterion}
		if !asked[k] {
			return nil, fmt.Errorf("%w: a verdict on %s for Variant %s, which was not asked for", ErrJudge, v.Criterion, v.Variant)
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%w: two verdicts on %s for Variant %s", ErrJudge, v.Criterion, v.Variant)
		}
		out[k] = v
	}
	for _, k := range want {
		if _, ok := out[k]; !ok {
			return nil, fmt.Errorf("%w: no verdict on %s for Variant %s", ErrJudge, k.criterion, k.variant)
		}
	}
	return out, nil
}

// verify enforces the evidence rule on a verdict: a MET must cite at least
// one quote, and every quote must occur in the variant; otherwise it
// becomes NOT MET, with the quote kept in Unverified.
func verify(v Verdict, x *evidenceIndex) Verdict {
	if !v.Met {
		return v
	}
	bad := ""
	switch {
	case len(v.Evidence) == 0:
		bad = "(no evidence cited)"
	default:
		for _, c := range v.Evidence {
			if !x.found(c.Quote) {
				bad = c.Quote
				if strings.TrimSpace(bad) == "" {
					bad = "(empty quote)"
				}
				break
			}
		}
	}
	if bad == "" {
		return v
	}
	v.Met = false
	v.Unverified = bad
	v.Claim = ""
	return v
}

// claimFor writes the CEV claim for a verdict.
func claimFor(c Criterion, label string, met bool) string {
	if met {
		return fmt.Sprintf("%q is met in Variant %s", c.Text, label)
	}
	return fmt.Sprintf("%q is not met in Variant %s", c.Text, label)
}

// FallbackJudge asks Primary and, when a call fails, answers that call
// with Fallback instead: the error matrix's degradation for a model judge
// whose call failed after its one retry (judge → the rule judge for that
// call). Only that call degrades; the next asks Primary again. OnFallback,
// when set, is told of each degraded call so a host can warn; it must be
// safe for concurrent use (the two passes run at once). A cancelled
// context is never a fault to fall back from: its error is returned.
type FallbackJudge struct {
	Primary    Judge
	Fallback   Judge
	OnFallback func(req RubricRequest, err error)
}

var _ Judge = FallbackJudge{}

// Evaluate implements [Judge]. When Primary fails only for some
// variants of a pass (a [*PartialError]), Fallback answers those variants
// alone and the others keep Primary's verdicts.
func (f FallbackJudge) Evaluate(ctx context.Context, req RubricRequest) (RubricVerdicts, error) {
	v, err := f.Primary.Evaluate(ctx, req)
	if err == nil || ctx.Err() != nil || f.Fallback == nil {
		return v, err
	}
	var partial *PartialError
	if !errors.As(err, &partial) || req.Pass == Reevaluation {
		if f.OnFallback != nil {
			f.OnFallback(req, err)
		}
		return f.Fallback.Evaluate(ctx, req)
	}
	out := RubricVerdicts{Verdicts: slices.Clone(partial.Verdicts.Verdicts)}
	for i, label := range partial.Failed {
		one := req
		one.Variants = nil
		for _, x := range req.Variants {
			if x.Label == label {
				one.Variants = []Variant{x}
			}
		}
		if f.OnFallback != nil {
			f.OnFallback(one, partial.Errs[i])
		}
		got, err := f.Fallback.Evaluate(ctx, one)
		if err != nil {
			return RubricVerdicts{}, err
		}
		out.Verdicts = append(out.Verdicts, got.Verdicts...)
	}
	return out, nil
}

// PassName names a request's pass as the artifacts do: "pass 1",
// "pass 2" or "the re-evaluation".
func PassName(pass int) string {
	switch pass {
	case Pass1:
		return "pass 1"
	case Pass2:
		return "pass 2"
	}
	return "the re-evaluation"
}
