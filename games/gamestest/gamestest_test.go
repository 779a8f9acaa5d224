package gamestest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

func TestSlowdown(t *testing.T) {
	tests := []struct {
		value string
		want  float64
		ok    bool
	}{
		{"", 1, true},
		{"3", 3, true},
		{"1.5", 1.5, true},
		{"0", 0, false},
		{"-2", 0, false},
		{"NaN", 0, false},
		{"Inf", 0, false},
		{"1e9", 0, false},
		{"fast", 0, false},
	}
	for _, tt := range tests {
		got, err := slowdown(tt.value)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("slowdown(%q) = %v, %v; want %v, ok %v", tt.value, got, err, tt.want, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), SlowdownEnv) {
			t.Errorf("slowdown(%q): error %q does not name %s", tt.value, err, SlowdownEnv)
		}
	}
}

func TestScale(t *testing.T) {
	t.Setenv(SlowdownEnv, "2")
	want := 2 * time.Second
	if Race {
		want *= raceSlowdown
	}
	if got := Scale(t, time.Second); got != want {
		t.Errorf("Scale(1s) with %s=2 = %v, want %v", SlowdownEnv, got, want)
	}
}
