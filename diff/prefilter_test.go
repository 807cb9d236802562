package diff

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// guardedBy pairs each prefilter with the expressions it guards: a string
// any of them matches must pass the prefilter, or the rule would skip a
// line it reads.
var guardedBy = []struct {
	name   string
	passes func(string) bool
	res    []*regexp.Regexp
}{
	{"colon digit", hasColonDigit, []*regexp.Regexp{sourceFileRef, citedRange, locationCorrection}},
	{"default", func(s string) bool { return hasFold(s, "default") }, []*regexp.Regexp{defaultStated, defaultItem}},
	{"metric", mayNameMetric, []*regexp.Regexp{tableMetric}},
	{"percentile", hasPercentile, []*regexp.Regexp{percentileRE}},
}

func TestPrefilters(t *testing.T) {
	tests := []struct {
		line string
		want map[string]bool
	}{
		{"see `models.py:449-463` (not 452-463)", map[string]bool{"colon digit": true, "default": false}},
		{"the P99 Latency at 50,000 events/s", map[string]bool{"metric": true, "percentile": true}},
		{" at the 95th PERCENTILE", map[string]bool{"percentile": true, "metric": true}},
		{"error rate under 1%", map[string]bool{"metric": true}},
		{"pipe buffer of 64 KiB", map[string]bool{}},
		{"Default `none` to keep v1 quiet", map[string]bool{"colon digit": false, "default": true}},
		{"- `sidecar` — default", map[string]bool{"colon digit": false, "default": true}},
		{"ratio 3: 1 and DEFAULTS", map[string]bool{"colon digit": false, "default": true}},
		{"time 10:30", map[string]bool{"colon digit": true, "default": false}},
		{"", map[string]bool{"colon digit": false, "default": false}},
	}
	for _, tt := range tests {
		for _, g := range guardedBy {
			if got := g.passes(tt.line); got != tt.want[g.name] {
				t.Errorf("%s(%q) = %v, want %v", g.name, tt.line, got, tt.want[g.name])
			}
			checkGuard(t, g.name, g.passes, g.res, tt.line)
		}
	}
}

func FuzzPrefilters(f *testing.F) {
	for _, s := range []string{"see `models.py:449-463` (not 452-463)", "Default `none`", "- `x` (default)", "a:1", "DeFaUlT is on"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, g := range guardedBy {
			checkGuard(t, g.name, g.passes, g.res, s)
		}
		if got, want := hasFold(s, "default"), strings.Contains(asciiLower(s), "default"); got != want {
			t.Errorf("hasFold(%q) = %v, ASCII-lowered Contains says %v", s, got, want)
		}
	})
}

func checkGuard(t *testing.T, name string, passes func(string) bool, res []*regexp.Regexp, s string) {
	t.Helper()
	if passes(s) {
		return
	}
	for _, re := range res {
		if re.MatchString(s) {
			t.Errorf("%s prefilter skips %q, which %v matches", name, s, re)
		}
	}
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// conditionalByFields is the plain form of conditional: lower-case the
// clause, split it, look the first four words up.
func conditionalByFields(before string) bool {
	before = tail(before, quoteWindow)
	if i := strings.LastIndexAny(before, ",;:.(—"); i >= 0 {
		before = before[i+1:]
	}
	for i, w := range strings.Fields(strings.ToLower(before)) {
		if i > 3 {
			break
		}
		if conditionWords[strings.Trim(w, "*_`\"")] {
			return true
		}
	}
	return false
}

func TestConditional(t *testing.T) {
	tests := []struct {
		before string
		want   bool
	}{
		{"When ", true},
		{"the worker stops; **Once** consumed ", true},
		{"for example a budget of ", true},
		{"e.g. a budget of ", false}, // the clause starts after "e.g."
		{"The default budget is ", false},
		{"we then emit WARN when the ratio reaches ", false}, // fifth word
		{"Über WHENEVER ", true},
	}
	for _, tt := range tests {
		if got := conditional(tt.before); got != tt.want {
			t.Errorf("conditional(%q) = %v, want %v", tt.before, got, tt.want)
		}
	}
}

func FuzzConditional(f *testing.F) {
	for _, s := range []string{"When ", "x, if ", "e.g. ", "İf the \u212aey ", "a b c d when"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := conditional(s), conditionalByFields(s); got != want {
			t.Errorf("conditional(%q) = %v, the plain form says %v", s, got, want)
		}
	})
}

// countGuards pairs the prefilters of the labelled counts with the
// expression each guards and how the rule reads the value before matching.
var countGuards = []struct {
	name   string
	passes func(string) bool
	read   func(string) string
	re     *regexp.Regexp
}{
	{"stated count", mayStateCount, strings.TrimSpace, countLabelValue},
	{"counted list", mayListCount, func(s string) string { return strings.TrimSpace(fldPlain(s)) }, countedListValue},
}

func checkCountGuards(t *testing.T, value string) {
	t.Helper()
	for _, g := range countGuards {
		if !g.passes(value) && g.re.MatchString(g.read(value)) {
			t.Errorf("%s prefilter skips %q, which %v matches once read", g.name, value, g.re)
		}
	}
}

func TestCountPrefilters(t *testing.T) {
	tests := []struct {
		value          string
		stated, listed bool // what the prefilters say
	}{
		{"4", true, false},
		{"**4** (NR-1, NR-2, NR-3, NR-4)", true, true},
		{"`3` (A1, A2, A3)", true, true},
		{"four", false, false},
		{"CONFIRMED (see below)", false, false},
		{"", false, false},
		{" 12. ", true, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.stated, mayStateCount(tt.value), "mayStateCount(%q)", tt.value)
		assert.Equal(t, tt.listed, mayListCount(tt.value), "mayListCount(%q)", tt.value)
		checkCountGuards(t, tt.value)
	}
}

func FuzzCountPrefilters(f *testing.F) {
	for _, s := range []string{"4", "**4** (NR-1, NR-2)", "`3` (A1, A2)", "four (x)", "~~2~~ (T1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkCountGuards(t, s) })
}
