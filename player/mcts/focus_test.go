package mcts

import (
	"context"
	"slices"
	"testing"

	"github.com/ggp-go/ggp/reasoner"
)

// TestCommit checks that after Commit the search plays the committed move
// at the root, only with Focus on, and that Advance ends the commitment.
func TestCommit(t *testing.T) {
	for _, focus := range []Switch{On, Off} {
		s := newSearch(t, nim(7), Config{Workers: 1, Focus: focus})
		w := newWorker(s, 1, 0)
		if err := s.Commit(0, "(take 1)"); err != nil {
			t.Fatal(err)
		}
		for range 50 {
			w.iterate(context.Background(), s.main)
		}
		take2 := s.root.n[slices.Index(s.root.moves[0], "(take 2)")].Load()
		if (take2 == 0) != (focus == On) {
			t.Errorf("focus %v: (take 2) visited %v times after committing (take 1)", focus, take2)
		}
		if focus == Off {
			continue
		}
		if err := s.Commit(0, "(take 3)"); err == nil {
			t.Error("committing an illegal move: no error")
		}
		if err := s.Advance(context.Background(), []reasoner.Move{"(take 1)", "noop"}); err != nil {
			t.Fatal(err)
		}
		if s.pinRole != -1 {
			t.Errorf("after Advance, role %d still committed", s.pinRole)
		}
	}
}
