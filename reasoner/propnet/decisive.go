package propnet

import (
	"slices"
	"sync"
)

// Decisive moves read from the network: a move that ends the game with its
// role's highest goal in whatever state the role plays it, whatever the
// other roles play (reasoner.WinReader). In breakthrough a pawn that
// steps onto the last row wins, so a playout that can should; found by
// playing each move in a search would cost a next state per legal move per
// step, read from the rules it costs a look-up.
//
// The reading is a three-valued evaluation of the network, each node true,
// false or unknown: with only the move's input known true, the next state's
// facts that come out true or false whatever else holds; then, with only
// those facts known, the terminal and the goal. A move whose terminal and
// best goal both come out true is decisive. Unknown where a gate's value
// depends on what is not known, the evaluation never calls a node true or
// false that could be otherwise, so every move found is decisive; a move
// that wins only in some states (connect four's fourth disc) is not found.

// maxDecisiveWork bounds the gate inputs read while looking for decisive
// moves, which bounds the time (a game with many moves, each changing much
// of the state, is left with the moves found within it).
const maxDecisiveWork = 1 << 24

// DecisiveMoves returns, per role, the numbers in the numbering of Moves
// of the moves that end the game with the role's highest goal wherever
// the role plays them, ascending. The first call finds them, for r and
// its forks; the caller must not modify the slices.
func (r *Reasoner) DecisiveMoves() [][]int32 {
	d := r.net.decisive
	d.find(r.net)
	return d.moves
}

// decisiveMoves holds each role's decisive moves once found.
type decisiveMoves struct {
	once  sync.Once
	moves [][]int32
	// bits holds each role's decisive moves as bits over its legal
	// moves, nil for a role without any; nil when no role has any.
	bits [][]uint64
	// When bits is not nil, what a WinPlayout needs to choose
	// which moves to try (nil when they were too many to find: it then
	// tries every move): reads[role][i], for a decisive move i, the
	// bases its legality reads, and touches and kills from effects.
	reads, touches, kills [][][]int32
}

// find finds the decisive moves of net, the first time it is called.
func (d *decisiveMoves) find(net *network) {
	d.once.Do(func() {
		d.moves = net.findDecisive()
		for role, ms := range d.moves {
			if len(ms) == 0 {
				continue
			}
			if d.bits == nil {
				d.bits = make([][]uint64, len(d.moves))
			}
			d.bits[role] = make([]uint64, (len(net.legal[role])+63)/64)
			for _, m := range ms {
				d.bits[role][m>>6] |= 1 << (m & 63)
			}
		}
		if d.bits != nil {
			d.reads = net.reads(d.moves)
			if d.touches, d.kills = net.effects(d.moves); d.reads == nil {
				d.touches, d.kills = nil, nil
			}
		}
	})
}

// findDecisive returns the decisive moves of each role.
func (net *network) findDecisive() [][]int32 {
	gn := net.goalNet
	out := make([][]int32, len(net.roles))
	if gn == nil || net.queriesReadInputs {
		return out
	}
	st := newStepper(net)
	goals := newKleene(gn)
	for role := range net.roles {
		best := gn.bestGoal(role)
		if best < 0 {
			continue
		}
		goal := gn.goals[role][best].node
		for i, p := range net.legal[role] {
			if p.input < 0 {
				continue
			}
			if st.work > maxDecisiveWork {
				return out
			}
			if st.wins([]seed{{p.input, true}}, goals, goal) {
				out[role] = append(out[role], int32(i))
			}
		}
	}
	return out
}

// A stepper evaluates, in three values, the state that follows a move
// played in a state of which nothing is known.
type stepper struct {
	net           *network
	nextOf        map[int32][]int32 // the bases each next-state node is the next of
	constant      []seed            // the bases whose next is a constant
	moves, states *kleene
	next          []seed
	work          int // gate inputs read so far
}

func newStepper(net *network) *stepper {
	st := &stepper{net: net, nextOf: map[int32][]int32{}, moves: newKleene(net), states: newKleene(net)}
	for j, n := range net.next {
		switch n {
		case nodeTrue, nodeFalse:
			st.constant = append(st.constant, seed{int32(j), n == nodeTrue})
		default:
			st.nextOf[n] = append(st.nextOf[n], int32(j))
		}
	}
	return st
}

// step returns the bases whose next value is known when the inputs moves
// are known, with their values, and leaves st.states evaluated from them,
// to be read and reset by the caller.
func (st *stepper) step(moves []seed) []seed {
	st.moves.run(moves, nil)
	st.next = append(st.next[:0], st.constant...)
	for _, n := range st.moves.set {
		if v := st.moves.val[n]; v != valUnknown {
			for _, j := range st.nextOf[n] {
				st.next = append(st.next, seed{j, v == valTrue})
			}
		}
	}
	st.work += st.moves.reset()
	st.states.run(st.next, st.net.bases)
	return st.next
}

// wins reports whether, with the leaves seeds known (inputs, and the
// current state's bases as their nodes), the next state is surely
// terminal and the goal network's node goal surely true in it; goals
// evaluates the goal network. Its work is added to st.work.
func (st *stepper) wins(seeds []seed, goals *kleene, goal int32) bool {
	next := st.step(seeds)
	terminal := st.states.value(st.net.terminal) == valTrue
	st.work += st.states.reset()
	if !terminal {
		return false
	}
	goals.run(next, st.net.goalNet.bases)
	won := goals.value(goal) == valTrue
	st.work += goals.reset()
	return won
}

// maxDependencyWork bounds the work of finding what moves touch and close
// and what decisive moves' legality reads.
const maxDependencyWork = 1 << 24

// reads returns, for each decisive move of decisive, the bases its
// legality reads, sorted; nil past maxDependencyWork.
func (net *network) reads(decisive [][]int32) [][][]int32 {
	baseOf := make(map[int32]int32, len(net.bases))
	for j, n := range net.bases {
		baseOf[n] = int32(j)
	}
	w := newWalker(net)
	reads := make([][][]int32, len(net.roles))
	for role, ms := range decisive {
		reads[role] = make([][]int32, len(net.legal[role]))
		for _, i := range ms {
			var bs []int32
			if !w.walk(net.legal[role][i].node, net.inStart, net.ins, func(x int32) {
				if j, isBase := baseOf[x]; isBase {
					bs = append(bs, j)
				}
			}) {
				return nil
			}
			if net.legalGate != nil && net.legalGate[role] >= 0 && net.gated[role][i/64]&(1<<(i%64)) != 0 {
				bs = append(bs, net.legalGate[role]) // the fact gate.go took out
			}
			slices.Sort(bs)
			reads[role][i] = slices.Compact(bs)
		}
	}
	return reads
}

// effects returns, for every move of every role played while the other
// roles play moves that change nothing (a turn-taking game's noop, an
// input no gate reads), the bases whose next value it fixes whatever the
// state (touches: a step's from and to squares, not reversi's flips,
// which depend on the state), and the decisive moves of the other roles
// it makes illegal whatever the state (kills, each as role<<24 | number),
// sorted; nil, nil past maxDependencyWork.
func (net *network) effects(decisive [][]int32) (touches, kills [][][]int32) {
	st := newStepper(net)
	touches = make([][][]int32, len(net.roles))
	kills = make([][][]int32, len(net.roles))
	var inputs []seed // every input false
	for _, ps := range net.legal {
		for _, p := range ps {
			if p.input >= 0 {
				inputs = append(inputs, seed{p.input, false})
			}
		}
	}
	k := 0
	for role, ps := range net.legal {
		touches[role] = make([][]int32, len(ps))
		kills[role] = make([][]int32, len(ps))
		for i, p := range ps {
			if p.input < 0 {
				continue
			}
			if st.work > maxDependencyWork || len(ps) >= 1<<24 {
				return nil, nil
			}
			inputs[k].val = true
			next := st.step(inputs)
			inputs[k].val = false
			k++
			var bs []int32
			for _, sd := range next {
				bs = append(bs, sd.at)
			}
			slices.Sort(bs)
			touches[role][i] = slices.Compact(bs)
			for o, ds := range decisive {
				if o == role {
					continue
				}
				gate := int32(-1)
				if net.legalGate != nil {
					gate = net.legalGate[o]
				}
				for _, dm := range ds {
					closed := st.states.value(net.legal[o][dm].node) == valFalse
					if gate >= 0 && net.gated[o][dm/64]&(1<<(dm%64)) != 0 && st.states.value(net.bases[gate]) == valFalse {
						closed = true
					}
					if closed {
						kills[role][i] = append(kills[role][i], int32(o)<<24|dm)
					}
				}
			}
			st.work += st.states.reset()
		}
	}
	return touches, kills
}

// A walker visits the nodes reached from a node of a network, within a
// budget of maxDependencyWork edges over all its walks.
type walker struct {
	seen  []uint32
	mark  uint32
	stack []int32
	work  int
}

func newWalker(net *network) *walker { return &walker{seen: make([]uint32, len(net.thr))} }

// walk calls visit once for start and for every node reached from it
// through the edges adj[at[x]:at[x+1]] of each node x, and reports false
// when the budget ran out on the way.
func (w *walker) walk(start int32, at, adj []int32, visit func(int32)) bool {
	w.mark++
	w.seen[start] = w.mark
	w.stack = append(w.stack[:0], start)
	for len(w.stack) > 0 {
		x := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		visit(x)
		for _, y := range adj[at[x]:at[x+1]] {
			if w.work++; w.work > maxDependencyWork {
				return false
			}
			if w.seen[y] != w.mark {
				w.seen[y] = w.mark
				w.stack = append(w.stack, y)
			}
		}
	}
	return true
}

// meet reports whether two sorted lists share an element.
func meet(a, b []int32) bool {
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] == b[0]:
			return true
		case a[0] < b[0]:
			a = a[1:]
		default:
			b = b[1:]
		}
	}
	return false
}

// A seed is a leaf's known value: a node, or a base when given with the
// network's bases.
type seed struct {
	at  int32
	val bool
}

// The three values of kleene, unknown the zero value.
const (
	valUnknown int8 = iota
	valFalse
	valTrue
)

// kleene evaluates a network in three values from some leaves' values,
// every other leaf unknown. Only the gates the known leaves reach are
// evaluated, in order of level, so a run costs what it reaches.
type kleene struct {
	net      *network
	outStart []int32 // the gates reading node n: outs[outStart[n]:outStart[n+1]]
	outs     []int32
	val      []int8
	queued   []bool
	byLevel  [][]int32
	set      []int32 // the nodes given a value by the run, to reset
	work     int
}

func newKleene(net *network) *kleene {
	count := len(net.thr)
	k := &kleene{net: net, outStart: make([]int32, count+1), val: make([]int8, count), queued: make([]bool, count)}
	// outs from ins: network.outs bypasses NOT gates (bypassNots), while
	// this evaluation reads every gate as built.
	for _, in := range net.ins {
		k.outStart[in+1]++
	}
	for i := range count {
		k.outStart[i+1] += k.outStart[i]
	}
	k.outs = make([]int32, len(net.ins))
	fill := slices.Clone(k.outStart[:count])
	for n := range count {
		for _, in := range net.ins[net.inStart[n]:net.inStart[n+1]] {
			k.outs[fill[in]] = int32(n)
			fill[in]++
		}
	}
	maxLevel := int32(0)
	for _, l := range net.level {
		maxLevel = max(maxLevel, l)
	}
	k.byLevel = make([][]int32, maxLevel+1)
	return k
}

// value returns node n's value after a run.
func (k *kleene) value(n int32) int8 {
	switch n {
	case nodeTrue:
		return valTrue
	case nodeFalse:
		return valFalse
	}
	return k.val[n]
}

// run gives the seeds their values, each a base of bases when bases is not
// nil and else a node, and evaluates the gates they reach.
func (k *kleene) run(seeds []seed, bases []int32) {
	net := k.net
	lo := len(k.byLevel)
	push := func(n int32) {
		for _, o := range k.outs[k.outStart[n]:k.outStart[n+1]] {
			if k.queued[o] || net.cycle[o] >= 0 {
				continue // a gate in a cycle stays unknown
			}
			k.queued[o] = true
			k.set = append(k.set, o)
			l := int(net.level[o])
			k.byLevel[l] = append(k.byLevel[l], o)
			lo = min(lo, l)
		}
	}
	for _, s := range seeds {
		n := s.at
		if bases != nil {
			n = bases[s.at]
		}
		if n == nodeTrue || n == nodeFalse || k.val[n] != valUnknown {
			continue
		}
		k.val[n] = valFalse
		if s.val {
			k.val[n] = valTrue
		}
		k.set = append(k.set, n)
		push(n)
	}
	for l := lo; l < len(k.byLevel); l++ {
		// Gates of a level read only lower levels: each is evaluated
		// once, after every input it reads.
		for i := 0; i < len(k.byLevel[l]); i++ {
			n := k.byLevel[l][i]
			if v := k.eval(n); v != valUnknown {
				k.val[n] = v
				push(n)
			}
		}
		k.byLevel[l] = k.byLevel[l][:0]
	}
}

// eval returns gate n's value from its inputs'.
func (k *kleene) eval(n int32) int8 {
	net := k.net
	ins := net.ins[net.inStart[n]:net.inStart[n+1]]
	k.work += len(ins)
	var t, u int32
	for _, in := range ins {
		switch k.value(in) {
		case valTrue:
			t++
		case valUnknown:
			u++
		}
	}
	thr := net.thr[n]
	if thr > 0 { // true when at least thr inputs are
		switch {
		case t >= thr:
			return valTrue
		case t+u < thr:
			return valFalse
		}
		return valUnknown
	}
	// NOT: true when fewer than -thr inputs are.
	switch {
	case t+u < -thr:
		return valTrue
	case t >= -thr:
		return valFalse
	}
	return valUnknown
}

// reset makes every node unknown again and returns the work of the run.
func (k *kleene) reset() int {
	for _, n := range k.set {
		k.val[n] = valUnknown
		k.queued[n] = false
	}
	k.set = k.set[:0]
	w := k.work
	k.work = 0
	return w
}

// bestGoal returns the position, in the goal network gn's goals of role,
// of its highest numeric goal, or -1 when it has none.
func (gn *network) bestGoal(role int) int {
	best := -1
	for i, p := range gn.goals[role] {
		if !p.bad && (best < 0 || p.value > gn.goals[role][best].value) {
			best = i
		}
	}
	return best
}
