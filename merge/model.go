package merge

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"text/template"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/prompt"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/llmjson"
)

//go:embed prompts/merge.tmpl
var promptText string

// PromptData is what the "change" template receives.
type PromptData struct {
	Number      int
	Title       string
	Approach    Approach
	Rationale   string
	Base        string // "Variant A (opus:architect)"
	Variant     string // the source variant
	Level       int    // heading level of the result's root
	TargetTitle string
	Removes     []string
	// Tags are the provenance tags the reply may use, one per line.
	Tags []string
	// Target and Source are untrusted texts, already inside their
	// delimiters; a template must not unwrap them.
	Target string
	Source string
	// Details holds Title, TargetTitle and Rationale inside delimiters:
	// they quote variant headings and statements, so a template shows
	// them only this way.
	Details string
	// Document is the base document as it was before the merge and Plan the
	// refactoring plan (refactor-plan.md) — the merge executor's two inputs
	// — each inside its delimiters (both quote variant text). They are the
	// same for every change, so the optional "context" template that shows
	// them is sent first, as a prefix the vendors can cache.
	Document string
	Plan     string
}

// RetryData is what the "retry" template receives.
type RetryData struct {
	Problems []string
}

// ModelMerger is the model-backed merger: it sends restructure changes (or,
// with [WithAllChanges], every change) to a model acting as the merge
// executor, one change per call, and splices the other changes as
// [SectionMerger] does.
//
// A reply is validated before it is used: one section at the expected
// level, the target's heading kept, every base heading under the target
// kept unless the change lists it in Removes, exactly one allowed
// provenance tag after every heading, and a "Base (original)" tag only on
// text that is the base's byte for byte. Each change gets one retry: an
// invalid (or truncated) reply is sent back once with the problems, a
// retryable provider error (rate limit, outage, timeout) is asked again;
// authentication and invalid-request errors and refusals are not
// retried. A change still failing is the error matrix's merge-executor
// failure for that change only: the section merger applies it instead,
// or — a restructure, which needs the model — it is skipped and listed
// for manual execution; [Merged.Fallbacks] holds each with its cause
// ([*OutputError] or the provider's error) and the merge goes on. Only a
// cancelled context ends the merge failed ([*ExecutorError]).
type ModelMerger struct {
	p    provider.Provider
	cfg  *config
	tmpl *template.Template
}

var _ Merger = (*ModelMerger)(nil)

// NewModelMerger returns a model merger calling p. It honours every
// [Option]; it fails when p is nil or the prompt of [WithPrompts]
// lacks "system", "change" or "retry".
func NewModelMerger(p provider.Provider, opts ...ModelOption) (*ModelMerger, error) {
	if p == nil {
		return nil, errors.New("merge: NewModelMerger needs a provider")
	}
	cfg := newModelConfig(opts)
	text, _, err := prompt.Override(cfg.prompts, "merge.tmpl", promptText)
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	t, err := prompt.Parse("merge", text)
	if err != nil {
		return nil, fmt.Errorf("merge: prompt merge.tmpl: %w", err)
	}
	if err := prompt.Require(t, "merge.tmpl", "system", "change", "retry"); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	return &ModelMerger{p: p, cfg: cfg, tmpl: t}, nil
}

// Merge implements [Merger].
func (m *ModelMerger) Merge(ctx context.Context, in Input) (*Merged, error) {
	executor := fmt.Sprintf("model merger (%s) for restructures, section merger for the rest", m.cfg.model)
	if m.cfg.all {
		executor = fmt.Sprintf("model merger (%s) for every change", m.cfg.model)
	}
	return execute(ctx, m.cfg, in, executor, m)
}

// expectation is what a valid reply for one change looks like.
type expectation struct {
	change   Change
	level    int
	title    string           // the root's title, for replace and restructure
	base     map[string]*node // base sections under the target, by title
	allowed  map[string]bool  // incorporated tags the reply may use
	modified bool             // "Base (original, modified)" allowed
}

func (m *ModelMerger) apply(ctx context.Context, r *run, c Change, target *node, res ChangeResult) (ChangeResult, error) {
	level, to, sep, parent := r.placement(c, target)
	src, _, err := prepareSource(c, r.sources[c.Source.Text], level, to, sep)
	if err != nil {
		return failChange(res, ErrBadSource, "%v", err), nil
	}
	exp := expectation{change: c, level: level, base: map[string]*node{}, allowed: map[string]bool{}}
	src.walk(func(n *node) { exp.allowed[n.attr.Tag()] = true })
	rewrites := c.Approach == Replace || c.Approach == Restructure
	targetText, targetTitle := "(the end of the document)", "end of document"
	if target != nil {
		targetText, targetTitle = tagged(target), target.title
	}
	if rewrites {
		exp.title = target.title
		for _, k := range target.kids {
			k.walk(func(n *node) {
				if n.origin >= 0 {
					exp.base[titleKey(n.title)] = n
				} else if n.attr.Origin == Incorporated {
					exp.allowed[n.attr.Tag()] = true
				}
			})
		}
		if target.origin >= 0 {
			exp.base[titleKey(target.title)] = target
		}
		exp.modified = c.Approach == Restructure
	}
	data := PromptData{
		Number: c.Number, Title: c.Title, Approach: c.Approach, Rationale: c.Rationale.String(),
		Base: r.in.Plan.Base.String(), Variant: c.Source.Variant.String(), Level: level, TargetTitle: targetTitle,
		Removes: c.Removes,
		Target:  untrusted("TARGET", targetText),
		Source:  untrusted("SOURCE", tagged(src)),
	}
	data.Details = untrusted("CHANGE", fmt.Sprintf("Title: %s\nTarget section: %s\nRationale: %s", c.Title, targetTitle, data.Rationale))
	if exp.modified {
		target.walk(func(n *node) {
			if n.attr.Origin == BaseOriginal {
				exp.allowed[n.attr.Tag()] = true
			}
		})
	}
	data.Tags = sortedTags(exp)
	system, err := m.exec("system", data)
	if err != nil {
		return res, err
	}
	body, err := m.exec("change", data)
	if err != nil {
		return res, err
	}
	msgs := []provider.Message{{Role: provider.RoleUser, Content: body}}
	if m.tmpl.Lookup("context") != nil {
		data.Document = untrusted("BASE DOCUMENT", r.in.Base.Source)
		data.Plan = untrusted("PLAN", r.plan())
		shared, err := m.exec("context", data)
		if err != nil {
			return res, err
		}
		// The base document is the same for every change the model
		// makes: first, and marked when more than one call shares it and
		// it is long enough for a vendor to cache.
		first := provider.Message{Role: provider.RoleUser, Content: shared}
		first.Cache = r.modelCalls() > 1 && provider.Cacheable(system, first)
		msgs = []provider.Message{first, msgs[0]}
	}
	limit, temp := m.cfg.maxToks, provider.Temperature(0)
	if !m.cfg.fixedMax {
		limit = ChangeMaxTokens(len(targetText) + len(data.Source))
	}
	if m.cfg.temperature != nil {
		temp = m.cfg.temperature
	}
	req := provider.Request{
		Model:       m.cfg.model,
		System:      system,
		Messages:    msgs,
		MaxTokens:   limit,
		Temperature: temp,
		Tags: map[string]string{provider.TagStep: "merge", provider.TagRole: "merge-executor",
			provider.TagVariant: c.Source.Variant.Label},
	}
	var first []string
	for attempt := 1; ; attempt++ {
		// One retry per change: after a retryable error the same request
		// again, after unusable output the problems; an error no retry
		// can mend (authentication, an invalid request, a refusal) ends
		// the change's attempts at once.
		resp, err := llmjson.Complete(ctx, m.p, req)
		if err != nil && !errors.Is(err, llmjson.ErrInvalidReply) {
			if attempt == 1 && llmjson.Retryable(err) && ctx.Err() == nil {
				req = llmjson.Retry(req, err)
				continue
			}
			res.Attempts = attempt
			return res, &ExecutorError{Change: c.Number, Err: err}
		}
		var out *node
		var problems []string
		if err != nil {
			problems = []string{err.Error()}
		} else {
			out, problems = checkReply(resp.Text, exp, target)
		}
		if len(problems) == 0 {
			res.Attempts = attempt
			return r.applyModel(c, target, parent, out, res, first)
		}
		m.cfg.logger.DebugContext(ctx, "merge output rejected", "change", c.Number, "attempt", attempt, "problems", problems)
		var re *llmjson.ReplyError
		if attempt == 2 || errors.As(err, &re) && re.Refusal {
			res.Attempts = attempt
			res.Validation = fmt.Sprintf("❌ model output rejected %s: %s", times(attempt), strings.Join(problems, "; "))
			return res, &ExecutorError{Change: c.Number, Err: &OutputError{Attempts: attempt, Problems: problems}}
		}
		first = problems
		retry, rerr := m.exec("retry", RetryData{Problems: problems})
		if rerr != nil {
			return res, rerr
		}
		next := llmjson.Retry(req, err)
		next.Messages = append(append([]provider.Message(nil), req.Messages...),
			provider.Message{Role: provider.RoleAssistant, Content: resp.Text},
			provider.Message{Role: provider.RoleUser, Content: retry})
		req = next
	}
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return "twice"
}

// tagged renders n's subtree with its Source tags.
func tagged(n *node) string {
	var b strings.Builder
	n.render(&b, true)
	return b.String()
}

func sortedTags(exp expectation) []string {
	var tags []string
	// base tag first, then the others in a fixed order
	if exp.allowed[Attribution{Origin: BaseOriginal}.Tag()] {
		tags = append(tags, Attribution{Origin: BaseOriginal}.Tag())
	}
	var rest []string
	for t := range exp.allowed {
		if t != (Attribution{Origin: BaseOriginal}).Tag() {
			rest = append(rest, t)
		}
	}
	slices.Sort(rest)
	tags = append(tags, rest...)
	if exp.modified {
		tags = append(tags, "<!-- Source: Base (original, modified) — <reason in a few words> -->")
	}
	return tags
}

func (m *ModelMerger) exec(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := m.tmpl.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("merge prompt %q: %w", name, err)
	}
	return b.String(), nil
}

// untrusted wraps text in markers it cannot contain: the markers carry a
// digest of the text, so no text can close its own block early.
func untrusted(name, text string) string {
	sum := sha256.Sum256([]byte(text))
	id := hex.EncodeToString(sum[:6])
	return fmt.Sprintf("<<<UNTRUSTED %s %s\n%s\nUNTRUSTED %s %s>>>", name, id, strings.TrimRight(text, "\n"), name, id)
}

var (
	blankRunRE = regexp.MustCompile(`\n{3,}`)
	tagOnlyRE  = regexp.MustCompile(`(?m)^<!-- Source: .* -->\n?`)
)

// extractMarkdown returns the Markdown of the reply — the body of its
// markdown fence, or a bare section from its first heading — read by
// llmjson.Markdown with goldmark, so a code block inside the section is
// content, never the reply's fence; "" when the reply holds none.
func extractMarkdown(reply string) string {
	md, _ := llmjson.Markdown(reply)
	return md
}

// checkReply validates a model reply against exp and builds the subtree
// it describes. Sections tagged "Base (original)" take the base's exact
// text, so they stay byte-identical.
func checkReply(reply string, exp expectation, target *node) (*node, []string) {
	md := extractMarkdown(reply)
	if strings.TrimSpace(md) == "" {
		return nil, []string{"the reply holds no fenced markdown block"}
	}
	d, err := diff.Parse("reply", []byte(md))
	if err != nil {
		return nil, []string{"the reply is not Markdown: " + err.Error()}
	}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if len(d.Sections) == 0 {
		return nil, []string{"the reply has no heading"}
	}
	root := d.Sections[0]
	if d.FrontMatter != nil || strings.TrimSpace(d.Source[:root.Span.Start]) != "" {
		bad("the reply has text before its first heading")
	}
	if root.Level != exp.level {
		bad("the first heading %q is H%d; it must be H%d", root.Title, root.Level, exp.level)
	}
	if root.Span.End != len(d.Source) {
		bad("the reply holds more than one section: %q is not under %q", d.Sections[d.SectionAt(root.Span.End)].Title, root.Title)
	}
	if exp.title != "" && normTitle(root.Title) != normTitle(exp.title) {
		bad("the first heading must stay %q, not %q", exp.title, root.Title)
	}
	if !headingFollows(d.Source + "\n") {
		bad("the reply ends inside an open code block or HTML block")
	}

	nodes := make([]*node, len(d.Sections))
	titles := map[string]bool{}
	for i, s := range d.Sections {
		titles[titleKey(s.Title)] = true
		if s.Parent >= 0 && s.Level != d.Sections[s.Parent].Level+1 {
			bad("%q is H%d under H%d %q; subsections go exactly one level down", s.Title, s.Level, d.Sections[s.Parent].Level, d.Sections[s.Parent].Title)
		}
		own := d.Text(ownSpan(d, i))
		var tags []string
		for _, line := range strings.Split(own, "\n") {
			if tagLineRE.MatchString(line) {
				tags = append(tags, line)
			}
		}
		if len(tags) != 1 {
			bad("%q has %d provenance tags; put exactly one on the line after the heading", s.Title, len(tags))
			continue
		}
		attr, ok := parseTag(strings.TrimSuffix(strings.TrimPrefix(tags[0], "<!-- Source: "), " -->"))
		if !ok {
			bad("%q has a malformed tag %s", s.Title, tags[0])
			continue
		}
		own = tagOnlyRE.ReplaceAllString(own, "")
		if strings.HasPrefix(own, "\n\n") {
			own = own[1:]
		}
		n := &node{level: s.Level, title: s.Title, heading: neutralise(d.Text(s.Heading)), own: neutralise(own), attr: attr, origin: -1}
		switch attr.Origin {
		case BaseOriginal:
			b := exp.base[titleKey(s.Title)]
			if b == nil {
				bad("%q is tagged Base (original) but the target has no base section with that title", s.Title)
				continue
			}
			if squeeze(n.heading+"\n"+n.own) != squeeze(b.heading+"\n"+b.own) {
				bad("%q is tagged Base (original) but its text differs from the base; tag it %q", s.Title, "<!-- Source: Base (original, modified) — <reason> -->")
				continue
			}
			n.heading, n.own, n.origin = b.heading, b.own, b.origin
		case BaseModified:
			b := exp.base[titleKey(s.Title)]
			switch {
			case !exp.modified:
				bad("%q is tagged Base (original, modified); a %s takes its text from the source only", s.Title, exp.change.Approach)
				continue
			case b == nil:
				bad("%q is tagged Base (original, modified) but the target has no base section with that title", s.Title)
				continue
			}
			n.origin = b.origin
		default:
			if !exp.allowed[attr.Tag()] {
				bad("%q has the tag %s, which is not one of the allowed tags", s.Title, attr.Tag())
				continue
			}
		}
		nodes[i] = n
	}
	if exp.change.Approach == Restructure {
		removes := map[string]bool{}
		for _, r := range exp.change.Removes {
			removes[titleKey(r)] = true
		}
		for _, k := range target.kids {
			k.walk(func(n *node) {
				kept := n.origin >= 0 || n.attr.Origin == Incorporated // base text, or an earlier change's
				if t := titleKey(n.title); kept && !titles[t] && !removes[t] {
					bad("the heading %q is missing; the plan does not remove it", n.title)
				}
			})
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	for i, s := range d.Sections {
		for _, c := range s.Children {
			nodes[c].parent = nodes[i]
			nodes[i].kids = append(nodes[i].kids, nodes[c])
		}
	}
	out := nodes[0]
	if last := out.last(); !strings.HasSuffix(last.own, "\n\n") && last.origin < 0 {
		last.own = strings.TrimRight(last.own, "\n") + "\n\n"
	}
	return out, nil
}

// titleKey identifies a section of the target by its title without its
// number, so a restructure may renumber what it moves.
func titleKey(title string) string { return normTitle(refs.StripNumber(title)) }

// squeeze compares texts up to runs of blank lines and trailing newlines.
func squeeze(s string) string {
	return strings.TrimRight(blankRunRE.ReplaceAllString(s, "\n\n"), "\n")
}

// applyModel splices a validated reply into the tree.
func (r *run) applyModel(c Change, target, parent, out *node, res ChangeResult, first []string) (ChangeResult, error) {
	before := ""
	if c.Approach == Replace || c.Approach == Restructure {
		before = target.text()
		r.discard(target, c.Number)
		target.own, target.kids, target.attr, target.replacedBy = out.own, out.kids, out.attr, c.Number
		for _, k := range target.kids {
			k.parent = target
		}
		target.walk(func(n *node) {
			if n.origin >= 0 {
				r.tree.byOrigin[n.origin], r.tree.removedBy[n.origin] = n, 0
			}
		})
	} else if err := r.splice(c, target, parent, out); err != nil {
		return failChange(res, ErrConflict, "%v", err), nil
	}
	after := out.text()
	if c.Approach == Replace || c.Approach == Restructure {
		after = target.text()
	}
	res.Status = ChangeApplied
	res.diffExcerpts(before, after)
	res.Tag = out.attr.Tag()
	res.Validation = fmt.Sprintf("✅ model output valid on attempt %d", res.Attempts)
	if len(first) > 0 {
		res.Validation += " (attempt 1 rejected: " + strings.Join(first, "; ") + ")"
	}
	return res, nil
}
