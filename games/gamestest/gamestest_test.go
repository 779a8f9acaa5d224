package gamestest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDirs checks that the folders are found beside the module root from
// a package two levels below it, and from a subfolder of a module.
func TestDirs(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{Games(), "../../../shared/games"},
		{Conformance(), "../../../shared/conformance"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %s, want %s", tt.got, tt.want)
		}
	}

	mod := t.TempDir()
	sub := filepath.Join(mod, "a", "b", "c")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	if got, want := Games(), "../../../../shared/games"; got != want {
		t.Errorf("from a/b/c: got %s, want %s", got, want)
	}
	t.Chdir(mod)
	if got, want := Conformance(), "../shared/conformance"; got != want {
		t.Errorf("from the module root: got %s, want %s", got, want)
	}
}
