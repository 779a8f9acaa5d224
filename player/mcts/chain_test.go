package mcts

import (
	"context"
	"slices"
	"testing"
)

// twoStep is a game where a moves twice in a row and then both roles wait
// out ten steps, each choice of a wait setting a fact of its own so that
// the tree cannot prove anything in a few hundred iterations. Going left,
// a then picks one of ten moves: the first scores 70, the others 40; going
// right, either of its two moves scores 60. Left is worth 70 and right 60,
// but the mean of left over the picks tried below it stays under 60 while
// the picks worth 40 are still being tried.
const twoStep = `
(role a) (role b)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7)
(succ 7 8) (succ 8 9) (succ 9 10) (succ 10 11) (succ 11 12)
(pickable 1) (pickable 2) (pickable 3) (pickable 4) (pickable 5)
(pickable 6) (pickable 7) (pickable 8) (pickable 9) (pickable 10)
(two 1) (two 2) (bit 0) (bit 1)
(mover 2 b) (mover 3 a) (mover 4 b) (mover 5 a) (mover 6 b)
(mover 7 a) (mover 8 b) (mover 9 a) (mover 10 b) (mover 11 a)
(comp 70 30) (comp 40 60) (comp 60 40)
(init (step 0))
(<= (legal a left) (true (step 0)))
(<= (legal a right) (true (step 0)))
(<= (legal a (pick ?i)) (true (step 1)) (true (went left)) (pickable ?i))
(<= (legal a (safe ?i)) (true (step 1)) (true (went right)) (two ?i))
(<= (legal b noop) (true (step 0)))
(<= (legal b noop) (true (step 1)))
(<= (legal ?r (wait ?x)) (true (step ?s)) (mover ?s ?r) (bit ?x))
(<= (legal ?r noop) (true (step ?s)) (mover ?s ?o) (role ?r) (distinct ?r ?o))
(<= (next (went left)) (does a left))
(<= (next (went right)) (does a right))
(<= (next (went ?d)) (true (went ?d)))
(<= (next (score 70)) (does a (pick 1)))
(<= (next (score 40)) (does a (pick ?i)) (distinct ?i 1))
(<= (next (score 60)) (does a (safe ?i)))
(<= (next (score ?v)) (true (score ?v)))
(<= (next (bit ?s ?x)) (does ?r (wait ?x)) (true (step ?s)))
(<= (next (bit ?s ?x)) (true (bit ?s ?x)))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(<= terminal (true (step 12)))
(<= (goal a ?v) (true (score ?v)))
(<= (goal b ?w) (true (score ?v)) (comp ?v ?w))
`

// TestChains checks Config.Chains in twoStep: with it, left, whose best
// continuation is worth 70, is credited with about that and is searched
// most; without it, left's mean is that of every pick tried below it, and
// right, worth 60, is searched most.
func TestChains(t *testing.T) {
	r := grounded(t, "twostep.kif", twoStep)
	for _, tt := range []struct {
		chains   Switch
		wantMost string // the root move searched most
	}{
		{On, "left"},
		{Off, "right"},
	} {
		t.Run(tt.chains.String(), func(t *testing.T) {
			s := newSearch(t, r, Config{Workers: 1, Chains: tt.chains, Heuristic: Off, MAST: Off, GRAVE: Off})
			w := newWorker(s, 1, 0)
			for range 400 {
				w.iterate(context.Background(), s.main)
			}
			ms := s.root.moves[0]
			left, right := slices.Index(ms, "left"), slices.Index(ms, "right")
			nl, nr := s.root.n[left].Load(), s.root.n[right].Load()
			ml, mr := s.root.w[left].Load()/nl, s.root.w[right].Load()/nr
			t.Logf("left: %.0f visits, mean %.3f; right: %.0f visits, mean %.3f", nl, ml, nr, mr)
			most := "left"
			if nr > nl {
				most = "right"
			}
			if most != tt.wantMost {
				t.Errorf("searched most: %s, want %s", most, tt.wantMost)
			}
			if tt.chains == On && (ml < 0.65 || ml > 0.7) {
				t.Errorf("left's mean %.3f, want its best pick's 0.7 less the iterations before its state had %d visits", ml, chainVisits)
			}
		})
	}
}
