package adversarial

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// Errors of Mode A input. Each arrives wrapped with the count or path it is
// about. The texts are lower-case, as Go error strings are; the example
// command-line tools print them capitalised ("File not found: <path>").
var (
	ErrTooFewFiles  = errors.New("adversarial comparison requires at least 2 files")
	ErrTooManyFiles = errors.New("maximum 10 files supported")
	ErrFileNotFound = errors.New("file not found")
)

// Draft is one variant's text as a host supplies it: a name (a file name in Mode A, the
// agent spec in Mode B) and its Markdown text.
type Draft struct {
	Name    string `json:"name"`
	Content []byte `json:"content"`
	// Agent is the agent spec that generated the variant ("opus:architect"),
	// or empty for a Mode A file.
	Agent string `json:"agent,omitempty"`
}

// LoadVariants reads Mode A inputs from fsys, in order, with Mode A's
// validation: 2–10 files, every file present ([ErrFileNotFound]),
// a warning for each file that is not Markdown (.md). Paths are fsys paths:
// slash-separated and relative (use os.DirFS for the working directory).
// Variants are named by their base names, made unique with their full
// paths when two share one.
func LoadVariants(fsys fs.FS, paths []string) ([]Draft, []string, error) {
	switch n := len(paths); {
	case n < 2:
		return nil, nil, fmt.Errorf("%w, got %d", ErrTooFewFiles, n)
	case n > 10:
		return nil, nil, fmt.Errorf("%w, got %d", ErrTooManyFiles, n)
	}
	var warnings []string
	out := make([]Draft, 0, len(paths))
	bases := map[string]int{}
	for _, p := range paths {
		bases[path.Base(p)]++
	}
	for _, p := range paths {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
				return nil, warnings, fmt.Errorf("%w: %s", ErrFileNotFound, p)
			}
			return nil, warnings, fmt.Errorf("adversarial: read %s: %w", p, err)
		}
		if !strings.EqualFold(path.Ext(p), ".md") {
			warnings = append(warnings, fmt.Sprintf("File is not Markdown (.md), proceeding: %s", p))
		}
		name := path.Base(p)
		if bases[name] > 1 {
			name = p
		}
		out = append(out, Draft{Name: name, Content: b})
	}
	return out, warnings, nil
}
