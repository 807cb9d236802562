// Package samplegen writes synthetic but realistic Markdown specifications
// for benchmarks and property tests: headings at several levels,
// requirement lists with ids, tables, code fences, cross-references and
// prose with concrete and vague statements. The same seed and size always
// give the same bytes; different seeds give variants of one spec that share
// most topics but differ in order, numbers and emphasis, as competing drafts
// do.
package samplegen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

var topics = []string{
	"Authentication", "Authorization", "Session Management", "Rate Limiting", "Caching Strategy",
	"Data Model", "Storage Engine", "Replication", "Backup and Restore", "Observability",
	"Alerting", "Deployment Pipeline", "Configuration", "Error Handling", "Retry Policy",
	"API Versioning", "Pagination", "Search Indexing", "Notifications", "Billing",
	"Audit Logging", "Privacy Controls", "Load Balancing", "Capacity Planning", "Disaster Recovery",
	"Feature Flags", "Localization", "Accessibility", "Performance Budget", "Security Review",
}

var subjects = []string{"the gateway", "the scheduler", "the cache", "the primary database", "the worker pool",
	"the session store", "the audit log", "the search index", "the billing service", "the event bus"}

var databases = []string{"PostgreSQL", "MySQL", "MongoDB", "CockroachDB", "SQLite"}

// Spec returns a Markdown specification of about size bytes (never less),
// built from seed.
func Spec(seed uint64, size int) []byte {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	var b strings.Builder
	b.Grow(size + 4096)
	fmt.Fprintf(&b, "# Platform Specification (draft %d)\n\n", seed%7+1)
	b.WriteString("## Table of Contents\n\n")
	order := r.Perm(len(topics))
	for i, t := range order[:8] {
		fmt.Fprintf(&b, "%d. [%s](#%s)\n", i+1, topics[t], strings.ToLower(strings.ReplaceAll(topics[t], " ", "-")))
	}
	b.WriteString("\n")
	req := 1
	for sec := 0; b.Len() < size; sec++ {
		t := topics[order[sec%len(order)]]
		if sec >= len(order) {
			t = fmt.Sprintf("%s %d", t, sec/len(order)+1)
		}
		fmt.Fprintf(&b, "## %d. %s\n\n", sec+1, t)
		writeProse(&b, r, t)
		fmt.Fprintf(&b, "### %d.1 Requirements\n\n", sec+1)
		for range 3 + r.IntN(4) {
			subj := subjects[r.IntN(len(subjects))]
			fmt.Fprintf(&b, "- FR-%03d: %s must respond within %d ms at the %dth percentile.\n", req, capital(subj), 50*(1+r.IntN(8)), 90+r.IntN(10))
			req++
		}
		if r.IntN(3) == 0 {
			fmt.Fprintf(&b, "- NFR-%03d: Availability of %d.%d%% per month.\n", req, 99, 5+r.IntN(5))
			req++
		}
		b.WriteString("\n")
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, "### %d.2 Risks\n\n| Risk | Probability | Impact | Mitigation |\n|------|-------------|--------|------------|\n", sec+1)
			for range 2 + r.IntN(3) {
				fmt.Fprintf(&b, "| %s outage | %s | %s | Fail over to the standby within %d minutes |\n",
					capital(subjects[r.IntN(len(subjects))]), level(r), level(r), 1+r.IntN(30))
			}
			b.WriteString("\n")
		}
		if r.IntN(3) == 0 {
			fmt.Fprintf(&b, "#### %d.2.1 Configuration Example\n\n```yaml\n# defaults for %s\ntimeout: %ds\nretries: %d\n```\n\n", sec+1, t, 5*(1+r.IntN(12)), r.IntN(5))
		}
		if sec > 0 && r.IntN(2) == 0 {
			fmt.Fprintf(&b, "See Section %d.1 for the related requirements; Milestone M%d depends on it.\n\n", 1+r.IntN(sec), 1+r.IntN(6))
		}
	}
	return []byte(b.String())
}

func writeProse(b *strings.Builder, r *rand.Rand, topic string) {
	subj := subjects[r.IntN(len(subjects))]
	db := databases[r.IntN(len(databases))]
	sentences := []string{
		fmt.Sprintf("%s handles %s for every tenant.", capital(subj), strings.ToLower(topic)),
		fmt.Sprintf("Use %s for the %s data store.", db, strings.ToLower(topic)),
		fmt.Sprintf("The retry timeout is %d seconds and the cache limit is %d MiB.", 10*(1+r.IntN(9)), 64<<r.IntN(4)),
		"Teams should consider best practices as appropriate.",
		fmt.Sprintf("Delivery takes %d-%d weeks after the design review in Q%d.", 2+r.IntN(4), 6+r.IntN(6), 1+r.IntN(4)),
		fmt.Sprintf("%s depends on %s.", capital(subj), subjects[r.IntN(len(subjects))]),
		"Various improvements might be needed later, etc.",
		fmt.Sprintf("Errors are logged with a correlation id and retained for %d days.", 7*(1+r.IntN(12))),
	}
	r.Shuffle(len(sentences), func(i, j int) { sentences[i], sentences[j] = sentences[j], sentences[i] })
	n := 3 + r.IntN(4)
	b.WriteString(strings.Join(sentences[:n], " "))
	b.WriteString("\n\n")
}

func level(r *rand.Rand) string { return [...]string{"Low", "Medium", "High"}[r.IntN(3)] }

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Sections returns a Markdown document of n short sections built from seed:
// the shape of a large generated inventory (a catalogue of endpoints,
// settings or requirements), where the count of sections, not their
// length, is what grows. Sections alternate between two heading levels and
// carry numbers, requirement ids, acronyms, enumerated values and
// references to earlier sections, so that every step that looks at those
// has work that grows with n.
func Sections(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 0x5ec7))
	var b strings.Builder
	b.Grow(n * 160)
	fmt.Fprintf(&b, "# Inventory (draft %d)\n\nThis inventory lists %d items of the platform.\n\n", seed%7+1, n)
	top := 0
	for i := range n {
		subj := subjects[r.IntN(len(subjects))]
		if i%5 == 0 {
			top++
			fmt.Fprintf(&b, "## %d. %s %d\n\n", top, topics[r.IntN(len(topics))], i)
		} else {
			fmt.Fprintf(&b, "### %d.%d Item %d\n\n", top, i%5, i)
		}
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "- FR-%04d: %s must respond within %d ms.\n\n", i+1, capital(subj), 10*(1+r.IntN(50)))
		case 1:
			fmt.Fprintf(&b, "The value of item %d is %d ms and the mode is one of `fast`, `safe` or `off`.\n\n", i, i*3%997)
		case 2:
			fmt.Fprintf(&b, "%s uses the %s API (TTL %d s) and stores data in %s.\n\n", capital(subj),
				[...]string{"REST", "gRPC", "SQL", "SMTP", "LDAP"}[r.IntN(5)], 5*(1+r.IntN(20)), databases[r.IntN(len(databases))])
		default:
			if top > 1 {
				fmt.Fprintf(&b, "See Section %d for the related limits; %s depends on it.\n\n", 1+r.IntN(top-1), subj)
			} else {
				fmt.Fprintf(&b, "%s retains records for %d days.\n\n", capital(subj), 7*(1+r.IntN(12)))
			}
		}
	}
	return []byte(b.String())
}
