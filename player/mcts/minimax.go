package mcts

import (
	"math"
)

// Implicit minimax backups of material (Config.Minimax): Lanctot,
// Winands, Pepels and Sturtevant, "Monte Carlo Tree Search with Heuristic
// Evaluations using Implicit Minimax Backups" (CIG 2014). Beside its
// playout statistics, each state of the tree where one role moves keeps
// the minimax value, over the part of the tree below it, of an evaluation
// of the states at its edge: here the logistic of the material balance
// (material.go), a quarter of the piece difference, or the goals of a
// terminal state. Selection then ranks a move by a mix of its mean and
// the minimax value of the state it reaches, weighted minimaxWeight.
//
// Playouts average over the replies, which in a game of captures is what
// a random opponent would do; the minimax value takes the best reply the
// tree has found, so that an exchange that loses a piece in the end is
// seen as lost as soon as the tree holds its last capture, many visits
// before the means show it.
//
// A state's values are made when the tree first grows below it (expand),
// from the material of the states its mover's moves reach, and each
// iteration's backup sets the value of each move it played from the state
// that move reached, once that state has values of its own, and the
// state's value from its moves'. They are read and written atomically
// without the tree lock: a value read while another worker changes it is
// one of the two, either a fair estimate.

// minimaxWeight is the weight of a move's minimax value in selection, its
// mean's being 1 - minimaxWeight.
const minimaxWeight = 0.4

// minimaxValues are the implicit minimax values of a state where one role
// moves, all from the first role's side (the game is one of two roles,
// where what one wins the other loses): the state's, and that of the state
// each of its mover's moves reaches.
type minimaxValues struct {
	value afloat
	moves []afloat
}

// materialEval returns the evaluation, for the first role, of a state
// whose pieces are p: the logistic of a quarter of the first role's lead
// in pieces, the material prior's scale.
func materialEval(p [2]float64) float64 {
	return 1 / (1 + math.Exp(-(p[0]-p[1])/4))
}

// initMinimax gives n, whose mover's moves reach states whose pieces are
// in w.pieces (terminal ones with the mover's goal in w.priors), its
// minimax values.
func (w *worker) initMinimax(n *node) {
	m := n.mover
	mv := &minimaxValues{moves: make([]afloat, len(w.pieces))}
	for i, p := range w.pieces {
		v := materialEval(p)
		if w.terminal[i] {
			v = w.priors[i]
			if m == 1 {
				v = 1 - v
			}
		}
		mv.moves[i].Store(v)
	}
	mv.value.Store(bestFor(m, mv.moves))
	grow := int64(8*len(mv.moves) + 32)
	s := w.s
	s.mu.Lock()
	n.size += grow
	n.mm.Store(mv)
	s.mu.Unlock()
	s.bytes.Add(grow)
}

// bestFor returns the value, for the first role, of the move of vs best
// for role m.
func bestFor(m int, vs []afloat) float64 {
	best := math.Inf(-1)
	for i := range vs {
		v := vs[i].Load()
		if m == 1 {
			v = 1 - v
		}
		best = max(best, v)
	}
	if m == 1 {
		return 1 - best
	}
	return best
}

// backupMinimax sets, from the bottom of the iteration's path up, the
// minimax value of the move played at each state with values from the
// state it reached, and the state's value from its moves'.
func (w *worker) backupMinimax() {
	nr := len(w.s.roles)
	for k := len(w.path) - 1; k >= 0; k-- {
		n := w.path[k]
		mv := n.mm.Load()
		if mv == nil {
			continue
		}
		ch := n.child(w.joint[k])
		if ch == nil {
			continue
		}
		var v float64
		if ch.solved.Load() {
			v = ch.value[0]
		} else if cm := ch.mm.Load(); cm != nil {
			v = cm.value.Load()
		} else {
			continue
		}
		mv.moves[w.idx[k*nr+n.mover]].Store(v)
		mv.value.Store(bestFor(n.mover, mv.moves))
	}
}

// minimaxMean returns mean, role r's mean of move i at n, mixed with the
// move's minimax value, mv being n's values.
func (w *worker) minimaxMean(mv *minimaxValues, r, i int, mean float64) float64 {
	v := mv.moves[i].Load()
	if r == 1 {
		v = 1 - v
	}
	return (1-w.minimax)*mean + w.minimax*v
}
