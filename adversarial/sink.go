package adversarial

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Artifact is one file the pipeline produces: a slash-separated name
// relative to the output root ("adversarial/diff-analysis.md") and its
// content.
type Artifact struct {
	Name    string `json:"name"`
	Content []byte `json:"content"`
}

// Sink receives the artifacts the pipeline writes. The library never
// touches the file system itself; a host passes a [DirSink], a
// [MemorySink] or its own implementation. Implementations must be safe for
// concurrent use.
type Sink interface {
	Write(ctx context.Context, name string, content []byte) error
}

// ErrUnsafeName reports an artifact name that would leave the output
// directory ("../x", "/etc/x") or is otherwise not a plain relative path.
var ErrUnsafeName = errors.New("artifact name escapes the output directory")

// checkName verifies that name is a clean, local, slash-separated path.
func checkName(name string) error {
	if name == "" || !filepath.IsLocal(filepath.FromSlash(name)) || path.Clean(name) != name || strings.Contains(name, "\\") {
		return fmt.Errorf("%w: %q", ErrUnsafeName, name)
	}
	return nil
}

// DirSink writes artifacts under a root directory, creating directories
// as needed. Names are checked: nothing is written outside Root.
type DirSink struct {
	Root string
}

var _ Sink = (*DirSink)(nil)

// NewDirSink returns a sink writing under root.
func NewDirSink(root string) *DirSink { return &DirSink{Root: root} }

// Write implements [Sink].
func (s *DirSink) Write(ctx context.Context, name string, content []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkName(name); err != nil {
		return err
	}
	p := filepath.Join(s.Root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("adversarial: write %s: %w", name, err)
	}
	if err := os.WriteFile(p, content, 0o644); err != nil {
		return fmt.Errorf("adversarial: write %s: %w", name, err)
	}
	return nil
}

// MemorySink keeps artifacts in memory, in the order they were written (a
// rewrite keeps the first position). The zero value is ready to use.
type MemorySink struct {
	mu    sync.Mutex
	files map[string][]byte
	order []string
}

var _ Sink = (*MemorySink)(nil)

// NewMemorySink returns an empty in-memory sink.
func NewMemorySink() *MemorySink { return &MemorySink{} }

// Write implements [Sink].
func (s *MemorySink) Write(ctx context.Context, name string, content []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkName(name); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string][]byte{}
	}
	if _, ok := s.files[name]; !ok {
		s.order = append(s.order, name)
	}
	s.files[name] = slices.Clone(content)
	return nil
}

// Get returns the content written under name.
func (s *MemorySink) Get(name string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.files[name]
	return slices.Clone(b), ok
}

// Artifacts returns everything written, in write order.
func (s *MemorySink) Artifacts() []Artifact {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Artifact, len(s.order))
	for i, n := range s.order {
		out[i] = Artifact{Name: n, Content: slices.Clone(s.files[n])}
	}
	return out
}

// Artifact names, as ARTIFACTS.md lays them out.
const (
	ArtifactsDir            = "adversarial"
	DiffAnalysisFile        = "adversarial/diff-analysis.md"
	DebateTranscriptFile    = "adversarial/debate-transcript.md"
	BaseSelectionFile       = "adversarial/base-selection.md"
	RefactorPlanFile        = "adversarial/refactor-plan.md"
	MergeLogFile            = "adversarial/merge-log.md"
	ReturnContractFile      = "adversarial/return-contract.yaml"
	DefaultMergedOutputFile = "merged-output.md"
)

var unsafeChars = regexp.MustCompile(`[^a-z0-9._]+`)

// sanitise turns user text (a model id, a persona) into a file-name part:
// lower case letters, digits, '.', '_' and '-', no leading dots, at most
// 40 bytes; fallback when nothing is left.
func sanitise(s, fallback string) string {
	s = unsafeChars.ReplaceAllString(strings.ToLower(s), "-")
	s = strings.Trim(s, "-.")
	if len(s) > 40 {
		s = strings.TrimRight(s[:40], "-.")
	}
	if s == "" {
		return fallback
	}
	return s
}

// variantFileName returns the artifact name of the n-th variant (1-based):
// "adversarial/variant-N-original.md" in Mode A (model empty), or
// "adversarial/variant-N-<model>-<persona>.md" in Mode B, persona "default"
// when none. Model and persona are sanitised so that no name can leave the
// output directory.
func variantFileName(n int, model, persona string) string {
	if model == "" {
		return fmt.Sprintf("%s/variant-%d-original.md", ArtifactsDir, n)
	}
	return fmt.Sprintf("%s/variant-%d-%s-%s.md", ArtifactsDir, n, sanitise(model, "model"), sanitise(persona, "default"))
}
