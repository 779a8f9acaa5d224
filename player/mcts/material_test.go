package mcts

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// TestFindMaterial checks that the pieces of each role are found where
// captures decide the game, each role's own, and nothing where the count
// of a role's facts does not predict who wins.
func TestFindMaterial(t *testing.T) {
	for _, tt := range []struct {
		game string
		want [2]string // the keys of the roles' pieces; empty: none found
	}{
		{"shared/breakthrough", [2]string{"cellHolds/3=white", "cellHolds/3=black"}},
		{"shared/knightThrough", [2]string{"cell/3=white", "cell/3=black"}},
		// Pieces named for neither role: white moves the wp, black the bp.
		{"shared/escortLatch", [2]string{"cell/3=wp", "cell/3=bp"}},
		// Placement games: a role's count of facts grows.
		{"ticTacToe", [2]string{}},
		{"shared/connectFour", [2]string{}},
		{"shared/reversi", [2]string{}},
		{"shared/pentago", [2]string{}},
	} {
		t.Run(tt.game, func(t *testing.T) {
			d := playertest.LoadGame(t, tt.game)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			f, err := backend.New(backend.Propnet, backend.Options{GroundTime: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			r, err := f(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			st, err := r.Initial(ctx)
			if err != nil {
				t.Fatal(err)
			}
			cfg := Config{Material: On}.withDefaults()
			// Samples, not time, bound the learning here, so that a loaded
			// machine finds the same.
			h, m, why := learnHeuristic(ctx, ctx, r, st, rand.New(rand.NewPCG(1, 2)), cfg)
			t.Log(why)
			if h != nil {
				t.Fatalf("a heuristic was fitted, so material was not looked for: %s", why)
			}
			var got [2]string
			if m != nil {
				got = m.keys
			}
			if got != tt.want {
				t.Errorf("pieces %q, want %q", got, tt.want)
			}
		})
	}
}

// TestMaterialValue checks the prior's values: a capture raises the
// mover's value from the state's mean, a loss lowers it, no change keeps
// it, two captures count more than one, and one counts the same however
// many pieces are left.
func TestMaterialValue(t *testing.T) {
	even := [2]float64{16, 16}
	for _, tt := range []struct {
		name   string
		before [2]float64
		after  [2]float64
		mover  int
		ref    float64
		lo, hi float64
	}{
		{"no change keeps the mean", even, even, 0, 0.6, 0.6, 0.6},
		{"a capture by role 0", even, [2]float64{16, 15}, 0, 0.5, 0.55, 0.65},
		{"a capture by role 1", even, [2]float64{15, 16}, 1, 0.5, 0.55, 0.65},
		{"a capture is bounded by a win", even, [2]float64{16, 15}, 0, 0.9, 0.9, 1},
		{"a loss", even, [2]float64{15, 16}, 0, 0.5, 0.35, 0.45},
		{"a loss is bounded by a loss of the game", even, [2]float64{15, 16}, 0, 0.1, 0, 0.1},
		{"two captures count more than one", even, [2]float64{16, 14}, 0, 0.5, 0.6, 0.7},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := materialValue(tt.before, tt.after, tt.mover, tt.ref)
			if v < tt.lo || v > tt.hi {
				t.Errorf("value %.3f, want in [%.2f, %.2f]", v, tt.lo, tt.hi)
			}
		})
	}
	late := materialValue([2]float64{4, 4}, [2]float64{4, 3}, 0, 0.5)
	early := materialValue(even, [2]float64{16, 15}, 0, 0.5)
	if math.Abs(late-early) > 0.01 {
		t.Errorf("a capture with 8 pieces on the board is worth %.3f, with 32 %.3f: want the same", late, early)
	}
	for _, tt := range []struct {
		pieces [2]float64
		want   float64
	}{
		{even, 6},
		{[2]float64{16, 14}, 3},
		{[2]float64{8, 2}, 2},
	} {
		if got := materialVisits(tt.pieces); got != tt.want {
			t.Errorf("materialVisits(%v) = %v, want %v", tt.pieces, got, tt.want)
		}
	}
}

// raid is a game of two players taking turns over 4 steps, each holding
// four pieces: the mover takes one of the other's pieces or passes. Its
// goals do not matter to the prior.
const raid = `
(role a) (role b)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(init (piece 1 a)) (init (piece 2 a)) (init (piece 3 a)) (init (piece 4 a))
(init (piece 1 b)) (init (piece 2 b)) (init (piece 3 b)) (init (piece 4 b))
(init (control a)) (init (step 0))
(other a b) (other b a)
(<= (legal ?r (take ?i)) (true (control ?r)) (other ?r ?o) (true (piece ?i ?o)))
(<= (legal ?r pass) (true (control ?r)))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (next (piece ?i ?o)) (true (piece ?i ?o)) (other ?o ?r) (not (does ?r (take ?i))))
(<= (next (control ?o)) (true (control ?r)) (other ?r ?o))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(<= terminal (true (step 4)))
(<= (goal ?r 50) (role ?r))
`

// TestMaterialPrior checks that, the first time the tree grows below a
// state where some move changes the material, each move of the mover
// gets materialVisits visits: a capture valued above the state's mean, a
// pass at it; and that without Material the moves get none.
func TestMaterialPrior(t *testing.T) {
	r := grounded(t, "raid.kif", raid)
	for _, mat := range []Switch{On, Off} {
		s := newSearch(t, r, Config{Workers: 1, Heuristic: On, HeuristicPrior: On, HeuristicCut: Off, ProveLeaves: Off, Material: mat})
		s.material.Store(&material{keys: [2]string{"piece/2=a", "piece/2=b"}})
		w := newWorker(s, 1, 0)
		w.iterate(context.Background(), s.main)
		ms := s.root.moves[0]
		total := 0.0
		for j := range ms {
			total += s.root.n[j].Load()
		}
		prior := 0.0
		if mat == On {
			prior = 6 // materialVisits of 4 pieces against 4
		}
		if want := 1 + prior*float64(len(ms)); total != want {
			t.Errorf("material %v: %v visits at the root over %d moves, want %v", mat, total, len(ms), want)
		}
		if mat == Off {
			continue
		}
		// The state's mean is 0.5 but for the visit under way, the
		// playout's, worth the goal, 0.5.
		pass := slices.Index(ms, "pass")
		passMean := s.root.w[pass].Load() / s.root.n[pass].Load()
		if math.Abs(passMean-0.5) > 0.02 {
			t.Errorf("pass: mean %.3f, want about 0.5", passMean)
		}
		for j, m := range ms {
			if mean := s.root.w[j].Load() / s.root.n[j].Load(); j != pass && !(mean > passMean+0.04 && mean < 0.6) {
				t.Errorf("%s: mean %.3f, want about 0.56, above the pass's %.3f", m, mean, passMean)
			}
		}
	}
}
