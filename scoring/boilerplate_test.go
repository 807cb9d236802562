package scoring

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
)

// plainIsBoilerplate is isBoilerplate without the byte tests before the
// patterns.
func plainIsBoilerplate(b *diff.Block, src string) bool {
	switch b.Kind {
	case diff.ListItem:
		if tocEntry.MatchString(src) {
			return true
		}
	case diff.Paragraph:
	default:
		return false
	}
	if strings.IndexByte(src, ':') < 0 {
		return false
	}
	for _, l := range strings.Split(src, "\n") {
		if !metadataLine.MatchString(l) {
			return false
		}
	}
	return true
}

var boilerplateInputs = []string{
	"", "- [Caching](#caching)", "1. [A](#a) ", "- [A](#a) and more", "* [x](other.md)", "Version: 1.2\nStatus: draft",
	"**Owner**: team\nLast updated: today", "Version 1.2\nStatus: draft", "Status: draft\nno colon here", "Date :x", "plain prose",
	"- **Authors**: a, b", "](#", ":", "\n:\n",
}

func TestIsBoilerplateFastPath(t *testing.T) {
	for _, src := range boilerplateInputs {
		for _, k := range []diff.BlockKind{diff.ListItem, diff.Paragraph, diff.TableRow, diff.Code} {
			b := &diff.Block{Kind: k}
			assert.Equal(t, plainIsBoilerplate(b, src), isBoilerplate(b, src), "%v %q", k, src)
		}
	}
}

func FuzzIsBoilerplate(f *testing.F) {
	for _, s := range boilerplateInputs {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, src string, list bool) {
		b := &diff.Block{Kind: diff.Paragraph}
		if list {
			b.Kind = diff.ListItem
		}
		if got, want := isBoilerplate(b, src), plainIsBoilerplate(b, src); got != want {
			t.Fatalf("isBoilerplate(%v, %q) = %v, want %v", b.Kind, src, got, want)
		}
	})
}

// TestIsContentsMatchesTheLowerCasedTitle checks isContents's length test
// against the plain comparison of the lower-cased title.
func TestIsContentsMatchesTheLowerCasedTitle(t *testing.T) {
	slow := func(title string) bool {
		switch strings.ToLower(strings.TrimSpace(refs.StripNumber(title))) {
		case "contents", "table of contents", "toc":
			return true
		}
		return false
	}
	titles := []string{"", "ab", "Contents", "CONTENTS", "1. Table of Contents", "TOC", " toc ", "Tocs",
		"Overview", "2.3 Contents", "Table Of Contents\u00a0", "ÇONTENTS", "İndex", "Contents of the box",
		"\u212Aontents", "toc\u0307", "\xff\xfe", "Cont\u212Ants"}
	for _, title := range titles {
		assert.Equal(t, slow(title), isContents(title), "%q", title)
	}
}

var metadataLineInputs = []string{
	"", ":", "Version: 1.2", "  - **Status**: draft", "* __Owner__ : team", "**Last Updated:** today", "last  updated: x",
	"Authors: a", "Author:", "authorship: x", "-Status: x", "- status : x", "**Date**", "Tags\t:", "doc id:", "DOC ID :",
	"ſtatus: x", "Statuſ: x", "Approvers**:", "Editors ** :", "1. Version: x", "Revision:\u00e9", "\u00e9 Version: x",
	"created __:", "Generated:**", "+\tReviewer: x", "Version; 1: x",
}

// TestIsMetadataLine checks the scanner against the pattern it stands in
// for.
func TestIsMetadataLine(t *testing.T) {
	checkAgainstPattern(t, "isMetadataLine", metadataLine, isMetadataLine, metadataLineInputs)
}

func FuzzIsMetadataLine(f *testing.F) {
	fuzzAgainstPattern(f, "isMetadataLine", metadataLine, isMetadataLine, metadataLineInputs)
}
