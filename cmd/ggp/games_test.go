package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func runGamesCommand(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	code = run(context.Background(), env, append([]string{"games"}, args...))
	return code, out.String(), errOut.String()
}

// bundledRoles is what the rules of each bundled game say, written out
// here so that the listing is checked against more than itself.
var bundledRoles = map[string][]string{
	"bankerThief":          {"banker", "thief", "random"},
	"battleshipsFog":       {"captain", "random"},
	"breakthrough":         {"white", "black"},
	"connectFour":          {"red", "black"},
	"eightPuzzle":          {"player"},
	"hanoi":                {"player"},
	"kriegTicTacToe":       {"xplayer", "oplayer"},
	"kuhnPoker":            {"first", "second", "random"},
	"liarsDie":             {"first", "second", "random"},
	"maze":                 {"robot"},
	"montyhall":            {"candidate", "random"},
	"nim":                  {"first", "second"},
	"numberGuess":          {"guesser", "random"},
	"rockPaperScissors":    {"left", "right"},
	"threePlayerTicTacToe": {"red", "green", "blue"},
	"ticTacToe":            {"xplayer", "oplayer"},
}

// bundledGDLII is the bundled games written in GDL-II: those with hidden
// information, sees rules, and nature's role random where chance plays.
var bundledGDLII = map[string]bool{
	"bankerThief":    true,
	"battleshipsFog": true,
	"kriegTicTacToe": true,
	"kuhnPoker":      true,
	"liarsDie":       true,
	"montyhall":      true,
	"numberGuess":    true,
}

func TestGamesCommandLists(t *testing.T) {
	code, out, errOut := runGamesCommand(t)
	if code != 0 || errOut != "" {
		t.Fatalf("ggp games: exit %d, stderr %q", code, errOut)
	}
	// Each game starts an unindented line: key, then its roles.
	// A GDL-II game's line ends in a tag.
	listed := map[string]string{}
	tagged := map[string]bool{}
	var order []string
	for _, line := range strings.Split(out, "\n") {
		if line == "" || strings.HasPrefix(line, " ") {
			continue
		}
		key, roles, _ := strings.Cut(line, " ")
		roles, tagged[key] = strings.CutSuffix(roles, "  [GDL-II]")
		listed[key] = strings.TrimSpace(roles)
		order = append(order, key)
	}
	if len(listed) != len(bundledRoles) {
		t.Errorf("listed %d games %v, want %d", len(listed), order, len(bundledRoles))
	}
	for key, roles := range bundledRoles {
		got, ok := listed[key]
		if !ok {
			t.Errorf("%s not listed", key)
			continue
		}
		if want := strings.Join(roles, ", "); got != want {
			t.Errorf("%s: roles %q, want %q", key, got, want)
		}
		if tagged[key] != bundledGDLII[key] {
			t.Errorf("%s: tagged GDL-II %v, want %v", key, tagged[key], bundledGDLII[key])
		}
	}
	for i := 1; i < len(order); i++ {
		if order[i-1] >= order[i] {
			t.Errorf("games not sorted by key: %s before %s", order[i-1], order[i])
		}
	}
	// The descriptions follow, indented.
	for _, want := range []string{"    Tic-tac-toe for two players", "    Nim for two players"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestGamesCommandArgs(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     []string // substrings of stdout
		notStdout  []string
		stderr     []string // substrings of stderr
		exactLines int      // unindented lines in stdout, when > 0
	}{
		{
			name:       "one game, any case",
			args:       []string{"TICTACTOE"},
			stdout:     []string{"ticTacToe  xplayer, oplayer\n"},
			notStdout:  []string{"nim"},
			exactLines: 1,
		},
		{
			name:       "a GDL-II game",
			args:       []string{"montyhall"},
			stdout:     []string{"montyhall  candidate, random  [GDL-II]\n", "    The Monty Hall problem"},
			exactLines: 1,
		},
		{
			name:      "rules",
			args:      []string{"-rules", "nim"},
			stdout:    []string{"(role first)", "(init (heap c 5))"},
			notStdout: []string{"xplayer"},
		},
		{
			name:   "unknown game",
			args:   []string{"noSuchGame"},
			code:   2,
			stderr: []string{`unknown game "noSuchGame"`, "ticTacToe", "run 'ggp games -h'"},
		},
		{
			name:   "help",
			args:   []string{"-h"},
			stderr: []string{"Usage: ggp games", "-rules", "Example:", "ggp games -rules ticTacToe", "tagged [GDL-II]"},
		},
		{
			name:   "bad flag",
			args:   []string{"-x"},
			code:   2,
			stderr: []string{"flag provided but not defined: -x"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runGamesCommand(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.code, errOut)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tt.notStdout {
				if strings.Contains(out, s) {
					t.Errorf("stdout has %q:\n%s", s, out)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errOut)
				}
			}
			if tt.exactLines > 0 {
				n := 0
				for _, line := range strings.Split(out, "\n") {
					if line != "" && !strings.HasPrefix(line, " ") {
						n++
					}
				}
				if n != tt.exactLines {
					t.Errorf("%d games listed, want %d:\n%s", n, tt.exactLines, out)
				}
			}
		})
	}
}
