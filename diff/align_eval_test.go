package diff

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// A quick measurement of the topic alignment against the hand-labelled
// alignments of the evaluation corpus (/work/shared/eval, or
// CRUCIBLE_EVAL_DIR): pairwise precision and recall per set and in total.
// It reports; it does not fail.

type alEvalTruth struct {
	Variants []struct {
		File string `yaml:"file"`
	} `yaml:"variants"`
	Alignments []struct {
		ID       string `yaml:"id"`
		Sections []struct {
			File    string `yaml:"file"`
			Heading string `yaml:"heading"`
			Line    int    `yaml:"line"`
		} `yaml:"sections"`
	} `yaml:"alignments"`
}

type alEvalKey struct {
	file string
	line int
}

func alEvalDir() string {
	if d := os.Getenv("CRUCIBLE_EVAL_DIR"); d != "" {
		return d
	}
	return "/work/shared/eval"
}

func TestAlignEval(t *testing.T) {
	sets, _ := filepath.Glob(filepath.Join(alEvalDir(), "*", "truth.yaml"))
	if len(sets) == 0 {
		t.Skip("no evaluation corpus")
	}
	debug := os.Getenv("CRUCIBLE_EVAL_DEBUG") != ""
	var tp, fp, rHit, rAll int
	for _, path := range sets {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var tr alEvalTruth
		if err := yaml.Unmarshal(raw, &tr); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Dir(path)
		var docs []*Document
		var files []string
		for _, v := range tr.Variants {
			src, err := os.ReadFile(filepath.Join(dir, v.File))
			if err != nil {
				t.Fatal(err)
			}
			d, err := Parse(v.File, src)
			if err != nil {
				t.Fatal(err)
			}
			docs, files = append(docs, d), append(files, v.File)
		}
		groups := map[alEvalKey][]int{} // heading → truth groups holding it
		for g, ag := range tr.Alignments {
			for _, s := range ag.Sections {
				k := alEvalKey{s.File, s.Line}
				groups[k] = append(groups[k], g)
			}
		}
		// Check that every labelled heading is a section.
		for v, d := range docs {
			have := map[int]bool{}
			for _, s := range d.Sections {
				have[s.Line] = true
			}
			for k := range groups {
				if k.file == files[v] && !have[k.line] {
					t.Errorf("%s: labelled heading %s:%d is no section", filepath.Base(dir), k.file, k.line)
				}
			}
		}
		al := &aligner{docs: docs, terms: map[string]int32{}}
		al.measure()
		topics := al.run()
		secOf := func(k alEvalKey) (int, int) {
			for v, f := range files {
				if f == k.file {
					for i, s := range docs[v].Sections {
						if s.Line == k.line {
							return v, i
						}
					}
				}
			}
			return -1, -1
		}
		explain := func(a, b alEvalKey) string {
			v, i := secOf(a)
			w, j := secOf(b)
			if v < 0 || w < 0 {
				return "?"
			}
			x, y := al.secs[v][i], al.secs[w][j]
			return fmt.Sprintf("t=%.2f c=%.2f/%.2f dup=%d/%d s0=%.2f s=%.2f m=%d", x.title.dot(y.title), x.body.dot(y.body), x.sub.dot(y.sub), x.dup, y.dup,
				al.score(v, i, w, j, false), al.score(v, i, w, j, true), al.match[v][w][i])
		}
		type link struct{ a, b alEvalKey }
		var links []link
		stp, sfp := 0, 0
		for _, tp := range topics {
			for v := range docs {
				for w := v + 1; w < len(docs); w++ {
					if tp.sections[v] < 0 || tp.sections[w] < 0 {
						continue
					}
					a := alEvalKey{files[v], docs[v].Sections[tp.sections[v]].Line}
					b := alEvalKey{files[w], docs[w].Sections[tp.sections[w]].Line}
					links = append(links, link{a, b})
					ga, gb := groups[a], groups[b]
					if len(ga) == 0 || len(gb) == 0 {
						continue
					}
					ok := false
					for _, g := range ga {
						ok = ok || slices.Contains(gb, g)
					}
					if os.Getenv("CRUCIBLE_EVAL_HIST") != "" {
						fmt.Printf("HIST %v %.3f %s %s %q ~ %q\n", ok, al.score(v, tp.sections[v], w, tp.sections[w], true), filepath.Base(dir), explain(a, b), docs[v].Sections[tp.sections[v]].Title, docs[w].Sections[tp.sections[w]].Title)
					}
					if ok {
						stp++
					} else {
						sfp++
						if debug {
							t.Logf("%s FP: %s:%d %q ~ %s:%d %q  [%s]", filepath.Base(dir), a.file, a.line, docs[v].Sections[tp.sections[v]].Title,
								b.file, b.line, docs[w].Sections[tp.sections[w]].Title, explain(a, b))
						}
					}
				}
			}
		}
		sHit, sAll := 0, 0
		for g, ag := range tr.Alignments {
			byFile := map[string][]alEvalKey{}
			var fs []string
			for _, s := range ag.Sections {
				if len(byFile[s.File]) == 0 {
					fs = append(fs, s.File)
				}
				byFile[s.File] = append(byFile[s.File], alEvalKey{s.File, s.Line})
			}
			for i := range fs {
				for j := i + 1; j < len(fs); j++ {
					sAll++
					found := false
					for _, l := range links {
						if slices.Contains(groups[l.a], g) && slices.Contains(groups[l.b], g) && l.a.file != l.b.file &&
							(l.a.file == fs[i] && l.b.file == fs[j] || l.a.file == fs[j] && l.b.file == fs[i]) {
							found = true
							break
						}
					}
					if found {
						sHit++
					} else if debug {
						var hs []string
						for _, x := range byFile[fs[i]] {
							for _, y := range byFile[fs[j]] {
								hs = append(hs, fmt.Sprintf("\n      %s:%d ~ %s:%d [%s]", x.file, x.line, y.file, y.line, explain(x, y)))
							}
						}
						var names []string
						for _, s := range tr.Alignments[g].Sections {
							if s.File == fs[i] || s.File == fs[j] {
								names = append(names, fmt.Sprintf("%s:%d %q", s.File, s.Line, s.Heading))
							}
						}
						t.Logf("%s FN %s: %s%s", filepath.Base(dir), tr.Alignments[g].ID, strings.Join(names, " | "), strings.Join(hs[:min(len(hs), 6)], ""))
					}
				}
			}
		}
		t.Logf("%-36s precision %d/%d = %.3f  recall %d/%d = %.3f", filepath.Base(dir), stp, stp+sfp, alEvalRatio(stp, stp+sfp), sHit, sAll, alEvalRatio(sHit, sAll))
		tp, fp, rHit, rAll = tp+stp, fp+sfp, rHit+sHit, rAll+sAll
	}
	t.Logf("%-36s precision %d/%d = %.3f  recall %d/%d = %.3f", "TOTAL", tp, tp+fp, alEvalRatio(tp, tp+fp), rHit, rAll, alEvalRatio(rHit, rAll))
}

func alEvalRatio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}
