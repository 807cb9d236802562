package merge

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/golden"
	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

var fixedClock = func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }

// goldenSet is testdata/golden/<name>/input.json: the inputs of a plan
// and how to merge it.
type goldenSet struct {
	Base      goldenVariant   `json:"base"`
	Variants  []goldenVariant `json:"variants"`
	Decisions []Decision      `json:"decisions"`
	Strengths []Strength      `json:"strengths"`
	// Merger is "section" or "model"; All sends every change to the model.
	Merger string `json:"merger"`
	All    bool   `json:"all"`
	// Replies are files in the set's directory the fake model answers
	// with, in order; Fail makes every model call fail as unavailable.
	Replies []string `json:"replies"`
	Fail    bool     `json:"fail"`
	Scanner bool     `json:"scanner"`
	// Want is the merge's expected status.
	Want Status `json:"want"`
}

type goldenVariant struct {
	Label string `json:"label"`
	Agent string `json:"agent"`
	File  string `json:"file"`
}

func loadDoc(t testing.TB, file string) *diff.Document {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "docs", file))
	require.NoError(t, err)
	d, err := diff.Parse(file, src)
	require.NoError(t, err)
	return d
}

// expiryScanner is a stand-in contradiction scanner: it reports
// conflicting session expiry times across and within documents.
var expiryScanner = ScannerFunc(func(ctx context.Context, docs []*diff.Document) ([]Contradiction, error) {
	re := regexp.MustCompile(`expires? after (\d+) minutes`)
	seen := map[string]bool{}
	for _, d := range docs {
		for _, m := range re.FindAllStringSubmatch(d.Source, -1) {
			seen[m[1]] = true
		}
	}
	if len(seen) < 2 {
		return nil, nil
	}
	var vals []string
	for v := range seen {
		vals = append(vals, v)
	}
	sort.Strings(vals)
	return []Contradiction{{Signature: "session-expiry", Description: "session expiry: " + strings.Join(vals, " vs ") + " minutes"}}, nil
})

func TestGolden(t *testing.T) {
	sets, err := filepath.Glob(filepath.Join("testdata", "golden", "*", "input.json"))
	require.NoError(t, err)
	require.NotEmpty(t, sets)
	for _, path := range sets {
		dir := filepath.Dir(path)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			require.NoError(t, err)
			var gs goldenSet
			require.NoError(t, json.Unmarshal(raw, &gs))

			in := PlanInput{Decisions: gs.Decisions, Strengths: gs.Strengths}
			in.Base = Variant{Label: gs.Base.Label, Agent: gs.Base.Agent, Doc: loadDoc(t, gs.Base.File)}
			var others []*diff.Document
			for _, v := range gs.Variants {
				d := loadDoc(t, v.File)
				in.Variants = append(in.Variants, Variant{Label: v.Label, Agent: v.Agent, Doc: d})
				others = append(others, d)
			}
			opts := []Option{WithClock(fixedClock)}
			if gs.Scanner {
				opts = append(opts, WithScanner(expiryScanner))
			}
			plan, err := NewPlan(in, opts...)
			require.NoError(t, err)
			checkJSONRoundTrip(t, plan)
			checkGolden(t, dir, "refactor-plan.md", plan.Markdown())

			var merger Merger = NewSectionMerger(opts...)
			var fake *providertest.Fake
			if gs.Merger == "model" {
				fake = providertest.NewFake()
				exec := providertest.Tag(provider.TagRole, "merge-executor")
				if gs.Fail {
					fake.On(exec).Fail(&provider.Error{Kind: provider.ErrUnavailable, Provider: "fake", Retryable: true, Message: "injected outage"})
				}
				for _, f := range gs.Replies {
					reply, err := os.ReadFile(filepath.Join(dir, f))
					require.NoError(t, err)
					fake.On(exec).Reply(string(reply)).Once()
				}
				mopts := []ModelOption{}
				for _, o := range opts {
					mopts = append(mopts, o)
				}
				if gs.All {
					mopts = append(mopts, WithAllChanges())
				}
				merger, err = NewModelMerger(fake, mopts...)
				require.NoError(t, err)
			}
			m, err := merger.Merge(context.Background(), Input{Base: in.Base.Doc, Plan: plan, Variants: others})
			if gs.Want == StatusFailed {
				var ee *ExecutorError
				require.ErrorAs(t, err, &ee)
			} else {
				require.NoError(t, err)
			}
			require.NotNil(t, m)
			assert.Equal(t, gs.Want, m.Status())

			checkGolden(t, dir, "merged.md", m.Output)
			checkGolden(t, dir, "merge-log.md", m.Log.Markdown())
			prov, err := json.MarshalIndent(m.Provenance, "", "  ")
			require.NoError(t, err)
			checkGolden(t, dir, "provenance.json", string(prov)+"\n")
			if fake != nil && len(fake.Calls()) > 0 {
				var b strings.Builder
				for i, c := range fake.Calls() {
					fmt.Fprintf(&b, "=== call %d: model %s, tags %v\n--- system\n%s\n", i+1, c.Request.Model, c.Request.Tags, c.Request.System)
					for _, msg := range c.Request.Messages {
						fmt.Fprintf(&b, "--- %s\n%s\n", msg.Role, msg.Content)
					}
				}
				checkGolden(t, dir, "prompts.txt", b.String())
			}
			checkMerged(t, in.Base.Doc, m)
		})
	}
}

// checkMerged asserts the invariants every merge keeps.
func checkMerged(t *testing.T, base *diff.Document, m *Merged) {
	t.Helper()
	h, prov, err := ParseProvenance(m.Output)
	require.NoError(t, err, "every section has exactly one Source tag")
	assert.Equal(t, m.Plan.Base, h.Base)
	require.Len(t, prov, len(m.Provenance))
	for i := range prov {
		assert.Equal(t, m.Provenance[i].Attribution.Tag(), prov[i].Attribution.Tag(), "tag of %q", prov[i].Section.Title)
		assert.Equal(t, m.Provenance[i].Line, prov[i].Line)
	}
	assertUntouchedIdentical(t, base, m)
}

// assertUntouchedIdentical checks that every section tagged Base
// (original) has the bytes of a base section with its title: heading and
// own text.
func assertUntouchedIdentical(t *testing.T, base *diff.Document, m *Merged) {
	t.Helper()
	plain, err := diff.Parse("plain", []byte(Strip(m.Output)))
	require.NoError(t, err)
	require.Len(t, plain.Sections, len(m.Provenance))
	baseText := map[string][]string{} // titles may repeat
	for i, s := range base.Sections {
		baseText[s.Title] = append(baseText[s.Title], neutralise(base.Text(s.Heading)+"\n"+base.Text(ownSpan(base, i))))
	}
	for i, p := range m.Provenance {
		if p.Attribution.Origin != BaseOriginal {
			continue
		}
		s := plain.Sections[i]
		got := plain.Text(s.Heading) + "\n" + plain.Text(ownSpan(plain, i))
		wants := baseText[s.Title]
		if !assert.NotEmpty(t, wants, "section %q tagged Base (original) is not in the base", s.Title) || slices.Contains(wants, got) {
			continue
		}
		// The one exception: a blank line separates a section that does not
		// end with one from a section the merge adds after it.
		next := i + 1 // the section after i's own text
		if want := strings.TrimSuffix(got, "\n"); slices.Contains(wants, want) && !strings.HasSuffix(want, "\n\n") &&
			next < len(m.Provenance) && m.Provenance[next].Attribution.Origin != BaseOriginal {
			continue
		}
		assert.Contains(t, wants, got, "section %q is byte-identical", s.Title)
	}
}

func checkJSONRoundTrip(t *testing.T, p Plan) {
	t.Helper()
	raw, err := json.Marshal(p)
	require.NoError(t, err)
	var q Plan
	require.NoError(t, json.Unmarshal(raw, &q))
	assert.Equal(t, p.Markdown(), q.Markdown(), "a plan survives JSON")
	assert.NoError(t, q.Validate())
}

func checkGolden(t *testing.T, dir, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join(dir, name), got)
}
