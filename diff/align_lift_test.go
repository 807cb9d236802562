package diff

import (
	"strings"
	"testing"
)

// A topic one variant covers in one section and another splits into a
// chapter — a heading with no text of its own whose first subsection
// states the matter and whose other subsections elaborate it — is the
// chapter's topic, not its first subsection's. A chapter with text of its
// own, a chapter of parallel items, a chapter whose other subsections
// meet other sections, and a section with subsections of its own keep the
// match where the words put it.
func TestAlignSectionsLiftsToChapters(t *testing.T) {
	a := "# Review A\n\n" +
		"## Scope\n\nThe review covers the read path and the job queue.\n\n" +
		"## R-1: Stale reads after failover\n\nThe replica serves `cache_epoch` E0 after the primary bumps `cache_epoch` to E1, so the guard `epoch >= cache_epoch` rejects every entry; the risk is real.\n\n" +
		"## R-2: Queue ordering\n\nThe retry worker must run after the dead-letter sweep so that `JOB_REQUEUED` keeps its reason.\n\n" +
		"## Budget\n\nTwo engineers for three weeks.\n"
	// The chapter's other subsections: matter of its own, shared with no
	// section of A.
	elaboration := "### Cost of Flushing\n\nA full flush drops `hit_ratio` to zero for about `warmup_seconds` while `LoaderPool.fill` repopulates the keys.\n\n" +
		"### However: Keeping the Replica Warm\n\nIf the replica must stay warm, copy the counter first, or tag entries with the writer's marker.\n\n"
	first := "### Epoch Skew on the Replica\n\nThe replica keeps `cache_epoch` E0; the primary moves to E1 after it, and the guard `epoch >= cache_epoch` compares E0 with E1, so every entry is stale.\n\n"
	tests := []struct {
		name  string
		a     string // instead of a
		b     string
		want  []string
		alone []string
	}{
		{
			name: "a chapter without text of its own",
			b: "# Review B\n\n## Summary\n\nFive findings.\n\n" +
				"## Finding 4: Cache Invalidation\n\n" + first + elaboration +
				"## Finding 5: Log Volume\n\nDebug lines fill the disk within a day under load.\n",
			want:  []string{"A:R-1: Stale reads after failover | B:Finding 4: Cache Invalidation"},
			alone: []string{"B:Epoch Skew on the Replica"},
		},
		{
			name: "a chapter with an introduction of its own",
			b: "# Review B\n\n## Summary\n\nFive findings.\n\n" +
				"## Finding 4: Cache Invalidation\n\nWe check the claimed risk against the order of writes on both nodes and the flush policy.\n\n" + first + elaboration +
				"## Finding 5: Log Volume\n\nDebug lines fill the disk within a day under load.\n",
			want: []string{"A:R-1: Stale reads after failover | B:Epoch Skew on the Replica"},
		},
		{
			name: "a chapter of parallel items",
			b: "# Review B\n\n## Summary\n\nFive findings.\n\n" +
				"## Options\n\n" +
				"### OPT-A: Drop\n\nThe replica keeps `cache_epoch` E0; the primary moves to E1 after it, and the guard `epoch >= cache_epoch` compares E0 with E1, so every entry is stale.\n\n" +
				"### OPT-B: Flush\n\nA full flush drops `hit_ratio` to zero for about `warmup_seconds` while `LoaderPool.fill` repopulates the keys.\n\n" +
				"### OPT-C: Keep\n\nIf the replica must stay warm, copy the counter first, or tag entries with the writer's marker.\n\n" +
				"## Finding 5: Log Volume\n\nDebug lines fill the disk within a day under load.\n",
			want: []string{"A:R-1: Stale reads after failover | B:OPT-A: Drop"},
		},
		{
			name: "a chapter whose other subsection meets another section",
			b: "# Review B\n\n## Summary\n\nFive findings.\n\n" +
				"## Finding 4: Cache Invalidation\n\n" + first + elaboration +
				"### Queue Ordering\n\nRun the dead-letter sweep before the retry worker, or `JOB_REQUEUED` loses its reason.\n\n" +
				"## Finding 5: Log Volume\n\nDebug lines fill the disk within a day under load.\n",
			want: []string{
				"A:R-1: Stale reads after failover | B:Epoch Skew on the Replica",
				"A:R-2: Queue ordering | B:Queue Ordering",
			},
		},
		{
			name: "a section with subsections of its own",
			a: strings.Replace(a, "the risk is real.\n\n",
				"the risk is real.\n\n### Sign-off\n\nThe owners sign the change off in their weekly meeting.\n\n", 1),
			b: "# Review B\n\n## Summary\n\nFive findings.\n\n" +
				"## Finding 4: Cache Invalidation\n\n" + first + elaboration +
				"## Finding 5: Log Volume\n\nDebug lines fill the disk within a day under load.\n",
			want: []string{"A:R-1: Stale reads after failover | B:Epoch Skew on the Replica"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			va := a
			if tt.a != "" {
				va = tt.a
			}
			checkAligned(t, []string{va, tt.b}, tt.want, tt.alone)
		})
	}
}
