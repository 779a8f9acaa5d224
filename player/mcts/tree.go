package mcts

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/ggp-go/ggp/reasoner"
)

// A node is a state of the search graph with the statistics of the moves
// played from it.
//
// Workers select and back up without the tree lock (Search.mu): the
// statistics (visits, n, w) are updated atomically, and the fields a
// worker reads on its way down are published atomically (checked,
// solved, the children). Search.mu serialises proofs (solved and value)
// and GRAVE's AMAF statistics; the transposition table's shard locks
// serialise adding nodes and children (table.go).
type node struct {
	state *reasoner.State
	next  *node // next node in the same transposition table bucket, under its shard's lock

	terminal bool
	// checked means a worker has claimed, in descend, the look expand
	// makes from the state: a win at once (Config.ProveLeaves) and the
	// heuristic prior (expand.go).
	checked atomic.Bool
	// solved means value holds the exact goal values of the state, in
	// [0,1] and role order: the goals of a terminal state, or a value
	// proven from the children. It is set once, under Search.mu, after
	// value, which then never changes: value may be read by whoever has
	// seen solved set.
	solved atomic.Bool
	value  []float64
	// depth is, once solved, the steps from the state to the end of the
	// game along its proof: 0 for a terminal state; for a proof by a
	// child, one more than the child's. Set with value.
	depth int32

	// mover is the only role with a choice, noMover when no role has one
	// and several when more than one role has.
	mover int

	moves [][]reasoner.Move // legal moves of each role, nil when terminal
	off   []int32           // offset of each role's moves in n and w
	n     []afloat          // visits of each role's moves
	w     []afloat          // sum of each role's values over those visits

	// AMAF statistics for GRAVE, aligned with n and w, and an index of
	// the moves; nil until the node has enough visits (grave.go). Read
	// and written under Search.mu.
	amafN, amafW []float64
	index        []map[reasoner.Move]int32

	visits afloat // iterations through the node, including running ones
	// The children, in the order they were added: the address of the
	// first edge of their array, their number, and the array's capacity,
	// which only addChild reads (children).
	kidsAt  atomic.Pointer[edge]
	kidsLen atomic.Int32
	kidsCap int32
	size    int64  // estimated bytes, under Search.mu
	mark    uint64 // stamp of the last graph walk that reached the node, under Search.mu
	// mm holds the implicit minimax values of material, nil until the
	// tree grows below the node with Config.Minimax (minimax.go).
	mm atomic.Pointer[minimaxValues]
}

// afloat is a float64 read and updated atomically: the statistics that
// workers update without the tree lock.
type afloat struct{ bits atomic.Uint64 }

func (f *afloat) Load() float64 { return math.Float64frombits(f.bits.Load()) }

// Store sets f to v.
func (f *afloat) Store(v float64) { f.bits.Store(math.Float64bits(v)) }

// Add adds d to f.
func (f *afloat) Add(d float64) {
	for {
		old := f.bits.Load()
		if f.bits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+d)) {
			return
		}
	}
}

// Values of node.mover.
const (
	noMover = -1
	several = -2
)

// An edge leads from a node to the state a joint move reaches. The joint
// move is numbered in mixed radix: the move index of the first role plus
// the number of its moves times the index of the second role, and so on.
type edge struct {
	joint int64
	child *node
}

// children returns the children of n in the order they were added. The
// slice is never modified.
//
// An edge is only appended, under a lock (addChild), written into the
// backing array before the array's address and then the new length are
// published; an array too small is replaced by a copy (append), which
// readers of the old one never see change. So a reader that loads the
// length and then the address finds at least that many edges, written.
func (n *node) children() []edge {
	k := n.kidsLen.Load()
	if k == 0 {
		return nil
	}
	return unsafe.Slice(n.kidsAt.Load(), k)
}

// addChild appends the edge of joint move j to c. The lock of n's shard of
// the transposition table must be held (table.go).
func (n *node) addChild(j int64, c *node) {
	var kids []edge
	if k := n.kidsLen.Load(); k > 0 {
		kids = unsafe.Slice(n.kidsAt.Load(), n.kidsCap)[:k]
	}
	kids = append(kids, edge{j, c})
	n.kidsCap = int32(cap(kids))
	n.kidsAt.Store(&kids[0])
	n.kidsLen.Store(int32(len(kids)))
}

// child returns the child reached by joint move number j, or nil.
func (n *node) child(j int64) *node {
	return childOf(n.children(), j)
}

// childOf returns the child in kids reached by joint move number j, or nil.
func childOf(kids []edge, j int64) *node {
	for i := range kids {
		if kids[i].joint == j {
			return kids[i].child
		}
	}
	return nil
}

// normalise converts goal values in [0,100] to [0,1]; undefined goals (-1)
// count as 0.
func normalise(goals []int, out []float64) {
	for i := range out {
		g := 0
		if i < len(goals) {
			g = goals[i]
		}
		out[i] = math.Min(math.Max(float64(g)/100, 0), 1)
	}
}

// goalsOf returns the normalised goals of st. A state whose goals are not
// all defined still scores the defined ones.
func goalsOf(ctx context.Context, r reasoner.Reasoner, st *reasoner.State, out []float64) error {
	g, err := r.Goals(ctx, st)
	var gerr *reasoner.GoalError
	if err != nil && !errors.As(err, &gerr) {
		for i := range out {
			out[i] = 0
		}
		return err
	}
	normalise(g, out)
	return nil
}

// makeNode computes what a node needs about st: whether it is terminal,
// its goals if so and otherwise every role's legal moves. A state in which
// some role has no legal move is treated as terminal.
func (s *Search) makeNode(ctx context.Context, r reasoner.Reasoner, st *reasoner.State) (*node, error) {
	nr := len(s.roles)
	n := &node{state: st, mover: noMover}
	term, err := r.Terminal(ctx, st)
	if err != nil {
		return nil, err
	}
	if !term {
		n.moves = make([][]reasoner.Move, nr)
		for role := range nr {
			ms, err := r.Legal(ctx, st, role)
			if err != nil {
				return nil, err
			}
			if len(ms) == 0 {
				term = true
				break
			}
			n.moves[role] = ms
		}
	}
	size := 200 + st.Size()
	if term {
		n.terminal, n.moves = true, nil
		n.value = make([]float64, nr)
		if err := goalsOf(ctx, r, st, n.value); err != nil && ctx.Err() != nil {
			return nil, err
		}
		n.solved.Store(true)
		n.size = size + int64(8*nr)
		return n, nil
	}
	n.off = make([]int32, nr)
	total := 0
	for role, ms := range n.moves {
		n.off[role] = int32(total)
		total += len(ms)
		for _, m := range ms {
			size += int64(len(m)) + 16
		}
		if len(ms) > 1 {
			if n.mover == noMover {
				n.mover = role
			} else {
				n.mover = several
				s.simultaneous.Store(true)
			}
		}
	}
	n.n = make([]afloat, total)
	n.w = make([]afloat, total)
	n.size = size + int64(16*total+4*nr)
	return n, nil
}

// A worker holds one search goroutine's scratch space, reused from one
// iteration to the next.
type worker struct {
	s   *Search
	rng *rand.Rand

	mast *mastTable // this worker's move averages, nil without MAST
	// prove: nodes the tree grows below are proven won when their mover
	// wins at once (Config.ProveLeaves, expand.go).
	prove bool
	// claimed: descend left this iteration's parent for expand to look
	// at (the first visit below it); set and read by this worker only.
	claimed bool
	// heur: the search learns a heuristic (Config.Heuristic); cut:
	// playouts stop and are scored by it (Config.HeuristicCut); prior:
	// the visits of its value a move gets when the tree grows below its
	// state (Config.HeuristicPriorVisits, 0 without Config.HeuristicPrior),
	// priors the scratch space.
	heur, cut bool
	prior     float64
	priors    []float64
	// material: the search looks for the roles' pieces where the
	// heuristic finds nothing (Config.Material), their prior given with
	// hprior; pieces and terminal are expand's scratch space for it.
	material bool
	pieces   [][2]float64
	terminal []bool
	// minimax: the weight of the implicit minimax values of material in
	// selection (Config.Minimax), 0 without.
	minimax float64
	// legal and check are the scratch space of a playout step and of
	// expand.
	legal [][]reasoner.Move
	check []float64
	// played holds the moves each role chose in this iteration, in the
	// tree (the first treeCount) and then in the playout, for GRAVE; nil
	// when it is off. seen is GRAVE's scratch set.
	played    [][]reasoner.Move
	treeCount []int
	seen      []map[reasoner.Move]struct{}
	// seq holds the moves chosen in this iteration, every role's in the
	// order played, by MAST number, for MAST and NST; each marks whether
	// a playout's policy chose it (MAST's greedy choice or a win at once)
	// rather than the tree or a draw: MAST does not learn from those
	// (mast.go).
	seq []seqMove
	ids []int32 // MAST numbers of a role's legal moves, scratch
	// nst: playouts rank moves with the averages of the sequences ending
	// in them (Config.NST).
	nst bool

	pp reasoner.PolicyPlayouter // the reasoner of the current policy playout
	hc *heurCache               // the heuristic and its weights by fact; nil without one
	mc *materialCache           // the material and the owner of each fact; nil without one

	path  []*node         // nodes selected from the root
	idx   []int32         // move index of every role at every node of path
	joint []int64         // joint move number at every node of path
	moves []reasoner.Move // a joint move
	value []float64       // goal values of the current iteration
	line  []reasoner.Move // single-player: moves from the root
	gen   uint64          // generation of the tree the iteration runs in
	view  *view           // the root the iteration selects by

	puzzleTime, treeTime time.Duration
}

func newWorker(s *Search, run uint64, id int) *worker {
	nr := len(s.roles)
	w := &worker{
		s:     s,
		rng:   rand.New(rand.NewPCG(s.cfg.Seed, run<<16|uint64(id))),
		moves: make([]reasoner.Move, nr),
		value: make([]float64, nr),
		prove: s.cfg.ProveLeaves == On,
		heur:  s.cfg.learnsHeuristic(),
		cut:   s.cfg.HeuristicCut == On,
		legal: make([][]reasoner.Move, nr),
		check: make([]float64, nr),
	}
	if s.cfg.HeuristicPrior == On {
		w.prior = float64(s.cfg.HeuristicPriorVisits)
		w.material = s.cfg.Material == On && s.cfg.learnsHeuristic()
		if w.material && s.cfg.Minimax == On {
			w.minimax = minimaxWeight
		}
	}
	if s.mast != nil {
		w.mast = s.mast[id]
		w.nst = s.cfg.NST == On
	}
	if s.grave {
		w.played = make([][]reasoner.Move, nr)
		w.treeCount = make([]int, nr)
		w.seen = make([]map[reasoner.Move]struct{}, nr)
		for r := range w.seen {
			w.seen[r] = map[reasoner.Move]struct{}{}
		}
	}
	return w
}

// abandon undoes the visits counted by the selection of an iteration that
// did not finish.
func (w *worker) abandon() {
	s := w.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if w.gen != s.gen {
		w.path = w.path[:0]
		return
	}
	for k := range w.path {
		w.unvisit(k)
	}
	w.path = w.path[:0]
}

// unvisit takes back the visit the selection counted at the k-th node of
// the path: the node's and each role's chosen move's.
func (w *worker) unvisit(k int) {
	nr := len(w.s.roles)
	n := w.path[k]
	n.visits.Add(-1)
	for r := range nr {
		n.n[int(n.off[r])+int(w.idx[k*nr+r])].Add(-1)
	}
}

// selectJoint picks a move for every role at n by UCB1 on the role's own
// statistics, counts the visit at once (a virtual loss that steers other
// workers elsewhere until the value is known), and returns the joint move
// number. Where one role moves, a move whose value is proven teaches
// nothing more, so the mover picks among the unproven moves while there
// are any, and otherwise the best proven one. With GRAVE, ref is the node
// that lends its AMAF values (n or an ancestor), nil when none does yet.
// It reads and counts the statistics atomically; with GRAVE, s.mu must
// be held for the AMAF values.
func (w *worker) selectJoint(n, ref *node) int64 {
	s := w.s
	c := s.exploration()
	logN := math.Log(n.visits.Load() + 1)
	kids := n.children()
	var mm *minimaxValues
	if w.minimax > 0 {
		mm = n.mm.Load()
	}
	var j int64
	stride := int64(1)
	for r, ms := range n.moves {
		k := len(ms)
		best := 0
		if v := w.view; k > 1 && n == v.root && r == v.focusRole {
			best = int(v.focusMove)
		} else if k > 1 {
			off := int(n.off[r])
			bestV, proven, provenV := math.Inf(-1), -1, math.Inf(-1)
			start := w.rng.IntN(k)
			for t := range k {
				i := start + t
				if i >= k {
					i -= k
				}
				if n.mover == r {
					if ch := childOf(kids, int64(i)); ch != nil && ch.solved.Load() {
						if ch.value[r] > provenV {
							proven, provenV = i, ch.value[r]
						}
						continue
					}
				}
				visits := n.n[off+i].Load()
				at := -1 // GRAVE: the move's index in ref
				if ref != nil {
					at = off + i
					if ref != n {
						at = ref.amafIndex(r, ms[i])
					}
				}
				if visits == 0 {
					if v, ok := s.graveFirstValue(ref, at, logN); ok {
						if v > bestV {
							best, bestV = i, v
						}
						continue
					}
					best, bestV = i, math.Inf(1)
					break
				}
				mean := n.w[off+i].Load() / visits
				if ref != nil {
					mean = s.graveValue(mean, visits, ref, at)
				}
				if mm != nil && n.mover == r {
					mean = w.minimaxMean(mm, r, i, mean)
				}
				if v := mean + c*math.Sqrt(logN/visits); v > bestV {
					best, bestV = i, v
				}
			}
			if math.IsInf(bestV, -1) && proven >= 0 {
				best = proven
			}
		}
		w.idx = append(w.idx, int32(best))
		j += int64(best) * stride
		stride *= int64(k)
	}
	n.visits.Add(1)
	base := len(w.idx) - len(n.moves)
	for r := range n.moves {
		n.n[int(n.off[r])+int(w.idx[base+r])].Add(1)
	}
	return j
}

// provenFloor returns the solved child of n whose value is best for the
// role that moves in n, or nil: the value of n for that role is at least
// that child's.
func provenFloor(n *node) *node {
	if n.mover < 0 {
		return nil
	}
	var best *node
	for _, e := range n.children() {
		if c := e.child; c.solved.Load() && (best == nil || c.value[n.mover] > best.value[n.mover]) {
			best = c
		}
	}
	return best
}

// jointMoves writes the moves of joint move k of the path into w.moves.
func (w *worker) jointMoves(n *node, k int) []reasoner.Move {
	nr := len(n.moves)
	for r := range nr {
		w.moves[r] = n.moves[r][w.idx[k*nr+r]]
	}
	return w.moves
}

// maxSelectDepth bounds the descent through the tree.
const maxSelectDepth = 10000

// iterate runs one iteration of the tree search: select down the tree,
// add the state reached, play out to the end, and back the goals up.
func (w *worker) iterate(ctx context.Context, r reasoner.Reasoner) {
	s := w.s
	s.iterations.Add(1)
	leaf, parent, playFrom := w.descend()
	if parent != nil && w.claimed {
		won, err := w.expand(ctx, r, parent)
		if err != nil {
			w.fail(ctx, err)
			return
		}
		if won {
			s.mu.Lock()
			w.dropLast()
			copy(w.value, parent.value)
			s.mu.Unlock()
			leaf, parent = parent, nil
		}
	}
	if w.mast != nil {
		w.mast.decay(w.gen, s.cfg.MASTDecay)
	}
	if w.mast != nil || w.played != nil {
		w.treeMoves()
	}
	if parent != nil {
		k := len(w.path) - 1
		st, err := r.Next(ctx, parent.state, w.jointMoves(parent, k))
		if err != nil {
			w.fail(ctx, err)
			return
		}
		ch := w.attach(parent, st, nil)
		if ch == nil && !s.full.Load() {
			// With memory full the node would be dropped at once: the
			// playout starts from st without it, a terminal st scored
			// there as the node would be.
			made, err := s.makeNode(ctx, r, st)
			if err != nil {
				w.fail(ctx, err)
				return
			}
			ch = w.attach(parent, st, made)
		}
		if ch != nil && w.solvedValue(ch) {
			leaf = ch
		} else {
			playFrom = st
		}
	}
	if leaf != nil {
		if s.puz != nil && leaf.terminal {
			w.recordLine(nil)
		}
	} else {
		ok, err := w.playout(ctx, r, playFrom)
		if err != nil {
			w.fail(ctx, err)
			return
		}
		if ok && s.puz != nil {
			w.recordLine(w.line)
		}
	}
	if w.mast != nil {
		w.mast.learn(w.seq, w.value)
	}
	if w.nst {
		w.mast.learnSequences(w.seq, w.value)
	}
	w.backup(leaf)
}

// treeMoves starts w.played with the moves selected down the tree, for
// the roles that had a choice.
func (w *worker) treeMoves() {
	nr := len(w.s.roles)
	for r := range w.played {
		w.played[r] = w.played[r][:0]
	}
	w.seq = w.seq[:0]
	for k, n := range w.path {
		for r := range nr {
			if len(n.moves[r]) > 1 {
				w.record(r, n.moves[r][w.idx[k*nr+r]], -1, false)
			}
		}
	}
	for r := range w.played {
		w.treeCount[r] = len(w.played[r])
	}
}

// A view is what the workers select by, published together so that a
// worker, which selects without the tree lock, reads them consistently:
// the root, the tree's generation and the move, if any, the root's
// selection takes for one role (Search.Focus). It is never modified once
// published.
type view struct {
	root *node
	gen  uint64
	// focusRole is the role whose move focusMove, its index in the
	// root's moves, every selection at the root takes; -1 for none.
	focusRole int
	focusMove int32
}

// publishView publishes the current root and generation. s.mu must be
// held.
func (s *Search) publishView() {
	s.view.Store(&view{root: s.root, gen: s.gen, focusRole: -1})
}

// descend selects joint moves from the root down. It stops at a solved
// node, returned as leaf with its value in w.value; at a node whose
// selected child is not in the tree yet, returned as parent; or on a cycle
// or at the depth limit, returning the state to play out from.
//
// It runs without the tree lock, reading the statistics and the children
// as they are, so that workers select in parallel; with GRAVE, whose AMAF
// statistics the lock guards, it holds the lock.
func (w *worker) descend() (leaf, parent *node, playFrom *reasoner.State) {
	s := w.s
	if s.grave {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	w.path, w.idx, w.joint = w.path[:0], w.idx[:0], w.joint[:0]
	w.view = s.view.Load()
	w.gen = w.view.gen
	var ref *node // GRAVE: the node lending AMAF values
	n := w.view.root
	for {
		if n.solved.Load() {
			copy(w.value, n.value)
			return n, nil, nil
		}
		if s.grave && s.lends(n) {
			ref = n
		}
		j := w.selectJoint(n, ref)
		w.path = append(w.path, n)
		w.joint = append(w.joint, j)
		ch := n.child(j)
		if ch == nil {
			// The first time the tree grows below n, this worker
			// claims the look for what expand does there.
			w.claimed = (w.prove || w.prior > 0) && n.mover >= 0 && n.checked.CompareAndSwap(false, true)
			return nil, n, nil
		}
		if len(w.path) >= maxSelectDepth || w.onPath(ch) {
			return nil, nil, ch.state
		}
		n = ch
	}
}

// attach finds the node of st, the state reached from parent by the last
// joint move of the path, in the table, or adds made when it is not there
// and memory allows, and links it to parent. Without made, it returns nil
// when the table does not hold st.
//
// The table and the link each check that the root has not changed since
// the iteration began (findOrAdd, link), so that none is added or linked
// after Advance's rebuild of the table.
func (w *worker) attach(parent *node, st *reasoner.State, made *node) *node {
	ch, ok := w.s.findOrAdd(w.gen, st, made)
	if !ok {
		return made
	}
	w.s.link(parent, w.joint[len(w.joint)-1], ch, w.gen)
	return ch
}

// link makes c the child of n by joint move j, unless n has one already or
// the root's generation is no longer gen (see attach), and returns n's
// child by j: c, the one it had, or nil when the generation changed.
func (s *Search) link(n *node, j int64, c *node, gen uint64) *node {
	sh := s.shardOf(n.state.Hash())
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if gen != s.view.Load().gen {
		return nil
	}
	if ch := n.child(j); ch != nil {
		return ch
	}
	n.addChild(j, c)
	return c
}

// solvedValue reports whether n is solved, leaving its value in w.value
// if so.
func (w *worker) solvedValue(n *node) bool {
	if !n.solved.Load() {
		return false
	}
	copy(w.value, n.value)
	return true
}

// onPath reports whether n is already on the path of this iteration.
func (w *worker) onPath(n *node) bool {
	for _, p := range w.path {
		if p == n {
			return true
		}
	}
	return false
}

// fail ends an iteration after a reasoner error. A cancelled context only
// drops the iteration; other errors are counted and logged.
func (w *worker) fail(ctx context.Context, err error) {
	w.abandon()
	if ctx.Err() == nil {
		w.s.errs.Add(1)
		w.s.logf("mcts: reasoner: %v", err)
	}
}

// playout plays joint moves from st to the end of the game, or to the
// depth limit, and leaves the normalised goals in w.value. Moves are
// uniformly random, or chosen by MAST's policy. In single-player games it leaves the moves played in w.line. ok reports
// whether the playout reached a terminal state.
func (w *worker) playout(ctx context.Context, r reasoner.Reasoner, st *reasoner.State) (ok bool, err error) {
	depth := w.s.cfg.MaxPlayoutDepth
	var h *heurCache
	if w.cut {
		if h = w.heuristic(); h != nil && h.h.cuts(w.s.cfg.HeuristicDepth) {
			depth = min(depth, w.s.cfg.HeuristicDepth)
		} else {
			h = nil
		}
	}
	if pp, fast := r.(reasoner.PolicyPlayouter); fast && w.s.fast {
		return w.policyPlayout(ctx, r, pp, st, depth, h)
	}
	nr := len(w.s.roles)
	w.line = w.line[:0]
	for range depth {
		// Let waiting goroutines, such as a server answering INFO, run
		// between the steps of long playouts, and stop at the deadline:
		// a reasoner may not heed ctx in its own calls (propnet's each
		// evaluate the network once), and a playout runs to
		// MaxPlayoutDepth steps. The check is an atomic load.
		runtime.Gosched()
		if err := ctx.Err(); err != nil {
			return false, err
		}
		term, err := r.Terminal(ctx, st)
		if err != nil {
			return false, err
		}
		if term {
			return true, w.goals(ctx, r, st)
		}
		for role := range nr {
			ms, err := r.Legal(ctx, st, role)
			if err != nil {
				return false, err
			}
			w.legal[role] = ms
			switch len(ms) {
			case 0:
				// A broken game: score the state as it stands.
				return false, w.goals(ctx, r, st)
			case 1:
				w.moves[role] = ms[0]
			}
		}
		for role := range nr {
			ms := w.legal[role]
			if len(ms) == 1 {
				continue
			}
			var ids []int32
			if w.mast != nil {
				w.ids = w.mast.numbers(role, ms, w.ids[:0])
				ids = w.ids
			}
			i, policy := w.pick(role, ids, len(ms))
			w.moves[role] = ms[i]
			id := int32(-1)
			if ids != nil {
				id = ids[i]
			}
			w.record(role, ms[i], id, policy)
		}
		if w.s.puz != nil {
			w.line = append(w.line, w.moves[0])
		}
		if st, err = r.Next(ctx, st, w.moves); err != nil {
			return false, err
		}
	}
	if h != nil {
		return w.cutScore(ctx, r, st, h)
	}
	return false, w.goals(ctx, r, st)
}

// policyPlayout is playout through the reasoner's own PolicyPlayout, with
// the worker as its policy: the same choices, without a state or a move
// list per step, and where the search plays wins (Search.playWins)
// through its WinPlayout. It serves searches without a puzzle line to
// record (Search.fast).
func (w *worker) policyPlayout(ctx context.Context, r reasoner.Reasoner, pp reasoner.PolicyPlayouter, st *reasoner.State, maxSteps int, h *heurCache) (ok bool, err error) {
	w.pp = pp
	var end *reasoner.State
	var steps int
	if w.s.winPlay {
		end, steps, err = pp.(reasoner.WinReader).WinPlayout(ctx, st, w, w.s.playWins, maxSteps)
	} else {
		end, steps, err = pp.PolicyPlayout(ctx, st, w, maxSteps)
	}
	if err != nil && ctx.Err() != nil {
		return false, err
	}
	if err == nil && steps == maxSteps && h != nil {
		return w.cutScore(ctx, r, end, h)
	}
	// A role without a legal move is a broken game: score the state as it
	// stands, as playout does.
	return err == nil && steps < maxSteps, w.goals(ctx, r, end)
}

// Choose chooses the move of role in a policy playout, as playout does:
// legal holds the numbers of the legal moves, which are also their
// numbers in the MAST table (Search.fast).
func (w *worker) Choose(role int, legal []int32) int {
	if role < len(w.s.wins) {
		if win := w.s.wins[role]; win != nil {
			for i, m := range legal {
				if win[m>>6]&(1<<(m&63)) != 0 {
					w.record(role, w.pp.Moves(role)[m], m, true)
					return i
				}
			}
		}
	}
	i, policy := w.pick(role, legal, len(legal))
	w.record(role, w.pp.Moves(role)[legal[i]], legal[i], policy)
	return i
}

var _ reasoner.WinPolicy = (*worker)(nil)

// ChooseWin chooses one of role's moves wins, each of which wins at once
// in the playout's state, uniformly, and records it as the policy's
// choice, as Choose does a decisive move.
func (w *worker) ChooseWin(role int, wins []int32) int {
	i := 0
	if len(wins) > 1 {
		i = w.rng.IntN(len(wins))
	}
	w.record(role, w.pp.Moves(role)[wins[i]], wins[i], true)
	return i
}

// Retract takes back role's last choice in a policy playout, which let
// another role win at once (reasoner.WinPolicy): the record of the
// choice, the last made, is dropped.
func (w *worker) Retract(role int) {
	if w.played != nil {
		w.played[role] = w.played[role][:len(w.played[role])-1]
	}
	if w.mast != nil {
		w.seq = w.seq[:len(w.seq)-1]
	}
}

// pick chooses one of the k legal moves of role, whose MAST numbers are
// ids (nil without MAST): MAST's greedy choice or a uniform draw, and
// always a uniform draw once the search has met a state where several
// roles choose (Search.simultaneous). policy reports a greedy choice,
// which MAST does not learn from.
func (w *worker) pick(role int, ids []int32, k int) (i int, policy bool) {
	switch {
	case w.s.simultaneous.Load():
	case w.mast != nil && w.rng.Float64() >= w.s.cfg.MASTEpsilon:
		prev1, prev2 := noMove, noMove
		if n := len(w.seq); w.nst && n >= 2 {
			prev1, prev2 = w.seq[n-1].key(), w.seq[n-2].key()
		} else if w.nst && n == 1 {
			prev1 = w.seq[0].key()
		}
		return w.mast.greedy(role, ids, prev1, prev2, w.rng), true
	}
	return w.rng.IntN(k), false
}

// record notes move m, which role chose in the tree or a playout, for
// MAST, NST and GRAVE; id is its number in the MAST table, or -1 when not
// known yet.
func (w *worker) record(role int, m reasoner.Move, id int32, policy bool) {
	if w.played != nil {
		w.played[role] = append(w.played[role], m)
	}
	if w.mast != nil {
		if id < 0 {
			id = w.mast.numberOf(role, m)
		}
		w.seq = append(w.seq, seqMove{int32(role), id, policy})
	}
}

// goals leaves the goals of st in w.value; an error other than a cancelled
// context only counts: the goals it could not read score 0.
func (w *worker) goals(ctx context.Context, r reasoner.Reasoner, st *reasoner.State) error {
	err := goalsOf(ctx, r, st, w.value)
	if err != nil && ctx.Err() != nil {
		return err
	}
	if err != nil {
		w.s.errs.Add(1)
	}
	return nil
}

// recordLine keeps, in a single-player game, the line of this iteration if
// it scores better than the best known: the moves selected down the path
// followed by tail.
func (w *worker) recordLine(tail []reasoner.Move) {
	s := w.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if w.gen != s.gen || w.value[0] <= s.bscore {
		return
	}
	line := make([]reasoner.Move, 0, len(w.path)+len(tail))
	for k, n := range w.path {
		line = append(line, n.moves[0][w.idx[k]])
	}
	s.best = append(line, tail...)
	s.bscore = w.value[0]
}

// backup adds the values in w.value to the statistics along the path, and
// tries to prove the nodes of the path when leaf, the node that ended the
// descent, is solved. It adds atomically without the tree lock, and takes
// the lock to prove, and with GRAVE.
func (w *worker) backup(leaf *node) {
	s := w.s
	proving := leaf != nil && leaf.solved.Load()
	if proving || s.grave {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	if w.gen != s.view.Load().gen {
		return
	}
	nr := len(s.roles)
	if s.grave && w.played != nil {
		w.learnAMAF()
	}
	if w.minimax > 0 {
		w.backupMinimax()
	}
	for k := len(w.path) - 1; k >= 0; k-- {
		n := w.path[k]
		for r := range nr {
			v := w.value[r]
			if r == n.mover && s.chains {
				v = w.chainValue(k, v)
			}
			n.w[int(n.off[r])+int(w.idx[k*nr+r])].Add(v)
		}
		if proving && !n.solved.Load() {
			proving = s.solve(n)
		}
		// What n is worth to its parent is at least its best proven
		// move, which selection no longer visits.
		if f := provenFloor(n); f != nil && f.value[n.mover] > w.value[n.mover] {
			copy(w.value, f.value)
		}
	}
	w.path = w.path[:0]
}

// solve proves the value of n from its children when it can, and reports
// whether n is solved. A node where one role moves is solved by a child
// that gives that role the highest value and every other role the lowest
// (wonOutright; the soonest such child known), or when all its children
// are solved, by the best of them for that role (preferred), and among
// equals the soonest win or the latest loss (sooner). A node where
// several roles move is solved only when all its children are solved with
// equal values. s.mu must be held.
func (s *Search) solve(n *node) bool {
	if n.solved.Load() {
		return true
	}
	switch n.mover {
	case several:
		total := int64(1)
		for _, ms := range n.moves {
			total *= int64(len(ms))
		}
		kids := n.children()
		if int64(len(kids)) < total {
			return false
		}
		first := kids[0].child
		depth := int32(0)
		for _, e := range kids {
			c := e.child
			if !c.solved.Load() {
				return false
			}
			for r := range c.value {
				if c.value[r] != first.value[r] {
					return false
				}
			}
			depth = max(depth, c.depth)
		}
		n.prove(first.value, depth+1)
		return true
	default:
		m, k := n.mover, 1
		if m == noMover {
			m = 0
		} else {
			k = len(n.moves[m])
		}
		var best, won *node
		all := true
		for i := range k {
			c := n.child(int64(i))
			if c == nil || !c.solved.Load() {
				all = false
				continue
			}
			if wonOutright(c.value, m) && (won == nil || c.depth < won.depth) {
				won = c
			}
			if best == nil || preferred(c.value, best.value, m) || !preferred(best.value, c.value, m) && sooner(c, best, m) {
				best = c
			}
		}
		if won != nil {
			n.prove(won.value, won.depth+1)
			return true
		}
		if all {
			n.prove(best.value, best.depth+1)
		}
		return all
	}
}

// sooner reports whether role m, choosing between two solved states of
// equal value to every role, takes a over b for the steps left: a win or
// any value above nothing the sooner, for a game may end otherwise first
// (a search of one factor does not see the others: in the simultaneous
// connect four the other board's line ends the game); a loss the later.
func sooner(a, b *node, m int) bool {
	if a.value[m] > 0 {
		return a.depth < b.depth
	}
	return a.depth > b.depth
}

// wonOutright reports whether v, goal values in [0,1], gives role m the
// highest value and every other role the lowest, so that no other move of
// m can be better for it or worse for the others.
func wonOutright(v []float64, m int) bool {
	if v[m] < 1 {
		return false
	}
	for r, x := range v {
		if r != m && x > 0 {
			return false
		}
	}
	return true
}

// preferred reports whether role m, choosing, takes the value a over b:
// a is better for m, or as good for it and worse for the other roles
// together. A proof must not count on a role's favour where the role is
// indifferent: in a game whose goals do not sum to a constant, its moves
// may be worth the same to it and not to the others (in chineseCheckers2
// a role can leave its piece on the other's last home cell, or move it,
// for the same score), and a proof that took the first of them found
// wins that were not.
func preferred(a, b []float64, m int) bool {
	if a[m] != b[m] {
		return a[m] > b[m]
	}
	var sa, sb float64
	for r := range a {
		if r != m {
			sa += a[r]
			sb += b[r]
		}
	}
	return sa < sb
}

// prove marks n solved with value v, publishing v with it. s.mu must be
// held, and n not solved yet.
func (n *node) prove(v []float64, depth int32) {
	n.value, n.depth = v, depth
	n.solved.Store(true)
}
