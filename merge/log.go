package merge

import (
	"fmt"
	"strings"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// ChangeStatus is what happened to one change.
type ChangeStatus string

// The change statuses of the merge log.
const (
	ChangeApplied ChangeStatus = "Applied"
	// Failed: the change could not be applied (its target is missing, it
	// conflicts with an earlier change, its source cannot be merged), or
	// the executor failed on it.
	ChangeFailed ChangeStatus = "Failed"
	// Skipped: the change was not attempted because the executor had
	// already failed.
	ChangeSkipped ChangeStatus = "Skipped"
)

// ChangeResult is the merge log's entry for one change.
type ChangeResult struct {
	Change   int          `json:"change"`
	Title    string       `json:"title"`
	Approach Approach     `json:"approach"`
	Status   ChangeStatus `json:"status"`
	Source   string       `json:"source"` // variant and section
	Target   string       `json:"target"` // base section
	// Before and After are the lines the change removed and added
	// (compacted: at most 12 non-blank lines each); Removed and Added count
	// them all.
	Before  string `json:"before,omitempty"`
	After   string `json:"after,omitempty"`
	Removed int    `json:"removed"`
	Added   int    `json:"added"`
	Tag     string `json:"tag,omitempty"` // the provenance tag of the incorporated root
	// Validation is the change's own check, e.g. "✅ model output valid on
	// attempt 1".
	Validation string `json:"validation"`
	Reason     string `json:"reason,omitempty"` // why it failed or was skipped
	Attempts   int    `json:"attempts,omitempty"`
	// Err is the typed error behind a failure: a [*ChangeError] or an
	// [*ExecutorError].
	Err error `json:"-"`
}

// Log is the merge log (merge-log.md).
type Log struct {
	Base     VariantRef `json:"base"`
	Executor string     `json:"executor"`
	Time     time.Time  `json:"time"`
	Status   Status     `json:"status"`
	Failure  string     `json:"failure,omitempty"` // the executor failure, when failed
	// Notes are remarks the pipeline adds before rendering, such as
	// "variants substantially identical" when the debate was skipped.
	Notes   []string       `json:"notes,omitempty"`
	Changes []ChangeResult `json:"changes"`
	// ValuesNotTaken are the losing values of the plan's resolved
	// conflicts, with their source and why another won.
	ValuesNotTaken []Rejection `json:"values_not_taken,omitempty"`
	// Amendments are the edits of the base's own text that state
	// conflicts' winning values.
	Amendments []AmendmentResult `json:"amendments,omitempty"`
	// Recounts are the counts of a table's rows the merge restated from
	// the table, which it changed or brought (see Recounted).
	Recounts   []Recounted `json:"recounts,omitempty"`
	Validation Validation  `json:"validation"`
	// Reasons says why the merge is partial: the changes that did not
	// apply and the checks that failed. Empty on success.
	Reasons []string `json:"reasons,omitempty"`
}

func (l Log) count(s ChangeStatus) int {
	n := 0
	for _, c := range l.Changes {
		if c.Status == s {
			n++
		}
	}
	return n
}

// Count returns the number of changes with status s.
func (l Log) Count(s ChangeStatus) int { return l.count(s) }

const excerptLines = 12

// diffExcerpts fills Before, After, Removed and Added from a line diff of
// the change's region before and after it.
func (r *ChangeResult) diffExcerpts(before, after string) {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // never cut a diff short by the clock: same inputs, same log
	a, b, lines := dmp.DiffLinesToRunes(before, after)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), lines)
	var rm, add []string
	for _, d := range diffs {
		ls := strings.SplitAfter(d.Text, "\n")
		if ls[len(ls)-1] == "" {
			ls = ls[:len(ls)-1]
		}
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			rm = append(rm, ls...)
		case diffmatchpatch.DiffInsert:
			add = append(add, ls...)
		}
	}
	r.Removed, r.Added = countContent(rm), countContent(add)
	r.Before, r.After = excerpt(rm), excerpt(add)
}

func countContent(lines []string) int {
	n := 0
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

// excerpt joins the non-blank lines, at most excerptLines of them.
func excerpt(lines []string) string {
	var keep []string
	n := 0
	for _, l := range lines {
		l = strings.TrimRight(l, "\n")
		if strings.TrimSpace(l) == "" {
			continue
		}
		n++
		if len(keep) < excerptLines {
			keep = append(keep, l)
		}
	}
	if n > len(keep) {
		keep = append(keep, fmt.Sprintf("… (%d more lines)", n-len(keep)))
	}
	return strings.Join(keep, "\n")
}

// Markdown renders merge-log.md as ARTIFACTS.md lays it out.
func (l Log) Markdown() string {
	var b strings.Builder
	b.WriteString("# Merge Execution Log\n\n## Metadata\n\n")
	fmt.Fprintf(&b, "- **Base:** %s\n", mdInline(l.Base.String()))
	fmt.Fprintf(&b, "- **Executor:** %s\n", mdInline(l.Executor))
	fmt.Fprintf(&b, "- **Changes applied:** %d of %d\n", l.count(ChangeApplied), len(l.Changes))
	fmt.Fprintf(&b, "- **Status:** %s\n", l.Status)
	for _, r := range l.Reasons {
		fmt.Fprintf(&b, "- **Partial because:** %s\n", mdInline(r))
	}
	fmt.Fprintf(&b, "- **Timestamp:** %s\n", l.Time.UTC().Format(time.RFC3339))
	for _, n := range l.Notes {
		fmt.Fprintf(&b, "- **Note:** %s\n", mdInline(n))
	}
	if l.Failure != "" {
		fmt.Fprintf(&b, "- **Failure:** %s. The base, the plan and the merge so far are preserved; apply the rest of refactor-plan.md by hand.\n", mdInline(l.Failure))
	}

	b.WriteString("\n## Changes Applied\n")
	if len(l.Changes) == 0 {
		b.WriteString("\nThe plan has no changes; the merged document is the base.\n")
	}
	for _, c := range l.Changes {
		fmt.Fprintf(&b, "\n### Change %d\n\n", c.Change)
		fmt.Fprintf(&b, "- **Status:** %s\n", c.Status)
		fmt.Fprintf(&b, "- **Source:** %s\n", mdInline(c.Source))
		fmt.Fprintf(&b, "- **Target:** %s (%s)\n", mdInline(c.Target), c.Approach)
		switch {
		case c.Status != ChangeApplied:
			b.WriteString("- **Before:** unchanged\n- **After:** unchanged\n")
		default:
			writeExcerpt(&b, "Before", c.Before, c.Removed, "nothing: new section")
			writeExcerpt(&b, "After", c.After, c.Added, "nothing")
		}
		if c.Tag != "" {
			fmt.Fprintf(&b, "- **Provenance tag:** %s\n", mdCode(c.Tag))
		} else {
			b.WriteString("- **Provenance tag:** none\n")
		}
		fmt.Fprintf(&b, "- **Validation:** %s\n", mdInline(c.Validation))
	}

	if len(l.ValuesNotTaken) > 0 {
		b.WriteString("\n## Values Not Taken\n\nWhere the variants gave different values, the merged document states one; these are the others.\n\n")
		b.WriteString("| Point | Value not taken | Why |\n|---|---|---|\n")
		writeRejections(&b, l.ValuesNotTaken)
	}
	if len(l.Amendments) > 0 {
		b.WriteString("\n## Resolved Values\n\nThe base stated values other variants won; its text was amended to state the winners.\n")
		for i, a := range l.Amendments {
			fmt.Fprintf(&b, "\n### Amendment %d: %s\n\n", i+1, mdInline(a.Amendment.Subject))
			fmt.Fprintf(&b, "- **Before:** %s\n- **After:** %s\n- **Rule:** %s\n- **Result:** %s\n",
				mdInline(a.Amendment.Old), mdInline(a.Amendment.New), mdInline(a.Amendment.Rule), mdInline(a.Note))
		}
	}

	if len(l.Recounts) > 0 {
		b.WriteString("\n## Recounted Tallies\n\nA sentence counted the rows of a table the merge changed or brought otherwise than the table does; it now gives the table's count.\n\n")
		b.WriteString("| Section | Before | After | Why |\n|---|---|---|---|\n")
		for _, rc := range l.Recounts {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdCell(rc.Section), mdCell(rc.Before), mdCell(rc.After), mdCell(rc.Reason))
		}
	}

	b.WriteString("\n## Post-Merge Validation\n")
	v := l.Validation
	if v.NotRun != "" {
		fmt.Fprintf(&b, "\nNot run: %s.\n", mdInline(v.NotRun))
	} else {
		writeValidation(&b, v)
	}

	b.WriteString("\n## Summary\n\n")
	fmt.Fprintf(&b, "- **Planned:** %d\n- **Applied:** %d\n- **Failed:** %d\n- **Skipped:** %d\n",
		len(l.Changes), l.count(ChangeApplied), l.count(ChangeFailed), l.count(ChangeSkipped))
	verdict := "FAIL"
	switch {
	case v.NotRun != "":
		verdict = "FAIL (not run: the merge executor failed)"
	case v.Passed() && v.Rescan.State == RescanNotRun:
		verdict = "PASS (contradiction re-scan not run)"
	case v.Passed():
		verdict = "PASS"
	}
	fmt.Fprintf(&b, "- **Post-merge validation:** %s\n", verdict)
	return b.String()
}

func writeExcerpt(b *strings.Builder, label, text string, n int, empty string) {
	if text == "" {
		fmt.Fprintf(b, "- **%s:** %s\n", label, empty)
		return
	}
	fmt.Fprintf(b, "- **%s:** %d line%s\n\n%s\n", label, n, plural(n), indentFence(text))
}

func writeValidation(b *strings.Builder, v Validation) {
	b.WriteString("\n### Structural Integrity\n\n")
	if v.Structure.Passed {
		b.WriteString("✅ Pass")
	} else {
		b.WriteString("❌ Fail")
	}
	if n := len(v.Structure.Problems); n == 0 {
		b.WriteString(": heading hierarchy consistent.\n")
	} else {
		b.WriteString("\n\n")
		for _, p := range v.Structure.Problems {
			fmt.Fprintf(b, "- Line %d (%s): %s%s\n", p.Line, p.Rule, mdInline(p.Detail), inBase(p.InBase))
		}
	}

	r := v.References
	b.WriteString("\n### Internal References\n\n")
	mark := "✅ Pass"
	if !r.Passed {
		mark = "❌ Fail"
	}
	fmt.Fprintf(b, "%s\n\n- **Total:** %d\n- **Resolved:** %d\n- **Broken:** %d\n", mark, r.Total, r.Resolved, len(r.Broken))
	// The base's own unresolved references (most often to the document
	// it discusses) are not the merge's doing: one line names them, so
	// the ones the merge broke stand out.
	var inBase, inSource refTally
	for _, br := range r.Broken {
		if br.Reason == "" && (br.InBase || br.InSource) {
			if br.InBase {
				inBase.add(br.Text)
			} else {
				inSource.add(br.Text)
			}
			continue
		}
		reason := ""
		if br.Reason != "" {
			reason = " — " + mdInline(br.Reason)
		}
		fmt.Fprintf(b, "  - %s (line %d, %s)%s\n", mdCode(br.Text), br.Line, br.Kind, reason)
	}
	inBase.write(b, "present in the base already")
	inSource.write(b, "broken already in the variant the text came from, or cited the same way by the base")
	if len(r.Rewritten) > 0 {
		fmt.Fprintf(b, "- **Rewritten to the merged numbering:** %d\n", len(r.Rewritten))
		for _, w := range r.Rewritten {
			fmt.Fprintf(b, "  - %s\n", mdInline(w))
		}
	}

	s := v.Rescan
	b.WriteString("\n### Contradiction Re-Scan\n\n")
	switch s.State {
	case RescanNotRun:
		b.WriteString("Not run: no contradiction scanner is configured (merge.WithScanner).\n")
	case RescanError:
		fmt.Fprintf(b, "❌ Error: %s\n", mdInline(s.Err))
	default:
		mark := "✅ Pass"
		if s.State == RescanFailed {
			mark = "❌ Fail"
		}
		fmt.Fprintf(b, "%s\n\n- **Contradictions in the base:** %d\n- **New contradictions introduced:** %d\n", mark, s.Baseline, len(s.New))
		for _, c := range s.New {
			fmt.Fprintf(b, "  - %s\n", mdInline(c.Description))
		}
		if len(s.Unresolved) > 0 {
			fmt.Fprintf(b, "- **Unresolved, from the base:** %d — the base states both sides, and the merge does not choose between two statements of the base; resolve by hand:\n", len(s.Unresolved))
			for _, c := range s.Unresolved {
				fmt.Fprintf(b, "  - %s\n", mdInline(c.Description))
			}
		}
	}
	if len(v.Identifiers) > 0 {
		b.WriteString("\n### Imported Identifiers\n\nNames imported text uses that the merged document never defines (reported; not a failure):\n\n")
		for _, m := range v.Identifiers {
			fmt.Fprintf(b, "- %s\n", mdInline(m.describe()))
		}
	}
}

// refTally counts broken references by their text, in order of first
// appearance, for a one-line summary.
type refTally struct {
	texts []string
	count map[string]int
}

func (t *refTally) add(text string) {
	if t.count == nil {
		t.count = map[string]int{}
	}
	if t.count[text] == 0 {
		t.texts = append(t.texts, text)
	}
	t.count[text]++
}

func (t *refTally) write(b *strings.Builder, what string) {
	if len(t.texts) == 0 {
		return
	}
	parts := make([]string, len(t.texts))
	n := 0
	for i, text := range t.texts {
		parts[i] = mdCode(text)
		if c := t.count[text]; c > 1 {
			parts[i] += fmt.Sprintf(" ×%d", c)
		}
		n += t.count[text]
	}
	fmt.Fprintf(b, "  - %s (%d): %s\n", what, n, strings.Join(parts, ", "))
}

func inBase(b bool) string {
	if b {
		return " — present in the base already"
	}
	return ""
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
