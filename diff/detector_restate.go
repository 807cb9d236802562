package diff

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/llmjson"
)

// The model reads the variants a topic at a time, and a topic's request
// also carries the statements of other sections that name its
// identifiers; so one disagreement is often reported by two or three
// requests, each citing the statements it saw — "resume restores the
// agents from the state file, C refuses" from the fix's section, from
// the test plan and from the list of files changed. The lines differ, so
// the merge by cited lines (see conflictShape.restates) cannot tell, and
// the reader would get three rows for one conflict. When the requests
// found two contradictions or more, one more request shows the model the
// verified findings and asks which report the same disagreement; each
// group becomes one finding, citing every statement of its members, under
// the first member's subject. The library keeps a group only when its
// members are all between variants, or all inside the same variant. A
// failed or unusable answer leaves the findings as they were: the check
// only removes repetition, it finds nothing.

//go:embed prompts/restatements.tmpl
var restatementsTemplate string

// TagDetectorRestatements is the part tag (see [TagDetectorPart]) of the
// request that groups restated findings.
const TagDetectorRestatements = "restatements"

// WithDetectorRestatements turns the check for restated findings on or
// off (it is on): with several requests and two contradictions or more,
// one more request asks the model which findings report the same
// disagreement, and each group is reported once.
func WithDetectorRestatements(on bool) ModelDetectorOption {
	return func(m *ModelDetector) error { m.noRestatements = !on; return nil }
}

// restateReply is the reply: Groups is a pointer so that a reply without
// the field is told from one that found no repetition.
type restateReply struct {
	Groups *[]restateGroup `json:"groups"`
}

type restateGroup struct {
	Findings []string `json:"findings"`
	Subject  string   `json:"subject"`
}

// restateSchema is the reply's JSON schema, sent so that a server with
// structured output keeps to it.
var restateSchema = llmjson.Schema("restated_findings", restateReply{})

// restatementRequest builds the request that shows the verified
// contradictions; false when there is nothing to group.
func (m *ModelDetector) restatementRequest(ctx context.Context, in DetectInput, cs []verified) (provider.Request, bool, error) {
	if m.noRestatements || len(cs) < 2 {
		return provider.Request{}, false, nil
	}
	var b strings.Builder
	for i, f := range cs {
		variants := make([]string, 0, len(f.c.Claims))
		for _, v := range claimVariants(f.c.Claims) {
			variants = append(variants, Label(v))
		}
		scope := "between variants " + strings.Join(variants, ", ")
		if len(variants) == 1 {
			scope = "inside variant " + variants[0]
		}
		fmt.Fprintf(&b, "F%d (%s; %s): %s\n", i+1, f.c.Kind, scope, oneLine(f.c.Subject))
		for _, cl := range f.c.Claims {
			fmt.Fprintf(&b, "  - %s L%d: %s\n", Label(cl.Variant), cl.Line, clip(oneLine(cl.Text), 240))
		}
		fmt.Fprintf(&b, "  reason: %s\n", clip(oneLine(f.c.Reason), 400))
	}
	data := map[string]any{"Count": len(in.Documents), "Variants": variantLines(in.Documents), "Findings": b.String()}
	var sys, user strings.Builder
	if err := m.restate.ExecuteTemplate(&sys, "system", data); err != nil {
		return provider.Request{}, false, fmt.Errorf("diff: restatement prompt: %w", err)
	}
	if err := m.restate.ExecuteTemplate(&user, "user", data); err != nil {
		return provider.Request{}, false, fmt.Errorf("diff: restatement prompt: %w", err)
	}
	req := provider.Request{Model: m.model, System: strings.TrimSpace(sys.String()), MaxTokens: m.maxTokens,
		Temperature: provider.Temperature(0), Schema: restateSchema,
		Messages: []provider.Message{{Role: provider.RoleUser, Content: strings.TrimSpace(user.String())}},
		Tags: map[string]string{provider.TagStep: "diff", provider.TagRole: "contradiction-detector",
			TagDetectorPart: TagDetectorRestatements}}
	if estimateTokens(req.Prompt()) > m.budget {
		// no request exceeds the budget; the findings stay as found
		m.logger.DebugContext(ctx, "the check for restated findings is skipped: its request would exceed the input budget", "findings", len(cs), "budget", m.budget)
		return provider.Request{}, false, nil
	}
	return req, true, nil
}

// mergeRestatements asks which of the verified contradictions report the
// same disagreement and merges each group into its first member. Only a
// cancelled context is an error; a failed request leaves them apart.
func (m *ModelDetector) mergeRestatements(ctx context.Context, in DetectInput, v *verifier) error {
	req, ok, err := m.restatementRequest(ctx, in, v.contradictions)
	if err != nil || !ok {
		return err
	}
	var reply restateReply
	validate := func() error {
		if reply.Groups == nil {
			return errors.New(`the reply has no "groups" field; give it, as an empty list when no findings report the same disagreement`)
		}
		return nil
	}
	if _, err := llmjson.Ask(ctx, m.provider, req, &reply, validate); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("diff: model contradiction detector: %w", ctx.Err())
		}
		m.logger.WarnContext(ctx, "the check for restated findings failed; each finding is kept as found", "error", err)
		return nil
	}
	v.contradictions = groupRestatements(v.contradictions, *reply.Groups, func(msg string, args ...any) {
		m.logger.DebugContext(ctx, msg, args...)
	})
	return nil
}

// groupRestatements merges each valid group of cs into its first member,
// which then cites every statement its members cite and keeps its subject
// and reason, naming the others' subjects. A group is valid with two
// known findings or more, none taken by an earlier group, all between
// variants or all inside the same variant. The shapes of v (see keep) are
// not updated: nothing is added after this.
func groupRestatements(cs []verified, groups []restateGroup, debug func(string, ...any)) []verified {
	taken := make([]bool, len(cs))
	drop := make([]bool, len(cs))
	for _, g := range groups {
		var members []int
		for _, id := range g.Findings {
			var n int
			if _, err := fmt.Sscanf(strings.ToUpper(strings.TrimSpace(id)), "F%d", &n); err != nil || n < 1 || n > len(cs) || taken[n-1] || slices.Contains(members, n-1) {
				continue
			}
			members = append(members, n-1)
		}
		if len(members) < 2 {
			continue
		}
		slices.Sort(members)
		scope := cs[members[0]].c.Scope()
		intra := claimVariants(cs[members[0]].c.Claims)
		same := true
		for _, i := range members[1:] {
			if cs[i].c.Scope() != scope || scope == IntraVariant && !slices.Equal(claimVariants(cs[i].c.Claims), intra) {
				same = false
			}
		}
		if !same {
			debug("restated findings not merged: they mix findings inside one variant with others", "group", g.Findings)
			continue
		}
		first := &cs[members[0]]
		var also []string
		for _, i := range members[1:] {
			taken[i], drop[i] = true, true
			for _, cl := range cs[i].c.Claims {
				if !slices.ContainsFunc(first.c.Claims, func(c Claim) bool { return c.Variant == cl.Variant && c.Line == cl.Line }) {
					first.c.Claims = append(first.c.Claims, cl)
				}
			}
			also = append(also, fmt.Sprintf("%q", oneLine(cs[i].c.Subject)))
		}
		taken[members[0]] = true
		sortClaims(first.c.Claims)
		first.c.Reason += " (reported again as " + strings.Join(also, ", ") + ")"
		debug("restated findings merged", "into", first.c.Subject, "restated", also)
	}
	var out []verified
	for i, f := range cs {
		if !drop[i] {
			out = append(out, f)
		}
	}
	return out
}
