package scoring

import (
	"regexp"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/refs"
)

// ownReferences is the part of the internal-reference report that
// dependency completeness (DC) counts: the references to the document's
// own sections and ids. internal/refs already leaves out code blocks,
// inline code, URLs and "Section 4 of RFC 9110"; three more kinds of
// reference name something outside the document, and counting them would
// score a variant on another document's outline:
//
//   - section numbers the document's own headings discuss as subjects — a
//     review whose heading reads "3.1 §4.4 Replacement Text" reviews the
//     other document's §4.4 (when no heading of its own is numbered 4.4);
//     its "§" references then all use the other document's numbering, and
//     its "Section 4.4" does too;
//   - in a document whose headings carry no numbers of their own, an
//     unresolved "§" number ("§14.5", "§5.3" in a proposal whose sections
//     are "T1 … T7") names a section of the document it discusses: "§" is
//     the notation of numbered documents, and this one numbers nothing.
//     Where headings are numbered, or the reference reads "Section 9", an
//     unresolved reference is a broken one and counts;
//   - a reference on a shell command line ("$ ./migrate.sh --step 3  #
//     section 2"): the line is a command to type, not prose that points at
//     a section.
//
// The result keeps refs.Report's meaning: Total references, Resolved of
// them, Refs in document order.
func ownReferences(d *diff.Document, all refs.Report) refs.Report {
	numbered := false
	for _, s := range d.Sections {
		if _, _, _, ok := refs.HeadingNumber(s.Title); ok {
			numbered = true
			break
		}
	}
	discussed := discussedSections(d)
	out := refs.Report{Refs: all.Refs[:0:0]}
	for _, r := range all.Refs {
		if r.Kind == refs.Section {
			sign := strings.HasPrefix(r.Text, "§") || (!strings.ContainsAny(r.Text, "Ss") && signBefore(d, r.Span.Start))
			if discussed[r.Target] || (sign && len(discussed) > 0) ||
				(sign && !numbered && !r.Resolved) {
				continue
			}
		}
		if onCommandLine(d, r.Span.Start) {
			continue
		}
		out.Refs = append(out.Refs, r)
		out.Total++
		if r.Resolved {
			out.Resolved++
		}
	}
	return out
}

// signBefore reports whether a list item of a reference ("4" of "§§ 3, 4")
// follows a "§" on its line.
func signBefore(d *diff.Document, off int) bool {
	start := strings.LastIndexByte(d.Source[:off], '\n') + 1
	return strings.Contains(d.Source[start:off], "§")
}

// reHeadingSection finds the section numbers a heading names after its
// own number: "§4.4", "Section 10.2".
var reHeadingSection = regexp.MustCompile(`(?i)(?:§§?|\bsections?)[ \t]*(\d+(?:\.\d+)*)`)

// discussedSections collects the section numbers the document's headings
// name as subjects (beyond the heading's own number), unless a heading of
// the document claims the number as its own: then "Section 4" may well
// mean that heading.
func discussedSections(d *diff.Document) map[string]bool {
	var out map[string]bool
	own := map[string]bool{}
	for _, s := range d.Sections {
		if n, _, _, ok := refs.HeadingNumber(s.Title); ok {
			own[n] = true
		}
	}
	for _, s := range d.Sections {
		title := s.Title
		if _, _, rest, ok := refs.HeadingNumber(title); ok {
			title = title[rest:]
		}
		if !strings.Contains(title, "§") && !strings.Contains(strings.ToLower(title), "section") {
			continue
		}
		for _, m := range reHeadingSection.FindAllStringSubmatch(title, -1) {
			if n := strings.TrimSuffix(m[1], "."); !own[n] {
				if out == nil {
					out = map[string]bool{}
				}
				out[n] = true
			}
		}
	}
	return out
}

// reCommandLine matches a line that is a shell command: a prompt ("$ ",
// "% ", "# " before a command is ambiguous with Markdown, so not that one)
// after any list or quote marker.
var reCommandLine = regexp.MustCompile(`^(?:[-*+>]\s+|\d+[.)]\s+)*[$%]\s+\S`)

// onCommandLine reports whether byte offset off lies on a shell command
// line of d.
func onCommandLine(d *diff.Document, off int) bool {
	start := strings.LastIndexByte(d.Source[:off], '\n') + 1
	end := strings.IndexByte(d.Source[off:], '\n')
	if end < 0 {
		end = len(d.Source) - off
	}
	return reCommandLine.MatchString(strings.TrimSpace(d.Source[start : off+end]))
}
