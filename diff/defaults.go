package diff

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// A design states what a command-line flag does when the user says
// nothing: "`--reflect-mode {none|sidecar|…}` flag. Default `none`", or, in
// the list of a flag's modes, "- `halt-on-regression` — default; …". A
// document that gives one flag two defaults contradicts itself. The rule
// reads only explicit default statements whose flag is on the same line
// (the nearest flag before the statement) or in the lead-in of the list
// the statement is an item of, leaves out statements about a change of
// default ("change default to", "becomes the default") and statements
// made for different releases ("v1" and "v2" on their lines), and
// compares values that are single words or code spans, "off", "none" and
// "disabled" being one.

var (
	// flagName finds a command-line flag written as code: "`--reflect-mode
	// {none|sidecar}`" names --reflect-mode.
	flagName = regexp.MustCompile("`(--[a-z][a-z0-9-]*)[^`]*`")
	// defaultStated reads "Default `none`", "default is off", "defaults to
	// `sidecar`".
	defaultStated = regexp.MustCompile("\\b[Dd]efaults?(?: is| value is| to)?:?\\s+(`[^`\\n]+`|on|off|none|enabled|disabled|true|false)(?:[\\s.,;)]|$)")
	// defaultItem reads a list item naming the default mode: "- `x` —
	// default", "- `x` (default)".
	defaultItem = regexp.MustCompile("^\\s*(?:[-*+]|\\d+[.)])\\s+`([^`\\n]+)`\\s*(?:—|--|–|-|:|\\()\\s*default\\b")
	// defaultChange marks a statement about a default changing.
	defaultChange = regexp.MustCompile(`(?i)\b(?:chang\w*|becom\w*|promot\w*|switch\w*|flip\w*|mov\w+ to|will be|until|once|later)\b`)
	// releaseMark finds a release a line speaks of: "v1", "v1.2", "v2".
	releaseMark = regexp.MustCompile(`\bv(\d+(?:\.\d+)*)\b`)
)

type defaultStatement struct {
	claim   Claim
	flag    string
	value   string // normalised, for comparing
	written string // as written, for people
	release string
}

// detectDefaults reports, within each variant, a flag given two different
// defaults.
func detectDefaults(in DetectInput) []Contradiction {
	var out []Contradiction
	for v, d := range in.Documents {
		byFlag := map[string][]defaultStatement{}
		lines := fldSourceLines(d)
		lead := "" // the flag of the paragraph a list follows
		for bi, b := range d.Blocks {
			if b.Kind == Code || b.Kind == TableRow || b.Header {
				lead = ""
				continue
			}
			for n := b.Line; n <= b.EndLine; n++ {
				line := lines(n)
				for _, s := range lineDefaults(line, lead) {
					s.claim = Claim{Variant: v, Section: b.Section, Block: bi, Line: n, Text: strings.TrimSpace(line), Quote: strings.TrimSpace(line), Type: Factual}
					byFlag[s.flag] = append(byFlag[s.flag], s)
				}
			}
			if b.Kind != ListItem {
				lead = ""
				if src := strings.TrimSpace(d.Text(b.Span)); strings.HasSuffix(src, ":") {
					if fs := flagName.FindAllStringSubmatch(src, -1); len(fs) == 1 {
						lead = fs[0][1]
					}
				}
			}
		}
		for _, f := range slices.Sorted(maps.Keys(byFlag)) {
			ss := byFlag[f]
			for i := range ss {
				for j := i + 1; j < len(ss); j++ {
					a, b := ss[i], ss[j]
					if a.value == b.value || a.claim.Line == b.claim.Line || (a.release != "" && b.release != "" && a.release != b.release) {
						continue
					}
					c := Contradiction{Kind: ChoiceConflict, Impact: Medium, Subject: "the default of " + f,
						Key:    "default:" + f,
						Reason: fmt.Sprintf("the document gives %s two defaults (%s vs %s)", f, a.written, b.written),
						Claims: []Claim{a.claim, b.claim}}
					out = append(out, c)
				}
			}
		}
	}
	return dedupeByKey(out)
}

// lineDefaults reads the default statements of one line; lead is the flag
// the list the line may be an item of was introduced with.
func lineDefaults(line, lead string) []defaultStatement {
	if !hasFold(line, "default") {
		return nil // both forms below name the default
	}
	var out []defaultStatement
	release := ""
	if rs := releaseMark.FindAllStringSubmatch(line, -1); len(rs) == 1 {
		release = rs[0][1]
	}
	flags := flagName.FindAllStringSubmatchIndex(line, -1)
	if m := defaultItem.FindStringSubmatch(line); m != nil && lead != "" && len(flags) == 0 {
		if v := defaultValue(m[1]); v != "" {
			out = append(out, defaultStatement{flag: lead, value: v, written: m[1], release: release})
		}
	}
	for _, m := range defaultStated.FindAllStringSubmatchIndex(line, -1) {
		if defaultChange.MatchString(line[max(0, m[0]-40):m[0]]) {
			continue
		}
		flag := ""
		for _, f := range flags {
			if f[1] <= m[0] {
				flag = line[f[2]:f[3]]
			}
		}
		if flag == "" {
			continue
		}
		if v := defaultValue(line[m[2]:m[3]]); v != "" {
			out = append(out, defaultStatement{flag: flag, value: v, written: strings.Trim(line[m[2]:m[3]], "`"), release: release})
		}
	}
	return out
}

// defaultValue normalises a stated default: code marks and quotes off,
// lower-case, the words for "nothing" made one; "" for a value that is
// itself a flag or more than one word.
func defaultValue(v string) string {
	v = strings.ToLower(strings.Trim(strings.TrimSpace(v), "`\"'"))
	if v == "" || strings.HasPrefix(v, "-") || strings.ContainsAny(v, " ={}|") {
		return ""
	}
	switch v {
	case "off", "none", "disabled", "false", "null", "nil":
		return "off"
	case "on", "enabled", "true":
		return "on"
	}
	return v
}
