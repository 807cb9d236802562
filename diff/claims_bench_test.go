package diff

import "testing"

// BenchmarkExtractClaims measures claim extraction alone on 10 variants of
// about 100 KB: every sentence is classified, so it is a large share of
// the step's work per document.
func BenchmarkExtractClaims(b *testing.B) {
	_, docs := benchVariants(b, 100<<10)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			extractClaims(d, nil)
		}
	}
}

// BenchmarkDetectNumeric measures the numeric rule, the longest of the
// rule detector's rules, on 10 aligned variants of about 100 KB.
func BenchmarkDetectNumeric(b *testing.B) {
	_, docs := benchVariants(b, 100<<10)
	topics := alignSections(docs)
	in := NewDetectInput(docs...)
	in.Topics = exportTopics(docs, topics)
	b.ReportAllocs()
	for b.Loop() {
		detectNumeric(in)
	}
}
