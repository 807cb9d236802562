package scoring

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/samplegen"
)

// rulePatterns are the expressions the rule judge runs with a prefilter.
var rulePatterns = map[string]pattern{
	"edge cases": reEdgeCases, "dependencies": reDependencies, "success": reSuccess,
	"out of scope": reOutOfScope, "rationale": reRationale, "requirement": reRequirement,
	"ordered": reOrdered, "next steps": reNextSteps, "failure": reFailure, "recovery": reRecovery,
	"external": reExternal, "external failure": reExtFailure, "monitoring": reMonitoring,
	"collections": reCollections, "state": reState, "guards": reGuards, "bounds": reBounds,
	"interactions": reInteractions, "probability": reProbInline, "impact": reImpactInlin,
	// Section titles (headingsMatching).
	"rationale heading": reRationaleH, "orienting heading": reOrienting, "navigation heading": reNavigation,
	"roadmap heading": reRoadmapH, "plan heading": rePlanH, "design heading": reDesignH,
}

// checkFind asserts that the prefiltered, windowed search finds exactly
// what the plain expression finds.
func checkFind(t *testing.T, name string, p pattern, s string) {
	t.Helper()
	assert.Equal(t, p.re.FindStringIndex(s), p.find(s, foldLower(s)), "%s on %q", name, s)
	if p.keys != nil {
		lower := foldLower(s)
		assert.Equal(t, plainFirstKey(p.keys, lower), p.starts.firstKey(lower), "%s: first key in %q", name, lower)
	}
	if p.re.MatchString(s) {
		g := bigramsOf(foldLower(s))
		assert.True(t, p.mayHold(&g), "%s: the byte-pair signature rules out %q", name, s)
	}
}

func TestPatternFindMatchesTheExpression(t *testing.T) {
	tests := []struct {
		expr  string
		lines []string
	}{
		// A key that is a prefix of another: the earlier start must win.
		{`(?i)\btime ?outs?\b|\btimeouts? budget\b`, []string{
			"the timeout budget", "Timeouts budget and timeout", "no match in timeoutless", "x timeouts"}},
		// A key inside another alternative: "retry" inside "preretry".
		{`(?i)\bpreretry\b|\bretry\b`, []string{"a preretry then retry", "retry", "preretryx retry"}},
		// Word boundaries just before the earliest key.
		{`(?i)\bfail\w*`, []string{"xfail then fail", "fail", "afail", "_fail failover", "9fail FAIL"}},
		// Non-ASCII before the key: no window, whole-line search.
		{`(?i)\bfail\w*`, []string{"İİİ then failure", "Ünïcödé fail", "日本語 failing"}},
		// Anchored expressions always search the whole line.
		{`^[-*+] \[[ xX]\]|(?i)\bnext steps?\b`, []string{"- [ ] next steps", "see next step - [x]", "- [x] done"}},
		{`^[1-5][0-9]*[.)]\s`, []string{"1. first", "a 1. b", "12) twelve"}},
		// Case-sensitive keys: the prefilter is a necessary condition only.
		{`\b(?:must|shall|MUST|SHALL)\b`, []string{"It Must hold", "it must", "MUST and Shall", "mustard"}},
		// Letters that case folding maps to ASCII ones: the long s, the Kelvin sign.
		{`(?i)\bsuccess criteria\b|\brisks?\b`, []string{"succeſs criteria", "the riſ\u212a", "ri\u212As", "ſuccess criteria"}},
	}
	for _, tt := range tests {
		p := compile(tt.expr)
		require.NotNil(t, p.keys, "%s should have prefilter keys", tt.expr)
		for _, l := range tt.lines {
			checkFind(t, tt.expr, p, l)
		}
	}
}

func TestPatternFindOnSampleLines(t *testing.T) {
	var lines []string
	for seed := range uint64(3) {
		lines = append(lines, strings.Split(string(samplegen.Spec(seed+1, 20<<10)), "\n")...)
	}
	hits := 0
	for name, p := range rulePatterns {
		for _, l := range lines {
			checkFind(t, name, p, l)
			if p.re.MatchString(l) {
				hits++
			}
		}
	}
	assert.Greater(t, hits, 100, "the sample lines exercise the matching path")
}

func FuzzPatternFind(f *testing.F) {
	for _, s := range []string{"The timeout fails over", "- [ ] Next steps", "İstanbul outage", "at most 5 items", "1) a",
		"Table of Contents", "Work items", "Q3 ſchedule", "Ri\u212As"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, p := range rulePatterns {
			checkFind(t, name, p, s)
		}
	})
}

func TestFindAcronymsMatchesTheExpression(t *testing.T) {
	lines := []string{
		"", "plain text only", "The API and the SLO", "R&D budget", "xAPI", "A1B and Q3", "Über SLOs déjà",
		"AB", "A", "a B C", "FR-001 and NFR-2", "the &AB case", "İSTANBUL DC", "end with AB",
		// Backtracking over a run of capitals, digits and '&'.
		"AB&CD", "A&B", "A&&B", "AB&c", "ABC&", "X&Ys", "X&Ysx", "ABs", "ABsx", "AB1s", "A1&", "AB_C", "A1B2s C3D&E4",
		"ABss", "AB9", "A9", "R&Ds.", "AB&1", "AB&1C", "ABé", "éAB", "AB\xffCD", "Ab", "ABC's",
	}
	for seed := range uint64(2) {
		lines = append(lines, strings.Split(string(samplegen.Spec(seed+1, 10<<10)), "\n")...)
	}
	for _, l := range lines {
		assert.Equal(t, reAcronym.FindAllStringIndex(l, -1), findAcronyms(l), "%q", l)
	}
}

func FuzzFindAcronyms(f *testing.F) {
	for _, s := range []string{"The API", "R&D", "xAB", "é AB", "A1", "AB&CD", "X&Ysx", "A1&", "AB1s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		assert.Equal(t, reAcronym.FindAllStringIndex(s, -1), findAcronyms(s), "%q", s)
	})
}

// parenAcronymLines are lines around the two expansion expressions: each
// matching, each just missing, and the sample specifications' lines.
func parenAcronymLines() []string {
	lines := []string{
		"", "no parenthesis", "Service Level Objective (SLO)", "SLO (Service Level Objective)", "SLOs (Service Level Objectives)",
		"APIs\t(Application Interfaces)", "(A)", "(AB)", "(ABs)", "x (Ab)", "AB s (x)", "A (bc)", "AB(", "(", "AB (", "((SLO))",
		"Time To Live (TTL) and MTTR (mean time to repair)", "R&D (research)", "Q3 (quarter)", "note (2x)",
	}
	for seed := range uint64(2) {
		lines = append(lines, strings.Split(string(samplegen.Spec(seed+1, 10<<10)), "\n")...)
	}
	return lines
}

// parenAcronyms must say true wherever the expressions it saves match.
func TestParenAcronymsPassesEveryMatch(t *testing.T) {
	for _, l := range parenAcronymLines() {
		checkParenAcronyms(t, l)
	}
}

func checkParenAcronyms(t *testing.T, s string) {
	before, after := parenAcronyms(s)
	if reExpandBefore.MatchString(s) {
		assert.True(t, before, "before: %q", s)
	}
	if reExpandAfter.MatchString(s) {
		assert.True(t, after, "after: %q", s)
	}
}

func FuzzParenAcronyms(f *testing.F) {
	for _, s := range parenAcronymLines()[:20] {
		f.Add(s)
	}
	f.Fuzz(checkParenAcronyms)
}

// probabilityLines are texts around reProbInline: matching in full words
// or by abbreviation, and just missing.
var probabilityLines = []string{
	"", "Probability: high, impact: low", "LIKELIHOOD is 30 %", "L: H, I: M", "P.: low", "p =medium", "Prob.\t: very high",
	"Lik: 20%", "xP: high", "AP: high", "the L : M", "PL: high", "Li\u212a: high", "ſ: x", "status: done", "P.x: high",
	"Impact: high", "prob — high", "(L=H)",
}

func TestMayRateProbability(t *testing.T) {
	lines := probabilityLines
	for seed := range uint64(3) {
		lines = append(lines, strings.Split(string(samplegen.Spec(seed+1, 20<<10)), "\n")...)
	}
	passed := 0
	for _, s := range lines {
		may := mayRateProbability(s, foldLower(s))
		if reProbInline.re.MatchString(s) {
			assert.True(t, may, "%q", s)
		}
		if may {
			passed++
		}
	}
	assert.Less(t, passed, len(lines)/2, "the prefilter rules out most lines")
	assert.False(t, mayRateProbability("Status: done", "status: done"))
}

func FuzzMayRateProbability(f *testing.F) {
	for _, s := range probabilityLines {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if reProbInline.re.MatchString(s) && !mayRateProbability(s, foldLower(s)) {
			t.Fatalf("the prefilter rules out a text the pattern matches: %q", s)
		}
	})
}

// FuzzBigrams checks the signature's one promise: a text that holds a
// string has every byte and byte pair of it.
func FuzzBigrams(f *testing.F) {
	f.Add("the timeout budget", "timeout")
	f.Add("a [1] b", "[")
	f.Add("≤ 5", "≤")
	f.Fuzz(func(t *testing.T, text, key string) {
		if i := len(text) / 3; strings.Contains(text, key) || key == "" {
			g, k := bigramsOf(text), bigramsOf(key)
			assert.True(t, g.includes(&k), "%q in %q", key, text)
		} else if j := min(len(text), i+len(key)); i < j {
			sub := text[i:j] // a string the text does hold
			g, k := bigramsOf(text), bigramsOf(sub)
			assert.True(t, g.includes(&k), "%q in %q", sub, text)
		}
	})
}

func checkTermWords(t *testing.T, s string) {
	t.Helper()
	var got []string
	eachTermWord(s, func(w string) { got = append(got, w) })
	want := strings.FieldsFunc(s, notWordRune)
	if len(want) == 0 {
		want = nil
	}
	assert.Equal(t, want, got, "%q", s)
}

func TestEachTermWordIsFieldsFunc(t *testing.T) {
	for _, s := range []string{"", "Postgres and PostgreSQL", "C++ / C# .NET", "naïve Kafka—Redis", "a\xffb", "日本 go1.22", "  x  "} {
		checkTermWords(t, s)
	}
	for _, l := range strings.Split(string(samplegen.Spec(1, 10<<10)), "\n") {
		checkTermWords(t, l)
	}
}

func FuzzEachTermWord(f *testing.F) {
	f.Add("C++ and naïve Kafka")
	f.Fuzz(checkTermWords)
}

// TestIsVagueLine checks the line's shortcut against lexicon.IsVague on
// lines with the long s, other case folds and plain ones.
func TestIsVagueLine(t *testing.T) {
	docs := []string{
		"# T\n\nThe service should be fast.\n\n- Uſe appropriate caching as needed\n- İstanbul is a KELVIN K case, roughly done\n",
		"# T\n\n| A | B |\n|---|---|\n| Reasonable limits | 5 ms |\n\nSeveral ſeveral things, etc.\n\n- ſufficient items\n",
	}
	for _, src := range docs {
		d := parse(t, "v", src)
		w := newView(context.Background(), Variant{Label: "A", Doc: d}, &RubricRequest{})
		for _, l := range w.lines {
			assert.Equal(t, lexicon.IsVague(l.text), isVagueLine(l), "%q", l.text)
		}
	}
}

// plainFirstKey is keyStarts.firstKey by a search per key: the least
// offset at which one of keys occurs in lower, or -1.
func plainFirstKey(keys []string, lower string) int {
	first := -1
	for _, k := range keys {
		if i := strings.Index(lower, k); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	return first
}

// TestMayHoldByGroups checks the grouped signature test against a test
// per key, on sample lines and on lines made of the keys themselves.
func TestMayHoldByGroups(t *testing.T) {
	var lines []string
	for seed := range uint64(2) {
		lines = append(lines, strings.Split(string(samplegen.Spec(seed+1, 20<<10)), "\n")...)
	}
	for _, p := range rulePatterns {
		lines = append(lines, p.keys...)
		for _, k := range p.keys {
			lines = append(lines, "x "+k[:len(k)/2]+" y", strings.ToUpper(k)+" and more")
		}
	}
	held := 0
	for name, p := range rulePatterns {
		for _, l := range lines {
			g := bigramsOf(foldLower(l))
			want := p.grams == nil
			for i := range p.grams {
				want = want || g.includes(&p.grams[i])
			}
			require.Equal(t, want, p.mayHold(&g), "%s on %q", name, l)
			if want {
				held++
			}
		}
	}
	require.Positive(t, held)
}
