package human

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

func TestDecisiveFacts(t *testing.T) {
	g, err := games.Lookup("ticTacToe")
	if err != nil {
		t.Fatal(err)
	}
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		t.Fatal(err)
	}
	f, err := backend.New(backend.Auto, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := f(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	state := func(rows ...string) *reasoner.State {
		var facts []reasoner.Fact
		for i, row := range rows {
			for j, c := range row {
				facts = append(facts, reasoner.Fact("(cell "+string(rune('1'+i))+" "+string(rune('1'+j))+" "+string(c)+")"))
			}
		}
		return reasoner.NewState(append(facts, "(control oplayer)"))
	}
	for _, c := range []struct {
		name  string
		state *reasoner.State
		want  [][]string // any of these
	}{
		{"a row", state("xxx", "oob", "bbb"), [][]string{{"(cell 1 1 x)", "(cell 1 2 x)", "(cell 1 3 x)"}}},
		// Two lines through 1 1: one of them, whole, not the cell they share.
		{"two lines", state("xxx", "xoo", "xbo"), [][]string{
			{"(cell 1 1 x)", "(cell 1 2 x)", "(cell 1 3 x)"},
			{"(cell 1 1 x)", "(cell 2 1 x)", "(cell 3 1 x)"},
		}},
		{"a draw", state("xox", "xoo", "oxx"), [][]string{nil}},
	} {
		goals, err := r.Goals(context.Background(), c.state)
		if err != nil {
			t.Fatal(err)
		}
		var cells []string
		for _, f := range DecisiveFacts(context.Background(), r, c.state, goals) {
			if strings.HasPrefix(f, "(cell ") {
				cells = append(cells, f)
			}
		}
		slices.Sort(cells)
		if !slices.ContainsFunc(c.want, func(w []string) bool { return slices.Equal(w, cells) }) {
			t.Errorf("%s: decisive cells %v, want one of %v", c.name, cells, c.want)
		}
	}
}
