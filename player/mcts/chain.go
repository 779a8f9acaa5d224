package mcts

// Runs of one role's moves (Config.Chains). Where a role moves and then
// moves again, as in amazons (a queen's move, then its arrow), dots and
// boxes (a box completed) or draughts (a jump that goes on), the mean of
// the first move is the mean over every continuation the tree tried
// below it, most of them worse than the best: UCB1 concentrates on the
// best continuation only as its state's visits grow, so the first move is
// undervalued for long, the more so the more continuations it has.
// Sancho meets the same with its hyper-edges, which join a state to the
// next state where another role chooses. Here the backup does it: an
// iteration through a move after which the same role moves again credits
// the move with the role's mean, in the state it reaches, of the move the
// tree visited most there, once that state has chainVisits visits; before
// that, with the iteration's own result.

// chainVisits is the number of visits a state needs before its most
// visited move stands for it in the backup of the move that reached it.
const chainVisits = 16

// chainValue returns what the move the iteration played at w.path[k]
// is credited with for the role that moves there, v being the iteration's
// value for it: the value of the role's best continuation when the same
// role moves in the state the move reaches, v otherwise.
func (w *worker) chainValue(k int, v float64) float64 {
	n := w.path[k]
	r := n.mover
	c := n.child(w.joint[k])
	if c == nil || c.mover != r || c.terminal {
		return v
	}
	if c.solved.Load() {
		return c.value[r]
	}
	if c.visits.Load() < chainVisits {
		return v
	}
	off := int(c.off[r])
	bestN, bestW := 0.0, 0.0
	for i := range c.moves[r] {
		if visits := c.n[off+i].Load(); visits > bestN {
			bestN, bestW = visits, c.w[off+i].Load()
		}
	}
	if bestN == 0 {
		return v
	}
	return bestW / bestN
}
