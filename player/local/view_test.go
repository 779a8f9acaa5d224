package local

import (
	"context"
	"slices"
	"testing"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// cups is a game where a role may lift only the cups that hide
// a token, and knock in the states of knocking; the states of the test
// differ in the cups that do.
const cups = `
(role a)
(cup 1) (cup 2) (cup 3)
(<= (legal a (lift ?c)) (true (token ?c)))
(<= (legal a knock) (true knocking))
(<= terminal (true done))
(goal a 100)
`

func TestLikeliestLegal(t *testing.T) {
	ctx := context.Background()
	d, err := gdl.ParseFile("cups.kif", []byte(cups))
	if err != nil {
		t.Fatal(err)
	}
	r, err := prolog.NewWithOptions(ctx, d, prolog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	state := func(facts ...reasoner.Fact) *reasoner.State { return reasoner.NewState(facts) }
	one, two := state("(token 1)"), state("(token 2)")
	oneTwo, twoThree := state("(token 1)", "(token 2)"), state("(token 2)", "(token 3)")
	knockOne, knockTwo := state("knocking", "(token 1)"), state("knocking", "(token 2)")
	tests := []struct {
		name    string
		states  []*reasoner.State
		weights []float64
		want    []string
	}{
		{"one state", []*reasoner.State{oneTwo}, []float64{1}, []string{"(lift 1)", "(lift 2)"}},
		{"legal in all", []*reasoner.State{oneTwo, twoThree}, []float64{0.5, 0.5}, []string{"(lift 2)"}},
		{"sure among others", []*reasoner.State{knockOne, knockTwo, state("knocking", "(token 1)", "(token 3)")}, []float64{0.1, 0.1, 0.8}, []string{"knock"}},
		// No move legal in all: the chances decide, not the count.
		{"by weight", []*reasoner.State{one, one, two}, []float64{0.1, 0.1, 0.8}, []string{"(lift 2)"}},
		{"by count when equal", []*reasoner.State{one, one, two}, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, []string{"(lift 1)"}},
		{"a tie", []*reasoner.State{one, two}, []float64{0.5, 0.5}, []string{"(lift 1)", "(lift 2)"}},
	}
	for _, tt := range tests {
		got, err := likeliestLegal(ctx, r, 0, tt.states, tt.weights)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		want := make([]reasoner.Move, len(tt.want))
		for i, m := range tt.want {
			want[i] = reasoner.Move(m)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", tt.name, got, want)
		}
	}
	if _, err := likeliestLegal(ctx, r, 0, []*reasoner.State{state("done")}, []float64{1}); err == nil {
		t.Error("no move legal anywhere: no error")
	}
}
