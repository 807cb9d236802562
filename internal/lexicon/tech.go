package lexicon

import "strings"

// Category is what slot a technology fills. Two different technologies of
// one category chosen for the same purpose are an exclusive choice.
type Category string

// Categories of technology.
const (
	Database     Category = "database"
	Cache        Category = "cache"
	Queue        Category = "message queue"
	Cloud        Category = "cloud provider"
	Language     Category = "programming language"
	Orchestrator Category = "orchestrator"
	APIStyle     Category = "API style"
	Frontend     Category = "frontend framework"
	CI           Category = "CI system"
	SearchEngine Category = "search engine"
)

// technologies maps lower-cased names (and common spellings) to their
// canonical name and category.
var technologies = func() map[string]tech {
	m := map[string]tech{}
	add := func(cat Category, canonical string, names ...string) {
		t := tech{canonical, cat}
		m[strings.ToLower(canonical)] = t
		for _, n := range names {
			m[n] = t
		}
	}
	add(Database, "PostgreSQL", "postgres", "postgresql", "pg")
	add(Database, "MySQL", "mariadb")
	add(Database, "MongoDB", "mongo")
	add(Database, "CockroachDB", "cockroach")
	add(Database, "SQLite")
	add(Database, "DynamoDB", "dynamo")
	add(Database, "Cassandra")
	add(Database, "Oracle")
	add(Database, "SQL Server", "mssql")
	add(Database, "Spanner")
	add(Cache, "Redis")
	add(Cache, "Memcached", "memcache")
	add(Cache, "Valkey")
	add(Queue, "Kafka")
	add(Queue, "RabbitMQ", "rabbit")
	add(Queue, "SQS")
	add(Queue, "NATS")
	add(Queue, "Pulsar")
	add(Cloud, "AWS")
	add(Cloud, "GCP", "gcloud")
	add(Cloud, "Azure")
	add(Language, "Go", "golang")
	add(Language, "Rust")
	add(Language, "Java")
	add(Language, "Python")
	add(Language, "TypeScript")
	add(Language, "Kotlin")
	add(Orchestrator, "Kubernetes", "k8s")
	add(Orchestrator, "Nomad")
	add(Orchestrator, "ECS")
	add(APIStyle, "REST", "restful")
	add(APIStyle, "gRPC")
	add(APIStyle, "GraphQL")
	add(Frontend, "React")
	add(Frontend, "Vue")
	add(Frontend, "Angular")
	add(Frontend, "Svelte")
	add(CI, "GitHub Actions")
	add(CI, "Jenkins")
	add(CI, "GitLab CI")
	add(SearchEngine, "Elasticsearch", "elastic")
	add(SearchEngine, "OpenSearch")
	add(SearchEngine, "Solr")
	add(SearchEngine, "Meilisearch")
	return m
}()

type tech struct {
	name string
	cat  Category
}

// Technology returns the canonical name and category of a named
// technology, matched case-insensitively ("postgres" → PostgreSQL,
// database). One-word names that are also English words ("go", "rust",
// "oracle", "rest", "react", "elastic") only count when written with a
// capital ("Go", "REST").
func Technology(word string) (Tech, bool) {
	var buf [24]byte
	lw, ok := lowerInto(&buf, word)
	if !ok {
		return Tech{}, false
	}
	return lookup(word, lw)
}

// lowerInto lower-cases an ASCII word into buf without allocating; the
// map lookups below do not copy a string converted from a byte slice.
func lowerInto(buf *[24]byte, word string) ([]byte, bool) {
	if len(word) < 2 || len(word) > len(buf) {
		return nil, false
	}
	for i := 0; i < len(word); i++ {
		c := word[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return buf[:len(word)], true
}

func lookup(word string, lw []byte) (Tech, bool) {
	t, ok := technologies[string(lw)]
	if !ok || (ambiguous[string(lw)] && word == string(lw)) {
		return Tech{}, false
	}
	return Tech{Name: t.name, Category: t.cat}, true
}

// Tech is a named technology.
type Tech struct {
	Name     string
	Category Category
}

var ambiguous = map[string]bool{"go": true, "rust": true, "oracle": true, "rest": true, "react": true,
	"elastic": true, "vue": true, "java": true, "python": true, "spanner": true, "nats": true, "pulsar": true,
	"rabbit": true, "dynamo": true, "nomad": true, "pg": true, "mongo": true, "cockroach": true}

// trimDotsDashes is strings.Trim(w, ".-") without building the cut set
// on every word.
func trimDotsDashes(w string) string {
	for len(w) > 0 && (w[0] == '.' || w[0] == '-') {
		w = w[1:]
	}
	for len(w) > 0 && (w[len(w)-1] == '.' || w[len(w)-1] == '-') {
		w = w[:len(w)-1]
	}
	return w
}

// TechnologyIn returns the technologies named in s, in order of
// appearance, including two-word names such as "SQL Server".
func TechnologyIn(s string) []Tech {
	var out []Tech
	prev, prevIsTech := "", false // the previous word, when it may start a two-word name
	for i := 0; i < len(s); {
		for i < len(s) && !isTechRune(rune(s[i])) {
			i++
		}
		j := i
		for j < len(s) && isTechRune(rune(s[j])) {
			j++
		}
		if j == i {
			break
		}
		w := trimDotsDashes(s[i:j])
		i = j
		if prev != "" {
			if t, ok := Technology(prev + " " + w); ok {
				if prevIsTech {
					out[len(out)-1] = t
				} else {
					out = append(out, t)
				}
				prev = ""
				continue
			}
		}
		var buf [24]byte
		lw, ok := lowerInto(&buf, w)
		if !ok || len(w) > 14 {
			prev = ""
			continue
		}
		if !mayName(lw) {
			prev, prevIsTech = "", false // neither a name nor the first word of one
			continue
		}
		if t, ok := lookup(w, lw); ok {
			out = append(out, t)
			prev, prevIsTech = w, true
			continue
		}
		prev, prevIsTech = "", false
		if firstWords[string(lw)] {
			prev = w
		}
	}
	return out
}

// nameShapes marks the lengths and first letters of the one-word names
// and of the first words of two-word names: a word of another shape (most
// words of any text) is neither, and TechnologyIn skips its two map
// lookups.
var nameShapes = func() (t [25][26]bool) {
	mark := func(w string) {
		if c := w[0]; len(w) < len(t) && 'a' <= c && c <= 'z' {
			t[len(w)][c-'a'] = true
		}
	}
	for name := range technologies {
		if strings.IndexByte(name, ' ') < 0 {
			mark(strings.ToLower(name))
		}
	}
	for w := range firstWords {
		mark(strings.ToLower(w))
	}
	return t
}()

// mayName reports whether the lower-cased word lw (2 to 24 bytes) may be
// a technology's name or the first word of one; false means it is
// neither. Words that do not start with a letter are always looked up.
func mayName(lw []byte) bool {
	c := lw[0]
	if c < 'a' || c > 'z' {
		return true
	}
	return nameShapes[len(lw)][c-'a']
}

// firstWords are the first words of two-word technology names.
var firstWords = func() map[string]bool {
	m := map[string]bool{}
	for name := range technologies {
		if i := strings.IndexByte(name, ' '); i > 0 {
			m[name[:i]] = true
		}
	}
	return m
}()
