package mcts

import (
	"context"

	"github.com/ggp-go/ggp/reasoner"
)

// Proving wins at the leaves (Config.ProveLeaves). When the tree adds a
// state in which one role moves, it looks at once for a move of that role
// that ends the game with its highest goal. If there is one, the state is
// proven a win for the mover, with the terminal state as its child, as
// the MCTS-solver would find only after visiting that move. The proof
// then climbs the tree: a move of the other role that allows the win is
// proven a loss, which the solver's selection no longer plays and Best
// avoids (anti-decisive moves in the tree), and a state all of whose
// moves allow one is proven lost. The cost is a next state per legal move
// of each new node, against a next state and a terminal test per legal
// move at every step of a playout for decisive moves there.

// proveWin looks for a move of the mover of n, a node not yet in the tree,
// that wins at once, and if there is one marks n solved, its value that of
// the terminal state reached, which becomes its only child.
func (w *worker) proveWin(ctx context.Context, r reasoner.Reasoner, n *node) error {
	if n.solved || n.mover < 0 {
		return nil
	}
	m := n.mover
	joint := w.moves
	for role, ms := range n.moves {
		joint[role] = ms[0]
	}
	for i, mv := range n.moves[m] {
		joint[m] = mv
		next, err := r.Next(ctx, n.state, joint)
		if err != nil {
			return err
		}
		term, err := r.Terminal(ctx, next)
		if err != nil {
			return err
		}
		if !term {
			continue
		}
		if err := goalsOf(ctx, r, next, w.check); err != nil && ctx.Err() != nil {
			return err
		}
		if w.check[m] < 1 {
			continue
		}
		child, err := w.s.makeNode(ctx, r, next)
		if err != nil {
			return err
		}
		// Joint moves are numbered in mixed radix, and every role but
		// the mover has a single move: move i of the mover is joint i.
		n.children = append(n.children, edge{int64(i), child})
		n.solved, n.value = true, child.value
		return nil
	}
	return nil
}
