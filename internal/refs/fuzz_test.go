package refs

import (
	"regexp"
	"testing"

	"github.com/crucible-go/crucible/diff"
)

func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		resolveDoc,
		"See Section 3.2, 4 and 5 of RFC 1.",
		"[a](#b) [c](<#d e>) ![x](#y) `Section 1` <http://x/#z>",
		"| M1 | D1.2 |\n|---|---|\n| Milestone 3 | x |\n",
		"## 1. A\n### B\nSee [B] and see \"A\" and §§ 1.1, 2.",
		"Sections 1, and 2 or 3 & 4\n",
		"see [](#)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		d, err := diff.Parse("fuzz", []byte(src))
		if err != nil {
			return
		}
		rep := Check(d)
		if rep.Total != len(rep.Refs) || rep.Resolved > rep.Total || len(rep.Broken()) != rep.Total-rep.Resolved {
			t.Fatalf("inconsistent counts: %+v", rep)
		}
		prose := Prose(d)
		if len(prose) != len(d.Source) {
			t.Fatalf("prose is %d bytes, source %d", len(prose), len(d.Source))
		}
		for i := range prose {
			if prose[i] != d.Source[i] && (prose[i] != ' ' && prose[i] != '\n' || d.Source[i] == '\n') {
				t.Fatalf("prose byte %d is %q, source %q", i, prose[i], d.Source[i])
			}
		}
		end := 0
		for _, r := range rep.Refs {
			if r.Kind != Anchor && prose[r.Span.Start] != d.Source[r.Span.Start] {
				t.Fatalf("%+v starts outside prose text", r)
			}
			if r.Span.Start < end || r.Span.End <= r.Span.Start || r.Span.End > len(d.Source) {
				t.Fatalf("bad span %+v after %d", r.Span, end)
			}
			end = r.Span.End
			if d.Text(r.Span) != r.Text {
				t.Fatalf("text %q is not the source %q", r.Text, d.Text(r.Span))
			}
			if r.Target == "" && r.Kind != Anchor {
				t.Fatalf("empty target: %+v", r)
			}
			if r.Resolved && (r.Section < -1 || r.Section >= len(d.Sections)) {
				t.Fatalf("section %d out of range", r.Section)
			}
		}
	})
}

// headingNumOracle is the rule HeadingNumber implements by hand, as a
// regular expression.
var headingNumOracle = regexp.MustCompile(`^(?:(?i:section)[ \t]+|§[ \t]*)?(\d{1,3}(?:\.\d+)*)\.?(?:[ \t]*[:)–—-][ \t]*|[ \t]+|$)`)

func FuzzHeadingNumber(f *testing.F) {
	for _, s := range []string{"3.2 Caching", "Section 3.2: x", "§4 Risks", "12.", "2026 Roadmap", "3.2Caching", "4 — Risks", "1.2.3. a", "SECTION\t7) b", "3 -", "3.", "3.x y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, title string) {
		n, start, rest, ok := HeadingNumber(title)
		m := headingNumOracle.FindStringSubmatchIndex(title)
		if ok != (m != nil) {
			t.Fatalf("%q: ok %v, oracle %v", title, ok, m != nil)
		}
		if ok && (n != title[m[2]:m[3]] || start != m[2] || rest != m[1]) {
			t.Fatalf("%q: got %q %d %d, oracle %q %d %d", title, n, start, rest, title[m[2]:m[3]], m[2], m[1])
		}
	})
}
