package propnet_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

// twoBoards is the simultaneous connect four in small: two boards of three
// places, both roles marking at once, each on the board it controls, the
// boards swapping every turn. Two places 1 and 2 of one board win; a full
// board ends the game.
const twoBoards = `
(role x) (role o)
(board 1) (board 2) (place 1) (place 2) (place 3)
(init (control x 1)) (init (control o 2))
(<= (legal ?r (mark ?b ?p)) (true (control ?r ?b)) (place ?p) (not (taken ?b ?p)))
(<= (taken ?b ?p) (true (cell ?b ?p ?r)))
(<= (next (cell ?b ?p ?r)) (does ?r (mark ?b ?p)))
(<= (next (cell ?b ?p ?r)) (true (cell ?b ?p ?r)))
(<= (next (control x ?b)) (true (control o ?b)))
(<= (next (control o ?b)) (true (control x ?b)))
(<= (won ?r) (true (cell ?b 1 ?r)) (true (cell ?b 2 ?r)))
(<= (open ?b) (board ?b) (place ?p) (not (taken ?b ?p)))
(<= terminal (won ?r))
(<= terminal (board ?b) (not (open ?b)))
(<= (goal ?r 100) (won ?r))
(<= (goal ?r 0) (role ?r) (not (won ?r)))
`

// factorText writes the factors of r as each role's moves, by name.
func factorText(r *propnet.Reasoner) [][][]reasoner.Move {
	var out [][][]reasoner.Move
	for _, f := range r.Factors() {
		var roles [][]reasoner.Move
		for role, ms := range f {
			var names []reasoner.Move
			for _, i := range ms {
				names = append(names, r.Moves(role)[i])
			}
			roles = append(roles, names)
		}
		out = append(out, roles)
	}
	return out
}

// TestFactors checks the factors found in small games: one per board
// where the boards share nothing but the goals, none where a turn fact
// joins every move.
func TestFactors(t *testing.T) {
	for _, tt := range []struct {
		name, rules string
		want        [][][]reasoner.Move
	}{
		{"twoBoards", twoBoards, [][][]reasoner.Move{
			{{"(mark 1 1)", "(mark 1 2)", "(mark 1 3)"}, {"(mark 1 1)", "(mark 1 2)", "(mark 1 3)"}},
			{{"(mark 2 1)", "(mark 2 2)", "(mark 2 3)"}, {"(mark 2 1)", "(mark 2 2)", "(mark 2 3)"}},
		}},
		// One control fact for both boards: a move's legality reads
		// the fact every move's next value flips.
		{"oneTurn", `
(role x) (role o)
(board 1) (board 2) (place 1) (place 2)
(init (control x))
(<= (legal ?r (mark ?b ?p)) (true (control ?r)) (board ?b) (place ?p))
(<= (legal x noop) (true (control o)))
(<= (legal o noop) (true (control x)))
(<= (next (cell ?b ?p ?r)) (does ?r (mark ?b ?p)))
(<= (next (cell ?b ?p ?r)) (true (cell ?b ?p ?r)))
(<= (next (control x)) (true (control o)))
(<= (next (control o)) (true (control x)))
(<= terminal (true (cell ?b 1 ?r)))
(<= (goal ?r 50) (role ?r))
`, nil},
		{"pairs", pairs, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := newBoth(t, tt.rules)
			got := factorText(r)
			if !slices.EqualFunc(got, tt.want, func(a, b [][]reasoner.Move) bool {
				return slices.EqualFunc(a, b, slices.Equal)
			}) {
				t.Errorf("factors %q, want %q", got, tt.want)
			}
		})
	}
}

// TestNextInFactor checks a step within a factor against Next: the
// factor's facts step as in the game, the other factor's stay, and the
// two factors' steps one after the other make the game's step, in random
// games of the small two boards and of the corpus's simultaneous connect
// four.
func TestNextInFactor(t *testing.T) {
	ctx := context.Background()
	twoBoardsNet, _ := newBoth(t, twoBoards)
	s0, err := twoBoardsNet.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s1, err := twoBoardsNet.NextInFactor(ctx, s0, 0, []reasoner.Move{"(mark 1 1)", "(mark 2 3)"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s1.Facts(), []reasoner.Fact{"(cell 1 1 x)", "(control o 1)", "(control o 2)"}; !slices.Equal(got, want) {
		t.Errorf("after x marks 1 1 in factor 0: %q, want %q", got, want)
	}
	if _, err := twoBoardsNet.NextInFactor(ctx, s0, 2, []reasoner.Move{"(mark 1 1)", "(mark 2 3)"}); err == nil {
		t.Error("a step in factor 2 of 2 was taken")
	}

	t.Run("twoBoards", func(t *testing.T) { checkFactorSteps(t, twoBoardsNet) })
	t.Run("connectFourSimultaneous", func(t *testing.T) {
		r, err := propnet.New(ctx, sharedGame(t, "connectFourSimultaneous"), propnet.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(r.Factors()); n != 2 {
			t.Fatalf("%d factors, want 2", n)
		}
		checkFactorSteps(t, r)
	})
}

// checkFactorSteps plays random games of r, a two-player game of two
// factors, and checks that at every step the two factors' steps one after
// the other make the game's step.
func checkFactorSteps(t *testing.T, r *propnet.Reasoner) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	steps := 0
	for range 20 {
		s, err := r.Initial(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for {
			if term, err := r.Terminal(ctx, s); err != nil || term {
				break
			}
			joint := make([]reasoner.Move, 2)
			for role := range joint {
				ms, err := r.Legal(ctx, s, role)
				if err != nil || len(ms) == 0 {
					t.Fatalf("legal: %v %v", ms, err)
				}
				joint[role] = ms[rng.IntN(len(ms))]
			}
			want, err := r.Next(ctx, s, joint)
			if err != nil {
				t.Fatal(err)
			}
			half, err := r.NextInFactor(ctx, s, 0, joint)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.NextInFactor(ctx, half, 1, joint)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				t.Fatalf("%v after %v: factor by factor %v, in one step %v", s, joint, got, want)
			}
			s = want
			steps++
		}
	}
	if steps < 40 {
		t.Errorf("only %d steps checked", steps)
	}
}
