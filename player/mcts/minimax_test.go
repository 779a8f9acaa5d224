package mcts

import (
	"context"
	"testing"

	"github.com/ggp-go/ggp/reasoner"
)

// TestMinimaxExpand checks that expanding a state with HeuristicMinimax
// keeps the heuristic's value, every role's, of the state each move of the
// mover reaches: in nim from 10 a heuristic that likes a pile of 8 for the
// first player values taking 2 at 0.9 for it and 0.1 for the second, and
// other moves at 0.2 and 0.8. Without it, no values are kept.
func TestMinimaxExpand(t *testing.T) {
	h := pileOf8()
	for _, hmix := range []float64{0, 0.4} {
		s := newSearch(t, nim(10), Config{Workers: 1, Heuristic: On, HeuristicCut: Off, HeuristicMinimax: hmix})
		s.heur.Store(h)
		w := newWorker(s, 1, 0)
		w.iterate(context.Background(), s.main)
		m := s.root.minimax.Load()
		if hmix == 0 {
			if m != nil {
				t.Errorf("hmix 0: minimax values kept")
			}
			continue
		}
		if m == nil {
			t.Fatalf("hmix %v: no minimax values at the root", hmix)
		}
		for i, mv := range s.root.moves[0] {
			want := []float64{0.2, 0.8}
			if mv == "(take 2)" {
				want = []float64{0.9, 0.1}
			}
			row := m.row(i, 2)
			if got := []float64{row[0].Load(), row[1].Load()}; !approxEqual(got, want) {
				t.Errorf("hmix %v: %s valued %v, want %v", hmix, mv, got, want)
			}
		}
	}
}

func approxEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if d := a[i] - b[i]; d > 1e-9 || d < -1e-9 {
			return false
		}
	}
	return true
}

// TestMinimaxBackup checks how an iteration carries minimax values up its
// path: x moves at the root, o at the child its move 0 reaches, with a
// forced move between them (no role has a choice). The child's best row
// for o goes to the root's move 0 through the forced state, a solved leaf's
// exact values replace the child's row of the move that reached it, and a
// child without minimax values leaves its parent's row as it was.
func TestMinimaxBackup(t *testing.T) {
	xo := []string{"x", "o"}
	two := []reasoner.Move{"a", "b"}
	noop := []reasoner.Move{"noop"}
	mk := func(mover int, moves [][]reasoner.Move, vals ...float64) *node {
		n := &node{mover: mover, moves: moves}
		if vals != nil {
			n.setMinimax(vals)
		}
		return n
	}
	load := func(n *node, i int) []float64 {
		row := n.minimax.Load().row(i, 2)
		return []float64{row[0].Load(), row[1].Load()}
	}
	for _, tt := range []struct {
		name      string
		leaf      *node     // the iteration's end, solved or nil
		bare      bool      // the child has no minimax values
		wantRoot  []float64 // the root's row of move 0 after the backup
		wantChild []float64 // the child's row of move 1
	}{
		{"heuristic", nil, false, []float64{0.3, 0.7}, []float64{0.4, 0.6}},
		{"solved leaf", &node{value: []float64{0, 1}}, false, []float64{0, 1}, []float64{0, 1}},
		{"child unexpanded", nil, true, []float64{0.5, 0.5}, nil},
	} {
		s := &Search{cfg: Config{HeuristicMinimax: 0.5}.withDefaults(), roles: xo}
		root := mk(0, [][]reasoner.Move{two, noop}, 0.5, 0.5, 0.8, 0.2)
		forced := mk(noMover, [][]reasoner.Move{noop, noop})
		child := mk(1, [][]reasoner.Move{noop, two}, 0.3, 0.7, 0.4, 0.6)
		if tt.bare {
			child = mk(1, [][]reasoner.Move{noop, two})
		}
		if tt.leaf != nil {
			tt.leaf.solved.Store(true)
		}
		w := newWorker(s, 1, 0)
		w.path = []*node{root, forced, child}
		w.idx = []int32{0, 0, 0, 0, 0, 1} // root: x's a; forced; child: o's b
		w.backupMinimax(tt.leaf)
		if got := load(root, 0); !approxEqual(got, tt.wantRoot) {
			t.Errorf("%s: root's move 0 %v, want %v", tt.name, got, tt.wantRoot)
		}
		if got := load(root, 1); !approxEqual(got, []float64{0.8, 0.2}) {
			t.Errorf("%s: root's move 1 %v, want it unchanged", tt.name, got)
		}
		if tt.wantChild != nil {
			if got := load(child, 1); !approxEqual(got, tt.wantChild) {
				t.Errorf("%s: child's move 1 %v, want %v", tt.name, got, tt.wantChild)
			}
		}
	}
}

// TestMinimaxSelection checks that selection mixes a move's mean with its
// minimax value at HeuristicMinimax: of a move of mean 0.6 and one of mean
// 0.4, equally visited, the first is selected without the mix and the
// second when its minimax value (0.9 against 0.2) weighs half.
func TestMinimaxSelection(t *testing.T) {
	moves := []reasoner.Move{"a", "b"}
	for _, tt := range []struct {
		hmix float64
		want reasoner.Move
	}{
		{0, "a"},
		{0.1, "a"},
		{0.5, "b"},
	} {
		s := &Search{cfg: Config{HeuristicMinimax: tt.hmix}.withDefaults(), roles: []string{"x", "o"}}
		n := &node{mover: 0, moves: [][]reasoner.Move{moves, {"noop"}}, off: []int32{0, 2},
			n: make([]afloat, 3), w: make([]afloat, 3)}
		n.n[0].Add(20)
		n.w[0].Add(12)
		n.n[1].Add(20)
		n.w[1].Add(8)
		n.visits.Add(40)
		n.setMinimax([]float64{0.2, 0.8, 0.9, 0.1})
		w := newWorker(s, 1, 0)
		w.view = &view{pinRole: -1}
		if got := moves[w.selectJoint(n, nil)]; got != tt.want {
			t.Errorf("hmix %v: selected %s, want %s", tt.hmix, got, tt.want)
		}
	}
}
