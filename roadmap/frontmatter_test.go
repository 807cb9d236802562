package roadmap

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	yaml "go.yaml.in/yaml/v3"

	"github.com/crucible-go/crucible/diff"
)

const roadmapBody = "# Roadmap: Refund Service\n\n## Phase 1: Foundations\n\n- FR-001 refund API\n"

const existingKeys = `---
# Owned by the payments team; keep the keys below.
title: "Roadmap: Refund Service"
owner: payments
tags: [refunds, ledger]
milestones:
  - name: M1
    due: 2026-03-01
---
`

func TestSetAdversarialGolden(t *testing.T) {
	multiSpec := &Adversarial{Mode: ModeMultiSpec, Agents: []string{"sonnet:analyzer", "sonnet:analyzer"},
		ConvergenceScore: 0.72, BaseVariant: "ignored outside the generating modes", ArtifactsDir: "out/adversarial"}
	multiRoadmap := &Adversarial{Mode: ModeMultiRoadmap, Agents: []string{"opus:security", "sonnet:security", `gpt52:backend:"favour, simplicity"`},
		ConvergenceScore: 1, BaseVariant: "opus:security", ArtifactsDir: "out/adversarial"}
	combined := &Adversarial{Mode: ModeCombined, Agents: []string{"opus:architect", "haiku:qa"},
		ConvergenceScore: 0.615, BaseVariant: "haiku:qa", ArtifactsDir: "out/adversarial"}
	tests := []struct {
		name  string
		doc   string
		block *Adversarial
	}{
		{"absent", roadmapBody, nil},
		{"absent-existing-keys", existingKeys + roadmapBody, nil},
		{"absent-stale-block-removed", strings.Replace(existingKeys, "owner: payments\n",
			"owner: payments\nadversarial:\n  mode: combined\n  convergence_score: 0.5\n", 1) + roadmapBody, nil},
		{"present-multi-spec", roadmapBody, multiSpec},
		{"present-multi-roadmap", roadmapBody, multiRoadmap},
		{"merged-existing-keys", existingKeys + roadmapBody, combined},
		{"merged-replaces-block-in-place", strings.Replace(existingKeys, "owner: payments\n",
			"owner: payments\nadversarial: {mode: multi-spec}\n", 1) + roadmapBody, multiRoadmap},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SetAdversarial([]byte(tt.doc), tt.block)
			require.NoError(t, err)
			checkGolden(t, "frontmatter/"+tt.name+".md", got)

			d, err := diff.Parse("roadmap.md", got)
			require.NoError(t, err)
			assert.True(t, strings.HasSuffix(string(got), roadmapBody), "the body is untouched")
			if tt.block == nil {
				if d.FrontMatter != nil {
					assert.NotContains(t, d.FrontMatter.Data, "adversarial", "no adversarial key, not even a null one")
				}
				if !strings.HasPrefix(tt.doc, "---") {
					assert.Equal(t, tt.doc, string(got), "a document without front matter stays as it is")
				}
				return
			}
			require.NotNil(t, d.FrontMatter)
			var fm struct {
				Adversarial map[string]any `yaml:"adversarial"`
			}
			require.NoError(t, yaml.Unmarshal([]byte(d.FrontMatter.Raw), &fm))
			a := fm.Adversarial
			assert.Equal(t, string(tt.block.Mode), a["mode"])
			var agents []string
			for _, x := range a["agents"].([]any) {
				agents = append(agents, x.(string))
			}
			assert.Equal(t, tt.block.Agents, agents)
			assert.Equal(t, tt.block.ConvergenceScore, a["convergence_score"], "a float, even when whole")
			assert.Equal(t, tt.block.ArtifactsDir, a["artifacts_dir"])
			if tt.block.Mode.Generates() {
				assert.Equal(t, tt.block.BaseVariant, a["base_variant"])
			} else {
				assert.NotContains(t, a, "base_variant", "base_variant only in multi-roadmap and combined modes")
			}
			if strings.HasPrefix(tt.doc, "---") {
				for _, k := range []string{"title", "owner", "tags", "milestones"} {
					assert.Contains(t, d.FrontMatter.Data, k)
				}
				assert.Contains(t, string(got), "# Owned by the payments team; keep the keys below.", "comments survive")
			}
		})
	}
}

func TestSetFrontMatter(t *testing.T) {
	got, err := SetFrontMatter([]byte(existingKeys+roadmapBody), "owner", "platform")
	require.NoError(t, err)
	assert.Contains(t, string(got), "\nowner: platform\ntags: [refunds, ledger]\n", "replaced where it stands")

	got, err = SetFrontMatter([]byte("---\nonly: 1\n---\n"+roadmapBody), "only", nil)
	require.NoError(t, err)
	assert.Equal(t, roadmapBody, string(got), "front matter left empty is dropped")

	got, err = SetFrontMatter([]byte("---\n---\n"+roadmapBody), "k", []string{"a"})
	require.NoError(t, err)
	assert.Equal(t, "---\nk:\n  - a\n---\n"+roadmapBody, string(got))

	// An opening block that is not a mapping is not front matter: a new one
	// goes above it.
	got, err = SetFrontMatter([]byte("---\n- a\n---\n"+roadmapBody), "k", "v")
	require.NoError(t, err)
	assert.Equal(t, "---\nk: v\n---\n---\n- a\n---\n"+roadmapBody, string(got))

	// CRLF input comes out normalised.
	got, err = SetFrontMatter([]byte("---\r\nk: 1\r\n---\r\n# T\r\n"), "k", 2)
	require.NoError(t, err)
	assert.Equal(t, "---\nk: 2\n---\n# T\n", string(got))

	_, err = SetFrontMatter([]byte("---\nk: [unclosed\n---\n# T\n"), "k", 1)
	assert.ErrorIs(t, err, ErrFrontMatter)
	_, err = SetFrontMatter([]byte("---\na: 1\na: 2\n---\n# T\n"), "k", 1)
	assert.ErrorIs(t, err, ErrFrontMatter, "duplicate keys")
}

// FuzzSetAdversarial: for any document, setting the block gives front
// matter whose adversarial mode reads back, and removing it leaves none.
func FuzzSetAdversarial(f *testing.F) {
	for _, s := range []string{"", roadmapBody, existingKeys + roadmapBody, "---\n- a\n---\n", "---\nadversarial: 1\n---\n# x\n", "---\r\nk: 1\r\n..."} {
		f.Add(s)
	}
	block := &Adversarial{Mode: ModeCombined, Agents: []string{`opus:"a: b"`}, ConvergenceScore: 0.5, BaseVariant: "opus", ArtifactsDir: "o"}
	f.Fuzz(func(t *testing.T, doc string) {
		got, err := SetAdversarial([]byte(doc), block)
		if err != nil {
			return // malformed input is an error, never a panic
		}
		d, err := diff.Parse("x.md", got)
		if err != nil {
			t.Fatalf("output does not parse: %v\n%s", err, got)
		}
		if d.FrontMatter == nil {
			t.Fatalf("no front matter in\n%s", got)
		}
		a, ok := d.FrontMatter.Data["adversarial"].(map[string]any)
		if !ok || a["mode"] != "combined" {
			t.Fatalf("adversarial block lost: %v\n%s", d.FrontMatter.Data, got)
		}
		gone, err := SetAdversarial(got, nil)
		if err != nil {
			t.Fatal(err)
		}
		d, err = diff.Parse("x.md", gone)
		if err != nil {
			t.Fatal(err)
		}
		if d.FrontMatter != nil {
			if _, ok := d.FrontMatter.Data["adversarial"]; ok {
				t.Fatalf("adversarial block not removed:\n%s", gone)
			}
		}
	})
}

// FuzzReadFrontMatter holds readFrontMatter, which parses only the opening
// block, to diff.Parse of the whole document.
func FuzzReadFrontMatter(f *testing.F) {
	for _, s := range []string{"", roadmapBody, existingKeys + roadmapBody, "---\n- a\n---\n", "---\nk: 1\n...\n# x", "---\r\nk: 1\r\n---", "---\nk: [x\n---\n", "---\n---"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		source, fm, err := readFrontMatter([]byte(doc))
		d, derr := diff.Parse("roadmap.md", []byte(doc))
		if derr != nil {
			if err == nil && fm != nil {
				t.Fatalf("diff.Parse fails (%v) but readFrontMatter found %+v", derr, fm)
			}
			return
		}
		if err != nil {
			t.Fatalf("readFrontMatter: %v, diff.Parse succeeded", err)
		}
		if source != d.Source {
			t.Fatalf("source differs")
		}
		if (fm == nil) != (d.FrontMatter == nil) || (fm != nil && (fm.Span != d.FrontMatter.Span || fm.Raw != d.FrontMatter.Raw)) {
			t.Fatalf("front matter %+v, diff.Parse says %+v", fm, d.FrontMatter)
		}
	})
}
