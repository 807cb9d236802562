package diff

import (
	"regexp"
	"strings"
	"testing"
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
}

func TestPrefilters(t *testing.T) {
	tests := []struct {
		line string
		want map[string]bool
	}{
		{"see `models.py:449-463` (not 452-463)", map[string]bool{"colon digit": true, "default": false}},
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
