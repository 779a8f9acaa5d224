package propnet

import (
	"context"
	"testing"

	"github.com/ggp-go/ggp/gdl"
)

// A game where a relation's rule joins pieces over squares its only
// caller does not ask about: between names an attacker, a piece and a
// king on one file, pinned only which pieces are pinned.
const pinGame = `
(role a) (role b)
(col 1) (col 2) (col 3) (col 4) (row 1) (row 2) (row 3) (row 4)
(owner a p1) (owner a p2) (owner a p3) (owner b p4) (owner b p5) (owner b p6)
(init (at p1 1 1)) (init (at p2 2 1)) (init (at p3 3 1))
(init (at p4 1 4)) (init (at p5 2 4)) (init (at p6 3 4))
(init (turn a)) (init (step 0))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(<= (legal ?r (move ?p ?x ?y)) (true (turn ?r)) (owner ?r ?p) (true (at ?p ?u ?v)) (col ?x) (row ?y))
(<= (legal ?r noop) (role ?r) (not (true (turn ?r))))
(<= (moved ?p) (does ?r (move ?p ?x ?y)))
(<= (next (at ?p ?x ?y)) (does ?r (move ?p ?x ?y)))
(<= (next (at ?p ?x ?y)) (true (at ?p ?x ?y)) (not (moved ?p)))
(<= (next (turn a)) (true (turn b)))
(<= (next (turn b)) (true (turn a)))
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= (looks ?p ?x ?y) (true (at ?p ?x ?v)) (row ?y))
(<= (between ?c ?m ?k) (true (at ?m ?x ?y)) (looks ?k ?x ?y) (looks ?c ?x ?y))
(<= (pinned ?m) (between ?c ?m ?k) (owner ?r ?m) (owner ?r ?k) (owner ?o ?c) (distinct ?r ?o))
(<= (pinnedOf ?r) (owner ?r ?m) (pinned ?m))
(<= terminal (true (step 4)))
(<= (goal ?r 100) (pinnedOf ?r))
(<= (goal ?r 0) (role ?r) (not (pinnedOf ?r)))
`

// TestUnfoldingShrinksTheGround checks that unfolding between into pinned
// lets splitting drop the attacker and the king from the instances, and
// that the game stays the same.
func TestUnfoldingShrinksTheGround(t *testing.T) {
	d, err := gdl.ParseFile("pin.kif", []byte(pinGame))
	if err != nil {
		t.Fatal(err)
	}
	build := func(limits Limits) *Reasoner {
		r, err := New(context.Background(), d, Options{limits})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	unfolded := build(Limits{rewriteAlways: true})
	folded := build(Limits{rewriteAlways: true, noUnfold: true})
	plain := build(Limits{noDemand: true, noSplit: true})
	t.Logf("%d instances unfolded, %d without unfolding, %d as written", unfolded.Stats().Instances, folded.Stats().Instances, plain.Stats().Instances)
	if unfolded.Stats().Instances*2 >= folded.Stats().Instances {
		t.Errorf("%d instances unfolded, %d without unfolding: expected far fewer", unfolded.Stats().Instances, folded.Stats().Instances)
	}
	if err := agree(unfolded, plain, 20, 10); err != nil {
		t.Fatal(err)
	}
	if err := agree(folded, plain, 20, 10); err != nil {
		t.Fatal(err)
	}
}
