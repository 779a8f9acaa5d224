package mcts

import (
	"cmp"
	"context"
	"hash/maphash"
	"maps"
	"slices"
	"strings"

	"github.com/ggp-go/ggp/reasoner"
)

// The graph search of single-player games.
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
// When the rules name the whole state that scores the most (see goalFacts)
// and the moves sampled can all be undone, the search also runs breadth
// first from that state, assuming every move can be undone, and stops when
// the two searches meet on a line that is provably shortest: for the eight
// puzzle this explores some ten thousand states instead of all 181440.
//
// Every line found is replayed on the real states before it is kept, so a
// wrong assumption costs time, never a wrong score.

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

type puzzle struct {
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

// A candidate is a line to be replayed on the real states: moves from the
// root, then, in a line found by both searches, moves to be found that
// lead through the states of through to the goal state.
type candidate struct {
	line    []reasoner.Move
	through []*pnode
}

func newPuzzle(goalFacts []reasoner.Fact) *puzzle {
	return &puzzle{seed: maphash.MakeSeed(), table: map[uint64]*pnode{}, goalFacts: goalFacts, meetLen: -1}
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

func newPnode(st *reasoner.State) *pnode {
	return &pnode{state: st, dist: [2]int32{-1, -1}}
}

func (p *puzzle) add(x *pnode) {
	x.next = p.table[x.hash]
	p.table[x.hash] = x
	p.nodes = append(p.nodes, x)
	size := int64(200)
	for _, f := range x.state.Facts() {
		size += int64(len(f)) + 16
	}
	p.bytes += size
}

// A probe is what the first task of the puzzle search learns about the
// game by walking a random line.
type probe struct {
	ignore     map[string]bool // counters
	reversible bool            // every move sampled could be undone
}

// maxProbeChecks is the number of states with a choice that the probe
// examines.
const maxProbeChecks = 6

// probeGame walks a random line from st. It returns as counters the
// relations whose facts, at every state checked, are the same in all
// successors and differ from those of the state itself, such as step
// counters, and none when it cannot check two states with a choice. It
// also checks, on the abstract states, whether a move played can be undone
// by a move of the next state.
func probeGame(ctx context.Context, r reasoner.Reasoner, st *reasoner.State, w *worker) probe {
	var cand map[string]bool
	checks := 0
	reversible := true
	joint := make([]reasoner.Move, 1)
	var kids []*reasoner.State
	for step := 0; step < 40 && checks < maxProbeChecks; step++ {
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
			var sets []map[string]string
			kids = kids[:0]
			for _, i := range picks {
				joint[0] = legal[i]
				c, err := r.Next(ctx, st, joint)
				if err != nil {
					return probe{}
				}
				kids = append(kids, c)
				sets = append(sets, relationSets(c))
			}
			own := relationSets(st)
			uniform := map[string]bool{}
			for rel, facts := range sets[0] {
				if facts == own[rel] {
					continue
				}
				ok := true
				for _, k := range sets[1:] {
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
				maps.DeleteFunc(cand, func(rel string, _ bool) bool { return !uniform[rel] })
			}
			checks++
			if reversible && checks <= 3 {
				reversible = canUndo(ctx, r, st, kids[w.rng.IntN(len(kids))], cand)
			}
		}
		joint[0] = legal[w.rng.IntN(len(legal))]
		if st, err = r.Next(ctx, st, joint); err != nil {
			break
		}
	}
	if checks < 2 || len(cand) == 0 {
		return probe{}
	}
	return probe{ignore: cand, reversible: reversible}
}

// canUndo reports whether some move of c leads back to st, counters aside.
func canUndo(ctx context.Context, r reasoner.Reasoner, st, c *reasoner.State, ignore map[string]bool) bool {
	if term, err := r.Terminal(ctx, c); err != nil || term {
		return false
	}
	legal, err := r.Legal(ctx, c, 0)
	if err != nil {
		return false
	}
	p := &puzzle{ignore: ignore}
	for _, m := range legal {
		back, err := r.Next(ctx, c, []reasoner.Move{m})
		if err != nil {
			return false
		}
		if p.same(back, st) {
			return true
		}
	}
	return false
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

// goalState builds the state the backward search starts from: the goal
// facts without counters and the counters of root. It returns nil unless
// those facts have, relation by relation, as many facts as root has, so
// that they plausibly name a whole state.
func goalState(facts []reasoner.Fact, root *reasoner.State, ignore map[string]bool) *reasoner.State {
	if len(facts) == 0 {
		return nil
	}
	count := map[string]int{}
	var out []reasoner.Fact
	for _, f := range root.Facts() {
		if rel := relation(f); ignore[rel] {
			out = append(out, f)
		} else {
			count[rel]++
		}
	}
	for _, f := range facts {
		if rel := relation(f); !ignore[rel] {
			count[rel]--
			out = append(out, f)
		}
	}
	for _, n := range count {
		if n != 0 {
			return nil
		}
	}
	return reasoner.NewState(out)
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

// puzzleStep does one piece of the puzzle search and reports whether there
// was any to do.
func (s *Search) puzzleStep(ctx context.Context, r reasoner.Reasoner, w *worker) bool {
	t := s.puzzleTake()
	switch t.kind {
	case taskNone:
		return false
	case taskProbe:
		pr := probeGame(ctx, r, t.root, w)
		var goal *pnode
		if pr.reversible {
			if st := goalState(s.puz.goalFacts, t.root, pr.ignore); st != nil {
				if term, err := r.Terminal(ctx, st); err == nil && term {
					goal = newPnode(st)
					goal.checked, goal.terminal = true, true
				}
			}
		}
		if ctx.Err() != nil {
			s.mu.Lock()
			s.puz.detecting = false
			s.mu.Unlock()
			return true
		}
		t = s.puzzleStart(pr.ignore, goal)
	case taskExpand:
		t = s.puzzleExpand(ctx, r, w, t.node)
	}
	for _, c := range t.cands {
		s.tryLine(ctx, r, t.gen, t.root, c)
	}
	return true
}

// puzzleExpand asks the reasoner what a node leads to and records it.
func (s *Search) puzzleExpand(ctx context.Context, r reasoner.Reasoner, w *worker, x *pnode) puzzleTask {
	term, goal := x.terminal, 0.0
	var err error
	if !x.checked {
		if term, err = r.Terminal(ctx, x.state); err == nil && term {
			if err = goalsOf(ctx, r, x.state, w.value); ctx.Err() == nil {
				err = nil
			}
			goal = w.value[0]
		}
	}
	var moves []reasoner.Move
	var kids []*pnode
	if err == nil && (!term || x == s.puz.goal) {
		moves, err = r.Legal(ctx, x.state, 0)
		joint := w.moves[:1]
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
		s.errs.Add(1)
		s.logf("mcts: puzzle expansion: %v", err)
	}
	return s.puzzleAttach(x, term, goal, moves, kids, err != nil && ctx.Err() != nil)
}

// puzzleTake returns the next piece of work, if any.
func (s *Search) puzzleTake() puzzleTask {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.puz
	switch p.phase {
	case puzzleDetect:
		if p.detecting {
			return puzzleTask{}
		}
		p.detecting = true
		return puzzleTask{kind: taskProbe, root: s.root.state}
	case puzzleDone:
		return puzzleTask{}
	}
	if s.full || s.bscore >= 1 {
		s.focus.Store(false)
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
				p.propagate(s, x, d)
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
		if t := p.meetLines(s); t.kind != taskNone {
			return t
		}
		d := fwd
		if p.bidi && len(p.next[bwd]) > 0 && (len(p.next[fwd]) == 0 || len(p.next[bwd]) < len(p.next[fwd])) {
			d = bwd
		}
		if len(p.next[d]) == 0 {
			p.phase = puzzleDone
			s.focus.Store(false)
			return puzzleTask{}
		}
		p.dir, p.level, p.next[d], p.pos = d, p.next[d], nil, 0
		p.levelAt[d] = p.level[0].dist[d]
	}
}

// meetLines returns the line through the best meeting node once no
// shorter line can exist, and turns the backward search off.
// s.mu must be held.
func (p *puzzle) meetLines(s *Search) puzzleTask {
	if !p.bidi || p.meet == nil || p.meetLen > p.radius[fwd]+p.radius[bwd]+1 {
		return puzzleTask{}
	}
	p.bidi = false
	s.focus.Store(false)
	c := candidate{line: p.lineTo(p.meet)}
	for y := p.meet; y != p.goal; {
		y = y.par[bwd]
		if y == nil {
			return puzzleTask{}
		}
		c.through = append(c.through, y)
	}
	return puzzleTask{kind: taskLines, root: s.root.state, gen: s.gen, cands: []candidate{c}}
}

// puzzleStart installs what the probe found and roots the graph at the
// current state.
func (s *Search) puzzleStart(ignore map[string]bool, goal *pnode) puzzleTask {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.puz
	t := puzzleTask{root: s.root.state, gen: s.gen}
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
		s.focus.Store(true)
		p.next[bwd] = []*pnode{goal}
		goal.queued[bwd] = true
	}
	t.cands = p.reroot(s, s.root.state)
	return t
}

// puzzleAttach records the expansion of x: whether it is terminal, its
// moves and the nodes they reach. When retry is set the expansion was cut
// short and x goes back to the queue. It returns the lines to replay.
func (s *Search) puzzleAttach(x *pnode, term bool, goal float64, moves []reasoner.Move, kids []*pnode, retry bool) puzzleTask {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.puz
	t := puzzleTask{root: s.root.state, gen: s.gen}
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
		if term && x.dist[fwd] >= 0 && goal > s.bscore {
			t.cands = append(t.cands, candidate{line: p.lineTo(x)})
		}
	}
	x.expanded = true
	s.expansions.Add(1)
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
	}
	for d := range 2 {
		if x.taken[d] {
			t.cands = append(t.cands, p.propagate(s, x, d)...)
		}
	}
	if len(p.nodes) >= s.cfg.MaxNodes/2 || p.bytes >= s.cfg.MaxBytes/2 {
		p.release(s)
	}
	return t
}

// release ends the puzzle search and frees its graph, when it has used its
// half of the memory: the tree search keeps the other half. The best line
// found stays. s.mu must be held.
func (p *puzzle) release(s *Search) {
	p.phase, p.table, p.nodes, p.bytes = puzzleDone, nil, nil, 0
	p.root, p.goal, p.meet, p.level, p.next = nil, nil, nil, nil, [2][]*pnode{}
	p.bidi = false
	s.focus.Store(false)
	s.checkFull()
}

// propagate gives the children of the expanded node x their distance in
// direction d and queues them, and returns the lines to terminal states
// newly reached from the root. s.mu must be held.
func (p *puzzle) propagate(s *Search, x *pnode, d int) []candidate {
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
			if d == fwd && c.goal > s.bscore {
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
func (p *puzzle) lineTo(x *pnode) []reasoner.Move {
	line := make([]reasoner.Move, x.dist[fwd])
	for y := x; y.par[fwd] != nil && y.dist[fwd] > 0; y = y.par[fwd] {
		line[y.dist[fwd]-1] = y.pmove
	}
	return line
}

// maxRerootCandidates bounds the lines replayed after re-rooting.
const maxRerootCandidates = 8

// reroot makes the node of st the root of the graph: it recomputes the
// distances from it over the known edges, queues the unexpanded nodes
// reachable from it in order of distance, and returns the lines to the
// best terminal states already known. s.mu must be held.
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

// tryLine replays a candidate from root, the root state of generation
// gen: its moves, then moves found one by one that lead through its
// states. It keeps the line as the best if it ends the game with a better
// goal than the best known. A line that reaches a terminal state early is
// cut there.
func (s *Search) tryLine(ctx context.Context, r reasoner.Reasoner, gen uint64, root *reasoner.State, c candidate) {
	st := root
	joint := make([]reasoner.Move, 1)
	line := slices.Clone(c.line)
	through := c.through
	for n := 0; ; n++ {
		term, err := r.Terminal(ctx, st)
		if err != nil {
			return
		}
		if term {
			line = line[:n]
			break
		}
		legal, err := r.Legal(ctx, st, 0)
		if err != nil {
			return
		}
		if n == len(line) {
			if len(through) == 0 {
				return // the line does not end the game
			}
			// Find the move to the next state of the line.
			target := through[0].state
			through = through[1:]
			found := false
			for _, m := range legal {
				joint[0] = m
				next, err := r.Next(ctx, st, joint)
				if err != nil {
					return
				}
				if s.puz.same(next, target) {
					line, st, found = append(line, m), next, true
					break
				}
			}
			if !found {
				return
			}
			continue
		}
		if !slices.Contains(legal, line[n]) {
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
		s.best = line
		s.bscore = goals[0]
	}
}
