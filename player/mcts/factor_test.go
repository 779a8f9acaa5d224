package mcts

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/ggp-go/ggp/reasoner"
)

// sideBySide is two small boards played at once: each turn white marks a
// place of the board it holds and black one of the other, and the boards
// change hands. A role holding places 1 and 2, or 3 and 4, of one board
// wins; the game ends when both boards are full.
const sideBySide = `
(role white) (role black)
(board a) (board b) (place 1) (place 2) (place 3) (place 4)
(pair 1 2) (pair 3 4)
(init (holds white a)) (init (holds black b))
(<= (legal ?r (put ?b ?p)) (true (holds ?r ?b)) (place ?p) (not (used ?b ?p)))
(<= (used ?b ?p) (true (at ?b ?p ?r)))
(<= (next (at ?b ?p ?r)) (does ?r (put ?b ?p)))
(<= (next (at ?b ?p ?r)) (true (at ?b ?p ?r)))
(<= (next (holds white ?b)) (true (holds black ?b)))
(<= (next (holds black ?b)) (true (holds white ?b)))
(<= (line ?r) (pair ?p ?q) (true (at ?b ?p ?r)) (true (at ?b ?q ?r)))
(<= (open ?b) (board ?b) (place ?p) (not (used ?b ?p)))
(<= terminal (line ?r))
(<= anyOpen (open ?b))
(<= terminal (not anyOpen))
(<= (goal ?r 100) (line ?r))
(<= (goal ?r 50) (role ?r) (not (line white)) (not (line black)))
(<= (goal ?r 0) (role ?r) (not (line ?r)) (line ?o))
`

// TestFactored plays sideBySide with a Factored search for white: the
// search of the board white holds is the one that answers, it takes a
// win on that board, and it follows the game as the boards change hands.
func TestFactored(t *testing.T) {
	ctx := context.Background()
	r := grounded(t, "sidebyside.kif", sideBySide)
	cfg := Config{Workers: 1, Heuristic: Off}
	fz, err := NewFactored(ctx, r, cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fz.Close()
	if fz.Factors() != 2 {
		t.Fatalf("%d factors searched apart, want 2", fz.Factors())
	}
	// The game whole, to check the state Factored reports.
	st, err := r.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i, joint := range [][]reasoner.Move{
		{"(put a 1)", "(put b 3)"}, // white on a, black on b
		{"(put b 1)", "(put a 3)"}, // the boards change hands
	} {
		dctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		if _, err := fz.Decide(dctx, 0); err != nil {
			t.Fatal(err)
		}
		cancel()
		m, err := fz.Best(0)
		if err != nil {
			t.Fatal(err)
		}
		legal, err := r.Legal(ctx, st, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(legal, m) {
			t.Errorf("step %d: Best %s, not among white's legal moves %v", i+1, m, legal)
		}
		if got, ok := fz.TryLegal(0, st); !ok || !slices.Equal(got, legal) {
			t.Errorf("step %d: TryLegal %v %v, want %v", i+1, got, ok, legal)
		}
		if err := fz.Advance(ctx, joint); err != nil {
			t.Fatal(err)
		}
		if st, err = r.Next(ctx, st, joint); err != nil {
			t.Fatal(err)
		}
		if !fz.State().Equal(st) {
			t.Fatalf("step %d: state %v, want %v", i+1, fz.State(), st)
		}
	}
	// White holds a again, with place 1 of it: place 2 wins at once.
	dctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	if _, err := fz.Decide(dctx, 0); err != nil {
		t.Fatal(err)
	}
	if m, err := fz.Best(0); err != nil || m != "(put a 2)" {
		t.Errorf("Best %s %v, want the win (put a 2)", m, err)
	}
	ms, ok := fz.RootMove(0, "(put a 2)")
	if !ok || !ms.Proven || ms.Mean != 1 {
		t.Errorf("(put a 2): %+v %v, want proven 1", ms, ok)
	}
	// White's moves were always on one board: the boards' searches
	// answered, and the whole game's never ran.
	if n := fz.whole.Stats().Iterations; n != 0 {
		t.Errorf("the whole game's search ran %d iterations", n)
	}
	for i, s := range fz.parts {
		if s.Stats().Iterations == 0 {
			t.Errorf("the search of factor %d never ran", fz.games[i].f)
		}
	}
}

// TestFactoredNone checks the games NewFactored leaves to one Search: a
// game of one factor, and a puzzle of two lamps, each lamp a factor, whose
// one role has moves in both.
func TestFactoredNone(t *testing.T) {
	for _, tt := range []struct {
		name, rules string
		factors     int
	}{
		{"twoStep", twoStep, 0},
		{"lamps", `
(role p) (lamp 1) (lamp 2)
(<= (legal p (switch ?l)) (lamp ?l) (not (true (on ?l))))
(<= (next (on ?l)) (does p (switch ?l)))
(<= (next (on ?l)) (true (on ?l)))
(<= terminal (true (on 1)) (true (on 2)))
(goal p 100)
`, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := grounded(t, tt.name+".kif", tt.rules)
			if n := len(r.Factors()); n != tt.factors {
				t.Fatalf("%d factors, want %d", n, tt.factors)
			}
			if _, err := NewFactored(context.Background(), r, Config{Workers: 1}, 0); !errors.Is(err, ErrNoFactors) {
				t.Errorf("NewFactored: %v, want ErrNoFactors", err)
			}
		})
	}
}

// TestFactorGameSpent checks the end of a factor's game where only the
// factor is spent: a full board a, nobody's line, and board b open. The
// game goes on; the factor's game ends, at an equal share.
func TestFactorGameSpent(t *testing.T) {
	ctx := context.Background()
	r := grounded(t, "sidebyside.kif", sideBySide)
	var a int
	for f, factor := range r.Factors() {
		if slices.Contains(factor[0], int32(slices.Index(r.Moves(0), "(put a 1)"))) {
			a = f
		}
	}
	g := newFactorGame(r, a, r.Factors()[a])
	// Board a full without a line: white on 1 and 3, black on 2 and 4.
	st := reasoner.NewState([]reasoner.Fact{
		"(at a 1 white)", "(at a 2 black)", "(at a 3 white)", "(at a 4 black)",
		"(holds white a)", "(holds black b)",
	})
	if term, err := r.Terminal(ctx, st); err != nil || term {
		t.Fatalf("the game ends: %v %v", term, err)
	}
	if term, err := g.Terminal(ctx, st); err != nil || !term {
		t.Fatalf("the factor's game goes on: %v %v", term, err)
	}
	if goals, err := g.Goals(ctx, st); err != nil || !slices.Equal(goals, []int{50, 50}) {
		t.Errorf("goals %v %v, want [50 50]", goals, err)
	}
	// Black, who holds b, has no move in a: it plays the pseudo noop.
	st2 := reasoner.NewState([]reasoner.Fact{"(holds white a)", "(holds black b)"})
	if ms, err := g.Legal(ctx, st2, 1); err != nil || !slices.Equal(ms, []reasoner.Move{pseudoNoop}) {
		t.Errorf("black's moves in a: %v %v, want the pseudo noop", ms, err)
	}
}
