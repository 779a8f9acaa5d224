package mcts

import (
	"context"

	"github.com/ggp-go/ggp/reasoner"
)

// Proving wins in the tree (Config.ProveLeaves). The first time the tree
// grows below a state in which one role moves, which is the state's second
// visit, it looks for a move of that role that ends the game with its
// highest goal. If there is one, the state is proven a win for the mover,
// with the terminal state as its child, as the MCTS-solver would find only
// after visiting that move. The proof then climbs the tree: a move of the
// other role that allows the win is proven a loss, which the solver's
// selection no longer plays and Best avoids (anti-decisive moves in the
// tree), and a state all of whose moves allow one is proven lost.
//
// The check costs a next state and a terminal test per legal move of the
// state. Made on every state the tree adds it cost a fifth of the
// iterations in connect four and a third in breakthrough, most of it on
// leaves visited once and never again; made where the tree grows, it is
// made once per inner node of the tree, a small share of its nodes.

// proveExpanding checks, the first time the tree grows below n, whether
// the mover of n wins at once. If so it marks n solved, its value that of
// the terminal state reached, which becomes the child of the winning move,
// and reports true.
func (w *worker) proveExpanding(ctx context.Context, r reasoner.Reasoner, n *node) (bool, error) {
	s := w.s
	s.mu.Lock()
	skip := n.checked || n.solved || n.mover < 0
	n.checked = true
	s.mu.Unlock()
	if skip {
		return false, nil
	}
	i, win, err := w.winAtOnce(ctx, r, n)
	if err != nil || win == nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !n.solved {
		// Joint moves are numbered in mixed radix, and every role but
		// the mover has a single move: move i of the mover is joint i.
		if n.child(int64(i)) == nil {
			n.children = append(n.children, edge{int64(i), win})
		}
		n.solved, n.value = true, win.value
	}
	return true, nil
}

// winAtOnce returns a move of the mover of n that ends the game with the
// mover's highest goal, by its index, and the terminal node it reaches; a
// nil node when there is none.
func (w *worker) winAtOnce(ctx context.Context, r reasoner.Reasoner, n *node) (int, *node, error) {
	m := n.mover
	joint := w.moves
	for role, ms := range n.moves {
		joint[role] = ms[0]
	}
	for i, mv := range n.moves[m] {
		joint[m] = mv
		next, err := r.Next(ctx, n.state, joint)
		if err != nil {
			return 0, nil, err
		}
		term, err := r.Terminal(ctx, next)
		if err != nil {
			return 0, nil, err
		}
		if !term {
			continue
		}
		if err := goalsOf(ctx, r, next, w.check); err != nil && ctx.Err() != nil {
			return 0, nil, err
		}
		if w.check[m] < 1 {
			continue
		}
		child, err := w.s.makeNode(ctx, r, next)
		if err != nil {
			return 0, nil, err
		}
		return i, child, nil
	}
	return 0, nil, nil
}

// dropLast undoes the selection at the last node of the path, whose value
// turned out to be proven: the iteration ends there as it would have, had
// descend found it solved. s.mu must be held.
func (w *worker) dropLast() {
	s := w.s
	if w.gen != s.gen || len(w.path) == 0 {
		return
	}
	nr := len(s.roles)
	k := len(w.path) - 1
	n := w.path[k]
	n.visits--
	for r := range nr {
		n.n[int(n.off[r])+int(w.idx[k*nr+r])]--
	}
	w.path, w.idx, w.joint = w.path[:k], w.idx[:k*nr], w.joint[:k]
}
