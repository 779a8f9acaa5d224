package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/reasoner/conform"
)

// TestConformSkipsUngrounded checks that --backend propnet leaves a game
// it cannot ground out of the count, saying why, and that auto plays it.
func TestConformSkipsUngrounded(t *testing.T) {
	// The state grows without bound, so the game cannot be grounded.
	rules := `(role a) (init (s 0)) (<= (legal a go) (true (s ?x)))
(<= (next (s (f ?x))) (true (s ?x))) (<= terminal (true (s (f (f 0))))) (goal a 100)`
	tr := conform.Trace{Game: "growing", Rules: rules, Roles: []string{"a"}, Playouts: []conform.Playout{{
		Steps: []conform.Step{
			{State: []string{"(s 0)"}, Legal: [][]string{{"go"}}, Move: []string{"go"}},
			{State: []string{"(s (f 0))"}, Legal: [][]string{{"go"}}, Move: []string{"go"}},
		},
		Terminal: []string{"(s (f (f 0)))"},
		Goals:    []int{100},
	}}}
	data, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "growing.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		backend string
		code    int
		want    []string
	}{
		{"propnet", 0, []string{"skip growing: not grounded: ", "agree 0/0"}},
		{"auto", 0, []string{"ok growing", "agree 1/1"}},
	} {
		var out, errOut bytes.Buffer
		env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
		code := run(context.Background(), env, []string{"conform", "--backend", tt.backend, path})
		if code != tt.code {
			t.Errorf("%s: exit %d, stderr %q", tt.backend, code, errOut.String())
		}
		for _, w := range tt.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: output %q lacks %q", tt.backend, out.String(), w)
			}
		}
	}
}
