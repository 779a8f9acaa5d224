package mcts

import (
	"context"

	"github.com/ggp-go/ggp/reasoner"
)

// Proving wins in the tree (Config.ProveLeaves). The first time the tree
// grows below a state in which one role moves, which is the state's second
// visit, it looks for a move of that role that ends the game with its
// highest goal and every other role's lowest (wonOutright: where the
// others score more, another move might be as good for the mover and
// worse for them, and solve waits for all of them). If there is one, the
// state is proven a win for the mover,
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

// expand does, the first time the tree grows below n (claimed by the
// worker in descend, so that it is done once), what the search knows to
// do there where one role moves: with ProveLeaves it looks for a move of
// the mover that wins outright at once, and if there is one marks n
// solved, its value that of the terminal state reached, which becomes the
// child of the winning move, and reports true; with a heuristic prior it
// scores the state each move reaches, by its goals if it is terminal and
// otherwise by the heuristic, and gives the move that many visits of that
// value; with material and no heuristic it gives the material prior
// (material.go).
func (w *worker) expand(ctx context.Context, r reasoner.Reasoner, n *node) (bool, error) {
	var h *heurCache
	var mc *materialCache
	if w.prior > 0 {
		h = w.heuristic()
	}
	if h == nil {
		mc = w.materialView()
	}
	if !w.prove && h == nil && mc == nil {
		return false, nil
	}
	m := n.mover
	w.priors = w.priors[:0]
	w.pieces = w.pieces[:0]
	w.terminal = w.terminal[:0]
	joint := w.moves
	for role, ms := range n.moves {
		joint[role] = ms[0]
	}
	for i, mv := range n.moves[m] {
		// A next state per move: a reasoner that does not heed ctx in
		// its calls is stopped between them.
		if err := ctx.Err(); err != nil {
			return false, err
		}
		joint[m] = mv
		next, err := r.Next(ctx, n.state, joint)
		if err != nil {
			return false, err
		}
		term, err := r.Terminal(ctx, next)
		if err != nil {
			return false, err
		}
		switch {
		case term:
			if err := goalsOf(ctx, r, next, w.check); err != nil && ctx.Err() != nil {
				return false, err
			}
			if w.prove && wonOutright(w.check, m) {
				return true, w.proven(ctx, r, n, i, next)
			}
		case h != nil:
			if err := h.evaluate(ctx, r, next, w.check); err != nil {
				return false, err
			}
		}
		w.priors = append(w.priors, w.check[m])
		if mc != nil {
			var p [2]float64
			if !term {
				mc.count(next, &p)
			}
			w.pieces = append(w.pieces, p)
			w.terminal = append(w.terminal, term)
		}
	}
	switch {
	case h != nil:
		off := int(n.off[m])
		for i, v := range w.priors {
			n.n[off+i].Add(w.prior)
			n.w[off+i].Add(w.prior * v)
		}
	case mc != nil:
		w.materialPriors(n, mc)
		if w.minimax > 0 {
			w.initMinimax(n)
		}
	}
	return false, nil
}

// proven marks n solved by move i of its mover, which reaches win, a
// terminal state where the mover has its highest goal.
func (w *worker) proven(ctx context.Context, r reasoner.Reasoner, n *node, i int, win *reasoner.State) error {
	child, err := w.s.makeNode(ctx, r, win)
	if err != nil {
		return err
	}
	s := w.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if n.solved.Load() {
		return nil
	}
	// The winning state goes through the table, as attach adds states:
	// another worker that selected the winning move meanwhile may have
	// added its node for it, which must be the one linked here, or the
	// table would keep a node the tree does not reach.
	if c, ok := s.findOrAdd(w.gen, win, child); ok {
		child = c
	}
	// Joint moves are numbered in mixed radix, and every role but the
	// mover has a single move: move i of the mover is joint i.
	if c := s.link(n, int64(i), child, w.gen); c != nil {
		child = c
	}
	n.prove(child.value, child.depth+1)
	return nil
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
	w.unvisit(k)
	w.path, w.idx, w.joint = w.path[:k], w.idx[:k*nr], w.joint[:k]
}

// decisiveBits returns, per role, the decisive moves of decisive (those
// reasoner.WinReader reads as winning at once wherever they are played)
// as bits over pp's numbering of the role's moves; nil for a role
// without any, and nil when no role has any.
func decisiveBits(decisive [][]int32, pp reasoner.PolicyPlayouter) [][]uint64 {
	var bits [][]uint64
	for role, ms := range decisive {
		if len(ms) == 0 {
			continue
		}
		if bits == nil {
			bits = make([][]uint64, len(decisive))
		}
		bits[role] = make([]uint64, (len(pp.Moves(role))+63)/64)
		for _, m := range ms {
			bits[role][m>>6] |= 1 << (m & 63)
		}
	}
	return bits
}
