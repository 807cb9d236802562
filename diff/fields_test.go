package diff

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func parseFieldDoc(t testing.TB, name, src string) *Document {
	t.Helper()
	d, err := Parse(name, []byte(src))
	require.NoError(t, err)
	return d
}

func TestExtractFieldsForms(t *testing.T) {
	type want struct {
		line              int
		item, name, value string
		form              FieldForm
	}
	tests := []struct {
		name string
		src  string
		want []want
	}{
		{"bold key, colon outside", "# R\n\n## Delta 2.1 -- Cache\n\n**Verdict**: OVERSTATED. The code exists.\n",
			[]want{{5, "Delta 2.1 -- Cache", "Verdict", "OVERSTATED. The code exists.", FormLabel}}},
		{"bold key, colon inside", "# R\n\n## Risk 4. Classifier\n**Severity:** Low-Medium\n",
			[]want{{4, "Risk 4. Classifier", "Severity", "Low-Medium", FormLabel}}},
		{"bold key and value", "# R\n\n## Delta 2.1\n\n**Verdict: CONFIRMED**. Line ranges are accurate.\n",
			[]want{{5, "Delta 2.1", "Verdict", "CONFIRMED", FormLabel}}},
		{"list item, bold key", "# R\n\n## Risks\n\n- **Probability:** Low\n- **Impact:** High\n",
			[]want{{5, "Risks", "Probability", "Low", FormLabel}, {6, "Risks", "Impact", "High", FormLabel}}},
		{"plain key in a list", "# R\n\n## T1\n\n- Owner team: platform\n",
			[]want{{5, "T1", "Owner team", "platform", FormLabel}}},
		{"plain key line", "# R\n\n## T1\n\nPriority: P1\n",
			[]want{{5, "T1", "Priority", "P1", FormLabel}}},
		{"bold value after the key", "# R\n\n## SOL-D\n\n- **Verdict**: **CONSISTENT** -- the argument holds.\n",
			[]want{{5, "SOL-D", "Verdict", "CONSISTENT", FormLabel}}},
		{"two labels on one line", "# R\n\n## Phase 3\n**Duration**: 5-7 days | **Milestone**: M3 ready\n",
			[]want{{4, "Phase 3", "Duration", "5-7 days", FormLabel}, {4, "Phase 3", "Milestone", "M3 ready", FormLabel}}},
		{"yaml lines under a task", "# P\n\n### Task 2.1: Verify\n```yaml\ntier: STANDARD\nestimated_tokens: 300\nverification: direct-test\n```\n",
			[]want{{5, "Task 2.1: Verify", "tier", "STANDARD", FormYAML}, {6, "Task 2.1: Verify", "estimated_tokens", "300", FormYAML},
				{7, "Task 2.1: Verify", "verification", "direct-test", FormYAML}}},
		{"table rows keyed by the first cell", "# R\n\n## Risks\n\n| ID | Risk | Severity | Mitigation |\n|---|---|---|---|\n| R-005 | Agent too lenient | Low | Structured gate criteria for every finding |\n| R-006 | Drift | **High** | Pin the API |\n",
			[]want{{7, "R-005 Agent too lenient", "Severity", "Low", FormTable}, {8, "R-006 Drift", "Severity", "High", FormTable}}},
		{"a repeated section title is named by its parent", "# R\n\n## Risk 1\n\n### Mitigation\n\n**Owner:** ops\n\n## Risk 2\n\n### Mitigation\n\n**Owner:** dev\n",
			[]want{{7, "Risk 1 / Mitigation", "Owner", "ops", FormLabel}, {13, "Risk 2 / Mitigation", "Owner", "dev", FormLabel}}},
		{"header fields have no item; provenance is left out", "# Design\n\n**Author**: someone\n**Scope**: `a.py`, `b.py`\n\n## A\n",
			[]want{{4, "", "Scope", "a.py, b.py", FormLabel}}},
		{"not fields: prose, shouted labels, long keys, urls, other code",
			"# R\n\n## A\n\n**NOTE**: read this first.\n\nThe plan: we ship it when it is ready and tested.\n\n**This is a very long label here**: x\n\nhttps://example.com/a: b\n\n```go\nx: 1\n```\n\n| Step | Action |\n|---|---|\n| 1 | Write the code and the tests |\n",
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := parseFieldDoc(t, "a.md", tt.src)
			got := ExtractFields(d, 2)
			var have []want
			for _, f := range got {
				have = append(have, want{f.Line, f.Item, f.Name, f.Value, f.Form})
				assert.Equal(t, 2, f.Variant)
				lines := strings.Split(d.Source, "\n")
				assert.Equal(t, strings.TrimSpace(lines[f.Line-1]), f.Quote, "the quote is the field's line")
			}
			assert.Equal(t, tt.want, have)
		})
	}
}

func TestNormaliseFieldValue(t *testing.T) {
	tests := []struct {
		raw          string
		bounded      bool
		form         FieldForm
		kind         fldValueKind
		scale, class string
	}{
		{"OVERSTATED. The code exists as described, but the blocker is not one.", false, FormLabel, fvEnum, fscaleVerdict, "overstated"},
		{"CONFIRMED", true, FormLabel, fvEnum, fscaleVerdict, "agree"},
		{"Accurate", true, FormTable, fvEnum, fscaleVerdict, "agree"},
		{"VERIFIED -- line 698 is the if", true, FormTable, fvEnum, fscaleVerdict, "agree"},
		{"ACCURATE (minor line offset: 449 not 452).", false, FormLabel, fvEnum, fscaleVerdict, "partial"},
		{"ACCURATE with correction: the class is implemented.", false, FormLabel, fvEnum, fscaleVerdict, "partial"},
		{"CORRECT (the if is at 783; the analysis identifies 783)", true, FormTable, fvEnum, fscaleVerdict, "agree"},
		{"PARTIALLY_CONFIRMED", true, FormLabel, fvEnum, fscaleVerdict, "partial"},
		{"CLOSE -- extends to 720, not 719", true, FormTable, fvEnum, fscaleVerdict, "partial"},
		{"REFUTED -- range ends at 229", true, FormTable, fvEnum, fscaleVerdict, "disagree"},
		{"INACCURATE -- should be 765-769", true, FormTable, fvEnum, fscaleVerdict, "disagree"},
		{"GENUINE NEW REQUIREMENT.", true, FormLabel, fvEnum, fscaleVerdict, "agree"},
		{"GENUINE NEW REQUIREMENT but it belongs in another section", false, FormLabel, fvEnum, fscaleVerdict, "partial"},
		{"NOT A SPEC REQUIREMENT", true, FormLabel, fvEnum, fscaleLabel, "NOT A SPEC REQUIREMENT"},
		{"CORRECT BUT INCOMPLETE", true, FormLabel, fvEnum, fscaleLabel, "CORRECT BUT INCOMPLETE"},
		{"PARTIALLY REDUNDANT.", true, FormLabel, fvEnum, fscaleLabel, "PARTIALLY REDUNDANT"},
		{"CONFIRMED HIGH", true, FormTable, fvEnum, fscaleLevel, "HIGH"},
		{"RECLASSIFY to HIGH", true, FormTable, fvEnum, fscaleLevel, "HIGH"},
		{"HIGH -- P0 blocker", true, FormTable, fvEnum, fscaleLevel, "HIGH"},
		{"Low-Medium", false, FormLabel, fvEnum, fscaleLevel, "LOW-MEDIUM"},
		{"medium", true, FormTable, fvEnum, fscaleLevel, "MEDIUM"},
		{"High (TUI) / Medium (Logger)", true, FormTable, fvText, "", "high tui medium logg"},
		{"P1", false, FormLabel, fvEnum, fscalePriority, "P1"},
		{"Yes", true, FormTable, fvEnum, fscaleBool, "YES"},
		{"MODIFY", true, FormTable, fvEnum, fscaleDecision, "MODIFY"},
		{"keep.", false, FormLabel, fvEnum, fscaleDecision, "KEEP"},
		{"direct-test", true, FormYAML, fvEnum, fscaleToken, "DIRECT-TEST"},
		{"TUI completion guard absent", true, FormTable, fvText, "", "tui complet guard absent"},
		{"Option B (background subprocess, never blocks).", true, FormLabel, fvEnum, fscaleOption, "OPTION B"},
		{"option d (configurable) with three modes", false, FormLabel, fvEnum, fscaleOption, "OPTION D"},
		{"Alternative 2 for v1", true, FormLabel, fvEnum, fscaleOption, "ALTERNATIVE 2"},
		{"Option B (never blocks) for the first release", true, FormLabel, fvEnum, fscaleOption, "OPTION B"},
		{"Option B (background subprocess), with a checkpoint", true, FormLabel, fvText, "", "option b background subprocess checkpoint"},
		{"Option B, then Option C once data exists", true, FormLabel, fvText, "", "option b then option c once data exist"},
		{"the reviewers could not agree on what the code does here", false, FormLabel, fvNone, "", ""},
		{"", true, FormTable, fvNone, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			v := normaliseFieldValue(tt.raw, tt.bounded, tt.form)
			assert.Equal(t, tt.kind, v.kind, "kind")
			assert.Equal(t, tt.scale, v.scale, "scale")
			assert.Equal(t, tt.class, v.class, "class")
		})
	}
}

func TestNormaliseNumericFieldValue(t *testing.T) {
	tests := []struct {
		raw    string
		lo, hi float64
		unit   string
	}{
		{"12-16h including tests.", 12, 16, "h"},
		{"5-7 days", 5, 7, "d"},
		{"300", 300, 300, ""},
		{"~650 LOC including tests.", 650, 650, "loc"},
		{"150-280k tokens", 150000, 280000, "token"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			v := normaliseFieldValue(tt.raw, false, FormLabel)
			require.Equal(t, fvNum, v.kind)
			assert.Equal(t, []any{tt.lo, tt.hi, tt.unit}, []any{v.lo, v.hi, v.unit})
		})
	}
	same, ok := normaliseFieldValue("2 days", false, FormLabel).agree(normaliseFieldValue("2 d", false, FormLabel))
	assert.True(t, ok && same, "units are compared canonically")
	_, ok = normaliseFieldValue("2 days", false, FormLabel).agree(normaliseFieldValue("2 hours", false, FormLabel))
	assert.False(t, ok, "values in different units are not compared")
}

// analyseFields runs the analysis over variants given as text.
func analyseFields(t *testing.T, srcs ...string) ([]*Document, *Analysis) {
	t.Helper()
	var docs []*Document
	for i, s := range srcs {
		docs = append(docs, parseFieldDoc(t, fmt.Sprintf("%c.md", 'a'+i), s))
	}
	a, err := Analyze(context.Background(), docs, WithClock(fixedClock))
	require.NoError(t, err)
	checkAnalysisInvariants(t, docs, a)
	return docs, a
}

func review(verdict, severity string) string {
	return "# Review\n\n## Delta 2.1 -- Cache eviction\n\nThe finding was checked against the code.\n\n**Verdict**: " + verdict +
		". Checked.\n\n## Severity\n\n| Item | Severity |\n|---|---|\n| Cache eviction (2.1) | " + severity + " |\n"
}

func TestCompareFields(t *testing.T) {
	t.Run("equivalent verdicts and equal levels agree", func(t *testing.T) {
		_, a := analyseFields(t, review("ACCURATE", "High"), review("CONFIRMED", "HIGH"), review("VERIFIED", "high"), review("CORRECT", "**High**"))
		assert.Empty(t, a.Fields)
		for _, p := range a.ByCategory(CategoryContradiction) {
			assert.NotContains(t, []string{string(FieldConflict), string(VerdictConflict)}, p.Kind, "%+v", p)
		}
	})

	t.Run("three variants disagree", func(t *testing.T) {
		docs, a := analyseFields(t, review("OVERSTATED", "Low"), review("CONFIRMED", "Medium"), review("REFUTED", "Medium"))
		require.Len(t, a.Fields, 2)
		v := a.Fields[0]
		assert.Equal(t, "Delta 2.1 -- Cache eviction", v.Item)
		assert.Equal(t, "Verdict", v.Field)
		require.Len(t, v.Values, 3)
		for i, fv := range v.Values {
			assert.Equal(t, i, fv.Variant)
			assert.Equal(t, 7, fv.Line)
			assert.Contains(t, docs[i].Source, fv.Quote)
		}
		assert.Equal(t, "Severity", a.Fields[1].Field)

		kinds := map[string]Point{}
		for _, p := range a.ByCategory(CategoryContradiction) {
			kinds[p.Kind] = p
		}
		verdict, ok := kinds[string(VerdictConflict)]
		require.True(t, ok, "a verdict contradiction")
		assert.Equal(t, "Delta 2.1 -- Cache eviction: Verdict", verdict.Title)
		assert.Equal(t, []int{0, 1, 2}, verdict.Variants)
		for _, e := range verdict.Evidence {
			lines := strings.Split(docs[e.Variant].Source, "\n")
			assert.Equal(t, lines[e.Line-1], e.Quote, "the claim quotes its line")
		}
		field, ok := kinds[string(FieldConflict)]
		require.True(t, ok, "a severity contradiction")
		assert.Contains(t, field.Reason, "LOW vs MEDIUM")
	})

	t.Run("an item every variant rates alike gives nothing", func(t *testing.T) {
		_, a := analyseFields(t, review("OVERSTATED", "Low"), review("OVERSTATED", "Low"))
		assert.Empty(t, a.Fields)
	})

	t.Run("a free label differs from a verdict without contradicting it", func(t *testing.T) {
		_, a := analyseFields(t, review("OVERSTATED", "Low"), review("PARTIALLY REDUNDANT", "Low"))
		require.Len(t, a.Fields, 1)
		for _, p := range a.ByCategory(CategoryContradiction) {
			assert.NotEqual(t, string(VerdictConflict), p.Kind)
		}
	})

	t.Run("a verdict word naming what it judges is that verdict", func(t *testing.T) {
		_, a := analyseFields(t, review("OVERSTATED", "Low"), review("GENUINE NEW REQUIREMENT", "Low"))
		require.Len(t, a.Fields, 1)
		kinds := map[string]bool{}
		for _, p := range a.ByCategory(CategoryContradiction) {
			kinds[p.Kind] = true
		}
		assert.True(t, kinds[string(VerdictConflict)], "OVERSTATED against GENUINE is a verdict contradiction")
	})

	t.Run("a negative verdict that grants the item may hold only differs", func(t *testing.T) {
		_, a := analyseFields(t, review("OVERSTATED. The requirement may be legitimate, but the argument is wrong", "Low"),
			review("GENUINE NEW REQUIREMENT", "Low"))
		require.Len(t, a.Fields, 1, "still a field disagreement")
		for _, p := range a.ByCategory(CategoryContradiction) {
			assert.NotEqual(t, string(VerdictConflict), p.Kind)
		}
	})

	t.Run("items are matched by id, not by position", func(t *testing.T) {
		a := "# R\n\n## NR-1 -- Emit flags\n\n**Verdict**: OVERSTATED\n\n## NR-2 -- Version the schema\n\n**Verdict**: ACCURATE\n"
		b := "# R\n\n## NR-2 -- Version the schema\n\n**Assessment**: CONFIRMED\n\n## NR-1 -- Emit flags\n\n**Assessment**: OVERSTATED\n"
		_, an := analyseFields(t, a, b)
		assert.Empty(t, an.Fields, "NR-1 and NR-2 agree once matched by id")
	})

	t.Run("same id, nothing else in common: different items", func(t *testing.T) {
		a := "# R\n\n## Risks\n\n| Risk | Severity |\n|---|---|\n| RISK-005: Future mixed-mode phases | Low |\n"
		b := "# R\n\n## Risk 5. Orchestration regression in the Claude flow\n**Severity:** Medium\n"
		_, an := analyseFields(t, a, b)
		assert.Empty(t, an.Fields)
	})

	t.Run("renumbered items are matched by title", func(t *testing.T) {
		a := "# P\n\n### Task 2.3: Analyze summary complexity\n```yaml\nverification: direct-test\n```\n\n### Task 2.4: Analyze validate_entry_details complexity\n```yaml\nverification: direct-test\n```\n"
		b := "# P\n\n### Task 2.2: Verify worklog behaviour\n```yaml\nverification: output-validation\n```\n\n### Task 2.3: Analyze validate_entry_details complexity\n```yaml\nverification: output-validation\n```\n"
		_, an := analyseFields(t, a, b)
		require.Len(t, an.Fields, 1)
		assert.Equal(t, "Task 2.4: Analyze validate_entry_details complexity", an.Fields[0].Item)
		for _, p := range an.ByCategory(CategoryContradiction) {
			assert.NotEqual(t, string(FieldConflict), p.Kind, "ids that differ leave the item uncertain: no contradiction")
		}
	})

	t.Run("one-word settings contradict", func(t *testing.T) {
		a := "# P\n\n## T7 — Pipeline updates\n\n- **`_verify_checkpoints`**: keep. It is mechanical.\n"
		b := "# P\n\n## T7 — Pipeline updates\n\n- **`_verify_checkpoints`**: **simplify**. Today it checks files.\n"
		_, an := analyseFields(t, a, b)
		require.Len(t, an.Fields, 1)
		assert.Equal(t, "_verify_checkpoints", an.Fields[0].Field)
		found := false
		for _, p := range an.ByCategory(CategoryContradiction) {
			found = found || (p.Kind == string(FieldConflict) && strings.Contains(p.Reason, "KEEP vs simplify"))
		}
		assert.True(t, found, "keep against simplify is a field contradiction")
	})

	t.Run("a weak title match another field confirms differs without contradicting", func(t *testing.T) {
		a := "# R\n\n## Risks\n\n| ID | Risk | Severity | Probability |\n|---|---|---|---|\n| R-005 | The cache outage | Low | Medium |\n"
		b := "# R\n\n## Risks\n\n### 4. The gateway outage\n- **Impact:** High\n- **Probability:** Medium\n"
		_, an := analyseFields(t, a, b)
		require.Len(t, an.Fields, 1, "the rows may be one item: their severities differ")
		for _, p := range an.ByCategory(CategoryContradiction) {
			assert.NotEqual(t, string(FieldConflict), p.Kind, "they may also be two risks: no contradiction %+v", p)
		}
	})

	t.Run("a weak match confirmed by another field and a word singling it out of its list: levels apart contradict", func(t *testing.T) {
		register := func(severity string) string {
			return "# R\n\n## Risks\n\n| ID | Risk | Severity | Probability |\n|---|---|---|---|\n" +
				"| R-001 | Parser breaks on new report format | High | Low |\n" +
				"| R-002 | Rollback fails on write race | Medium | Low |\n" +
				"| R-005 | Certification agent too lenient | " + severity + " | Medium |\n"
		}
		b := "# R\n\n## Risks\n\n### 1. Report parser breakage from format drift\n- **Impact:** High\n- **Probability:** Low\n\n" +
			"### 2. Stale resume causing invalid certification\n- **Impact:** High\n- **Probability:** Medium\n\n" +
			"### 4. Certification false passes\n- **Impact:** Medium-High\n- **Probability:** Medium\n"
		tests := []struct {
			severity string
			want     bool
		}{
			{"Low", true},         // Low and Medium-High share no level
			{"Medium", false},     // Medium lies in Medium-High: no disagreement at all
			{"Low-Medium", false}, // overlaps Medium-High: a disagreement, not a contradiction
		}
		for _, tt := range tests {
			_, an := analyseFields(t, register(tt.severity), b)
			found := false
			for _, p := range an.ByCategory(CategoryContradiction) {
				found = found || (p.Kind == string(FieldConflict) && strings.Contains(p.Title, "Certification agent too lenient"))
			}
			assert.Equal(t, tt.want, found, "severity %s", tt.severity)
		}
	})

	t.Run("a weak title match nothing confirms is no item: no disagreement, no contradiction", func(t *testing.T) {
		a := "# R\n\n## Risks\n\n| ID | Risk | Severity | Probability |\n|---|---|---|---|\n| R-005 | Certification agent too lenient | Low | Medium |\n"
		b := "# R\n\n## Risks\n\n### 4. Certification false passes\n- **Impact:** Medium-High\n- **Probability:** High\n"
		_, an := analyseFields(t, a, b)
		assert.Empty(t, an.Fields)
		for _, p := range an.ByCategory(CategoryContradiction) {
			assert.NotEqual(t, string(FieldConflict), p.Kind, "%+v", p)
		}
	})

	t.Run("a weak title match sharing two words no other item uses is one item", func(t *testing.T) {
		a := "# R\n\n## Risks\n\n| ID | Risk | Severity | Probability |\n|---|---|---|---|\n" +
			"| R-004 | User interrupts during remediation | Low | Low |\n" +
			"| R-NEW-001 | Rollback mechanism fails on atomic write race | Medium | Low |\n"
		b := "# R\n\n## Risks\n\n### 2. Rollback failure during multi-agent remediation\n- **Impact:** High\n- **Probability:** Medium\n"
		_, an := analyseFields(t, a, b)
		require.Len(t, an.Fields, 2, "both fields of the one risk differ")
		for _, fd := range an.Fields {
			assert.Equal(t, "R-NEW-001 Rollback mechanism fails on atomic write race", fd.Item)
		}
		for _, p := range an.ByCategory(CategoryContradiction) {
			assert.NotEqual(t, string(FieldConflict), p.Kind, "a weak match may still be two risks: no contradiction %+v", p)
		}
	})

	t.Run("shared words another item also uses do not make one item", func(t *testing.T) {
		// "rollback" names two of a's risks: only "fail" tells them apart.
		a := "# R\n\n## Risks\n\n| ID | Risk | Severity | Probability |\n|---|---|---|---|\n" +
			"| R-003 | Rollback snapshot is stale | Low | Low |\n" +
			"| R-NEW-001 | Rollback mechanism fails on atomic write race | Medium | Low |\n"
		b := "# R\n\n## Risks\n\n### 2. Rollback failure during multi-agent remediation\n- **Impact:** High\n- **Probability:** Medium\n"
		_, an := analyseFields(t, a, b)
		assert.Empty(t, an.Fields)
	})

	t.Run("one distinctive shared word does not make one item", func(t *testing.T) {
		a := "# R\n\n## Risks\n\n| ID | Risk | Severity | Probability |\n|---|---|---|---|\n| R-005 | The cache outage | Low | Low |\n"
		b := "# R\n\n## Risks\n\n### 4. The gateway outage\n- **Impact:** High\n- **Probability:** Medium\n"
		_, an := analyseFields(t, a, b)
		assert.Empty(t, an.Fields)
	})

	t.Run("prerequisites of one task that differ are a dependency contradiction", func(t *testing.T) {
		task := func(deps string) string {
			return "# P\n\n### Task 4.1: Update M5 Tasklist with Dependency Ordering\n```yaml\ndepends_on: " + deps + "\n```\n"
		}
		_, an := analyseFields(t, task("[3.1, 3.2, 3.3]"), task("[3.1]"))
		require.Len(t, an.Fields, 1)
		var kinds []string
		for _, p := range an.ByCategory(CategoryContradiction) {
			kinds = append(kinds, p.Kind)
		}
		assert.Contains(t, kinds, string(DependencyConflict))

		_, an = analyseFields(t, task("[3.1, 3.2]"), task("[3.2, 3.1]"))
		for _, p := range an.ByCategory(CategoryContradiction) {
			assert.NotEqual(t, string(DependencyConflict), p.Kind, "the same prerequisites in another order agree")
		}
	})

	t.Run("prerequisites of two different tasks, or written as prose, are no dependency contradiction", func(t *testing.T) {
		a := "# P\n\n### Task 4.1: Update the tasklist\n```yaml\ndepends_on: [3.1, 3.2]\n```\n"
		b := "# P\n\n### Task 4.2: Update the tasklist\n```yaml\ndepends_on: [3.1]\n```\n"
		c := "# P\n\n### Task 4.1: Update the tasklist\n\n**Depends on**: the schema change landing first\n"
		for _, other := range []string{b, c} {
			_, an := analyseFields(t, a, other)
			for _, p := range an.ByCategory(CategoryContradiction) {
				assert.NotEqual(t, string(DependencyConflict), p.Kind, "%+v", p)
			}
		}
	})

	t.Run("numbers with units", func(t *testing.T) {
		a := "# P\n\n### Task 2.1: Verify\n```yaml\nestimated_tokens: 300\n```\n\n## Cost\n\n- **Dev hours**: 12-16h including tests.\n"
		b := "# P\n\n### Task 2.1: Verify\n```yaml\nestimated_tokens: 400\n```\n\n## Cost\n\n- **Dev hours**: 12-16 hours with tests.\n"
		_, an := analyseFields(t, a, b)
		require.Len(t, an.Fields, 1)
		assert.Equal(t, "estimated_tokens", an.Fields[0].Field)
	})
}

func TestContentRowsNameFields(t *testing.T) {
	doc := func(verdict, text string) string {
		return "# Decision\n\n## Caching proposal\n\n" + text + "\n\n**Verdict**: " + verdict + "\n"
	}
	t.Run("differing fields are named with every value", func(t *testing.T) {
		_, a := analyseFields(t,
			doc("ACCEPT", "The proposal adds a read-through cache in front of the catalogue service."),
			doc("MODIFY", "Caching helps, but the invalidation story needs a written design first."),
			doc("REJECT", "Operational load from another stateful component outweighs the latency gain."))
		row := contentRow(t, a, "Caching proposal")
		assert.Contains(t, row.Reason, "Verdict: ACCEPT / MODIFY / REJECT")
		assert.Equal(t, Medium, row.Rating)
		for _, pos := range row.Positions {
			assert.True(t, strings.HasPrefix(pos.Text, "Verdict: "), pos.Text)
			assert.NotContains(t, pos.Text, "words;", "no word counts beside the fields")
		}
	})
	t.Run("agreeing fields and different wording are no difference", func(t *testing.T) {
		_, a := analyseFields(t,
			doc("ACCEPT", "The proposal adds a read-through cache in front of the catalogue service."),
			doc("ACCEPT", "Operational experience with similar layers elsewhere makes this low risk overall."))
		for _, p := range a.ByCategory(CategoryContent) {
			assert.NotEqual(t, "Caching proposal", p.Title, "an item every variant rates alike is not a row: %+v", p)
		}
	})
	t.Run("agreeing fields with a rationale of very different detail are no difference", func(t *testing.T) {
		_, a := analyseFields(t,
			doc("ACCEPT", "Fine."),
			doc("ACCEPT", "The cache sits in front of the catalogue service with a 300 s TTL, invalidated on every write by the "+
				"catalogue's change feed; p99 reads drop from 180 ms to 12 ms in the load test of 2,000 requests per second, "+
				"and the memory budget of 4 GiB per node holds the 95th percentile working set."))
		for _, p := range a.ByCategory(CategoryContent) {
			assert.NotEqual(t, "Caching proposal", p.Title, "the verdicts agree; more detail is no disagreement: %+v", p)
		}
	})
}

func contentRow(t *testing.T, a *Analysis, title string) Point {
	t.Helper()
	for _, p := range a.ByCategory(CategoryContent) {
		if p.Title == title {
			return p
		}
	}
	t.Fatalf("no content row %q among %+v", title, a.ByCategory(CategoryContent))
	return Point{}
}

func FuzzExtractFields(f *testing.F) {
	for _, s := range []string{
		"", "**Verdict**: OVERSTATED. x", "**Verdict: CONFIRMED**. y", "- **Severity:** Low-Medium",
		"| ID | Risk | Probability | Impact |\n|---|---|---|---|\n| R-005 | Lenient | Low | Medium |",
		"### Task 2.1\n```yaml\nestimated_tokens: 300\nverification: direct-test\n```",
		"**Scope**: `a/b.py`, `c.py` (x, y)", "**K**: ~150-280k tokens", "**K**: (((", "**:**", "* *: *", "__K__: v",
		"# T\n\n## NR-1 (2.1) D2.1 RISK-004 models.py:1-2\n\nKey: VALUE",
		"| Ref | Actual | Verdict |\n|---|---|---|\n| `x.py:4-8` (sig) | Sig spans lines 5-9. The body is lines 6-9. | should be 5-9 |",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		d, err := Parse("fuzz.md", []byte(src))
		if err != nil {
			return
		}
		lines := strings.Split(d.Source, "\n")
		for _, fl := range ExtractFields(d, 1) {
			if fl.Line < 1 || fl.Line > len(lines) || !strings.Contains(lines[fl.Line-1], fl.Quote) {
				t.Fatalf("field %+v does not quote its line", fl)
			}
			if fl.Section >= len(d.Sections) || fl.Variant != 1 || fl.Name == "" {
				t.Fatalf("bad field %+v", fl)
			}
			v := fldNormalise(fl)
			_ = fldClass(fl.Name, v)
			_ = newFldItemKey(fl.Item)
		}
		compareFields([]*Document{d, d}, nil, nil)
	})
}

func TestTextChoicesContradict(t *testing.T) {
	proposal := func(t3 string) string {
		return "# Proposal\n\n## T3 — Tier selection\n\n**Choice: " + t3 + "**\n\nMore text on the tier.\n"
	}
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{"different decisions", "Auto-tier via the rubric, with deep depth forced.", "T2-deep always, no auto-routing.", true},
		{"one decision worded twice", "Auto-tier via the rubric, with deep depth forced.", "Auto-routing via the rubric with deep depth always.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, a := analyseFields(t, proposal(tt.a), proposal(tt.b))
			found := false
			for _, p := range a.ByCategory(CategoryContradiction) {
				found = found || p.Kind == string(ChoiceConflict)
			}
			assert.Equal(t, tt.want, found)
			require.NotEmpty(t, a.Fields, "either way the decisions differ as fields")
		})
	}
}

func TestFieldValueClass(t *testing.T) {
	doc := func(verdict string) string {
		return "# Review\n\n## Delta 2.1\n\n**Verdict**: " + verdict + "\n"
	}
	_, a := analyseFields(t, doc("CONFIRMED. The code is there."), doc("Accurate"), doc("OVERSTATED. Not a blocker."))
	require.Len(t, a.Fields, 1)
	var classes []string
	for _, v := range a.Fields[0].Values {
		classes = append(classes, v.Class)
	}
	assert.Equal(t, []string{"agree", "agree", "overstated"}, classes, "two wordings of one verdict share a class")
}

// TestItemKeyTokens holds the tokens a key keeps from its making to the
// tokens read from its parts, for keys made from titles and for the
// copies uniqueIDs makes when it drops an id two items share.
func TestItemKeyTokens(t *testing.T) {
	plain := func(k *fldItemKey) []string {
		if k.header {
			return headerTokens
		}
		out := slices.Clone([]string(k.words))
		for _, id := range k.ids {
			var parts []string
			for _, n := range id.num {
				parts = append(parts, strconv.Itoa(n))
			}
			out = append(out, "#"+strings.Join(parts, "."))
		}
		for _, r := range k.refs {
			out = append(out, "@"+r)
		}
		return out
	}
	titles := []string{"", "Retry policy", "Task T03.04 (2.1)", "NR-3 — `models.py:218-228` gateway", "Phase 2: Rollout",
		"Delta 2.1 and Delta 3", "`executor.py:12` only"}
	var refs []fldRef
	for i, title := range titles {
		k := newFldItemKey(title)
		assert.Equal(t, plain(&k), k.tokens(), "%q", title)
		refs = append(refs, fldRef{Field: Field{Item: title}, key: &k})
		// The same id in two items of one variant is no id of either.
		if i > 0 {
			k2 := newFldItemKey(title + " follow-up")
			refs = append(refs, fldRef{Field: Field{Item: title + " follow-up"}, key: &k2})
		}
	}
	uniqueIDs(refs)
	dropped := 0
	for _, r := range refs {
		assert.Equal(t, plain(r.key), r.key.tokens(), "%q after uniqueIDs", r.Item)
		if len(r.key.ids) == 0 && strings.ContainsAny(r.Item, "0123456789") {
			dropped++
		}
	}
	assert.Positive(t, dropped, "uniqueIDs dropped no id: the copies are not tested")
}
