package refs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/mdast"
	"github.com/crucible-go/crucible/internal/samplegen"
)

// storedReading returns the reading of the tree diff's parser left in d's
// memo, or nil when it left none.
func storedReading(d *diff.Document) *mdast.Reading {
	t, _ := d.Memo(mdast.TreeKey{}, func() any { return (*mdast.Tree)(nil) }).(*mdast.Tree)
	if t == nil {
		return nil
	}
	return mdast.Read(t.Root, t.Body, d.Source, t.Base)
}

var sharedInputs = []string{
	"",
	resolveDoc,
	"# T\n\n## Caching {#cache}\n\nSee [x](#cache).\n",
	"Caching {#c}\n=======\n\ntext\n",
	"# T\n\n- ## In a list {x}\n\n> ## Quoted\n\nA `{code}` and {braces} in prose.\n",
	"---\ntitle: x\n---\n# A\n\n<a id=\"z\"></a> [to z](#z) [to A](#a) ![img](#a)\n\n| M1 | D1.2 |\n|---|---|\n| [c](#a) | `x` |\n",
	"## A ##\n### B ###   \nSee [B] and <span name='q'>q</span> &amp; *[e](#b)*.\n\n```\n## not {a} heading\n```\n",
	"[a](#b) [c](<#d e>) ![x](#y) `Section 1` <http://x/#z>",
	"## {#only}\n#\n##\n",
}

// TestSharedReading: the reading of the tree diff's parser leaves (parsed
// without heading attributes) is the reading refs makes from its own
// parse (with them) whenever it is left, and it is left unless a heading
// holds a brace.
func TestSharedReading(t *testing.T) {
	inputs := append([]string(nil), sharedInputs...)
	for i := range 3 {
		inputs = append(inputs, string(samplegen.Spec(uint64(i+1), 32<<10)))
	}
	files, _ := filepath.Glob("../../diff/testdata/docs/*.md")
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		inputs = append(inputs, string(b))
	}
	stored := 0
	for _, src := range inputs {
		d, err := diff.Parse("x", []byte(src))
		require.NoError(t, err)
		r := storedReading(d)
		if r == nil {
			assert.Contains(t, src, "{", "no reading left for %.60q, which holds no brace", src)
			continue
		}
		stored++
		assert.Equal(t, parseReading(d), r, "%.60q", src)
	}
	assert.Greater(t, stored, len(inputs)/2)

	for src, left := range map[string]bool{
		"## Caching {#cache}\n": false, "Caching {#c}\n===\n": false, "- ## Listed {x}\n": false,
		"## Caching\n\nA {brace} in prose, `{code}`.\n\n```\n## {not a heading}\n```\n": true,
	} {
		d, err := diff.Parse("x", []byte(src))
		require.NoError(t, err)
		assert.Equal(t, left, storedReading(d) != nil, "%q", src)
	}
}

func FuzzSharedReading(f *testing.F) {
	for _, s := range sharedInputs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		d, err := diff.Parse("fuzz", []byte(src))
		if err != nil {
			return
		}
		r := storedReading(d)
		if r == nil {
			if !strings.Contains(d.Source, "{") {
				t.Fatalf("no reading left for %q, which holds no brace", src)
			}
			return
		}
		if want := parseReading(d); !assert.ObjectsAreEqual(want, r) {
			t.Fatalf("reading of %q from diff's tree:\n%+v\nfrom refs' parse:\n%+v", src, r, want)
		}
	})
}
