package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/reasoner"
)

func TestJointMove(t *testing.T) {
	ms := func(s ...string) []reasoner.Move {
		moves := make([]reasoner.Move, len(s))
		for i, m := range s {
			moves[i] = reasoner.Move(m)
		}
		return moves
	}
	two := []string{"xplayer", "oplayer"}
	xTurn := [][]reasoner.Move{ms("(mark 1 1)", "(mark 1 2)"), ms("noop")}
	oTurn := [][]reasoner.Move{ms("noop"), ms("(mark 1 1)", "(mark 1 2)")}
	both := [][]reasoner.Move{ms("paper", "rock"), ms("paper", "rock")}
	three := []string{"a", "b", "c"}
	middle := [][]reasoner.Move{ms("noop"), ms("left", "noop", "right"), ms("noop")}
	tests := []struct {
		name  string
		roles []string
		legal [][]reasoner.Move
		typed []reasoner.Move
		want  []reasoner.Move
		err   string
	}{
		{"the mover only", two, xTurn, ms("(mark 1 2)"), ms("(mark 1 2)", "noop"), ""},
		{"every role", two, xTurn, ms("(mark 1 2)", "noop"), ms("(mark 1 2)", "noop"), ""},
		{"second role moves", two, oTurn, ms("(mark 1 1)"), ms("noop", "(mark 1 1)"), ""},
		{"illegal for the mover", two, oTurn, ms("(mark 3 3)"), nil, "(mark 3 3) is not a legal move for oplayer"},
		{"moves swapped", two, xTurn, ms("noop", "(mark 1 1)"), nil, "noop is not a legal move for xplayer"},
		{"too many", two, xTurn, ms("(mark 1 1)", "noop", "noop"), nil,
			"got 3 moves; play wants 1, for xplayer, as the other roles have a single legal move; or 2, one per role: xplayer, oplayer"},
		{"none", two, xTurn, nil, nil, "got 0 moves"},
		{"simultaneous", two, both, ms("rock", "paper"), ms("rock", "paper"), ""},
		{"simultaneous, one move", two, both, ms("rock"), nil, "got 1 move; play wants 2, one per role: xplayer, oplayer"},
		{"middle role only", three, middle, ms("left"), ms("noop", "left", "noop"), ""},
		{"middle role's noop", three, middle, ms("noop"), ms("noop", "noop", "noop"), ""},
		{"all three", three, middle, ms("noop", "right", "noop"), ms("noop", "right", "noop"), ""},
		{"two of three", three, middle, ms("noop", "right"), nil, "got 2 moves"},
		{"forced roles only", two, [][]reasoner.Move{ms("noop"), ms("wait")}, nil, ms("noop", "wait"), ""},
		{"forced roles, one typed", two, [][]reasoner.Move{ms("noop"), ms("wait")}, ms("noop"), nil,
			"got 1 move; play wants none, as every role has a single legal move; or 2, one per role"},
	}
	for _, tt := range tests {
		got, err := jointMove(tt.roles, tt.legal, tt.typed)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}
