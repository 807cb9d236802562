package adversarial

// The merge evaluation runs the offline pipeline on every set of the
// labelled corpus (../../shared/eval, or $CRUCIBLE_EVAL; see its README.md)
// and measures what steps 4–5 made of it:
//
//   - conflicts kept: labelled contradictions between variants (certain
//     ones) whose sides from two different variants, giving different
//     values, both survive in the merged document — the merge stated both
//     values;
//   - conflicts inside one variant whose two sides both survive, reported
//     apart (the merge inherits them from the base more often than it
//     creates them);
//   - duplicated topics: labelled alignment groups whose topic the merged
//     document covers under headings of two variants;
//   - broken references: internal references of the merged document that
//     resolve to nothing, beyond those no variant could resolve (references
//     to another document);
//   - lost subsections: headings of the base missing from the merged
//     document with no plan change targeting them or a section above them.
//
// The targets are zero. The test fails only when a total rises above the
// ceilings in testdata/eval/merge-ceilings.json (a ratchet: lower them as
// the merge improves).
//
//	go test ./adversarial -run TestMergeEval -v
//	CRUCIBLE_EVAL_DEBUG=1 go test ./adversarial -run TestMergeEval -v   # every finding

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
	"github.com/crucible-go/crucible/merge"
)

type mergeTruth struct {
	Variants []struct {
		File string `yaml:"file"`
	} `yaml:"variants"`
	Alignments []struct {
		ID       string         `yaml:"id"`
		Topic    string         `yaml:"topic"`
		Sections []truthSection `yaml:"sections"`
	} `yaml:"alignments"`
	Contradictions []struct {
		ID         string `yaml:"id"`
		Topic      string `yaml:"topic"`
		Intra      bool   `yaml:"intra"`
		Certainty  string `yaml:"certainty"`
		Resolution string `yaml:"resolution"`
		Sides      []struct {
			File  string `yaml:"file"`
			Line  int    `yaml:"line"`
			Quote string `yaml:"quote"`
			Value string `yaml:"value"`
		} `yaml:"sides"`
	} `yaml:"contradictions"`
	FieldDisagreements []struct {
		ID     string `yaml:"id"`
		Item   string `yaml:"item"`
		Field  string `yaml:"field"`
		Values []struct {
			File  string `yaml:"file"`
			Line  int    `yaml:"line"`
			Value string `yaml:"value"`
			Quote string `yaml:"quote"`
		} `yaml:"values"`
	} `yaml:"field_disagreements"`
}

// evalSet is one set of the corpus, read.
type evalSet struct {
	name   string
	truth  mergeTruth
	drafts []Draft
}

// readEvalSets reads every set of the corpus, skipping the test when
// there is none.
func readEvalSets(t *testing.T) []evalSet {
	t.Helper()
	sets, dir := loadEvalCorpus(t)
	if sets == nil {
		t.Skipf("no evaluation corpus at %s (set CRUCIBLE_EVAL)", dir)
	}
	return sets
}

// loadEvalCorpus reads every set of the corpus (../../shared/eval, or
// $CRUCIBLE_EVAL), its variants in the order truth.yaml lists them; nil
// when there is no corpus. It returns the directory it looked in.
func loadEvalCorpus(t *testing.T) ([]evalSet, string) {
	t.Helper()
	dir := os.Getenv("CRUCIBLE_EVAL")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "eval")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, dir
	}
	var out []evalSet
	for _, e := range entries {
		raw, err := os.ReadFile(filepath.Join(dir, e.Name(), "truth.yaml"))
		if !e.IsDir() || err != nil {
			continue
		}
		set := evalSet{name: e.Name()}
		if err := yaml.Unmarshal(raw, &set.truth); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		for _, v := range set.truth.Variants {
			src, err := os.ReadFile(filepath.Join(dir, e.Name(), v.File))
			if err != nil {
				t.Fatal(err)
			}
			set.drafts = append(set.drafts, Draft{Name: v.File, Content: src})
		}
		out = append(out, set)
	}
	return out, dir
}

// truthSection is a section of an alignment group.
type truthSection struct {
	File    string `yaml:"file"`
	Heading string `yaml:"heading"`
}

// mergeCounts are one set's (or the total's) findings.
type mergeCounts struct {
	Conflicts      int `json:"conflicts_kept"`
	IntraConflicts int `json:"intra_conflicts_kept"`
	Duplicates     int `json:"duplicated_topics"`
	BrokenRefs     int `json:"broken_references"`
	LostSections   int `json:"lost_subsections"`
	// Superseded counts the conflicts between successive revisions
	// (resolution superseded-by-later); SupersededWrong those whose
	// earlier value the merged document still states.
	Superseded      int `json:"-"`
	SupersededWrong int `json:"superseded_wrong"`
	// Splits counts the field disagreements where two of three variants
	// give the same value (by its first word: ACCURATE, Accurate…);
	// MajorityKept those whose merged document states the majority's
	// value and not the minority's.
	Splits       int `json:"-"`
	MajorityKept int `json:"-"`
	// MajorityMissed is the ceiling of Splits − MajorityKept.
	MajorityMissed int `json:"majority_missed"`
	// AlignedAdded counts the plan's appends and inserts of a section
	// step 1 aligned with a base section (the target is 0).
	AlignedAdded int `json:"aligned_added"`
}

func (c *mergeCounts) add(o mergeCounts) {
	c.Conflicts += o.Conflicts
	c.IntraConflicts += o.IntraConflicts
	c.Duplicates += o.Duplicates
	c.BrokenRefs += o.BrokenRefs
	c.LostSections += o.LostSections
	c.Superseded += o.Superseded
	c.SupersededWrong += o.SupersededWrong
	c.Splits += o.Splits
	c.MajorityKept += o.MajorityKept
	c.AlignedAdded += o.AlignedAdded
}

func (c mergeCounts) String() string {
	return fmt.Sprintf("conflicts between variants kept %d, inside one variant %d, duplicated topics %d (aligned ones added beside the base's %d), broken references %d, lost subsections %d, superseded values kept %d of %d, majority value of 2–1 splits %d of %d",
		c.Conflicts, c.IntraConflicts, c.Duplicates, c.AlignedAdded, c.BrokenRefs, c.LostSections, c.SupersededWrong, c.Superseded, c.MajorityKept, c.Splits)
}

func TestMergeEval(t *testing.T) {
	debug := os.Getenv("CRUCIBLE_EVAL_DEBUG") != ""
	var total mergeCounts
	for _, set := range readEvalSets(t) {
		res, err := newPipeline().Run(context.Background(), Input{Compare: set.drafts})
		if err != nil {
			t.Fatalf("%s: %v", set.name, err)
		}
		c, findings := evalMerge(t, set.truth, set.drafts, res)
		t.Logf("%-36s %s: %s", set.name, res.Status, c)
		if debug {
			for _, f := range findings {
				t.Logf("    %s", f)
			}
		}
		total.add(c)
	}
	t.Logf("%-36s %s", "TOTAL", total)

	raw, err := os.ReadFile(filepath.Join("testdata", "eval", "merge-ceilings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ceil mergeCounts
	if err := json.Unmarshal(raw, &ceil); err != nil {
		t.Fatal(err)
	}
	got, limit := []int{total.Conflicts, total.IntraConflicts, total.Duplicates, total.BrokenRefs, total.LostSections, total.SupersededWrong, total.Splits - total.MajorityKept, total.AlignedAdded},
		[]int{ceil.Conflicts, ceil.IntraConflicts, ceil.Duplicates, ceil.BrokenRefs, ceil.LostSections, ceil.SupersededWrong, ceil.MajorityMissed, ceil.AlignedAdded}
	names := []string{"conflicts kept", "intra conflicts kept", "duplicated topics", "broken references", "lost subsections", "superseded values kept", "2–1 splits without the majority's value", "aligned topics added beside the base's"}
	for i := range got {
		if got[i] > limit[i] {
			t.Errorf("%s: %d, above the ceiling %d", names[i], got[i], limit[i])
		}
	}
}

// evalMerge measures one run against the set's labels.
func evalMerge(t *testing.T, tr mergeTruth, drafts []Draft, res *Result) (mergeCounts, []string) {
	t.Helper()
	var c mergeCounts
	var findings []string
	merged := res.MergedOutput
	if merged == "" {
		return c, []string{"no merged document"}
	}
	base := slices.IndexFunc(drafts, func(d Draft) bool { return d.Name == res.BaseVariant })
	if base < 0 {
		t.Fatalf("base %q is none of the variants", res.BaseVariant)
	}
	baseFile := drafts[base].Name

	for _, x := range tr.Contradictions {
		if x.Resolution == "superseded-by-later" && len(x.Sides) == 2 {
			// The sides are listed earlier revision first.
			c.Superseded++
			if strings.Contains(merged, x.Sides[0].Quote) {
				c.SupersededWrong++
				findings = append(findings, fmt.Sprintf("superseded %s (%s): the earlier value survives", x.ID, x.Topic))
			}
		}
		if x.Certainty == "probable" {
			continue
		}
		// Two surviving sides that give different values are the conflict
		// kept; sides that agree (two of three variants say LOW, the
		// third MEDIUM) are not a conflict between themselves.
		var kept []string
		for i, a := range x.Sides {
			if !strings.Contains(merged, a.Quote) {
				continue
			}
			for _, b := range x.Sides[i+1:] {
				if (x.Intra || a.File != b.File) && !sameSideValue(a.Value, b.Value) && strings.Contains(merged, b.Quote) {
					kept = []string{a.File, b.File}
					break
				}
			}
			if kept != nil {
				break
			}
		}
		if len(kept) < 2 {
			continue
		}
		if x.Intra {
			c.IntraConflicts++
		} else {
			c.Conflicts++
		}
		findings = append(findings, fmt.Sprintf("conflict %s kept (%s): %s", x.ID, x.Topic, strings.Join(kept, " + ")))
	}

	for _, f := range tr.FieldDisagreements {
		if len(f.Values) != 3 {
			continue
		}
		// A verdict or level opens the value ("ACCURATE with correction",
		// "Overstated"); values of other kinds (lists of files, estimates)
		// are not judged here.
		key := func(v string) string {
			w := strings.Fields(strings.Trim(v, "*_ "))
			if len(w) == 0 {
				return ""
			}
			first := strings.Trim(w[0], ".,:;()")
			if len(w) > 1 && first != strings.ToUpper(first) || strings.ContainsAny(first, "0123456789./") {
				return ""
			}
			return strings.ToUpper(first)
		}
		for m := range 3 {
			a, b := f.Values[(m+1)%3], f.Values[(m+2)%3]
			if key(a.Value) == "" || key(f.Values[m].Value) == "" || key(a.Value) != key(b.Value) || key(f.Values[m].Value) == key(a.Value) {
				continue
			}
			c.Splits++
			if !strings.Contains(merged, f.Values[m].Quote) && (strings.Contains(merged, a.Quote) || strings.Contains(merged, b.Quote) ||
				restated(merged, f.Values[m].Quote, f.Values[m].Value, key(a.Value))) {
				c.MajorityKept++
			} else {
				findings = append(findings, fmt.Sprintf("split %s (%s / %s): the merged document does not state only the majority's %s", f.ID, f.Item, f.Field, key(a.Value)))
			}
		}
	}

	doc, err := diff.Parse("merged.md", []byte(merged))
	if err != nil {
		t.Fatal(err)
	}
	var headings []string
	for _, s := range doc.Sections {
		headings = append(headings, headingKey(s.Title))
	}
	generic := map[string]map[string]bool{} // per file, the headings it repeats
	for _, d := range drafts {
		vd, err := diff.Parse(d.Name, d.Content)
		if err != nil {
			t.Fatal(err)
		}
		seen, rep := map[string]bool{}, map[string]bool{}
		for _, s := range vd.Sections {
			k := headingKey(s.Title)
			rep[k] = rep[k] || seen[k]
			seen[k] = true
		}
		generic[d.Name] = rep
	}
	for _, g := range tr.Alignments {
		files := map[string]bool{}
		for _, s := range g.Sections {
			files[s.File] = true
		}
		if len(files) < 2 {
			continue // a topic of one variant only
		}
		// The merged headings that name the topic (a heading several
		// variants share is one heading); more of them than the base has
		// sections for the topic (at least one) is a duplicate.
		// A heading its own variant repeats ("Root Cause" under every bug)
		// cannot say which merged heading is the group's: it is left out.
		// A heading under another of the group's headings is part of that
		// one occurrence.
		var at []int
		baseCount := 0
		for _, s := range g.Sections {
			if generic[s.File][headingKey(s.Heading)] {
				continue
			}
			if s.File == baseFile {
				baseCount++
			}
			for i, h := range headings {
				if h == headingKey(s.Heading) && !slices.Contains(at, i) {
					at = append(at, i)
				}
			}
		}
		at = slices.DeleteFunc(at, func(i int) bool {
			for p := doc.Sections[i].Parent; p >= 0; p = doc.Sections[p].Parent {
				if slices.Contains(at, p) {
					return true
				}
			}
			return false
		})
		if len(at) > max(1, baseCount) {
			c.Duplicates++
			var hs []string
			for _, i := range at {
				hs = append(hs, fmt.Sprintf("%q", doc.Sections[i].Title))
			}
			findings = append(findings, fmt.Sprintf("topic %s (%s) appears under %d headings: %s%s", g.ID, g.Topic, len(at), strings.Join(hs, ", "), alignedNote(res, drafts, g.Sections, baseFile, occurrences(doc, at))))
		}
	}

	baseDoc, err := diff.Parse(baseFile, drafts[base].Content)
	if err != nil {
		t.Fatal(err)
	}
	// A reference none of the variants could resolve either names another
	// document (a review citing the reviewed spec's "§10.2"): not the
	// merge's doing.
	already := map[string]bool{}
	for _, d := range drafts {
		vd, err := diff.Parse(d.Name, d.Content)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range refs.Check(vd).Broken() {
			already[r.Text] = true
		}
	}
	for _, r := range refs.Check(doc).Broken() {
		if !already[r.Text] {
			c.BrokenRefs++
			findings = append(findings, fmt.Sprintf("broken reference %q (line %d)", r.Text, r.Line))
		}
	}

	var plan *merge.Plan
	if res.Steps.Plan != nil {
		plan = res.Steps.Plan
	}
	c.AlignedAdded, findings = alignedAdded(res, base, plan, findings)
	for si, s := range baseDoc.Sections {
		if s.Depth == 0 || slices.Contains(headings, headingKey(s.Title)) {
			continue
		}
		if plan != nil && plannedAt(plan, baseDoc, si) {
			continue
		}
		c.LostSections++
		findings = append(findings, fmt.Sprintf("base section %q lost with no plan change", s.Title))
	}
	return c, findings
}

// alignedAdded counts the plan's appends and inserts whose source section
// step 1 aligned with a section of the base: such a topic goes into its
// base section (replace, extend or leave), never beside it.
func alignedAdded(res *Result, base int, plan *merge.Plan, findings []string) (int, []string) {
	a := res.Steps.Analysis
	if plan == nil || a == nil {
		return 0, findings
	}
	n := 0
	for _, ch := range plan.Changes {
		if ch.Approach != merge.Append && ch.Approach != merge.Insert {
			continue
		}
		v := -1
		for i := range len(a.Variants) {
			if label(i) == ch.Source.Variant.Label {
				v = i
			}
		}
		for _, tp := range a.Topics {
			if v < 0 || v >= len(tp.Sections) || base >= len(tp.Sections) || tp.Sections[v] < 0 || tp.Sections[base] < 0 {
				continue
			}
			if headingKey(tp.Headings[v].Section) == headingKey(ch.Source.Section.Title) {
				n++
				findings = append(findings, fmt.Sprintf("change #%d adds %q (%s) beside the base's aligned %q", ch.Number, ch.Source.Section.Title, ch.Approach, tp.Headings[base].Section))
				break
			}
		}
	}
	return n, findings
}

// plannedAt reports whether a change of the plan targets the base section
// si or a section above it.
func plannedAt(p *merge.Plan, d *diff.Document, si int) bool {
	for i := si; i >= 0; i = d.Sections[i].Parent {
		for _, ch := range p.Changes {
			if ch.Target.Title != "" && headingKey(ch.Target.Title) == headingKey(d.Sections[i].Title) {
				return true
			}
		}
	}
	return false
}

var leadingNumber = regexp.MustCompile(`^(§\s*)?([A-Z]?\d+(\.\d+)*\.?|[IVX]+\.)\s+`)

// headingKey compares headings without their numbers, case or spacing.
func headingKey(h string) string {
	h = strings.TrimSpace(strings.Trim(strings.TrimSpace(h), "#"))
	h = leadingNumber.ReplaceAllString(h, "")
	h = strings.NewReplacer("`", "", "*", "", "_", " ").Replace(h)
	return strings.ToLower(strings.Join(strings.Fields(h), " "))
}

// occurrences returns the titles of the merged sections at.
func occurrences(doc *diff.Document, at []int) []string {
	var out []string
	for _, i := range at {
		out = append(out, doc.Sections[i].Title)
	}
	return out
}

// alignedNote says, for the group's sections of other variants that the
// merged document holds (under titles), whether step 1 aligned each with a
// base section of the group (then the merge duplicated an aligned topic)
// or not (then the alignment missed the pair the merge needed).
func alignedNote(res *Result, drafts []Draft, sections []truthSection, baseFile string, titles []string) string {
	a := res.Steps.Analysis
	if a == nil {
		return ""
	}
	matches := func(h, want string) bool {
		return headingKey(h) == headingKey(want) || strings.HasSuffix(headingKey(h), headingKey(want))
	}
	alignedWithBase := func(o truthSection) bool {
		for _, t := range a.Topics {
			base, other := false, false
			for v, si := range t.Sections {
				if si < 0 || v >= len(drafts) {
					continue
				}
				for _, s := range sections {
					if s.File == drafts[v].Name && matches(t.Headings[v].Section, s.Heading) {
						base = base || s.File == baseFile
						other = other || s == o
					}
				}
			}
			if base && other {
				return true
			}
		}
		return false
	}
	var missed, aligned []string
	for _, s := range sections {
		if s.File == baseFile || !slices.ContainsFunc(titles, func(h string) bool { return matches(h, s.Heading) }) {
			continue
		}
		if alignedWithBase(s) {
			aligned = append(aligned, fmt.Sprintf("%q", s.Heading))
		} else {
			missed = append(missed, fmt.Sprintf("%q", s.Heading))
		}
	}
	note := ""
	if len(aligned) > 0 {
		note += " — aligned with the base's by step 1: " + strings.Join(aligned, ", ")
	}
	if len(missed) > 0 {
		note += " — not aligned with the base's by step 1: " + strings.Join(missed, ", ")
	}
	return note
}

// restated reports whether the merged document holds the minority's line
// with its value changed to the majority's: the text after the value
// survives on a line that names the majority's value.
func restated(merged, quote, value, majority string) bool {
	w := strings.Fields(value)
	if len(w) == 0 {
		return false
	}
	i := strings.Index(strings.ToUpper(quote), strings.ToUpper(w[0]))
	if i < 0 {
		return false
	}
	tail := strings.TrimSpace(quote[i+len(w[0]):])
	if len(tail) < 12 {
		return false
	}
	for _, line := range strings.Split(merged, "\n") {
		if strings.Contains(line, tail) && strings.Contains(strings.ToUpper(line), majority) {
			return true
		}
	}
	return false
}

// sameSideValue reports whether two sides of a labelled contradiction
// give the same value, case and spacing aside. An order of numbered items
// is the same order whatever word labels them ("Bug 1, Bug 4, Bug 3" and
// "Fix 1, 4, 3" agree): with two numbers or more, a word right before a
// number is left out.
func sameSideValue(a, b string) bool {
	norm := func(s string) string {
		s = strings.ToLower(strings.Join(strings.Fields(s), " "))
		if len(evalNumber.FindAllString(s, 3)) >= 2 {
			s = evalItemLabel.ReplaceAllString(s, "$1")
		}
		return s
	}
	return a != "" && norm(a) == norm(b)
}

var (
	evalNumber    = regexp.MustCompile(`\d+`)
	evalItemLabel = regexp.MustCompile(`\b[a-z]+ (\d)`)
)

func TestSameSideValue(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"LOW", "low", true},
		{"Bug 1, Bug 4, Bug 3, Bug 2", "Fix 1, 4, 3, 2", true},
		{"Bug 1, Bug 4, Bug 3, Bug 2", "3.1, 3.4, 3.2, 4.2, 3.3 (Bug 2 before Bug 3)", false},
		{"Fix 1, 4, 3, 2", "Fix 1, 3, 4, 2", false},
		{"3 days", "3 weeks", false},
		{"Phase 2", "Step 2", false}, // one number: the label is the value
		{"", "", false},
	} {
		if got := sameSideValue(tc.a, tc.b); got != tc.want {
			t.Errorf("sameSideValue(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
