package diff_test

// The ground truth of the evaluation corpus (schema crucible-eval/v1, see
// shared/eval/README.md) and the scoring rules, kept apart from the
// Analysis so that the rules can be tested on made-up findings.

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode"

	yaml "go.yaml.in/yaml/v3"
)

const evalSchema = "crucible-eval/v1"

// evalTruth is one set's truth.yaml.
type evalTruth struct {
	Schema             string                 `yaml:"schema"`
	Set                string                 `yaml:"set"`
	Category           string                 `yaml:"category"`
	Summary            string                 `yaml:"summary"`
	Variants           []evalVariant          `yaml:"variants"`
	Alignments         []evalGroup            `yaml:"alignments"`
	Contradictions     []evalContradiction    `yaml:"contradictions"`
	NotContradictions  []evalNotContradiction `yaml:"not_contradictions"`
	FieldDisagreements []evalFieldTruth       `yaml:"field_disagreements"`
	Notes              []string               `yaml:"notes"`
}

type evalVariant struct {
	File  string `yaml:"file"`
	Label string `yaml:"label"`
	Role  string `yaml:"role"`
}

// evalGroup is an alignment group: every section, of any variant, that
// covers one topic.
type evalGroup struct {
	ID         string        `yaml:"id"`
	Topic      string        `yaml:"topic"`
	Sections   []evalHeading `yaml:"sections"`
	Confidence string        `yaml:"confidence"`
	AbsentFrom []string      `yaml:"absent_from"`
	Note       string        `yaml:"note"`
}

type evalHeading struct {
	File    string `yaml:"file"`
	Heading string `yaml:"heading"`
	Level   int    `yaml:"level"`
	Line    int    `yaml:"line"`
}

// evalSide is one statement: a side of a contradiction or
// not-contradiction, or one value of a field disagreement.
type evalSide struct {
	File  string `yaml:"file"`
	Line  int    `yaml:"line"`
	Quote string `yaml:"quote"`
	Value string `yaml:"value"`
}

type evalContradiction struct {
	ID         string     `yaml:"id"`
	Kind       string     `yaml:"kind"`
	Topic      string     `yaml:"topic"`
	Intra      bool       `yaml:"intra"`
	Certainty  string     `yaml:"certainty"`  // "probable" or empty (certain)
	Resolution string     `yaml:"resolution"` // "superseded-by-later" or empty
	Sides      []evalSide `yaml:"sides"`
	Note       string     `yaml:"note"`
}

// certain reports whether the entry counts for recall: everything not
// marked probable.
func (c evalContradiction) certain() bool { return c.Certainty == "" }

type evalNotContradiction struct {
	ID    string     `yaml:"id"`
	Topic string     `yaml:"topic"`
	Sides []evalSide `yaml:"sides"`
	Why   string     `yaml:"why"`
	Note  string     `yaml:"note"`
}

type evalFieldTruth struct {
	ID     string     `yaml:"id"`
	Item   string     `yaml:"item"`
	Field  string     `yaml:"field"`
	Values []evalSide `yaml:"values"`
	Note   string     `yaml:"note"`
}

// loadEvalTruth decodes a truth.yaml strictly: an unknown key means the
// schema moved on and the scorer would silently ignore part of the labels.
func loadEvalTruth(path string) (*evalTruth, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var tr evalTruth
	if err := dec.Decode(&tr); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if tr.Schema != evalSchema {
		return nil, fmt.Errorf("%s: schema %q, want %q", path, tr.Schema, evalSchema)
	}
	if len(tr.Variants) < 2 {
		return nil, fmt.Errorf("%s: %d variants, want at least 2", path, len(tr.Variants))
	}
	for _, c := range tr.Contradictions {
		if !slices.Contains(evalKinds, c.Kind) || (c.Certainty != "" && c.Certainty != "probable") {
			return nil, fmt.Errorf("%s: %s: kind %q, certainty %q not in the schema", path, c.ID, c.Kind, c.Certainty)
		}
	}
	return &tr, nil
}

// label returns the truth's short name for a file ("V1", "O", "A"), or the
// file name when the truth does not list it.
func (tr *evalTruth) label(file string) string {
	for _, v := range tr.Variants {
		if v.File == file && v.Label != "" {
			return v.Label
		}
	}
	return file
}

// ---- matching statements to findings ----

// evalLoc is a line of a variant file.
type evalLoc struct {
	File string
	Line int
	// Item is, for a field value read from a labelled line of a section
	// that is its item, the line of that section's heading (0 otherwise):
	// the truth may label a disagreement over several fields of one item
	// by the item's heading ("### 2. Rollback failure …" for its Impact and
	// its Probability), and each field's value stands for the item.
	Item int
}

// evalLineTolerance is how far a finding's line may be from a labelled
// statement's: statements span lines and are labelled by their most
// specific one.
const evalLineTolerance = 2

func (l evalLoc) near(o evalLoc) bool {
	within := func(x, y int) bool { return x-y >= -evalLineTolerance && x-y <= evalLineTolerance }
	return l.File == o.File && (within(l.Line, o.Line) || (o.Item > 0 && within(l.Line, o.Item)) || (l.Item > 0 && within(l.Item, o.Line)))
}

func sideLocs(sides []evalSide) []evalLoc {
	locs := make([]evalLoc, len(sides))
	for i, s := range sides {
		locs[i] = evalLoc{File: s.File, Line: s.Line}
	}
	return locs
}

// evalHits reports whether a finding citing locs points at the labelled
// statements sides: at least two sides (every side, were there fewer) must
// each be matched by a citation of their own, within the line tolerance.
// Requiring distinct citations is what keeps one quoted line from standing
// for both sides of an intra-variant conflict whose sides share a line or
// lie a line apart; for sides far apart it changes nothing.
func evalHits(sides, locs []evalLoc) bool {
	need := min(2, len(sides))
	return need > 0 && evalMatching(sides, locs) >= need
}

// evalMatching returns the size of a maximum matching between sides and
// locs, an edge joining a side and a citation near it (Kuhn's augmenting
// paths; both lists are a handful long).
func evalMatching(sides, locs []evalLoc) int {
	owner := make([]int, len(locs)) // side holding each citation, -1 when free
	for i := range owner {
		owner[i] = -1
	}
	var augment func(s int, seen []bool) bool
	augment = func(s int, seen []bool) bool {
		for j, l := range locs {
			if seen[j] || !sides[s].near(l) {
				continue
			}
			seen[j] = true
			if owner[j] < 0 || augment(owner[j], seen) {
				owner[j] = s
				return true
			}
		}
		return false
	}
	n := 0
	for s := range sides {
		if augment(s, make([]bool, len(locs))) {
			n++
		}
	}
	return n
}

// ---- scores ----

// evalKinds are the contradiction kinds of the schema, in report order.
var evalKinds = []string{"numeric", "field", "verdict", "choice", "scope", "dependency"}

// evalValueKind reports whether a kind is about differing values, which
// the rule detectors are built to find.
func evalValueKind(kind string) bool {
	return kind == "numeric" || kind == "field" || kind == "verdict"
}

// evalCounts holds the raw counts of one set; sets are summed before any
// ratio is taken, so large sets weigh more than small ones.
type evalCounts struct {
	// Contradiction points reported, and those matching some truth
	// contradiction (certain or probable: a probable hit is not
	// penalised), of which matching only probable entries.
	Reported, Correct, ProbableOnly int
	// Certain truth contradictions and those some point matches; the same
	// by kind, for the value kinds, and for intra-variant entries.
	Certain, CertainFound int
	KindTotal, KindFound  map[string]int
	ValueTotal, ValueHit  int
	IntraTotal, IntraHit  int
	// Labelled not-contradictions; those some point matching no truth
	// contradiction hits; and such points.
	NotTotal, NotHit, NotReported int

	// Field disagreements: truth entries and those recalled; reported
	// ones, those matching no truth entry of any kind, and those matching
	// only a not-contradiction.
	FieldTruth, FieldFound                 int
	FieldReported, FieldFalse, FieldNotHit int

	// Alignment: predicted pairs of sections with both headings labelled,
	// of which in a common group; pairs with an unlabelled heading; truth
	// file pairs and those found.
	AlignLabelled, AlignCorrect, AlignUnlabelled int
	AlignTruth, AlignFound                       int
}

func (c *evalCounts) add(o evalCounts) {
	c.Reported += o.Reported
	c.Correct += o.Correct
	c.ProbableOnly += o.ProbableOnly
	c.Certain += o.Certain
	c.CertainFound += o.CertainFound
	if c.KindTotal == nil {
		c.KindTotal, c.KindFound = map[string]int{}, map[string]int{}
	}
	for k, n := range o.KindTotal {
		c.KindTotal[k] += n
	}
	for k, n := range o.KindFound {
		c.KindFound[k] += n
	}
	c.ValueTotal += o.ValueTotal
	c.ValueHit += o.ValueHit
	c.IntraTotal += o.IntraTotal
	c.IntraHit += o.IntraHit
	c.NotTotal += o.NotTotal
	c.NotHit += o.NotHit
	c.NotReported += o.NotReported
	c.FieldTruth += o.FieldTruth
	c.FieldFound += o.FieldFound
	c.FieldReported += o.FieldReported
	c.FieldFalse += o.FieldFalse
	c.FieldNotHit += o.FieldNotHit
	c.AlignLabelled += o.AlignLabelled
	c.AlignCorrect += o.AlignCorrect
	c.AlignUnlabelled += o.AlignUnlabelled
	c.AlignTruth += o.AlignTruth
	c.AlignFound += o.AlignFound
}

// ratio is n/d, or ifEmpty when there is nothing to divide by (a precision
// over no findings is vacuously perfect; a recall over no labels too).
func ratio(n, d int, ifEmpty float64) float64 {
	if d == 0 {
		return ifEmpty
	}
	return float64(n) / float64(d)
}

// The metrics the floors file names: minimums, and maximums prefixed "max_".
const (
	mContraPrecision = "contradiction_precision"
	mContraRecall    = "contradiction_recall"
	mValueRecall     = "value_kind_recall"
	mFieldRecall     = "field_recall"
	mFieldFalse      = "max_field_false"
	mAlignPrecision  = "alignment_precision"
	mAlignRecall     = "alignment_recall"
	mNotRatio        = "max_not_contradictions_reported_ratio"
)

var evalMetricNames = []string{mContraPrecision, mContraRecall, mValueRecall, mFieldRecall, mFieldFalse,
	mAlignPrecision, mAlignRecall, mNotRatio}

func (c evalCounts) metrics() map[string]float64 {
	return map[string]float64{
		mContraPrecision: ratio(c.Correct, c.Reported, 1),
		mContraRecall:    ratio(c.CertainFound, c.Certain, 1),
		mValueRecall:     ratio(c.ValueHit, c.ValueTotal, 1),
		mFieldRecall:     ratio(c.FieldFound, c.FieldTruth, 1),
		mFieldFalse:      float64(c.FieldFalse),
		mAlignPrecision:  ratio(c.AlignCorrect, c.AlignLabelled, 1),
		mAlignRecall:     ratio(c.AlignFound, c.AlignTruth, 1),
		mNotRatio:        ratio(c.NotHit, c.NotTotal, 0),
	}
}

// evalFinding is a reported contradiction point or field disagreement,
// reduced to what the scorer matches on.
type evalFinding struct {
	ID     string // "X-003", or "item / field"
	Kind   string
	Locs   []evalLoc
	Quotes []string // parallel to Locs
}

// evalMatch is what one finding matched: truth contradiction, field
// disagreement and not-contradiction ids.
type evalMatch struct {
	Contradictions, Fields, Nots []string
}

// matchFinding lists every truth entry a finding hits.
func matchFinding(tr *evalTruth, f evalFinding) evalMatch {
	var m evalMatch
	// Only a field disagreement is labelled by its item's heading: the
	// statements of contradictions and not-contradictions are matched by
	// the lines the finding quotes.
	quoted := make([]evalLoc, len(f.Locs))
	for i, l := range f.Locs {
		quoted[i] = evalLoc{File: l.File, Line: l.Line}
	}
	for _, c := range tr.Contradictions {
		if evalHits(sideLocs(c.Sides), quoted) {
			m.Contradictions = append(m.Contradictions, c.ID)
		}
	}
	for _, fd := range tr.FieldDisagreements {
		if evalHits(sideLocs(fd.Values), f.Locs) {
			m.Fields = append(m.Fields, fd.ID)
		}
	}
	for _, n := range tr.NotContradictions {
		if evalHits(sideLocs(n.Sides), quoted) {
			m.Nots = append(m.Nots, n.ID)
		}
	}
	return m
}

// scoreContradictions scores reported contradiction points against the
// truth and returns the counts, what each point matched (in order) and
// the ids of the truth contradictions found.
func scoreContradictions(tr *evalTruth, points []evalFinding) (evalCounts, []evalMatch, map[string]bool) {
	c := evalCounts{KindTotal: map[string]int{}, KindFound: map[string]int{}}
	certain := map[string]bool{}
	for _, tc := range tr.Contradictions {
		certain[tc.ID] = tc.certain()
	}
	found := map[string]bool{}
	notHit := map[string]bool{}
	matches := make([]evalMatch, len(points))
	for i, p := range points {
		m := matchFinding(tr, p)
		matches[i] = m
		c.Reported++
		switch {
		case len(m.Contradictions) > 0:
			c.Correct++
			if !slices.ContainsFunc(m.Contradictions, func(id string) bool { return certain[id] }) {
				c.ProbableOnly++
			}
			for _, id := range m.Contradictions {
				found[id] = true
			}
		case len(m.Nots) > 0:
			// A point that also matches a real contradiction gets the
			// benefit of the doubt: one line can hold both statements.
			c.NotReported++
			for _, id := range m.Nots {
				notHit[id] = true
			}
		}
	}
	for _, tc := range tr.Contradictions {
		if !tc.certain() {
			continue
		}
		hit := found[tc.ID]
		c.Certain++
		c.KindTotal[tc.Kind]++
		if hit {
			c.CertainFound++
			c.KindFound[tc.Kind]++
		}
		if evalValueKind(tc.Kind) {
			c.ValueTotal++
			if hit {
				c.ValueHit++
			}
		}
		if tc.Intra {
			c.IntraTotal++
			if hit {
				c.IntraHit++
			}
		}
	}
	c.NotTotal = len(tr.NotContradictions)
	c.NotHit = len(notHit)
	return c, matches, found
}

// scoreFields scores reported field disagreements: a truth entry is
// recalled when a reported one hits two of its values; a reported one is
// false when it hits no truth field disagreement and no truth
// contradiction of any kind or certainty.
func scoreFields(tr *evalTruth, fields []evalFinding) (evalCounts, []evalMatch, map[string]bool) {
	var c evalCounts
	found := map[string]bool{}
	matches := make([]evalMatch, len(fields))
	for i, f := range fields {
		m := matchFinding(tr, f)
		matches[i] = m
		c.FieldReported++
		for _, id := range m.Fields {
			found[id] = true
		}
		if len(m.Fields) == 0 && len(m.Contradictions) == 0 {
			c.FieldFalse++
			if len(m.Nots) > 0 {
				c.FieldNotHit++
			}
		}
	}
	c.FieldTruth = len(tr.FieldDisagreements)
	c.FieldFound = len(found)
	return c, matches, found
}

// evalPair is a predicted alignment of two sections of different files,
// each given by its heading's line as the truth labels it (Line 0 for a
// heading the truth does not label).
type evalPair struct {
	A, B  evalLoc
	Topic string
}

// evalAlignResult says, for debugging, which predicted pairs were wrong and
// which truth file pairs were missed.
type evalAlignResult struct {
	False  []evalPair     // both headings labelled, no common group
	Missed []evalTruePair // truth file pairs no predicted pair links
}

type evalTruePair struct {
	Group        string
	FileA, FileB string
	A, B         []evalHeading // the group's sections in each file
}

// scoreAlignment scores predicted section pairs against the alignment
// groups. Precision is over pairs whose two headings are labelled; recall
// is over the distinct-file pairs of each group, found when some predicted
// pair links a section of one file in the group to a section of the other
// in the group.
func scoreAlignment(groups []evalGroup, pairs []evalPair) (evalCounts, evalAlignResult) {
	var c evalCounts
	var res evalAlignResult
	groupsOf := map[evalLoc][]int{}
	for g, gr := range groups {
		for _, s := range gr.Sections {
			l := evalLoc{File: s.File, Line: s.Line}
			groupsOf[l] = append(groupsOf[l], g)
		}
	}
	predicted := map[[2]evalLoc]bool{}
	for _, p := range pairs {
		key := evalPairKey(p.A, p.B)
		if predicted[key] {
			continue // two topics predicting the same pair count once
		}
		predicted[key] = true
		ga, gb := groupsOf[p.A], groupsOf[p.B]
		if len(ga) == 0 || len(gb) == 0 {
			c.AlignUnlabelled++
			continue
		}
		c.AlignLabelled++
		if slices.ContainsFunc(ga, func(g int) bool { return slices.Contains(gb, g) }) {
			c.AlignCorrect++
		} else {
			res.False = append(res.False, p)
		}
	}
	for _, gr := range groups {
		var files []string
		byFile := map[string][]evalHeading{}
		for _, s := range gr.Sections {
			if _, ok := byFile[s.File]; !ok {
				files = append(files, s.File)
			}
			byFile[s.File] = append(byFile[s.File], s)
		}
		for i := range files {
			for j := i + 1; j < len(files); j++ {
				tp := evalTruePair{Group: gr.ID, FileA: files[i], FileB: files[j], A: byFile[files[i]], B: byFile[files[j]]}
				c.AlignTruth++
				if evalLinked(tp, predicted) {
					c.AlignFound++
				} else {
					res.Missed = append(res.Missed, tp)
				}
			}
		}
	}
	return c, res
}

func evalLinked(tp evalTruePair, predicted map[[2]evalLoc]bool) bool {
	for _, a := range tp.A {
		for _, b := range tp.B {
			if predicted[evalPairKey(evalLoc{File: a.File, Line: a.Line}, evalLoc{File: b.File, Line: b.Line})] {
				return true
			}
		}
	}
	return false
}

// evalPairKey orders a pair so that (a, b) and (b, a) are one key.
func evalPairKey(a, b evalLoc) [2]evalLoc {
	if b.File < a.File || (b.File == a.File && b.Line < a.Line) {
		a, b = b, a
	}
	return [2]evalLoc{a, b}
}

// evalHeadingKey reduces a heading to its letters and digits, lower case,
// so that the truth's heading text (markup kept) compares with a parsed
// Section.Title (markup removed).
func evalHeadingKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
