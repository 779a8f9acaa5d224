package puzzle

import (
	"cmp"
	"context"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/ggp-go/ggp/reasoner"
)

// The graph of the puzzle search: its nodes keyed by state with the
// counters left out, the distances along its edges, and re-rooting.

// A pnode is an abstract state of the puzzle graph.
type pnode struct {
	state *reasoner.State // the first state seen with this key
	hash  uint64
	next  *pnode // next node in the same table bucket
	edges []pedge

	checked   bool // terminal and goal are known
	terminal  bool
	goal      float64 // goal of state when terminal
	expanded  bool
	expanding bool
	taken     [2]bool // expansion asked for by each direction
	queued    [2]bool

	// Shortest known line from the root (fwd) and, in the backward
	// search, to the goal state (bwd): distance and neighbour on it.
	dist  [2]int32
	par   [2]*pnode
	pmove reasoner.Move // move from par[fwd] to the node
}

type pedge struct {
	move  reasoner.Move
	child *pnode
}

// relation returns the relation name of a fact: "cell" for (cell 1 1 b).
func relation(f reasoner.Fact) string {
	s := string(f)
	if len(s) == 0 || s[0] != '(' {
		return s
	}
	if i := strings.IndexAny(s[1:], " )"); i >= 0 {
		return s[1 : 1+i]
	}
	return s[1:]
}

// key hashes the facts of st that are not left out.
func (p *Search) key(st *reasoner.State) uint64 {
	var h maphash.Hash
	h.SetSeed(p.seed)
	for _, f := range st.Facts() {
		if p.ignore[relation(f)] {
			continue
		}
		h.WriteString(string(f))
		h.WriteByte(0)
	}
	return h.Sum64()
}

// same reports whether a and b hold the same facts once the left out
// relations are removed.
func (p *Search) same(a, b *reasoner.State) bool {
	fa, fb := a.Facts(), b.Facts()
	i, j := 0, 0
	for {
		for i < len(fa) && p.ignore[relation(fa[i])] {
			i++
		}
		for j < len(fb) && p.ignore[relation(fb[j])] {
			j++
		}
		if i == len(fa) || j == len(fb) {
			return i == len(fa) && j == len(fb)
		}
		if fa[i] != fb[j] {
			return false
		}
		i++
		j++
	}
}

func (p *Search) find(st *reasoner.State, h uint64) *pnode {
	for x := p.table[h]; x != nil; x = x.next {
		if p.same(x.state, st) {
			return x
		}
	}
	return nil
}

func newPnode(st *reasoner.State) *pnode {
	return &pnode{state: st, dist: [2]int32{-1, -1}}
}

func (p *Search) add(x *pnode) {
	x.next = p.table[x.hash]
	p.table[x.hash] = x
	p.nodes = append(p.nodes, x)
	size := int64(200)
	for _, f := range x.state.Facts() {
		size += int64(len(f)) + 16
	}
	p.bytes += size
	p.countedNodes.Store(int64(len(p.nodes)))
	p.countedBytes.Store(p.bytes)
}

// propagate gives the children of the expanded node x their distance in
// direction d and queues them, and returns the lines to terminal states
// newly reached from the root. p.mu must be held.
func (p *Search) propagate(x *pnode, d int) []candidate {
	x.taken[d] = false
	if x.dist[d] < 0 || (x.terminal && x != p.goal) {
		return nil
	}
	var cands []candidate
	for _, e := range x.edges {
		c := e.child
		if c.dist[d] >= 0 && c.dist[d] <= x.dist[d]+1 {
			continue
		}
		c.dist[d], c.par[d] = x.dist[d]+1, x
		if d == fwd {
			c.pmove = e.move
		}
		if o := 1 - d; c.dist[o] >= 0 && (p.meetLen < 0 || c.dist[fwd]+c.dist[bwd] < p.meetLen) {
			p.meet, p.meetLen = c, c.dist[fwd]+c.dist[bwd]
		}
		switch {
		case c.checked && c.terminal:
			if d == fwd && c.goal > p.host.BestScore() {
				cands = append(cands, candidate{line: p.lineTo(c)})
			}
		case !c.queued[d]:
			c.queued[d] = true
			p.next[d] = append(p.next[d], c)
		}
	}
	return cands
}

// lineTo returns the moves of the shortest known line from the root to x.
func (p *Search) lineTo(x *pnode) []reasoner.Move {
	line := make([]reasoner.Move, x.dist[fwd])
	for y := x; y.par[fwd] != nil && y.dist[fwd] > 0; y = y.par[fwd] {
		line[y.dist[fwd]-1] = y.pmove
	}
	return line
}

// maxRerootCandidates bounds the lines replayed after re-rooting.
const maxRerootCandidates = 8

// Reroot makes st, the state of the host's generation gen, the root of
// the search: it recomputes the distances from it over the known edges,
// queues the unexpanded nodes reachable from it in order of distance, and
// replays with r the lines to the best terminal states already known,
// offering the host those that score better than its best.
func (p *Search) Reroot(ctx context.Context, r reasoner.Reasoner, st *reasoner.State, gen uint64) {
	p.mu.Lock()
	p.rootState, p.gen = st, gen
	cands := p.rerootLocked()
	p.mu.Unlock()
	for _, c := range cands {
		p.tryLine(ctx, r, gen, st, c)
	}
}

// rerootLocked makes the node of p.rootState the root of the graph, as
// Reroot does. p.mu must be held.
func (p *Search) rerootLocked() []candidate {
	if p.phase == puzzleDetect || p.table == nil {
		return nil
	}
	st := p.rootState
	h := p.key(st)
	root := p.find(st, h)
	if root == nil {
		if p.host.MemoryFull() {
			p.phase = puzzleDone
			return nil
		}
		root = newPnode(st)
		root.hash = h
		p.add(root)
	}
	p.root = root
	for _, x := range p.nodes {
		x.dist[fwd], x.par[fwd], x.pmove, x.queued[fwd] = -1, nil, "", false
	}
	root.dist[fwd] = 0
	queue := []*pnode{root}
	var frontier, terminals []*pnode
	p.meet, p.meetLen = nil, -1
	for i := 0; i < len(queue); i++ {
		x := queue[i]
		if x.dist[bwd] >= 0 && (p.meetLen < 0 || x.dist[fwd]+x.dist[bwd] < p.meetLen) {
			p.meet, p.meetLen = x, x.dist[fwd]+x.dist[bwd]
		}
		switch {
		case x.checked && x.terminal:
			terminals = append(terminals, x)
			continue
		case x.expanding:
			x.taken[fwd] = true // its children get their distance when it is done
			continue
		case !x.expanded:
			x.queued[fwd] = true
			frontier = append(frontier, x)
			continue
		}
		for _, e := range x.edges {
			if c := e.child; c.dist[fwd] < 0 {
				c.dist[fwd], c.par[fwd], c.pmove = x.dist[fwd]+1, x, e.move
				queue = append(queue, c)
			}
		}
	}
	// Every node is known up to the distance of the nearest unexpanded one.
	p.radius[fwd] = 1 << 30
	if len(frontier) > 0 {
		p.radius[fwd] = frontier[0].dist[fwd]
	}
	p.next[fwd] = frontier
	if p.dir == fwd {
		p.level, p.pos = nil, 0
	}
	if len(frontier) > 0 || p.inflight > 0 || (p.bidi && len(p.next[bwd])+len(p.level) > 0) {
		p.phase = puzzleRun
	} else {
		p.phase = puzzleDone
	}
	slices.SortStableFunc(terminals, func(a, b *pnode) int {
		if c := cmp.Compare(b.goal, a.goal); c != 0 {
			return c
		}
		return cmp.Compare(a.dist[fwd], b.dist[fwd])
	})
	var cands []candidate
	for _, x := range terminals[:min(len(terminals), maxRerootCandidates)] {
		cands = append(cands, candidate{line: p.lineTo(x)})
	}
	return cands
}
