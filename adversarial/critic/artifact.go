package critic

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"
)

// Artifact is the Markdown document under review. Content is untrusted:
// prompts carry it inside delimited blocks and never take instructions from
// it.
type Artifact struct {
	// Path names the artifact, as --artifact gives it.
	Path string `json:"path"`
	// Content is the Markdown text.
	Content string `json:"content"`
}

// Validate rejects an artifact without a path ([ErrArtifactRequired]) and
// content that is not text (invalid UTF-8 or NUL bytes).
func (a Artifact) Validate() error {
	if strings.TrimSpace(a.Path) == "" {
		return ErrArtifactRequired
	}
	if !utf8.ValidString(a.Content) {
		return fmt.Errorf("%w: artifact '%s' is not valid UTF-8", ErrInvalidInput, a.Path)
	}
	if strings.IndexByte(a.Content, 0) >= 0 {
		return fmt.Errorf("%w: artifact '%s' contains NUL bytes; binary input is not reviewed", ErrInvalidInput, a.Path)
	}
	return nil
}

// Hash returns the hex SHA-256 of the content: how score tracking tells a
// changed artifact from an unchanged one and a checkpoint its artifact.
func (a Artifact) Hash() string {
	sum := sha256.Sum256([]byte(a.Content))
	return hex.EncodeToString(sum[:])
}

// LoadArtifact reads an artifact from fsys. An empty path is
// [ErrArtifactRequired] ("Artifact path required"); a missing file is an
// [*ArtifactNotFoundError] ("Artifact not found at '<path>'").
func LoadArtifact(fsys fs.FS, path string) (Artifact, error) {
	if strings.TrimSpace(path) == "" {
		return Artifact{}, ErrArtifactRequired
	}
	b, err := fs.ReadFile(fsys, path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
		return Artifact{}, &ArtifactNotFoundError{Path: path, Err: err}
	}
	if err != nil {
		return Artifact{}, fmt.Errorf("critic: reading artifact '%s': %w", path, err)
	}
	a := Artifact{Path: path, Content: string(b)}
	if err := a.Validate(); err != nil {
		return Artifact{}, err
	}
	return a, nil
}

// ModeRequest is one mode's input: the artifact, the review's context and
// what earlier modes of the pipeline produced.
type ModeRequest struct {
	Mode        Mode        `json:"mode"`
	Artifact    Artifact    `json:"artifact"`
	Criticality Criticality `json:"criticality"`
	Vector      Vector      `json:"vector"`
	// Iteration is the creator–critic–revision iteration (1-based).
	Iteration int `json:"iteration"`
	// Threshold is the quality gate the judge scores against.
	Threshold float64 `json:"threshold"`
	// Rubric is what the judge scores on (llm-as-judge and standard).
	Rubric Rubric `json:"rubric"`
	// Constitution is what the constitutional mode checks.
	Constitution []Principle `json:"-"`
	// Prior are the earlier modes' outputs, in pipeline order.
	Prior []*ModeOutput `json:"prior,omitempty"`
	// PipelineContext is Prior rendered as the "Pipeline Context
	// (accumulated)" document: one section per earlier mode's output.
	PipelineContext string `json:"pipeline_context,omitempty"`
}

// Engine runs one mode. Implementations must be safe for concurrent use and
// honour ctx. An engine that cannot run a mode returns an error matching
// [ErrModeUnavailable]; the pipeline then skips the mode.
type Engine interface {
	Critique(ctx context.Context, req ModeRequest) (*ModeOutput, error)
}

// EngineFunc adapts a function to [Engine].
type EngineFunc func(ctx context.Context, req ModeRequest) (*ModeOutput, error)

// Critique calls f(ctx, req).
func (f EngineFunc) Critique(ctx context.Context, req ModeRequest) (*ModeOutput, error) {
	return f(ctx, req)
}
