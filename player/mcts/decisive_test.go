package mcts

import (
	"context"
	"slices"
	"testing"
)

// TestProveLeaves checks that a state the tree adds, in which the mover
// can win at once, is proven at once with ProveLeaves and not without: in
// nim from 4, taking 2 leaves 2, which the second player takes to win.
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
		if ch.solved != (prove == On) {
			t.Errorf("prove %v: pile 2 solved %v", prove, ch.solved)
		}
		if prove == On {
			if ch.value[1] != 1 || ch.terminal {
				t.Errorf("pile 2: value %v, terminal %v; want a win for second, not terminal", ch.value, ch.terminal)
			}
			if win := ch.child(int64(slices.Index(ch.moves[1], "(take 2)"))); win == nil || !win.terminal {
				t.Errorf("pile 2: the winning move's child %v, want the terminal state", win)
			}
			// Selection never plays the first player's move that allows
			// the win again, and Best avoids it.
			for range 100 {
				w.iterate(context.Background(), s.main)
			}
			if n := s.root.n[i]; n != 1 {
				t.Errorf("(take 2) visited %v times, want 1", n)
			}
			if m, err := s.Best(0); err != nil || m != "(take 1)" {
				t.Errorf("Best = %q, %v; want (take 1)", m, err)
			}
		}
	}
}
