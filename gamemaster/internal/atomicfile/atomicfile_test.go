package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

const pattern = ".test-*.tmp"

func TestWriteFile(t *testing.T) {
	tests := []struct {
		name     string
		previous []byte // nil: no file before
		data     []byte
	}{
		{"new file", nil, []byte("one\n")},
		{"replaces a longer file", []byte("a much longer previous content\n"), []byte("two\n")},
		{"empty content", []byte("x"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "f.json")
			if tt.previous != nil {
				if err := os.WriteFile(name, tt.previous, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteFile(name, tt.data, pattern); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(tt.data) {
				t.Errorf("content %q, want %q", got, tt.data)
			}
			st, err := os.Stat(name)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != 0o644 {
				t.Errorf("mode %v, want 0644", st.Mode().Perm())
			}
			if left, _ := filepath.Glob(filepath.Join(dir, pattern)); len(left) != 0 {
				t.Errorf("temporary files left: %q", left)
			}
		})
	}
}

// TestWriteFileFailure makes the rename fail: the error is returned, the
// target is untouched and the temporary file is gone.
func TestWriteFileFailure(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "f.json")
	if err := os.MkdirAll(filepath.Join(target, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(target, []byte("x"), pattern); err == nil {
		t.Fatal("WriteFile over a non-empty folder succeeded")
	}
	if st, err := os.Stat(target); err != nil || !st.IsDir() {
		t.Errorf("target changed: %v, %v", st, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, pattern)); len(left) != 0 {
		t.Errorf("temporary files left: %q", left)
	}
	if err := WriteFile(filepath.Join(dir, "no", "such", "f.json"), []byte("x"), pattern); err == nil {
		t.Error("WriteFile into a missing folder succeeded")
	}
}
