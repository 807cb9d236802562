package diff

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crucible-go/crucible/provider/llmjson"
)

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/docs/*.md")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{"", "#", "---\na: 1\n---\n", "a\r\nb\rc", "- # h\n> ## q\n", "x\n===\n- - -\n", "```\n# c\n", "|a|b|\n|-|-|\n|1|2|"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := Parse("fuzz", src)
		if err != nil {
			if d != nil {
				t.Fatal("a failed parse returned a document")
			}
			return
		}
		checkInvariants(t, d)
		again, err := Parse("fuzz", []byte(d.Source))
		if err != nil {
			t.Fatalf("re-parsing the normalised source failed: %v", err)
		}
		if dump(again) != dump(d) {
			t.Fatalf("parsing is not idempotent:\n%s\n---\n%s", dump(d), dump(again))
		}
	})
}

func FuzzAnalyze(f *testing.F) {
	sets := []string{"contradictions", "content", "organization"}
	for _, set := range sets {
		a, _ := os.ReadFile(filepath.Join("testdata", "sets", set, "a.md"))
		b, _ := os.ReadFile(filepath.Join("testdata", "sets", set, "b.md"))
		f.Add(a, b)
	}
	f.Add([]byte(""), []byte("# T\n"))
	f.Add([]byte("A depends on B. B depends on A."), []byte("Use Redis for the cache. Use Memcached for the cache."))
	// the rules for reviewers' citations, counts, defaults and totals
	f.Add([]byte("# A\n\n| Ref | Actual | Verdict |\n|---|---|---|\n| `x.py:4-8` (sig) | Sig spans lines 5-9. | should be 5-9 |\n\nThe `f` property is at `x.py:9-12` (not 10-12).\n\n- **Sycophantic agreements detected**: 4\n"),
		[]byte("# B\n\n| Ref | Actual | Verdict |\n|---|---|---|\n| `x.py:4-8` sig | Actual: lines 5-8. | REFUTED |\n\n- `x.py:10-12`: `f` -- CONFIRMED.\n\nTwo instances of sycophantic agreement were detected.\n"))
	f.Add([]byte("# A\n\n**Via flag** `--mode {a|b}`:\n- `b` — default; x.\n\n1. **v1** — `--mode` flag. Default `a`.\n\n## Total timeline\n- **3-4 days**\n"),
		[]byte("# B\n\n| Phase | Days |\n|---|---|\n| 1 | 9 days |\n| Total | 20-25 days |\n\n### Task 4.1: Do\n```yaml\ndepends_on: [3.1, 3.2]\n```\n"))
	// the rules for self-contradicting counts, corrections, series and change sizes
	f.Add([]byte("# A\n\n## NR-6 — B\n\n**Assessment: PARTIALLY REDUNDANT.** x\n\n| Category | Count |\n|---|---|\n| Redundancies found | 1 (NR-3 partially) |\n\n1. **OV-1 x**: y\n2. **OV-4 x**: y\n\nIt favors B in 3 out of 3 cases (OV-1, OV-4 favor B; OV-2 recommends merge).\n"),
		[]byte("# B\n\n| Ref | Actual |\n|---|---|\n| `d.py:2` | S=22, T=23. Actually: line 21 is `S`, not line 22. |\n\nBut if there were a step 9, it re-runs. The 9-step pipeline.\n\nThe executor itself is unchanged except for two new lines.\n\n- **`notify.py`**: x. Single-line change.\n- Files: executor.py (+~30 LOC), notify.py (+~10 LOC)\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		da, err := Parse("a", a)
		if err != nil {
			return
		}
		db, err := Parse("b", b)
		if err != nil {
			return
		}
		docs := []*Document{da, db}
		an, err := Analyze(context.Background(), docs, WithClock(fixedClock))
		if err != nil {
			t.Fatalf("Analyze: %v", err)
		}
		checkAnalysisInvariants(t, docs, an)
		if err := Validate(an.Markdown()); err != nil {
			t.Fatalf("rendering fails validation: %v\n%s", err, an.Markdown())
		}
		again, _ := Analyze(context.Background(), docs, WithClock(fixedClock))
		if again.Markdown() != an.Markdown() {
			t.Fatal("Analyze is not deterministic")
		}
	})
}

// FuzzDetectorStatements checks the model detector's view of any
// document: ids unique, every statement's lines inside the document, and
// a model citing any statement at any line gets a quote that is a line of
// the variant.
func FuzzDetectorStatements(f *testing.F) {
	for _, s := range []string{"", "# T\n\n- a: 1\n  - b 2\n", "|a|b|\n|-|-|\n|1|2|\n", "```go\nx := 1\n```\n", "p1\np2\n\n1. q?\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := Parse("fuzz", src)
		if err != nil {
			return
		}
		stmts := buildStatements(d, 0)
		byID := map[string]*detStatement{}
		for i := range stmts {
			s := &stmts[i]
			if byID[s.id] != nil {
				t.Fatalf("id %s twice", s.id)
			}
			byID[s.id] = s
			first, last := s.lines()
			if first < 1 || last < first || last > d.Lines {
				t.Fatalf("%s spans lines %d-%d of %d", s.id, first, last, d.Lines)
			}
			var b strings.Builder
			s.render(&b)
		}
		v := verifier{docs: []*Document{d}, byID: byID, log: slog.New(slog.DiscardHandler), ctx: context.Background()}
		for i := 0; i+1 < len(stmts); i++ {
			v.add(detFinding{Subject: "x", Kind: "numeric", Sides: []detSide{{ID: stmts[i].id, Line: llmjson.Int(stmts[i].line + 1)}, {ID: stmts[i+1].id}}})
		}
		lines := strings.Split(d.Source, "\n")
		f := v.findings()
		for _, c := range append(f.Contradictions, diffContradictions(f.Differences)...) {
			for _, cl := range c.Claims {
				if cl.Line < 1 || cl.Line > len(lines) || strings.TrimSpace(lines[cl.Line-1]) != cl.Quote {
					t.Fatalf("quote %q is not line %d", cl.Quote, cl.Line)
				}
			}
		}
	})
}

func diffContradictions(ds []Difference) []Contradiction {
	var out []Contradiction
	for _, d := range ds {
		out = append(out, Contradiction{Claims: d.Claims})
	}
	return out
}

// FuzzLineRules checks the rules that read counts, corrections and change
// sizes out of a document's lines: on any document they neither panic nor
// cite a quote that is not on the line they cite, and every finding lies
// within one variant.
func FuzzLineRules(f *testing.F) {
	for _, s := range []string{
		"| Category | Count |\n|---|---|\n| Redundancies found | 1 (NR-3 partially) |\n\n## NR-6 — B\n\n**Assessment: PARTIALLY REDUNDANT.** x\n",
		"| Ref | Actual |\n|---|---|\n| `d.py:2` | S=22, T=23. Actually: line 21 is `S`, not line 22. |\n",
		"The executor itself is unchanged except for two new lines.\n\n- **`notify.py`**: x. Single-line change.\n- Files: executor.py (+~30 LOC), notify.py (+~10 LOC)\n",
		"1. **OV-1 x**: y\n2. **OV-4 x**: y\n\nIt favors B in 3 out of 3 cases (OV-1, OV-4 favor B; OV-2 recommends merge).\n",
		"| Item | Assigned | Mine |\n|---|---|---|\n| a | HIGH | **LOW** |\n| b | HIGH | HIGH |\n\n3 items are rated too HIGH, 2 items are rated correctly HIGH.\n",
	} {
		f.Add([]byte("# T\n\n## S\n\n" + s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := Parse("fuzz", src)
		if err != nil {
			return
		}
		in := NewDetectInput(d)
		lines := strings.Split(d.Source, "\n")
		for _, rule := range []func(DetectInput) []Contradiction{detectCountedLabels, detectSelfCorrections, detectChangeSizes,
			detectEnumeratedCounts, detectRatingTallies} {
			for _, c := range rule(in) {
				if len(c.Claims) < 2 || c.Scope() != IntraVariant {
					t.Fatalf("%s: %d claims, scope %s", c.Key, len(c.Claims), c.Scope())
				}
				for _, cl := range c.Claims {
					if cl.Line < 1 || cl.Line > len(lines) || cl.Quote == "" || !strings.Contains(lines[cl.Line-1], cl.Quote) {
						t.Fatalf("%s: quote %q is not on line %d", c.Key, cl.Quote, cl.Line)
					}
				}
			}
		}
	})
}
