package diff_test

// TestEval scores the diff analysis against the hand-labelled corpus in
// shared/eval (see its README.md): contradictions, field disagreements and
// section alignment, per set and in total. It fails only when a total falls
// below the floors in testdata/eval/floors.json, which are raised by hand
// as the detectors improve.
//
//	go test ./diff -run TestEval -v                        # table per set and totals
//	CRUCIBLE_EVAL_DEBUG=1 go test ./diff -run TestEval -v  # every hit, miss and false finding
//	CRUCIBLE_EVAL=/path/to/eval go test ./diff -run TestEval -v

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/crucible-go/crucible/diff"
)

const (
	evalEnv      = "CRUCIBLE_EVAL"
	evalDebugEnv = "CRUCIBLE_EVAL_DEBUG"
	evalDefault  = "../../shared/eval" // the repo is cloned with shared/ beside it
	evalFloors   = "testdata/eval/floors.json"
	// evalSlack is how far a total may exceed its floor before the test
	// suggests raising the floor.
	evalSlack = 0.02
)

var evalSetDir = regexp.MustCompile(`^\d\d-`)

func TestEval(t *testing.T) {
	dir := evalDir(t)
	sets := evalSets(t, dir)
	floors := loadEvalFloors(t)
	debug := os.Getenv(evalDebugEnv) != "" && os.Getenv(evalDebugEnv) != "0"

	var total evalCounts
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "set\tX rep\tX prec\tX recall\tvalue recall\tintra recall\tN hit\tF rep\tF recall\tF false\tAl prec\tAl recall\t")
	scored := 0
	for _, set := range sets {
		t.Run(set, func(t *testing.T) {
			c := runEvalSet(t, filepath.Join(dir, set), debug)
			total.add(c)
			scored++
			fmt.Fprintln(tw, evalRow(set, c))
		})
	}
	fmt.Fprintln(tw, evalRow("TOTAL", total))
	tw.Flush()
	t.Logf("eval corpus %s\n%s%s", dir, table.String(), evalKindLine(total))

	m := total.metrics()
	var summary []string
	for _, name := range evalMetricNames {
		summary = append(summary, fmt.Sprintf("%s=%s", name, evalFigure(name, m[name])))
	}
	t.Log("eval totals: " + strings.Join(summary, " "))

	if scored < len(sets) || t.Failed() {
		// Totals over part of the corpus say nothing about the floors.
		t.Logf("floors not checked: %d of %d sets scored", scored, len(sets))
		return
	}
	checkEvalFloors(t, floors, m)
}

// evalDir finds the corpus: $CRUCIBLE_EVAL, else shared/eval beside the
// repository. A corpus asked for by name must exist; the default one may
// be absent (a checkout without shared/), and then the test is skipped.
func evalDir(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv(evalEnv); dir != "" {
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("%s=%s: no eval corpus there: %v", evalEnv, dir, err)
		}
		return dir
	}
	abs, _ := filepath.Abs(evalDefault)
	if _, err := os.Stat(abs); err != nil {
		t.Skipf("eval corpus not found at %s (%s relative to the diff package); set %s to the eval directory (the one holding NN-<set>/truth.yaml) to run it",
			abs, evalDefault, evalEnv)
	}
	return abs
}

// evalSets lists the set folders (NN-name with a truth.yaml), in order.
func evalSets(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var sets []string
	for _, e := range entries {
		if e.IsDir() && evalSetDir.MatchString(e.Name()) {
			if _, err := os.Stat(filepath.Join(dir, e.Name(), "truth.yaml")); err == nil {
				sets = append(sets, e.Name())
			}
		}
	}
	if len(sets) == 0 {
		t.Fatalf("%s holds no NN-<set>/truth.yaml", dir)
	}
	return sets
}

// evalClock fixes the Generated time so runs are identical.
func evalClock() time.Time { return time.Date(2026, 3, 24, 0, 0, 0, 0, time.UTC) }

// runEvalSet analyses one set with the default options and scores it.
func runEvalSet(t *testing.T, dir string, debug bool) evalCounts {
	t.Helper()
	tr, err := loadEvalTruth(filepath.Join(dir, "truth.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	docs := make([]*diff.Document, len(tr.Variants))
	for i, v := range tr.Variants {
		src, err := os.ReadFile(filepath.Join(dir, v.File))
		if err != nil {
			t.Fatal(err)
		}
		if docs[i], err = diff.Parse(v.File, src); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range checkEvalQuotes(tr, docs) {
		t.Log("truth: " + w) // a labelling slip, not a detector regression
	}
	a, err := diff.Analyze(t.Context(), docs, diff.WithClock(evalClock))
	if err != nil {
		t.Fatal(err)
	}

	r := evalRun{tr: tr, docs: docs}
	var c, fc, ac evalCounts
	r.points = evalPoints(tr, a)
	c, r.pointMatches, r.found = scoreContradictions(tr, r.points)
	r.fields = evalFields(tr, a, docs)
	fc, r.fieldMatches, r.fieldFound = scoreFields(tr, r.fields)
	r.headings, r.headingWarnings = evalResolveHeadings(tr, docs)
	ac, r.align = scoreAlignment(tr.Alignments, evalTopicPairs(tr, a, r.headings))
	c.add(fc)
	c.add(ac)

	if len(r.headingWarnings) > 0 {
		t.Logf("%d truth headings not found among the parsed sections (run with %s=1 for the list)", len(r.headingWarnings), evalDebugEnv)
	}
	if debug {
		var b strings.Builder
		writeEvalDebug(&b, r)
		t.Log("\n" + b.String())
	}
	return c
}

// evalRun is one scored set, kept for the debug listing.
type evalRun struct {
	tr                *evalTruth
	docs              []*diff.Document
	points, fields    []evalFinding
	pointMatches      []evalMatch
	fieldMatches      []evalMatch
	found, fieldFound map[string]bool // truth ids recalled
	headings          [][]evalLoc     // per variant and section, as evalResolveHeadings gives them
	headingWarnings   []string
	align             evalAlignResult
}

// checkEvalQuotes checks that every labelled quote is on its line, which is
// what makes line matching meaningful.
func checkEvalQuotes(tr *evalTruth, docs []*diff.Document) []string {
	lines := map[string][]string{}
	for _, d := range docs {
		lines[d.Name] = strings.Split(d.Source, "\n")
	}
	var warnings []string
	check := func(id string, s evalSide) {
		ls, ok := lines[s.File]
		switch {
		case !ok:
			warnings = append(warnings, fmt.Sprintf("%s: file %s is not a variant", id, s.File))
		case s.Line < 1 || s.Line > len(ls):
			warnings = append(warnings, fmt.Sprintf("%s: %s line %d out of range", id, s.File, s.Line))
		case !strings.Contains(ls[s.Line-1], strings.TrimSpace(s.Quote)):
			warnings = append(warnings, fmt.Sprintf("%s: quote not on %s:%d: %q", id, tr.label(s.File), s.Line, clipEval(s.Quote)))
		}
	}
	for _, c := range tr.Contradictions {
		for _, s := range c.Sides {
			check(c.ID, s)
		}
	}
	for _, n := range tr.NotContradictions {
		for _, s := range n.Sides {
			check(n.ID, s)
		}
	}
	for _, f := range tr.FieldDisagreements {
		for _, s := range f.Values {
			check(f.ID, s)
		}
	}
	return warnings
}

// evalPoints reduces the contradiction points to their evidence.
func evalPoints(tr *evalTruth, a *diff.Analysis) []evalFinding {
	var out []evalFinding
	for _, p := range a.ByCategory(diff.CategoryContradiction) {
		f := evalFinding{ID: p.ID, Kind: p.Kind}
		for _, e := range p.Evidence {
			f.Locs = append(f.Locs, evalLoc{File: tr.Variants[e.Variant].File, Line: e.Line})
			f.Quotes = append(f.Quotes, e.Quote)
		}
		out = append(out, f)
	}
	return out
}

// evalFields reduces the field disagreements to their values' lines.
func evalFields(tr *evalTruth, a *diff.Analysis, docs []*diff.Document) []evalFinding {
	var out []evalFinding
	for _, fd := range a.Fields {
		f := evalFinding{ID: fd.Item + " / " + fd.Field, Kind: "field"}
		for _, v := range fd.Values {
			loc := evalLoc{File: tr.Variants[v.Variant].File, Line: v.Line}
			// A labelled line's item is its section (a table cell's is
			// its row): the value also stands at the section's heading.
			if v.Section >= 0 && v.Section < len(docs[v.Variant].Sections) && !strings.HasPrefix(v.Quote, "|") {
				loc.Item = docs[v.Variant].Sections[v.Section].Line
			}
			f.Locs = append(f.Locs, loc)
			f.Quotes = append(f.Quotes, v.Value+" — “"+clipEval(v.Quote)+"”")
		}
		out = append(out, f)
	}
	return out
}

// evalResolveHeadings gives each parsed section the location of the truth
// heading it is: the heading on the same line, else one a line away with
// the same text. Sections the truth does not label keep their own line
// (no truth heading sits there, or the exact match would have taken it).
// It also returns the truth headings that no section resolved to.
func evalResolveHeadings(tr *evalTruth, docs []*diff.Document) ([][]evalLoc, []string) {
	byLine := map[evalLoc]evalHeading{}
	for _, g := range tr.Alignments {
		for _, s := range g.Sections {
			byLine[evalLoc{File: s.File, Line: s.Line}] = s
		}
	}
	used := map[evalLoc]bool{}
	out := make([][]evalLoc, len(docs))
	for v, d := range docs {
		file := tr.Variants[v].File
		for _, s := range d.Sections {
			loc := evalLoc{File: file, Line: s.Line}
			if _, ok := byLine[loc]; !ok {
				for _, off := range []int{-1, 1} {
					near := evalLoc{File: file, Line: s.Line + off}
					if h, ok := byLine[near]; ok && evalHeadingKey(h.Heading) == evalHeadingKey(s.Title) {
						loc = near
						break
					}
				}
			}
			used[loc] = true
			out[v] = append(out[v], loc)
		}
	}
	var warnings []string
	for _, g := range tr.Alignments {
		for _, s := range g.Sections {
			if !used[evalLoc{File: s.File, Line: s.Line}] {
				warnings = append(warnings, fmt.Sprintf("%s: no section at %s:%d %q", g.ID, tr.label(s.File), s.Line, clipEval(s.Heading)))
			}
		}
	}
	return out, warnings
}

// evalTopicPairs turns the coverage matrix into predicted section pairs:
// every two variants a topic covers.
func evalTopicPairs(tr *evalTruth, a *diff.Analysis, headings [][]evalLoc) []evalPair {
	var pairs []evalPair
	for _, tp := range a.Topics {
		for v := range tp.Sections {
			for w := v + 1; w < len(tp.Sections); w++ {
				sv, sw := tp.Sections[v], tp.Sections[w]
				if sv < 0 || sw < 0 {
					continue
				}
				pairs = append(pairs, evalPair{A: headings[v][sv], B: headings[w][sw], Topic: tp.Title})
			}
		}
	}
	return pairs
}

// ---- report ----

func evalRow(name string, c evalCounts) string {
	m := c.metrics()
	return strings.Join([]string{
		name,
		fmt.Sprint(c.Reported),
		frac(m[mContraPrecision], c.Correct, c.Reported),
		frac(m[mContraRecall], c.CertainFound, c.Certain),
		frac(m[mValueRecall], c.ValueHit, c.ValueTotal),
		frac(ratio(c.IntraHit, c.IntraTotal, 1), c.IntraHit, c.IntraTotal),
		fmt.Sprintf("%d/%d", c.NotHit, c.NotTotal),
		fmt.Sprint(c.FieldReported),
		frac(m[mFieldRecall], c.FieldFound, c.FieldTruth),
		fmt.Sprint(c.FieldFalse),
		frac(m[mAlignPrecision], c.AlignCorrect, c.AlignLabelled),
		frac(m[mAlignRecall], c.AlignFound, c.AlignTruth),
	}, "\t") + "\t"
}

func frac(r float64, n, d int) string { return fmt.Sprintf("%.2f (%d/%d)", r, n, d) }

// evalKindLine gives certain-contradiction recall per kind, with notes on
// the counts the table leaves out.
func evalKindLine(c evalCounts) string {
	var parts []string
	for _, k := range evalKinds {
		parts = append(parts, fmt.Sprintf("%s %d/%d", k, c.KindFound[k], c.KindTotal[k]))
	}
	return fmt.Sprintf("X: contradiction points; N: labelled not-contradictions hit; F: field disagreements; Al: alignment pairs of sections\ncertain recall by kind: %s\ncorrect points matching only probable entries: %d; points matching only a not-contradiction: %d; field disagreements matching only a not-contradiction: %d; alignment pairs with an unlabelled heading (not scored): %d\n",
		strings.Join(parts, ", "), c.ProbableOnly, c.NotReported, c.FieldNotHit, c.AlignUnlabelled)
}

func evalFigure(name string, v float64) string {
	if name == mFieldFalse {
		return fmt.Sprint(int(v))
	}
	return fmt.Sprintf("%.4f", v)
}

// clipEval shortens a quote for a debug line.
func clipEval(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 100 {
		return string(r[:100]) + "…"
	}
	return s
}

// writeEvalDebug lists every reported finding with what it matched, and
// every labelled item missed: the worklist for improving the detectors.
func writeEvalDebug(b *strings.Builder, r evalRun) {
	tr, docs := r.tr, r.docs
	for i, v := range tr.Variants {
		fmt.Fprintf(b, "%s = %s (variant %s)\n", v.Label, v.File, diff.Label(i))
	}
	byID := map[string]evalContradiction{}
	for _, c := range tr.Contradictions {
		byID[c.ID] = c
	}
	tag := func(id string) string {
		c := byID[id]
		switch {
		case !c.certain():
			return id + "(probable)"
		case c.Resolution != "":
			return id + "(" + c.Resolution + ")"
		}
		return id
	}
	locs := func(f evalFinding) string {
		var parts []string
		for i, l := range f.Locs {
			parts = append(parts, fmt.Sprintf("%s:%d “%s”", tr.label(l.File), l.Line, clipEval(f.Quotes[i])))
		}
		return strings.Join(parts, " | ")
	}
	sides := func(ss []evalSide) string {
		var parts []string
		for _, s := range ss {
			parts = append(parts, fmt.Sprintf("%s:%d [%s] “%s”", tr.label(s.File), s.Line, s.Value, clipEval(s.Quote)))
		}
		return strings.Join(parts, " | ")
	}
	verdict := func(m evalMatch, withFields bool) string {
		var ids []string
		if withFields {
			ids = append(ids, m.Fields...)
		}
		for _, id := range m.Contradictions {
			ids = append(ids, tag(id))
		}
		switch {
		case len(ids) > 0 && len(m.Nots) > 0:
			return strings.Join(ids, ",") + " (also " + strings.Join(m.Nots, ",") + ")"
		case len(ids) > 0:
			return strings.Join(ids, ",")
		case len(m.Nots) > 0:
			return "NOT-CONTRADICTION " + strings.Join(m.Nots, ",")
		}
		return "FALSE"
	}

	fmt.Fprintf(b, "contradictions reported (%d):\n", len(r.points))
	for i, p := range r.points {
		fmt.Fprintf(b, "  %s %s %s: %s\n", p.ID, p.Kind, verdict(r.pointMatches[i], false), locs(p))
	}
	fmt.Fprintln(b, "certain contradictions missed:")
	for _, c := range tr.Contradictions {
		if c.certain() && !r.found[c.ID] {
			intra := ""
			if c.Intra {
				intra = " intra"
			}
			fmt.Fprintf(b, "  %s %s%s %q: %s\n", tag(c.ID), c.Kind, intra, c.Topic, sides(c.Sides))
		}
	}

	fmt.Fprintf(b, "field disagreements reported (%d):\n", len(r.fields))
	for i, f := range r.fields {
		fmt.Fprintf(b, "  %s: %s: %s\n", f.ID, verdict(r.fieldMatches[i], true), locs(f))
	}
	fmt.Fprintln(b, "field disagreements missed:")
	for _, f := range tr.FieldDisagreements {
		if !r.fieldFound[f.ID] {
			fmt.Fprintf(b, "  %s %s / %s: %s\n", f.ID, f.Item, f.Field, sides(f.Values))
		}
	}

	title := map[evalLoc]string{}
	for v, d := range docs {
		for _, s := range d.Sections {
			title[evalLoc{File: tr.Variants[v].File, Line: s.Line}] = s.Title
		}
	}
	groupIDs := map[evalLoc][]string{}
	for _, g := range tr.Alignments {
		for _, s := range g.Sections {
			l := evalLoc{File: s.File, Line: s.Line}
			groupIDs[l] = append(groupIDs[l], g.ID)
			if _, ok := title[l]; !ok {
				title[l] = s.Heading
			}
		}
	}
	heading := func(l evalLoc) string {
		return fmt.Sprintf("%s:%d “%s” [%s]", tr.label(l.File), l.Line, clipEval(title[l]), strings.Join(groupIDs[l], ","))
	}
	fmt.Fprintf(b, "alignment pairs in no common group (%d):\n", len(r.align.False))
	for _, p := range r.align.False {
		fmt.Fprintf(b, "  topic %q: %s ↔ %s\n", clipEval(p.Topic), heading(p.A), heading(p.B))
	}
	fmt.Fprintf(b, "alignment pairs missed (%d):\n", len(r.align.Missed))
	for _, m := range r.align.Missed {
		fmt.Fprintf(b, "  %s %s ↔ %s: %s ↔ %s\n", m.Group, tr.label(m.FileA), tr.label(m.FileB), evalHeadings(tr, m.A), evalHeadings(tr, m.B))
	}
	if len(r.headingWarnings) > 0 {
		fmt.Fprintln(b, "truth headings without a parsed section:")
		for _, w := range r.headingWarnings {
			fmt.Fprintln(b, "  "+w)
		}
	}
	// Unlabelled headings are left out of alignment precision; the README
	// expects only generic sub-headings of sets 05 and 06 here.
	var unlabelled []string
	for v, locs := range r.headings {
		for i, l := range locs {
			if len(groupIDs[l]) == 0 {
				unlabelled = append(unlabelled, fmt.Sprintf("%s:%d “%s”", tr.label(l.File), l.Line, clipEval(docs[v].Sections[i].Title)))
			}
		}
	}
	fmt.Fprintf(b, "parsed headings the truth does not label (%d)", len(unlabelled))
	if len(unlabelled) > 0 {
		fmt.Fprint(b, ": "+strings.Join(unlabelled, ", "))
	}
	fmt.Fprintln(b)
}

func evalHeadings(tr *evalTruth, hs []evalHeading) string {
	var parts []string
	for _, h := range hs {
		parts = append(parts, fmt.Sprintf("%s:%d “%s”", tr.label(h.File), h.Line, clipEval(h.Heading)))
	}
	return strings.Join(parts, " + ")
}

// ---- floors ----

// loadEvalFloors reads the floors; every metric must have one, and a
// misspelt key is an error rather than a floor that is never checked.
func loadEvalFloors(t *testing.T) map[string]float64 {
	t.Helper()
	data, err := os.ReadFile(evalFloors)
	if err != nil {
		t.Fatal(err)
	}
	var floors map[string]float64
	if err := json.Unmarshal(data, &floors); err != nil {
		t.Fatalf("%s: %v", evalFloors, err)
	}
	for k := range floors {
		if !slices.Contains(evalMetricNames, k) {
			t.Fatalf("%s: unknown key %q; keys are %v", evalFloors, k, evalMetricNames)
		}
	}
	for _, k := range evalMetricNames {
		if _, ok := floors[k]; !ok {
			t.Fatalf("%s: missing key %q", evalFloors, k)
		}
	}
	return floors
}

// evalEpsilon absorbs float noise in comparisons with two-decimal floors.
const evalEpsilon = 1e-9

// checkEvalFloors fails the test for every total past its floor and logs
// the floors that could be raised.
func checkEvalFloors(t *testing.T, floors, totals map[string]float64) {
	t.Helper()
	failures, raise := evalFloorCheck(floors, totals)
	for _, f := range failures {
		t.Error(f)
	}
	if len(raise) > 0 {
		t.Logf("floors could be raised to: %s (edit %s)", strings.Join(raise, " "), evalFloors)
	}
}

// evalFloorCheck compares totals with floors ("max_" keys are ceilings).
// It returns a message per total past its floor, and the new floors worth
// setting: totals more than evalSlack past a floor (any drop of a count
// ceiling), rounded towards the old floor to two decimals.
func evalFloorCheck(floors, totals map[string]float64) (failures, raise []string) {
	for _, name := range evalMetricNames {
		floor, got := floors[name], totals[name]
		switch {
		case strings.HasPrefix(name, "max_") && got > floor+evalEpsilon:
			failures = append(failures, fmt.Sprintf("eval total %s = %s, above its ceiling %s (%s)", name, evalFigure(name, got), evalFigure(name, floor), evalFloors))
		case strings.HasPrefix(name, "max_"):
			if (name == mFieldFalse && got < floor) || got < floor-evalSlack {
				raise = append(raise, fmt.Sprintf("%s=%s", name, evalFigure(name, math.Ceil(got*100-evalEpsilon)/100)))
			}
		case got < floor-evalEpsilon:
			failures = append(failures, fmt.Sprintf("eval total %s = %.4f, below its floor %.2f (%s)", name, got, floor, evalFloors))
		case got > floor+evalSlack:
			raise = append(raise, fmt.Sprintf("%s=%.2f", name, math.Floor(got*100+evalEpsilon)/100))
		}
	}
	return failures, raise
}

// ---- the scorer's own rules ----

func TestEvalHits(t *testing.T) {
	a, b := "a.md", "b.md"
	tests := []struct {
		name        string
		sides, locs []evalLoc
		want        bool
	}{
		{"exact", []evalLoc{{File: a, Line: 10}, {File: b, Line: 20}}, []evalLoc{{File: a, Line: 10}, {File: b, Line: 20}}, true},
		{"within two lines", []evalLoc{{File: a, Line: 10}, {File: b, Line: 20}}, []evalLoc{{File: a, Line: 12}, {File: b, Line: 18}}, true},
		{"three lines off", []evalLoc{{File: a, Line: 10}, {File: b, Line: 20}}, []evalLoc{{File: a, Line: 13}, {File: b, Line: 20}}, false},
		{"wrong file", []evalLoc{{File: a, Line: 10}, {File: b, Line: 20}}, []evalLoc{{File: b, Line: 10}, {File: b, Line: 20}}, false},
		{"one side only", []evalLoc{{File: a, Line: 10}, {File: b, Line: 20}}, []evalLoc{{File: a, Line: 10}, {File: a, Line: 40}}, false},
		{"two of three sides", []evalLoc{{File: a, Line: 10}, {File: b, Line: 20}, {File: "c.md", Line: 5}}, []evalLoc{{File: b, Line: 20}, {File: "c.md", Line: 6}}, true},
		{"same line needs two citations", []evalLoc{{File: a, Line: 10}, {File: a, Line: 10}}, []evalLoc{{File: a, Line: 10}, {File: b, Line: 3}}, false},
		{"same line, two citations", []evalLoc{{File: a, Line: 10}, {File: a, Line: 10}}, []evalLoc{{File: a, Line: 10}, {File: a, Line: 10}}, true},
		{"adjacent sides, one citation", []evalLoc{{File: a, Line: 10}, {File: a, Line: 11}}, []evalLoc{{File: a, Line: 11}}, false},
		// The greedy choice (side 10 takes citation 11) would leave side 12
		// without one; the matching must reassign.
		{"needs reassignment", []evalLoc{{File: a, Line: 10}, {File: a, Line: 14}}, []evalLoc{{File: a, Line: 12}, {File: a, Line: 9}}, true},
		{"no citations", []evalLoc{{File: a, Line: 10}, {File: b, Line: 20}}, nil, false},
		// A field value of a section item also stands at the item's heading.
		{"value at its item's heading", []evalLoc{{File: a, Line: 10}, {File: b, Line: 345}}, []evalLoc{{File: a, Line: 10}, {File: b, Line: 348, Item: 345}}, true},
		{"value far from a heading not its item's", []evalLoc{{File: a, Line: 10}, {File: b, Line: 345}}, []evalLoc{{File: a, Line: 10}, {File: b, Line: 348}}, false},
		{"one value is one citation, heading or not", []evalLoc{{File: b, Line: 345}, {File: b, Line: 348}}, []evalLoc{{File: b, Line: 348, Item: 345}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := evalHits(tt.sides, tt.locs); got != tt.want {
				t.Errorf("evalHits(%v, %v) = %v, want %v", tt.sides, tt.locs, got, tt.want)
			}
		})
	}
}

// evalFakeTruth is a small truth: a certain numeric contradiction across
// files, a probable choice, a certain intra-variant verdict conflict whose
// sides share a line, a not-contradiction and a field disagreement.
func evalFakeTruth() *evalTruth {
	side := func(f string, l int) evalSide { return evalSide{File: f, Line: l} }
	return &evalTruth{
		Variants: []evalVariant{{File: "a.md", Label: "A"}, {File: "b.md", Label: "B"}},
		Contradictions: []evalContradiction{
			{ID: "C01", Kind: "numeric", Sides: []evalSide{side("a.md", 10), side("b.md", 20)}},
			{ID: "C02", Kind: "choice", Certainty: "probable", Sides: []evalSide{side("a.md", 30), side("b.md", 40)}},
			{ID: "C03", Kind: "verdict", Intra: true, Sides: []evalSide{side("a.md", 50), side("a.md", 50)}},
		},
		NotContradictions: []evalNotContradiction{
			{ID: "N01", Sides: []evalSide{side("a.md", 60), side("b.md", 70)}},
		},
		FieldDisagreements: []evalFieldTruth{
			{ID: "F01", Values: []evalSide{side("a.md", 80), side("b.md", 90)}},
		},
	}
}

func TestEvalScoreContradictions(t *testing.T) {
	find := func(locs ...evalLoc) evalFinding { return evalFinding{Locs: locs, Quotes: make([]string, len(locs))} }
	a := func(l int) evalLoc { return evalLoc{File: "a.md", Line: l} }
	b := func(l int) evalLoc { return evalLoc{File: "b.md", Line: l} }
	tests := []struct {
		name                    string
		points                  []evalFinding
		precision, recall, nots float64
		valueRecall, intra      float64
	}{
		{name: "nothing reported", precision: 1, recall: 0, nots: 0},
		{
			name:   "every kind of point",
			points: []evalFinding{find(a(11), b(19)), find(a(30), b(40)), find(a(50), a(50)), find(a(60), b(70)), find(a(1), b(2))},
			// C01, C02 (probable, not penalised), C03 correct; N01 and the last false.
			precision: 3.0 / 5, recall: 1, nots: 1, valueRecall: 1, intra: 1,
		},
		{
			name:      "probable only",
			points:    []evalFinding{find(a(30), b(40))},
			precision: 1, recall: 0, nots: 0,
		},
		{
			name:      "one citation cannot cover a same-line intra pair",
			points:    []evalFinding{find(a(50), b(99)), find(a(10), b(20))},
			precision: 0.5, recall: 0.5, nots: 0, valueRecall: 0.5,
		},
		{
			name:      "a point on a contradiction and a not-contradiction is correct",
			points:    []evalFinding{find(a(10), b(20), a(60), b(70))},
			precision: 1, recall: 0.5, nots: 0, valueRecall: 0.5,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, _ := scoreContradictions(evalFakeTruth(), tt.points)
			m := c.metrics()
			for _, chk := range []struct {
				name      string
				got, want float64
			}{
				{"precision", m[mContraPrecision], tt.precision},
				{"recall", m[mContraRecall], tt.recall},
				{"value recall", m[mValueRecall], tt.valueRecall},
				{"intra recall", ratio(c.IntraHit, c.IntraTotal, 1), tt.intra},
				{"not-contradictions ratio", m[mNotRatio], tt.nots},
			} {
				if math.Abs(chk.got-chk.want) > evalEpsilon {
					t.Errorf("%s = %v, want %v (counts %+v)", chk.name, chk.got, chk.want, c)
				}
			}
			if c.Certain != 2 || c.NotTotal != 1 {
				t.Errorf("certain = %d, not-contradictions = %d; want 2 and 1 (probable entries do not count for recall)", c.Certain, c.NotTotal)
			}
		})
	}
}

func TestEvalScoreFields(t *testing.T) {
	find := func(locs ...evalLoc) evalFinding { return evalFinding{Locs: locs, Quotes: make([]string, len(locs))} }
	a := func(l int) evalLoc { return evalLoc{File: "a.md", Line: l} }
	b := func(l int) evalLoc { return evalLoc{File: "b.md", Line: l} }
	tests := []struct {
		name           string
		fields         []evalFinding
		recall         float64
		false_, notHit int
	}{
		{name: "nothing reported", recall: 0},
		{name: "hit", fields: []evalFinding{find(a(81), b(90))}, recall: 1},
		{name: "one value only", fields: []evalFinding{find(a(80), b(95))}, recall: 0, false_: 1},
		// A labelled contradiction is a real disagreement too.
		{name: "on a contradiction", fields: []evalFinding{find(a(10), b(20))}, recall: 0},
		{name: "on a not-contradiction", fields: []evalFinding{find(a(60), b(70))}, recall: 0, false_: 1, notHit: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, _ := scoreFields(evalFakeTruth(), tt.fields)
			if got := c.metrics()[mFieldRecall]; math.Abs(got-tt.recall) > evalEpsilon {
				t.Errorf("field recall = %v, want %v", got, tt.recall)
			}
			if c.FieldFalse != tt.false_ || c.FieldNotHit != tt.notHit {
				t.Errorf("false = %d, on not-contradictions = %d; want %d and %d", c.FieldFalse, c.FieldNotHit, tt.false_, tt.notHit)
			}
		})
	}
}

func TestEvalScoreAlignment(t *testing.T) {
	h := func(f string, l int) evalHeading { return evalHeading{File: f, Line: l} }
	groups := []evalGroup{
		{ID: "AL01", Sections: []evalHeading{h("a.md", 1), h("b.md", 1), h("c.md", 1)}},
		// A topic split over two sections of b.
		{ID: "AL02", Sections: []evalHeading{h("a.md", 10), h("b.md", 10), h("b.md", 20)}},
		{ID: "AL03", Sections: []evalHeading{h("a.md", 30)}}, // unique to a: no pairs
	}
	p := func(fa string, la int, fb string, lb int) evalPair {
		return evalPair{A: evalLoc{File: fa, Line: la}, B: evalLoc{File: fb, Line: lb}}
	}
	tests := []struct {
		name              string
		pairs             []evalPair
		precision, recall float64
		unlabelled        int
	}{
		{name: "nothing predicted", precision: 1, recall: 0},
		{
			name:      "all found",
			pairs:     []evalPair{p("a.md", 1, "b.md", 1), p("c.md", 1, "a.md", 1), p("b.md", 1, "c.md", 1), p("a.md", 10, "b.md", 20)},
			precision: 1, recall: 1,
		},
		{
			name: "wrong, duplicate and unlabelled pairs",
			pairs: []evalPair{
				p("a.md", 1, "b.md", 1), p("b.md", 1, "a.md", 1), // one pair, counted once
				p("a.md", 30, "b.md", 10), // no common group
				p("a.md", 10, "b.md", 99), // b:99 is not labelled
			},
			precision: 0.5, recall: 0.25, unlabelled: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, res := scoreAlignment(groups, tt.pairs)
			m := c.metrics()
			if math.Abs(m[mAlignPrecision]-tt.precision) > evalEpsilon || math.Abs(m[mAlignRecall]-tt.recall) > evalEpsilon {
				t.Errorf("precision, recall = %v, %v; want %v, %v (counts %+v)", m[mAlignPrecision], m[mAlignRecall], tt.precision, tt.recall, c)
			}
			if c.AlignTruth != 4 {
				t.Errorf("truth pairs = %d, want 4 (AL01: 3, AL02: 1, AL03: 0)", c.AlignTruth)
			}
			if c.AlignUnlabelled != tt.unlabelled {
				t.Errorf("unlabelled = %d, want %d", c.AlignUnlabelled, tt.unlabelled)
			}
			if len(res.Missed) != c.AlignTruth-c.AlignFound || len(res.False) != c.AlignLabelled-c.AlignCorrect {
				t.Errorf("details disagree with counts: %d missed, %d false; counts %+v", len(res.Missed), len(res.False), c)
			}
		})
	}
}

func TestEvalFloors(t *testing.T) {
	floors := map[string]float64{}
	for _, name := range evalMetricNames {
		floors[name] = 0.5
	}
	floors[mFieldFalse] = 3
	tests := []struct {
		name        string
		metric      string
		value       float64
		fail, raise bool
	}{
		{"at the floor", mContraPrecision, 0.5, false, false},
		{"below the floor", mContraPrecision, 0.49, true, false},
		{"within the slack", mAlignRecall, 0.515, false, false},
		{"past the slack", mAlignRecall, 0.53, false, true},
		{"at the ceiling", mNotRatio, 0.5, false, false},
		{"above the ceiling", mNotRatio, 0.51, true, false},
		{"well under the ceiling", mNotRatio, 0.4, false, true},
		{"count above the ceiling", mFieldFalse, 4, true, false},
		{"count under the ceiling", mFieldFalse, 2, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			totals := maps.Clone(floors)
			totals[tt.metric] = tt.value
			failures, raise := evalFloorCheck(floors, totals)
			if (len(failures) > 0) != tt.fail || (len(raise) > 0) != tt.raise {
				t.Errorf("%s = %v: failures %q, raise %q; want failure %v, raise %v", tt.metric, tt.value, failures, raise, tt.fail, tt.raise)
			}
			if tt.fail && !strings.Contains(failures[0], tt.metric) {
				t.Errorf("failure %q does not name the metric %s", failures[0], tt.metric)
			}
		})
	}
}
