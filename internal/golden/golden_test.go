package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that records failures instead of stopping.
type recorder struct {
	testing.TB
	failed, fatal bool
}

func (r *recorder) Helper()                           {}
func (r *recorder) Errorf(format string, args ...any) { r.failed = true }
func (r *recorder) Fatalf(format string, args ...any) { r.failed, r.fatal = true, true }
func (r *recorder) Fatal(args ...any)                 { r.failed, r.fatal = true, true }

func TestCheck(t *testing.T) {
	if Updating() {
		t.Skip("-update rewrites instead of comparing")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "out.golden")
	if err := os.WriteFile(path, []byte("same\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, got string
		failed, fatal   bool
	}{
		{"equal", path, "same\n", false, false},
		{"different", path, "other\n", true, false},
		{"missing file", filepath.Join(dir, "none.golden"), "x", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{TB: t}
			Check(r, tt.path, tt.got)
			if r.failed != tt.failed || r.fatal != tt.fatal {
				t.Errorf("failed, fatal = %v, %v; want %v, %v", r.failed, r.fatal, tt.failed, tt.fatal)
			}
		})
	}
}

func TestCheckUpdates(t *testing.T) {
	old := *update
	*update = true
	defer func() { *update = old }()
	path := filepath.Join(t.TempDir(), "sub", "out.golden")
	Check(t, path, "new\n")
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "new\n" {
		t.Fatalf("wrote %q, %v; want the output in a new directory", b, err)
	}
}
