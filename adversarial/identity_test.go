package adversarial

// The identity test pins every artifact of representative runs to a digest
// recorded in testdata/identity: the bundled samples at every depth, Mode B
// offline, scripted model advocates, the orchestrator, a debate that fails,
// and every set of the evaluation corpus. It uses the pipeline's exported
// API only, so code can move between packages under it: a refactoring that
// changes no behaviour leaves every digest as it is. A change that is meant
// to alter artifacts rewrites the digests with -update, and its commit says
// why.
//
// On a mismatch, set CRUCIBLE_IDENTITY_DUMP=/some/dir to write the run's
// artifacts there and compare them with a run of the previous commit.

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/internal/samplegen"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

type identityCase struct {
	name string
	run  func(t *testing.T) (*Result, error)
}

func TestArtifactsIdentity(t *testing.T) {
	cases := []identityCase{
		{"samples-quick", sampleRun(Input{Depth: "quick"})},
		{"samples-standard", sampleRun(Input{})},
		{"samples-deep", sampleRun(Input{Depth: "deep", Convergence: 0.95})},
		{"samples-focus", sampleRun(Input{Focus: []string{"security"}})},
		{"mode-b-offline", func(t *testing.T) (*Result, error) {
			src := &Draft{Name: "spec.md", Content: sampleDrafts(t)[0].Content}
			return newPipeline().Run(context.Background(),
				Input{Source: src, Generate: "spec", Agents: agentList("opus:architect,sonnet:security,haiku:performance")})
		}},
		{"model-advocates-standard", modelAdvocateRun("standard", "")},
		{"model-advocates-deep", modelAdvocateRun("deep", "")},
		{"model-advocates-one-fails", modelAdvocateRun("standard", "B")},
		{"model-advocates-two-fail", modelAdvocateRun("standard", "BC")},
		{"orchestrator", func(t *testing.T) (*Result, error) {
			var drafts []Draft
			for i := range 6 {
				drafts = append(drafts, Draft{Name: fmt.Sprintf("v%d.md", i+1), Content: samplegen.Spec(uint64(i%3+1), 4000)})
			}
			return newPipeline().Run(context.Background(), Input{Compare: drafts})
		}},
	}
	sets, dir := loadEvalCorpus(t)
	if sets == nil {
		t.Logf("no evaluation corpus at %s: its sets are not pinned in this run", dir)
	}
	for _, set := range sets {
		cases = append(cases, identityCase{"eval-" + set.name, func(t *testing.T) (*Result, error) {
			return newPipeline().Run(context.Background(), Input{Compare: set.drafts, ArtifactType: "Artifact"})
		}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := c.run(t)
			got := identityDigest(res, err)
			if dir := os.Getenv("CRUCIBLE_IDENTITY_DUMP"); dir != "" && res != nil {
				for _, a := range res.Artifacts {
					p := filepath.Join(dir, c.name, a.Name)
					require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
					require.NoError(t, os.WriteFile(p, a.Content, 0o644))
				}
			}
			checkGolden(t, filepath.Join("identity", c.name+".txt"), got)
		})
	}
}

// sampleRun runs the bundled samples with the settings of in.
func sampleRun(in Input) func(t *testing.T) (*Result, error) {
	return func(t *testing.T) (*Result, error) {
		in.Compare = sampleDrafts(t)
		in.ArtifactType = "Specification"
		return newPipeline().Run(context.Background(), in)
	}
}

// modelAdvocateRun runs the samples with model advocates answering from a
// fixed rule (see advocateReply); every call of the advocates of the
// variants in failing fails, so the debate goes on without them or ends.
func modelAdvocateRun(depth, failing string) func(t *testing.T) (*Result, error) {
	return func(t *testing.T) (*Result, error) {
		fake := providertest.NewFake()
		fake.Default = func(_ context.Context, req provider.Request) (provider.Response, error) {
			if v := req.Tag(provider.TagVariant); v != "" && strings.Contains(failing, v) {
				return provider.Response{}, &provider.Error{Kind: provider.ErrUnavailable, Retryable: true}
			}
			return providertest.TextResponse(req, advocateReply(req)), nil
		}
		reg := provider.NewRegistry()
		for _, m := range []string{"opus", "sonnet", "haiku"} {
			require.NoError(t, reg.Register(m, fake))
		}
		in := Input{Compare: sampleDrafts(t), ArtifactType: "Specification", Depth: debate.Depth(depth), Convergence: 0.9,
			Agents: agentList("opus:architect,sonnet:security,haiku:performance")}
		return newPipeline(WithRegistry(reg), WithModelAdvocates()).Run(context.Background(), in)
	}
}

var (
	identityPointID = regexp.MustCompile(`\b[SCXU]-\d{3}\b`)
	identityVariant = regexp.MustCompile(`BEGIN VARIANT ([A-J])\b`)
)

// advocateReply answers an advocate's request by a rule that depends on
// the request alone: the advocate prefers its own variant on every point
// whose position in the analysis is not a multiple of three, and concedes
// the others to Variant A from round 2 on.
func advocateReply(req provider.Request) string {
	shared := req.Messages[0].Content
	own := req.Messages[1].Content // the turn; a retry appends the bad reply and the problem after it
	self := req.Tag(provider.TagVariant)
	round, _ := strconv.Atoi(req.Tag(provider.TagRound))
	var labels []string
	for _, m := range identityVariant.FindAllStringSubmatch(shared, -1) {
		if !contains(labels, m[1]) {
			labels = append(labels, m[1])
		}
	}
	var ids []string
	for _, id := range identityPointID.FindAllString(shared, -1) {
		if !contains(ids, id) {
			ids = append(ids, id)
		}
	}
	type obj = map[string]any
	reply := obj{"position": fmt.Sprintf("Variant %s holds its ground in round %d.", self, round)}
	var steelman, weaknesses, positions, responses []obj
	var concessions []string
	for i, l := range labels {
		if l == self {
			continue
		}
		steelman = append(steelman, obj{"variant": l, "argument": "Variant " + l + " covers the failure paths."})
		if round == 1 && len(ids) > 0 && labels[(i+len(labels)-1)%len(labels)] == self {
			weaknesses = append(weaknesses, obj{"against": l, "point": ids[0], "text": "Variant " + l + " leaves " + ids[0] + " open", "evidence": "its own section"})
		}
	}
	for k, id := range ids {
		prefer, concede := self, false
		if k%3 == 0 && round >= 2 && self != "A" {
			prefer, concede = "A", true
			concessions = append(concessions, id+" goes to Variant A")
		}
		positions = append(positions, obj{"point": id, "prefer": prefer, "confidence": 60 + 10*(k%4), "concede": concede,
			"evidence": "The section on " + id + " says so. It is specific."})
	}
	for i := range strings.Count(own, ". From Variant ") {
		responses = append(responses, obj{"criticism": i + 1, "reply": "The section answers this with a number."})
	}
	reply["steelman"], reply["weaknesses"], reply["positions"] = steelman, weaknesses, positions
	reply["responses"], reply["concessions"] = responses, concessions
	if len(ids) > 0 {
		reply["strengths"] = []obj{{"point": ids[0], "text": "Variant " + self + " is specific", "evidence": "its numbers"}}
		if round == 3 {
			reply["remaining"] = []obj{{"point": ids[0], "text": "still open", "evidence": "its numbers"}}
		}
	}
	b, _ := json.MarshalIndent(reply, "", "  ")
	return "My statement follows.\n\n```json\n" + string(b) + "\n```\n"
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// identityDigest is what a run is pinned to: its status, the error it
// returned, and the SHA-256 and length of every artifact in order.
func identityDigest(res *Result, err error) string {
	var b strings.Builder
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	if res == nil {
		return b.String()
	}
	fmt.Fprintf(&b, "status: %s\n", res.Status)
	for _, a := range res.Artifacts {
		fmt.Fprintf(&b, "%x %7d %s\n", sha256.Sum256(a.Content), len(a.Content), a.Name)
	}
	fmt.Fprintf(&b, "%x %7d merged output\n", sha256.Sum256([]byte(res.MergedOutput)), len(res.MergedOutput))
	return b.String()
}
