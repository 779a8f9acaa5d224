package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// lenientGame is gdl's small GDL-II game whose coins rule has ?p and ?c in
// two negations alone, read as Prolog reads them (line 25).
var lenientGame = filepath.Join("..", "..", "gdl", "testdata", "lenient", "negations.kif")

// TestStrictFlag checks --strict where rules are played and validated: a
// GDL-II game that departs from strict GDL is played with a warning naming
// the place, and refused under --strict; validate lists the departures as
// warnings, and as errors under --strict.
func TestStrictFlag(t *testing.T) {
	const place = "negations.kif:25:16: "
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // substrings of standard output
		stderr []string // substrings of standard error
	}{
		{"match plays with warnings", []string{"match", lenientGame, "--players", "random", "-q", "--seed", "1"}, 0,
			[]string{"goals: alice"}, []string{place + "warning: unsafe rule for next: variable ?p appears only in negations", "(not strict GDL)"}},
		{"match refuses under --strict", []string{"match", lenientGame, "--players", "random", "-q", "--strict"}, 1,
			nil, []string{"not strict GDL, and strict rules were asked for", place}},
		{"validate warns", []string{"validate", lenientGame}, 0,
			[]string{place + "warning: unsafe rule", "(not strict GDL)", "1 file: 0 with errors, 0 errors, 2 warnings (2 not strict GDL)"}, nil},
		{"validate fails under --strict", []string{"validate", "--strict", lenientGame}, 1,
			[]string{place + "error: unsafe rule", "1 file: 1 with errors, 2 errors, 0 warnings (2 not strict GDL)"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCommand(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errOut)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errOut)
				}
			}
		})
	}
}
