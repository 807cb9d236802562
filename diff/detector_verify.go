package diff

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"

	"github.com/crucible-go/crucible/internal/words"
)

// FindingDetector is a [ContradictionDetector] that also reports what it
// found but could not confirm as a contradiction: findings that failed its
// verification, and intended changes between successive revisions.
// [Analyze] reports those as content differences, never as
// contradictions.
type FindingDetector interface {
	ContradictionDetector
	DetectAll(ctx context.Context, in DetectInput) (Findings, error)
}

// NamedDetector is a detector that names itself ("model"), so that the
// rendered analysis can say which detector found each contradiction when
// several are at work. Detectors without a name are the rules.
type NamedDetector interface {
	DetectorName() string
}

// Findings is what a [FindingDetector] reports.
type Findings struct {
	Contradictions []Contradiction
	Differences    []Difference
	// Revisions lists the variants in revision order, earliest first,
	// when the detector found them to be successive revisions of one
	// artifact; nil otherwise. Conflicts between two revisions are then
	// changes the later one made, not contradictions.
	Revisions []int
}

// Difference is a finding reported as a content difference rather than a
// contradiction, with the reason.
type Difference struct {
	// Kind is "revision-change" for a value a later revision changed, or
	// "unconfirmed-contradiction" for a finding that failed verification.
	Kind    string  `json:"kind"`
	Subject string  `json:"subject"`
	Claims  []Claim `json:"claims"`
	Reason  string  `json:"reason"`
}

// Kinds of [Difference].
const (
	RevisionChange           = "revision-change"
	UnconfirmedContradiction = "unconfirmed-contradiction"
)

// Contradiction kinds the model detector names beyond the rules' own.
const (
	// DependencyConflict: orderings or prerequisites that cannot all hold.
	DependencyConflict ContradictionKind = "dependency"
)

// detKinds maps the kinds a model may name to the detector kinds.
var detKinds = map[string]ContradictionKind{
	"numeric": NumericConflict, "choice": ChoiceConflict, "verdict": VerdictConflict, "field": FieldConflict,
	"scope": ScopeConflict, "dependency": DependencyConflict,
	string(OpposingClaims): OpposingClaims, string(ExclusiveChoice): ExclusiveChoice,
	string(RequirementConstraint): RequirementConstraint, string(DependencyCycle): DependencyCycle,
}

// minConfidence is the least confidence a finding needs to count as a
// contradiction: "high", or a number of at least 0.8. Measured on the
// eval corpus, the model's medium-confidence findings were mostly
// differences of emphasis (about one in four was a labelled conflict), so
// they are shown as differences for the reader to check, never as
// contradictions. An absent confidence counts as medium.
const minConfidence = 0.8

// confidenceWord names a confidence below [minConfidence] as the prompt
// does.
func confidenceWord(c float64) string {
	if c >= 0.5 {
		return "medium"
	}
	return "low"
}

// verifier checks the model's findings and sorts them into
// contradictions and differences.
type verifier struct {
	docs      []*Document
	byID      map[string]*detStatement
	revisions []int
	log       *slog.Logger
	ctx       context.Context // of the Detect call, for the log only

	contradictions []verified
	differences    []verified
	shapes         []conflictShape // of contradictions, for finding restatements
	seen           map[string]int  // cited lines → index+1 in contradictions, or -(index+1) in differences
}

type verified struct {
	c          Contradiction
	confidence float64
	why        string // for a difference: why it is not a contradiction
	change     bool
}

// add verifies one finding.
func (v *verifier) add(f detFinding) {
	if v.seen == nil {
		v.seen = map[string]int{}
	}
	subject := oneLine(f.Subject)
	sides := f.Sides
	for _, id := range f.Claims {
		sides = append(sides, detSide{ID: id})
	}
	var claims []Claim
	var stmts []*detStatement
	seen := map[string]bool{}
	for _, sd := range sides {
		s := v.byID[strings.TrimSpace(sd.ID)]
		if s == nil {
			continue
		}
		line := v.citedLine(s, int(sd.Line), string(sd.Value), subject)
		key := fmt.Sprintf("%s@%d|%s", s.id, line, strings.ToLower(oneLine(string(sd.Value))))
		if seen[key] {
			continue
		}
		seen[key] = true
		d := v.docs[s.variant]
		text := s.text
		if s.kind == stmtCode || s.endLine > s.line {
			text = sourceLine(d, line)
		}
		claims = append(claims, Claim{Variant: s.variant, Section: s.section, Block: s.block, Line: line,
			Text: text, Quote: sourceLine(d, line), Type: Factual})
		stmts = append(stmts, s)
	}
	if len(claims) < 2 || subject == "" {
		v.log.DebugContext(v.ctx, "model finding rejected: it cites fewer than two known statements or names no subject", "subject", subject, "sides", len(sides))
		return
	}
	kind, known := detKinds[strings.ToLower(strings.TrimSpace(f.Kind))]
	impact := Rating(capitalise(strings.ToLower(strings.TrimSpace(f.Impact))))
	if impact.Rank() == 0 {
		impact = Medium
	}
	reason := oneLine(f.Reason)
	if reason == "" {
		reason = "reported by the model"
	}
	c := Contradiction{Kind: kind, Subject: subject, Claims: claims, Impact: impact, Reason: reason,
		Key: strings.Join(sortedSet(subjectWords(subject)), " ")}
	conf := float64(f.Confidence)
	if conf == 0 {
		conf = 0.7 // not given: taken as medium
	}
	vf := verified{c: c, confidence: conf}
	switch {
	case f.Change:
		vf.change = true
		vf.why = "the model calls it an intended change"
		if len(v.revisions) > 0 {
			vf.why = "changed by the later revision"
		}
	case !known:
		vf.why = fmt.Sprintf("the kind %q is not one the detector reports", f.Kind)
		vf.c.Kind = ContradictionKind(strings.ToLower(strings.TrimSpace(f.Kind)))
	case conf < minConfidence:
		vf.why = "the model's confidence is " + confidenceWord(conf)
	default:
		var keep []int
		var left []string
		keep, left, vf.why = v.check(kind, subject, stmts, claims)
		if vf.why == "" && len(left) > 0 {
			vf.c.Claims = keptClaims(claims, keep)
			vf.c.Reason += fmt.Sprintf(" (%d statement%s left out: %s)", len(left), plural(len(left)), strings.Join(left, "; "))
		}
	}
	sortClaims(vf.c.Claims) // after the check, which reads claims beside stmts
	v.keep(vf)
}

// check applies the verification rules to a finding whose statements all
// exist: the subject is named in each statement (or its section), and a
// numeric finding has a number on each side. A side that fails is left
// out when the others still make the finding: at least two statements,
// spanning every variant the finding spans (a list or table row that
// names neither the subject nor a number proves nothing, but the
// statements that do still conflict). It returns the sides kept and why
// the others were left out, or why the finding fails.
func (v *verifier) check(kind ContradictionKind, subject string, stmts []*detStatement, claims []Claim) (keep []int, left []string, why string) {
	want := words.NewSet(splitIdentifiers(subject))
	// A side left out for not naming the subject may have been the one
	// the conflict rests on: the rest must then each name most of it.
	named, unnamed := true, false
	for i, s := range stmts {
		if why, bySubject := v.checkSide(kind, subject, want, s, claims[i]); why != "" {
			left = append(left, why)
			unnamed = unnamed || bySubject
			continue
		}
		keep = append(keep, i)
		context := words.NewSet(splitIdentifiers(s.fullText() + " " + sectionPath(v.docs[s.variant], s.section)))
		named = named && 2*want.Intersect(context) >= len(want)
	}
	if len(left) == 0 || (named || !unnamed) && len(keep) >= 2 && slices.Equal(claimVariants(keptClaims(claims, keep)), claimVariants(claims)) {
		return keep, left, ""
	}
	return nil, nil, left[0]
}

// checkSide returns why one side of a finding fails verification, and
// whether it fails for not naming the subject; "" when it holds.
func (v *verifier) checkSide(kind ContradictionKind, subject string, want words.Set, s *detStatement, cl Claim) (string, bool) {
	d := v.docs[s.variant]
	context := words.NewSet(splitIdentifiers(s.fullText() + " " + sectionPath(d, s.section)))
	if len(want) > 0 && want.Intersect(context) == 0 {
		return fmt.Sprintf("the subject %q is not named in %s (line %d) or its section", subject, s.id, cl.Line), true
	}
	// A code side needs the number on the line it cites; a paragraph
	// may have it anywhere in the statement.
	if kind == NumericConflict && !hasNumber(cl.Text) && (s.kind == stmtCode || !hasNumber(s.fullText())) {
		return fmt.Sprintf("a numeric conflict, but %s (line %d) states no number", s.id, cl.Line), false
	}
	return "", false
}

// keptClaims returns the claims at the indexes keep.
func keptClaims(claims []Claim, keep []int) []Claim {
	out := make([]Claim, len(keep))
	for i, k := range keep {
		out[i] = claims[k]
	}
	return out
}

// claimVariants returns the variants claims cite, sorted, once each.
func claimVariants(claims []Claim) []int {
	vs := make([]int, 0, len(claims))
	for _, c := range claims {
		vs = append(vs, c.Variant)
	}
	slices.Sort(vs)
	return slices.Compact(vs)
}

var numberWordRE = regexp.MustCompile(`(?i)\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|hundred|thousand|single|double|twice|half|dozen)\b`)

func hasNumber(s string) bool { return containsDigit(s) || numberWordRE.MatchString(s) }

// citedLine picks the line of a statement a side cites: the line the
// model names when it lies in the statement, else the line holding the
// side's value, else the one naming most of the subject, else the first.
func (v *verifier) citedLine(s *detStatement, line int, value, subject string) int {
	first, last := s.lines()
	if line >= first && line <= last {
		return line
	}
	if first == last {
		return first
	}
	d := v.docs[s.variant]
	value = strings.ToLower(oneLine(value))
	want := words.NewSet(subject + " " + value)
	best, bestScore := first, -1
	for l := first; l <= last; l++ {
		text := strings.ToLower(sourceLine(d, l))
		score := want.Intersect(words.NewSet(text))
		if value != "" && strings.Contains(text, value) {
			score += 100
		}
		if score > bestScore {
			best, bestScore = l, score
		}
	}
	return best
}

// keep records a verified finding once: a finding citing the same lines
// as an earlier one is a duplicate (from another request), and so is one
// restating an earlier contradiction (see [conflictShape.restates]); a
// contradiction displaces a difference on the same lines.
func (v *verifier) keep(f verified) {
	key := linesKey(f.c.Claims)
	if i, ok := v.seen[key]; ok {
		if i > 0 || f.why != "" || v.differences[-i-1].change {
			return // already a contradiction, both differences, or an intended change
		}
		v.differences[-i-1].why = "" // displaced: dropped below
	}
	shape := shapeOf(f.c)
	if i, ok := restatementOf(v.shapes, shape); ok {
		v.log.DebugContext(v.ctx, "model finding merged into an earlier one it restates", "subject", f.c.Subject, "into", v.contradictions[i].c.Subject)
		return
	}
	if f.why == "" {
		v.contradictions = append(v.contradictions, f)
		v.shapes = append(v.shapes, shape)
		v.seen[key] = len(v.contradictions)
		return
	}
	v.differences = append(v.differences, f)
	v.seen[key] = -len(v.differences)
}

// linesKey names the lines a finding cites, in order.
func linesKey(cs []Claim) string {
	keys := make([]string, len(cs))
	for i, c := range cs {
		keys[i] = fmt.Sprintf("%d:%d", c.Variant, c.Line)
	}
	slices.Sort(keys)
	return strings.Join(slices.Compact(keys), ",")
}

func (v *verifier) findings() Findings {
	out := Findings{Revisions: v.revisions}
	for _, f := range v.contradictions {
		out.Contradictions = append(out.Contradictions, f.c)
	}
	SortContradictions(out.Contradictions)
	for _, f := range v.differences {
		if f.why == "" {
			continue
		}
		kind, reason := UnconfirmedContradiction, fmt.Sprintf("%s; not reported as a contradiction: %s", f.c.Reason, f.why)
		if f.change && len(v.revisions) > 0 {
			kind, reason = RevisionChange, fmt.Sprintf("%s (%s)", f.c.Reason, f.why)
		}
		out.Differences = append(out.Differences, Difference{Kind: kind, Subject: f.c.Subject, Claims: f.c.Claims, Reason: reason})
	}
	slices.SortStableFunc(out.Differences, func(a, b Difference) int {
		return cmp.Or(cmp.Compare(a.Claims[0].Variant, b.Claims[0].Variant), cmp.Compare(a.Claims[0].Line, b.Claims[0].Line))
	})
	return out
}
