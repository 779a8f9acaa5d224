package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/reasoner/conform"
)

// A flagOrderCase runs one command with the same arguments and flags in
// different orders, each of which must give the same exit status and
// output.
type flagOrderCase struct {
	cmd string
	// orders are the command's arguments, command name excluded, in
	// different orders. "{dir}" stands for a fresh folder for each run.
	orders [][]string
	stdin  string
	// cancelled runs the command with a context already cancelled, for
	// a command that runs until it is interrupted.
	cancelled bool
	code      int
	want      string // in the output of every run, to show it did the work
	// varies, when set, matches the parts of the output that change from
	// run to run, such as counts of playouts in a fixed time.
	varies *regexp.Regexp
}

// tinyTrace writes a conformance trace of a one-step game to dir.
func tinyTrace(t *testing.T, dir string) string {
	t.Helper()
	tr := conform.Trace{
		Game:  "tiny",
		Rules: "(role p) (init s0) (<= (legal p go) (true s0)) (<= (next s1) (does p go)) (<= terminal (true s1)) (<= (goal p 100) (true s1)) (<= (goal p 0) (true s0))",
		Roles: []string{"p"},
		Playouts: []conform.Playout{{
			Steps:    []conform.Step{{State: []string{"s0"}, Legal: [][]string{{"go"}}, Move: []string{"go"}}},
			Terminal: []string{"s1"},
			Goals:    []int{100},
		}},
	}
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "tiny.json")
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// legalRecord plays ticTacToe between two legal players, which always pick
// the first legal move, and returns the record's file name.
func legalRecord(t *testing.T, dir string) string {
	t.Helper()
	code, out, errOut := runCommand(t, "match", "--players", "legal,legal", "-q", "--out", dir, "--id", "legal", "ticTacToe")
	if code != 0 {
		t.Fatalf("ggp match: exit %d\n%s\n%s", code, out, errOut)
	}
	return filepath.Join(dir, "legal.json")
}

// TestFlagsAnywhere holds every command of commands() to taking its flags
// before, between or after its arguments alike.
func TestFlagsAnywhere(t *testing.T) {
	dir := t.TempDir()
	trace := tinyTrace(t, dir)
	rec := legalRecord(t, dir)
	numbers := regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)
	port := regexp.MustCompile(`:[0-9]+\b`)
	tests := []flagOrderCase{
		{cmd: "validate", orders: [][]string{
			{"ticTacToe", "-q"}, {"-q", "ticTacToe"},
		}, want: "1 file: 0 with errors"},
		{cmd: "validate", orders: [][]string{
			{"ticTacToe", "-q", "nim"}, {"-q", "ticTacToe", "nim"}, {"ticTacToe", "nim", "-q"},
		}, want: "2 files: 0 with errors"},
		{cmd: "games", orders: [][]string{
			{"ticTacToe", "-rules"}, {"-rules", "ticTacToe"},
		}, want: "(role xplayer)"},
		{cmd: "games", orders: [][]string{
			{"nim", "-rules", "ticTacToe"}, {"-rules", "nim", "ticTacToe"}, {"nim", "ticTacToe", "-rules"},
		}, want: "(role xplayer)"},
		{cmd: "bench", orders: [][]string{
			{"ticTacToe", "--seconds", "0.2"}, {"--seconds", "0.2", "ticTacToe"},
		}, want: "rollouts/s", varies: numbers},
		{cmd: "query", stdin: "play (mark 2 2)\nask (true (cell 2 2 ?m))\n", orders: [][]string{
			{"ticTacToe", "--seed", "1"}, {"--seed", "1", "ticTacToe"},
		}, want: "(true (cell 2 2 x))"},
		{cmd: "replay", orders: [][]string{
			{rec, "-q"}, {"-q", rec}, {rec, "--game", "ticTacToe", "-q"}, {"--game", "ticTacToe", rec, "-q"},
		}, want: "agree with the rules"},
		{cmd: "conform", orders: [][]string{
			{trace, "--backend", "prolog"}, {"--backend", "prolog", trace},
		}, want: "agree 1/1"},
		{cmd: "conform", orders: [][]string{
			{trace, "--backend", "prolog", trace}, {"--backend", "prolog", trace, trace}, {trace, trace, "--backend", "prolog"},
		}, want: "agree 2/2"},
		{cmd: "match", orders: [][]string{
			{"ticTacToe", "--players", "legal,legal", "-q"},
			{"--players", "legal,legal", "-q", "ticTacToe"},
			{"--players", "legal,legal", "ticTacToe", "-q"},
		}, want: "goals: xplayer (legal) "},
		{cmd: "tournament", orders: [][]string{
			{"--games", "nim", "--players", "legal,legal", "--out", "{dir}"},
			{"--out", "{dir}", "--players", "legal,legal", "--games", "nim"},
		}, want: "2 of 2 matches completed"},
		// Two legal players, deterministic: the first wins as first and
		// loses as second, so the test stays undecided.
		{cmd: "tournament", orders: [][]string{
			{"--games", "nim", "--players", "legal,legal", "--sprt", "0.1", "--rounds", "2", "--out", "{dir}"},
			{"--sprt", "0.1", "--out", "{dir}", "--rounds", "2", "--players", "legal,legal", "--games", "nim"},
		}, want: "SPRT: undecided after 4 matches"},
		{cmd: "tournament", code: 2, orders: [][]string{
			{"nim", "--players", "legal,legal", "--out", "{dir}"},
			{"--players", "legal,legal", "--out", "{dir}", "nim"},
		}, want: `unexpected arguments ["nim"]`},
		{cmd: "play", cancelled: true, orders: [][]string{
			{"--port", "0", "--host", "127.0.0.1", "--player", "random"},
			{"--player", "random", "--host", "127.0.0.1", "--port", "0"},
		}, want: "ggp play: stopped", varies: port},
		{cmd: "play", code: 2, orders: [][]string{
			{"extra", "--port", "0", "--player", "random"},
			{"--port", "0", "--player", "random", "extra"},
		}, want: `unexpected argument "extra"`},
		{cmd: "view", cancelled: true, orders: [][]string{
			{"{dir}", "--port", "0", "--games", "{dir}"},
			{"--port", "0", "{dir}", "--games", "{dir}"},
			{"--games", "{dir}", "--port", "0", "{dir}"},
		}, want: "viewing {dir} at http://127.0.0.1:", varies: port},
		{cmd: "host", code: 2, orders: [][]string{
			{"extra", "--data", "{dir}", "--listen", "127.0.0.1:0"},
			{"--data", "{dir}", "extra", "--listen", "127.0.0.1:0"},
			{"--data", "{dir}", "--listen", "127.0.0.1:0", "extra"},
		}, want: `unexpected arguments ["extra"]`},
		{cmd: "worker", code: 2, orders: [][]string{
			{"extra", "--db", "postgres://ggp@127.0.0.1:1/ggp"},
			{"--db", "postgres://ggp@127.0.0.1:1/ggp", "extra"},
		}, want: `unexpected arguments ["extra"]`},
	}
	for _, c := range commands() {
		if !slices.ContainsFunc(tests, func(tt flagOrderCase) bool { return tt.cmd == c.name }) {
			t.Errorf("no case for command %s", c.name)
		}
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.cmd+" "+strings.Join(tt.orders[0], " "), dir+string(filepath.Separator), ""), func(t *testing.T) {
			var first string
			for i, args := range tt.orders {
				got := runOrder(t, tt, args)
				if !strings.Contains(got, tt.want) {
					t.Errorf("ggp %s %s: output lacks %q:\n%s", tt.cmd, strings.Join(args, " "), tt.want, got)
				}
				if tt.varies != nil {
					got = tt.varies.ReplaceAllString(got, "#")
				}
				if i == 0 {
					first = got
				} else if got != first {
					t.Errorf("ggp %s %s differs from ggp %s %s:\n%s\nwant\n%s", tt.cmd, strings.Join(args, " "), tt.cmd, strings.Join(tt.orders[0], " "), got, first)
				}
			}
		})
	}
}

// runOrder runs one order of a case and returns its exit status, standard
// output and standard error in one text.
func runOrder(t *testing.T, tt flagOrderCase, args []string) string {
	t.Helper()
	dir := t.TempDir()
	args = slices.Clone(args)
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "{dir}", dir)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if tt.cancelled {
		cancel()
	}
	var out, errOut bytes.Buffer
	env := &environment{stdin: strings.NewReader(tt.stdin), stdout: &out, stderr: &errOut}
	code := run(ctx, env, append([]string{tt.cmd}, args...))
	if code != tt.code {
		t.Errorf("ggp %s %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tt.cmd, strings.Join(args, " "), code, tt.code, out.String(), errOut.String())
	}
	text := "stdout:\n" + out.String() + "stderr:\n" + errOut.String()
	return strings.ReplaceAll(text, dir, "{dir}")
}

// TestHelpEverywhere: -h prints a command's help wherever it stands, and is
// never taken for an argument.
func TestHelpEverywhere(t *testing.T) {
	for _, c := range commands() {
		for _, args := range [][]string{{"-h"}, {"x.kif", "-h"}, {"--help", "x.kif"}} {
			code, out, errOut := runCommand(t, append([]string{c.name}, args...)...)
			if code != 0 || out != "" || !strings.HasPrefix(errOut, "Usage: ggp "+c.name+" ") || !strings.Contains(errOut, "Flags:") {
				t.Errorf("ggp %s %s: exit %d\nstdout:\n%s\nstderr:\n%s", c.name, strings.Join(args, " "), code, out, errOut)
			}
		}
	}
}

// TestUnknownFlagAfterArguments: a flag that the command does not define is
// a usage error wherever it stands, not an argument.
func TestUnknownFlagAfterArguments(t *testing.T) {
	for _, c := range commands() {
		for _, args := range [][]string{{"x.json", "--foo"}, {"--foo", "x.json"}} {
			code, out, errOut := runCommand(t, append([]string{c.name}, args...)...)
			if code != 2 || out != "" || !strings.Contains(errOut, "flag provided but not defined: -foo") {
				t.Errorf("ggp %s %s: exit %d\nstdout:\n%s\nstderr:\n%s", c.name, strings.Join(args, " "), code, out, errOut)
			}
		}
	}
}
