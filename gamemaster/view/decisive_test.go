package view

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/reasoner"
)

func TestStateFacts(t *testing.T) {
	for _, c := range []struct {
		state string
		want  []reasoner.Fact
		ok    bool
	}{
		{"((cell 1 1 x) (control oplayer))", []reasoner.Fact{"(cell 1 1 x)", "(control oplayer)"}, true},
		{"((f (g a) b) stayed)", []reasoner.Fact{"(f (g a) b)", "stayed"}, true},
		{"()", nil, true},
		{"((cell 1 1 x)", nil, false},
		{"((cell 1 1 x)))", nil, false},
		{"(cell 1 1 x", nil, false},
		{"", nil, false},
	} {
		got, ok := stateFacts(c.state)
		if ok != c.ok || ok && !slices.Equal(got, c.want) {
			t.Errorf("stateFacts(%q) = %q, %v; want %q, %v", c.state, got, ok, c.want, c.ok)
		}
	}
}

func TestFinalDecisive(t *testing.T) {
	// The true final state of a kriegTicTacToe won on the diagonal: its
	// decisive facts are the diagonal's cells, which a person's player,
	// who never saw that state, cannot give.
	g, err := games.Lookup("kriegTicTacToe")
	if err != nil {
		t.Fatal(err)
	}
	final := "((cell 1 1 x) (cell 1 2 o) (cell 1 3 b) (cell 2 1 o) (cell 2 2 x) (cell 2 3 b) (cell 3 1 b) (cell 3 2 b) (cell 3 3 x) (control oplayer) (blocked oplayer 2 2))"
	for _, c := range []struct {
		name      string
		completed bool
		rules     string
		want      []string
	}{
		{"won on the diagonal", true, string(g.Rules), []string{"(cell 1 1 x)", "(cell 2 2 x)", "(cell 3 3 x)"}},
		{"not completed", false, string(g.Rules), nil},
		{"rules that cannot be read", true, "(role x", nil},
	} {
		rec := &record.Record{GameKey: g.Key, GameRules: c.rules, IsCompleted: c.completed, States: []string{final}}
		got := finalDecisive(context.Background(), rec)
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: the decisive facts are %s, want %s", c.name, strings.Join(got, " "), strings.Join(c.want, " "))
		}
	}
}
