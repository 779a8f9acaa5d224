package propnet

import (
	"context"
	"math"
	"math/bits"
	"slices"

	"github.com/ggp-go/ggp/reasoner"
)

// Evaluation propagates changes (as Sancho's propnet does): each gate keeps
// a count, the number of its inputs that hold less the number it needs
// (every input for AND, one for OR; for NOT, an input holds when it is
// false), and is true when the count is not negative, so that a gate flips
// when its count changes sign and a visit reads nothing but the count.
// When a leaf changes, only the gates downstream of it are visited,
// depth first: a step of a game changes a few facts and touches a small
// part of the network. A gate may flip more than once while one change
// spreads; the counts stay exact, so the values are right when it ends.
// (Visiting gates in order of level instead, once each, cost more in
// keeping the queue than it saved.) Gates in a cycle (recursive relations
// over the state) have no such invariant; a cycle is recomputed as a whole,
// from false up to its least fixpoint, when one of its inputs changes, and
// cycles are settled in order of level.

// network is a compiled game, shared read-only by every Reasoner forked
// from it.
type network struct {
	roles     []string
	facts     []reasoner.Fact // per base, sorted
	factIndex map[reasoner.Fact]int
	enc       *encoding

	// per node
	// thr tells when a gate is true: t > 0, when at least t inputs are
	// (AND: all, OR: one); t < 0, when fewer than -t are (NOT); inCycle,
	// never by count: the gate is in a cycle, whose cycleThr says.
	thr   []int32
	leaf  []bool
	level []int32
	cycle []int32 // the cycle a node belongs to, or -1
	// cyclePos is a node's position in its cycle's list of nodes.
	cyclePos []int32
	fan      []fanout
	// outs holds the outputs of every node, each as o<<2 | flags: edgeNot
	// when o's count falls as the node comes true (o is a NOT gate, or
	// reads the node through one that bypassNots took out); edgeCycle
	// when o is in a cycle, whose count is not kept.
	outs    []int32
	inStart []int32
	ins     []int32

	cycles     [][]int32 // the nodes of each cycle
	cycleLevel []int32
	cycleStart []int32 // cycle c's thresholds: cycleThr[cycleStart[c]:]
	cycleThr   []int32

	bases []int32 // per base: its node
	next  []int32 // per base: the node of its next
	// A node n with fan[n].watch >= 0 is watched: each entry of
	// watchList[watch:watch+nwatch] is a bit of a machine's watched words
	// that holds n's value. The words hold the next state, then each
	// role's legal moves. A flip of n updates them as it happens, instead
	// of every next and every legal proposition being read each step.
	watchList []int32
	// legalWord[r] is the first word of role r's legal moves in the
	// watched words: bit i of the role's words is legal[r][i].
	legalWord []int32
	legal     [][]legalProp
	// legalGate[r], when not -1, is a base (a turn fact) that role r's
	// legal moves gated[r] (a bitset over legal[r]) require besides
	// their proposition, which leaves the fact out: the moves are masked
	// when they are read, so that the turn passing visits none of them.
	// nil when no move is gated.
	legalGate []int32
	gated     [][]uint64
	moves     [][]reasoner.Move // per role: the move of each legal proposition, in order
	goals     [][]goalProp      // in goalNet only
	goalNet   *network          // the network of the goals
	// sees holds each role's percepts, in seesNet only; seesNet, the
	// network of the percepts, is nil in a game without sees rules.
	sees    [][]perceptProp
	seesNet *network
	// phases are the phase networks (phase.go), of the states where base
	// phaseBits[i] is the only one of them that holds.
	phases    []*network
	phaseBits []int32
	moveIndex []map[reasoner.Move]int32 // per role: move -> input node
	terminal  int32
	initial   []uint64

	// queriesReadInputs is set when a legal, goal or terminal proposition
	// depends on a move (which GDL forbids but games do): inputs must then
	// be cleared before those are read.
	queriesReadInputs bool

	// values and counts with every leaf false, the start of every machine
	initState []int32

	stats Stats
	renum []int32 // graph node -> network node, during build

	// decisive holds each role's decisive moves (decisive.go), found
	// when first asked; New makes it.
	decisive *decisiveMoves
	// wins holds each role's wins on facts of the state (winfacts.go),
	// found when first asked; New makes it.
	wins *winFacts
	// factors holds the game's factors (factor.go), found when first
	// asked; New makes it.
	factors *factors
}

// compile lays out the kept nodes of g, with inputs replaced by repl, for
// propagation.
func (net *network) compile(g *graph, repl []int32, keep []bool) error {
	order := net.renumber(g, repl, keep)
	net.layGates(g, order)
	net.layFanouts()
	if err := net.layLevels(); err != nil {
		return err
	}
	net.layCycles()
	net.markEdges()
	return nil
}

// renumber numbers the kept nodes of g that no other replaces, in order,
// points every replaced node at the number of the kept node that computes
// it, and returns the kept nodes by number.
func (net *network) renumber(g *graph, repl []int32, keep []bool) (order []int32) {
	net.renum = make([]int32, len(g.kinds))
	for n := range g.kinds {
		net.renum[n] = -1
		if keep[n] && repl[n] == int32(n) {
			net.renum[n] = int32(len(order))
			order = append(order, int32(n))
		}
	}
	// Every node replaced points to a kept node.
	for n := range g.kinds {
		if net.renum[n] < 0 && keep[repl[n]] {
			net.renum[n] = net.renum[repl[n]]
		}
	}
	return order
}

// layGates lays out each node of order, the kept nodes of g: whether it
// is a leaf, the threshold of its count (its inputs for an AND, 1 for an
// OR, -1 for a NOT) and its inputs.
func (net *network) layGates(g *graph, order []int32) {
	count := len(order)
	net.thr = make([]int32, count)
	net.leaf = make([]bool, count)
	net.inStart = make([]int32, count+1)
	for i, n := range order {
		switch g.kinds[n] {
		case kFalse, kTrue, kBase, kInput:
			net.leaf[i] = true
		case kAnd:
			net.thr[i] = int32(len(g.ins[n]))
		case kOr:
			net.thr[i] = 1
		case kNot:
			net.thr[i] = -1
		}
		for _, in := range g.ins[n] {
			net.ins = append(net.ins, net.renum[in])
		}
		net.inStart[i+1] = int32(len(net.ins))
	}
}

// layFanouts lays out the readers of each node, the inverse of its inputs.
func (net *network) layFanouts() {
	count := len(net.thr)
	outCount := make([]int32, count+1)
	for _, in := range net.ins {
		outCount[in+1]++
	}
	for i := 1; i <= count; i++ {
		outCount[i] += outCount[i-1]
	}
	net.fan = make([]fanout, count)
	for n := range net.fan {
		net.fan[n] = fanout{start: outCount[n], end: outCount[n+1], watch: -1}
	}
	net.outs = make([]int32, len(net.ins))
	for i := range count {
		for _, in := range net.ins[net.inStart[i]:net.inStart[i+1]] {
			net.outs[outCount[in]] = int32(i)
			outCount[in]++
		}
	}
}

// insOf returns the inputs of node n of the laid-out network.
func (net *network) insOf(n int32) []int32 { return net.ins[net.inStart[n]:net.inStart[n+1]] }

// layLevels finds the network's cycles and gives each node its level, one
// above the highest of its inputs outside its cycle; a NOT in a cycle is
// errNegationCycle.
func (net *network) layLevels() error {
	count := len(net.thr)
	comps := sccs(context.Background(), count, net.insOf)
	net.cycle = make([]int32, count)
	net.cyclePos = make([]int32, count)
	net.level = make([]int32, count)
	for _, comp := range comps {
		isCycle := cyclic(comp, net.insOf)
		lvl := int32(0)
		for _, n := range comp {
			net.cycle[n] = -1
			if isCycle && !net.leaf[n] && net.thr[n] < 0 {
				return errNegationCycle
			}
		}
		if isCycle {
			for _, n := range comp {
				net.cycle[n] = int32(len(net.cycles))
			}
			net.cycles = append(net.cycles, comp)
			for i, n := range comp {
				net.cyclePos[n] = int32(i)
			}
		}
		for _, n := range comp {
			if net.leaf[n] {
				continue
			}
			for _, in := range net.insOf(n) {
				if net.cycle[in] < 0 || net.cycle[in] != net.cycle[n] {
					lvl = max(lvl, net.level[in]+1)
				}
			}
		}
		for _, n := range comp {
			net.level[n] = lvl
		}
	}
	return nil
}

// layCycles moves the thresholds of the nodes of cycles to the cycles'
// own table, marking the nodes inCycle.
func (net *network) layCycles() {
	for _, comp := range net.cycles {
		net.cycleLevel = append(net.cycleLevel, net.level[comp[0]])
		net.cycleStart = append(net.cycleStart, int32(len(net.cycleThr)))
		for _, n := range comp {
			net.cycleThr = append(net.cycleThr, net.thr[n])
			net.thr[n] = inCycle
		}
	}
}

// markEdges flags each edge by its reader: edgeCycle into a node of a
// cycle, edgeNot into a NOT gate.
func (net *network) markEdges() {
	for j, o := range net.outs {
		e := o << 2
		if net.thr[o] == inCycle {
			e |= edgeCycle
		} else if !net.leaf[o] && net.thr[o] < 0 {
			e |= edgeNot
		}
		net.outs[j] = e
	}
}

// bypassNots lets the readers of each NOT gate read its input through a
// negated edge instead (edgeNot: the reader's count falls as the input
// comes true), so that a change of the input reaches them at once, without
// the NOT gate flipping in between. A NOT gate whose value is still read
// (watched, the terminal, a goal, or read by a gate in a cycle) keeps its
// own count; the others are left out of propagation, their values read
// only by prepare. NOT gates in cycles, or reading one, are left alone.
func (net *network) bypassNots() {
	count := len(net.thr)
	read := make([]bool, count)
	read[net.terminal] = true
	for _, ps := range net.goals {
		for _, p := range ps {
			read[p.node] = true
		}
	}
	isNot := func(x int32) bool { return !net.leaf[x] && net.thr[x] == -1 }
	adj := make([][]int32, count)
	for n, f := range net.fan {
		adj[n] = slices.Clone(net.outs[f.start:f.end])
	}
	changed := false
	for x := range int32(count) {
		if !isNot(x) {
			continue
		}
		y := net.ins[net.inStart[x]]
		if isNot(y) || net.thr[y] == inCycle {
			continue
		}
		kept := net.fan[x].watch >= 0 || read[x]
		var rest []int32
		for _, e := range adj[x] {
			if e&edgeCycle != 0 {
				rest = append(rest, e)
				kept = true
				continue
			}
			adj[y] = append(adj[y], e^edgeNot)
		}
		adj[x] = rest
		if !kept {
			adj[y] = slices.DeleteFunc(adj[y], func(e int32) bool { return e == x<<2|edgeNot })
		}
		changed = true
	}
	if !changed {
		return
	}
	net.outs = net.outs[:0]
	for n := range net.fan {
		f := &net.fan[n]
		f.start = int32(len(net.outs))
		net.outs = append(net.outs, adj[n]...)
		f.end = int32(len(net.outs))
	}
}

// fanout is where a node's outputs are, outs[start:end], and where the
// bits that watch it are, watchList[watch:watch+nwatch] (watch -1: none).
type fanout struct{ start, end, watch, nwatch int32 }

// The flags of an edge in outs.
const (
	edgeCycle = 1
	edgeNot   = 2
)

// inCycle is the threshold of a gate in a cycle.
const inCycle = math.MinInt32

// need returns the count of a gate of threshold thr (not in a cycle) with
// none of its inputs true.
func need(thr int32) int32 {
	if thr > 0 {
		return -thr // AND, OR
	}
	return 0 // NOT: its input holds
}

func (net *network) cycleNodes() int {
	n := 0
	for _, c := range net.cycles {
		n += len(c)
	}
	return n
}

// readsInputs reports whether a legal, goal or terminal proposition
// depends on an input.
func (net *network) readsInputs() bool {
	seen := make([]bool, len(net.thr))
	var stack []int32
	push := func(n int32) {
		if !seen[n] {
			seen[n] = true
			stack = append(stack, n)
		}
	}
	for _, ps := range net.legal {
		for _, p := range ps {
			push(p.node)
		}
	}
	for _, ps := range net.goals {
		for _, p := range ps {
			push(p.node)
		}
	}
	push(net.terminal)
	inputs := map[int32]bool{}
	for _, m := range net.moveIndex {
		for _, n := range m {
			inputs[n] = true
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if inputs[n] {
			return true
		}
		for _, in := range net.ins[net.inStart[n]:net.inStart[n+1]] {
			push(in)
		}
	}
	return false
}

// prepare computes the counts of every node with all leaves false, in
// dependency order.
func (net *network) prepare() {
	m := &machine{net: net}
	m.st = make([]int32, len(net.thr))
	m.alloc()
	for n := range m.st {
		m.st[n] = -1 // leaves false, and gates until counted
	}
	m.st[nodeTrue] = 0
	insOf := func(n int32) []int32 { return net.ins[net.inStart[n]:net.inStart[n+1]] }
	for _, comp := range sccs(context.Background(), len(net.thr), insOf) {
		if c := net.cycle[comp[0]]; c >= 0 {
			m.recomputeCycle(c)
			continue
		}
		n := comp[0]
		if net.leaf[n] {
			continue
		}
		t := int32(0)
		for _, in := range insOf(n) {
			if m.value(in) {
				t++
			}
		}
		if net.thr[n] < 0 {
			t = -t // NOT: its input holds while false
		}
		m.st[n] = need(net.thr[n]) + t
	}
	// Cycles were computed with their inputs' final values, in order;
	// nothing is pending.
	m.pending = m.pending[:0]
	clear(m.cycleDirty)
	net.initState = m.st
}

// machine is one instance's evaluation state: the value of every node for
// the state and moves loaded, and how many inputs of each are true.
type machine struct {
	net *network
	// st holds each node's count: a gate's (see the top of the file),
	// outside cycles; 0 for a true leaf or gate in a cycle, -1 for a false
	// one. A node is true when its count is not negative.
	st []int32

	pending    []int32 // cycles whose inputs changed
	cycleDirty []bool
	cycleOld   []bool
	cycleCount []int32 // per gate of the cycle recomputed: its true inputs
	cycleQueue []int32 // gates of the cycle come true, their outputs not yet counted
	// cycleWork counts the links cycles' recomputation followed, for
	// phasesPayOff.
	cycleWork int

	state []uint64 // the base words loaded
	// watched holds the words of the next state and of the legal moves,
	// kept as next and legal propositions flip.
	watched []uint64
	masked  []uint64 // scratch: legal words with gated moves taken out
	inputs  []int32  // the input nodes set
}

func (net *network) newMachine() *machine {
	m := &machine{net: net, st: slices.Clone(net.initState)}
	m.alloc()
	m.state = make([]uint64, len(net.initial))
	for n, f := range net.fan {
		if f.watch >= 0 && m.value(int32(n)) {
			m.markWatched(int32(n), true)
		}
	}
	return m
}

// indexWatched fills fan[n].watch, watchList and legalWord from next and
// legal.
func (net *network) indexWatched() {
	byNode := map[int32][]int32{}
	var nodes []int32
	watch := func(n, e int32) {
		if _, ok := byNode[n]; !ok {
			nodes = append(nodes, n)
		}
		byNode[n] = append(byNode[n], e)
	}
	for j, n := range net.next {
		watch(n, int32(j))
	}
	words := int32(len(net.initial))
	net.legalWord = make([]int32, len(net.legal))
	for r, ps := range net.legal {
		net.legalWord[r] = words
		for i, p := range ps {
			watch(p.node, words*64+int32(i))
		}
		words += int32(len(ps)+63) / 64
	}
	net.legalWord = append(net.legalWord, words)
	for _, n := range nodes {
		net.fan[n].watch = int32(len(net.watchList))
		net.fan[n].nwatch = int32(len(byNode[n]))
		net.watchList = append(net.watchList, byNode[n]...)
	}
}

// markWatched records that node n, watched, became v.
func (m *machine) markWatched(n int32, v bool) {
	f := m.net.fan[n]
	for _, e := range m.net.watchList[f.watch : f.watch+f.nwatch] {
		// Unsigned, so that the word and the bit are a shift and a mask.
		i, b := uint32(e)>>6, uint64(1)<<(uint32(e)&63)
		if v {
			m.watched[i] |= b
		} else {
			m.watched[i] &^= b
		}
	}
}

func (m *machine) alloc() {
	m.cycleDirty = make([]bool, len(m.net.cycles))
	words := len(m.net.initial)
	if len(m.net.legalWord) > 0 {
		words = int(m.net.legalWord[len(m.net.legalWord)-1])
	}
	m.watched = make([]uint64, words)
	if m.net.legalGate != nil {
		m.masked = make([]uint64, words-int(m.net.legalWord[0]))
	}
}

// legalWords returns the words of role's legal moves: bit i is set when
// the move net.legal[role][i] is legal. The moves of a role that a turn
// fact gates (legalGate) are taken out while the fact does not hold.
func (m *machine) legalWords(role int) []uint64 {
	words := m.watched[m.net.legalWord[role]:m.net.legalWord[role+1]]
	if m.net.legalGate == nil {
		return words
	}
	j := m.net.legalGate[role]
	if j < 0 || m.state[j/64]&(1<<(j%64)) != 0 {
		return words
	}
	masked := m.masked[m.net.legalWord[role]-m.net.legalWord[0]:][:len(words)]
	for i, w := range words {
		masked[i] = w &^ m.net.gated[role][i]
	}
	return masked
}

// setLeaf sets a leaf and propagates the change.
func (m *machine) setLeaf(n int32, v bool) {
	if m.value(n) == v {
		return
	}
	m.st[n] = -1
	if v {
		m.st[n] = 0
	}
	if m.net.fan[n].watch >= 0 {
		m.markWatched(n, v)
	}
	m.changed(n, v)
}

// value returns node n's value.
func (m *machine) value(n int32) bool { return m.st[n] >= 0 }

// changed updates the counts of n's outputs and, depth first, the value of
// each output whose count changed sign. An output may change more than
// once in one propagation; the counts stay exact, so the values are right
// once it ends. Outputs in cycles are left for settle.
func (m *machine) changed(n int32, v bool) {
	net := m.net
	d := int32(-1)
	if v {
		d = 1
	}
	f := net.fan[n]
	for _, e := range net.outs[f.start:f.end] {
		o := e >> 2
		dd := d
		if e&(edgeCycle|edgeNot) != 0 {
			if e&edgeCycle != 0 {
				if cy := net.cycle[o]; !m.cycleDirty[cy] {
					m.cycleDirty[cy] = true
					m.pending = append(m.pending, cy)
				}
				continue
			}
			dd = -d // NOT: its count falls as its input comes true
		}
		old := m.st[o]
		st := old + dd
		m.st[o] = st
		if old^st >= 0 {
			continue // same sign: same value
		}
		nv := st >= 0
		fo := &net.fan[o]
		if fo.watch >= 0 {
			m.markWatched(o, nv)
		}
		if fo.end != fo.start {
			m.changed(o, nv)
		}
	}
}

// settle recomputes the cycles whose inputs changed, lowest level first,
// and propagates what changed.
func (m *machine) settle() {
	for len(m.pending) > 0 {
		best := 0
		for i, c := range m.pending {
			if m.net.cycleLevel[c] < m.net.cycleLevel[m.pending[best]] {
				best = i
			}
		}
		c := m.pending[best]
		m.pending[best] = m.pending[len(m.pending)-1]
		m.pending = m.pending[:len(m.pending)-1]
		m.recomputeCycle(c)
	}
}

// recomputeCycle computes cycle c's least fixpoint from its inputs and
// propagates what changed.
func (m *machine) recomputeCycle(c int32) {
	net := m.net
	m.cycleDirty[c] = false
	nodes := net.cycles[c]
	m.cycleOld = m.cycleOld[:0]
	for _, n := range nodes {
		m.cycleOld = append(m.cycleOld, m.value(n))
		m.st[n] = -1
	}
	// From all false up: a gate whose count of true inputs reaches its
	// threshold comes true and counts for its outputs in the cycle, each
	// link followed once.
	thr := net.cycleThr[net.cycleStart[c]:]
	m.cycleCount = m.cycleCount[:0]
	m.cycleQueue = m.cycleQueue[:0]
	for _, n := range nodes {
		t := int32(0)
		for _, in := range net.ins[net.inStart[n]:net.inStart[n+1]] {
			if m.value(in) {
				t++
			}
		}
		m.cycleWork += int(net.inStart[n+1] - net.inStart[n])
		m.cycleCount = append(m.cycleCount, t)
	}
	// Counted with the whole cycle false: only now may gates come true.
	for i, n := range nodes {
		if m.cycleCount[i] >= thr[i] {
			m.st[n] = 0
			m.cycleQueue = append(m.cycleQueue, n)
		}
	}
	for len(m.cycleQueue) > 0 {
		n := m.cycleQueue[len(m.cycleQueue)-1]
		m.cycleQueue = m.cycleQueue[:len(m.cycleQueue)-1]
		f := net.fan[n]
		m.cycleWork += int(f.end - f.start)
		for _, e := range net.outs[f.start:f.end] {
			o := e >> 2
			if e&edgeCycle == 0 || net.cycle[o] != c || m.value(o) {
				continue
			}
			j := net.cyclePos[o]
			m.cycleCount[j]++
			if m.cycleCount[j] >= thr[j] {
				m.st[o] = 0
				m.cycleQueue = append(m.cycleQueue, o)
			}
		}
	}
	for i, n := range nodes {
		if v := m.value(n); v != m.cycleOld[i] {
			if net.fan[n].watch >= 0 {
				m.markWatched(n, v)
			}
			m.changed(n, v)
		}
	}
}

// load sets the base propositions to the state words. Facts that become
// true are set before those that become false, and new moves before old
// ones are cleared: an OR over alternatives of which one holds at a time
// (where the blank is, which move is played) then goes from one true input
// to two and back to one, and does not flip off and on again with all it
// feeds.
func (m *machine) load(words []uint64) {
	for i, w := range words {
		for on := (m.state[i] ^ w) & w; on != 0; on &= on - 1 {
			m.setLeaf(m.net.bases[i*64+bits.TrailingZeros64(on)], true)
		}
	}
	for i, w := range words {
		for off := (m.state[i] ^ w) &^ w; off != 0; off &= off - 1 {
			m.setLeaf(m.net.bases[i*64+bits.TrailingZeros64(off)], false)
		}
		m.state[i] = w
	}
	m.settle()
}

// setInputs sets exactly the input nodes given.
func (m *machine) setInputs(inputs []int32) {
	for _, n := range inputs {
		m.setLeaf(n, true)
	}
	for _, n := range m.inputs {
		if !slices.Contains(inputs, n) {
			m.setLeaf(n, false)
		}
	}
	m.inputs = append(m.inputs[:0], inputs...)
	m.settle()
}

// nextState writes the words of the state that follows into words.
func (m *machine) nextState(words []uint64) { copy(words, m.watched[:len(m.net.initial)]) }

// encoding is the state encoding of one network: a bitset over its bases.
type encoding struct{ facts []reasoner.Fact }

// Facts returns the facts of the bits set, in order (the bases are sorted).
func (e *encoding) Facts(words []uint64) []reasoner.Fact {
	var out []reasoner.Fact
	for i, w := range words {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &= w - 1
			out = append(out, e.facts[i*64+b])
		}
	}
	return out
}
