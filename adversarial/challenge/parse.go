package challenge

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Parse reads an adversary's reply: "## CHALLENGES" with numbered
// challenges, an optional Defense Assessment table and a Convergence
// Assessment, or "## NO OBJECTIONS" with a summary — in the native format
// or the widely used fork's ("## ADVERSARY CHALLENGES", severities BLOCKING
// | MAJOR | MINOR, a CONTINUE | CONVERGE recommendation), whose values it
// maps onto the native ones.
//
// Parsing is lenient where models vary and strict where the loop needs
// structure. Text before the marker heading, "---" rules, unknown fields and
// unknown sections are ignored; a reply wrapped in a ```markdown fence is
// unwrapped; fields may be bold ("**Severity:** minor", "**Severity**:
// minor"), list items or headings of their own, and their values may run
// over several lines. But a reply without a marker, with both markers, with
// a challenge that lacks a concern or a severity, with a value left as the
// template's placeholder, or that declares more challenges than it lists
// fails with a [*ParseError]. A challenge without evidence is not a parse
// error: the loop's evidence rule flags it.
func Parse(reply string) (*Reply, error) {
	p := parser{lines: strings.Split(normalizeReply(reply), "\n")}
	return p.parse()
}

func normalizeReply(s string) string {
	s = strings.TrimPrefix(s, "\ufeff")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

type marker int

const (
	noMarker marker = iota
	challengesMarker
	forkMarker // "ADVERSARY CHALLENGES"
	noObjectionsMarker
)

type section int

const (
	secTop section = iota
	secChallenge
	secAssessment
	secConvergence
	secSummary
	secConfidence
	secOther
)

// singleLine lists the fields whose value is one line: the line after
// them starts something new.
var singleLine = map[string]bool{"round": true, "severity": true, "status": true, "remaining concerns": true,
	"checkpoint": true, "challenges found": true, "category": true}

// fieldsBySection are the fields each section knows, lower-cased.
var fieldsBySection = map[section]map[string]bool{
	secTop:         {"round": true, "checkpoint": true, "challenges found": true},
	secChallenge:   {"concern": true, "evidence": true, "severity": true, "recommendation": true, "affected": true, "category": true},
	secConvergence: {"status": true, "remaining concerns": true, "recommendation": true, "rationale": true},
}

// knownField reports whether name is a field of any section, so that
// plain "Name: value" lines are read as fields only for these names.
func knownField(name string) bool {
	for _, fs := range fieldsBySection {
		if fs[name] {
			return true
		}
	}
	return false
}

type pendingField struct {
	name  string
	line  int
	value []string
	list  []bool // whether each value line was a list item
	sink  bool   // an unknown field: its text is dropped
}

type pendingChallenge struct {
	c      Challenge
	line   int
	fields map[string]string
}

type parser struct {
	lines []string

	reply      Reply
	sec        section
	field      *pendingField
	challenges []*pendingChallenge
	top        map[string]string
	conv       map[string]string
	statement  []string
	summary    []string
	confidence []string
	fieldLines map[string]int
}

func perr(line int, format string, args ...any) error {
	return &ParseError{Line: line, Reason: fmt.Sprintf(format, args...)}
}

var (
	reChallenge = regexp.MustCompile(`(?i)^challenge\s*#?\s*(\d{1,6})\b\s*(?:[:.)\-–—]\s*)?(.*)$`)
	reRule      = regexp.MustCompile(`^(?:-{3,}|\*{3,}|_{3,})$`)
	reList      = regexp.MustCompile(`^(?:[-*+]|\d{1,9}[.)])\s+`)
	reRound     = regexp.MustCompile(`(?i)^(?:round\s*)?\[?(\d{1,6})\]?\s*(?:(?:/|of)\s*\[?(\d{1,6})\]?)?$`)
	reCount     = regexp.MustCompile(`(\d{1,6})\s*([A-Za-z]*)`)
)

// findMarker returns the line of the reply's marker, its kind, and the
// line after the last body line. A marker outside code fences wins; a
// reply wrapped whole in a fence is read inside it.
func (p *parser) findMarker() (start int, kind marker, end int, err error) {
	find := func(insideFences bool) (int, marker, int, error) {
		start, end := -1, len(p.lines)
		kind := noMarker
		inFence, markerInFence := false, false
		for i, raw := range p.lines {
			line := strings.TrimSpace(raw)
			if isFence(line) {
				if inFence && markerInFence && start >= 0 {
					return start, kind, i, nil
				}
				inFence = !inFence
				continue
			}
			if inFence && !insideFences {
				continue
			}
			m := classifyMarker(line)
			if m == noMarker {
				continue
			}
			if start < 0 {
				start, kind, markerInFence = i, m, inFence
				continue
			}
			if (m == noObjectionsMarker) != (kind == noObjectionsMarker) {
				return 0, 0, 0, perr(i+1, "the reply has both a CHALLENGES and a NO OBJECTIONS heading")
			}
		}
		return start, kind, end, nil
	}
	start, kind, end, err = find(false)
	if err != nil || start >= 0 {
		return start, kind, end, err
	}
	start, kind, end, err = find(true)
	if err != nil || start >= 0 {
		return start, kind, end, err
	}
	return 0, noMarker, 0, perr(0, "the reply has neither a ## CHALLENGES nor a ## NO OBJECTIONS heading")
}

func (p *parser) parse() (*Reply, error) {
	start, kind, end, err := p.findMarker()
	if err != nil {
		return nil, err
	}
	p.reply.Dialect = DialectNative
	if kind == forkMarker {
		p.reply.Dialect = DialectFork
	}
	p.reply.NoObjections = kind == noObjectionsMarker
	p.top, p.conv, p.fieldLines = map[string]string{}, map[string]string{}, map[string]int{}

	for i := start + 1; i < end; i++ {
		if err := p.line(i+1, strings.TrimSpace(p.lines[i])); err != nil {
			return nil, err
		}
	}
	p.closeField()
	return p.finish()
}

// line handles one trimmed line, numbered n.
func (p *parser) line(n int, line string) error {
	switch {
	case line == "":
		if p.field != nil && len(p.field.value) > 0 {
			p.closeField()
		}
		return nil
	case isFence(line):
		return nil
	case reRule.MatchString(line):
		p.closeField()
		return nil
	case classifyMarker(line) != noMarker:
		// A repeated marker of the same kind starts nothing new.
		p.closeField()
		p.sec = secOther
		return nil
	}
	if text, ok := headingText(line); ok {
		return p.heading(n, text)
	}
	if inner, ok := boldLine(line); ok && reChallenge.MatchString(inner) {
		return p.heading(n, inner)
	}
	if strings.HasPrefix(line, "|") {
		p.closeField()
		if p.sec == secAssessment {
			return p.tableRow(n, line)
		}
		return nil
	}
	if name, value, ok := p.fieldLine(line); ok {
		p.startField(n, name, value)
		return nil
	}
	if p.field != nil {
		p.field.value = append(p.field.value, stripLine(line))
		p.field.list = append(p.field.list, reList.MatchString(line))
		return nil
	}
	switch p.sec {
	case secTop:
		if p.reply.NoObjections {
			p.statement = append(p.statement, line)
		}
	case secSummary:
		if reList.MatchString(line) || len(p.summary) == 0 {
			p.summary = append(p.summary, stripLine(line))
		} else {
			p.summary[len(p.summary)-1] += " " + line
		}
	case secConfidence:
		p.confidence = append(p.confidence, line)
	}
	return nil
}

// fieldLine recognises "**Name:** value" and "Name: value" in the sections
// that have fields. Unknown bold fields are recognised too (and their text
// dropped), except in a no-objections reply's free text.
func (p *parser) fieldLine(line string) (name, value string, ok bool) {
	if _, has := fieldsBySection[p.sec]; !has {
		return "", "", false
	}
	name, value, bold, ok := scanField(line)
	if !ok {
		return "", "", false
	}
	if bold && (p.sectionKnows(name) || !(p.sec == secTop && p.reply.NoObjections)) {
		return name, value, true
	}
	if !bold && knownField(name) && p.sectionKnows(name) {
		return name, value, true
	}
	return "", "", false
}

func (p *parser) sectionKnows(name string) bool {
	return fieldsBySection[p.sec][name]
}

func (p *parser) startField(n int, name, value string) {
	p.closeField()
	f := &pendingField{name: name, line: n, sink: !p.sectionKnows(name)}
	value = strings.TrimSpace(value)
	if value != "" {
		f.value = []string{value}
		f.list = []bool{false}
	}
	p.field = f
	if singleLine[name] && value != "" {
		p.closeField()
	}
}

// closeField stores the pending field's value.
func (p *parser) closeField() {
	f := p.field
	p.field = nil
	if f == nil || f.sink {
		return
	}
	var b strings.Builder
	for i, v := range f.value {
		if i > 0 {
			if f.list[i] {
				b.WriteString("; ")
			} else {
				b.WriteString(" ")
			}
		}
		b.WriteString(v)
	}
	value := oneLine(b.String())
	switch p.sec {
	case secTop:
		if _, dup := p.top[f.name]; !dup {
			p.top[f.name] = value
			p.fieldLines[f.name] = f.line
		}
	case secChallenge:
		pc := p.challenges[len(p.challenges)-1]
		if _, dup := pc.fields[f.name]; !dup {
			pc.fields[f.name] = value
			pc.fields[f.name+"@"] = strconv.Itoa(f.line)
		}
	case secConvergence:
		if _, dup := p.conv[f.name]; !dup {
			p.conv[f.name] = value
			p.fieldLines["conv:"+f.name] = f.line
		}
	}
}

// heading switches section on a heading (or a bold line naming a
// challenge).
func (p *parser) heading(n int, text string) error {
	p.closeField()
	text = strings.TrimSpace(strings.Trim(strings.TrimSpace(text), "*_"))
	if m := reChallenge.FindStringSubmatch(text); m != nil {
		num, _ := strconv.Atoi(m[1])
		p.sec = secChallenge
		p.challenges = append(p.challenges, &pendingChallenge{c: Challenge{Number: num, Title: oneLine(strings.Trim(m[2], "*_ "))},
			line: n, fields: map[string]string{}})
		return nil
	}
	lower := strings.ToLower(text)
	lower = strings.TrimSuffix(strings.TrimSpace(lower), ":")
	switch {
	case strings.Contains(lower, "defense assessment") || strings.Contains(lower, "defence assessment"):
		p.sec = secAssessment
	case strings.Contains(lower, "convergence"):
		p.sec = secConvergence
	case lower == "summary":
		p.sec = secSummary
	case lower == "confidence":
		p.sec = secConfidence
	default:
		// A field written as a heading ("#### Evidence") inside a challenge
		// or the convergence assessment.
		if p.sectionKnows(lower) && p.sec != secTop {
			p.field = &pendingField{name: lower, line: n}
			return nil
		}
		p.sec = secOther
	}
	return nil
}

// tableRow reads a Defense Assessment row.
func (p *parser) tableRow(n int, line string) error {
	cells := splitRow(line)
	if len(cells) < 2 {
		return nil
	}
	sep := true
	for _, c := range cells {
		if strings.Trim(c, ":- ") != "" || c == "" {
			sep = false
			break
		}
	}
	if sep {
		return nil
	}
	first := strings.ToLower(cells[0])
	if strings.EqualFold(strings.Trim(cells[1], "*_ "), "status") && strings.Contains(first, "challenge") {
		return nil // the header row
	}
	ref := oneLine(strings.Trim(cells[0], "[]*_ "))
	st, err := parseAssessmentStatus(cells[1])
	if err != nil {
		return perr(n, "defense assessment: %v", err)
	}
	notes := ""
	if len(cells) > 2 {
		notes = oneLine(strings.Trim(strings.Join(cells[2:], " | "), "[] "))
	}
	if ref == "" {
		return perr(n, "defense assessment row names no challenge")
	}
	p.reply.Assessments = append(p.reply.Assessments, Assessment{Challenge: ref, Status: st, Notes: notes})
	return nil
}

func (p *parser) finish() (*Reply, error) {
	r := &p.reply
	if v, ok := p.top["round"]; ok {
		if err := parseRound(v, r); err != nil {
			return nil, perr(p.fieldLines["round"], "%v", err)
		}
	}
	if v, ok := p.top["checkpoint"]; ok {
		r.Checkpoint = v
		r.Dialect = DialectFork
	}
	if r.NoObjections {
		r.Statement = oneLine(strings.Join(p.statement, " "))
		for _, s := range p.summary {
			if s = oneLine(s); s != "" {
				r.Summary = append(r.Summary, s)
			}
		}
		r.Confidence = oneLine(strings.Join(p.confidence, " "))
		return r, nil
	}

	seen := map[int]int{}
	for _, pc := range p.challenges {
		c, err := pc.build(r)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[c.Number]; dup {
			return nil, perr(pc.line, "challenge %d appears twice (first at line %d)", c.Number, prev)
		}
		seen[c.Number] = pc.line
		r.Challenges = append(r.Challenges, c)
	}
	if v, ok := p.top["challenges found"]; ok {
		m := reCount.FindStringSubmatch(v)
		if m == nil {
			return nil, perr(p.fieldLines["challenges found"], "challenges found %q is not a count", v)
		}
		if want, _ := strconv.Atoi(m[1]); want > len(r.Challenges) {
			return nil, perr(p.fieldLines["challenges found"], "the reply declares %d challenges but lists %d", want, len(r.Challenges))
		}
	}
	if len(r.Challenges) == 0 && len(r.Assessments) == 0 {
		return nil, perr(0, "the CHALLENGES reply lists no challenges")
	}
	if err := p.convergence(r); err != nil {
		return nil, err
	}
	return r, nil
}

func parseRound(v string, r *Reply) error {
	m := reRound.FindStringSubmatch(strings.Trim(v, "*_ "))
	if m == nil {
		return fmt.Errorf("round %q is not N/M", v)
	}
	r.Round, _ = strconv.Atoi(m[1])
	if m[2] != "" {
		r.MaxRounds, _ = strconv.Atoi(m[2])
	}
	if r.Round < 1 || m[2] != "" && r.MaxRounds < 1 {
		return fmt.Errorf("round %q: rounds count from 1", v)
	}
	return nil
}

func (pc *pendingChallenge) build(r *Reply) (Challenge, error) {
	c := pc.c
	at := func(name string) int {
		if n, err := strconv.Atoi(pc.fields[name+"@"]); err == nil {
			return n
		}
		return pc.line
	}
	for _, name := range []string{"concern", "evidence", "severity", "recommendation", "affected", "category"} {
		if v := pc.fields[name]; placeholder(v) {
			return c, perr(at(name), "challenge %d: %s is the template's placeholder %s", c.Number, name, v)
		}
	}
	if placeholder(c.Title) {
		return c, perr(pc.line, "challenge %d: the heading is the template's placeholder %s", c.Number, c.Title)
	}
	c.Concern = pc.fields["concern"]
	if c.Concern == "" {
		return c, perr(pc.line, "challenge %d has no concern", c.Number)
	}
	sev, ok := pc.fields["severity"]
	if !ok || sev == "" {
		return c, perr(pc.line, "challenge %d has no severity", c.Number)
	}
	s, err := ParseSeverity(sev)
	if err != nil {
		return c, perr(at("severity"), "challenge %d: %v", c.Number, err)
	}
	c.Severity = s
	if w := firstWord(sev); w == "blocking" || w == "major" {
		r.Dialect = DialectFork
	}
	c.Evidence = pc.fields["evidence"]
	c.Recommendation = pc.fields["recommendation"]
	c.Affected = pc.fields["affected"]
	c.Category = matchCategory(c.Title)
	if cat := matchCategory(pc.fields["category"]); cat != "" {
		c.Category = cat
	}
	if c.Title == "" {
		c.Title = string(c.Category)
	}
	c.Quotes = extractQuotes(c.Evidence)
	return c, nil
}

func (p *parser) convergence(r *Reply) error {
	for _, name := range []string{"status", "remaining concerns", "recommendation", "rationale"} {
		if v := p.conv[name]; placeholder(v) {
			return perr(p.fieldLines["conv:"+name], "convergence %s is the template's placeholder %s", name, v)
		}
	}
	cv := &r.Convergence
	cv.Recommendation = p.conv["recommendation"]
	cv.Rationale = p.conv["rationale"]
	if v, ok := p.conv["status"]; ok {
		st, err := parseConvergenceStatus(v)
		if err != nil {
			return perr(p.fieldLines["conv:status"], "%v", err)
		}
		cv.Status = st
	} else if rec := cv.Recommendation; rec != "" {
		// The fork's recommendation is the status: CONTINUE or CONVERGE.
		switch w := firstWord(rec); w {
		case "continue", "converge", "converging", "converged":
			st, err := parseConvergenceStatus(rec)
			if err != nil {
				return perr(p.fieldLines["conv:recommendation"], "%v", err)
			}
			cv.Status = st
			if strings.Contains(rec, strings.ToUpper(w)) {
				r.Dialect = DialectFork
			}
		}
	}
	if v, ok := p.conv["remaining concerns"]; ok {
		n, err := parseRemaining(v)
		if err != nil {
			return perr(p.fieldLines["conv:remaining concerns"], "%v", err)
		}
		cv.Remaining = n
	}
	return nil
}

// parseRemaining reads "2", or the fork's "1 BLOCKING, 2 MAJOR, 0 MINOR"
// (summed).
func parseRemaining(v string) (int, error) {
	ms := reCount.FindAllStringSubmatch(v, -1)
	if len(ms) == 0 {
		return 0, fmt.Errorf("remaining concerns %q is not a count", v)
	}
	if _, err := ParseSeverity(ms[0][2]); err != nil {
		n, _ := strconv.Atoi(ms[0][1])
		return n, nil // a total, perhaps followed by a breakdown
	}
	total := 0
	for _, m := range ms {
		if _, err := ParseSeverity(m[2]); err == nil {
			n, _ := strconv.Atoi(m[1])
			total += n
		}
	}
	return total, nil
}
