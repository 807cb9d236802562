package diff

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/internal/samplegen"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"whitespace only", " \n\t\n\r\n", ""},
		{"adds final newline", "# T", "# T\n"},
		{"one final newline", "# T\n\n\n", "# T\n"},
		{"crlf", "a\r\nb\r\n", "a\nb\n"},
		{"lone cr", "a\rb\r", "a\nb\n"},
		{"mixed endings", "a\r\n\rb\nc", "a\n\nb\nc\n"},
		{"trailing whitespace", "a  \t\nb \n", "a\nb\n"},
		{"keeps leading indentation", "  - x  \n", "  - x\n"},
		{"keeps inner blank lines", "a\n\n\nb\n", "a\n\n\nb\n"},
		{"strips bom", "\xef\xbb\xbf# T\n", "# T\n"},
		{"unicode", "héllo wörld  \n", "héllo wörld\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			again, err := Normalize(got)
			require.NoError(t, err)
			assert.Equal(t, string(got), string(again), "normalisation is idempotent")
		})
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr error
		want    string
	}{
		{"nul byte", "# ok\nline two\x00\n", ErrBinary, "v.md: line 2: binary content (NUL byte)"},
		{"invalid utf8", "a\r\nb\r\n\xff\xfe", ErrInvalidUTF8, "v.md: line 3: invalid UTF-8"},
		{"bad front matter", "---\ntitle: [unclosed\n---\n# T\n", ErrBadFrontMatter, "v.md: line 1: invalid YAML front matter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse("v.md", []byte(tt.in))
			assert.Nil(t, d)
			require.ErrorIs(t, err, tt.wantErr)
			var ie *InputError
			require.True(t, errors.As(err, &ie))
			assert.Equal(t, "v.md", ie.Name)
			assert.True(t, strings.HasPrefix(err.Error(), tt.want), "got %q", err.Error())
		})
	}
}

func TestFrontMatterEdges(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		wantFM     bool
		wantData   map[string]any
		wantTitle  string
		wantBlocks int
	}{
		{"empty block", "---\n---\n# T\n", true, map[string]any{}, "T", 0},
		{"dots close", "---\na: 1\n...\nbody\n", true, map[string]any{"a": 1}, "", 1},
		{"no closing line is markdown", "---\na: 1\n", false, nil, "", 1},
		{"scalar is markdown", "---\nSetext heading\n---\n", false, nil, "", 0},
		{"title from front matter", "---\ntitle: From YAML\n---\n## A\n", true, map[string]any{"title": "From YAML"}, "From YAML", 0},
		{"h1 beats front matter", "---\ntitle: YAML\n---\n# Heading\n", true, map[string]any{"title": "YAML"}, "Heading", 0},
		{"after blank lines a mapping is front matter", "\n\n---\na: 1\n---\n", true, map[string]any{"a": 1}, "", 0},
		{"after blank lines a scalar is markdown", "\n---\nSetext heading\n---\n", false, nil, "", 0},
		{"after blank lines bad yaml is markdown", "\n---\na: [1\n---\n", false, nil, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse("x", []byte(tt.in))
			require.NoError(t, err)
			checkInvariants(t, d)
			if !tt.wantFM {
				assert.Nil(t, d.FrontMatter)
			} else {
				require.NotNil(t, d.FrontMatter)
				assert.Equal(t, tt.wantData, d.FrontMatter.Data)
			}
			assert.Equal(t, tt.wantTitle, d.Title)
			assert.Len(t, d.Blocks, tt.wantBlocks)
		})
	}
}

func TestDocumentQueries(t *testing.T) {
	src := "# Spec\n\nIntro.\n\n## Scope\n\nIn scope.\n\n### Details\n\n- one\n- two\n\n## Risks\n\nRisk text.\n"
	d, err := Parse("spec.md", []byte(src))
	require.NoError(t, err)

	scope := d.Sections[1]
	assert.Equal(t, "Scope", scope.Title)
	assert.Equal(t, "## Scope\n\nIn scope.\n\n### Details\n\n- one\n- two\n\n", d.Text(scope.Span))
	assert.Equal(t, "\nIn scope.\n\n### Details\n\n- one\n- two\n\n", d.Text(scope.Body()))

	var texts []string
	for _, b := range d.BlocksIn(scope.Span) {
		texts = append(texts, b.Text)
	}
	assert.Equal(t, []string{"In scope.", "one", "two"}, texts)
	assert.Empty(t, d.BlocksIn(Span{0, 3}))

	assert.Equal(t, 0, d.SectionAt(0))
	assert.Equal(t, 2, d.SectionAt(strings.Index(src, "- two")))
	assert.Equal(t, 3, d.SectionAt(len(src)-1))
	assert.Equal(t, 12, d.LineAt(strings.Index(src, "- two")))
	assert.Equal(t, []int{1, 3}, d.TopLevel())
	assert.Equal(t, 0, d.TitleSection())
	assert.Equal(t, 2, d.MaxDepth())
	assert.Equal(t, [6]int{1, 2, 1}, d.HeadingCounts())
	assert.Equal(t, "1.1", d.Sections[2].Number)

	// Without a single H1 there is no title section.
	flat, err := Parse("flat", []byte("## A\n## B\n"))
	require.NoError(t, err)
	assert.Equal(t, -1, flat.TitleSection())
	assert.Equal(t, []int{0, 1}, flat.TopLevel())
	assert.Equal(t, "", flat.Title)
}

func TestEmptyAndDegenerateInputs(t *testing.T) {
	for _, in := range []string{"", "\n\n", "#", "# ", "######", "####### seven", "---", "```", "|a|\n|-|", "<!-- only a comment -->"} {
		d, err := Parse("x", []byte(in))
		require.NoError(t, err, "%q", in)
		checkInvariants(t, d)
	}
	d, err := Parse("empty", nil)
	require.NoError(t, err)
	assert.Zero(t, d.Lines)
	assert.Zero(t, d.Words)
	assert.Empty(t, d.Sections)
	assert.Empty(t, d.Blocks)
}

func TestVeryLongLine(t *testing.T) {
	line := strings.Repeat("word ", 200_000)
	d, err := Parse("long", []byte("## Long\n\n"+line+"\n"))
	require.NoError(t, err)
	checkInvariants(t, d)
	require.Len(t, d.Blocks, 1)
	assert.Equal(t, 200_001, d.Words)
}

func TestDocumentJSONRoundTrip(t *testing.T) {
	src := "---\nowner: ops\n---\n# T\n\n## A\n\ntext\n\n| x | y |\n|---|---|\n| 1 | 2 |\n"
	d, err := Parse("t.md", []byte(src))
	require.NoError(t, err)
	raw, err := json.Marshal(d)
	require.NoError(t, err)
	var back Document
	require.NoError(t, json.Unmarshal(raw, &back))
	assert.Equal(t, dump(d), dump(&back))
	for _, b := range d.Blocks {
		assert.Equal(t, d.LineAt(b.Span.Start), back.LineAt(b.Span.Start), "LineAt works without the line index")
	}
}

func TestParseIsDeterministicAndIdempotent(t *testing.T) {
	src := "# T\r\n\r\n## A  \r\n\r\ntext\r\n"
	a, err := Parse("x", []byte(src))
	require.NoError(t, err)
	b, err := Parse("x", []byte(a.Source))
	require.NoError(t, err)
	assert.Equal(t, dump(a), dump(b))
}

// normalizeLines is Normalize's line-by-line rewrite without its fast
// path for text that needs none: the reference the fast path must agree
// with.
func normalizeLines(src []byte) []byte {
	out := make([]byte, 0, len(src)+1)
	lastContent := 0
	for len(src) > 0 {
		i := bytes.IndexAny(src, "\r\n")
		line, rest := src, src[:0]
		if i >= 0 {
			line, rest = src[:i], src[i+1:]
			if src[i] == '\r' && len(rest) > 0 && rest[0] == '\n' {
				rest = rest[1:]
			}
		}
		line = bytes.TrimRight(line, " \t\v\f")
		out = append(out, line...)
		out = append(out, '\n')
		if len(line) > 0 {
			lastContent = len(out)
		}
		src = rest
	}
	return out[:lastContent]
}

func TestNormalizeFastPathAgrees(t *testing.T) {
	inputs := []string{"", "\n", "a", "a\n", "a\n\n\n", "a\nb", "\n\na\n", "a \n", "a\t", "a\r\nb", "a\rb", "  \n", "a\n \n", "x\ny\n\n"}
	inputs = append(inputs, string(samplegen.Spec(4, 6<<10)))
	for _, in := range inputs {
		got, err := Normalize([]byte(in))
		require.NoError(t, err)
		assert.Equal(t, string(normalizeLines([]byte(in))), string(got), "%q", in)
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"a\n", "a \n", "a\r\n", "\n\n", "x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		got, err := Normalize(src)
		if err != nil {
			return // binary or not UTF-8: rejected before any rewrite
		}
		if want := normalizeLines(bytes.TrimPrefix(src, bom)); !bytes.Equal(got, want) {
			t.Fatalf("Normalize(%q) = %q, want %q", src, got, want)
		}
	})
}
