package lexicon

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// plainTechnologyIn is TechnologyIn without the shape test: every word is
// looked up.
func plainTechnologyIn(s string) []Tech {
	var out []Tech
	prev, prevIsTech := "", false
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

var techInputs = []string{
	"", "We use PostgreSQL and Redis, not MySQL.", "SQL Server or sql server; Google Cloud", "go Go GO golang",
	"Kafka-based queue on AWS/GCP", "k8s Kubernetes .NET node.js Node.js", "the rest of REST and gRPC",
	"Amazon SQS vs Azure Service Bus", "x Apache Kafka y", "Elastic elasticsearch ElasticSearch",
	"3scale 123 a1 -Redis- ..kafka..", strings.Repeat("word ", 50) + "Cassandra",
}

func TestTechnologyInShapes(t *testing.T) {
	var all []string
	for name := range technologies {
		all = append(all, name, strings.ToUpper(name), "the "+name+".")
	}
	for _, s := range append(techInputs, strings.Join(all, " "), strings.Join(all, ", ")) {
		assert.Equal(t, plainTechnologyIn(s), TechnologyIn(s), "%.60q", s)
	}
}

func FuzzTechnologyIn(f *testing.F) {
	for _, s := range techInputs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := TechnologyIn(s), plainTechnologyIn(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("TechnologyIn(%q) = %v, want %v", s, got, want)
		}
	})
}

func BenchmarkTechnologyIn(b *testing.B) {
	text := strings.Repeat("The ingest service stores events in PostgreSQL and caches hot keys in Redis; "+
		"retries back off for at most 30 seconds before the message is parked on the Kafka dead-letter topic. ", 200)
	for _, bb := range []struct {
		name string
		fn   func(string) []Tech
	}{{"plain", plainTechnologyIn}, {"shapes", TechnologyIn}} {
		b.Run(bb.name, func(b *testing.B) {
			for b.Loop() {
				bb.fn(text)
			}
		})
	}
}
