package scoring

import (
	"context"
	"fmt"
	"log/slog"
	"slices"

	"golang.org/x/sync/errgroup"
)

// qualitative runs the rubric with position-bias mitigation: pass 1 with
// the variants in input order and pass 2 in reverse, in parallel; every
// verdict's evidence checked against the variant; each criterion–variant
// pair the passes disagree on re-evaluated with both passes' evidence, the
// re-evaluation final.
func (s *HybridScorer) qualitative(ctx context.Context, vs []Variant, in Input, ref Reference) ([]QualScore, BiasReport, []string, error) {
	crits := s.rubric.Criteria()
	at := make(map[string]int, len(vs))
	index := make([]*evidenceIndex, len(vs))
	for i, v := range vs {
		at[v.Label] = i
		index[i] = newEvidenceIndex(v.Doc)
	}
	var all []pairKey
	for _, c := range crits {
		for _, v := range vs {
			all = append(all, pairKey{v.Label, c.ID})
		}
	}
	base := RubricRequest{Criteria: crits, Source: in.Source, Reference: ref, Focus: in.Focus}
	downgraded := 0
	check := func(stage string, v Verdict) Verdict {
		i := at[v.Variant]
		checked := verify(v, index[i])
		if checked.Unverified != "" && v.Unverified == "" {
			downgraded++
			s.log.WarnContext(ctx, "scoring: MET verdict cites evidence not found in the variant; counted as NOT MET",
				slog.String("stage", stage), slog.String("variant", v.Variant), slog.String("criterion", v.Criterion),
				slog.String("quote", checked.Unverified))
		}
		if checked.Claim == "" {
			c, _ := s.rubric.Criterion(v.Criterion)
			checked.Claim = claimFor(c, v.Variant, checked.Met)
		}
		return checked
	}

	// The two passes.
	var passes [2]map[pairKey]Verdict
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.limit)
	for p := range passes {
		req := base
		req.Pass = p + 1
		req.Variants = slices.Clone(vs)
		if p == 1 {
			slices.Reverse(req.Variants)
		}
		g.Go(func() (err error) {
			defer recoverInto(&err)
			if err := gctx.Err(); err != nil {
				return err // the other pass failed or the caller gave up
			}
			got, err := s.judge.Evaluate(gctx, req)
			if err != nil {
				return fmt.Errorf("scoring: rubric pass %d: %w", req.Pass, err)
			}
			m, err := collect(got, all)
			if err != nil {
				return fmt.Errorf("scoring: rubric pass %d: %w", req.Pass, err)
			}
			passes[p] = m
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, BiasReport{}, nil, err
	}
	for p, m := range passes {
		stage := fmt.Sprintf("pass %d", p+1)
		for _, k := range all {
			m[k] = check(stage, m[k])
		}
	}

	// The disputes, per variant, in rubric order.
	disputes := make([][]Dispute, len(vs))
	for _, k := range all {
		v1, v2 := passes[0][k], passes[1][k]
		if v1.Met != v2.Met {
			i := at[k.variant]
			disputes[i] = append(disputes[i], Dispute{Variant: k.variant, Criterion: k.criterion, Pass1: v1, Pass2: v2})
		}
	}
	reeval := make([]map[pairKey]Verdict, len(vs))
	g, gctx = errgroup.WithContext(ctx)
	g.SetLimit(s.limit)
	for i, ds := range disputes {
		if len(ds) == 0 {
			continue
		}
		req := base
		req.Pass = Reevaluation
		req.Variants = []Variant{vs[i]}
		req.Disputes = ds
		want := make([]pairKey, len(ds))
		for j, d := range ds {
			want[j] = pairKey{d.Variant, d.Criterion}
		}
		g.Go(func() (err error) {
			defer recoverInto(&err)
			if err := gctx.Err(); err != nil {
				return err
			}
			got, err := s.judge.Evaluate(gctx, req)
			if err != nil {
				return fmt.Errorf("scoring: re-evaluation of Variant %s: %w", vs[i].Label, err)
			}
			m, err := collect(got, want)
			if err != nil {
				return fmt.Errorf("scoring: re-evaluation of Variant %s: %w", vs[i].Label, err)
			}
			reeval[i] = m
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, BiasReport{}, nil, err
	}

	// Final verdicts and the log.
	report := BiasReport{Pairs: len(all)}
	quals := make([]QualScore, len(vs))
	for _, k := range all {
		i := at[k.variant]
		v1, v2 := passes[0][k], passes[1][k]
		e := BiasEntry{Criterion: k.criterion, Variant: k.variant, Pass1: v1.Met, Pass2: v2.Met, Agree: v1.Met == v2.Met}
		final := v1
		if !e.Agree {
			final = check("re-evaluation", reeval[i][k])
			r := final
			e.Reevaluation = &r
			report.Disagreements++
			if final.Met != v1.Met {
				report.Changed++
			}
		}
		e.Final = final.Met
		report.Entries = append(report.Entries, e)
		quals[i].Verdicts = append(quals[i].Verdicts, final)
	}
	if report.Pairs > 0 {
		report.Agreement = float64(report.Pairs-report.Disagreements) / float64(report.Pairs)
	}
	report.Downgraded = downgraded
	for i := range quals {
		quals[i] = tally(s.rubric, quals[i].Verdicts)
	}
	var warnings []string
	if downgraded > 0 {
		warnings = append(warnings, fmt.Sprintf("%d MET %s cited evidence not found in the variant and counted as NOT MET",
			downgraded, plural(downgraded, "verdict", "verdicts")))
	}
	return quals, report, warnings, nil
}

// tally counts the MET verdicts per dimension.
func tally(r Rubric, verdicts []Verdict) QualScore {
	q := QualScore{Verdicts: verdicts, Total: r.Len()}
	met := map[string]bool{}
	for _, v := range verdicts {
		if v.Met {
			met[v.Criterion] = true
		}
	}
	for _, d := range r.Dimensions {
		t := DimensionTally{ID: d.ID, Name: d.Name, Total: len(d.Criteria)}
		for _, c := range d.Criteria {
			if met[c.ID] {
				t.Met++
			}
		}
		q.Met += t.Met
		q.Dimensions = append(q.Dimensions, t)
	}
	if q.Total > 0 {
		q.Score = float64(q.Met) / float64(q.Total)
	}
	return q
}

// recoverInto turns a panic in a judge into an error, so one bad judge
// cannot take the host down.
func recoverInto(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("scoring: judge panicked: %v", r)
	}
}
