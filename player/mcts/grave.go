package mcts

import (
	"math"

	"github.com/ggp-go/ggp/reasoner"
)

// Generalized rapid action value estimation (GRAVE, Cazenave 2015): a move
// that was good when played later in an iteration is likely good now, so
// each node also keeps, for every legal move of every role, the
// all-moves-as-first (AMAF) statistics: the iterations through the node in
// which the role played the move at any later point, and their value.
// Selection blends a move's own mean with the AMAF mean, trusting its own
// mean more as its visits grow. The AMAF values come from the closest node
// on the path, the node itself or an ancestor, with more than GRAVERef
// visits: a node seen rarely has too few to be worth anything.
//
// Only the nodes that can lend their values keep AMAF statistics: a node
// starts keeping them when its visits reach GRAVERef, which bounds their
// memory by the number of iterations over GRAVERef.

// keepsAMAF reports whether n keeps AMAF statistics, starting them, and
// the index of its moves that the nodes below it look them up by, when its
// visits have reached ref. s.mu must be held.
func (s *Search) keepsAMAF(n *node) bool {
	if n.amafN != nil {
		return true
	}
	if n.visits.Load() < float64(s.cfg.GRAVERef) {
		return false
	}
	n.amafN = make([]float64, len(n.n))
	n.amafW = make([]float64, len(n.n))
	n.index = make([]map[reasoner.Move]int32, len(n.moves))
	for r, ms := range n.moves {
		n.index[r] = make(map[reasoner.Move]int32, len(ms))
		for i, m := range ms {
			n.index[r][m] = n.off[r] + int32(i)
		}
	}
	grow := int64(16 * len(n.n))
	n.size += grow
	s.bytes.Add(grow)
	return true
}

// lends reports whether n's AMAF values are used below it: it has more
// than ref visits.
func (s *Search) lends(n *node) bool {
	return n.amafN != nil && n.visits.Load() > float64(s.cfg.GRAVERef)
}

// amafIndex returns the index in n's statistics of move m of role, or -1
// when m is not legal there. n must keep AMAF statistics. s.mu must be
// held.
func (n *node) amafIndex(role int, m reasoner.Move) int {
	if i, ok := n.index[role][m]; ok {
		return int(i)
	}
	return -1
}

// graveValue returns the value selection gives a move of the given mean
// and visits (not 0), whose AMAF values ref holds at index j: its own mean
// blended with its AMAF mean, or its own mean when ref has no AMAF visits
// of it or j is -1, the move not being legal in ref.
func (s *Search) graveValue(mean, visits float64, ref *node, j int) float64 {
	if j < 0 {
		return mean
	}
	an := ref.amafN[j]
	if an == 0 {
		return mean
	}
	beta := an / (an + visits + s.cfg.GRAVEBias*an*visits)
	return (1-beta)*mean + beta*ref.amafW[j]/an
}

// graveFirstValue returns, with Config.GRAVEFirst, the value selection
// gives a move not yet visited whose AMAF values ref holds at index j:
// the value it would have after one visit that scored its AMAF mean, so
// that the moves played well later in the iterations are tried first and
// those played badly wait until the visited ones have had a few visits.
// ok is false without AMAF visits of the move, or with GRAVEFirst off:
// the move is then tried before any visited one, as UCT does.
func (s *Search) graveFirstValue(ref *node, j int, logN float64) (v float64, ok bool) {
	if !s.graveFirst || j < 0 {
		return 0, false
	}
	an := ref.amafN[j]
	if an == 0 {
		return 0, false
	}
	return ref.amafW[j]/an + s.exploration()*math.Sqrt(logN), true
}

// exploration returns the UCB1 exploration constant of the search:
// Config.GRAVEExploration with GRAVE, Config.Exploration without.
func (s *Search) exploration() float64 {
	if s.grave {
		return s.cfg.GRAVEExploration
	}
	return s.cfg.Exploration
}

// learnAMAF adds the values of the iteration to the AMAF statistics of
// the nodes on the path that keep them: at each node, every legal move a
// role played there or below, in the tree or in the playout, counts once.
// The playout's moves of each role are w.played[r][w.treeCount[r]:].
// s.mu must be held.
func (w *worker) learnAMAF() {
	s := w.s
	nr := len(s.roles)
	for r := range nr {
		clear(w.seen[r])
		for _, m := range w.played[r][w.treeCount[r]:] {
			w.seen[r][m] = struct{}{}
		}
	}
	for k := len(w.path) - 1; k >= 0; k-- {
		n := w.path[k]
		for r := range nr {
			if len(n.moves[r]) > 1 {
				w.seen[r][n.moves[r][w.idx[k*nr+r]]] = struct{}{}
			}
		}
		if !s.keepsAMAF(n) {
			continue
		}
		for r := range nr {
			if len(n.moves[r]) < 2 {
				continue
			}
			off := int(n.off[r])
			for i, m := range n.moves[r] {
				if _, ok := w.seen[r][m]; ok {
					n.amafN[off+i]++
					n.amafW[off+i] += w.value[r]
				}
			}
		}
	}
}
