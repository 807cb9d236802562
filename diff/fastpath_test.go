package diff

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/samplegen"
	"github.com/crucible-go/crucible/internal/words"
)

// The fast paths of the quantity reader against the plain forms they
// replace: each must give the same answer on every input.

// plainApproximate is approximate as first written: the window
// lower-cased with strings.ToLower.
func plainApproximate(before string) bool {
	before = strings.ToLower(tail(strings.TrimRight(before, " *_`("), 24))
	for _, m := range approxMarks {
		if strings.HasSuffix(before, m) && (len(m) == 1 || m == "≈" || len(before) == len(m) || !isWordByte(before[len(before)-len(m)-1])) {
			return true
		}
	}
	return false
}

// plainQuoted is quoted without the test for a curly quotation mark.
func plainQuoted(sent string, start, end int) bool {
	before, after := tail(sent[:start], quoteWindow), head(sent[end:], quoteWindow)
	if strings.Count(before, "\"")%2 == 1 && strings.Contains(after, "\"") {
		return true
	}
	return strings.LastIndex(before, "“") > strings.LastIndex(before, "”") && strings.Contains(after, "”")
}

var fastPathInputs = []string{
	"", "a", "About 30 ms", "ABOUT 30", "the latency is roughly 200 ms", "Approx. 5 days", "~ 3", "≈ 4", "some 10",
	"wholesome 10", "ÉTÉ About 5", "Ça. 5", "x, y; z: w. (v — u", "when 80% consumed", "If, when — once 5",
	"a—b", "a\xe2\x80", "\x94\x80\xe2", "\xe2\x80\x94", "x\xe2\xe2\x80\x94y", "\xe2\x80\x94\x80", "—,", ",—",
	"the “94% convergence” figure", "the “94% convergence figure", "said ”10 ms“", "\"10\" and \"20",
	strings.Repeat("word, ", 40) + "about 7", strings.Repeat("é", 30) + " roughly 9",
}

func TestQuantityFastPaths(t *testing.T) {
	for _, s := range fastPathInputs {
		assert.Equal(t, strings.LastIndexAny(s, ",;:.(—"), lastClauseMark(s), "lastClauseMark(%q)", s)
		assert.Equal(t, plainApproximate(s), approximate(s), "approximate(%q)", s)
		for i := 0; i <= len(s); i++ {
			for j := i; j <= len(s) && j <= i+4; j++ {
				assert.Equal(t, plainQuoted(s, i, j), quoted(s, i, j), "quoted(%q, %d, %d)", s, i, j)
			}
		}
	}
}

func FuzzQuantityFastPaths(f *testing.F) {
	for _, s := range fastPathInputs {
		f.Add(s, uint8(len(s)/2))
	}
	f.Fuzz(func(t *testing.T, s string, at uint8) {
		if got, want := lastClauseMark(s), strings.LastIndexAny(s, ",;:.(—"); got != want {
			t.Fatalf("lastClauseMark(%q) = %d, want %d", s, got, want)
		}
		if got, want := approximate(s), plainApproximate(s); got != want {
			t.Fatalf("approximate(%q) = %v, want %v", s, got, want)
		}
		if got, want := words.Tokens(strings.ToLower(s)), words.Tokens(s); !slices.Equal(got, want) {
			t.Fatalf("Tokens(ToLower(%q)) = %q, want %q", s, got, want)
		}
		if got, want := hasColon(s), strings.ContainsAny(s, ":："); got != want {
			t.Fatalf("hasColon(%q) = %v, want %v", s, got, want)
		}
		i := min(int(at), len(s))
		if got, want := quoted(s, i, i), plainQuoted(s, i, i); got != want {
			t.Fatalf("quoted(%q, %d) = %v, want %v", s, i, got, want)
		}
	})
}

// TestWordClasses holds the joined lookup to the sets it is built from.
func TestWordClasses(t *testing.T) {
	sets := []struct {
		set   map[string]bool
		class wordClass
	}{
		{insignificant, classInsignificant}, {negationWords, classNegation}, {dependencyWords, classDependency},
		{constraintWords, classConstraint}, {modalWords, classModal},
	}
	probe := []string{"", "latency", "MUST", "must", "not", "can't", "until", "max", "cfg", "the", "depends", "limit", "é"}
	for _, s := range sets {
		for w := range s.set {
			probe = append(probe, w)
		}
	}
	for w := range synonyms {
		probe = append(probe, w)
	}
	for _, w := range probe {
		for _, s := range sets {
			assert.Equal(t, s.set[w], wordClasses[w].class&s.class != 0, "%q in class %b", w, s.class)
		}
		assert.Equal(t, synonyms[w], wordClasses[w].synonym, "synonym of %q", w)
	}
}

// TestTokensOfLower: classify tokenises the lower-cased sentence it
// already has; Tokens lower-cases again, and lower-casing twice is
// lower-casing once.
func TestTokensOfLower(t *testing.T) {
	for _, s := range append(fastPathInputs, "İstanbul ǅemal ΣΑΣ Straße K KELVIN", "\xff\xfeMAX-RETRY") {
		assert.Equal(t, words.Tokens(s), words.Tokens(strings.ToLower(s)), "%q", s)
	}
}

// plainSubjectIDs is subjectIDs as first written: the label pattern run
// on every quote.
func plainSubjectIDs(quote, value string) []string {
	if loc := statementLabel.FindStringIndex(quote); loc != nil {
		quote = quote[loc[1]:]
	}
	if i := strings.Index(quote, value); i > 0 {
		quote = quote[:i]
	}
	return itemIDs(quote)
}

var labelInputs = []struct{ quote, value string }{
	{"NOTIF-04: The system must retry 3 times", "3 times"},
	{"- **T03.04**: costs 8 turns, T03.06 costs 6", "6"},
	{"Task T03.04 costs 8 turns", "8 turns"},
	{"> 2.1 R-005 ships in 4 weeks", "4 weeks"},
	{"models.py:482 sets a 30 s timeout", "30 s"},
	{"no label here, NR-6 takes 5 days", "5 days"},
	{"", ""}, {":", ":"}, {"A1:", "1"}, {"é1: 5 ms", "5 ms"},
}

func TestSubjectIDsFastPath(t *testing.T) {
	for _, in := range labelInputs {
		assert.Equal(t, plainSubjectIDs(in.quote, in.value), subjectIDs(in.quote, in.value), "%q / %q", in.quote, in.value)
	}
}

func FuzzSubjectIDs(f *testing.F) {
	for _, in := range labelInputs {
		f.Add(in.quote, in.value)
	}
	f.Fuzz(func(t *testing.T, quote, value string) {
		if got, want := subjectIDs(quote, value), plainSubjectIDs(quote, value); !slices.Equal(got, want) {
			t.Fatalf("subjectIDs(%q, %q) = %q, want %q", quote, value, got, want)
		}
	})
}

// plainMergeRepeated is mergeRepeated as first written: each claim looked
// for in the merged conflict's claims.
func plainMergeRepeated(cs []Contradiction) []Contradiction {
	at := map[string]int{}
	var out []Contradiction
	places := map[string]int{}
	for _, c := range cs {
		i, ok := at[c.Key]
		if !ok {
			at[c.Key] = len(out)
			out = append(out, c)
			continue
		}
		added := false
		for _, cl := range c.Claims {
			if !slices.ContainsFunc(out[i].Claims, func(o Claim) bool { return o.Variant == cl.Variant && o.Line == cl.Line }) {
				out[i].Claims = append(out[i].Claims, cl)
				added = true
			}
		}
		if added {
			places[c.Key]++
		}
		out[i].Impact = maxRating(out[i].Impact, c.Impact)
	}
	for i, c := range out {
		if n := places[c.Key]; n > 0 {
			sortClaims(out[i].Claims)
			out[i].Reason += fmt.Sprintf("; the same subject conflicts in %d more place%s", n, plural(n))
		}
	}
	return out
}

func TestMergeRepeatedFastPath(t *testing.T) {
	cl := func(v, line int) Claim { return Claim{Variant: v, Line: line, Text: fmt.Sprint(v, ":", line)} }
	mk := func(key string, impact Rating, claims ...Claim) Contradiction {
		return Contradiction{Key: key, Impact: impact, Reason: "r", Claims: claims}
	}
	inputs := [][]Contradiction{
		nil,
		{mk("a", Low, cl(0, 1), cl(1, 1))},
		{mk("a", Low, cl(0, 1), cl(1, 1)), mk("a", High, cl(0, 1), cl(1, 1))},
		{mk("a", Low, cl(0, 1), cl(1, 1)), mk("b", Low, cl(0, 2)), mk("a", Medium, cl(1, 5), cl(0, 1), cl(1, 5)), mk("a", Low, cl(2, 3))},
		{mk("a", Low, cl(0, 1), cl(0, 1), cl(1, 1)), mk("a", Low, cl(0, 1), cl(2, 9), cl(2, 9))},
	}
	for range 20 { // a subject repeated in many places
		last := len(inputs) - 1
		inputs[last] = append(inputs[last], mk("a", Low, cl(len(inputs[last])%3, len(inputs[last])*7%5), cl(1, 1)))
	}
	for i, cs := range inputs {
		a := plainMergeRepeated(slices.Clone(cs))
		b := mergeRepeated(slices.Clone(cs))
		assert.Equal(t, a, b, "input %d", i)
	}
}

func TestVariantSet(t *testing.T) {
	var s variantSet
	seen := map[int]bool{}
	for _, v := range []int{0, 3, 3, 63, 64, 64, 200, 0, 9, 200, 63, 1000} {
		assert.Equal(t, !seen[v], s.add(v), "add(%d)", v)
		seen[v] = true
	}
}

// TestSortClaimsByIndex holds the index sort to sortClaims, whose order
// it must keep (ties included).
func TestSortClaimsByIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 60 {
		cs := make([]Claim, n)
		for i := range cs {
			cs[i] = Claim{Variant: rng.IntN(3), Line: rng.IntN(5), Text: string(rune('a' + rng.IntN(2))), Block: i}
		}
		a, b := slices.Clone(cs), slices.Clone(cs)
		sortClaims(a)
		sortClaimsByIndex(b)
		assert.Equal(t, a, b, "n=%d", n)
	}
}

// plainFreq and plainEmphasis are the frequencies and emphasis as first
// written, with a map of every long word's stem.
func plainFreq(text string) map[string]int {
	freq := map[string]int{}
	words.Each(text, func(w string) {
		if words.IsStopWord(w) || !hasLetter(w) {
			return
		}
		if len(w) >= 4 {
			freq[words.Stem(w)]++
		}
	})
	return freq
}

func plainEmphasis(freq map[string]int, texts []sectionText, members []int, v int) []string {
	type wf struct {
		w string
		n int
	}
	var list []wf
	for stem, n := range freq {
		if n < 2 {
			continue
		}
		others := false
		for _, o := range members {
			if o != v && texts[o].words.Has(stem) {
				others = true
				break
			}
		}
		if !others {
			list = append(list, wf{stem, n})
		}
	}
	slices.SortFunc(list, func(a, b wf) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.w, b.w)) })
	var out []string
	for _, e := range list[:min(2, len(list))] {
		out = append(out, e.w)
	}
	return out
}

func TestEmphasisFastPath(t *testing.T) {
	var docs []*Document
	for i := range 3 {
		d, err := Parse("v", samplegen.Spec(uint64(i+1), 24<<10))
		require.NoError(t, err)
		docs = append(docs, d)
	}
	extra := []string{"", "Caching caching CACHES cache cache; risks risk risky", "Retry retries retrying retry policy policies the the and"}
	compared := 0
	for si := range docs[0].Sections {
		texts := make([]sectionText, len(docs)+1)
		var members []int
		for v, d := range docs {
			if si < len(d.Sections) {
				texts[v] = ownText(d, si)
				members = append(members, v)
			}
		}
		texts[len(docs)] = sectionText{doc: docs[0], text: extra[si%len(extra)]}
		members = append(members, len(docs))
		for _, v := range members {
			texts[v].measure()
		}
		for _, v := range members {
			want := plainEmphasis(plainFreq(texts[v].fullText()), texts, members, v)
			assert.Equal(t, want, emphasis(texts[v], texts, members, v), "section %d variant %d", si, v)
			if len(want) > 0 {
				compared++
			}
		}
	}
	require.Greater(t, compared, 20)
}

func TestHasColon(t *testing.T) {
	for _, s := range append(fastPathInputs, "a：b", "\xef\xbc", "\xef\xbc\x9a", "\xef\xef\xbc\x9a", "x\xbc\x9a", "**Key**: v", "none here") {
		assert.Equal(t, strings.ContainsAny(s, ":："), hasColon(s), "%q", s)
	}
}

// plainRawPhrase is rawPhrase as first written, with FieldsFunc and Join.
func plainRawPhrase(s string) string {
	f := strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '=' || r == '`' || r == '*' })
	trim := func(w string) string { return strings.ToLower(strings.Trim(w, ".,;:!?()[]\"'")) }
	insignificant := func(w string) bool {
		w = trim(w)
		return w == "" || words.IsStopWord(w) || fillers[w] || lexicon.IsRequirementID(w) || !hasLetter(w)
	}
	for len(f) > 0 && insignificant(f[0]) {
		f = f[1:]
	}
	for len(f) > 0 && insignificant(f[len(f)-1]) {
		f = f[:len(f)-1]
	}
	if len(f) > 6 {
		f = f[len(f)-6:]
	}
	return strings.Trim(strings.Join(f, " "), ".,;:!?()[]\"'")
}

// plainPercentileOf is percentileOf gated by hasPercentile only.
func plainPercentileOf(after string) string {
	if !hasPercentile(after) {
		return ""
	}
	m := percentileRE.FindStringSubmatch(after)
	if m == nil {
		return ""
	}
	return m[1] + m[2]
}

var phraseInputs = []string{
	"", " ", "the", "Delivery of the first release takes", "The p99 ingest latency must be under",
	"**Retry timeout** = ", "`max_retries` is", "  FR-001 requires the  API\tgateway to  respond within",
	"a b c d e f g h i j k", "Élan of the ÉQUIPE is", "THE MAXIMUM Connection Pool Size", "(see [Caching]) \"the\" limit",
	"latency at the 95th percentile", "at p99, the", "p99 latency", ", p99", "200 ms at the 99.9th percentile for reads",
	"ms p95", "ms — with p50 at", "ms at the\n95th percentile", "ms, then at the 95th percentile", strings.Repeat("word ", 30) + "p99",
	"ms (p99)", "ms at P99", "ms At The 99Th Percentile", "\xff p99", "ééééééééééééééééééééééé p99", "ééééééééééééééééééééééééé p99",
}

func TestPhraseFastPaths(t *testing.T) {
	for _, s := range append(phraseInputs, fastPathInputs...) {
		assert.Equal(t, plainRawPhrase(s), rawPhrase(s), "rawPhrase(%q)", s)
		assert.Equal(t, plainPercentileOf(s), percentileOf(s), "percentileOf(%q)", s)
	}
}

func FuzzPhraseFastPaths(f *testing.F) {
	for _, s := range phraseInputs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := rawPhrase(s), plainRawPhrase(s); got != want {
			t.Fatalf("rawPhrase(%q) = %q, want %q", s, got, want)
		}
		if got, want := percentileOf(s), plainPercentileOf(s); got != want {
			t.Fatalf("percentileOf(%q) = %q, want %q", s, got, want)
		}
		toks := words.Tokens(s)
		infos := make([]wordInfo, len(toks))
		for i, w := range toks {
			infos[i] = wordClasses[w]
		}
		if got, want := significantOf(toks, infos), significant(toks); !slices.Equal(got, want) {
			t.Fatalf("significantOf(%q) = %q, want %q", s, got, want)
		}
	})
}
