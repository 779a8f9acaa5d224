package mcts

import (
	"context"
	"slices"
	"testing"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

// TestProveLeaves checks that a state in which the mover can win at once
// is proven the first time the tree grows below it with ProveLeaves, and
// not without: in nim from 4, taking 2 leaves 2, which the second player
// takes to win.
func TestProveLeaves(t *testing.T) {
	for _, prove := range []Switch{On, Off} {
		s := newSearch(t, nim(4), Config{Workers: 1, ProveLeaves: prove})
		w := newWorker(s, 1, 0)
		// The first two iterations add both moves of the root.
		for range 2 {
			w.iterate(context.Background(), s.main)
		}
		i := slices.Index(s.root.moves[0], "(take 2)")
		ch := s.root.child(int64(i))
		if ch == nil {
			t.Fatalf("prove %v: (take 2) not expanded after 2 iterations", prove)
		}
		if ch.solved.Load() || ch.checked.Load() {
			t.Fatalf("prove %v: pile 2 solved %v, checked %v after one visit", prove, ch.solved.Load(), ch.checked.Load())
		}
		// Pile 2 is visited again within a few iterations; without
		// proving, it takes the solver two more to find the win.
		for k := 0; k < 10 && s.root.n[i].Load() < 2; k++ {
			w.iterate(context.Background(), s.main)
		}
		if s.root.n[i].Load() != 2 {
			t.Fatalf("prove %v: (take 2) visited %v times, want 2", prove, s.root.n[i].Load())
		}
		if prove == Off {
			if ch.solved.Load() && len(ch.children()) < 2 {
				t.Errorf("prove off: pile 2 solved with %d children", len(ch.children()))
			}
			continue
		}
		if !ch.solved.Load() || ch.value[1] != 1 || ch.terminal {
			t.Fatalf("pile 2: solved %v, value %v, terminal %v; want a win for second, not terminal", ch.solved.Load(), ch.value, ch.terminal)
		}
		if win := ch.child(int64(slices.Index(ch.moves[1], "(take 2)"))); win == nil || !win.terminal {
			t.Errorf("pile 2: the winning move's child %v, want the terminal state", win)
		}
		// The selection the proof ended was undone: no move of pile 2
		// holds a visit.
		if ch.visits.Load() != 0 || slices.Max(loads(ch.n)) != 0 {
			t.Errorf("pile 2: %v visits, moves %v; want none", ch.visits.Load(), loads(ch.n))
		}
		// Selection never plays the first player's move that allows
		// the win again, and Best avoids it.
		for range 100 {
			w.iterate(context.Background(), s.main)
		}
		if n := s.root.n[i].Load(); n != 2 {
			t.Errorf("(take 2) visited %v times, want 2", n)
		}
		if m, err := s.Best(0); err != nil || m != "(take 1)" {
			t.Errorf("Best = %q, %v; want (take 1)", m, err)
		}
	}
}

// TestResist checks the answer in a state proven lost: without Resist the
// first move proven lost, with it the move searched most. In nim from 3
// the first player loses whatever it takes.
func TestResist(t *testing.T) {
	for _, resist := range []Switch{Off, On} {
		s := newSearch(t, nim(3), Config{Workers: 1, Resist: resist})
		w := newWorker(s, 1, 0)
		for k := 0; k < 100 && !s.root.solved.Load(); k++ {
			w.iterate(context.Background(), s.main)
		}
		if !s.root.solved.Load() || s.root.value[0] != 0 {
			t.Fatalf("resist %v: root solved %v, value %v; want a loss for first", resist, s.root.solved.Load(), s.root.value)
		}
		first := s.provenChoice(s.root, 0)
		most := 1 - first
		s.root.n[most].Add(s.root.n[first].Load() + 10 - s.root.n[most].Load())
		m, err := s.Best(0)
		if err != nil {
			t.Fatal(err)
		}
		want := s.root.moves[0][first]
		if resist == On {
			want = s.root.moves[0][most]
		}
		if m != want {
			t.Errorf("resist %v: Best = %q, want %q", resist, m, want)
		}
	}
}

// TestHeuristicPrior checks that, the first time the tree grows below a
// state, each move of its mover gets HeuristicPriorVisits visits of the
// value the heuristic gives the state it reaches: in nim from 10, a
// heuristic that likes a pile of 8 for first makes taking 2 look better
// than taking 1 after a single playout, and without the prior the root
// holds only that playout's visit.
func TestHeuristicPrior(t *testing.T) {
	h := pileOf8()
	for _, prior := range []int{0, 5} {
		cfg := Config{Workers: 1, Heuristic: On, HeuristicCut: Off, HeuristicPrior: Off, HeuristicPriorVisits: 3}
		if prior > 0 {
			cfg.HeuristicPrior, cfg.HeuristicPriorVisits = On, prior
		}
		s := newSearch(t, nim(10), cfg)
		s.heur.Store(h)
		w := newWorker(s, 1, 0)
		w.iterate(context.Background(), s.main)
		take1, take2 := slices.Index(s.root.moves[0], "(take 1)"), slices.Index(s.root.moves[0], "(take 2)")
		n1, n2 := s.root.n[take1].Load(), s.root.n[take2].Load()
		if total := n1 + n2; total != float64(1+2*prior) {
			t.Errorf("prior %d: %v visits at the root, want %d", prior, total, 1+2*prior)
		}
		if prior == 0 {
			continue
		}
		if m1, m2 := s.root.w[take1].Load()/n1, s.root.w[take2].Load()/n2; !(m2 > 0.7 && m1 < 0.35) {
			t.Errorf("prior %d: means take 1 %.2f, take 2 %.2f; want about 0.2 and 0.9", prior, m1, m2)
		}
	}
}

// pileOf8 returns a heuristic for nim that values a pile of 8 at 0.9
// for the first player and 0.1 for the second, and every other pile at
// 0.2 and 0.8.
func pileOf8() *heuristic {
	return &heuristic{
		cols:     map[string]int{"pile/1=8": 0},
		mobility: []int{-1, -1},
		bias:     []float64{0.2, 0.8},
		weights:  [][]float64{{0.7}, {-0.7}},
	}
}

// race is a game of two players taking turns to stand on places 1 to 9:
// standing on 9 wins at once.
const race = `
(role a) (role b)
(place 1) (place 2) (place 3) (place 4) (place 5) (place 6) (place 7) (place 8) (place 9)
(init (control a))
(<= (legal ?r (step ?i)) (true (control ?r)) (place ?i))
(<= (legal a noop) (true (control b)))
(<= (legal b noop) (true (control a)))
(<= (next (at ?r ?i)) (does ?r (step ?i)))
(<= (next (control b)) (true (control a)))
(<= (next (control a)) (true (control b)))
(<= (won ?r) (true (at ?r 9)))
(<= terminal (won ?r))
(<= (goal ?r 100) (won ?r))
(<= (goal ?r 0) (role ?r) (not (won ?r)))
`

// TestWins checks policy playouts with Wins: from race's first state the
// first player steps onto 9 at once in every playout, and the policy's
// choice is recorded as the policy's; without Wins the second player wins
// some.
func TestWins(t *testing.T) {
	r := grounded(t, "race.kif", race)
	for _, wins := range []Switch{On, Off} {
		s := newSearch(t, r, Config{Workers: 1, Wins: wins})
		w := newWorker(s, 1, 0)
		won := 0
		const playouts = 200
		for range playouts {
			w.seq = w.seq[:0]
			if _, err := w.playout(context.Background(), r, s.root.state); err != nil {
				t.Fatal(err)
			}
			if w.value[0] == 1 {
				won++
			}
			if wins == On && (len(w.seq) != 1 || !w.seq[0].policy) {
				t.Fatalf("wins on: playout moves %v, want the first player's winning move, marked the policy's", w.seq)
			}
		}
		if (wins == On) != (won == playouts) {
			t.Errorf("wins %v: the first player won %d of %d playouts", wins, won, playouts)
		}
		if (wins == On) != s.winPlay {
			t.Errorf("wins %v: playouts play wins %v", wins, s.winPlay)
		}
	}
	// A choice taken back is forgotten.
	s := newSearch(t, r, Config{Workers: 1})
	w := newWorker(s, 1, 0)
	w.pp = r
	w.Choose(0, []int32{0, 1})
	w.Retract(0)
	if len(w.seq) != 0 {
		t.Errorf("%d moves recorded after Retract, want none", len(w.seq))
	}
}

// claim is a game of two players taking turns to claim places 1 to 9: one
// who holds both 1 and 2, or both 8 and 9, wins; a place claimed is
// closed to the other. No move wins wherever it is played; each of 1, 2,
// 8 and 9 wins where the player holds the other of its pair.
const claim = `
(role a) (role b)
(place 1) (place 2) (place 3) (place 4) (place 5) (place 6) (place 7) (place 8) (place 9)
(init (control a))
(<= (taken ?i) (true (at ?r ?i)))
(<= open (place ?i) (not (taken ?i)))
(<= (legal ?r (step ?i)) (true (control ?r)) (place ?i) (not (taken ?i)))
(<= (legal a noop) (true (control b)))
(<= (legal b noop) (true (control a)))
(<= (next (at ?r ?i)) (does ?r (step ?i)))
(<= (next (at ?r ?i)) (true (at ?r ?i)))
(<= (next (control b)) (true (control a)))
(<= (next (control a)) (true (control b)))
(<= (won ?r) (true (at ?r 1)) (true (at ?r 2)))
(<= (won ?r) (true (at ?r 8)) (true (at ?r 9)))
(<= terminal (won ?r))
(<= terminal (not open))
(<= (goal ?r 100) (won ?r))
(<= (goal ?r 0) (role ?r) (not (won ?r)))
`

// TestWinFacts checks policy playouts with WinFacts: holding 1, the first
// player claims 2 at once in every playout, a win recorded as the policy's
// choice; with the other holding 1, the first player claims 2 in every
// playout, for every other move is taken back. Without WinFacts, neither
// happens in every playout.
func TestWinFacts(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		init string
		won  bool // the first move wins
	}{
		{"(init (at a 1))", true},
		{"(init (at b 1))", false},
	} {
		d, err := gdl.ParseFile("claim.kif", []byte(claim+tt.init))
		if err != nil {
			t.Fatal(err)
		}
		r, err := propnet.New(ctx, d, propnet.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, winfacts := range []Switch{On, Off} {
			s := newSearch(t, r, Config{Workers: 1, WinFacts: winfacts})
			w := newWorker(s, 1, 0)
			w.pp = r
			if (winfacts == On) != s.winPlay {
				t.Errorf("%s, winfacts %v: playouts play wins %v", tt.init, winfacts, s.winPlay)
			}
			claimed, wins := 0, 0
			const playouts = 200
			for range playouts {
				w.seq = w.seq[:0]
				// The first step only, played as policyPlayout plays it:
				// a forced move is not recorded.
				var end *reasoner.State
				var err error
				if s.winPlay {
					end, _, err = r.WinPlayout(ctx, s.root.state, w, s.playWins, 1)
				} else {
					end, _, err = r.PolicyPlayout(ctx, s.root.state, w, 1)
				}
				if err != nil {
					t.Fatal(err)
				}
				if slices.Contains(end.Facts(), "(at a 2)") {
					claimed++
				}
				if over, _ := r.Terminal(ctx, end); over {
					wins++
					if winfacts == On && (len(w.seq) != 1 || !w.seq[0].policy) {
						t.Errorf("%s: the win at once is not recorded as the policy's: %v", tt.init, w.seq)
					}
				}
			}
			if on := winfacts == On; (claimed == playouts) != on || tt.won && (wins == playouts) != on {
				t.Errorf("%s, winfacts %v: 2 claimed first in %d of %d playouts, %d won at once", tt.init, winfacts, claimed, playouts, wins)
			}
		}
	}
}
