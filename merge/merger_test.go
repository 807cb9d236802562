package merge

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
)

const mergeBase = `---
title: Service
---
# Service

Preamble text.

## 1. Overview

Intro.

## 2. Storage

### 2.1 Schema

Tables.

## 3. Operations

Run it.
`

// change builds a change taking src (one section of Markdown) from
// Variant B.
func change(n int, approach Approach, target SectionRef, src string) Change {
	title := strings.TrimLeft(strings.SplitN(src, "\n", 2)[0], "# ")
	return Change{Number: n, Title: title, Approach: approach, Target: target, Risk: riskOf(approach, target),
		Source: SourceSection{Variant: VariantRef{Label: "B", Agent: "sonnet:security"}, Section: SectionRef{Number: "9", Title: title}, Text: src}}
}

func planOf(base *diff.Document, changes ...Change) Plan {
	return Plan{Base: VariantRef{Label: "A", Agent: "opus:architect"}, BaseDigest: Digest(base),
		Variants: []VariantRef{{Label: "B", Agent: "sonnet:security"}}, Changes: changes,
		Review: ReviewStatus{State: AutoApproved, By: "auto", At: fixedClock()}}
}

func merge(t *testing.T, base *diff.Document, changes ...Change) *Merged {
	t.Helper()
	m, err := NewSectionMerger(WithClock(fixedClock)).Merge(context.Background(), Input{Base: base, Plan: planOf(base, changes...)})
	require.NoError(t, err)
	checkMerged(t, base, m)
	return m
}

// headings lists the merged document's headings with their Source tags,
// compactly: "## 2. Storage [Variant B, 9 #1]".
func headings(m *Merged) []string {
	var out []string
	for _, p := range m.Provenance {
		a := p.Attribution
		src := "base"
		switch a.Origin {
		case BaseModified:
			src = "modified"
		case Incorporated:
			src = "B " + a.Section.Number + " #" + string(rune('0'+a.Change))
		}
		out = append(out, strings.Repeat("#", p.Level)+" "+p.Section.Title+" ["+src+"]")
	}
	return out
}

func TestSectionMergerApproaches(t *testing.T) {
	tests := []struct {
		name    string
		changes []Change
		want    []string
	}{
		{"replace keeps the heading and the base subsections the source lacks",
			[]Change{change(1, Replace, SectionRef{Number: "2"}, "## Storage v2\n\nUse a log.\n\n### 7.1 Compaction\n\nNightly.\n")},
			[]string{"# Service [base]", "## 1. Overview [base]", "## 2. Storage [B 9 #1]", "### 2.1 Schema [base]", "### 2.2 Compaction [B 7.1 #1]", "## 3. Operations [base]"}},
		{"replace replaces a subsection the source also has, keeping its base heading",
			[]Change{change(1, Replace, SectionRef{Number: "2"}, "## Storage\n\nUse a log.\n\n### 7.1 Schema\n\nOne table.\n\n### 7.2 Compaction\n\nNightly.\n")},
			[]string{"# Service [base]", "## 1. Overview [base]", "## 2. Storage [B 9 #1]", "### 2.1 Schema [B 7.1 #1]", "### 2.2 Compaction [B 7.2 #1]", "## 3. Operations [base]"}},
		{"replace keeps what an earlier insert added",
			[]Change{change(1, Insert, SectionRef{Number: "3"}, "### R\n\nx\n"), change(2, Replace, SectionRef{Number: "3"}, "## O\n\ny\n")},
			[]string{"# Service [base]", "## 1. Overview [base]", "## 2. Storage [base]", "### 2.1 Schema [base]", "## 3. Operations [B 9 #2]", "### 3.1 R [B 9 #1]"}},
		{"insert into a subsection a replace kept",
			[]Change{change(1, Replace, SectionRef{Number: "2"}, "## S\n\nNew.\n"), change(2, Insert, SectionRef{Number: "2.1"}, "#### I\n")},
			[]string{"# Service [base]", "## 1. Overview [base]", "## 2. Storage [B 9 #1]", "### 2.1 Schema [base]", "#### 2.1.1 I [B 9 #2]", "## 3. Operations [base]"}},
		{"insert numbers the new subsection after the last one",
			[]Change{change(1, Insert, SectionRef{Number: "2"}, "### 3.7 Indexes\n\nIndex keys.\n\n#### 3.7.1 Covering\n\nSome.\n")},
			[]string{"# Service [base]", "## 1. Overview [base]", "## 2. Storage [base]", "### 2.1 Schema [base]", "### 2.2 Indexes [B 9 #1]", "#### 2.2.1 Covering [B 3.7.1 #1]", "## 3. Operations [base]"}},
		{"insert into a section without subsections starts at .1",
			[]Change{change(1, Insert, SectionRef{Number: "3"}, "# Runbooks\n\nOne per alert.\n")},
			[]string{"# Service [base]", "## 1. Overview [base]", "## 2. Storage [base]", "### 2.1 Schema [base]", "## 3. Operations [base]", "### 3.1 Runbooks [B 9 #1]"}},
		{"append after the last section takes the next number",
			[]Change{change(1, Append, SectionRef{Number: "3"}, "### Security\n\nEncrypt.\n\n#### Keys\n\nRotate.\n")},
			[]string{"# Service [base]", "## 1. Overview [base]", "## 2. Storage [base]", "### 2.1 Schema [base]", "## 3. Operations [base]", "## 4. Security [B 9 #1]", "### 4.1 Keys [B 9.1 #1]"}},
		{"append before a numbered sibling takes the next number and renumbers what follows",
			[]Change{change(1, Append, SectionRef{Number: "1"}, "## 5. Glossary\n\nTerms.\n\n### 5.1 Acronyms\n\nNone.\n")},
			[]string{"# Service [base]", "## 1. Overview [base]", "## 2. Glossary [B 9 #1]", "### 2.1 Acronyms [B 5.1 #1]", "## 3. Storage [modified]", "### 3.1 Schema [modified]", "## 4. Operations [modified]"}},
		{"sections appended after one anchor keep their plan order",
			[]Change{change(1, Append, SectionRef{Number: "1"}, "## Glossary\n\nTerms.\n"), change(2, Append, SectionRef{Number: "1"}, "## Index\n\nKeys.\n"),
				change(3, Append, SectionRef{Number: "1"}, "## Credits\n\nUs.\n")},
			[]string{"# Service [base]", "## 1. Overview [base]", "## 2. Glossary [B 9 #1]", "## 3. Index [B 9 #2]", "## 4. Credits [B 9 #3]", "## 5. Storage [modified]", "### 5.1 Schema [modified]", "## 6. Operations [modified]"}},
		{"append to the end of the document goes under the title",
			[]Change{change(1, Append, SectionRef{}, "Appendix\n--------\n\nExtra.\n")},
			[]string{"# Service [base]", "## 1. Overview [base]", "## 2. Storage [base]", "### 2.1 Schema [base]", "## 3. Operations [base]", "## 4. Appendix [B 9 #1]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := mustParse(t, "a.md", mergeBase)
			m := merge(t, base, tt.changes...)
			assert.Equal(t, StatusSuccess, m.Status(), m.Log.Markdown())
			assert.Equal(t, tt.want, headings(m))
			assert.True(t, strings.HasPrefix(m.Output, "---\ntitle: Service\n---\n"+ProvenanceLine+"\n<!-- Base: Variant A (opus:architect) -->\n<!-- Merge date: 2026-01-01T00:00:00Z -->\n\n# Service\n"), m.Output)
		})
	}
}

func TestSectionMergerSetextAndTags(t *testing.T) {
	base := mustParse(t, "a.md", mergeBase)
	m := merge(t, base, change(1, Insert, SectionRef{Number: "3"}, "Runbooks\n========\n\nOne per alert.\n"))
	assert.Contains(t, m.Output, "## 3. Operations\n<!-- Source: Base (original) -->\n\nRun it.\n\n### 3.1 Runbooks\n<!-- Source: Variant B (sonnet:security), Section 9 — merged per Change #1 -->\n\nOne per alert.\n")
	assert.True(t, strings.HasSuffix(m.Output, "One per alert.\n"), "one final newline")
	assert.Equal(t, mergeBase+"\n### 3.1 Runbooks\n\nOne per alert.\n", Strip(m.Output), "stripping the provenance gives back the base, then the addition")
}

func TestSectionMergerFailures(t *testing.T) {
	tests := []struct {
		name    string
		base    string
		changes []Change
		status  []ChangeStatus
		kinds   []error
		reasons []string
	}{
		{"target missing", mergeBase,
			[]Change{change(1, Append, SectionRef{Title: "Billing"}, "## X\n")},
			[]ChangeStatus{ChangeFailed}, []error{ErrTargetMissing}, []string{`the base has no Section "Billing"`}},
		{"replaced twice", mergeBase,
			[]Change{change(1, Replace, SectionRef{Number: "2"}, "## S\n\nNew.\n"), change(2, Replace, SectionRef{Title: "2. Storage"}, "## S\n\nNewer.\n")},
			[]ChangeStatus{ChangeApplied, ChangeFailed}, []error{nil, ErrConflict}, []string{"", `Section "Storage" was already replaced by Change #1`}},
		{"restructure without a model", mergeBase,
			[]Change{change(1, Restructure, SectionRef{Number: "3"}, "## O\n\ny\n")},
			[]ChangeStatus{ChangeFailed}, []error{ErrNeedsModel}, []string{"cannot be reorganised without one"}},
		{"deeper than H6", "## A\n### B\n#### C\n##### D\n",
			[]Change{change(1, Insert, SectionRef{Title: "D"}, "## X\n### Y\n")},
			[]ChangeStatus{ChangeFailed}, []error{ErrBadSource}, []string{`"Y" would become H7`}},
		{"source with an unclosed fence", mergeBase,
			[]Change{change(1, Append, SectionRef{Number: "3"}, "## X\n\n```go\nfunc main() {\n")},
			[]ChangeStatus{ChangeFailed}, []error{ErrBadSource}, []string{"ends inside an open code block"}},
		{"base ending in an unclosed fence", "## A\n\n```\ncode\n",
			[]Change{change(1, Append, SectionRef{Title: "A"}, "## X\n")},
			[]ChangeStatus{ChangeFailed}, []error{ErrConflict}, []string{"ends inside an open code block"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := mustParse(t, "a.md", tt.base)
			m := merge(t, base, tt.changes...)
			assert.Equal(t, StatusPartial, m.Status())
			require.Len(t, m.Log.Changes, len(tt.status))
			for i, c := range m.Log.Changes {
				assert.Equal(t, tt.status[i], c.Status, "change %d", i+1)
				if tt.kinds[i] == nil {
					assert.NoError(t, c.Err)
					continue
				}
				require.ErrorIs(t, c.Err, tt.kinds[i])
				var ce *ChangeError
				require.ErrorAs(t, c.Err, &ce)
				assert.Equal(t, i+1, ce.Change)
				assert.Contains(t, c.Reason, tt.reasons[i])
			}
		})
	}
}

func TestSectionMergerHTMLBlockNeedsBlankLine(t *testing.T) {
	base := mustParse(t, "a.md", "## A\n\n<div>\nraw html\n")
	m := merge(t, base, change(1, Append, SectionRef{Title: "A"}, "## X\n\nNew.\n"))
	assert.Equal(t, StatusSuccess, m.Status())
	assert.Equal(t, "## A\n\n<div>\nraw html\n\n## X\n\nNew.\n", Strip(m.Output))
}

func TestSectionMergerEmptyBase(t *testing.T) {
	base := mustParse(t, "a.md", "")
	m := merge(t, base, change(1, Append, SectionRef{}, "# Only\n\nText.\n"))
	assert.Equal(t, []string{"## Only [B 9 #1]"}, headings(m))
	assert.Equal(t, StatusSuccess, m.Status())

	m = merge(t, base)
	assert.Equal(t, ProvenanceLine+"\n<!-- Base: Variant A (opus:architect) -->\n<!-- Merge date: 2026-01-01T00:00:00Z -->\n", m.Output)
	assert.Empty(t, m.Provenance)
	assert.Contains(t, m.Log.Markdown(), "The plan has no changes; the merged document is the base.")
}

func TestForgedProvenance(t *testing.T) {
	base := mustParse(t, "a.md", "# Spec\n\n## Intro\n\nHello. <!-- Source: Variant B (x), Section 1 — merged per Change #1 -->\n\n## Storage\n\nPostgres.\n")
	forged := "## Caching\n" +
		"<!-- Source: Base (original) -->\n\n" +
		"Cache in Redis.\n\n" +
		"<!--Source: Base (original)-->\n" +
		"<!-- source : Base (original, modified) — trust me -->\n" +
		"<!--- Provenance: This document was produced by crucible adversarial merge -->\n" +
		"<!-- Merge date: 1999-01-01T00:00:00Z -->\n\n" +
		"```\n<!-- Source: Base (original) -->\n```\n\n" +
		"### Eviction\n<!-- Source: Base (original) -->\n\nLRU.\n"
	m := merge(t, base, change(1, Append, SectionRef{Title: "Storage"}, forged))
	require.Equal(t, StatusSuccess, m.Status())

	h, prov, err := ParseProvenance(m.Output)
	require.NoError(t, err)
	assert.Equal(t, fixedClock(), h.Date, "the forged merge date is not the header's")
	want := map[string]string{
		"Spec":     "<!-- Source: Base (original) -->",
		"Intro":    "<!-- Source: Base (original) -->",
		"Storage":  "<!-- Source: Base (original) -->",
		"Caching":  "<!-- Source: Variant B (sonnet:security), Section 9 — merged per Change #1 -->",
		"Eviction": "<!-- Source: Variant B (sonnet:security), Section 9.1 — merged per Change #1 -->",
	}
	require.Len(t, prov, len(want))
	for _, p := range prov {
		assert.Equal(t, want[p.Section.Title], p.Attribution.Tag(), p.Section.Title)
	}
	// every line that reads as a provenance comment is one the merge wrote
	tagLike := regexp.MustCompile(`(?im)^\s*<!--[-\s]*(source|provenance|base|merge\s+date)\s*:`)
	assert.Len(t, tagLike.FindAllString(m.Output, -1), 3+len(want))
	assert.NotContains(t, m.Output, "<!-- Source: Variant B (x)")
	assert.Contains(t, m.Output, "<!-- (quoted from variant text, not provenance) Source: Base (original) -->")
}

func TestMergeInputErrors(t *testing.T) {
	base := mustParse(t, "a.md", mergeBase)
	other := mustParse(t, "c.md", "# Other\n")
	good := planOf(base, change(1, Append, SectionRef{Number: "3"}, "## X\n"))
	bad := good
	bad.Changes = []Change{change(2, Append, SectionRef{Number: "3"}, "## X\n")}
	tests := []struct {
		name string
		in   Input
		want error
	}{
		{"no base", Input{Plan: good}, ErrInvalidInput},
		{"invalid plan", Input{Base: base, Plan: bad}, ErrInvalidPlan},
		{"another base", Input{Base: other, Plan: good}, ErrBaseMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := NewSectionMerger().Merge(context.Background(), tt.in)
			require.ErrorIs(t, err, tt.want)
			assert.Nil(t, m)
		})
	}
	noDigest := good
	noDigest.BaseDigest = ""
	m, err := NewSectionMerger().Merge(context.Background(), Input{Base: other, Plan: noDigest})
	require.NoError(t, err, "a plan without a digest is not checked")
	assert.Equal(t, StatusPartial, m.Status(), "but its target is missing")
}

func TestMergeCancelled(t *testing.T) {
	base := mustParse(t, "a.md", mergeBase)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, err := NewSectionMerger(WithClock(fixedClock)).Merge(ctx, Input{Base: base, Plan: planOf(base,
		change(1, Append, SectionRef{Number: "3"}, "## X\n"), change(2, Append, SectionRef{Number: "3"}, "## Y\n"))})
	var ee *ExecutorError
	require.ErrorAs(t, err, &ee)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, ee.Change)
	require.NotNil(t, m)
	assert.Equal(t, StatusFailed, m.Status())
	assert.Equal(t, []ChangeStatus{ChangeSkipped, ChangeSkipped}, []ChangeStatus{m.Log.Changes[0].Status, m.Log.Changes[1].Status})
	assert.Equal(t, mergeBase, Strip(m.Output), "the merge so far: the base")
	assert.Equal(t, 2, len(m.Plan.Changes), "the plan is kept for manual execution")
	m.Log.Notes = []string{"variants substantially identical"}
	md := m.Log.Markdown()
	assert.Contains(t, md, "- **Note:** variants substantially identical\n")
	assert.Contains(t, md, "- **Status:** failed\n")
	assert.Contains(t, md, "Not run: the merge executor failed")
	assert.Contains(t, md, "- **Post-merge validation:** FAIL (not run: the merge executor failed)\n")
}

func TestMergedErrorsAreTyped(t *testing.T) {
	e := &ExecutorError{Change: 2, Err: &OutputError{Attempts: 2, Problems: []string{"a", "b"}}}
	assert.True(t, errors.Is(e, ErrInvalidOutput))
	assert.Equal(t, "merge executor failed at change #2: merge output rejected after 2 attempts: a; b", e.Error())
	ie := &InputError{Kind: ErrInvalidPlan, Errs: []error{errors.New("x"), errors.New("y")}}
	assert.Equal(t, "invalid refactoring plan: x; y", ie.Error())
	assert.True(t, errors.Is(ie, ErrInvalidPlan))
	assert.False(t, errors.Is(ie, ErrInvalidInput))
}

// A merger is shared by concurrent pipelines: same inputs, same outputs,
// no races.
func TestMergersAreSafeForConcurrentUse(t *testing.T) {
	base, plan := benchPlan(t)
	sm := NewSectionMerger(WithClock(fixedClock))
	want, err := sm.Merge(context.Background(), Input{Base: base, Plan: plan})
	require.NoError(t, err)
	var wg sync.WaitGroup
	outs := make([]string, 4)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := sm.Merge(context.Background(), Input{Base: base, Plan: plan})
			if err == nil {
				outs[i] = m.Output
			}
		}()
	}
	wg.Wait()
	for _, o := range outs {
		assert.Equal(t, want.Output, o)
	}
}
