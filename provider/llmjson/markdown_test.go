package llmjson

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMarkdown(t *testing.T) {
	const code = "```go\nfunc main() {}\n```\n"
	tests := []struct {
		name, reply, want string
		ok                bool
	}{
		{"bare document", "## 2. Storage\n\nText.\n", "## 2. Storage\n\nText.\n", true},
		{"bare document with a code block", "## 2. Storage\n\n" + code + "\nAfter.\n", "## 2. Storage\n\n" + code + "\nAfter.\n", true},
		{"bare document with an unlabelled code block", "## 2. Storage\n\n```\nplain\n```\n\nAfter.\n", "## 2. Storage\n\n```\nplain\n```\n\nAfter.\n", true},
		{"prose, then a bare document with a code block", "Here is the section:\n\n## 2. Storage\n\n" + code, "## 2. Storage\n\n" + code, true},
		{"fenced document", "Result:\n\n```markdown\n## 2. Storage\n\nText.\n```\n\nDone.", "## 2. Storage\n\nText.\n", true},
		{"fenced document with an inner fence of the same length", "```markdown\n## 2. Storage\n\n" + code + "\nAfter.\n```\n", "## 2. Storage\n\n" + code + "\nAfter.\n", true},
		{"longer wrapper fence", "````markdown\n## 2. Storage\n\n" + code + "````\n", "## 2. Storage\n\n" + code, true},
		{"a code sample before the document", "I changed this:\n\n" + code + "\n## 2. Storage\n\nText.\n", "## 2. Storage\n\nText.\n", true},
		{"wrapper never closed", "```markdown\n## 2. Storage\n\nText that stops", "", false},
		{"no document", "I cannot do that.", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Markdown(tc.reply)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"## A\n\n```go\nx\n```\n", "```markdown\n# A\n```", "````\n```\n", "text\n```", "#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		if got, ok := Markdown(reply); !ok && got != "" {
			t.Fatalf("no document, but %q", got)
		}
	})
}
