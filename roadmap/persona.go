package roadmap

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/internal/lexicon"
	"github.com/crucible-go/crucible/internal/words"
)

// PersonaDetector chooses the primary persona of a spec (Wave 1B's
// domain analysis): model-only agents of --agents inherit it, and the
// roadmap of the standard and multi-spec paths is written from its
// perspective. Implementations must be safe for concurrent use.
type PersonaDetector interface {
	DetectPersona(ctx context.Context, spec *diff.Document) (Detection, error)
}

// PersonaDetectorFunc adapts a function to [PersonaDetector].
type PersonaDetectorFunc func(ctx context.Context, spec *diff.Document) (Detection, error)

// DetectPersona calls f.
func (f PersonaDetectorFunc) DetectPersona(ctx context.Context, spec *diff.Document) (Detection, error) {
	return f(ctx, spec)
}

// Detection is a detector's verdict: the primary persona and, for the
// keyword detector, what every persona scored.
type Detection struct {
	Primary string `json:"primary"`
	// Scores lists the personas that scored, highest first (ties in
	// [DomainPersonas] order).
	Scores []PersonaScore `json:"scores,omitempty"`
	// Reason says how the primary persona was chosen.
	Reason string `json:"reason"`
}

// PersonaScore is one persona's domain-keyword score over a spec.
type PersonaScore struct {
	Persona string `json:"persona"`
	Score   int    `json:"score"`
	// Keywords are the matched keywords, most frequent first (ties
	// alphabetical), at most five.
	Keywords []string `json:"keywords,omitempty"`
}

// DefaultPersona is the primary persona when no domain keyword matches.
const DefaultPersona = "architect"

// KeywordDetector is the deterministic default [PersonaDetector]: it scores
// each persona's domain by counting its keywords in the spec (words are
// lower-cased and lightly stemmed; a keyword in a heading counts
// [HeadingWeight] times, in body text once) and picks the highest score,
// ties broken in [DomainPersonas] order. With no match at all the primary
// persona is Default, or [DefaultPersona] when that is empty.
type KeywordDetector struct {
	Default string
}

var _ PersonaDetector = KeywordDetector{}

// HeadingWeight is how many body-text matches a keyword in a heading is
// worth: a section titled "Security" says more about the spec's domain than
// one sentence mentioning a token.
const HeadingWeight = 3

// DetectPersona implements [PersonaDetector].
func (k KeywordDetector) DetectPersona(ctx context.Context, spec *diff.Document) (Detection, error) {
	if err := ctx.Err(); err != nil {
		return Detection{}, err
	}
	def := k.Default
	if def == "" {
		def = DefaultPersona
	}
	if spec == nil {
		return Detection{Primary: def, Reason: "no specification; " + def + " by default"}, nil
	}
	t := newTally()
	for _, s := range spec.Sections {
		t.add(s.Title, HeadingWeight)
	}
	for _, b := range spec.Blocks {
		if b.Kind != diff.Code {
			t.add(b.Text, 1)
		}
	}
	scores := t.scores()
	if len(scores) == 0 {
		return Detection{Primary: def, Reason: "no domain keywords matched; " + def + " by default"}, nil
	}
	parts := make([]string, 0, 3)
	for _, s := range scores[:min(3, len(scores))] {
		parts = append(parts, fmt.Sprintf("%s %d", s.Persona, s.Score))
	}
	return Detection{Primary: scores[0].Persona, Scores: scores,
		Reason: "highest domain keyword score (" + strings.Join(parts, ", ") + ")"}, nil
}

// domain is one persona's domain: its keywords (stemmed; a space joins the
// two words of a phrase) and the name of a roadmap phase working on it.
type domain struct {
	persona  string
	phase    string
	gate     string
	check    string // what the persona verifies for each requirement it owns
	keywords []string
}

// domains lists the personas whose domain the detector scores, in the order
// that breaks ties: foundations first. Read-only.
var domains = []domain{
	{"architect", "Architecture and Foundations", "Interfaces, dependencies and boundaries of this phase documented and reviewed", "interface contract reviewed against the dependent components",
		[]string{"architecture", "architectural", "design", "module", "modular", "dependency", "interface", "boundary", "layer",
			"pattern", "integration", "structure", "coupling", "extensibility", "contract", "topology", "component"}},
	{"backend", "Backend Services and Data", "Data integrity and failure modes of this phase tested against the real stores", "integration test against the real data store, including retries and duplicates",
		[]string{"api", "endpoint", "server", "backend", "database", "postgresql", "mysql", "sql", "schema", "queue", "bus",
			"rest api", "grpc", "http", "microservice", "storage", "persistence", "transaction", "kafka", "rabbitmq", "redis",
			"publish", "consumer", "producer", "idempotency", "idempotent", "deduplication", "webhook", "payload", "data model"}},
	{"security", "Security and Compliance", "Threat model and security review of this phase completed", "abuse-case test plus a permission and data-exposure review",
		[]string{"security", "secure", "auth", "authentication", "authorization", "oauth", "token", "encrypt", "encryption",
			"encrypted", "tls", "certificate", "secret", "credential", "password", "vulnerability", "threat", "attack", "abuse",
			"privacy", "gdpr", "pii", "compliance", "permission", "rbac", "signature", "signed", "hashed", "salt",
			"penetration", "owasp", "xss", "csrf", "injection", "fraud", "personal data", "access control"}},
	{"performance", "Performance and Scalability", "Performance targets of this phase measured under production-like load", "load test at 1.5x the stated target, p95 and p99 recorded",
		[]string{"performance", "latency", "throughput", "p95", "p99", "p50", "millisecond", "ms", "scale", "scalability",
			"scaling", "concurrency", "cache", "caching", "optimization", "optimize", "benchmark", "bottleneck", "memory", "cpu",
			"rps", "qps", "capacity", "load test", "per second", "fast", "slow"}},
	{"frontend", "User Interface and Experience", "Accessibility and usability checks of this phase passed", "WCAG 2.2 AA audit and a usability test of the journey",
		[]string{"ui", "ux", "frontend", "browser", "page", "screen", "react", "vue", "angular", "css", "html", "layout",
			"accessibility", "a11y", "wcag", "responsive", "form", "button", "usability", "user interface", "design system",
			"dark mode", "keyboard"}},
	{"devops", "Delivery and Operations", "Deployment, rollback and alerting of this phase verified in staging", "verified in staging with a rollback drill and alerting in place",
		[]string{"deploy", "deployment", "rollout", "release", "ci", "infrastructure", "kubernetes", "docker", "container",
			"terraform", "helm", "environment", "production", "staging", "rollback", "canary", "availability", "sla", "slo",
			"uptime", "backup", "runbook", "on-call", "region", "failover", "disaster recovery", "feature flag"}},
	{"qa", "Quality and Testing", "Edge cases and failure scenarios of this phase covered by automated tests", "automated acceptance test in CI covering the edge cases and failure paths",
		[]string{"test", "testing", "qa", "quality", "acceptance", "coverage", "regression", "validation", "validate",
			"validated", "verify", "verification", "e2e", "defect", "bug", "edge case", "contract test", "fixture"}},
	{"analyzer", "Observability and Analysis", "Evidence for every requirement of this phase recorded and reviewed", "metric, dashboard and alert in place, with the evidence recorded",
		[]string{"metric", "monitoring", "observability", "logging", "log", "trace", "tracing", "dashboard", "alert",
			"alerting", "investigation", "diagnose", "diagnostic", "evidence", "audit", "anomaly", "root cause"}},
	{"refactorer", "Code Health and Refactoring", "Complexity and duplication introduced by this phase reviewed", "complexity and duplication budget checked in review",
		[]string{"refactor", "refactoring", "legacy", "cleanup", "simplify", "maintainability", "duplication", "deprecate",
			"deprecated", "rewrite", "technical debt", "dead code"}},
	{"scribe", "Documentation", "User and operator documentation of this phase updated", "user and operator documentation updated and reviewed",
		[]string{"documentation", "docs", "guide", "tutorial", "readme", "glossary", "changelog", "wording", "handbook",
			"release note"}},
	{"mentor", "Enablement and Onboarding", "Onboarding material for this phase reviewed with a newcomer", "walkthrough recorded for a new team member",
		[]string{"onboarding", "learning", "training", "teach", "explain", "education", "course", "workshop"}},
}

// keywordIndex maps each stemmed keyword to its domain's index in domains.
// Built once; read-only.
var keywordIndex = func() map[string]int {
	m := map[string]int{}
	for i, d := range domains {
		for _, k := range d.keywords {
			key := stemPhrase(k)
			if _, dup := m[key]; !dup {
				m[key] = i
			}
		}
	}
	return m
}()

func stemPhrase(s string) string {
	toks := words.Tokens(s)
	for i, t := range toks {
		toks[i] = words.Stem(t)
	}
	return strings.Join(toks, " ")
}

// DomainPersonas returns the personas whose domains the keyword detector
// scores, in tie-breaking order.
func DomainPersonas() []string {
	out := make([]string, len(domains))
	for i, d := range domains {
		out[i] = d.persona
	}
	return out
}

func domainIndex(persona string) int {
	p := strings.ToLower(persona)
	for i, d := range domains {
		if d.persona == p {
			return i
		}
	}
	return -1
}

// tally counts keyword matches per domain.
type tally struct {
	score []int
	hits  []map[string]int
}

func newTally() *tally {
	t := &tally{score: make([]int, len(domains)), hits: make([]map[string]int, len(domains))}
	for i := range t.hits {
		t.hits[i] = map[string]int{}
	}
	return t
}

// add counts the keywords of text, each match worth weight. Requirement
// ids ("FR-001") are not words of any domain.
func (t *tally) add(text string, weight int) {
	toks := words.Tokens(text)
	prev := ""
	for _, tok := range toks {
		if lexicon.IsRequirementID(tok) {
			prev = ""
			continue
		}
		st := words.Stem(tok)
		if prev != "" {
			if i, ok := keywordIndex[prev+" "+st]; ok {
				t.score[i] += weight
				t.hits[i][prev+" "+st]++
			}
		}
		if i, ok := keywordIndex[st]; ok {
			t.score[i] += weight
			t.hits[i][st]++
		}
		prev = st
	}
}

// best returns the index of the highest-scoring domain, ties to the
// earlier one, or -1 when nothing scored.
func (t *tally) best() int {
	best := -1
	for i, s := range t.score {
		if s > 0 && (best < 0 || s > t.score[best]) {
			best = i
		}
	}
	return best
}

func (t *tally) scores() []PersonaScore {
	var out []PersonaScore
	for i, s := range t.score {
		if s == 0 {
			continue
		}
		kws := make([]string, 0, len(t.hits[i]))
		for k := range t.hits[i] {
			kws = append(kws, k)
		}
		sort.Slice(kws, func(a, b int) bool {
			ha, hb := t.hits[i][kws[a]], t.hits[i][kws[b]]
			if ha != hb {
				return ha > hb
			}
			return kws[a] < kws[b]
		})
		out = append(out, PersonaScore{Persona: domains[i].persona, Score: s, Keywords: kws[:min(5, len(kws))]})
	}
	// Stable: ties keep the domains' order.
	sort.SliceStable(out, func(a, b int) bool { return out[a].Score > out[b].Score })
	return out
}
