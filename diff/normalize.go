package diff

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Errors for input that is not a Markdown document. They arrive wrapped in
// an [*InputError] that names the variant and the line.
var (
	ErrBinary         = errors.New("binary content (NUL byte)")
	ErrInvalidUTF8    = errors.New("invalid UTF-8")
	ErrBadFrontMatter = errors.New("invalid YAML front matter")
)

// InputError reports a variant that cannot be read as Markdown.
type InputError struct {
	Name string // the variant's name, if known
	Line int    // 1-based line of the problem, 0 if none applies
	Err  error  // ErrBinary, ErrInvalidUTF8, ErrBadFrontMatter, possibly wrapping a cause
}

func (e *InputError) Error() string {
	s := ""
	if e.Name != "" {
		s = e.Name + ": "
	}
	if e.Line > 0 {
		s += fmt.Sprintf("line %d: ", e.Line)
	}
	return s + e.Err.Error()
}

func (e *InputError) Unwrap() error { return e.Err }

var bom = []byte("\xef\xbb\xbf")

// Normalize returns src as the pipeline stores every variant: a leading
// UTF-8 byte-order mark removed, CRLF and CR line endings turned into LF,
// trailing spaces and tabs stripped from every line, trailing blank lines
// dropped and exactly one final newline. Heading structure is untouched.
// Input that is empty or only whitespace normalises to empty.
//
// Input with a NUL byte or invalid UTF-8 is rejected with an [*InputError]
// matching [ErrBinary] or [ErrInvalidUTF8]. Normalize never modifies src.
func Normalize(src []byte) ([]byte, error) {
	src = bytes.TrimPrefix(src, bom)
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return nil, &InputError{Line: lineOfOffset(src, i), Err: ErrBinary}
	}
	if !utf8.Valid(src) {
		return nil, &InputError{Line: lineOfOffset(src, firstInvalidUTF8(src)), Err: ErrInvalidUTF8}
	}
	if n, ok := cleanLines(src); ok {
		// Nothing to rewrite: most documents end their lines with LF and
		// no trailing space. The text up to its last line with content,
		// that line ended by LF.
		out := make([]byte, n, n+1)
		copy(out, src)
		if n > 0 && out[n-1] != '\n' {
			out = append(out, '\n')
		}
		return out, nil
	}
	out := make([]byte, 0, len(src)+1)
	lastContent := 0 // len(out) just after the last line that had content
	for len(src) > 0 {
		i := bytes.IndexAny(src, "\r\n")
		line, rest := src, src[:0]
		if i >= 0 {
			line, rest = src[:i], src[i+1:]
			if src[i] == '\r' && len(rest) > 0 && rest[0] == '\n' {
				rest = rest[1:]
			}
		}
		line = bytes.TrimRight(line, " \t\v\f")
		out = append(out, line...)
		out = append(out, '\n')
		if len(line) > 0 {
			lastContent = len(out)
		}
		src = rest
	}
	return out[:lastContent], nil
}

// cleanLines reports whether src needs none of Normalize's rewriting
// but the trim of its trailing empty lines — no CR, no line ending in
// white space — and, if so, where its last line with content ends
// (after its LF, or at the end of src when it has none).
func cleanLines(src []byte) (int, bool) {
	if bytes.IndexByte(src, '\r') >= 0 {
		return 0, false
	}
	end := 0 // after the last line with content
	for start := 0; start < len(src); {
		i := bytes.IndexByte(src[start:], '\n')
		stop := len(src) // the line is src[start:stop]
		next := len(src)
		if i >= 0 {
			stop, next = start+i, start+i+1
		}
		if stop > start {
			switch src[stop-1] {
			case ' ', '\t', '\v', '\f':
				return 0, false
			}
			end = next
		}
		start = next
	}
	return end, true
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// lineOfOffset returns the 1-based line holding byte off, counting any of
// LF, CRLF and CR as one line ending (src may not be normalised yet).
func lineOfOffset(src []byte, off int) int {
	line := 1
	for i := 0; i < off && i < len(src); i++ {
		switch src[i] {
		case '\n':
			line++
		case '\r':
			if i+1 >= len(src) || src[i+1] != '\n' {
				line++
			}
		}
	}
	return line
}
