package debate

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/crucible-go/crucible/internal/samplegen"
	"github.com/crucible-go/crucible/internal/words"
)

// labelOnly matches a line that labels a short value: "**Severity:**
// Medium", "**Assessment**: **CORRECTLY RATED**.", "Status: done".
// labelValue is its submatch without the regexp engine.
var labelOnly = regexp.MustCompile(`^[^:]{1,40}:\s*(.*)$`)

var labelTexts = []string{
	"", ":", ":x", "a:", "Status: done", "Severity:   Medium", "a\nb: c d", "ab:\n  x y", "ab: x\ny", "ab:  ",
	"ab: c: d", "a\xffb: z", strings.Repeat("é", 40) + ": v", strings.Repeat("é", 41) + ": v", strings.Repeat("x", 40) + ":v",
	strings.Repeat("x", 41) + ":v", "ab:\t\f\rx", "ab: x\r\ny", "no colon at all",
	" a\u00a0b\u0085c\u2003 d ", "\xff \xfe", "  ",
}

func checkLabelValue(t *testing.T, s string) {
	t.Helper()
	m := labelOnly.FindStringSubmatch(s)
	v, ok := labelValue(s)
	assert.Equal(t, m != nil, ok, "%q", s)
	if m != nil {
		assert.Equal(t, m[1], v, "%q", s)
	}
	assert.Equal(t, len(strings.Fields(s)) >= 4, hasFields(s, 4), "%q", s)
	fields := []string{}
	for rest := s; ; {
		var f string
		if f, rest = words.NextField(rest); f == "" {
			break
		}
		fields = append(fields, f)
	}
	assert.Equal(t, strings.Fields(s), fields, "%q", s)
}

func TestLabelValueIsTheExpression(t *testing.T) {
	texts := labelTexts
	for seed := range uint64(2) {
		texts = append(texts, strings.Split(string(samplegen.Spec(seed+1, 20<<10)), "\n\n")...)
	}
	matched := 0
	for _, s := range texts {
		checkLabelValue(t, s)
		if labelOnly.MatchString(s) {
			matched++
		}
	}
	assert.Positive(t, matched, "the texts hold labels")
}

func FuzzLabelValue(f *testing.F) {
	for _, s := range labelTexts {
		f.Add(s)
	}
	f.Fuzz(checkLabelValue)
}
