package challenge

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestParseGolden parses replies in both dialects and compares the result
// with golden JSON; each must also survive rendering and parsing again.
func TestParseGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "replies", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no replies: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".md")
		t.Run(name, func(t *testing.T) {
			r, err := Parse(readFile(t, f))
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.MarshalIndent(r, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("replies", name+".golden.json"), string(b)+"\n")
			roundTrip(t, r)
		})
	}
}

// roundTrip checks that r.Markdown() parses back to r.
func roundTrip(t *testing.T, r *Reply) {
	t.Helper()
	md := r.Markdown()
	again, err := Parse(md)
	if err != nil {
		t.Fatalf("rendering does not parse: %v\n%s", err, md)
	}
	want := *r
	want.Dialect, again.Dialect = "", ""
	if !reflect.DeepEqual(&want, again) {
		a, _ := json.MarshalIndent(&want, "", " ")
		b, _ := json.MarshalIndent(again, "", " ")
		t.Fatalf("round trip changed the reply:\n%s\nwant:\n%s\ngot:\n%s", md, a, b)
	}
}

func TestParseDialects(t *testing.T) {
	tests := []struct {
		file        string
		dialect     Dialect
		severities  []Severity
		status      ConvergenceStatus
		remaining   int
		assessments []AssessmentStatus
	}{
		{"native-round1.md", DialectNative, []Severity{Critical, Significant, Minor}, Continue, 3, nil},
		{"native-round2.md", DialectNative, []Severity{Critical}, Deadlock, 1, []AssessmentStatus{Unaddressed, Addressed, Rejected}},
		{"fork-round1.md", DialectFork, []Severity{Critical, Significant, Minor}, Continue, 3, nil},
		{"fork-round2.md", DialectFork, []Severity{Minor}, Converging, 1, []AssessmentStatus{Addressed, Addressed, Rejected}},
		{"messy.md", DialectFork, []Severity{Significant, Significant}, Converging, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r, err := Parse(readFile(t, filepath.Join("testdata", "replies", tt.file)))
			if err != nil {
				t.Fatal(err)
			}
			if r.Dialect != tt.dialect {
				t.Errorf("dialect %s, want %s", r.Dialect, tt.dialect)
			}
			var sev []Severity
			for _, c := range r.Challenges {
				sev = append(sev, c.Severity)
			}
			if !reflect.DeepEqual(sev, tt.severities) {
				t.Errorf("severities %v, want %v", sev, tt.severities)
			}
			if r.Convergence.Status != tt.status || r.Convergence.Remaining != tt.remaining {
				t.Errorf("convergence %+v, want %s with %d remaining", r.Convergence, tt.status, tt.remaining)
			}
			var as []AssessmentStatus
			for _, a := range r.Assessments {
				as = append(as, a.Status)
			}
			if !reflect.DeepEqual(as, tt.assessments) {
				t.Errorf("assessments %v, want %v", as, tt.assessments)
			}
		})
	}
}

func TestParseMessyDetails(t *testing.T) {
	r, err := Parse(readFile(t, filepath.Join("testdata", "replies", "messy.md")))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Challenges) != 2 || r.Round != 2 || r.MaxRounds != 3 {
		t.Fatalf("got %d challenges, round %d/%d", len(r.Challenges), r.Round, r.MaxRounds)
	}
	c1, c2 := r.Challenges[0], r.Challenges[1]
	if c1.Category != VerificationGaps || c1.Title != "Verification gaps: the dashboard task" {
		t.Errorf("challenge 1 heading: %q / %q", c1.Category, c1.Title)
	}
	if want := `Task 3 says only "Implement the delivery dashboard" and gives no way to check it.`; c1.Concern != want {
		t.Errorf("multi-line concern %q, want %q", c1.Concern, want)
	}
	if len(c1.Quotes) != 2 || c1.Quotes[0].Line != 35 || c1.Quotes[1].Line != 37 {
		t.Errorf("evidence list quotes %+v", c1.Quotes)
	}
	if strings.Contains(c1.Recommendation, "nobody notices") || c1.Recommendation != "Add a Verify line." {
		t.Errorf("unknown field leaked into the recommendation: %q", c1.Recommendation)
	}
	if c2.Category != MissingWiring || c2.Concern != "No task connects the dashboard to an API." {
		t.Errorf("challenge 2: %+v", c2)
	}
	if c2.Evidence != `"Implement the delivery dashboard."` || c2.Recommendation != "Plan the listing endpoint." {
		t.Errorf("heading field and plain fields: evidence %q, recommendation %q", c2.Evidence, c2.Recommendation)
	}
}

func TestParseForkFields(t *testing.T) {
	r, err := Parse(readFile(t, filepath.Join("testdata", "replies", "fork-round1.md")))
	if err != nil {
		t.Fatal(err)
	}
	if r.Checkpoint != "roadmap" || r.Round != 1 || r.MaxRounds != 3 {
		t.Errorf("header: checkpoint %q round %d/%d", r.Checkpoint, r.Round, r.MaxRounds)
	}
	c := r.Challenges[1]
	if c.Title != "Requirement coverage gap" || c.Category != Coverage || c.Affected != "AUTH-04" {
		t.Errorf("fork challenge: %+v", c)
	}
	if r.Convergence.Rationale == "" || r.Convergence.Recommendation != "CONTINUE" {
		t.Errorf("fork convergence: %+v", r.Convergence)
	}
}

func TestParseErrors(t *testing.T) {
	ch := func(fields string) string {
		return "## CHALLENGES\n\n**Round:** 1/3\n\n### Challenge 1: Conflicts\n" + fields
	}
	tests := []struct {
		name, reply, want string
		line              int
	}{
		{"empty", "", "neither a ## CHALLENGES nor a ## NO OBJECTIONS heading", 0},
		{"prose", "The plan looks mostly fine to me.", "neither", 0},
		{"both markers", "## CHALLENGES\n### Challenge 1: X\n**Concern:** a\n**Severity:** minor\n## NO OBJECTIONS\n", "both", 5},
		{"no challenges", "## CHALLENGES\n\n**Round:** 1/3\n", "lists no challenges", 0},
		{"no concern", ch("**Severity:** minor\n"), "challenge 1 has no concern", 5},
		{"no severity", ch("**Concern:** a\n"), "challenge 1 has no severity", 5},
		{"unknown severity", ch("**Concern:** a\n**Severity:** urgent\n"), `severity "urgent" is not critical`, 7},
		{"template severity", ch("**Concern:** a\n**Severity:** critical | significant | minor\n"), "lists the choices", 7},
		{"placeholder concern", ch("**Concern:** [What's problematic]\n**Severity:** minor\n"), "template's placeholder", 6},
		{"placeholder heading", "## CHALLENGES\n### Challenge 1: [Category]\n**Concern:** a\n**Severity:** minor\n", "heading is the template's placeholder", 2},
		{"duplicate number", ch("**Concern:** a\n**Severity:** minor\n### Challenge 1: Feasibility\n**Concern:** b\n**Severity:** minor\n"), "challenge 1 appears twice", 8},
		{"bad round", "## CHALLENGES\n**Round:** [N]/[max]\n### Challenge 1: X\n**Concern:** a\n**Severity:** minor\n", `round "[N]/[max]" is not N/M`, 2},
		{"truncated", "## ADVERSARY CHALLENGES\n**Challenges Found:** 3\n### Challenge 1: X\n**Severity:** MAJOR\n**Concern:** a\n", "declares 3 challenges but lists 1", 2},
		{"bad status", ch("**Concern:** a\n**Severity:** minor\n### Convergence Assessment\n**Status:** finished\n"), "convergence status", 9},
		{"template status", ch("**Concern:** a\n**Severity:** minor\n### Convergence Assessment\n**Status:** continue | converging | deadlock\n"), "lists the choices", 9},
		{"bad count", ch("**Concern:** a\n**Severity:** minor\n### Convergence Assessment\n**Remaining concerns:** some\n"), "not a count", 9},
		{"bad assessment", ch("**Concern:** a\n**Severity:** minor\n### Defense Assessment\n| Challenge 1 | maybe | x |\n"), "assessment status", 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.reply)
			if err == nil {
				t.Fatalf("parsed: %+v", r)
			}
			if !errors.Is(err, ErrUnparseable) {
				t.Errorf("error %v does not match ErrUnparseable", err)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tt.line {
				t.Errorf("error %v: want line %d", err, tt.line)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q lacks %q", err, tt.want)
			}
		})
	}
}

// TestParseLenient covers what the parser accepts without complaint.
func TestParseLenient(t *testing.T) {
	tests := []struct {
		name, reply string
		check       func(*Reply) bool
	}{
		{"no evidence is not a parse error", "## CHALLENGES\n### Challenge 1: Feasibility\n**Concern:** a\n**Severity:** minor\n",
			func(r *Reply) bool { return r.Challenges[0].Evidence == "" && r.Challenges[0].Category == Feasibility }},
		{"assessments without new challenges", "## CHALLENGES\n### Defense Assessment\n| Previous Challenge | Status | Notes |\n|---|---|---|\n| Challenge 1 | unaddressed | still there |\n",
			func(r *Reply) bool { return len(r.Assessments) == 1 && r.Assessments[0].Status == Unaddressed }},
		{"bold field with colon outside", "## CHALLENGES\n### Challenge 2 - Scope creep\n**Concern**: a\n**Severity**: Minor\n",
			func(r *Reply) bool { return r.Challenges[0].Number == 2 && r.Challenges[0].Category == ScopeCreep }},
		{"bare uppercase marker", "NO OBJECTIONS\n\nNothing to add.",
			func(r *Reply) bool { return r.NoObjections && r.Statement == "Nothing to add." }},
		{"high medium low", "## CHALLENGES\n### Challenge 1: X\n**Concern:** a\n**Severity:** High\n",
			func(r *Reply) bool { return r.Challenges[0].Severity == Critical }},
		{"partially addressed stays open", "## CHALLENGES\n### Defense Assessment\n| Challenge 1 | partially addressed | |\n",
			func(r *Reply) bool { return r.Assessments[0].Status == Unaddressed }},
		{"no convergence section", "## CHALLENGES\n### Challenge 1: X\n**Concern:** a\n**Severity:** minor\n",
			func(r *Reply) bool { return r.Convergence.Status == "" }},
		{"crlf", "## NO OBJECTIONS\r\n\r\n**Round:** 2/3\r\n", func(r *Reply) bool { return r.NoObjections && r.Round == 2 }},
		{"example in a fence does not count", "## NO OBJECTIONS\n\nThe format I was given:\n```\n## CHALLENGES\n```\n",
			func(r *Reply) bool { return r.NoObjections }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.reply)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(r) {
				b, _ := json.MarshalIndent(r, "", " ")
				t.Errorf("unexpected reply:\n%s", b)
			}
			roundTrip(t, r)
		})
	}
}

func TestSeverityMapping(t *testing.T) {
	for in, want := range map[string]Severity{"BLOCKING": Critical, "MAJOR": Significant, "MINOR": Minor,
		"critical": Critical, "**Significant**": Significant, "minor (cosmetic)": Minor} {
		if got, err := ParseSeverity(in); err != nil || got != want {
			t.Errorf("ParseSeverity(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
