package mcts

import (
	"cmp"
	"context"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/ggp-go/ggp/reasoner"
)

// The breadth-first search of single-player games.
//
// Random playouts rarely reach the goal of a puzzle whose solution is long
// and exact, and a step counter in the state makes every state distinct, so
// that a transposition table alone does not help either. The puzzle search
// therefore first looks for such counters: relations whose facts change in
// the same way whatever move is played. It then explores the graph of
// states with those relations left out of the key, breadth first, so that
// each abstract state is reached first by a shortest line. The graph keeps
// its edges, so that after a move it re-roots without asking the reasoner
// again. Every line to a terminal state that it finds is replayed on the
// real states before it is kept, so a wrong abstraction costs time, never
// a wrong score.

// Phases of the puzzle search.
const (
	puzzleDetect = iota // counters not yet looked for
	puzzleRun           // exploring
	puzzleDone          // explored, out of memory or closed
)

type puzzle struct {
	phase     int
	detecting bool
	ignore    map[string]bool // relations left out of keys
	seed      maphash.Seed
	table     map[uint64]*pnode
	nodes     []*pnode
	bytes     int64
	root      *pnode
	level     []*pnode // nodes to expand, in order of distance from the root
	next      []*pnode // the nodes found by expanding level
	pos       int      // next index in level
	inflight  int      // expansions under way
}

// A pnode is an abstract state of the puzzle graph.
type pnode struct {
	state *reasoner.State // the first state seen with this key
	hash  uint64
	next  *pnode // next node in the same table bucket
	edges []pedge

	expanded, expanding, terminal, queued bool
	goal                                  float64 // goal of state when terminal

	// Shortest line from the root: distance, previous node and move.
	dist   int32
	parent *pnode
	pmove  reasoner.Move
}

type pedge struct {
	move  reasoner.Move
	child *pnode
}

// A candidate is a line from the root to a terminal state of the graph,
// to be replayed on the real states.
type candidate struct {
	line []reasoner.Move
}

func newPuzzle() *puzzle {
	return &puzzle{seed: maphash.MakeSeed(), table: map[uint64]*pnode{}}
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
func (p *puzzle) key(st *reasoner.State) uint64 {
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
func (p *puzzle) same(a, b *reasoner.State) bool {
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

func (p *puzzle) find(st *reasoner.State, h uint64) *pnode {
	for x := p.table[h]; x != nil; x = x.next {
		if p.same(x.state, st) {
			return x
		}
	}
	return nil
}

func (p *puzzle) add(x *pnode) {
	x.next = p.table[x.hash]
	p.table[x.hash] = x
	p.nodes = append(p.nodes, x)
	size := int64(160)
	for _, f := range x.state.Facts() {
		size += int64(len(f)) + 16
	}
	p.bytes += size
}

// detectCounters walks a random line from st and returns the relations
// whose facts, at every state checked, are the same in all successors and
// differ from those of the state itself: step counters and the like. It
// returns nil when it cannot check at least two states with a choice.
func detectCounters(ctx context.Context, r reasoner.Reasoner, st *reasoner.State, w *worker) map[string]bool {
	var cand map[string]bool
	checks := 0
	joint := make([]reasoner.Move, 1)
	for step := 0; step < 40 && checks < 6; step++ {
		term, err := r.Terminal(ctx, st)
		if err != nil || term {
			break
		}
		legal, err := r.Legal(ctx, st, 0)
		if err != nil || len(legal) == 0 {
			break
		}
		if len(legal) >= 2 {
			picks := []int{0, len(legal) - 1, w.rng.IntN(len(legal)), w.rng.IntN(len(legal))}
			var kids []map[string]string
			for _, i := range picks {
				joint[0] = legal[i]
				c, err := r.Next(ctx, st, joint)
				if err != nil {
					return nil
				}
				kids = append(kids, relationSets(c))
			}
			own := relationSets(st)
			uniform := map[string]bool{}
			for rel, facts := range kids[0] {
				if facts == own[rel] {
					continue
				}
				ok := true
				for _, k := range kids[1:] {
					if k[rel] != facts {
						ok = false
						break
					}
				}
				uniform[rel] = ok
			}
			if cand == nil {
				cand = map[string]bool{}
				for rel, ok := range uniform {
					if ok {
						cand[rel] = true
					}
				}
			} else {
				for rel := range cand {
					if !uniform[rel] {
						delete(cand, rel)
					}
				}
			}
			checks++
		}
		joint[0] = legal[w.rng.IntN(len(legal))]
		if st, err = r.Next(ctx, st, joint); err != nil {
			break
		}
	}
	if checks < 2 || len(cand) == 0 {
		return nil
	}
	return cand
}

// relationSets maps each relation of st to its facts, joined.
func relationSets(st *reasoner.State) map[string]string {
	m := map[string]string{}
	for _, f := range st.Facts() {
		rel := relation(f)
		m[rel] += string(f) + " "
	}
	return m
}

// A puzzleTask is the work puzzleTake hands out.
type puzzleTask struct {
	detect bool
	node   *pnode
	root   *reasoner.State
}

// puzzleStep does one piece of the breadth-first search and reports
// whether there was any to do.
func (s *Search) puzzleStep(ctx context.Context, r reasoner.Reasoner, w *worker) bool {
	t, ok := s.puzzleTake()
	if !ok {
		return false
	}
	if t.detect {
		ignore := detectCounters(ctx, r, t.root, w)
		if ctx.Err() != nil {
			s.mu.Lock()
			s.puz.detecting = false
			s.mu.Unlock()
			return true
		}
		gen, root, cands := s.puzzleStart(ignore)
		for _, c := range cands {
			s.tryLine(ctx, r, gen, root, c.line)
		}
		return true
	}
	x := t.node
	var (
		moves []reasoner.Move
		kids  []*pnode
		err   error
	)
	moves, err = r.Legal(ctx, x.state, 0)
	joint := make([]reasoner.Move, 1)
	for _, m := range moves {
		if err != nil {
			break
		}
		joint[0] = m
		var c *reasoner.State
		if c, err = r.Next(ctx, x.state, joint); err != nil {
			break
		}
		k := &pnode{state: c, dist: -1}
		if k.terminal, err = r.Terminal(ctx, c); err != nil {
			break
		}
		if k.terminal {
			if err = goalsOf(ctx, r, c, w.value); err != nil && ctx.Err() != nil {
				break
			}
			err = nil
			k.goal = w.value[0]
		}
		kids = append(kids, k)
	}
	if err != nil && ctx.Err() == nil {
		s.errs.Add(1)
		s.logf("mcts: puzzle expansion: %v", err)
	}
	gen, root, cands := s.puzzleAttach(x, moves, kids, err != nil && ctx.Err() != nil)
	for _, c := range cands {
		s.tryLine(ctx, r, gen, root, c.line)
	}
	return true
}

// puzzleTake returns the next piece of work, if any.
func (s *Search) puzzleTake() (puzzleTask, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.puz
	switch p.phase {
	case puzzleDetect:
		if p.detecting {
			return puzzleTask{}, false
		}
		p.detecting = true
		return puzzleTask{detect: true, root: s.root.state}, true
	case puzzleDone:
		return puzzleTask{}, false
	}
	if s.full || s.bscore >= 1 {
		return puzzleTask{}, false
	}
	for {
		for p.pos < len(p.level) {
			x := p.level[p.pos]
			p.pos++
			x.queued = false
			if x.expanded || x.expanding || x.terminal || x.dist < 0 {
				continue
			}
			x.expanding = true
			p.inflight++
			return puzzleTask{node: x}, true
		}
		if p.inflight > 0 {
			return puzzleTask{}, false // wait for the level to be done
		}
		if len(p.next) == 0 {
			p.phase = puzzleDone
			return puzzleTask{}, false
		}
		p.level, p.next, p.pos = p.next, p.level[:0], 0
	}
}

// puzzleStart installs the counters found and roots the graph at the
// current state.
func (s *Search) puzzleStart(ignore map[string]bool) (uint64, *reasoner.State, []candidate) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.puz
	if p.phase != puzzleDetect {
		return s.gen, s.root.state, nil
	}
	p.ignore = ignore
	p.phase = puzzleRun
	return s.gen, s.root.state, p.reroot(s, s.root.state)
}

// puzzleAttach records the expansion of x: its moves and the nodes they
// reach. When retry is set the expansion was cut short and x goes back to
// the queue. It returns the lines to newly reached terminal states.
func (s *Search) puzzleAttach(x *pnode, moves []reasoner.Move, kids []*pnode, retry bool) (uint64, *reasoner.State, []candidate) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.puz
	p.inflight--
	x.expanding = false
	if p.phase == puzzleDone && p.table == nil {
		return s.gen, s.root.state, nil
	}
	if retry {
		if !x.queued {
			x.queued = true
			p.level = append(p.level, x)
		}
		return s.gen, s.root.state, nil
	}
	x.expanded = true
	s.expansions.Add(1)
	var cands []candidate
	for i, k := range kids {
		k.hash = p.key(k.state)
		c := p.find(k.state, k.hash)
		if c == nil {
			if s.full {
				continue
			}
			c = k
			p.add(c)
			s.checkFull()
		}
		x.edges = append(x.edges, pedge{moves[i], c})
		if x.dist < 0 || (c.dist >= 0 && c.dist <= x.dist+1) {
			continue
		}
		c.dist, c.parent, c.pmove = x.dist+1, x, moves[i]
		switch {
		case c.terminal:
			if c.goal > s.bscore {
				cands = append(cands, candidate{p.lineTo(c)})
			}
		case !c.expanded && !c.queued:
			c.queued = true
			p.next = append(p.next, c)
		}
	}
	return s.gen, s.root.state, cands
}

// lineTo returns the moves of the shortest known line from the root to x.
func (p *puzzle) lineTo(x *pnode) []reasoner.Move {
	line := make([]reasoner.Move, x.dist)
	for y := x; y.parent != nil && y.dist > 0; y = y.parent {
		line[y.dist-1] = y.pmove
	}
	return line
}

// maxRerootCandidates bounds the lines replayed after re-rooting.
const maxRerootCandidates = 8

// reroot makes the node of st the root of the graph: it recomputes the
// distances over the known edges, queues the unexpanded nodes reachable
// from it in order of distance, and returns the lines to the best
// terminal states already known. s.mu must be held.
func (p *puzzle) reroot(s *Search, st *reasoner.State) []candidate {
	if p.phase == puzzleDetect || p.table == nil {
		return nil
	}
	h := p.key(st)
	root := p.find(st, h)
	if root == nil {
		if s.full {
			p.phase = puzzleDone
			return nil
		}
		root = &pnode{state: st, hash: h}
		p.add(root)
	}
	p.root = root
	for _, x := range p.nodes {
		x.dist, x.parent, x.pmove, x.queued = -1, nil, "", false
	}
	root.dist = 0
	queue := []*pnode{root}
	var frontier, terminals []*pnode
	for i := 0; i < len(queue); i++ {
		x := queue[i]
		switch {
		case x.terminal:
			terminals = append(terminals, x)
			continue
		case x.expanding:
			continue // its children get their distance when it is done
		case !x.expanded:
			x.queued = true
			frontier = append(frontier, x)
			continue
		}
		for _, e := range x.edges {
			if c := e.child; c.dist < 0 {
				c.dist, c.parent, c.pmove = x.dist+1, x, e.move
				queue = append(queue, c)
			}
		}
	}
	p.level, p.next, p.pos = frontier, nil, 0
	if len(frontier) > 0 || p.inflight > 0 {
		p.phase = puzzleRun
	} else {
		p.phase = puzzleDone
	}
	slices.SortStableFunc(terminals, func(a, b *pnode) int {
		if c := cmp.Compare(b.goal, a.goal); c != 0 {
			return c
		}
		return cmp.Compare(a.dist, b.dist)
	})
	var cands []candidate
	for _, x := range terminals[:min(len(terminals), maxRerootCandidates)] {
		cands = append(cands, candidate{p.lineTo(x)})
	}
	return cands
}

// tryLine replays line from root, the root state of generation gen, and
// keeps it as the best line if it ends the game with a better goal than
// the best known. A line that reaches a terminal state early is cut there.
func (s *Search) tryLine(ctx context.Context, r reasoner.Reasoner, gen uint64, root *reasoner.State, line []reasoner.Move) {
	st := root
	joint := make([]reasoner.Move, 1)
	n := 0
	for ; ; n++ {
		term, err := r.Terminal(ctx, st)
		if err != nil {
			return
		}
		if term {
			break
		}
		if n == len(line) {
			return // the line does not end the game
		}
		legal, err := r.Legal(ctx, st, 0)
		if err != nil || !slices.Contains(legal, line[n]) {
			return
		}
		joint[0] = line[n]
		if st, err = r.Next(ctx, st, joint); err != nil {
			return
		}
	}
	goals := make([]float64, 1)
	if err := goalsOf(ctx, r, st, goals); err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen == s.gen && goals[0] > s.bscore {
		s.best = slices.Clone(line[:n])
		s.bscore = goals[0]
	}
}
