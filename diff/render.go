package diff

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/crucible-go/crucible/internal/words"
)

// Markdown renders diff-analysis.md as ARTIFACTS.md lays it out: metadata,
// the four category tables (one column per variant) and a summary.
func (a *Analysis) Markdown() string {
	var b strings.Builder
	s, c, x, u := a.ByCategory(CategoryStructural), a.ByCategory(CategoryContent), a.ByCategory(CategoryContradiction), a.ByCategory(CategoryUnique)
	fmt.Fprintf(&b, "# Diff Analysis: %s Comparison\n\n", a.ArtifactType)
	b.WriteString("## Metadata\n\n")
	fmt.Fprintf(&b, "- Generated: %s\n", a.Generated.UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "- Variants compared: %d\n", len(a.Variants))
	for _, v := range a.Variants {
		fmt.Fprintf(&b, "  - Variant %s: %s (%d top-level sections, %d lines, %d words)\n", v.Label, cell(v.Name), v.Sections, v.Lines, v.Words)
	}
	fmt.Fprintf(&b, "- Total differences found: %d\n", len(a.Points))
	fmt.Fprintf(&b, "- Categories: structural (%d), content (%d), contradictions (%d), unique (%d)\n", len(s), len(c), len(x), len(u))
	sim := a.Similarity
	verdict := "variants differ"
	if sim.Identical {
		verdict = "variants substantially identical"
	}
	fmt.Fprintf(&b, "- Similarity: %d differences across %d comparable items (%.0f%%): %s\n", sim.Differences, sim.Comparable, sim.Ratio*100, verdict)
	if len(a.Focus) > 0 {
		fmt.Fprintf(&b, "- Focus areas: %s\n", strings.Join(a.Focus, ", "))
	}
	for _, w := range a.Warnings {
		fmt.Fprintf(&b, "- Warning: %s\n", w)
	}

	letters := make([]string, len(a.Variants))
	for i, v := range a.Variants {
		letters[i] = "Variant " + v.Label
	}
	b.WriteString("\n## Structural Differences\n\n")
	a.table(&b, s, "Area", suffixed(letters, ""), "Severity", func(p Point) string { return p.Title })
	b.WriteString("\n## Content Differences\n\n")
	a.table(&b, c, "Topic", suffixed(letters, " Approach"), "Severity", func(p Point) string { return p.Title })
	b.WriteString("\n## Contradictions\n\n")
	a.table(&b, x, "Point of Conflict", suffixed(letters, " Position"), "Impact", func(p Point) string {
		return fmt.Sprintf("%s (%s, %s)", p.Title, p.Scope, p.Kind)
	})
	b.WriteString("\n## Unique Contributions\n\n")
	if len(u) == 0 {
		b.WriteString("_None found._\n")
	} else {
		b.WriteString("| # | Variant | Contribution | Value Assessment |\n|---|---------|--------------|------------------|\n")
		for _, p := range u {
			fmt.Fprintf(&b, "| %s | Variant %s | %s | %s — %s |\n", p.ID, Label(p.Variants[0]), cell(p.Title), p.Rating, cell(p.Reason))
		}
	}

	b.WriteString("\n## Topic Alignment\n\n")
	a.alignmentTable(&b)

	b.WriteString("\n## Summary\n\n")
	fmt.Fprintf(&b, "- Total structural differences: %d\n", len(s))
	fmt.Fprintf(&b, "- Total content differences: %d\n", len(c))
	fmt.Fprintf(&b, "- Total contradictions: %d\n", len(x))
	fmt.Fprintf(&b, "- Total unique contributions: %d\n", len(u))
	high := a.HighestSeverity()
	if len(high) == 0 {
		b.WriteString("- Highest-severity items: none\n")
	} else {
		fmt.Fprintf(&b, "- Highest-severity items: %s\n", strings.Join(high, ", "))
	}
	return b.String()
}

func suffixed(ls []string, suffix string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l + suffix
	}
	return out
}

// table writes one category's table: id, title, one column per variant and
// the rating, whose reason follows it.
func (a *Analysis) table(b *strings.Builder, ps []Point, titleCol string, variantCols []string, ratingCol string, title func(Point) string) {
	if len(ps) == 0 {
		b.WriteString("_None found._\n")
		return
	}
	b.WriteString("| # | " + titleCol + " | " + strings.Join(variantCols, " | ") + " | " + ratingCol + " |\n")
	b.WriteString("|---|" + strings.Repeat("---|", len(variantCols)+2) + "\n")
	for _, p := range ps {
		cells := make([]string, len(p.Positions))
		for i, pos := range p.Positions {
			cells[i] = cell(pos.Text)
			if cells[i] == "" {
				cells[i] = "—"
			}
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s — %s |\n", p.ID, cell(title(p)), strings.Join(cells, " | "), p.Rating, cell(p.Reason))
	}
}

// alignmentTable writes the topic alignment: one row per topic, each
// variant's section as "§2.1 Caching (L34)", or "—" where it has none.
func (a *Analysis) alignmentTable(b *strings.Builder) {
	if len(a.Topics) == 0 {
		b.WriteString("_None found._\n")
		return
	}
	b.WriteString("| Topic |")
	for _, v := range a.Variants {
		b.WriteString(" Variant " + v.Label + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(a.Variants)) + "\n")
	for _, t := range a.Topics {
		b.WriteString("| " + cell(t.Title) + " |")
		for v := range a.Variants {
			ref := "—"
			if v < len(t.Headings) && v < len(t.Sections) && t.Sections[v] >= 0 {
				name := t.Headings[v].Section
				if strings.TrimSpace(name) == "" {
					name = "(untitled)" // a heading with no text: "#" alone on a line
				}
				ref = cell(fmt.Sprintf("§%s (L%d)", name, t.Headings[v].Line))
			}
			b.WriteString(" " + ref + " |")
		}
		b.WriteString("\n")
	}
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	s = words.OneLine(s)
	return strings.ReplaceAll(s, "|", `\|`)
}

// ---- validation ----

// alignCellRE matches a cell of the topic alignment: a section reference
// with its heading line, or a dash.
var alignCellRE = regexp.MustCompile(`^(?:§.+ \(L\d+\)|—)$`)

// validateAlignment checks the topic alignment table: a Topic column and
// one per variant, every row as wide as the header, every cell a section
// reference or a dash.
func validateAlignment(doc *Document, si int) []string {
	var problems []string
	width, n := 0, 0
	for _, blk := range doc.BlocksIn(doc.Sections[si].Span) {
		if blk.Kind != TableRow {
			continue
		}
		if blk.Header {
			width = len(blk.Cells)
			if width < 2 || blk.Cells[0] != "Topic" {
				problems = append(problems, "Topic Alignment: header is not | Topic | Variant … |")
			}
			continue
		}
		n++
		if len(blk.Cells) != width {
			problems = append(problems, fmt.Sprintf("Topic Alignment: row %d has %d cells, header has %d", n, len(blk.Cells), width))
			continue
		}
		for _, c := range blk.Cells[1:] {
			if !alignCellRE.MatchString(c) {
				problems = append(problems, fmt.Sprintf("Topic Alignment: row %d cell %q is neither a section reference nor —", n, c))
			}
		}
	}
	return problems
}

// ErrInvalidArtifact reports a rendered artifact that breaks its own
// rules; the error lists every problem found.
var ErrInvalidArtifact = errors.New("invalid diff-analysis.md")

var (
	idCellRE  = regexp.MustCompile(`^([SCXU])-(\d{3,})$`)
	countRE   = regexp.MustCompile(`^- Categories: structural \((\d+)\), content \((\d+)\), contradictions \((\d+)\), unique \((\d+)\)$`)
	totalRE   = regexp.MustCompile(`^- Total differences found: (\d+)$`)
	ratingsRE = regexp.MustCompile(`^\**(Low|Medium|High)\**\b`)
)

// Validate checks a rendered diff-analysis.md: all sections present, id
// sequences contiguous from 001 in each table, metadata counts equal to
// the table rows, every row rated Low, Medium or High, and the topic
// alignment a table of section references. It returns nil
// or an error matching [ErrInvalidArtifact] that lists every problem.
func Validate(markdown string) error {
	doc, err := Parse("diff-analysis.md", []byte(markdown))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidArtifact, err)
	}
	var problems []string
	sections := map[string]int{}
	for i, s := range doc.Sections {
		sections[s.Title] = i
	}
	if len(doc.Sections) == 0 || doc.Sections[0].Level != 1 || !strings.HasPrefix(doc.Sections[0].Title, "Diff Analysis: ") {
		problems = append(problems, `missing "# Diff Analysis: <artifact-type> Comparison"`)
	}
	tables := []struct {
		title, prefix string
		cols          int // -1: one per variant plus three
	}{
		{"Structural Differences", "S", -1}, {"Content Differences", "C", -1},
		{"Contradictions", "X", -1}, {"Unique Contributions", "U", 4},
	}
	for _, need := range []string{"Metadata", "Topic Alignment", "Summary"} {
		if _, ok := sections[need]; !ok {
			problems = append(problems, fmt.Sprintf("missing section %q", need))
		}
	}
	rows := map[string]int{}
	for _, t := range tables {
		si, ok := sections[t.title]
		if !ok {
			problems = append(problems, fmt.Sprintf("missing section %q", t.title))
			continue
		}
		width := 0
		n := 0
		for _, blk := range doc.BlocksIn(doc.Sections[si].Span) {
			if blk.Kind != TableRow {
				continue
			}
			if blk.Header {
				width = len(blk.Cells)
				continue
			}
			n++
			m := idCellRE.FindStringSubmatch(blk.Cells[0])
			if m == nil || m[1] != t.prefix {
				problems = append(problems, fmt.Sprintf("%s: row %d has id %q; want %s-%03d", t.title, n, blk.Cells[0], t.prefix, n))
				continue
			}
			if id, _ := strconv.Atoi(m[2]); id != n {
				problems = append(problems, fmt.Sprintf("%s: ids not contiguous: %s at row %d", t.title, blk.Cells[0], n))
			}
			if len(blk.Cells) != width {
				problems = append(problems, fmt.Sprintf("%s: %s has %d cells, header has %d", t.title, blk.Cells[0], len(blk.Cells), width))
			}
			if !ratingsRE.MatchString(blk.Cells[len(blk.Cells)-1]) {
				problems = append(problems, fmt.Sprintf("%s: %s is not rated Low, Medium or High", t.title, blk.Cells[0]))
			}
		}
		if t.cols > 0 && width != 0 && width != t.cols {
			problems = append(problems, fmt.Sprintf("%s: header has %d columns; want %d", t.title, width, t.cols))
		}
		rows[t.prefix] = n
	}
	if si, ok := sections["Topic Alignment"]; ok {
		problems = append(problems, validateAlignment(doc, si)...)
	}
	// Metadata and summary counts must equal the rows.
	total, haveCounts := -1, false
	for _, line := range strings.Split(markdown, "\n") {
		if m := countRE.FindStringSubmatch(line); m != nil {
			haveCounts = true
			for i, p := range []string{"S", "C", "X", "U"} {
				if n, _ := strconv.Atoi(m[i+1]); n != rows[p] {
					problems = append(problems, fmt.Sprintf("metadata counts %d %s items; the table has %d rows", n, p, rows[p]))
				}
			}
		}
		if m := totalRE.FindStringSubmatch(line); m != nil {
			total, _ = strconv.Atoi(m[1])
		}
	}
	if !haveCounts {
		problems = append(problems, "metadata has no Categories line")
	}
	if sum := rows["S"] + rows["C"] + rows["X"] + rows["U"]; total != sum {
		problems = append(problems, fmt.Sprintf("metadata says %d differences in total; the tables have %d rows", total, sum))
	}
	for name, p := range map[string]string{"structural differences": "S", "content differences": "C", "contradictions": "X", "unique contributions": "U"} {
		want := fmt.Sprintf("- Total %s: %d", name, rows[p])
		if !strings.Contains(markdown, want+"\n") {
			problems = append(problems, fmt.Sprintf("summary lacks %q", want))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	slices.Sort(problems)
	return fmt.Errorf("%w:\n- %s", ErrInvalidArtifact, strings.Join(problems, "\n- "))
}
