package mcts

// Implicit minimax backups (Config.HeuristicMinimax; Lanctot, Winands,
// Pepels and Sturtevant, "Monte Carlo Tree Search with Heuristic
// Evaluations using Implicit Minimax Backups", 2014). Where the search
// has a heuristic, each node where one role moves keeps, beside the mean
// of each move of its mover, the minimax of the heuristic's values below
// the move: the heuristic's value of the state the move reaches, when the
// tree grows below the node (expand), replaced by the child's own minimax
// as soon as the child has one, and by the exact values of a child that is
// proven. Selection ranks the mover's moves by
//
//	(1 − α)·mean + α·minimax
//
// so a deep heuristic judgement steers the search where the playouts'
// mean is still noisy. The minimax is the heuristic's prediction of every
// role's goal, so a node's value is the vector of the move best for its
// mover, which serves games of any number of roles that take turns.

// minimaxValues holds the minimax of the heuristic's values below each
// move of a node's mover: the value for role r of move i at v[i*roles+r].
type minimaxValues struct{ v []afloat }

// row returns the minimax values of move i for every role.
func (m *minimaxValues) row(i, roles int) []afloat { return m.v[i*roles : (i+1)*roles] }

// best returns the row of the move whose value is highest for mover.
func (m *minimaxValues) best(mover, roles int) []afloat {
	best, bestV := 0, -1.0
	for i := 0; i < len(m.v); i += roles {
		if v := m.v[i+mover].Load(); v > bestV {
			best, bestV = i, v
		}
	}
	return m.v[best : best+roles]
}

// setMinimax publishes the minimax values of n's mover's moves, vals[i*roles+r]
// the heuristic's (or the goals') value for role r of the state move i
// reaches. Called once per node, by the worker that expands it.
func (n *node) setMinimax(vals []float64) {
	m := &minimaxValues{v: make([]afloat, len(vals))}
	for i, v := range vals {
		m.v[i].Store(v)
	}
	n.minimax.Store(m)
}

// backupMinimax carries the minimax values of the iteration's path up from
// its end: the solved leaf's values, if the iteration ended at one, go to
// the move of the last node that reaches it, and each node's best row goes
// to the move of its parent that reaches it. A node without minimax
// values (not yet expanded, or several roles move) stops the climb, but
// one where no role has a choice passes its child's values on.
func (w *worker) backupMinimax(leaf *node) {
	nr := len(w.s.roles)
	var up []afloat // the values of path[k+1], or of the leaf
	var exact []float64
	if leaf != nil && leaf.solved.Load() {
		exact = leaf.value
	}
	for k := len(w.path) - 1; k >= 0; k-- {
		n := w.path[k]
		switch {
		case n.solved.Load():
			up, exact = nil, n.value
			continue
		case n.mover == noMover:
			continue
		case n.mover < 0:
			up, exact = nil, nil
			continue
		}
		m := n.minimax.Load()
		if m == nil {
			up, exact = nil, nil
			continue
		}
		row := m.row(int(w.idx[k*nr+n.mover]), nr)
		switch {
		case exact != nil:
			for r := range row {
				row[r].Store(exact[r])
			}
		case up != nil:
			for r := range row {
				row[r].Store(up[r].Load())
			}
		}
		up, exact = m.best(n.mover, nr), nil
	}
}
