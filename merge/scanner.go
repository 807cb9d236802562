package merge

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/crucible-go/crucible/diff"
)

// RuleScanner is the default [ContradictionScanner]: the diff step's
// rule-based detectors (numeric conflicts, opposing claims, exclusive
// choices, requirement–constraint conflicts, dependency cycles). Its
// signatures name a conflict's kind and subject, never a document, so a
// conflict the variants already had is recognised in the merged document.
type RuleScanner struct{}

var _ ContradictionScanner = RuleScanner{}

// ruleScanKey memoises, per document, the rule scan of that document
// alone: the merge scans its base once per merge and can start that scan
// while it applies the changes (see execute).
type ruleScanKey struct{}

type ruleScan struct {
	found []Contradiction
	err   error
}

// Scan implements [ContradictionScanner]. The scan of one document is
// computed once per document. The detectors fail only when their context
// ends: a memoised failure is a scan cancelled for its first caller, and
// a caller whose context is live scans afresh.
func (RuleScanner) Scan(ctx context.Context, docs []*diff.Document) ([]Contradiction, error) {
	if len(docs) != 1 || docs[0] == nil {
		return scanRules(ctx, docs)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r := docs[0].Memo(ruleScanKey{}, func() any {
		found, err := scanRules(ctx, docs)
		return ruleScan{found, err}
	}).(ruleScan)
	if r.err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return scanRules(ctx, docs)
	}
	return slices.Clone(r.found), nil
}

func scanRules(ctx context.Context, docs []*diff.Document) ([]Contradiction, error) {
	cs, err := diff.DetectContradictions(ctx, docs...)
	if err != nil {
		return nil, err
	}
	out := make([]Contradiction, 0, len(cs))
	for _, c := range cs {
		quotes := make([]string, 0, len(c.Claims))
		for _, cl := range c.Claims {
			quotes = append(quotes, fmt.Sprintf("%q (line %d)", strings.Join(strings.Fields(cl.Quote), " "), cl.Line))
		}
		out = append(out, Contradiction{
			Signature:   c.Signature(),
			Description: fmt.Sprintf("%s — %s: %s", c.Subject, c.Kind, strings.Join(quotes, " vs ")),
		})
	}
	return out, nil
}
