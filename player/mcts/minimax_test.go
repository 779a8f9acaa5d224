package mcts

import (
	"context"
	"math"
	"slices"
	"testing"
)

// bait is a capture game where every capture of a's but one is answered
// by a capture back, and that one, of b's first piece, lets b take two
// of a's pieces at once. Captures are made in the first two steps only;
// then the roles pass until the end. Its goals say nothing: material
// alone tells the bait from the other captures, and only by looking at
// b's replies.
const bait = `
(role a) (role b)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7) (succ 7 8)
(succ 8 9) (succ 9 10) (succ 10 11) (succ 11 12) (succ 12 13) (succ 13 14) (succ 14 15) (succ 15 16)
(succ 16 17) (succ 17 18) (succ 18 19) (succ 19 20) (succ 20 21) (succ 21 22) (succ 22 23) (succ 23 24)
(succ 24 25) (succ 25 26) (succ 26 27) (succ 27 28) (succ 28 29) (succ 29 30) (succ 30 31) (succ 31 32)
(succ 32 33) (succ 33 34) (succ 34 35) (succ 35 36) (succ 36 37) (succ 37 38) (succ 38 39) (succ 39 40)
(early 0) (early 1)
(init (piece 1 a)) (init (piece 2 a)) (init (piece 3 a)) (init (piece 4 a))
(init (piece 1 b)) (init (piece 2 b)) (init (piece 3 b)) (init (piece 4 b))
(init (control a)) (init (step 0))
(other a b) (other b a)
(pair 1) (pair 2)
(<= capturing (true (step ?s)) (early ?s))
(<= (legal ?r (take ?i)) capturing (true (control ?r)) (other ?r ?o) (true (piece ?i ?o)))
(<= (legal ?r pass) (true (control ?r)))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (legal b double) capturing (true (control b)) (not (true (piece 1 b))))
(<= (doubled ?i a) (does b double) (pair ?i))
(<= (next (piece ?i ?o)) (true (piece ?i ?o)) (other ?o ?r) (not (does ?r (take ?i))) (not (doubled ?i ?o)))
(<= (next (control ?o)) (true (control ?r)) (other ?r ?o))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(<= terminal (true (step 40)))
(<= (goal ?r 50) (role ?r))
`

// TestMinimaxBackups checks the implicit minimax values of material: once
// the tree holds b's replies, each of a's moves is worth the material of
// b's best reply (a capture of the bait loses two pieces for one, every
// other capture is taken back, a pass loses one), the root the best of
// them, and selection, whose means say nothing here, visits the bait less
// than a capture that is taken back. Without Minimax no values are kept.
func TestMinimaxBackups(t *testing.T) {
	r := grounded(t, "bait.kif", bait)
	even := materialEval([2]float64{3, 3})
	down := materialEval([2]float64{2, 3}) // and {3, 4}
	for _, mm := range []Switch{On, Off} {
		s := newSearch(t, r, Config{Workers: 1, Heuristic: On, HeuristicPrior: On, HeuristicCut: Off, ProveLeaves: Off, Material: On, Minimax: mm})
		s.material.Store(&material{keys: [2]string{"piece/2=a", "piece/2=b"}})
		w := newWorker(s, 1, 0)
		for range 600 {
			w.iterate(context.Background(), s.main)
		}
		vs := s.root.mm.Load()
		if mm == Off {
			if vs != nil {
				t.Errorf("minimax off: the root has values")
			}
			continue
		}
		if vs == nil {
			t.Fatal("minimax on: the root has no values")
		}
		ms := s.root.moves[0]
		want := map[string]float64{"(take 1)": down, "(take 2)": even, "(take 3)": even, "(take 4)": even, "pass": down}
		for i, m := range ms {
			if got := vs.moves[i].Load(); math.Abs(got-want[string(m)]) > 1e-9 {
				t.Errorf("%s: minimax value %.4f, want %.4f", m, got, want[string(m)])
			}
		}
		if got := vs.value.Load(); math.Abs(got-even) > 1e-9 {
			t.Errorf("root: minimax value %.4f, want %.4f", got, even)
		}
		take1, take2 := slices.Index(ms, "(take 1)"), slices.Index(ms, "(take 2)")
		if n1, n2 := s.root.n[take1].Load(), s.root.n[take2].Load(); n1 >= n2 {
			t.Errorf("visits: the bait %v, a capture taken back %v; want fewer for the bait", n1, n2)
		}
	}
}

// TestMaterialEval checks the evaluation's scale: even is 0.5, and each
// piece ahead or behind moves it the same way by the logistic of a
// quarter.
func TestMaterialEval(t *testing.T) {
	for _, c := range []struct {
		p    [2]float64
		want float64
	}{
		{[2]float64{4, 4}, 0.5},
		{[2]float64{0, 0}, 0.5},
		{[2]float64{5, 4}, 1 / (1 + math.Exp(-0.25))},
		{[2]float64{4, 5}, 1 / (1 + math.Exp(0.25))},
		{[2]float64{12, 4}, 1 / (1 + math.Exp(-2))},
	} {
		if got := materialEval(c.p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("materialEval(%v) = %.6f, want %.6f", c.p, got, c.want)
		}
	}
}
