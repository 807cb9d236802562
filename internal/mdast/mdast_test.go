package mdast

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

func TestAppendPlain(t *testing.T) {
	for _, tt := range []struct{ md, want string }{
		{"## Caching *and* `eviction`", "Caching and eviction"},
		{"## [API](api.md) &amp; <b>you</b>", "API &amp; you"}, // entities stay as written
		{"## See <https://example.com>", "See https://example.com"},
		{"First line\nsecond line", "First line second line"},
	} {
		src := []byte(tt.md)
		doc := goldmark.New().Parser().Parse(text.NewReader(src))
		var got []byte
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if entering && (n.Kind() == ast.KindHeading || n.Kind() == ast.KindParagraph) {
				got = AppendPlain(got, src, n)
				return ast.WalkSkipChildren, nil
			}
			return ast.WalkContinue, nil
		})
		assert.Equal(t, tt.want, string(got), tt.md)
	}
}
