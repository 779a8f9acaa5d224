package prolog

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
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

// recursion is a small game whose state-dependent relations are recursive
// in every way the bottom-up evaluation of derive.go must handle: right
// and left recursion (reach), a component of two relations with a
// disjunction reading both a lower derived relation and its own, and a
// rule with two calls into its component (path, jump), recursion
// through the joint move (pushed), and derived relations read by flat
// rules, by ground tests and under negation.
const recursion = `
(role p)
(init (at 1)) (init (open 2)) (init (open 3)) (init (open 5)) (init (time 0))
(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)
(cellno 1) (cellno 2) (cellno 3) (cellno 4) (cellno 5) (cellno 6)
(tsucc 0 1) (tsucc 1 2) (tsucc 2 3) (tsucc 3 4) (tsucc 4 5) (tsucc 5 6) (tsucc 6 7) (tsucc 7 8)
(<= (reach ?x ?y) (succ ?x ?y) (true (open ?y)))
(<= (reach ?x ?z) (reach ?x ?y) (succ ?y ?z) (true (open ?z)))
(<= (path ?x ?y) (or (reach ?x ?y) (jump ?x ?y)))
(<= (jump ?x ?z) (succ ?x ?y) (not (true (open ?y))) (succ ?y ?z) (true (open ?z)))
(<= (jump ?x ?z) (succ ?x ?y) (not (true (open ?y))) (path ?y ?w) (path ?w ?z))
(<= (pushed ?x) (does p (push ?x)))
(<= (pushed ?y) (pushed ?x) (succ ?x ?y) (true (open ?y)))
(<= (legal p (go ?y)) (true (at ?x)) (path ?x ?y) (distinct ?x ?y))
(<= (legal p (push ?x)) (cellno ?x) (not (true (open ?x))) (not (true (at ?x))))
(<= (legal p wait) (true (at ?x)) (not (reach ?x 6)))
(<= moved (does p (go ?y)))
(<= (next (at ?y)) (does p (go ?y)))
(<= (next (at ?x)) (true (at ?x)) (not moved))
(<= (next (open ?x)) (true (open ?x)) (not (pushed ?x)))
(<= (next (open ?x)) (pushed ?x) (not (true (open ?x))))
(<= (next (time ?u)) (true (time ?t)) (tsucc ?t ?u))
(<= terminal (true (at 6)))
(<= terminal (true (time 8)))
(<= (goal p 100) (true (at 6)))
(<= (goal p 50) (true (at ?x)) (path ?x 6) (not (true (at 6))))
(<= (goal p 0) (true (at ?x)) (not (path ?x 6)) (not (true (at 6))))
`

// agreementGames are the corpus games whose relations need the paths of
// the flat evaluator beyond the bundled games: derived recursive
// components (chess, reversi), one derived only by partition with the
// interpreter proving the other calls (amazons_10x10), and indexed state
// facts (dotsAndBoxes).
// Their playouts are cut short: the engine alone is slow on them.
var agreementGames = []string{"chess", "reversi", "dotsAndBoxes", "checkers", "englishDraughts", "pentago", "amazons_10x10"}

// TestFlatAgreesWithEngine plays random playouts of every bundled game, of
// disjunctions and recursion and, unless -short, of agreementGames (a
// shorter one under the race detector), and checks that the flat
// evaluator answers every query as the engine alone does.
func TestFlatAgreesWithEngine(t *testing.T) {
	ctx := context.Background()
	type game struct {
		key, filename, rules string
		playouts, steps      int
	}
	all := []game{
		{"disjunctions", "disjunctions.kif", disjunctions, 10, 500},
		{"recursion", "recursion.kif", recursion, 30, 500},
	}
	for _, g := range games.Bundled() {
		all = append(all, game{g.Key, g.Filename, string(g.Rules), 10, 500})
	}
	if !testing.Short() {
		for _, key := range agreementGames {
			g, err := games.LoadFolder(filepath.Join(gamestest.Games(), key))
			if errors.Is(err, fs.ErrNotExist) {
				t.Logf("no shared game corpus: %v", err)
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			playouts, steps := 2, 30
			if gamestest.Race {
				// The engine alone takes over a minute on these
				// playouts of chess, and the race detector, looking for
				// concurrency bugs, multiplies that by 3 to 10: a
				// shorter one still reaches every path of the
				// evaluator, which the run without -race checks in
				// full.
				playouts, steps = 1, 10
			}
			all = append(all, game{key, g.Filename, string(g.Rules), playouts, steps})
		}
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
				// The two reasoners would be the same engine: the test
				// would pass having compared nothing.
				t.Fatalf("no relation compiled flat")
			}
			if g.key == "recursion" && len(flat.game.derived) != 3 {
				t.Fatalf("%d derived components, want 3 (reach, path and jump, pushed)", len(flat.game.derived))
			}
			rng := rand.New(rand.NewPCG(1, uint64(len(g.key))))
			for range g.playouts {
				s, _ := flat.Initial(ctx)
				for step := 0; step < g.steps; step++ {
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
							t.Fatalf("step %d: state %v: legal %v %v, engine %v %v", step, s, moves, err1, want, err2)
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
