package diff

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/internal/samplegen"
)

// alignedGroups renders the alignment as one string per topic: its
// sections as "A:Title", in variant order, joined by " | ".
func alignedGroups(docs []*Document, ts []topic) []string {
	var out []string
	for _, t := range ts {
		var parts []string
		for v, si := range t.sections {
			if si >= 0 {
				parts = append(parts, Label(v)+":"+docs[v].Sections[si].Title)
			}
		}
		out = append(out, strings.Join(parts, " | "))
	}
	return out
}

func parseVariants(t *testing.T, srcs ...string) []*Document {
	t.Helper()
	var docs []*Document
	for i, s := range srcs {
		d, err := Parse(fmt.Sprintf("%c.md", 'a'+i), []byte(s))
		require.NoError(t, err)
		docs = append(docs, d)
	}
	return docs
}

func TestAlignSections(t *testing.T) {
	tests := []struct {
		name  string
		srcs  []string
		want  []string // topics that must be in the alignment, exactly
		alone []string // sections that must have no counterpart, as "A:Title"
	}{
		{
			name: "renumbered sections",
			srcs: []string{
				"# Cache Design\n\n## 1. Caching\n\nEntries expire after 300 seconds in the `lru_cache` layer.\n\n## 2. Retries\n\nFailed calls retry three times with `backoff_ms` doubling.\n",
				"# Cache Design\n\n## 1. Overview\n\nA short overview.\n\n## 3. Retries\n\nFailed calls retry four times with `backoff_ms` doubling.\n\n## 5. Caching\n\nEntries expire after 600 seconds in the `lru_cache` layer.\n",
			},
			want: []string{
				"A:Cache Design | B:Cache Design",
				"A:1. Caching | B:5. Caching",
				"A:2. Retries | B:3. Retries",
			},
			alone: []string{"B:1. Overview"},
		},
		{
			name: "H1 against H2 sections, titles of the documents",
			srcs: []string{
				"# Upload Service\n\n# Scope\n\nUploads up to `max_upload_mb` go through the gateway.\n\n# Risks\n\nA vendor outage stops uploads; we fail over to the standby bucket.\n",
				"# Upload Service Plan\n\n## Scope\n\nUploads up to `max_upload_mb` go through the gateway.\n\n## Risks\n\nA vendor outage stops uploads; fail over to the standby bucket.\n",
			},
			want: []string{
				"A:Scope | B:Scope",
				"A:Risks | B:Risks",
			},
		},
		{
			name: "phases one level deeper, with different titles",
			srcs: []string{
				"# Roadmap\n\n## Plan\n\n### Phase 1: Parser\n\nBuild `report_parser.py` and the `Finding` model.\n\n### Phase 2: Interactive Prompt and Filtering\n\nAdd `--scope` filtering and the interactive prompt in `prompt.py`.\n",
				"# Roadmap\n\n## Phase 1 — Structured Findings Parsing\n\n### Key Actions\n\nWrite `report_parser.py` to produce `Finding` records.\n\n## Phase 2 — Scope Selection and Filtering\n\n### Key Actions\n\nImplement `--scope` filtering; the prompt lives in `prompt.py`.\n",
			},
			want: []string{
				"A:Roadmap | B:Roadmap",
				"A:Phase 1: Parser | B:Phase 1 — Structured Findings Parsing",
				"A:Phase 2: Interactive Prompt and Filtering | B:Phase 2 — Scope Selection and Filtering",
			},
			alone: []string{"A:Plan"},
		},
		{
			name: "synonym titles with shared rare terms",
			srcs: []string{
				"# Service\n\n## Rollout\n\nShip with `deploy_canary.sh` to 5% of traffic, watch `error_budget_burn`, then widen.\n\n## Key Risks\n\nThe `ledger_sync` job may lag; page the on-call after 10 minutes.\n",
				"# Service\n\n## Delivery Mechanism\n\nThe `deploy_canary.sh` script takes 5% of traffic first while `error_budget_burn` is watched.\n\n## Risks & Mitigations\n\nIf `ledger_sync` lags more than 10 minutes the on-call is paged.\n",
			},
			want: []string{
				"A:Rollout | B:Delivery Mechanism",
				"A:Key Risks | B:Risks & Mitigations",
			},
		},
		{
			name: "review items by id, renumbered and reworded",
			srcs: []string{
				"# Review A\n\n## Findings\n\n### Delta 2.1 -- Auto-resume still present\n\nThe `auto_resume` flag is still read.\n\n### Delta 2.2 -- Gate defined but not wired\n\n`DEVIATION_GATE` is never registered.\n\n### NR-3 -- Step ordering\n\nThe `deviation-analysis` step must run first.\n",
				"# Review B\n\n## 1. Accuracy\n\n### 1.1 Delta 2.2 (gate unwired) — Accurate\n\nConfirmed: `DEVIATION_GATE` is defined only.\n\n### 1.2 Delta 2.1 (auto-resume) — Accurate\n\nConfirmed: `auto_resume` is read at start-up.\n\n## 2. Redundancy\n\n### NR-3 — Step ordering\n\nAlready implied; `deviation-analysis` precedes the gate.\n",
			},
			want: []string{
				"A:Delta 2.1 -- Auto-resume still present | B:1.2 Delta 2.1 (auto-resume) — Accurate",
				"A:Delta 2.2 -- Gate defined but not wired | B:1.1 Delta 2.2 (gate unwired) — Accurate",
				"A:NR-3 -- Step ordering | B:NR-3 — Step ordering",
			},
			alone: []string{"B:2. Redundancy"},
		},
		{
			name: "parents of aligned children align",
			srcs: []string{
				"# Review\n\n## Implementation Ordering Analysis\n\n### Step 1: Add the enum value\n\nAdd `PASS_RECOVERED` to `PhaseStatus`.\n\n### Step 2: Executor writes the result file\n\n`execute_sprint()` writes `result.json`.\n\n### Step 3: Tests\n\nCover `detect_prompt_too_long()`.\n",
				"# Review\n\n## Section 3: Merge-Order Dependency Audit\n\n### Step 1: Add PASS_RECOVERED to PhaseStatus\n\nThe `PhaseStatus` enum gains `PASS_RECOVERED`.\n\n### Step 2: Executor writes result file\n\n`execute_sprint()` now writes `result.json` itself.\n\n### Step 3: Tests\n\nTests for `detect_prompt_too_long()`.\n",
			},
			want: []string{
				"A:Implementation Ordering Analysis | B:Section 3: Merge-Order Dependency Audit",
				"A:Step 3: Tests | B:Step 3: Tests",
			},
		},
		{
			name: "three variants, one consistent cluster each",
			srcs: []string{
				"# Search\n\n## Indexing\n\nDocuments are indexed by `ingest_worker` within 30 seconds.\n\n## Query API\n\n`GET /search` returns 20 hits per page.\n",
				"# Search\n\n## Query API\n\n`GET /search` returns 50 hits per page.\n\n## Indexing Pipeline\n\nThe `ingest_worker` indexes documents within 60 seconds.\n\n## Relevance\n\nBM25 with a `freshness_boost` ranks results.\n",
				"# Search\n\n## 1. Ingestion and Indexing\n\n`ingest_worker` indexes within 30 seconds.\n\n## 2. Search Endpoint\n\n`GET /search` pages 20 hits.\n",
			},
			want: []string{
				"A:Search | B:Search | C:Search",
				"A:Indexing | B:Indexing Pipeline | C:1. Ingestion and Indexing",
				"A:Query API | B:Query API | C:2. Search Endpoint",
			},
			alone: []string{"B:Relevance"},
		},
		{
			name: "generic repeated sub-headings follow their parents",
			srcs: []string{
				"# Plan\n\n## Phase 1: Storage\n\nMove `orders_db` to the managed cluster.\n\n### Deliverables\n\nA migrated database.\n\n## Phase 2: Caching\n\nPut `catalog_cache` in front of the API.\n\n### Deliverables\n\nA warm cache.\n",
				"# Plan\n\n## Phase 2: Caching\n\nPut `catalog_cache` in front of the API.\n\n### Deliverables\n\nA warm cache and dashboards.\n\n## Phase 1: Storage\n\nMove `orders_db` to the managed cluster.\n\n### Deliverables\n\nThe migrated database.\n",
			},
			want: []string{
				"A:Phase 1: Storage | B:Phase 1: Storage",
				"A:Phase 2: Caching | B:Phase 2: Caching",
			},
		},
		{
			name: "a section without counterpart stays alone",
			srcs: []string{
				"# Billing\n\n## Invoicing\n\nInvoices are issued on the 1st via `invoice_job`.\n\n## Dunning\n\nFailed payments are retried on days 1, 3 and 7 by `dunning_worker`.\n",
				"# Billing\n\n## Invoicing\n\nInvoices go out on the 1st via `invoice_job`.\n\n## Glossary\n\nInvoice: a bill.\n",
			},
			want:  []string{"A:Invoicing | B:Invoicing"},
			alone: []string{"A:Dunning", "B:Glossary"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkAligned(t, tt.srcs, tt.want, tt.alone) })
	}
}

// checkTopics asserts what holds for every alignment: every section of
// every variant in exactly one topic, at most one per variant each.
func checkTopics(t *testing.T, docs []*Document, ts []topic) {
	t.Helper()
	seen := make([][]int, len(docs))
	for v, d := range docs {
		seen[v] = make([]int, len(d.Sections))
	}
	for _, tp := range ts {
		require.Len(t, tp.sections, len(docs))
		require.Positive(t, tp.covered(), "empty topic %q", tp.title)
		for v, si := range tp.sections {
			if si >= 0 {
				seen[v][si]++
			}
		}
	}
	for v := range docs {
		for si, n := range seen[v] {
			require.Equal(t, 1, n, "section %d of variant %s is in %d topics", si, Label(v), n)
		}
	}
}

func TestAlignSectionsRepeatedHeadingsUnderTheirParents(t *testing.T) {
	// The "Deliverables" read the same everywhere, and sit in the other
	// order of phases in B: only their parents tell them apart.
	docs := parseVariants(t,
		"# Plan\n\n## Phase 1: Storage\n\nMove `orders_db` to the managed cluster.\n\n### Deliverables\n\nDone when the checks pass.\n\n## Phase 2: Caching\n\nPut `catalog_cache` in front of the API.\n\n### Deliverables\n\nDone when the checks pass.\n",
		"# Plan\n\n## Phase 2: Caching\n\nPut `catalog_cache` in front of the API.\n\n### Deliverables\n\nDone when the checks pass.\n\n## Phase 1: Storage\n\nMove `orders_db` to the managed cluster.\n\n### Deliverables\n\nDone when the checks pass.\n",
	)
	ts := alignSections(docs)
	checkTopics(t, docs, ts)
	n := 0
	for _, tp := range ts {
		a, b := tp.sections[0], tp.sections[1]
		if a < 0 || b < 0 || docs[0].Sections[a].Title != "Deliverables" {
			continue
		}
		n++
		pa, pb := docs[0].Sections[a].Parent, docs[1].Sections[b].Parent
		assert.Equal(t, docs[0].Sections[pa].Title, docs[1].Sections[pb].Title, "Deliverables paired across phases")
	}
	assert.Equal(t, 2, n, "both Deliverables paired")
}

func TestAlignSectionsJoinsOnlyConsistentTopics(t *testing.T) {
	// B's one section covers what A and C keep apart: B pairs with each,
	// but A's Caching and C's Retries have nothing in common and must not
	// end in one topic through B.
	docs := parseVariants(t,
		"# Service\n\n## Caching\n\nEntries live in `lru_cache` for 300 seconds and `cache_warmer` refills them.\n\n## Monitoring\n\nDashboards in `grafana_board`.\n",
		"# Service\n\n## Caching and Retries\n\nEntries live in `lru_cache` for 300 seconds and `cache_warmer` refills them. Calls retry with `backoff_ms` and give up after `max_attempts`.\n\n## Monitoring\n\nDashboards in `grafana_board`.\n",
		"# Service\n\n## Retries\n\nCalls retry with `backoff_ms` and give up after `max_attempts`.\n\n## Monitoring\n\nDashboards in `grafana_board`.\n",
	)
	ts := alignSections(docs)
	checkTopics(t, docs, ts)
	groups := alignedGroups(docs, ts)
	assert.Contains(t, groups, "A:Monitoring | B:Monitoring | C:Monitoring")
	for _, g := range groups {
		assert.False(t, strings.Contains(g, "A:Caching |") && strings.Contains(g, "C:Retries"), "inconsistent topic %q", g)
	}
	assert.True(t, slices.Contains(groups, "A:Caching | B:Caching and Retries") || slices.Contains(groups, "B:Caching and Retries | C:Retries"),
		"B's section joins one of them: %q", groups)
}

func TestAlignSectionsEdgeCases(t *testing.T) {
	for name, srcs := range map[string][]string{
		"no headings":  {"Just text.\n", "- a list\n"},
		"one empty":    {"", "# Title\n\n## A\n\ntext\n"},
		"both empty":   {"", ""},
		"titles only":  {"# One\n", "# Two\n"},
		"same heading": {"## Notes\n\nx\n\n## Notes\n\ny\n", "## Notes\n\ny\n\n## Notes\n\nx\n"},
	} {
		t.Run(name, func(t *testing.T) {
			docs := parseVariants(t, srcs...)
			ts := alignSections(docs)
			checkTopics(t, docs, ts)
		})
	}
	docs := parseVariants(t, "# One\n", "# Two\n")
	assert.Equal(t, []string{"A:One | B:Two"}, alignedGroups(docs, alignSections(docs)), "the documents' titles align")
}

func TestAlignSectionsDeterministic(t *testing.T) {
	var docs []*Document
	for i := range 4 {
		d, err := Parse(fmt.Sprintf("v%d.md", i), samplegen.Spec(uint64(i+1), 20<<10))
		require.NoError(t, err)
		docs = append(docs, d)
	}
	first := alignedGroups(docs, alignSections(docs))
	checkTopics(t, docs, alignSections(docs))
	for range 5 {
		// Maps inside the alignment are iterated in a new order each run;
		// none may show in the result.
		assert.Equal(t, first, alignedGroups(docs, alignSections(docs)))
	}
	// Topics come in the order of their first variant and position.
	ts := alignSections(docs)
	last := -1
	for _, tp := range ts {
		o := topicOrder(tp)
		assert.Greater(t, o, last)
		last = o
	}
}

func TestTopicAlignmentRendering(t *testing.T) {
	docs := parseVariants(t,
		"# Spec\n\n## 1. Caching\n\nEntries expire after 300 s in `lru_cache`.\n\n## 2. Retries\n\nRetry with `backoff_ms`.\n",
		"# Spec\n\n## 1. Retries\n\nRetry with `backoff_ms`, three times.\n\n## 2. Caching | Layer\n\nEntries expire after 600 s in `lru_cache`.\n",
	)
	a, err := Analyze(t.Context(), docs, WithClock(fixedClock))
	require.NoError(t, err)
	md := a.Markdown()
	require.NoError(t, Validate(md))
	i, j, k := strings.Index(md, "## Unique Contributions"), strings.Index(md, "## Topic Alignment"), strings.Index(md, "## Summary")
	require.True(t, i >= 0 && j > i && k > j, "Topic Alignment sits between Unique Contributions and Summary")
	section := md[j:k]
	assert.Contains(t, section, "| Topic | Variant A | Variant B |\n|---|---|---|\n")
	assert.Contains(t, section, "| Spec | §Spec (L1) | §Spec (L1) |")
	assert.Contains(t, section, "| Caching | §1. Caching (L3) | §2. Caching \\| Layer (L7) |")
	assert.Contains(t, section, "| Retries | §2. Retries (L7) | §1. Retries (L3) |")
	for _, tp := range a.Topics {
		require.Len(t, tp.Headings, 2)
	}
}

func TestValidateTopicAlignment(t *testing.T) {
	a, err := Analyze(t.Context(), loadSet(t, "unique"), WithClock(fixedClock))
	require.NoError(t, err)
	md := a.Markdown()
	require.NoError(t, Validate(md))
	tests := []struct {
		name, old, new, want string
	}{
		{"missing section", "## Topic Alignment", "## Alignment", `missing section "Topic Alignment"`},
		{"bad cell", "§2 Invoicing (L8)", "Invoicing", "is neither a section reference nor —"},
		{"empty cell", "| Dunning | — | §4 Dunning (L18) | — |", "| Dunning | — | §4 Dunning (L18) |", `cell "" is neither`},
		{"bad header", "| Topic | Variant A |", "| Area | Variant A |", "header is not"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Contains(t, md, tt.old)
			err := Validate(strings.Replace(md, tt.old, tt.new, 1))
			require.ErrorIs(t, err, ErrInvalidArtifact)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	// A table with no topics at all is fine.
	b, err := Analyze(t.Context(), parseVariants(t, "text\n", "more text\n"), WithClock(fixedClock))
	require.NoError(t, err)
	assert.Contains(t, b.Markdown(), "## Topic Alignment\n\n_None found._\n")
	require.NoError(t, Validate(b.Markdown()))
}

// BenchmarkAlignSections measures the alignment alone on the variants of
// BenchmarkAnalyze: 10 of about 100 KB and 200 KB.
func BenchmarkAlignSections(b *testing.B) {
	for _, size := range []int{100 << 10, 200 << 10} {
		_, docs := benchVariants(b, size)
		b.Run(fmt.Sprintf("10x%dKB", size>>10), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				alignSections(docs)
			}
		})
	}
}

func TestTitleTerms(t *testing.T) {
	doc, err := Parse("t.md", []byte("# Review\n\n## 3. Spec Language\n\n### 4.4 MAJOR_REWRITE Assessment\n\n### 3.2 Phase 2: Interactive Prompt\n\n"+
		"## Section 5: Line Number Verification Matrix\n\n### SS10.2 Replacement Language\n\n### NR-3 — `deviation-analysis` step\n\n"+
		"### T1 — Integration boundary\n\n### SOL-D: Discard\n\n### Cold-Start Overhead\n"))
	require.NoError(t, err)
	want := map[string][]string{
		"4.4 MAJOR_REWRITE Assessment":               {"§4.4", "major_rewrite", "assess"},
		"3.2 Phase 2: Interactive Prompt":            {"phase", "phase#2", "intera", "prompt"},
		"Section 5: Line Number Verification Matrix": {"line", "number", "verifi", "matrix"},
		"SS10.2 Replacement Language":                {"ss10.2", "§10.2", "replac", "langua"},
		"NR-3 — deviation-analysis step":             {"nr-3", "deviat", "analys", "step"},
		"T1 — Integration boundary":                  {"t1", "integr", "bounda"},
		"SOL-D: Discard":                             {"sol-d", "discar"},
		"Cold-Start Overhead":                        {"cold", "start", "overhe"},
	}
	found := 0
	for si, s := range doc.Sections {
		if w, ok := want[s.Title]; ok {
			found++
			assert.Equal(t, w, titleTerms(doc, si), s.Title)
		}
	}
	assert.Equal(t, len(want), found)
}

// checkAligned aligns the variants and checks that the groups want are
// formed and that the sections alone have no counterpart.
func checkAligned(t *testing.T, srcs, want, alone []string) {
	t.Helper()
	docs := parseVariants(t, srcs...)
	ts := alignSections(docs)
	groups := alignedGroups(docs, ts)
	for _, w := range want {
		assert.Contains(t, groups, w)
	}
	for _, a := range alone {
		assert.Contains(t, groups, a, "%s has a counterpart", a)
	}
	checkTopics(t, docs, ts)
}

// TestSimTableAdd holds simTable.add, which fills the table once and then
// merges later pairs in place from the back, to the plain rule: the table
// is the sorted union of every pair added, each with its similarity.
func TestSimTableAdd(t *testing.T) {
	tests := []struct {
		name   string
		rounds [][]uint64
	}{
		{"one round", [][]uint64{{1, 5, 9}}},
		{"empty rounds", [][]uint64{nil, {2, 3}, nil}},
		{"before all", [][]uint64{{10, 20, 30}, {1, 2}}},
		{"after all", [][]uint64{{10, 20, 30}, {40, 50}}},
		{"interleaved", [][]uint64{{10, 20, 30}, {5, 15, 25, 35}, {1, 12, 40}}},
		{"more than the headroom", [][]uint64{{100}, {1, 2, 3, 4, 5, 6, 7, 8}, {50, 150}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tab simTable
			want := map[uint64]alignSim{}
			for r, pairs := range tt.rounds {
				sims := make([]alignSim, len(pairs))
				for i, p := range pairs {
					sims[i] = alignSim{title: float64(p), own: float64(r)}
					want[p] = sims[i]
				}
				tab.add(pairs, sims)
				// The caller reuses its buffers: the table must not share them.
				clear(pairs)
				clear(sims)
			}
			keys := slices.Sorted(maps.Keys(want))
			require.Equal(t, len(keys), len(tab.pairs))
			require.Equal(t, len(keys), len(tab.sims))
			for i, k := range keys {
				assert.Equal(t, k, tab.pairs[i])
				assert.Equal(t, want[k], tab.sims[i], "pair %d", k)
			}
		})
	}
}

// bodyTermsPlain is how the alignment read a section's text before the
// terms of each token were remembered: every token classified and
// stemmed where it occurs.
func bodyTermsPlain(d *Document, si int, emit func(term string, inProse bool)) {
	eachBodyToken(d, si, func(tok string, inProse bool) {
		tokenTerms(tok, func(t string) { emit(t, inProse) })
	})
}

// TestTokenTermIDs holds the remembered term ids of tokens to the terms
// read afresh: the same terms, numbered in the same order, with the same
// item-id marks, over the sections of variants that repeat their words.
func TestTokenTermIDs(t *testing.T) {
	var docs []*Document
	for i := range 3 {
		d, err := Parse(fmt.Sprintf("v%d.md", i+1), samplegen.Spec(uint64(i+1), 16<<10))
		require.NoError(t, err)
		docs = append(docs, d)
	}
	d, err := Parse("ids.md", []byte("# T\n\n## A\n\nSee NR-3, `cmd/main.go`, x-ray-z, cold-start and 2.1 in OV-4.\n\n| k | v |\n|---|---|\n| NR-3 | 12 |\n"))
	require.NoError(t, err)
	docs = append(docs, d)
	plainIDs, cachedIDs := map[string]int32{}, map[string]int32{}
	idIn := func(m map[string]int32) func(string) int32 {
		return func(t string) int32 {
			if i, ok := m[t]; ok {
				return i
			}
			m[t] = int32(len(m))
			return m[t]
		}
	}
	plainID, cachedID := idIn(plainIDs), idIn(cachedIDs)
	tt := newTokenTermIDs()
	hits := 0
	for _, d := range docs {
		for si := range d.Sections {
			type term struct {
				id    int32
				prose bool
			}
			var want, got []term
			bodyTermsPlain(d, si, func(t string, inProse bool) {
				want = append(want, term{plainID(t), inProse && !isPlainWord(t) && isHeadingIDTerm(t)})
			})
			eachBodyToken(d, si, func(tok string, inProse bool) {
				if _, ok := tt.byToken[tok]; ok {
					hits++
				}
				for _, i := range tt.ids(tok, cachedID) {
					got = append(got, term{i, inProse && tt.proseID[i]})
				}
			})
			require.Equal(t, want, got, "%s section %d", d.Name, si)
		}
	}
	require.Equal(t, plainIDs, cachedIDs)
	require.Positive(t, hits)
}
