package merge

import "testing"

// headingFollowsCases hold texts on both sides of plainBlocks: those it
// answers for, and those only a parse can (fences, HTML, lines Normalize
// rewrites).
var headingFollowsCases = []struct {
	text  string
	plain bool
	want  bool
}{
	{"", true, true},
	{"Some prose.\n", true, true},
	{"Some prose.\n\n", true, true},
	{"| a | b |\n|---|---|\n| 1 | 2 |\n", true, true},
	{"- item\n  - nested\n", true, true},
	{"> quoted\n> lines\n", true, true},
	{"    indented code\n", true, true},
	{"[a]:\n", true, true},
	{"[a]: /url\n", true, true},
	{"Title\n===\n", true, true},
	{"text\n---\n", true, true},
	{"1. one\n2. two\n\n", true, true},
	{"no newline at the end", false, false},
	{"```\nopen fence\n", false, false},
	{"```\nclosed\n```\n", false, true},
	{"~~~\nopen\n", false, false},
	{"<div>\nopen html\n", false, false},
	{"<!-- comment -->\n", false, true},
	{"line\r\n", false, true},
	{"café\n", true, true},
}

func TestHeadingFollows(t *testing.T) {
	for _, c := range headingFollowsCases {
		if got := plainBlocks(c.text); got != c.plain {
			t.Errorf("plainBlocks(%q) = %v, want %v", c.text, got, c.plain)
		}
		if got := headingFollowsParsed(c.text); got != c.want {
			t.Errorf("headingFollowsParsed(%q) = %v, want %v", c.text, got, c.want)
		}
		if got := headingFollows(c.text); got != c.want {
			t.Errorf("headingFollows(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// FuzzHeadingFollows checks the shortcut against the parse it skips:
// plainBlocks(text) ⇒ headingFollowsParsed(text).
func FuzzHeadingFollows(f *testing.F) {
	for _, c := range headingFollowsCases {
		f.Add(c.text)
	}
	f.Add("* a\n\n  b\n")
	f.Add(">>> deep\n- > - x\n")
	f.Add("[a]:\n'title\n")
	f.Add("\\\n")
	f.Add("#\n##\n")
	f.Add("| a |\n| - |\n| b\n")
	f.Fuzz(func(t *testing.T, text string) {
		if plainBlocks(text) && !headingFollowsParsed(text) {
			t.Fatalf("plainBlocks(%q) is true, but a heading after it is not one", text)
		}
	})
}
