package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const validateGoodGame = `(role robot)
(init on)
(<= (legal robot push) (true on))
(<= (next off) (does robot push))
(<= terminal (true off))
(<= (goal robot 100) (true off))
(<= (goal robot 0) (true on))
`

// validateFiles writes the test files into a temporary directory and
// returns its path.
func validateFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"good.kif": validateGoodGame,
		// Line 1 binds ?x nowhere; line 2 is never used.
		"bad.kif":    "(<= (legal robot ?x) (true on))\n(<= spare (true on))\n" + validateGoodGame,
		"warn.kif":   "(<= spare (true on))\n" + validateGoodGame,
		"syntax.kif": "(role robot\n",
		// A game folder in the repository layout, the rules in v1/.
		"folder/METADATA":      `{"gameName": "Folder", "rulesheet": "folder.kif"}`,
		"folder/v0/folder.kif": "(role old)\n",
		"folder/v1/folder.kif": validateGoodGame + "(<= (goal robot 50) (true on) (not (goal robot 0)))\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runValidateCommand(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	code = run(context.Background(), env, args)
	return code, out.String(), errOut.String()
}

func TestValidateCommand(t *testing.T) {
	dir := validateFiles(t)
	p := func(name string) string { return filepath.Join(dir, filepath.FromSlash(name)) }
	tests := []struct {
		name  string
		args  []string
		code  int
		lines []string // the whole output; a line ending in "..." is a prefix
	}{
		{"valid file", []string{p("good.kif")}, 0, []string{
			"1 file: 0 with errors, 0 errors, 0 warnings",
		}},
		{"warnings only", []string{p("warn.kif")}, 0, []string{
			p("warn.kif") + ":1:5: warning: relation spare is defined but never used by another rule, so it has no effect on the game",
			"1 file: 0 with errors, 0 errors, 1 warning",
		}},
		{"warnings hidden", []string{"-q", p("warn.kif")}, 0, []string{
			"1 file: 0 with errors, 0 errors, 1 warning",
		}},
		{"errors and warnings", []string{p("bad.kif")}, 1, []string{
			p("bad.kif") + ":1:18: error: unsafe rule for legal: variable ?x in the head appears in no positive literal of the body",
			p("bad.kif") + ":2:5: warning: relation spare is defined but never used by another rule, so it has no effect on the game",
			"1 file: 1 with errors, 1 error, 1 warning",
		}},
		{"syntax error", []string{p("syntax.kif")}, 1, []string{
			p("syntax.kif") + ":1:1: error: ...",
			"1 file: 1 with errors, 1 error, 0 warnings",
		}},
		{"game folder uses the newest version", []string{p("folder")}, 1, []string{
			p("folder/v1/folder.kif") + ":8:36: error: negation cycle: this rule for goal uses (not (goal robot 0)), ...",
			"1 file: 1 with errors, 1 error, 0 warnings",
		}},
		{"missing file", []string{p("none.kif")}, 1, []string{
			p("none.kif") + ": error: no such file or directory",
			"1 file: 1 with errors, 1 error, 0 warnings",
		}},
		{"several files", []string{p("good.kif"), p("warn.kif"), p("bad.kif"), p("none.kif")}, 1, []string{
			p("warn.kif") + ":1:5: warning: ...",
			p("bad.kif") + ":1:18: error: unsafe rule for legal: ...",
			p("bad.kif") + ":2:5: warning: ...",
			p("none.kif") + ": error: no such file or directory",
			"4 files: 2 with errors, 2 errors, 2 warnings",
		}},
		{"several files, errors only", []string{"-q", p("good.kif"), p("warn.kif"), p("bad.kif")}, 1, []string{
			p("bad.kif") + ":1:18: error: unsafe rule for legal: ...",
			"3 files: 1 with errors, 1 error, 2 warnings",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runValidateCommand(t, append([]string{"validate"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d; stderr: %s", code, tt.code, stderr)
			}
			got := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			want := tt.lines
			if len(got) != len(want) {
				t.Fatalf("output has %d lines, want %d:\n%s", len(got), len(want), stdout)
			}
			for i := range want {
				if prefix, ok := strings.CutSuffix(want[i], "..."); ok {
					if !strings.HasPrefix(got[i], prefix) {
						t.Errorf("line %d = %q, want prefix %q", i+1, got[i], prefix)
					}
				} else if got[i] != want[i] {
					t.Errorf("line %d = %q\n          want %q", i+1, got[i], want[i])
				}
			}
		})
	}
}

func TestValidateCommandUsage(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no files", []string{"validate"}, 2, "no files to validate"},
		{"unknown flag", []string{"validate", "-x", "a.kif"}, 2, "flag provided but not defined: -x"},
		{"help", []string{"validate", "-h"}, 0, "Example:\n  ggp validate "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runValidateCommand(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d", code, tt.code)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q does not contain %q", stderr, tt.stderr)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
		})
	}
}
