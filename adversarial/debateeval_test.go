package adversarial

// The debate evaluation runs the offline pipeline on every set of the
// labelled corpus and reports what step 2 argued about:
//
//   - convergence over the contested points (the figure the threshold
//     uses) beside the convergence over all points;
//   - point precision: the share of the debate's contested content and
//     contradiction points that concern a labelled disagreement (a
//     contradiction or a field disagreement of the truth lies in the
//     point's evidence or in one of the sections it compares) — the rest
//     argue over items the variants agree on;
//   - field recall: the share of labelled field disagreements some
//     contested content or contradiction point concerns.
//
//	go test ./adversarial -run TestDebateEval -v
//	CRUCIBLE_EVAL_DEBUG=1 …   # the points on no labelled disagreement, the fields no point reaches
//	CRUCIBLE_EVAL_DUMP=/tmp/eval …   # every set's artifacts, to read them as a reader would
//
// The targets are 0.9 for both. The test fails only when a total falls
// below the floors in testdata/eval/debate-floors.json (a ratchet: raise
// them as the choice of points improves). The figures measure the diff's
// points as much as the debate's choice among them.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/crucible-go/crucible/diff"
)

// labelledLine is a line of one variant that a label points at.
type labelledLine struct {
	variant int
	line    int
}

func TestDebateEval(t *testing.T) {
	var points, real, fields, found int
	debug := os.Getenv("CRUCIBLE_EVAL_DEBUG") != ""
	for _, set := range readEvalSets(t) {
		res, err := newPipeline().Run(context.Background(), Input{Compare: set.drafts})
		if err != nil {
			t.Fatalf("%s: %v", set.name, err)
		}
		if dir := os.Getenv("CRUCIBLE_EVAL_DUMP"); dir != "" {
			for _, art := range res.Artifacts {
				p := filepath.Join(dir, set.name, art.Name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, art.Content, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		d, a := res.Steps.Debate, res.Steps.Analysis
		if d == nil || a == nil {
			t.Logf("%-36s no debate", set.name)
			continue
		}
		docs := make([]*diff.Document, len(set.drafts))
		for i, dr := range set.drafts {
			if docs[i], err = diff.Parse(dr.Name, dr.Content); err != nil {
				t.Fatal(err)
			}
		}
		file := func(name string) int {
			return slices.IndexFunc(set.drafts, func(d Draft) bool { return d.Name == name })
		}
		var disagreements []labelledLine
		for _, x := range set.truth.Contradictions {
			for _, s := range x.Sides {
				disagreements = append(disagreements, labelledLine{file(s.File), s.Line})
			}
		}
		fieldLines := make([][]labelledLine, len(set.truth.FieldDisagreements))
		for i, f := range set.truth.FieldDisagreements {
			for _, v := range f.Values {
				fieldLines[i] = append(fieldLines[i], labelledLine{file(v.File), v.Line})
			}
			disagreements = append(disagreements, fieldLines[i]...)
		}

		setPoints, setReal := 0, 0
		covered := make([]bool, len(fieldLines))
		contested := map[string]bool{}
		for _, id := range d.ContestedPoints {
			contested[id] = true
		}
		for _, p := range a.Points {
			if !contested[p.ID] || p.Category != diff.CategoryContent && p.Category != diff.CategoryContradiction {
				continue
			}
			setPoints++
			if concerns(p, docs, disagreements) {
				setReal++
			} else if debug {
				t.Logf("    %s %s: no labelled disagreement", p.ID, p.Title)
			}
			for i, ls := range fieldLines {
				covered[i] = covered[i] || concerns(p, docs, ls)
			}
		}
		setFound := 0
		for i, c := range covered {
			if c {
				setFound++
			} else if debug {
				f := set.truth.FieldDisagreements[i]
				t.Logf("    %s %s / %s: no contested point", f.ID, f.Item, f.Field)
			}
		}
		t.Logf("%-36s convergence %3.0f%% contested (%d of %d), %3.0f%% all points; points on labelled disagreements %s; field disagreements debated %s",
			set.name, 100*d.Convergence, d.ContestedAgreed, d.Contested, 100*d.Overall,
			ratio(setReal, setPoints), ratio(setFound, len(fieldLines)))
		points, real, fields, found = points+setPoints, real+setReal, fields+len(fieldLines), found+setFound
	}
	t.Logf("%-36s points on labelled disagreements %s; field disagreements debated %s", "TOTAL", ratio(real, points), ratio(found, fields))

	raw, err := os.ReadFile(filepath.Join("testdata", "eval", "debate-floors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var floor struct {
		Points float64 `json:"points_on_labelled_disagreements"`
		Fields float64 `json:"field_disagreements_debated"`
	}
	if err := json.Unmarshal(raw, &floor); err != nil {
		t.Fatal(err)
	}
	share := func(n, d int) float64 {
		if d == 0 {
			return 1
		}
		return float64(n) / float64(d)
	}
	if got := share(real, points); got < floor.Points {
		t.Errorf("points on labelled disagreements: %.3f, below the floor %.2f", got, floor.Points)
	}
	if got := share(found, fields); got < floor.Fields {
		t.Errorf("field disagreements debated: %.3f, below the floor %.2f", got, floor.Fields)
	}
}

// concerns reports whether point p is about one of the labelled lines:
// its evidence quotes within two lines of one, or a section it compares
// holds one.
func concerns(p diff.Point, docs []*diff.Document, lines []labelledLine) bool {
	for _, l := range lines {
		if l.variant < 0 {
			continue
		}
		for _, e := range p.Evidence {
			if e.Variant == l.variant && e.Line >= l.line-2 && e.Line <= l.line+2 {
				return true
			}
		}
		if l.variant < len(p.Positions) {
			if si := p.Positions[l.variant].Section; si >= 0 && si < len(docs[l.variant].Sections) {
				s := docs[l.variant].Sections[si]
				first, last := s.Line, docs[l.variant].LineAt(max(s.Span.End-1, s.Span.Start))
				if l.line >= first && l.line <= last {
					return true
				}
			}
		}
	}
	return false
}

func ratio(n, d int) string {
	if d == 0 {
		return "— (none)"
	}
	return fmt.Sprintf("%.2f (%d of %d)", float64(n)/float64(d), n, d)
}
