// Package puzzle is the graph search of single-player games, which package
// mcts runs beside its tree search on the same workers when a game has one
// role.
//
// Random playouts rarely reach the goal of a puzzle whose solution is long
// and exact, and a step counter in the state makes every state distinct, so
// that a transposition table alone does not help either. The puzzle search
// therefore first looks for such counters: relations whose facts change in
// the same way whatever move is played. It then explores the graph of
// states with those relations left out of the key, breadth first, so that
// each abstract state is reached first by a shortest line. The graph keeps
// its edges, so that after a move it re-roots without asking the reasoner
// again.
//
// When the rules name the whole state that scores the most (see GoalFacts)
// and the moves sampled can all be undone, the search also runs breadth
// first from that state, assuming every move can be undone, and stops when
// the two searches meet on a line that is provably shortest: for the eight
// puzzle this explores some ten thousand states instead of all 181440.
//
// Every line found is replayed on the real states before it is kept, so a
// wrong assumption costs time, never a wrong score.
package puzzle

import (
	"context"
	"hash/maphash"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/ggp-go/ggp/reasoner"
)

// Phases of the puzzle search.
const (
	puzzleDetect = iota // counters not yet looked for
	puzzleRun           // exploring
	puzzleDone          // explored, out of memory or closed
)

// Directions of the search: from the root, and back from the goal state.
const (
	fwd = 0
	bwd = 1
)

// A Search is the graph search of a single-player game. It runs beside the
// tree search of package mcts, on the same workers, and shares with it
// only what Host offers: the memory bounds, the best line and the
// workers' time. It has its own lock and may call its host while holding
// it, so the host must not call it while holding its own, but for Size.
type Search struct {
	host Host
	// The graph is freed once it reaches half of the search's bounds.
	maxNodes int
	maxBytes int64

	// countedNodes and countedBytes mirror len(nodes) and bytes for size,
	// which the host calls under its own lock.
	countedNodes, countedBytes atomic.Int64

	mu        sync.Mutex      // guards everything below
	rootState *reasoner.State // current state of the game
	gen       uint64          // the host's generation of rootState
	phase     int
	detecting bool
	ignore    map[string]bool // relations left out of keys
	goalFacts []reasoner.Fact // facts of the best goal, from the rules
	seed      maphash.Seed
	table     map[uint64]*pnode
	nodes     []*pnode
	bytes     int64
	root      *pnode
	goal      *pnode // target of the backward search, or nil

	dir      int      // direction of the level being expanded
	level    []*pnode // nodes to expand in direction dir
	pos      int      // next index in level
	inflight int      // expansions under way
	next     [2][]*pnode
	levelAt  [2]int32 // distance of the nodes of the last level taken
	radius   [2]int32 // every node up to this distance is known
	bidi     bool     // the backward search is on
	meet     *pnode   // node on the shortest line known through both
	meetLen  int32
}

// A Host is what a Search needs of the search it runs beside. Its methods
// are called concurrently, with the Search's own lock held.
type Host interface {
	// MemoryFull reports whether the search's memory bounds are reached,
	// the puzzle graph counted.
	MemoryFull() bool
	// SizeChanged tells the host that the graph grew or was freed.
	SizeChanged()
	// BestScore returns the goal of the best line known, or -1.
	BestScore() float64
	// OfferLine proposes line, which scores score (a goal / 100) from the
	// root of generation gen, as the best line.
	OfferLine(gen uint64, line []reasoner.Move, score float64)
	// SetExclusive asks for all the workers' time (while the search runs
	// toward a known goal state) or gives it back.
	SetExclusive(on bool)
	// Expanded counts a node expanded; Failed reports an error of the
	// reasoner during an expansion.
	Expanded()
	Failed(err error)
}

// New returns the graph search of the game from root, the state of
// the host's generation gen; goalFacts are the facts of the best goal read
// in the rules, if any. The graph is freed once it reaches half of
// maxNodes or maxBytes.
func New(host Host, goalFacts []reasoner.Fact, root *reasoner.State, gen uint64, maxNodes int, maxBytes int64) *Search {
	return &Search{
		host: host, maxNodes: maxNodes, maxBytes: maxBytes,
		rootState: root, gen: gen,
		seed: maphash.MakeSeed(), table: map[uint64]*pnode{}, goalFacts: goalFacts, meetLen: -1,
	}
}

// Size returns the nodes and bytes of the graph. It does not take the
// Search's lock, so the host may call it holding its own.
func (p *Search) Size() (nodes int, bytes int64) {
	return int(p.countedNodes.Load()), p.countedBytes.Load()
}

// A puzzleTask is the work puzzleTake hands out.
type puzzleTask struct {
	kind  int
	node  *pnode
	root  *reasoner.State
	gen   uint64
	cands []candidate
}

// Kinds of puzzleTask.
const (
	taskNone   = iota
	taskProbe  // probe the game and start the search
	taskExpand // expand node
	taskLines  // replay cands
)

// Step does one piece of the puzzle search with r, drawing from rng, and
// reports whether there was any to do. Several workers may call it at
// once, each with its own reasoner.
func (p *Search) Step(ctx context.Context, r reasoner.Reasoner, rng *rand.Rand) bool {
	t := p.take()
	switch t.kind {
	case taskNone:
		return false
	case taskProbe:
		pr := probeGame(ctx, r, t.root, rng)
		var goal *pnode
		if pr.reversible {
			if st := goalState(p.goalFacts, t.root, pr.ignore); st != nil {
				if term, err := r.Terminal(ctx, st); err == nil && term {
					goal = newPnode(st)
					goal.checked, goal.terminal = true, true
				}
			}
		}
		if ctx.Err() != nil {
			p.mu.Lock()
			p.detecting = false
			p.mu.Unlock()
			return true
		}
		t = p.start(pr.ignore, goal)
	case taskExpand:
		t = p.expand(ctx, r, t.node)
	}
	for _, c := range t.cands {
		p.tryLine(ctx, r, t.gen, t.root, c)
	}
	return true
}

// expand asks the reasoner what a node leads to and records it.
func (p *Search) expand(ctx context.Context, r reasoner.Reasoner, x *pnode) puzzleTask {
	term, goal := x.terminal, 0.0
	var err error
	if !x.checked {
		if term, err = r.Terminal(ctx, x.state); err == nil && term {
			if goal, err = score(ctx, r, x.state); ctx.Err() == nil {
				err = nil
			}
		}
	}
	var moves []reasoner.Move
	var kids []*pnode
	if err == nil && (!term || x == p.goal) {
		moves, err = r.Legal(ctx, x.state, 0)
		joint := make([]reasoner.Move, 1)
		for _, m := range moves {
			if err != nil {
				break
			}
			joint[0] = m
			var c *reasoner.State
			if c, err = r.Next(ctx, x.state, joint); err == nil {
				kids = append(kids, newPnode(c))
			}
		}
	}
	if err != nil && ctx.Err() == nil {
		p.host.Failed(err)
	}
	return p.attach(x, term, goal, moves, kids, err != nil && ctx.Err() != nil)
}

// take returns the next piece of work, if any.
func (p *Search) take() puzzleTask {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch p.phase {
	case puzzleDetect:
		if p.detecting {
			return puzzleTask{}
		}
		p.detecting = true
		return puzzleTask{kind: taskProbe, root: p.rootState}
	case puzzleDone:
		return puzzleTask{}
	}
	if p.host.MemoryFull() || p.host.BestScore() >= 1 {
		p.host.SetExclusive(false)
		return puzzleTask{}
	}
	for {
		for p.pos < len(p.level) {
			x := p.level[p.pos]
			p.pos++
			d := p.dir
			x.queued[d] = false
			switch {
			case x.dist[d] < 0:
				continue // no longer reachable after a re-root
			case x.expanded:
				p.propagate(x, d)
				continue
			case x.expanding:
				x.taken[d] = true
				continue
			case x.checked && x.terminal && x != p.goal:
				continue
			}
			x.expanding, x.taken[d] = true, true
			p.inflight++
			return puzzleTask{kind: taskExpand, node: x}
		}
		if p.inflight > 0 {
			return puzzleTask{} // wait for the level to be done
		}
		if p.pos > 0 {
			p.radius[p.dir] = p.levelAt[p.dir] + 1
			p.pos, p.level = 0, nil
		}
		if t := p.meetLines(); t.kind != taskNone {
			return t
		}
		d := fwd
		if p.bidi && len(p.next[bwd]) > 0 && (len(p.next[fwd]) == 0 || len(p.next[bwd]) < len(p.next[fwd])) {
			d = bwd
		}
		if len(p.next[d]) == 0 {
			p.phase = puzzleDone
			p.host.SetExclusive(false)
			return puzzleTask{}
		}
		p.dir, p.level, p.next[d], p.pos = d, p.next[d], nil, 0
		p.levelAt[d] = p.level[0].dist[d]
	}
}

// meetLines returns the line through the best meeting node once no
// shorter line can exist, and turns the backward search off.
// p.mu must be held.
func (p *Search) meetLines() puzzleTask {
	if !p.bidi || p.meet == nil || p.meetLen > p.radius[fwd]+p.radius[bwd]+1 {
		return puzzleTask{}
	}
	p.bidi = false
	p.host.SetExclusive(false)
	c := candidate{line: p.lineTo(p.meet)}
	for y := p.meet; y != p.goal; {
		y = y.par[bwd]
		if y == nil {
			return puzzleTask{}
		}
		c.through = append(c.through, y)
	}
	return puzzleTask{kind: taskLines, root: p.rootState, gen: p.gen, cands: []candidate{c}}
}

// start installs what the probe found and roots the graph at the current
// state.
func (p *Search) start(ignore map[string]bool, goal *pnode) puzzleTask {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := puzzleTask{root: p.rootState, gen: p.gen}
	if p.phase != puzzleDetect {
		return t
	}
	p.ignore = ignore
	p.phase = puzzleRun
	if goal != nil {
		goal.hash = p.key(goal.state)
		p.add(goal)
		p.goal = goal
		goal.dist[bwd] = 0
		p.bidi = true
		p.host.SetExclusive(true)
		p.next[bwd] = []*pnode{goal}
		goal.queued[bwd] = true
	}
	t.cands = p.rerootLocked()
	return t
}

// attach records the expansion of x: whether it is terminal, its moves
// and the nodes they reach. When retry is set the expansion was cut short
// and x goes back to the queue. It returns the lines to replay.
func (p *Search) attach(x *pnode, term bool, goal float64, moves []reasoner.Move, kids []*pnode, retry bool) puzzleTask {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := puzzleTask{root: p.rootState, gen: p.gen}
	p.inflight--
	x.expanding = false
	if p.table == nil {
		return t // closed
	}
	if retry {
		for d := range 2 {
			if x.taken[d] && !x.queued[d] {
				x.queued[d] = true
				p.next[d] = append(p.next[d], x)
			}
		}
		return t
	}
	if !x.checked {
		x.checked, x.terminal, x.goal = true, term, goal
		if term && x.dist[fwd] >= 0 && goal > p.host.BestScore() {
			t.cands = append(t.cands, candidate{line: p.lineTo(x)})
		}
	}
	x.expanded = true
	p.host.Expanded()
	for i, k := range kids {
		k.hash = p.key(k.state)
		c := p.find(k.state, k.hash)
		if c == nil {
			if p.host.MemoryFull() {
				continue
			}
			c = k
			p.add(c)
			p.host.SizeChanged()
		}
		x.edges = append(x.edges, pedge{moves[i], c})
	}
	for d := range 2 {
		if x.taken[d] {
			t.cands = append(t.cands, p.propagate(x, d)...)
		}
	}
	if len(p.nodes) >= p.maxNodes/2 || p.bytes >= p.maxBytes/2 {
		p.release()
	}
	return t
}

// Close ends the puzzle search and frees its graph.
func (p *Search) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.release()
}

// Goal returns the state the backward search starts from, once the search
// has found one in the rules, or nil.
func (p *Search) Goal() *reasoner.State {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.goal == nil {
		return nil
	}
	return p.goal.state
}

// release ends the puzzle search and frees its graph, when it has used its
// half of the memory: the tree search keeps the other half. The best line
// found stays. p.mu must be held.
func (p *Search) release() {
	p.phase, p.table, p.nodes, p.bytes = puzzleDone, nil, nil, 0
	p.countedNodes.Store(0)
	p.countedBytes.Store(0)
	p.root, p.goal, p.meet, p.level, p.next = nil, nil, nil, nil, [2][]*pnode{}
	p.bidi = false
	p.host.SetExclusive(false)
	p.host.SizeChanged()
}
