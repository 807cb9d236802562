package adversarial

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	yaml "go.yaml.in/yaml/v3"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/merge"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

// The chaos test: seeded runs of the model-backed pipeline (Mode A and B,
// 3 to 6 variants, model advocates, judge, contradiction agent and merge
// executor) with about 30% of the provider calls faulty — outages, rate
// limits, authentication errors, timeouts, malformed, empty and truncated
// replies — each checked against the seed's error matrix (FR-006, T06.01)
// and return contract (T05.07):
//
//   - the status is one the matrix allows for the faults the run saw: a
//     fault-free run ends as the case's baseline (never failed); a faulty
//     one ends failed only when fewer than two variants survive;
//   - every artifact the Result and the contract name is in the sink, byte
//     for byte;
//   - no goroutine outlives the run;
//   - the run is byte-identical when repeated, also when two copies share
//     one Runner at once.
//
// CRUCIBLE_CHAOS_RUNS sets the number of runs (default 200, CI's budget;
// CRUCIBLE_CHAOS_RUNS=1000 CRUCIBLE_CHAOS_ALL=1 for the sample);
// CRUCIBLE_CHAOS_SKIP=1 skips the test (CI runs it as its own step, to
// print the counts).
func TestChaos(t *testing.T) {
	if os.Getenv("CRUCIBLE_CHAOS_SKIP") != "" {
		t.Skip("CRUCIBLE_CHAOS_SKIP is set")
	}
	runs := 200
	if testing.Short() {
		runs = 40
	}
	if n, err := strconv.Atoi(os.Getenv("CRUCIBLE_CHAOS_RUNS")); err == nil && n > 0 {
		runs = n
	}
	cases := chaosCases(t)
	leakOpts := []goleak.Option{goleak.IgnoreCurrent()}
	var c chaosCounts
	for _, cc := range cases {
		res, _, err := cc.run(t, -1, nil)
		requireRunOutcome(t, res, err, cc.name)
		cc.baseline = res.Status
		t.Logf("chaos: case %s: fault-free status %s", cc.name, res.Status)
		if res.Status == StatusFailed {
			c.failWithoutFault++
			t.Errorf("%s: fails without any fault: %v", cc.name, res.Warnings)
		}
	}
	// Every case runs at least once; CI's budget then goes to the small
	// bundled samples (Mode A diverging and agreeing, Mode B), the
	// evaluation sets' larger documents taking several times as long.
	// CRUCIBLE_CHAOS_ALL=1 cycles over every case instead.
	cheap := cases[:3]
	if os.Getenv("CRUCIBLE_CHAOS_ALL") != "" {
		cheap = cases
	}
	for i := range runs {
		cc := cheap[i%len(cheap)]
		if i < len(cases) {
			cc = cases[i]
		}
		c.runs++
		// A rerun pair (two copies at once on one Runner) for every case's
		// first run and every third run after.
		c.check(t, cc, int64(i), leakOpts, i < len(cases) || i%3 == 0)
	}
	t.Logf("chaos: %d runs (%d with faults, %d calls faulty of %d): %d status mismatches, %d named-but-missing artifacts, %d failures without faults, %d differing reruns (of %d rerun pairs), %d panics, %d leaks; statuses %v",
		c.runs, c.faulty, c.faultyCalls, c.calls, c.mismatch, c.missing, c.failWithoutFault, c.differ, c.reruns, c.panics, c.leaks, c.statuses)
	fmt.Fprintf(os.Stderr, "chaos: %d runs, %d status mismatches, %d missing artifacts, %d failures without faults, %d differing reruns, %d panics, %d leaks\n",
		c.runs, c.mismatch, c.missing, c.failWithoutFault, c.differ, c.panics, c.leaks)
}

type chaosCounts struct {
	runs, faulty, faultyCalls, calls                    int
	mismatch, missing, failWithoutFault, differ, panics int
	leaks, reruns                                       int
	statuses                                            map[Status]int
}

// check runs case cc with seed: once alone, then twice at once on one
// Runner, and checks each run.
func (c *chaosCounts) check(t *testing.T, cc *chaosCase, seed int64, leakOpts []goleak.Option, rerun bool) {
	t.Helper()
	var alone *Result
	var sink *MemorySink
	var injected map[providertest.Fault]int
	func() {
		defer func() {
			if p := recover(); p != nil {
				c.panics++
				t.Errorf("%s seed %d: panic: %v", cc.name, seed, p)
			}
		}()
		var err error
		var inj *providertest.Injector
		alone, sink, err = cc.run(t, seed, &inj)
		if err = runOutcomeErr(alone, err); err != nil {
			t.Errorf("%s seed %d: %v", cc.name, seed, err)
			return
		}
		injected = inj.Injected()
	}()
	if alone == nil {
		return
	}
	if c.statuses == nil {
		c.statuses = map[Status]int{}
	}
	c.statuses[alone.Status]++
	faults := 0
	for _, n := range injected {
		faults += n
	}
	c.calls += alone.Usage.Calls
	c.faultyCalls += faults
	if faults > 0 {
		c.faulty++
	}
	if why := allowedStatus(alone, cc.baseline, faults); why != "" {
		c.mismatch++
		t.Errorf("%s seed %d (faults %v): %s; warnings %q", cc.name, seed, injected, why, alone.Warnings)
	}
	if faults == 0 && alone.Status == StatusFailed {
		c.failWithoutFault++
	}
	if missing := namedButMissing(alone, sink); len(missing) > 0 {
		c.missing += len(missing)
		t.Errorf("%s seed %d: named but not in the sink: %v", cc.name, seed, missing)
	}
	if err := goleak.Find(leakOpts...); err != nil {
		c.leaks++
		t.Errorf("%s seed %d: %v", cc.name, seed, err)
	}
	if !rerun {
		return
	}
	c.reruns++
	// The same run again, twice at once on one Runner.
	r := cc.runner(t)
	var wg sync.WaitGroup
	again := make([]*Result, 2)
	for k := range again {
		wg.Go(func() {
			res, _, err := cc.runOn(t, r, seed, nil)
			if runOutcomeErr(res, err) == nil {
				again[k] = res
			}
		})
	}
	wg.Wait()
	for _, res := range again {
		if res == nil || chaosDigest(res) != chaosDigest(alone) {
			c.differ++
			t.Errorf("%s seed %d: a rerun differs", cc.name, seed)
			break
		}
	}
}

// allowedStatus says why a run's status is not one the error matrix
// allows, or "".
func allowedStatus(res *Result, baseline Status, faults int) string {
	tooFew := slices.ContainsFunc(res.Warnings, func(w string) bool {
		return w == "Adversarial comparison requires minimum 2 variants" ||
			strings.HasPrefix(w, "Variant generation failed: "+diff.ErrTooFewVariants.Error()+": no agent generated a variant")
	})
	switch {
	case faults == 0 && res.Status != baseline:
		return fmt.Sprintf("no fault, status %s, the fault-free run's %s", res.Status, baseline)
	case res.Status == StatusFailed && !tooFew:
		return fmt.Sprintf("failed at %s, though at least 2 variants survived", res.FailureStage)
	case res.Status == StatusSuccess && degraded(res):
		return "success with a degradation warning"
	}
	return ""
}

// degraded reports a warning of a seam that fell back or dropped work.
func degraded(res *Result) bool {
	for _, w := range res.Warnings {
		if strings.Contains(w, "failed") || strings.Contains(w, "dropped") {
			return true
		}
	}
	return false
}

// namedButMissing lists what the Result or the contract names that the
// sink does not hold, byte for byte.
func namedButMissing(res *Result, sink *MemorySink) []string {
	var out []string
	for _, a := range res.Artifacts {
		if got, ok := sink.Get(a.Name); !ok || !bytes.Equal(got, a.Content) {
			out = append(out, a.Name)
		}
	}
	raw, ok := sink.Get(ReturnContractFile)
	if !ok {
		return append(out, ReturnContractFile)
	}
	var contract struct {
		MergedOutputPath string `yaml:"merged_output_path"`
	}
	if err := yaml.Unmarshal(raw, &contract); err != nil {
		return append(out, ReturnContractFile+" (unreadable)")
	}
	if p := contract.MergedOutputPath; p != "" {
		if got, ok := sink.Get(strings.TrimPrefix(p, "./")); !ok || string(got) != res.MergedOutput {
			out = append(out, p)
		}
	}
	if res.MergedOutput != "" && contract.MergedOutputPath == "" {
		out = append(out, "(merged output not named)")
	}
	return out
}

func chaosDigest(res *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", res.Status, res.FailureStage)
	for _, a := range res.Artifacts {
		fmt.Fprintf(&b, "%x %s\n", sha256.Sum256(a.Content), a.Name)
	}
	fmt.Fprintf(&b, "%x\n", sha256.Sum256([]byte(res.MergedOutput)))
	return b.String()
}

// chaosCase is one input of the chaos runs.
type chaosCase struct {
	name     string
	in       Input
	drafts   map[string]string // Mode B: each agent's draft
	agree    bool              // the advocates all prefer Variant A: the debate converges
	baseline Status
}

type injectorKey struct{}

// runner is the model-backed pipeline over the scripted model. The faults
// come from the injector in each run's context, so runs sharing the
// Runner keep their own.
func (cc *chaosCase) runner(t *testing.T) *Runner {
	model := scriptedModel(cc.drafts, cc.agree)
	faulty := provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
		if wrap, ok := ctx.Value(injectorKey{}).(provider.Middleware); ok {
			return wrap(model).Complete(ctx, req)
		}
		return model.Complete(ctx, req)
	})
	reg := provider.NewRegistry()
	for _, m := range []string{"opus", "sonnet", "haiku", "gpt52", "gemini"} {
		require.NoError(t, reg.Register(m, faulty))
	}
	return New(WithClock(fixedClock), WithRegistry(reg), WithModelAdvocates(), WithModelJudge("opus"),
		WithModelDetector("sonnet"), WithModelMerger("opus"), WithMergerOptions(merge.WithAllChanges()), WithConcurrency(4))
}

// run runs the case with the faults of seed (none when seed < 0).
func (cc *chaosCase) run(t *testing.T, seed int64, inj **providertest.Injector) (*Result, *MemorySink, error) {
	return cc.runOn(t, cc.runner(t), seed, inj)
}

func (cc *chaosCase) runOn(t *testing.T, r *Runner, seed int64, inj **providertest.Injector) (*Result, *MemorySink, error) {
	ctx := context.Background()
	if seed >= 0 {
		in := providertest.InjectFaults(chaosFaults(seed))
		ctx = context.WithValue(ctx, injectorKey{}, provider.Middleware(in.Wrap))
		if inj != nil {
			*inj = in
		}
	}
	sink := NewMemorySink()
	in := cc.in
	in.Sink = sink
	res, err := r.Run(ctx, in)
	return res, sink, err
}

// chaosFaults makes about 30% of calls faulty, of every kind.
func chaosFaults(seed int64) providertest.Faults {
	return providertest.Faults{Seed: seed, Error: 0.07, RateLimited: 0.05, Timeout: 0.03, Malformed: 0.05, Empty: 0.03,
		Auth: 0.03, Truncated: 0.04}
}

// chaosCases are the bundled samples in Mode A and B, the samples with
// the first evaluation set (6 variants, the orchestrator) and every
// evaluation set of ../shared/eval when present.
func chaosCases(t *testing.T) []*chaosCase {
	samples := sampleDrafts(t)
	agents := func(n int) []debate.AgentSpec {
		return agentList("opus:architect,sonnet:security,haiku:performance,gpt52:qa,gemini:analyzer,opus:backend")[:n]
	}
	cases := []*chaosCase{
		{name: "samples", in: Input{Compare: samples, ArtifactType: "Specification", Agents: agents(3)}},
		{name: "samples-agreeing", agree: true, in: Input{Compare: samples, ArtifactType: "Specification", Agents: agents(3)}},
	}
	src := &Draft{Name: "spec.md", Content: samples[0].Content}
	modeB := &chaosCase{name: "samples-mode-b", in: Input{Source: src, Generate: "spec", Agents: agents(3)}, drafts: map[string]string{}}
	srcDoc, err := diff.Parse(src.Name, src.Content)
	require.NoError(t, err)
	for i, s := range agents(3) {
		d, err := OutlineGenerator{}.Generate(context.Background(), GenerateRequest{Index: i + 1, Type: "spec", Agent: s, Source: srcDoc})
		require.NoError(t, err)
		modeB.drafts[s.String()] = "```markdown\n" + d + "```\n"
	}
	cases = append(cases, modeB)
	sets, _ := loadEvalCorpus(t)
	for k, set := range sets {
		cases = append(cases, &chaosCase{name: "eval-" + set.name, in: Input{Compare: set.drafts, Agents: agents(len(set.drafts))}})
		if k == 0 {
			six := append(slices.Clone(samples), set.drafts...)[:6]
			cases = append(cases, &chaosCase{name: "six-variants", in: Input{Compare: six, Agents: agents(6)}})
		}
	}
	return cases
}

// scriptedModel answers every role correctly, from the request alone.
func scriptedModel(drafts map[string]string, agree bool) provider.Provider {
	return provider.Func(func(_ context.Context, req provider.Request) (provider.Response, error) {
		var text string
		switch req.Tag(provider.TagRole) {
		case "generator":
			text = drafts[req.Tag(provider.TagAgent)]
		case "advocate":
			text = advocateReply(req)
			if agree {
				text = agreeing(req, text)
			}
		case "judge":
			text = judgeReply(req)
		case "contradiction-detector":
			text = "No contradictions beyond the rules'.\n\n```json\n{\"contradictions\": []}\n```\n"
		case "merge-executor":
			text = mergeReply(req)
		}
		if text == "" {
			return provider.Response{}, &provider.Error{Kind: provider.ErrInvalidRequest, Provider: "chaos", Message: "no script for " + req.Tag(provider.TagRole)}
		}
		resp := providertest.TextResponse(req, text)
		resp.FinishReason = provider.FinishStop
		return resp, nil
	})
}

var (
	criterionLine  = regexp.MustCompile(`(?m)^- ([A-Z]+-\d+) \(`)
	disputedLine   = regexp.MustCompile(`(?m)^Criterion ([A-Z]+-\d+) \(`)
	evaluateLabel  = regexp.MustCompile(`Evaluate Variant ([A-J]) `)
	reevalLabel    = regexp.MustCompile(`disagree on the criteria below for Variant ([A-J])`)
	untrustedBlock = regexp.MustCompile(`(?s)<<<UNTRUSTED SOURCE [0-9a-f]+\n(.*?)\nUNTRUSTED SOURCE [0-9a-f]+>>>`)
)

// judgeReply says NOT MET, with a note, for every pair asked about.
func judgeReply(req provider.Request) string {
	// The instruction is the third message; a retry appends the bad reply
	// and the problem after it.
	last := req.Messages[min(2, len(req.Messages)-1)].Content
	var labels, criteria []string
	if m := reevalLabel.FindStringSubmatch(last); m != nil {
		labels = []string{m[1]}
		for _, c := range disputedLine.FindAllStringSubmatch(last, -1) {
			criteria = append(criteria, c[1])
		}
	} else if m := evaluateLabel.FindStringSubmatch(last); m != nil {
		labels = []string{m[1]}
		for _, c := range criterionLine.FindAllStringSubmatch(req.Messages[0].Content, -1) {
			criteria = append(criteria, c[1])
		}
	}
	var vs []string
	for _, l := range labels {
		for _, c := range criteria {
			vs = append(vs, fmt.Sprintf(`{"variant": %q, "criterion": %q, "claim": "not shown", "evidence": [], "verdict": "NOT MET", "note": "searched every section"}`, l, c))
		}
	}
	return "```json\n{\"verdicts\": [" + strings.Join(vs, ", ") + "]}\n```\n"
}

// mergeReply hands back the source section it was shown.
func mergeReply(req provider.Request) string {
	// The base document comes first; the change, with its source, next.
	m := untrustedBlock.FindStringSubmatch(req.Messages[min(1, len(req.Messages)-1)].Content)
	if m == nil {
		return ""
	}
	return "```markdown\n" + m[1] + "\n```\n"
}

// agreeing rewrites an advocate's statement so that it prefers Variant A
// on every point, conceding it when it argues for another: the debate
// converges and a fault-free run can succeed.
func agreeing(req provider.Request, text string) string {
	body := text[strings.Index(text, "```json\n")+8 : strings.LastIndex(text, "```")]
	var reply map[string]any
	if err := json.Unmarshal([]byte(body), &reply); err != nil {
		return text
	}
	self := req.Tag(provider.TagVariant)
	var concessions []any
	positions, _ := reply["positions"].([]any)
	for _, p := range positions {
		pos := p.(map[string]any)
		pos["prefer"], pos["concede"], pos["confidence"] = "A", self != "A", 90
		if self != "A" {
			concessions = append(concessions, fmt.Sprint(pos["point"], " goes to Variant A"))
		}
	}
	reply["concessions"] = concessions
	b, _ := json.MarshalIndent(reply, "", "  ")
	return "```json\n" + string(b) + "\n```\n"
}
