package merge

import (
	"fmt"
	"strings"
	"testing"
)

var rowCases = [][3]string{
	{"", "", ""},
	{"P1", "Variant B: cache = 64 KiB", "Variant A's value \"32 KiB\" wins (majority)."},
	{"a|b", "<br> x | y", "  spaced\n\tout  "},
	{"|", "<", "<<||"},
	{"é | ü", "\u00a0", "line one\nline two"},
}

func TestWriteRow(t *testing.T) {
	for _, c := range rowCases {
		var b strings.Builder
		writeRow(&b, c[0], c[1], c[2])
		want := fmt.Sprintf("| %s | %s | %s |\n", mdCell(c[0]), mdCell(c[1]), mdCell(c[2]))
		if b.String() != want {
			t.Errorf("writeRow(%q) = %q, want %q", c, b.String(), want)
		}
	}
}

// FuzzWriteRow checks writeRow against the mdCell row it replaces.
func FuzzWriteRow(f *testing.F) {
	for _, c := range rowCases {
		f.Add(c[0], c[1], c[2])
	}
	f.Fuzz(func(t *testing.T, x, y, z string) {
		var b strings.Builder
		writeRow(&b, x, y, z)
		if want := fmt.Sprintf("| %s | %s | %s |\n", mdCell(x), mdCell(y), mdCell(z)); b.String() != want {
			t.Fatalf("writeRow(%q, %q, %q) = %q, want %q", x, y, z, b.String(), want)
		}
	})
}

// FuzzWriteInline checks writeInline against the mdInline it replaces in
// the plan's change list.
func FuzzWriteInline(f *testing.F) {
	for _, c := range rowCases {
		for _, s := range c {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b strings.Builder
		writeInline(&b, s)
		if want := mdInline(s); b.String() != want {
			t.Fatalf("writeInline(%q) = %q, want %q", s, b.String(), want)
		}
	})
}
