package propnet

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/internal/gamegen"
)

// buildWith grounds d with rule splitting and demand turned on or off.
func buildWith(t *testing.T, d *gdl.Description, rewrite bool) *Reasoner {
	t.Helper()
	r, err := New(context.Background(), d, Options{Limits{noDemand: !rewrite, noSplit: !rewrite, rewriteAlways: rewrite}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// agree plays random playouts on a and the reference b (the network
// without rewriting, or the Prolog backend), moves chosen among a's legal
// moves, and reports the first difference in legal moves, next states,
// terminal flags or goals.
func agree(a, b reasoner.Reasoner, playouts, maxSteps int) error {
	ctx := context.Background()
	for p := range playouts {
		rng := rand.New(rand.NewPCG(uint64(p), 3))
		sa, _ := a.Initial(ctx)
		sb, _ := b.Initial(ctx)
		joint := make([]reasoner.Move, len(a.Roles()))
		for step := 0; step <= maxSteps; step++ {
			if !sa.Equal(sb) {
				return fmt.Errorf("playout %d step %d: state %s, reference %s", p, step, sa, sb)
			}
			ta, _ := a.Terminal(ctx, sa)
			tb, _ := b.Terminal(ctx, sb)
			ga, erra := a.Goals(ctx, sa)
			gb, errb := b.Goals(ctx, sb)
			if ta != tb || !slices.Equal(ga, gb) || (erra == nil) != (errb == nil) {
				return fmt.Errorf("playout %d step %d: terminal %v goals %v, reference %v %v", p, step, ta, ga, tb, gb)
			}
			if ta {
				break
			}
			for role := range joint {
				la, _ := a.Legal(ctx, sa, role)
				lb, _ := b.Legal(ctx, sb, role)
				if !slices.Equal(la, lb) {
					return fmt.Errorf("playout %d step %d: legal %v, reference %v", p, step, la, lb)
				}
				if len(la) == 0 {
					return nil
				}
				joint[role] = la[rng.IntN(len(la))]
			}
			var err error
			if sa, err = a.Next(ctx, sa, joint); err != nil {
				return err
			}
			if sb, err = b.Next(ctx, sb, joint); err != nil {
				return err
			}
		}
	}
	return nil
}

// TestRewritingKeepsTheGame grounds generated games with and without rule
// splitting and demand, and requires the two networks to agree.
func TestRewritingKeepsTheGame(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	for seed := range uint64(n) {
		g, err := gamegen.Generate(seed)
		if err != nil {
			t.Fatal(err)
		}
		a, b := buildWith(t, g.Description, true), buildWith(t, g.Description, false)
		if err := agree(a, b, 3, 20); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, g.Text)
		}
	}
}

// A game whose rules join more than they need: the score follows the
// smaller of two bids, and a count is defined over every triple of cells
// but asked about one.
const wastefulGame = `
(role a) (role b)
(index 0) (index 1) (index 2) (index 3) (index 4) (index 5) (index 6) (index 7) (index 8) (index 9)
(cellname c0) (cellname c1) (cellname c2) (cellname c3) (cellname c4) (cellname c5)
(cellname c6) (cellname c7) (cellname c8) (cellname c9) (cellname c10) (cellname c11)
(<= (lt ?x ?y) (index ?x) (index ?y) (succ ?x ?y))
(<= (lt ?x ?z) (succ ?x ?y) (lt ?y ?z))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7) (succ 7 8) (succ 8 9)
(<= (min ?x ?x ?x) (index ?x))
(<= (min ?x ?y ?x) (lt ?x ?y))
(<= (min ?x ?y ?y) (lt ?y ?x))
(init (score 0))
(init (step 0))
(<= (legal ?r (bid ?x)) (role ?r) (index ?x))
(<= (legal ?r (mark ?c)) (role ?r) (cellname ?c) (not (true (marked ?c))))
(<= (next (score ?m))
    (true (score ?s)) (does a (bid ?x)) (does b (bid ?y)) (min ?x ?y ?m))
(<= (next (marked ?c)) (does ?r (mark ?c)))
(<= (next (marked ?c)) (true (marked ?c)))
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= (three ?x ?y ?z) (true (marked ?x)) (true (marked ?y)) (true (marked ?z)))
(<= terminal (true (step 5)))
(<= terminal (three c0 c1 c2))
(<= (goal ?r 100) (role ?r) (three c0 c1 c2))
(<= (goal ?r 0) (role ?r) (not (three c0 c1 c2)))
`

// TestRewritingShrinksTheGround checks that splitting and demand do what
// they are for on a game made for it: fewer rule instances, the same game.
func TestRewritingShrinksTheGround(t *testing.T) {
	d, err := gdl.ParseFile("wasteful.kif", []byte(wastefulGame))
	if err != nil {
		t.Fatal(err)
	}
	a, b := buildWith(t, d, true), buildWith(t, d, false)
	t.Logf("%d instances with rewriting, %d without", a.Stats().Instances, b.Stats().Instances)
	if a.Stats().Instances*4 >= b.Stats().Instances {
		t.Errorf("%d instances with rewriting, %d without: expected far fewer", a.Stats().Instances, b.Stats().Instances)
	}
	if err := agree(a, b, 20, 10); err != nil {
		t.Fatal(err)
	}
}
