package diff_test

// The model detector measured on the eval corpus (shared/eval), as issue 24
// asks: record every prompt the detector sends for the sets, have each
// answered by a model that sees nothing but the prompt, then replay the
// saved replies and score the analysis with the project's evaluation.
//
//	go test ./diff -run TestDetectorRequestSizes -v                  # requests and input tokens per set
//	CRUCIBLE_DETECTOR_PROMPTS=/dir go test ./diff -run TestDetectorPrompts -v
//	    writes /dir/set-NN-requestK.txt, one file per request
//	CRUCIBLE_DETECTOR_REPLIES=/dir go test ./diff -run TestDetectorReplay -v
//	    reads /dir/set-NN-requestK.txt (the reply to that prompt), replays
//	    them and prints precision and recall per set and in total; with
//	    CRUCIBLE_DETECTOR_PROMPTS set too, it names every request whose
//	    prompt differs from the one the replies answered
//
// Replies are tied to one version of the prompt; they stay out of the
// repository.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

// detectorIDRE finds the statement ids of a request: "A12 L40: …".
var detectorIDRE = regexp.MustCompile(`(?m)^([A-Z])(\d+) L\d`)

const (
	detectorPromptsEnv = "CRUCIBLE_DETECTOR_PROMPTS"
	detectorRepliesEnv = "CRUCIBLE_DETECTOR_REPLIES"
	// detectorRecordEnv names a directory where the replay writes every
	// request it sends: the restatement check's request depends on the
	// replies, so it can only be recorded while they are replayed.
	detectorRecordEnv = "CRUCIBLE_DETECTOR_RECORD"
)

// evalSetDocs parses the variants of one set.
func evalSetDocs(t *testing.T, dir string) (*evalTruth, []*diff.Document) {
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
	return tr, docs
}

// detectorRequestFile names the file of one request: set-01-request3.txt.
func detectorRequestFile(set string, req provider.Request) string {
	part, _, _ := strings.Cut(req.Tag(diff.TagDetectorPart), "/")
	return fmt.Sprintf("set-%s-request%s.txt", set[:2], part)
}

// detectorPromptText is a request as one text: what a model behind an
// API receives.
func detectorPromptText(req provider.Request) string {
	var b strings.Builder
	b.WriteString("=== SYSTEM ===\n" + req.System + "\n")
	for _, m := range req.Messages {
		b.WriteString("\n=== " + strings.ToUpper(string(m.Role)) + " ===\n" + m.Content + "\n")
	}
	return b.String()
}

// analyseWithDetector runs the analysis of one set with the rules and a
// model detector answering through p.
func analyseWithDetector(t *testing.T, docs []*diff.Document, p provider.Provider) *diff.Analysis {
	t.Helper()
	m, err := diff.NewModelDetector(p, "eval-model")
	if err != nil {
		t.Fatal(err)
	}
	a, err := diff.Analyze(context.Background(), docs, diff.WithClock(evalClock), diff.WithDetectors(diff.RuleDetector{}, m))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// recorder answers every request with no findings and keeps the requests.
type recorder struct {
	mu   sync.Mutex
	reqs []provider.Request
}

func (r *recorder) Complete(_ context.Context, req provider.Request) (provider.Response, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	resp := providertest.TextResponse(req, "```json\n{\"contradictions\": []}\n```")
	resp.FinishReason = provider.FinishStop
	return resp, nil
}

// TestDetectorRequestSizes reports the detector's requests for every set
// and checks that none exceeds the input budget.
func TestDetectorRequestSizes(t *testing.T) {
	dir := evalDir(t)
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "set\trequests\tinput tokens\tlargest\tper request\t")
	total, totalTokens := 0, 0
	for _, set := range evalSets(t, dir) {
		_, docs := evalSetDocs(t, filepath.Join(dir, set))
		rec := &recorder{}
		a := analyseWithDetector(t, docs, rec)
		for _, w := range a.Warnings {
			if strings.Contains(w, "detector") {
				t.Errorf("%s: %s", set, w)
			}
		}
		sizes := make([]int, len(rec.reqs))
		sum, largest := 0, 0
		for _, req := range rec.reqs {
			part, _, _ := strings.Cut(req.Tag(diff.TagDetectorPart), "/")
			var k int
			fmt.Sscan(part, &k)
			n := (len(req.Prompt()) + 3) / 4
			sizes[k-1] = n
			sum += n
			largest = max(largest, n)
			if n > diff.DefaultDetectorBudget {
				t.Errorf("%s request %s: %d tokens, over the budget of %d", set, part, n, diff.DefaultDetectorBudget)
			}
		}
		// Every statement of every variant is in some request: each
		// variant's ids run from 1 without a gap.
		ids := map[string]map[int]bool{}
		for _, req := range rec.reqs {
			for _, m := range detectorIDRE.FindAllStringSubmatch(req.Messages[len(req.Messages)-1].Content, -1) {
				if ids[m[1]] == nil {
					ids[m[1]] = map[int]bool{}
				}
				var n int
				fmt.Sscan(m[2], &n)
				ids[m[1]][n] = true
			}
		}
		if len(ids) != len(docs) {
			t.Errorf("%s: statements of %d variants in the requests, want %d", set, len(ids), len(docs))
		}
		for v, seen := range ids {
			for n := 1; n <= len(seen); n++ {
				if !seen[n] {
					t.Errorf("%s: statement %s%d is in no request", set, v, n)
				}
			}
		}
		total += len(rec.reqs)
		totalTokens += sum
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%v\t\n", set, len(rec.reqs), sum, largest, sizes)
	}
	fmt.Fprintf(tw, "TOTAL\t%d\t%d\t\t\t\n", total, totalTokens)
	tw.Flush()
	t.Log("model detector requests (input tokens estimated at 4 bytes a token)\n" + table.String())
}

// TestDetectorPrompts writes every request of the detector for the eval
// sets to $CRUCIBLE_DETECTOR_PROMPTS, one file per request.
func TestDetectorPrompts(t *testing.T) {
	out := os.Getenv(detectorPromptsEnv)
	if out == "" {
		t.Skipf("set %s to a directory to write the detector's prompts there", detectorPromptsEnv)
	}
	dir := evalDir(t)
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, set := range evalSets(t, dir) {
		_, docs := evalSetDocs(t, filepath.Join(dir, set))
		rec := &recorder{}
		analyseWithDetector(t, docs, rec)
		for _, req := range rec.reqs {
			name := filepath.Join(out, detectorRequestFile(set, req))
			if err := os.WriteFile(name, []byte(detectorPromptText(req)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %d prompts", set, len(rec.reqs))
	}
}

// replayer answers each request with the saved reply of its file. When
// prompts is set, it also compares each request with the prompt the
// replies answered, so that replies are never scored against a prompt
// they did not see without saying so.
type replayer struct {
	dir, set, prompts, record string
	mu                        sync.Mutex
	missing, changed          []string
	ungrouped                 bool // no reply to the restatement check: findings stay apart
}

func (r *replayer) Complete(_ context.Context, req provider.Request) (provider.Response, error) {
	name := detectorRequestFile(r.set, req)
	if r.record != "" {
		if err := os.WriteFile(filepath.Join(r.record, name), []byte(detectorPromptText(req)), 0o644); err != nil {
			return provider.Response{}, err
		}
	}
	if r.prompts != "" {
		if saved, err := os.ReadFile(filepath.Join(r.prompts, name)); err != nil || string(saved) != detectorPromptText(req) {
			r.mu.Lock()
			r.changed = append(r.changed, name)
			r.mu.Unlock()
		}
	}
	text, err := os.ReadFile(filepath.Join(r.dir, name))
	if err != nil {
		r.mu.Lock()
		if req.Tag(diff.TagDetectorPart) == diff.TagDetectorRestatements {
			r.ungrouped = true
		} else {
			r.missing = append(r.missing, name)
		}
		r.mu.Unlock()
		return provider.Response{}, &provider.Error{Kind: provider.ErrNotRecorded, Provider: "replay", Message: "no reply " + name}
	}
	resp := providertest.TextResponse(req, string(text))
	resp.FinishReason = provider.FinishStop
	return resp, nil
}

// TestDetectorReplay replays saved replies through the detector and
// scores the analysis per set and in total. Changes (content differences
// of kind revision-change) are listed beside: a label marked
// superseded-by-later found as a change is the right answer for it.
func TestDetectorReplay(t *testing.T) {
	replies := os.Getenv(detectorRepliesEnv)
	if replies == "" {
		t.Skipf("set %s to the directory of saved replies to score them", detectorRepliesEnv)
	}
	dir := evalDir(t)
	debug := os.Getenv(evalDebugEnv) != "" && os.Getenv(evalDebugEnv) != "0"
	var total evalCounts
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "set\tX rep\tX prec\tX recall\trecall, changes counted\tintra recall\tN hit\tsuperseded as X\tsuperseded as change\tchanges\tunconfirmed\t")
	changeHits := 0
	for _, set := range evalSets(t, dir) {
		tr, docs := evalSetDocs(t, filepath.Join(dir, set))
		if have, _ := filepath.Glob(filepath.Join(replies, fmt.Sprintf("set-%s-request*.txt", set[:2]))); len(have) == 0 {
			t.Logf("%s: no replies, not scored", set)
			continue
		}
		rp := &replayer{dir: replies, set: set, prompts: os.Getenv(detectorPromptsEnv), record: os.Getenv(detectorRecordEnv)}
		a := analyseWithDetector(t, docs, rp)
		if len(rp.missing) > 0 {
			t.Errorf("%s: no reply for %v", set, rp.missing)
			continue
		}
		if rp.ungrouped {
			t.Logf("%s: no reply to the restatement check; findings scored as found", set)
		}
		if len(rp.changed) > 0 {
			slices.Sort(rp.changed)
			t.Logf("%s: the prompt differs from the one answered for %v", set, rp.changed)
		}
		points := evalPoints(tr, a)
		c, matches, found := scoreContradictions(tr, points)
		total.add(c)
		var changes, unconfirmed []evalFinding
		for _, p := range a.ByCategory(diff.CategoryContent) {
			if p.Kind != diff.RevisionChange && p.Kind != diff.UnconfirmedContradiction {
				continue
			}
			f := evalFinding{ID: p.ID, Kind: p.Kind}
			for _, e := range p.Evidence {
				f.Locs = append(f.Locs, evalLoc{File: tr.Variants[e.Variant].File, Line: e.Line})
				f.Quotes = append(f.Quotes, e.Quote)
			}
			if p.Kind == diff.RevisionChange {
				changes = append(changes, f)
			} else {
				unconfirmed = append(unconfirmed, f)
			}
		}
		asX, asChange, onlyChange := 0, 0, 0
		for _, tc := range tr.Contradictions {
			if tc.Resolution != "superseded-by-later" {
				continue
			}
			if found[tc.ID] {
				asX++
			}
			for _, f := range changes {
				if evalHits(sideLocs(tc.Sides), f.Locs) {
					asChange++
					if !found[tc.ID] && tc.certain() {
						onlyChange++
					}
					break
				}
			}
		}
		changeHits += onlyChange
		m := c.metrics()
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%d/%d\t%d\t%d\t%d\t%d\t\n", set, c.Reported,
			frac(m[mContraPrecision], c.Correct, c.Reported), frac(m[mContraRecall], c.CertainFound, c.Certain),
			frac(ratio(c.CertainFound+onlyChange, c.Certain, 1), c.CertainFound+onlyChange, c.Certain),
			frac(ratio(c.IntraHit, c.IntraTotal, 1), c.IntraHit, c.IntraTotal), c.NotHit, c.NotTotal, asX, asChange, len(changes), len(unconfirmed))
		if debug {
			var b strings.Builder
			writeEvalDebug(&b, evalRun{tr: tr, docs: docs, points: points, pointMatches: matches, found: found})
			for _, f := range append(changes, unconfirmed...) {
				fmt.Fprintf(&b, "  %s %s: %v\n", f.ID, f.Kind, f.Locs)
			}
			b.WriteString("contradictions, subject and reason:\n")
			for _, p := range a.ByCategory(diff.CategoryContradiction) {
				fmt.Fprintf(&b, "  %s %q: %s\n", p.ID, p.Title, p.Reason)
			}
			b.WriteString("differences, subject and reason:\n")
			for _, p := range a.ByCategory(diff.CategoryContent) {
				if p.Kind == diff.RevisionChange || p.Kind == diff.UnconfirmedContradiction {
					fmt.Fprintf(&b, "  %s %q: %s\n", p.ID, p.Title, p.Reason)
				}
			}
			t.Log(set + "\n" + b.String())
		}
	}
	m := total.metrics()
	fmt.Fprintf(tw, "TOTAL\t%d\t%s\t%s\t%s\t%s\t%d/%d\t\t\t\t\t\n", total.Reported, frac(m[mContraPrecision], total.Correct, total.Reported),
		frac(m[mContraRecall], total.CertainFound, total.Certain),
		frac(ratio(total.CertainFound+changeHits, total.Certain, 1), total.CertainFound+changeHits, total.Certain), frac(ratio(total.IntraHit, total.IntraTotal, 1), total.IntraHit, total.IntraTotal),
		total.NotHit, total.NotTotal)
	tw.Flush()
	t.Log("model detector with the rules, replayed replies\n" + table.String())
}
