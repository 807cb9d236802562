package diff

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Successive revisions. When one variant is a later revision of another,
// a value the later one changes is an intended change, not a
// contradiction; the model detector needs to know which is later. The
// order is read from what the documents say of themselves, never from
// their content's quality:
//
//   - a revision marker in the file name or title ("-REVISED", "(revised)",
//     "v2", "rev 3", "updated") on a variant whose name is otherwise that
//     of another variant;
//   - a heading such as "Revision Notes", "Changes from v1" or "Change
//     log", or a sentence saying the document "supersedes" or "replaces"
//     another, in one variant only;
//   - differing "version" values in the front matter.
//
// Dates alone are not used: variants generated side by side carry dates
// too, and an earlier date does not make a competing proposal a
// predecessor.

var (
	revisionNameRE   = regexp.MustCompile(`(?i)(?:^|[-_. (])(?:revised|revision|rev\.?\s*\d+|updated|final|v(\d+)(?:\.\d+)*)(?:$|[-_. )])`)
	revisionHeadRE   = regexp.MustCompile(`(?i)\b(?:revision notes|revision history|changes (?:from|since|in) (?:v\d|version|the original|the previous)|what changed|change ?log)\b`)
	revisionSuperRE  = regexp.MustCompile(`(?i)\b(?:supersedes|replaces the (?:original|previous|earlier)|revised (?:version|plan|edition) of|this revision)\b`)
	revisionTitleRE  = regexp.MustCompile(`(?i)\((?:revised|updated|v\d+)\)|\brevised\b`)
	revisionStripRE  = regexp.MustCompile(`(?i)[-_. ]*(?:revised|revision|updated|final|rev\.?\s*\d+|v\d+(?:\.\d+)*)\b`)
	versionLineRE    = regexp.MustCompile(`(?m)^version:\s*["']?v?(\d+(?:\.\d+)*)["']?\s*$`)
	revisionMaxLines = 400 // lines searched for a "supersedes" sentence
)

// revisionOrder returns the variants in revision order, earliest first,
// when the documents say they are successive revisions of one artifact;
// nil otherwise. Variants the markers do not place keep no order, so the
// result is either every variant or none.
func revisionOrder(docs []*Document) []int {
	if len(docs) < 2 {
		return nil
	}
	if order := versionOrder(docs); order != nil {
		return order
	}
	rank := make([]int, len(docs))
	base := make([]string, len(docs))
	for v, d := range docs {
		name := strings.TrimSuffix(path.Base(d.Name), path.Ext(d.Name))
		base[v] = strings.ToLower(revisionStripRE.ReplaceAllString(name, ""))
		if m := revisionNameRE.FindStringSubmatch(name); m != nil {
			rank[v] = 1
			if m[1] != "" {
				n, _ := strconv.Atoi(m[1])
				rank[v] = n
			}
		}
		if rank[v] == 0 && revisionTitleRE.MatchString(d.Title) {
			rank[v] = 1
		}
		if rank[v] == 0 && saysRevision(d) {
			rank[v] = 1
		}
	}
	// Every variant must be a version of the same named artifact (equal
	// names once the markers are stripped), and the ranks must differ.
	for v := 1; v < len(docs); v++ {
		if base[v] != base[0] && !sameTitle(docs[v], docs[0]) {
			return nil
		}
	}
	order := make([]int, len(docs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank[a] - rank[b] })
	for i := 1; i < len(order); i++ {
		if rank[order[i]] == rank[order[i-1]] {
			return nil
		}
	}
	return order
}

// saysRevision reports whether a document calls itself a revision: a
// revision-notes heading or a "supersedes" sentence near the top.
func saysRevision(d *Document) bool {
	for _, s := range d.Sections {
		if revisionHeadRE.MatchString(s.Title) {
			return true
		}
	}
	for _, b := range d.Blocks {
		if b.Line > revisionMaxLines {
			break
		}
		if b.Kind != Code && revisionSuperRE.MatchString(b.Text) {
			return true
		}
	}
	return false
}

// sameTitle reports whether two documents have the same title once
// revision markers are removed.
func sameTitle(a, b *Document) bool {
	strip := func(s string) string {
		s = revisionTitleRE.ReplaceAllString(s, "")
		return strings.ToLower(strings.Join(strings.Fields(revisionStripRE.ReplaceAllString(s, "")), " "))
	}
	ta, tb := strip(a.Title), strip(b.Title)
	return ta != "" && ta == tb
}

// versionOrder orders the variants by a "version" of their front matter
// when every variant has a distinct one.
func versionOrder(docs []*Document) []int {
	vers := make([][]int, len(docs))
	for v, d := range docs {
		if d.FrontMatter == nil {
			return nil
		}
		// The raw text, not the decoded value: YAML reads 1.10 as the
		// number 1.1.
		m := versionLineRE.FindStringSubmatch(d.FrontMatter.Raw)
		if m == nil {
			return nil
		}
		for _, p := range strings.Split(m[1], ".") {
			n, _ := strconv.Atoi(p)
			vers[v] = append(vers[v], n)
		}
	}
	order := make([]int, len(docs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return slices.Compare(vers[a], vers[b]) })
	for i := 1; i < len(order); i++ {
		if slices.Equal(vers[order[i]], vers[order[i-1]]) {
			return nil
		}
	}
	return order
}
