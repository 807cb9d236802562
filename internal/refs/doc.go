// Package refs finds the internal references of a Markdown document —
// "Section 3.2", "§3.2", "Milestone M2", "Deliverable D1.3",
// "See [Error Handling]", links to "#anchors" — and resolves each against
// the same document.
//
// Two pipeline steps use it: scoring counts resolved references for its
// dependency-completeness metric (DC = resolved / total), and the merge
// re-checks the merged document so that a merge that breaks a
// cross-reference is flagged.
//
// # What counts as a reference
//
// refs reads the document with goldmark, once per document (the result is
// memoised on the [diff.Document]), and takes from the tree what a tree
// can say: a link whose destination starts with '#' is an anchor
// reference, "[text](#error-handling)" or "[text][ref]" with "[ref]:
// #error-handling"; a link anywhere else (a URL, another file) is not, and
// nor is anything in its text; code blocks, code spans, images, autolinks,
// HTML, headings and front matter hold no references at all. What the
// tree cannot name — references written in words — [Find] matches with
// patterns against the text nodes of paragraphs, list items and table
// cells only (see [Prose]):
//
//   - section references: "Section 3.2", "section 4", "Sections 2 and 3.1",
//     "Sec. 5", "§3.2", "§§ 4, 5";
//   - milestone references: "Milestone M2", "Milestone 2", "Milestones M1
//     and M2" (target "M2");
//   - deliverable references: "Deliverable D1.2", "Deliverables D1 and D2.1";
//   - title references: `See [Error Handling]`, `see the "Error Handling"
//     section` (brackets or quotes after "see").
//
// External references are excluded: links to URLs or other files, bare URLs,
// and section references that name another document ("Section 4 of RFC
// 9110", "§2 in [the API guide](api.md)").
//
// # What a reference resolves to
//
// [Index] collects what the document defines:
//
//   - section numbers: a heading's explicit number ("## 3. Caching",
//     "### 3.2 Eviction") or, for a heading without one, the number a
//     reader would count for it (one more than the previous sibling's, or
//     the parent's with ".1"), unless another heading claims that number
//     explicitly;
//   - titles: every heading title, compared case-insensitively without its
//     number, then by word overlap of at least 0.8 (see internal/words);
//   - anchors: the anchor GitHub gives every heading, nested ones
//     included ([Slug], with "-1", "-2" for repeats, see [Slugger]),
//     "{#id}" heading attributes (goldmark's attribute syntax) and the
//     id/name attributes of HTML blocks and inline tags (never of code);
//   - milestone and deliverable ids named in headings ("## Milestone M2",
//     "### D1.2 Schema") or in the first cell of a table row.
package refs
