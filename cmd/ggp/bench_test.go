package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runBenchCommand(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	code = run(context.Background(), env, append([]string{"bench"}, args...))
	return code, out.String(), errOut.String()
}

// TestBenchSingleLastLine checks the line scripts read from a one-game run.
func TestBenchSingleLastLine(t *testing.T) {
	code, out, errOut := runBenchCommand(t, "--seconds", "0.2", "ticTacToe")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := strings.Fields(lines[len(lines)-1])
	if len(last) != 4 || last[0] != "rollouts/s" || last[2] != "states/s" {
		t.Fatalf("last line %q, want rollouts/s R states/s S", lines[len(lines)-1])
	}
}

// TestBenchCorpusSaveCompare runs two games and a broken one, saves the
// table, and compares it with an edited copy.
func TestBenchCorpusSaveCompare(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.kif")
	if err := os.WriteFile(broken, []byte("(role robot\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(dir, "new.json")
	code, out, errOut := runBenchCommand(t, "--seconds", "0.2", "--save", saved, "ticTacToe", broken, "nim")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"ticTacToe", "nim", "broken.kif", "error:", "3 games: 2 measured, 1 failed", "median states/s", "slowest by states/s"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	tab, err := loadTable(saved)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Games) != 3 || tab.Games[0].Game != "ticTacToe" || tab.Games[0].States == 0 || tab.Games[1].Error == "" {
		t.Fatalf("saved table %+v", tab)
	}
	// An old table where nim ran at twice the speed and ticTacToe at half.
	old := *tab
	old.Games = append([]benchResult(nil), tab.Games...)
	old.Games[0].StatesPerSec /= 2
	old.Games[0].StatesPerCPUSec /= 2
	old.Games[2].StatesPerSec *= 2
	old.Games[2].StatesPerCPUSec *= 2
	oldPath := filepath.Join(dir, "old.json")
	if err := old.save(oldPath); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runBenchCommand(t, "--compare", oldPath, saved)
	if code != 0 {
		t.Fatalf("compare: exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"2.00x", "0.50x", "2 games in both tables", "failed in one or both: broken.kif", "ratio median 1.25x, geometric mean 1.00x"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare output lacks %q:\n%s", want, out)
		}
	}
	// The most slowed down game is listed first.
	_, after, _ := strings.Cut(out, "most slowed down:\n")
	if !strings.HasPrefix(strings.TrimSpace(after), "nim") {
		t.Errorf("most slowed down does not start with nim:\n%s", after)
	}
}

func TestBenchUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--compare", "one.json"}, {"--seconds", "0", "nim"}} {
		if code, _, _ := runBenchCommand(t, args...); code != 2 {
			t.Errorf("ggp bench %v: exit %d, want 2", args, code)
		}
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runBenchCommand(t, "--compare", bad, bad)
	if code != 1 || !strings.Contains(errOut, "not a table saved by ggp bench") {
		t.Errorf("compare of a bad file: exit %d, stderr %q", code, errOut)
	}
}
