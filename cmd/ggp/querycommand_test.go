package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/reasoner"
)

func TestParseQueryCommand(t *testing.T) {
	tests := []struct {
		line  string
		verb  string
		role  string
		moves []reasoner.Move
		query string
		err   string // part of the error; "" for none
	}{
		{line: "", verb: ""},
		{line: "   \t ", verb: ""},
		{line: "# play (mark 1 1)", verb: ""},
		{line: "legal", verb: "legal"},
		{line: "  LEGAL   xplayer ", verb: "legal", role: "xplayer"},
		{line: "legal x o", err: `legal takes at most one ROLE, got "x o"`},
		{line: "legal " + strings.Repeat("é ", 40), err: `legal takes at most one ROLE, got "` + strings.Repeat("é ", 20) + `..."`},
		{line: "play", verb: "play", moves: []reasoner.Move{}},
		{line: "play (mark 1 1)", verb: "play", moves: []reasoner.Move{"(mark 1 1)"}},
		{line: "play ( mark 1  1 )", verb: "play", moves: []reasoner.Move{"(mark 1 1)"}},
		{line: "play (mark 1 1) noop", verb: "play", moves: []reasoner.Move{"(mark 1 1)", "noop"}},
		{line: "play\t(mark 1 1)noop", verb: "play", moves: []reasoner.Move{"(mark 1 1)", "noop"}},
		{line: "play (move (at 1 2) (at 3 4)) noop ; comment", verb: "play", moves: []reasoner.Move{"(move (at 1 2) (at 3 4))", "noop"}},
		{line: "play (noop)", verb: "play", moves: []reasoner.Move{"noop"}},
		{line: "play (mark 1 1", err: `play: bad moves "(mark 1 1": unclosed '('`},
		{line: "play (mark 1 1))", err: `play: bad moves "(mark 1 1))": unmatched ')'`},
		{line: "play (mark ?x 1)", err: "play: bad move (mark ?x 1): a move cannot hold variables"},
		{line: "play ?x", err: "play: bad move ?x: a move cannot hold variables"},
		{line: "play ((mark) 1)", err: "play: bad move ((mark) 1): "},
		{line: "ask (line ?w)", verb: "ask", query: "(line ?w)"},
		{line: "ask ( true (cell ?m ?n x) )", verb: "ask", query: "(true (cell ?m ?n x))"},
		{line: "ask terminal", verb: "ask", query: "terminal"},
		{line: "ask", err: "ask wants a query"},
		{line: "ask ?x", err: `ask: bad query "?x": variable ?x cannot be a sentence`},
		{line: "ask (not (line x))", err: `ask: bad query "(not (line x))": 'not' cannot be a sentence`},
		{line: "ask (line x) terminal", err: `ask: bad query "(line x) terminal": unexpected "terminal" after a sentence`},
		{line: "undo", verb: "undo"},
		{line: "undo 2", err: `undo takes no arguments, got "2"`},
		{line: "random", verb: "random"},
		{line: "state", verb: "state"},
		{line: "terminal", verb: "terminal"},
		{line: "goals", verb: "goals"},
		{line: "history", verb: "history"},
		{line: "help", verb: "help"},
		{line: "help play", err: `help takes no arguments, got "play"`},
		{line: "quit", verb: "quit"},
		{line: "Exit", verb: "quit"},
		{line: "fly", err: `unknown command "fly"; type help`},
		{line: "(mark 1 1)", err: `unknown command "(mark"; to play moves, type "play (mark 1 1)"`},
	}
	for _, tt := range tests {
		cmd, err := parseQueryCommand(tt.line)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseQueryCommand(%q): error %v, want %q", tt.line, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseQueryCommand(%q): %v", tt.line, err)
			continue
		}
		query := ""
		if cmd.query != nil {
			query = cmd.query.String()
		}
		if cmd.verb != tt.verb || cmd.role != tt.role || !slices.Equal(cmd.moves, tt.moves) || (cmd.moves == nil) != (tt.moves == nil) || query != tt.query {
			t.Errorf("parseQueryCommand(%q) = verb %q role %q moves %q query %q, want %q %q %q %q",
				tt.line, cmd.verb, cmd.role, cmd.moves, query, tt.verb, tt.role, tt.moves, tt.query)
		}
	}
}

func TestClip(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{strings.Repeat("a", 60), strings.Repeat("a", 60)},
		{strings.Repeat("a", 61), strings.Repeat("a", 60) + "..."},
		// Byte 60 falls inside an é, which is left out whole.
		{"a" + strings.Repeat("é", 40), "a" + strings.Repeat("é", 29) + "..."},
	}
	for _, tt := range tests {
		if got := clip(tt.in); got != tt.want {
			t.Errorf("clip(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
