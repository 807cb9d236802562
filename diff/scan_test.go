package diff

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/crucible-go/crucible/internal/samplegen"
)

// The expressions the matchers of scan.go replace, kept as their oracles.
var (
	percentileRE  = regexp.MustCompile(`(?i)^[^,;.]{0,24}?\b(?:at\s+(?:the\s+)?(\d{1,2}(?:\.\d+)?)(?:st|nd|rd|th)\s+percentile|p(\d{2}(?:\.\d+)?)\b)`)
	headingNumber = regexp.MustCompile(`^\d+(?:\.\d+)*[.)]?(?:\s|$)`)
	// "**Key**: value" and "**Key:** value", bold or italic.
	fldLabelKeyREs = []*regexp.Regexp{
		regexp.MustCompile(`^\*\*([^*\n]+?)\*\*\s*[:：]\s*(.*)$`),
		regexp.MustCompile(`^\*\*([^*\n]+?)[:：]\*\*\s*(.*)$`),
		regexp.MustCompile(`^__([^_\n]+?)__\s*[:：]\s*(.*)$`),
		regexp.MustCompile(`^__([^_\n]+?)[:：]__\s*(.*)$`),
		regexp.MustCompile(`^\*([^*\n]+?)\*\s*[:：]\s*(.*)$`),
		regexp.MustCompile(`^\*([^*\n]+?)[:：]\*\s*(.*)$`),
	}
	fldLabelSpanRE = regexp.MustCompile(`^\*\*([^*:\n]+?):\s+([^*\n]+?)\*\*(.*)$`)
	fldPlainKeyRE  = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9 _./()&'-]*?)\s*:\s+(\S.*)$`)
	statementLabel = regexp.MustCompile(`^[\s>*_\-+\d.)]*[A-Za-z][A-Za-z0-9]*[-_.]?\d[\w.-]*[*_]*\s*:`)
	fldListMarkRE  = regexp.MustCompile(`^(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?`)
)

var scanInputs = []string{
	"", " ", "1", "1.", "1.2", "1.2.", "1.2.3 Goals", "3. Requirements", "2.1 Goals", "4)", "4) x", "4)x", "12x", "1.x", "1. x",
	"1..2 a", "1.2)", "1.2) ", "1\t", "1\n", "1\v", "1\u00a0x", "§1", "a1", "٣ Arabic", "10.20.30.", "1.2.3.4)\r",
	"latency at the 95th percentile", "at p99, the", "p99 latency", ", p99", "200 ms at the 99.9th percentile for reads",
	"ms p95", "ms — with p50 at", "ms at the\n95th percentile", "ms, then at the 95th percentile", "ms (p99)", "ms at P99",
	"ms At The 99Th Percentile", "\xff p99", "ééééééééééééééééééééééé p99", "ééééééééééééééééééééééééé p99",
	"at 1ſt percentile", "at 1St percentile", "at 2nd  percentiles", "at 3RD\tpercentile", "at 950th percentile",
	"at 9.th percentile", "at 9.5th percentile", "at the the 5th percentile", "at the5th percentile", "at  5th percentile",
	"at5th percentile", "xat 5th percentile", "_p99", "p99_", "p99.9", "p99.9x", "p99.x", "p999", "p9", "p99.", "P50.25 ms",
	"at 95th percentile", "at 95thpercentile", "at 95th\npercentile", "at 95th perCENTile", "what p99", "at 95th percentilé",
	"abcdefghijklmnopqrstuvwx p99", "abcdefghijklmnopqrstuvw p99", "at the 95th, p99", "a.p99", "at the 5th percentile p99",
	"at ٥th percentile", "at 5tH percentile", "at 5ſT percentile", "at 5st percentile",
	"**Key**: value", "**Key:** value", "**Key** : value", "**Key**：value", "**Key：** value", "__Key__: v", "__Key:__ v",
	"*Key*: v", "*Key:* v", "**Key**:", "**Key**: a\nb", "**Key**:\n value", "**Ke\ny**: v", "****: v", "**:** v",
	"***Key***: v", "**Key*: v", "**Key: value**rest", "**Key:  **x", "**Key: **x", "**Key:\n**x", "**Key: v**\n",
	"**Key:** **Bold** rest", "**A: b: c**", "**A*: b**", "**Key: value** | **Other**: x", "* item", "*Key:*",
	"Key: value", "Key : value", "Key:value", "Key:  value", "Key:\tvalue", "Key\t: value", "K: v", "k: v", "1K: v",
	"Key (ms): 5", "Key&Co: x", "Key!: x", "Key: \n", "Key: a\nb", "Key \n : v", "A b  : c", "A:b: c", "Ключ: v",
	"- item", "-item", "* [ ] task", "- [x] done", "1. one", "12) two", "1234. no", "1.x", "- [X]  ", "+\t[ ]\tx", "- [ ]x",
	"Task T03.04 costs 8 turns", "NR-6, R-005 (OV-1) and S3", "see 2.1.", "`PhaseStatus` T1|T2", "'A-1':\"B-2\"", "x\xffT-1",
	"NOTIF-04: The system must", "- **FR-001**: x", "> 1. T03.04 : y", "A1_: z", "A_: z", "A_1: z", "a.1.b-c__**\t:", "1) R-005:",
	"AB12CD-3x: v", "A-1-2: v", "A--1: v", "A-: v", "é1: v", "A1é: v", "x A1: v", "_*A1*_ : v", "A1 B: v", "9: v", "A: v", "A1",
	"Phase 3: Certification", "P3", "# 4", "ſ 5", "phase - 03", "\tphase",
	"- [y] x", "-  ", "-", "999.  a", "__Key__ ： v", "__A__:", "__Key:__", "__K：__ x\n", "*Key* : v\t", "*K*:",
}

func oracleHeadingNumberEnd(s string) (int, bool) {
	if loc := headingNumber.FindStringIndex(s); loc != nil {
		return loc[1], true
	}
	return 0, false
}

func oraclePercentile(s string) string {
	m := percentileRE.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return m[1] + m[2]
}

// submatches returns re's submatches of s after the whole match, nil
// for none.
func submatches(re *regexp.Regexp, s string) []string {
	if m := re.FindStringSubmatch(s); m != nil {
		return m[1:]
	}
	return nil
}

// oracleItemIDs is itemIDs as it was written with strings.FieldsFunc.
func oracleItemIDs(text string) []string {
	var ids []string
	for _, f := range codeSpans(text) {
		if isCodeIdentifier(f) {
			ids = append(ids, f)
		}
	}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == ',' || r == ';' || r == '(' || r == ')' || r == '`' || r == '*' || r == '|' || r == ':' || r == '"' || r == '\''
	}) {
		f = strings.TrimRight(f, ".")
		if isItemID(f) {
			ids = append(ids, strings.ToUpper(f))
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

func checkScanners(t *testing.T, s string) {
	t.Helper()
	lower := asciiLower(s)
	subs := []string{"default", " rated ", "-line", "unchanged", "actually", "a", "zz", "", "p9", "Ab"}
	if len(s) > 3 {
		subs = append(subs, strings.ToLower(s[1:3]), strings.ToLower(s[len(s)-2:]))
	}
	for _, sub := range subs {
		if got, want := hasFold(s, sub), strings.Contains(lower, sub); got != want {
			t.Errorf("hasFold(%q, %q) = %v; Contains of the ASCII-lowered text says %v", s, sub, got, want)
		}
	}
	if got, want := itemIDs(s), oracleItemIDs(s); !slices.Equal(got, want) {
		t.Errorf("itemIDs(%q) = %q; FieldsFunc says %q", s, got, want)
	}
	for k, re := range fldLabelKeyREs {
		var got []string
		if key, value, ok := labelKeyMatch(s, k); ok {
			got = []string{key, value}
		}
		if want := submatches(re, s); !slices.Equal(got, want) {
			t.Errorf("labelKeyMatch(%q, %d) = %q; %v says %q", s, k, got, re, want)
		}
	}
	var got []string
	if key, value, rest, ok := labelSpanMatch(s); ok {
		got = []string{key, value, rest}
	}
	if want := submatches(fldLabelSpanRE, s); !slices.Equal(got, want) {
		t.Errorf("labelSpanMatch(%q) = %q; the expression says %q", s, got, want)
	}
	got = nil
	if key, value, ok := plainKeyMatch(s); ok {
		got = []string{key, value}
	}
	if want := submatches(fldPlainKeyRE, s); !slices.Equal(got, want) {
		t.Errorf("plainKeyMatch(%q) = %q; the expression says %q", s, got, want)
	}
	// seriesItem skips a key without a digit, which seriesRE cannot match
	if !containsDigit(s) && seriesRE.MatchString(s) {
		t.Errorf("seriesRE matches %q, which has no digit", s)
	}
	wantLabel, wantLabelOK := 0, false
	if loc := statementLabel.FindStringIndex(s); loc != nil {
		wantLabel, wantLabelOK = loc[1], true
	}
	if end, ok := statementLabelEnd(s); end != wantLabel || ok != wantLabelOK {
		t.Errorf("statementLabelEnd(%q) = %d, %v; the expression says %d, %v", s, end, ok, wantLabel, wantLabelOK)
	}
	wantMark, wantMarkOK := 0, false
	if loc := fldListMarkRE.FindStringIndex(s); loc != nil {
		wantMark, wantMarkOK = loc[1], true
	}
	if end, ok := listMarkEnd(s); end != wantMark || ok != wantMarkOK {
		t.Errorf("listMarkEnd(%q) = %d, %v; the expression says %d, %v", s, end, ok, wantMark, wantMarkOK)
	}
	wantEnd, wantOK := oracleHeadingNumberEnd(s)
	if end, ok := headingNumberEnd(s); end != wantEnd || ok != wantOK {
		t.Errorf("headingNumberEnd(%q) = %d, %v; the expression says %d, %v", s, end, ok, wantEnd, wantOK)
	}
	if got, want := percentileMatch(s), oraclePercentile(s); got != want {
		t.Errorf("percentileMatch(%q) = %q; the expression says %q", s, got, want)
	}
}

func TestScannersMatchExpressions(t *testing.T) {
	matched := 0
	for _, s := range append(append(scanInputs, phraseInputs...), fastPathInputs...) {
		checkScanners(t, s)
		if oraclePercentile(s) != "" {
			matched++
		}
		// the same text further on, as the callers meet it
		checkScanners(t, "x "+s)
		checkScanners(t, strings.ToUpper(s))
	}
	if matched < 10 {
		t.Fatalf("only %d inputs match the percentile expression: the cases test little", matched)
	}
	for _, re := range append([]*regexp.Regexp{fldLabelSpanRE, fldPlainKeyRE, fldListMarkRE, statementLabel}, fldLabelKeyREs...) {
		n := 0
		for _, s := range scanInputs {
			if re.MatchString(s) {
				n++
			}
		}
		if n < 2 {
			t.Errorf("only %d inputs match %v: the cases test little", n, re)
		}
	}
}

func FuzzScanners(f *testing.F) {
	for _, s := range scanInputs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkScanners(t, s)
	})
}

// mergeUnique is slices.Compact of the two sorted slices sorted together.
func TestMergeUnique(t *testing.T) {
	pool := []string{"", "a", "ab", "b", "ba", "c", "é", "z"}
	for n := range 300 {
		var a, b []string
		for k := range n % 11 {
			a = append(a, pool[(n*3+k*5)%len(pool)])
		}
		for k := range n % 5 {
			b = append(b, pool[(n*7+k*3)%len(pool)])
		}
		slices.Sort(a)
		slices.Sort(b)
		want := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(a), b...))))
		a0, b0 := slices.Clone(a), slices.Clone(b)
		if got := mergeUnique(a, b); !slices.Equal(got, want) {
			t.Fatalf("mergeUnique(%q, %q) = %q, want %q", a0, b0, got, want)
		}
		if !slices.Equal(b, b0) {
			t.Fatalf("mergeUnique(%q, %q) changed b to %q", a0, b0, b)
		}
	}
}

// A section's fields read in step across its blocks are strings.Fields of
// its joined text.
func TestFieldReaderIsFields(t *testing.T) {
	d, err := Parse("v.md", samplegen.Spec(3, 24<<10))
	if err != nil {
		t.Fatal(err)
	}
	read := func(st *sectionText) []string {
		var out []string
		r := newFieldReader(st)
		for f, ok := r.next(); ok; f, ok = r.next() {
			out = append(out, f)
		}
		return out
	}
	n := 0
	for si := range d.Sections {
		st := ownText(d, si)
		if got, want := read(&st), strings.Fields(st.fullText()); !slices.Equal(got, want) {
			t.Fatalf("section %d: fields %q, want %q", si, got, want)
		}
		if len(st.fullText()) != st.size {
			t.Fatalf("section %d: size %d, text of %d bytes", si, st.size, len(st.fullText()))
		}
		n++
	}
	for _, s := range append(append([]string{"", "  ", "a  b\\tc", "\u00a0x\u0085y\u2003", "\xffa b\xff"}, scanInputs...), phraseInputs...) {
		st := sectionText{text: s}
		if got, want := read(&st), strings.Fields(s); !slices.Equal(got, want) {
			t.Fatalf("fields of %q: %q, want %q", s, got, want)
		}
		n++
	}
	if n < 20 {
		t.Fatal("too few texts compared")
	}
}

// allEqual is the comparison of the members' strings.Fields.
func TestAllEqualIsFields(t *testing.T) {
	texts := []sectionText{{text: "a b"}, {text: " a  b "}, {text: "a b c"}, {text: "a"}, {text: ""}, {text: "\t"}, {text: "ab"}}
	d, err := Parse("v.md", []byte("# T\n\n## S\n\na\n\nb\n\n## U\n\na b\n\n## V\n\nab\n"))
	if err != nil {
		t.Fatal(err)
	}
	for si := range d.Sections {
		texts = append(texts, ownText(d, si))
	}
	differ := 0
	for i := range texts {
		for j := range texts {
			want := slices.Equal(strings.Fields(texts[i].fullText()), strings.Fields(texts[j].fullText()))
			if got := allEqual(texts, []int{i, j}); got != want {
				t.Errorf("allEqual(%q, %q) = %v, want %v", texts[i].fullText(), texts[j].fullText(), got, want)
			}
			if got := allEqual(texts, []int{i, i, j}); got != want {
				t.Errorf("allEqual(%q, %q, %q) = %v, want %v", texts[i].fullText(), texts[i].fullText(), texts[j].fullText(), got, want)
			}
			if !want {
				differ++
			}
		}
	}
	if differ == 0 {
		t.Fatal("no texts differ")
	}
}
