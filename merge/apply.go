package merge

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
)

// run is one execution of a plan.
type run struct {
	cfg     *config
	in      Input
	tree    *tree
	model   *ModelMerger // nil: no model, restructures fail
	results []ChangeResult
	// fallbacks are the changes the merge executor failed on, handled by
	// the section merger or skipped.
	fallbacks []ExecutorFallback

	planOnce sync.Once
	planText string

	// sources holds the parsed source text of each change, parsed once
	// when the plan is validated.
	sources map[string]*diff.Document
	// ahead holds, by change number, the source subtrees prepared in the
	// background (see prepareAhead); nil entries are prepared in place.
	ahead []*preparedSource
}

// preparedSource is prepareSource's answer for a change, computed ahead
// for the placement the change would get in the base's tree.
type preparedSource struct {
	level   int
	to, sep string
	done    chan struct{}
	ran     bool // false: not computed (the merge was cancelled first)
	root    *node
	from    int
	err     error
}

// execute applies the plan in order and assembles the result. It is the
// body of both mergers; they differ in whether a model handles some
// changes.
func execute(ctx context.Context, cfg *config, in Input, executor string, model *ModelMerger) (*Merged, error) {
	sources := map[string]*diff.Document{}
	if err := in.validate(sources); err != nil {
		return nil, err
	}
	r := &run{cfg: cfg, in: in, tree: baseTree(in.Base), model: model, sources: sources}
	// The re-scan compares the merged document with the base; the rule
	// scan of the base depends on nothing the changes do, so it runs while
	// they are applied (RuleScanner memoises it in the document).
	if _, ok := cfg.scanner.(RuleScanner); ok {
		scanned := make(chan struct{})
		go func() {
			defer close(scanned)
			_, _ = cfg.scanner.Scan(ctx, []*diff.Document{in.Base})
		}()
		defer func() { <-scanned }()
	}
	if model == nil {
		defer r.prepareAhead(ctx)()
	}
	var failure *ExecutorError
	for _, c := range in.Plan.Changes {
		if failure != nil {
			r.results = append(r.results, skipped(c, fmt.Sprintf("not attempted: the merge executor failed at change #%d", failure.Change)))
			continue
		}
		if err := ctx.Err(); err != nil {
			failure = &ExecutorError{Change: c.Number, Err: err}
			r.results = append(r.results, skipped(c, "not attempted: "+err.Error()))
			continue
		}
		res, err := r.apply(ctx, c)
		if err != nil {
			if !errors.As(err, &failure) {
				failure = &ExecutorError{Change: c.Number, Err: err}
			}
			res.Status, res.Reason, res.Err = ChangeFailed, failure.Error(), failure
			if res.Validation == "" {
				res.Validation = "❌ " + failure.Err.Error()
			}
		}
		cfg.logger.DebugContext(ctx, "merge change", "change", c.Number, "approach", c.Approach, "status", res.Status, "reason", res.Reason)
		r.results = append(r.results, res)
	}
	return r.assemble(ctx, executor, failure)
}

func (in Input) validate(parsed map[string]*diff.Document) error {
	if in.Base == nil {
		return inputErrorf("no base document")
	}
	if err := in.Plan.validate(parsed); err != nil {
		return err
	}
	if in.Plan.BaseDigest != "" && in.Plan.BaseDigest != Digest(in.Base) {
		return fmt.Errorf("%w: %s's digest is %.12s…, the plan's %.12s…", ErrBaseMismatch, in.Plan.Base, Digest(in.Base), in.Plan.BaseDigest)
	}
	return nil
}

func skipped(c Change, reason string) ChangeResult {
	res := newResult(c)
	res.Status, res.Reason, res.Validation = ChangeSkipped, reason, "— "+reason
	return res
}

func newResult(c Change) ChangeResult {
	target := "end of document"
	if !c.Target.IsZero() {
		target = c.Target.String()
	}
	return ChangeResult{
		Change:   c.Number,
		Title:    c.Title,
		Approach: c.Approach,
		Source:   c.Source.Variant.String() + ", " + c.Source.Section.String(),
		Target:   target,
	}
}

// apply applies one change. A change that cannot be applied comes back
// Failed with a nil error; an error is an executor failure.
// plan renders the refactoring plan once per merge, for the model's
// shared context.
func (r *run) plan() string {
	r.planOnce.Do(func() { r.planText = r.in.Plan.Markdown() })
	return r.planText
}

// modelCalls counts the changes of the plan the model is asked to make.
func (r *run) modelCalls() int {
	if r.model == nil {
		return 0
	}
	n := 0
	for _, c := range r.in.Plan.Changes {
		if c.Approach == Restructure || r.cfg.all {
			n++
		}
	}
	return n
}

func (r *run) apply(ctx context.Context, c Change) (ChangeResult, error) {
	res := newResult(c)
	fail := func(kind error, format string, args ...any) (ChangeResult, error) {
		return failChange(res, kind, format, args...), nil
	}
	var target *node
	if !c.Target.IsZero() {
		k, ok := locate(r.in.Base, c.Target)
		if !ok {
			return fail(ErrTargetMissing, "the base has no %s", c.Target)
		}
		if target = r.tree.byOrigin[k]; target == nil {
			return fail(ErrConflict, "%s was removed by Change #%d", c.Target, r.tree.removedBy[k])
		}
	} else if c.Approach != Append {
		return fail(ErrTargetMissing, "a %s needs a target section", c.Approach)
	}
	if c.Approach == Replace || c.Approach == Restructure {
		if target.replacedBy != 0 {
			return fail(ErrConflict, "%s was already replaced by Change #%d", c.Target, target.replacedBy)
		}
	}
	if r.model != nil && (c.Approach == Restructure || r.cfg.all) {
		out, err := r.model.apply(ctx, r, c, target, res)
		if err == nil || ctx.Err() != nil {
			return out, err
		}
		return r.fallBack(ctx, c, target, res, out, err)
	}
	return r.applySection(c, target, res)
}

// fallBack handles a change the merge executor failed on after its one
// retry, as the error matrix has it: the section merger applies the
// change instead; a restructure, which only a model can do, is skipped and
// listed for manual execution. Either way the change's validation and
// [Merged.Fallbacks] say so.
func (r *run) fallBack(ctx context.Context, c Change, target *node, res, failed ChangeResult, cause error) (ChangeResult, error) {
	var ee *ExecutorError
	if errors.As(cause, &ee) && ee.Err != nil {
		cause = ee.Err
	}
	fb := ExecutorFallback{Change: c.Number, Attempts: failed.Attempts, Cause: cause.Error(), Err: cause}
	r.cfg.logger.WarnContext(ctx, "merge executor failed; falling back", "change", c.Number, "err", cause)
	if c.Approach == Restructure {
		fb.Skipped = true
		r.fallbacks = append(r.fallbacks, fb)
		out := skipped(c, fmt.Sprintf("the merge executor failed (%v) and a restructure needs it; apply this change by hand from the refactoring plan", cause))
		out.Attempts = failed.Attempts
		return out, nil
	}
	r.fallbacks = append(r.fallbacks, fb)
	out, err := r.applySection(c, target, res)
	out.Attempts = failed.Attempts
	out.Validation = fmt.Sprintf("⚠️ merge executor failed (%v); applied by the section merger — %s", cause, out.Validation)
	return out, err
}

// applySection applies a change by splicing sections, as [SectionMerger]
// does.
func (r *run) applySection(c Change, target *node, res ChangeResult) (ChangeResult, error) {
	fail := func(kind error, format string, args ...any) (ChangeResult, error) {
		return failChange(res, kind, format, args...), nil
	}
	if c.Approach == Restructure {
		return fail(ErrNeedsModel, "%s cannot be reorganised without one (see NewModelMerger)", c.Target)
	}

	level, to, sep, parent := r.placement(c, target)
	root, from, err := r.prepared(c, level, to, sep)
	if err != nil {
		return fail(ErrBadSource, "%v", err)
	}
	before := ""
	if c.Approach == Replace {
		before = target.text()
	}
	if err := r.splice(c, target, parent, root); err != nil {
		return fail(ErrConflict, "%v", err)
	}
	after := root.text()
	if c.Approach == Replace {
		after = target.text()
	}
	res.Status = ChangeApplied
	res.diffExcerpts(before, after)
	res.Tag = root.attr.Tag()
	res.Validation = "✅ source section re-parses as one section; " + levelNote(from, level)
	return res, nil
}

// failChange marks res Failed with a [*ChangeError] of kind.
func failChange(res ChangeResult, kind error, format string, args ...any) ChangeResult {
	err := &ChangeError{Change: res.Change, Err: fmt.Errorf("%w: "+format, append([]any{kind}, args...)...)}
	res.Status, res.Err, res.Reason = ChangeFailed, err, err.Err.Error()
	res.Validation = "❌ " + res.Reason
	return res
}

// placement decides, for a change's target, the level of the incorporated
// root, the number it takes (empty for none), the separator after that
// number and, for a new section, its parent (nil for the top of the
// document).
func (r *run) placement(c Change, target *node) (level int, to, sep string, parent *node) {
	switch {
	case c.Approach == Replace || c.Approach == Restructure:
		return target.level, target.number(), numberSep(target.title), target.parent
	case c.Approach == Insert:
		to, sep = insertNumber(target)
		return target.level + 1, to, sep, target
	case target != nil: // append
		to = appendNumber(target, r.tree.siblings(target))
		return target.level, to, numberSep(target.title), target.parent
	}
	// append at the end of the document: under the title, if there is one
	roots := r.tree.roots
	if len(roots) == 1 && roots[0].level == 1 && len(roots[0].kids) > 0 {
		last := roots[0].kids[len(roots[0].kids)-1]
		return last.level, appendNumber(last, roots[0].kids), numberSep(last.title), roots[0]
	}
	if len(roots) > 0 {
		last := roots[len(roots)-1]
		return last.level, appendNumber(last, roots), numberSep(last.title), nil
	}
	return 2, "", "", nil
}

// appendNumber is the number a section appended after n takes: one more
// than n's, when n is numbered and that number is free.
func appendNumber(n *node, sibs []*node) string {
	t := n.number()
	if t == "" {
		return ""
	}
	next := increment(t)
	for i, s := range sibs {
		if s.number() == next || (s == n && i+1 < len(sibs) && sibs[i+1].number() != "") {
			return ""
		}
	}
	return next
}

// insertNumber is the number a new last subsection of n takes, and the
// separator after it.
func insertNumber(n *node) (string, string) {
	t := n.number()
	if t == "" {
		return "", ""
	}
	if len(n.kids) == 0 {
		return t + ".1", " "
	}
	last := n.kids[len(n.kids)-1]
	k := last.number()
	if !strings.HasPrefix(k, t+".") {
		return "", ""
	}
	return increment(k), numberSep(last.title)
}

// increment adds one to the last component of a section number.
func increment(n string) string {
	i := strings.LastIndexByte(n, '.') + 1
	v, err := strconv.Atoi(n[i:])
	if err != nil {
		return ""
	}
	return n[:i] + strconv.Itoa(v+1)
}

// splice puts root into the tree as the change's approach says. For a
// replace, root's content is grafted onto the target's subtree (see
// graft).
func (r *run) splice(c Change, target, parent, root *node) error {
	if c.Approach == Replace || c.Approach == Restructure {
		if c.Heading != "" {
			retitle(target, c)
		}
		r.graft(target, root, c.Number, c.Subsections)
		return nil
	}
	// where root goes: under parent (nil: the top of the document), at
	// index at of the sibling list, after the section prev
	var sibs []*node
	var at int
	switch {
	case c.Approach == Insert || (target == nil && parent != nil):
		sibs, at = parent.kids, len(parent.kids)
	case target == nil:
		sibs, at = r.tree.roots, len(r.tree.roots)
	default:
		sibs = r.tree.siblings(target)
		at = slices.Index(sibs, target)
		if at < 0 {
			return fmt.Errorf("internal: %s is not among its siblings", c.Target)
		}
		// after the target and after what earlier changes appended to it:
		// sections appended after one anchor keep plan order
		at++
		for at < len(sibs) && sibs[at].anchor == target {
			at++
		}
		root.anchor = target
	}
	lead, ok := leadFor(r.tree.pre)
	switch {
	case at > 0:
		lead, ok = leadAfter(sibs[at-1].last().own)
	case parent != nil:
		lead, ok = leadAfter(parent.own)
	}
	if !ok {
		return fmt.Errorf("the text before the insertion point ends inside an open code block")
	}
	root.lead = lead
	root.parent = parent
	out := make([]*node, 0, len(sibs)+1)
	out = append(append(append(out, sibs[:at]...), root), sibs[at:]...)
	r.tree.setSiblings(parent, out)
	return nil
}

// discard records that the base sections under n are gone.
func (r *run) discard(n *node, change int) {
	for _, k := range n.kids {
		k.walk(func(d *node) {
			if d.origin >= 0 {
				r.tree.byOrigin[d.origin] = nil
				r.tree.removedBy[d.origin] = change
			}
		})
	}
}

// prepareAhead starts preparing each change's source subtree in the
// background (prepareSource, a re-parse of the re-levelled text: most of
// what applying a change costs), for the placement the change would get
// in the base's tree as it is now, a few changes at a time, in plan
// order. The changes are applied one after another on the caller's
// goroutine; each takes its subtree from here when its placement turned
// out as predicted (prepareSource depends on nothing else), else prepares
// its own. The returned function waits for the background work.
func (r *run) prepareAhead(ctx context.Context) (wait func()) {
	r.ahead = make([]*preparedSource, len(r.in.Plan.Changes)+1)
	type job struct {
		c Change
		p *preparedSource
	}
	var todo []job // read by the background only: r.ahead's entries are taken as they are used
	for _, c := range r.in.Plan.Changes {
		if c.Approach == Restructure || c.Number < 1 || c.Number >= len(r.ahead) {
			continue
		}
		var target *node
		if !c.Target.IsZero() {
			k, ok := locate(r.in.Base, c.Target)
			if !ok || r.tree.byOrigin[k] == nil {
				continue
			}
			target = r.tree.byOrigin[k]
		} else if c.Approach != Append {
			continue
		}
		level, to, sep, _ := r.placement(c, target)
		p := &preparedSource{level: level, to: to, sep: sep, done: make(chan struct{})}
		r.ahead[c.Number] = p
		todo = append(todo, job{c, p})
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		var g errgroup.Group
		g.SetLimit(runtime.GOMAXPROCS(0))
		for _, j := range todo {
			c, p := j.c, j.p
			doc := r.sources[c.Source.Text]
			g.Go(func() error {
				defer close(p.done)
				if ctx.Err() == nil {
					p.root, p.from, p.err = prepareSource(c, doc, p.level, p.to, p.sep)
					p.ran = true
				}
				return nil
			})
		}
		_ = g.Wait()
	}()
	return func() { <-done }
}

// prepared returns prepareSource(c, …, level, to, sep): the subtree
// prepared ahead when it was prepared for that placement, else a new one.
func (r *run) prepared(c Change, level int, to, sep string) (*node, int, error) {
	if c.Number >= 1 && c.Number < len(r.ahead) {
		if p := r.ahead[c.Number]; p != nil {
			r.ahead[c.Number] = nil // a subtree is spliced once
			if p.level == level && p.to == to && p.sep == sep {
				<-p.done
				if p.ran {
					return p.root, p.from, p.err
				}
			}
		}
	}
	return prepareSource(c, r.sources[c.Source.Text], level, to, sep)
}

// prepareSource turns a change's source text into the subtree to splice:
// one section, headings re-levelled so the root sits at level and renumbered
// under "to", provenance-imitating comments neutralised, every section
// attributed to the change. It also returns the level the root had.
//
// doc is c's source text parsed, if the caller has it (see run.sources);
// nil, prepareSource parses it.
func prepareSource(c Change, doc *diff.Document, level int, to, sep string) (*node, int, error) {
	if doc == nil {
		var err error
		if doc, err = diff.Parse("source", []byte(c.Source.Text)); err != nil {
			return nil, 0, err
		}
	}
	if len(doc.Sections) == 0 {
		return nil, 0, fmt.Errorf("%s has no heading", c.Source.Section)
	}
	root := doc.Sections[0]
	if doc.FrontMatter != nil || strings.TrimSpace(doc.Source[:root.Span.Start]) != "" {
		return nil, 0, fmt.Errorf("%s has text before its heading", c.Source.Section)
	}
	if root.Span.End != len(doc.Source) {
		return nil, 0, fmt.Errorf("%s holds more than one section: %q follows it", c.Source.Section, doc.Sections[doc.SectionAt(root.Span.End)].Title)
	}
	delta := level - root.Level
	from, _, _, _ := refs.HeadingNumber(root.Title)
	var b strings.Builder
	b.Grow(len(doc.Source) + 64)
	pos := 0
	for i, s := range doc.Sections {
		nl := s.Level + delta
		if nl > 6 {
			return nil, 0, fmt.Errorf("%q would become H%d; headings stop at H6", s.Title, nl)
		}
		b.WriteString(doc.Source[pos:s.Heading.Start])
		b.WriteString(atxHeading(nl, renumber(atxText(doc.Text(s.Heading)), from, to, sep, i == 0)))
		pos = s.Heading.End
	}
	b.WriteString(doc.Source[pos:])
	text := strings.TrimRight(b.String(), "\n") + "\n\n"
	out, err := diff.Parse("source", []byte(text))
	if err != nil {
		return nil, 0, err
	}
	if len(out.Sections) != len(doc.Sections) || out.Sections[0].Span.End != len(out.Source) {
		return nil, 0, fmt.Errorf("%s changes structure when re-levelled", c.Source.Section)
	}
	if !headingFollows(out.Source + "\n") {
		return nil, 0, fmt.Errorf("%s ends inside an open code block or HTML block", c.Source.Section)
	}
	nodes := buildNodes(out, func(i int) Attribution {
		return Attribution{Origin: Incorporated, Variant: c.Source.Variant, Section: variantRef(c.Source.Section, doc, i), Change: c.Number}
	})
	nodes[0].parent = nil
	// the tree renders own text exactly; keep the blank line that ends the
	// subtree so the heading after it starts cleanly
	if last := nodes[0].last(); !strings.HasSuffix(last.own, "\n\n") {
		last.own = strings.TrimRight(last.own, "\n") + "\n\n"
	}
	return nodes[0], root.Level, nil
}

// variantRef is how section i of a source subtree is named in its
// variant: the root as the plan names it, the others by their explicit
// numbers or by their outline position under the root.
func variantRef(root SectionRef, doc *diff.Document, i int) SectionRef {
	if i == 0 {
		return root
	}
	s := doc.Sections[i]
	if n, _, _, ok := refs.HeadingNumber(s.Title); ok {
		return SectionRef{Number: n, Title: s.Title}
	}
	if root.Number == "" {
		return SectionRef{Title: s.Title}
	}
	rel := "." + s.Number
	if r := doc.Sections[0]; r.Number != "" {
		rel = strings.TrimPrefix(s.Number, r.Number)
	}
	return SectionRef{Number: root.Number + rel, Title: s.Title}
}

func levelNote(from, to int) string {
	if from == to {
		return fmt.Sprintf("headings kept at their levels (root H%d)", to)
	}
	return fmt.Sprintf("headings re-levelled by %+d (root H%d → H%d)", to-from, from, to)
}

// retitle gives a replace's target the heading the plan chose
// (Change.Heading), written as the source writes its title — code spans
// and emphasis kept.
func retitle(target *node, c Change) {
	heading := c.Heading
	old := atxText(target.heading)
	first, _, _ := strings.Cut(c.Source.Text, "\n")
	if raw, ok := replacedTitle(old, atxText(first)); ok {
		heading = raw
	}
	// an explicit anchor ("{#storage}") stays: references name it
	if i := strings.LastIndex(old, "{#"); i >= 0 && strings.HasSuffix(old, "}") {
		heading += " " + old[i:]
	}
	target.heading, target.title = atxHeading(target.level, heading), c.Heading
}
