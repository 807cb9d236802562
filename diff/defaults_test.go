package diff

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaults(t *testing.T) {
	tests := []struct {
		name, doc string
		lines     []int // cited lines; nil for no finding
	}{
		{"a mode list's default against the release plan's",
			"# P\n\n## Gate\n\n**Configurable via flag** `--mode {none|sidecar|halt}`:\n- `none` — disable it.\n- `halt` — default; halts on regression.\n\n## Migration\n\n1. **v1** — opt-in `--mode {none|sidecar|halt}` flag. Default `none` to preserve back-compat.\n",
			[]int{7, 11}},
		{"two statements of one release",
			"# P\n\n**Choice: configurable `--mode {none|sidecar}` as the v1 modes.** Default `sidecar`.\n\n1. **v1** — flag `--run post|none`. `--mode` flag for advanced selection. Default off.\n",
			[]int{3, 5}},
		{"off and none are one default",
			"# P\n\nThe `--mode` flag. Default `none`.\n\nLater: the `--mode` flag stays. Default off.\n", nil},
		{"a change of default is no second default",
			"# P\n\nThe `--mode` flag. Default `none`.\n\n2. **v1.1** — change default to `sidecar`.\n3. Then the `--mode` flag will be switched: default `halt`.\n", nil},
		{"defaults of different releases",
			"# P\n\n1. **v1** — `--mode` opt-in flag. Default off.\n2. **v2** — `--mode` flag. Default `halt`.\n", nil},
		{"a default stated before any flag on its line",
			"# P\n\nThe `--mode` flag. Default `none`.\n\nDefault on, with `--mode` opt-out.\n", nil},
		{"a default that is another flag",
			"# P\n\nWithout `--depth`, it defaults to `\"standard\"`.\n\nThe resume of `--depth` defaults to `--depth standard` (2 rounds).\n", nil},
		{"defaults of two flags",
			"# P\n\nThe `--mode` flag. Default `none`.\n\nThe `--tier` flag. Default `deep`.\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tallyFindings(t, "default:", tt.doc, "# Other\n\nNothing.\n")
			if tt.lines == nil {
				assert.Empty(t, got, "%+v", got)
				return
			}
			require.Len(t, got, 1, "%+v", got)
			c := got[0]
			assert.Equal(t, ChoiceConflict, c.Kind)
			assert.Equal(t, IntraVariant, c.Scope())
			var lines []int
			for _, cl := range c.Claims {
				lines = append(lines, cl.Line)
				assert.Equal(t, strings.TrimSpace(strings.Split(tt.doc, "\n")[cl.Line-1]), cl.Quote)
			}
			assert.Equal(t, tt.lines, lines)
			assert.Contains(t, c.Reason, "two defaults (")
		})
	}
}

func TestDefaultsNameValuesAsWritten(t *testing.T) {
	doc := "# P\n\n**Configurable via flag** `--mode {none|halt}`:\n- `halt` — default; halts.\n\n1. **v1** — opt-in `--mode` flag. Default `none` to preserve back-compat.\n"
	got := tallyFindings(t, "default:", doc, "# O\n\nNothing.\n")
	require.Len(t, got, 1)
	assert.Equal(t, "the document gives --mode two defaults (halt vs none)", got[0].Reason)
}
