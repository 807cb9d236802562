package diff

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/crucible-go/crucible/internal/words"
)

// Rating grades a finding: the severity of a difference, the impact of a
// contradiction, the value of a unique contribution.
type Rating string

// Ratings, in increasing order.
const (
	Low    Rating = "Low"
	Medium Rating = "Medium"
	High   Rating = "High"
)

// Rank orders ratings: 1 for Low, 2 for Medium, 3 for High, 0 otherwise.
func (r Rating) Rank() int {
	switch r {
	case Low:
		return 1
	case Medium:
		return 2
	case High:
		return 3
	}
	return 0
}

func maxRating(a, b Rating) Rating {
	if b.Rank() > a.Rank() {
		return b
	}
	return a
}

// Category is one of the four kinds of diff point.
type Category string

// The categories of diff point, with their id prefixes S, C, X and U.
const (
	CategoryStructural    Category = "structural"
	CategoryContent       Category = "content"
	CategoryContradiction Category = "contradiction"
	CategoryUnique        Category = "unique"
)

// Prefix returns the id prefix of the category: "S", "C", "X" or "U".
func (c Category) Prefix() string {
	switch c {
	case CategoryStructural:
		return "S"
	case CategoryContent:
		return "C"
	case CategoryContradiction:
		return "X"
	case CategoryUnique:
		return "U"
	}
	return "?"
}

// Evidence is a piece of a variant a finding rests on. Quote is exact
// source text of the variant, so anyone can find it.
type Evidence struct {
	Variant int    `json:"variant"`           // index in input order
	Section string `json:"section,omitempty"` // e.g. "2.1 Caching"
	Line    int    `json:"line"`
	Quote   string `json:"quote"`
}

// Position is what one variant says about a diff point: the table cell, and
// the section it refers to.
type Position struct {
	Text    string `json:"text"`    // empty when the point does not concern the variant
	Section int    `json:"section"` // index in the variant's Sections, -1 when none
}

// Point is one finding of the diff analysis: the unit the debate argues
// over, the scoring counts and the merge acts on. It carries the variants
// and sections involved, so later steps never re-parse the artifact.
type Point struct {
	ID       string   `json:"id"` // S-001, C-001, X-001, U-001
	Category Category `json:"category"`
	// Kind refines the category: for structural points "section-order",
	// "section-grouping", "organization-model", "hierarchy-depth",
	// "heading-structure"; for content "approach" or "coverage-gap" (and,
	// from a model detector, "revision-change" or
	// "unconfirmed-contradiction"); for
	// contradictions the detector's kind; for unique contributions
	// "section".
	Kind  string `json:"kind"`
	Title string `json:"title"` // area, topic, point of conflict or contribution
	// Positions holds one entry per variant, in input order.
	Positions []Position `json:"positions"`
	// Rating is the severity (structural, content), the impact
	// (contradiction) or the value (unique contribution).
	Rating   Rating     `json:"rating"`
	Reason   string     `json:"reason"`   // why the rating
	Variants []int      `json:"variants"` // the variants concerned
	Evidence []Evidence `json:"evidence"`
	// Scope is set for contradictions.
	Scope Scope `json:"scope,omitempty"`
	// Signature identifies a contradiction independently of its values;
	// see Contradiction.Signature.
	Signature string `json:"signature,omitempty"`
}

// VariantInfo is the metadata diff-analysis.md reports per variant.
type VariantInfo struct {
	Label    string `json:"label"` // "A", "B", …
	Name     string `json:"name"`
	Sections int    `json:"sections"` // top-level sections
	Lines    int    `json:"lines"`
	Words    int    `json:"words"`
	MaxDepth int    `json:"max_depth"`
}

// Topic is one row of the coverage matrix: a topic and the section of each
// variant that covers it (-1 where it is missing).
type Topic struct {
	Title    string `json:"title"`
	Sections []int  `json:"sections"`
	// Headings names each variant's section, in the order of Sections;
	// the zero value where a variant has none.
	Headings []TopicHeading `json:"headings,omitempty"`
	// Compared is set when the analysis compares the topic's content: one
	// of its sections is one or two levels below the title and not
	// boilerplate (a table of contents, a change log). The alignment
	// covers every section; content differences, unique contributions,
	// the similarity count and topic coverage keep to compared topics.
	Compared bool `json:"compared,omitempty"`
}

// Covered reports how many variants cover the topic.
func (t Topic) Covered() int {
	n := 0
	for _, s := range t.Sections {
		if s >= 0 {
			n++
		}
	}
	return n
}

// Similarity measures how much the variants differ overall.
type Similarity struct {
	Differences int     `json:"differences"` // points found, before any focus filter, without intra-variant contradictions
	Comparable  int     `json:"comparable"`  // structural dimensions compared plus topics
	Ratio       float64 `json:"ratio"`       // Differences / Comparable
	// Identical is set when the differences are under 10% of the
	// comparable items ("variants substantially identical"), after which
	// the pipeline skips the debate.
	Identical bool `json:"identical"`
}

// Analysis is the result of step 1. Its Markdown method renders
// diff-analysis.md; the value itself is what later steps use.
type Analysis struct {
	ArtifactType string        `json:"artifact_type"`
	Generated    time.Time     `json:"generated"`
	Variants     []VariantInfo `json:"variants"`
	// Points lists every finding: structural, then content, then
	// contradictions, then unique contributions, ids contiguous within
	// each category.
	Points []Point `json:"points"`
	Topics []Topic `json:"topics"`
	// Fields lists the labelled fields whose values differ between
	// variants, in the order of their first variant's text.
	Fields     []FieldDisagreement `json:"fields,omitempty"`
	Similarity Similarity          `json:"similarity"`
	Focus      []string            `json:"focus,omitempty"`
	// Warnings notes what a reader should know: empty categories,
	// variants without headings, detectors that failed.
	Warnings []string `json:"warnings,omitempty"`
}

// ByCategory returns the points of one category, in id order.
func (a *Analysis) ByCategory(c Category) []Point {
	n := 0 // counted first: a Point is large, and growing by doubling copied most of them several times
	for i := range a.Points {
		if a.Points[i].Category == c {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]Point, 0, n)
	for _, p := range a.Points {
		if p.Category == c {
			out = append(out, p)
		}
	}
	return out
}

// hasCategory reports whether len(a.ByCategory(c)) > 0, without the copy.
func (a *Analysis) hasCategory(c Category) bool {
	for i := range a.Points {
		if a.Points[i].Category == c {
			return true
		}
	}
	return false
}

// Point returns the point with the given id.
func (a *Analysis) Point(id string) (Point, bool) {
	for _, p := range a.Points {
		if p.ID == id {
			return p, true
		}
	}
	return Point{}, false
}

// HighestSeverity returns the ids of the points rated High, in order.
func (a *Analysis) HighestSeverity() []string {
	var ids []string
	for _, p := range a.Points {
		if p.Rating == High {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// Label returns the letter of the i-th variant: "A" for 0, "B" for 1, …
func Label(i int) string {
	if i >= 0 && i < 26 {
		return string(rune('A' + i))
	}
	return fmt.Sprintf("V%d", i+1)
}

// Errors for a variant count outside 2–10.
var (
	ErrTooFewVariants  = errors.New("adversarial comparison requires at least 2 variants")
	ErrTooManyVariants = errors.New("maximum 10 variants supported")
)

// Option configures [Analyze].
type Option func(*config)

type config struct {
	artifactType string
	clock        func() time.Time
	focus        []string
	detectors    []ContradictionDetector
	source       *Document
	logger       *slog.Logger
}

// WithArtifactType names what the variants are ("Specification",
// "Roadmap", …), for the artifact's title. The default is "Artifact".
func WithArtifactType(t string) Option {
	return func(c *config) {
		if t = strings.TrimSpace(t); t != "" {
			c.artifactType = t
		}
	}
}

// WithClock sets the clock for the Generated timestamp. The default is
// time.Now; pass a fixed clock for reproducible artifacts.
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now != nil {
			c.clock = now
		}
	}
}

// WithFocus restricts the reported points to the given areas (--focus on
// the command line): a point is kept when an area names its category
// ("structural", "contradictions") or when the area's words appear in its
// title, positions or evidence. Ids are assigned after filtering, so they
// stay contiguous. The similarity check counts every point regardless.
func WithFocus(areas ...string) Option {
	return func(c *config) {
		for _, a := range areas {
			if a = strings.TrimSpace(a); a != "" {
				c.focus = append(c.focus, a)
			}
		}
	}
}

// WithDetectors replaces the contradiction detectors. The default is
// RuleDetector alone; to add a model-backed detector keep the rules:
// WithDetectors(diff.RuleDetector{}, model). Findings of several detectors
// are merged, duplicates (same signature, scope and variants) dropped.
func WithDetectors(ds ...ContradictionDetector) Option {
	return func(c *config) { c.detectors = ds }
}

// WithSource gives the source the variants were generated from (Mode B).
// Sections that merely restate a source section are not unique
// contributions.
func WithSource(src *Document) Option { return func(c *config) { c.source = src } }

// WithLogger sets the logger for diagnostics. The default discards.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}

// Analyze compares 2–10 variants and returns every structural difference,
// content difference, contradiction and unique contribution, each citing
// the variant, section, line and text it rests on. The result depends only
// on the documents and options: the same input always gives the same
// analysis.
func Analyze(ctx context.Context, docs []*Document, opts ...Option) (*Analysis, error) {
	cfg := config{artifactType: "Artifact", clock: time.Now, detectors: []ContradictionDetector{RuleDetector{}},
		logger: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(&cfg)
	}
	switch {
	case len(docs) < 2:
		return nil, fmt.Errorf("%w, got %d", ErrTooFewVariants, len(docs))
	case len(docs) > 10:
		return nil, fmt.Errorf("%w, got %d", ErrTooManyVariants, len(docs))
	}
	for i, d := range docs {
		if d == nil {
			return nil, fmt.Errorf("diff: variant %s is nil", Label(i))
		}
	}
	a := &Analysis{ArtifactType: cfg.artifactType, Generated: cfg.clock().UTC().Truncate(time.Second), Focus: cfg.focus}
	for i, d := range docs {
		a.Variants = append(a.Variants, VariantInfo{Label: Label(i), Name: d.Name, Sections: len(d.TopLevel()),
			Lines: d.Lines, Words: d.Words, MaxDepth: d.MaxDepth()})
		if len(d.Sections) == 0 {
			a.Warnings = append(a.Warnings, fmt.Sprintf("Variant %s (%s) has no headings; it is compared as one body of text", Label(i), d.Name))
		}
	}

	claimsSeen, fieldsSeen := newClaimCache(), newFieldCache()
	warmed := warmDocuments(docs, claimsSeen, fieldsSeen)
	topics := alignSections(docs)
	var fieldContradictions []Contradiction
	// The comparison reads the fields of documents the warm-up has not
	// reached yet: through the same cache.
	a.Fields, fieldContradictions = compareFields(docs, topics, fieldsSeen)
	warmed()
	in := NewDetectInput(docs...)
	in.Topics = exportTopics(docs, topics)
	in.Fields = a.Fields
	contradictions, unconfirmed, err := runDetectors(ctx, cfg, in, a, fieldContradictions)
	if err != nil {
		return nil, err
	}
	points := collectPoints(docs, topics, contradictions, unconfirmed, cfg.source)
	a.Topics = in.Topics

	a.Similarity = similarity(differences(points), comparedTopics(docs, topics))
	if len(cfg.focus) > 0 {
		points = filterFocus(points, cfg.focus)
	}
	a.Points = numberPoints(points)
	for _, c := range []Category{CategoryStructural, CategoryContent, CategoryContradiction, CategoryUnique} {
		if !a.hasCategory(c) {
			a.Warnings = append(a.Warnings, fmt.Sprintf("No %s items found", categoryNoun(c)))
		}
	}
	cfg.logger.DebugContext(ctx, "diff analysis", "variants", len(docs), "points", len(a.Points), "identical", a.Similarity.Identical)
	return a, nil
}

// collectPoints gathers the points of every category, in their fixed
// order: structural, content, differences, contradictions, unique. The
// content comparison spreads its topics over the CPUs; the other four
// only read the documents and the findings, and run beside it (at most
// one goroutine per CPU) instead of after it on one CPU while the others
// idle. Each kind's points are computed as before and joined in the same
// order: the analysis is the same.
func collectPoints(docs []*Document, topics []topic, contradictions []Contradiction, unconfirmed []Difference, source *Document) []Point {
	var structural, diffs, contra, unique []Point
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	g.Go(func() error { structural = structuralPoints(docs); return nil })
	g.Go(func() error {
		diffs = differencePoints(docs, unconfirmed)
		contra = contradictionPoints(docs, contradictions)
		return nil
	})
	g.Go(func() error { unique = uniquePoints(docs, topics, source); return nil })
	content := contentPoints(docs, topics, contradictions)
	_ = g.Wait() // the points cannot fail

	var points []Point // nil when there are none, as before
	if n := len(structural) + len(content) + len(diffs) + len(contra) + len(unique); n > 0 {
		points = make([]Point, 0, n)
	}
	points = append(points, structural...)
	points = append(points, content...)
	points = append(points, diffs...)
	points = append(points, contra...)
	return append(points, unique...)
}

// warmDocuments computes, in the background and at most one goroutine
// per CPU, what each document measures of itself alone and the steps
// below ask for — its claims, labelled fields and block indicators — so
// that documents are measured in parallel while the alignment, which
// compares them, runs. Every value lands in the document's memo, where
// the steps find it (or wait for it) as they would have computed it: the
// analysis is the same. The documents share the analysis's caches of
// classified sentences and of read fields (see [claimCache],
// [fieldCache]): variants repeat most of their text. The returned
// function waits for the goroutines.
func warmDocuments(docs []*Document, claims *claimCache, fields *fieldCache) (wait func()) {
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, d := range docs {
			if d.memo == nil {
				continue // nowhere to keep the values
			}
			g.Go(func() error {
				sharedClaimsWith(d, claims)
				docFieldRefsWith(d, fields)
				d.BlockIndicators()
				return nil
			})
		}
		_ = g.Wait() // the measures cannot fail
	}()
	return func() { <-done }
}

// exportTopics turns the alignment into the Topics of the analysis.
func exportTopics(docs []*Document, ts []topic) []Topic {
	out := make([]Topic, len(ts))
	for i, t := range ts {
		out[i] = Topic{Title: t.title, Sections: t.sections, Headings: topicHeadings(docs, t), Compared: t.compared(docs)}
	}
	return out
}

func categoryNoun(c Category) string {
	switch c {
	case CategoryStructural:
		return "structural difference"
	case CategoryContent:
		return "content difference"
	case CategoryContradiction:
		return "contradiction"
	}
	return "unique contribution"
}

// runDetectors runs every detector and merges their findings. A failing
// detector other than the first is noted as a warning so that a flaky model
// cannot sink the analysis; the rules never fail. Findings of a
// [FindingDetector] that are not contradictions come back as differences.
//
// The rules alone merge as they always have: duplicates (same signature,
// scope and variants) dropped, then the field contradictions added. When
// a named detector (a model) takes part, the rules' findings and the
// field contradictions come first and every other finding citing the
// same lines as one already kept, or restating it (see
// [conflictShape.restates]), is merged into it; each row's reason
// says which detectors found it; and when a detector found the variants
// to be successive revisions, conflicts between two revisions become
// changes.
func runDetectors(ctx context.Context, cfg config, in DetectInput, a *Analysis, fields []Contradiction) ([]Contradiction, []Difference, error) {
	type result struct {
		cs    []Contradiction
		name  string
		named bool // a named detector: its restatements of earlier findings are merged into them
	}
	var results, later []result
	var diffs []Difference
	var revisions []int
	named := false
	for i, d := range cfg.detectors {
		var cs []Contradiction
		var err error
		if fd, ok := d.(FindingDetector); ok {
			var f Findings
			f, err = fd.DetectAll(ctx, in)
			cs = f.Contradictions
			diffs = append(diffs, f.Differences...)
			if f.Revisions != nil {
				revisions = f.Revisions
			}
		} else {
			cs, err = d.Detect(ctx, in)
		}
		if err != nil {
			if ctx.Err() != nil || i == 0 {
				return nil, nil, fmt.Errorf("diff: contradiction detection: %w", err)
			}
			a.Warnings = append(a.Warnings, fmt.Sprintf("Contradiction detector %d failed: %v", i+1, err))
			continue
		}
		if _, ok := d.(NamedDetector); ok {
			named = true
			later = append(later, result{cs, detectorName(d), true})
			continue
		}
		results = append(results, result{cs, detectorName(d), false})
	}
	if !named {
		var all []Contradiction
		seen := map[string]bool{}
		for _, r := range results {
			for _, c := range r.cs {
				if len(c.Claims) < 2 {
					continue
				}
				key := c.Signature() + "|" + string(c.Scope()) + "|" + fmt.Sprint(variantList(c))
				if !seen[key] {
					seen[key] = true
					all = append(all, c)
				}
			}
		}
		SortContradictions(all)
		return withFieldContradictions(all, fields), diffs, nil
	}

	results = append(results, result{fields, "the rules", false})
	results = append(results, later...)
	var all []Contradiction
	var found [][]string // per contradiction of all: the detectors that found it
	seen := map[string]int{}
	var shapes []conflictShape // of all
	for _, r := range results {
		cov := newCoverage(all)
		earlier := len(all)
		for _, c := range r.cs {
			if len(c.Claims) < 2 {
				continue
			}
			key := c.Signature() + "|" + string(c.Scope()) + "|" + fmt.Sprint(variantList(c))
			j, dup := seen[key]
			if !dup {
				j, dup = cov.citing(c)
			}
			shape := shapeOf(c)
			if !dup && r.named {
				j, dup = restatementOf(shapes[:earlier], shape)
			}
			if dup {
				if !slices.Contains(found[j], r.name) {
					found[j] = append(found[j], r.name)
				}
				continue
			}
			seen[key] = len(all)
			all = append(all, c)
			shapes = append(shapes, shape)
			found = append(found, []string{r.name})
		}
	}
	if revisions != nil {
		all, found, diffs = revisionChanges(all, found, diffs, revisions)
	}
	for i := range all {
		all[i].Reason = strings.TrimSpace(all[i].Reason + " (found by " + strings.Join(found[i], " and ") + ")")
	}
	diffs = uncoveredDifferences(diffs, all)
	SortContradictions(all)
	return all, diffs, nil
}

// detectorName names a detector for the rendered analysis: its own name,
// or "the rules".
func detectorName(d ContradictionDetector) string {
	if n, ok := d.(NamedDetector); ok {
		return "the " + n.DetectorName()
	}
	return "the rules"
}

func variantList(c Contradiction) []int {
	var vs []int
	for _, cl := range c.Claims {
		if len(vs) == 0 || vs[len(vs)-1] != cl.Variant {
			vs = append(vs, cl.Variant)
		}
	}
	return vs
}

// differences counts the points that set variants apart: all but the
// contradictions a variant has within itself.
func differences(points []Point) int {
	n := 0
	for _, p := range points {
		if p.Scope != IntraVariant {
			n++
		}
	}
	return n
}

func similarity(differences, topics int) Similarity {
	comparable := 3 + topics // ordering, depth and heading structure, plus every topic
	s := Similarity{Differences: differences, Comparable: comparable, Ratio: float64(differences) / float64(comparable)}
	s.Identical = differences*10 < comparable
	return s
}

// filterFocus keeps the points a focus area names.
func filterFocus(points []Point, focus []string) []Point {
	type area struct {
		category Category
		words    words.Set
	}
	var areas []area
	for _, f := range focus {
		ar := area{words: words.NewSet(f)}
		switch strings.ToLower(f) {
		case "structural", "structure":
			ar.category = CategoryStructural
		case "content":
			ar.category = CategoryContent
		case "contradiction", "contradictions":
			ar.category = CategoryContradiction
		case "unique", "unique contributions":
			ar.category = CategoryUnique
		}
		areas = append(areas, ar)
	}
	var out []Point
	for _, p := range points {
		var text strings.Builder
		text.WriteString(p.Title + " " + p.Kind + " " + p.Reason)
		for _, pos := range p.Positions {
			text.WriteString(" " + pos.Text)
		}
		for _, e := range p.Evidence {
			text.WriteString(" " + e.Quote + " " + e.Section)
		}
		have := words.NewSet(text.String())
		for _, ar := range areas {
			if ar.category == p.Category || (len(ar.words) > 0 && ar.words.Intersect(have) == len(ar.words)) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// numberPoints orders points by category and assigns contiguous ids.
func numberPoints(points []Point) []Point {
	var out []Point
	for _, c := range []Category{CategoryStructural, CategoryContent, CategoryContradiction, CategoryUnique} {
		n := 0
		for _, p := range points {
			if p.Category == c {
				n++
				p.ID = fmt.Sprintf("%s-%03d", c.Prefix(), n)
				out = append(out, p)
			}
		}
	}
	return out
}

// sectionRef names a section for evidence: "2.1 Caching".
func sectionRef(d *Document, i int) string {
	if i < 0 || i >= len(d.Sections) {
		return ""
	}
	s := d.Sections[i]
	if _, own := headingNumberEnd(s.Title); s.Number == "" || own {
		return s.Title // "### 2.1 Goals" already says where it is
	}
	return s.Number + " " + s.Title
}

// A title can start with its own section number: "3. Requirements",
// "2.1 Goals", "4)". headingNumberEnd (scan.go) finds where it ends.

// bareTitle drops a title's own number: "3. Requirements" → "Requirements".
func bareTitle(title string) string {
	if end, ok := headingNumberEnd(title); ok && end < len(title) {
		return strings.TrimSpace(title[end:])
	}
	return title
}

// emptyPositions returns one empty position per variant.
func emptyPositions(n int) []Position {
	ps := make([]Position, n)
	for i := range ps {
		ps[i].Section = -1
	}
	return ps
}
