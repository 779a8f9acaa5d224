package prolog

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// disjunctions is a small game whose rules bind variables inside (or ...),
// which no bundled game does.
const disjunctions = `
(role p)
(init (at 2))
(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(<= (legal p (go ?x)) (true (at ?u)) (or (succ ?x ?u) (succ ?u ?x)))
(<= (legal p stay) (true (at ?u)) (or (true (at 1)) (true (at 3))))
(<= (next (at ?x)) (does p (go ?x)))
(<= (next (at ?u)) (does p stay) (true (at ?u)))
(<= (next (seen ?u)) (true (at ?u)))
(<= (next (seen ?u)) (true (seen ?u)))
(<= terminal (true (at 5)))
(<= terminal (true (seen 1)) (true (at 3)))
(<= (goal p 100) (true (at 5)))
(<= (goal p 0) (not (true (at 5))))
`

// TestFlatAgreesWithEngine plays random playouts of every bundled game and
// of disjunctions and checks that the flat evaluator answers every query as
// the engine alone does.
func TestFlatAgreesWithEngine(t *testing.T) {
	ctx := context.Background()
	type game struct{ key, filename, rules string }
	all := []game{{"disjunctions", "disjunctions.kif", disjunctions}}
	for _, g := range games.Bundled() {
		all = append(all, game{g.Key, g.Filename, string(g.Rules)})
	}
	for _, g := range all {
		t.Run(g.key, func(t *testing.T) {
			d, err := gdl.ParseFile(g.filename, []byte(g.rules))
			if err != nil {
				t.Fatal(err)
			}
			flat, err := NewWithOptions(ctx, d, Options{})
			if err != nil {
				t.Fatal(err)
			}
			engine, err := NewWithOptions(ctx, d, Options{noFlat: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(flat.game.flat) == 0 {
				t.Logf("no flat relation")
			}
			rng := rand.New(rand.NewPCG(1, uint64(len(g.key))))
			for range 10 {
				s, _ := flat.Initial(ctx)
				for step := 0; step < 500; step++ {
					term, err1 := flat.Terminal(ctx, s)
					want, err2 := engine.Terminal(ctx, s)
					if err1 != nil || err2 != nil || term != want {
						t.Fatalf("step %d: terminal %v %v, engine %v %v", step, term, err1, want, err2)
					}
					if term {
						goals, err1 := flat.Goals(ctx, s)
						want, err2 := engine.Goals(ctx, s)
						if !slices.Equal(goals, want) || (err1 == nil) != (err2 == nil) {
							t.Fatalf("goals %v %v, engine %v %v", goals, err1, want, err2)
						}
						break
					}
					joint := make([]reasoner.Move, len(flat.Roles()))
					for i := range joint {
						moves, err1 := flat.Legal(ctx, s, i)
						want, err2 := engine.Legal(ctx, s, i)
						if err1 != nil || err2 != nil || !slices.Equal(moves, want) {
							t.Fatalf("step %d: legal %v %v, engine %v %v", step, moves, err1, want, err2)
						}
						joint[i] = moves[rng.IntN(len(moves))]
					}
					next, err1 := flat.Next(ctx, s, joint)
					want2, err2 := engine.Next(ctx, s, joint)
					if err1 != nil || err2 != nil || !next.Equal(want2) {
						t.Fatalf("step %d: next %v %v, engine %v %v", step, next, err1, want2, err2)
					}
					s = next
				}
			}
		})
	}
}

// TestDeadlineBothPaths checks that a query that runs past its deadline
// fails within twice the deadline, both in the flat evaluator and in the
// engine.
func TestDeadlineBothPaths(t *testing.T) {
	// blow enumerates 10^9 combinations of digits: the test on ?j can only
	// run once ?j is bound, last.
	const rules = `
(role p)
(init (on))
(d 0) (d 1) (d 2) (d 3) (d 4) (d 5) (d 6) (d 7) (d 8) (d 9)
(<= (blow) (true (on)) (d ?a) (d ?b) (d ?c) (d ?e) (d ?f) (d ?g) (d ?h) (d ?i) (d ?j) (distinct ?j ?j))
(<= terminal (blow))
`
	d, err := gdl.ParseFile("test.kif", []byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	for _, noFlat := range []bool{false, true} {
		r, err := NewWithOptions(context.Background(), d, Options{noFlat: noFlat})
		if err != nil {
			t.Fatal(err)
		}
		if flat := r.game.flat[signature{gdl.KeyTerminal, 0}] != nil; flat == noFlat {
			t.Fatalf("noFlat %v: terminal flat %v", noFlat, flat)
		}
		s, _ := r.Initial(context.Background())
		const deadline = 300 * time.Millisecond
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		start := time.Now()
		_, err = r.Terminal(ctx, s)
		elapsed := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("noFlat %v: terminal: %v, want deadline exceeded", noFlat, err)
		}
		if elapsed > 2*deadline {
			t.Errorf("noFlat %v: returned after %v, deadline %v", noFlat, elapsed, deadline)
		}
	}
}
