package mcts

import (
	"fmt"
	"slices"

	"github.com/ggp-go/ggp/reasoner"
)

// Focus after the answer (Config.Focus). Once the player has answered, its
// move at the root is known, and a search that goes on until the next call
// (pondering) learns nothing useful from the other moves of its role: with
// Commit, selection at the root plays the committed move for that role,
// so every iteration goes to the states the game can still reach: in a
// turn-taking game, the subtree of the opponent's replies, which the next
// turn keeps. Advance ends the commitment.

// Commit makes the searches until the next Advance play move m of role at
// the root, when Config.Focus is on; it does nothing otherwise.
func (s *Search) Commit(role int, m reasoner.Move) error {
	if !s.cfg.Focus.enabled(false) {
		return nil
	}
	if role < 0 || role >= len(s.roles) {
		return fmt.Errorf("mcts: no role %d", role)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.root.terminal {
		return ErrTerminal
	}
	i := slices.Index(s.root.moves[role], m)
	if i < 0 {
		return fmt.Errorf("mcts: %s is not a legal move of %s", m, s.roles[role])
	}
	s.pinRole, s.pinMove = role, int32(i)
	s.publishView()
	return nil
}

// A view is what the workers select by, published together so that a
// worker, which selects without the tree lock, reads them consistently:
// the root, the tree's generation, and the move committed at the root.
// It is never modified once published.
type view struct {
	root    *node
	gen     uint64
	pinRole int
	pinMove int32
}

// publishView publishes the current root, generation and commitment.
// s.mu must be held.
func (s *Search) publishView() {
	s.view.Store(&view{root: s.root, gen: s.gen, pinRole: s.pinRole, pinMove: s.pinMove})
}

// pinned returns the move index role must play at n, or -1.
func (v *view) pinned(n *node, role int) int {
	if n != v.root || role != v.pinRole {
		return -1
	}
	return int(v.pinMove)
}
