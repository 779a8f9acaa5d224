package propnet

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"
)

// Phase networks. Most turn-taking games say whose turn it is with a fact
// per role, such as (control white). Every legal move of a role reads its
// fact, so in one network the turn passing flips the fact and visits every
// move of both roles, each step; and a rule such as "a cell keeps its piece
// unless the move played touches it" reads every move of every role. A
// phase network is the network specialised to the states where one role's
// fact holds and the others' do not: those facts are constants, the moves
// that cannot be legal there are false, the only move that can be is
// true, and an OR over most of a role's
// remaining moves is the negation of an OR over the rest (complementInputs).
// The reasoner plays a state in the phase network of its turn, and in the
// general network when no or several turn facts hold, or when a move given
// is not legal (the phase network assumes legal moves).

// maxPhaseLinks bounds the networks given phase networks: each is a copy,
// optimised again. Building them also gets at most phaseTime, or twice the
// time the network took so far if that is more, so that a large game's
// start is not held up by what only makes it faster.
const (
	maxPhaseLinks = 1 << 20
	phaseTime     = 3 * time.Second
)

// controlGroup returns the bases (by index) whose facts have one argument,
// a role, and share their name with at least one other such base: of the
// groups of such bases, the one whose bases the most gates read
// (readers[j] for base j), or nil.
func controlGroup(ts *termStore, roleTerms []termID, facts []termID, readers []int) []int {
	if len(roleTerms) < 2 {
		return nil
	}
	bySym := map[int32][]int{}
	var syms []int32
	for j, f := range facts {
		t := &ts.terms[f]
		if len(t.args) != 1 || !slices.Contains(roleTerms, t.args[0]) {
			continue
		}
		if _, ok := bySym[t.sym]; !ok {
			syms = append(syms, t.sym)
		}
		bySym[t.sym] = append(bySym[t.sym], j)
	}
	var best []int
	bestReaders := 0
	for _, s := range syms {
		g := bySym[s]
		n := 0
		for _, j := range g {
			n += readers[j]
		}
		if len(g) > 1 && n > bestReaders {
			best, bestReaders = g, n
		}
	}
	return best
}

// readers returns how many of the nodes keep read each node of nodes.
func (g *graph) readers(keep []bool, nodes []int32) []int {
	count := make([]int, len(g.kinds))
	for n, in := range g.ins {
		if keep[n] {
			for _, i := range in {
				count[i]++
			}
		}
	}
	out := make([]int, len(nodes))
	for j, n := range nodes {
		out[j] = count[n]
	}
	return out
}

// clone returns a copy of the nodes keep of g, which own copies of their
// inputs; the gates left out are constants in the copy.
func (g *graph) clone(keep []bool) *graph {
	c := &graph{kinds: slices.Clone(g.kinds), ins: make([][]int32, len(g.ins))}
	for n, in := range g.ins {
		if keep[n] {
			c.ins[n] = slices.Clone(in)
		} else if !g.isLeaf(int32(n)) {
			c.kinds[n] = kFalse
		}
	}
	return c
}

// substitute replaces every read of node n by to[n] where to[n] >= 0.
func (g *graph) substitute(to []int32) {
	for _, in := range g.ins {
		for j, i := range in {
			if int(i) < len(to) && to[i] >= 0 {
				in[j] = to[i]
			}
		}
	}
}

// buildPhases returns a phase network per base of group, and the bases'
// indices, or nil when the graph is too large or a budget runs out. g,
// keep, repl and outputs are the optimised graph, its nodes left, its
// replacements and the outputs of the network that plays; pr names the
// propositions in g; main is the general network, whose shared parts the
// phases point to.
func buildPhases(ctx context.Context, mem *memoryBudget, g *graph, keep []bool, repl []int32, outputs []int32, pr *proto, group []int, main *network) ([]*network, []int32, error) {
	if _, links := g.size(keep); links > maxPhaseLinks {
		return nil, nil, nil
	}
	var phases []*network
	var bits []int32
	for _, j := range group {
		ph, err := buildPhase(ctx, mem, g, keep, repl, outputs, pr, group, j, main)
		if err != nil {
			return nil, nil, err
		}
		phases = append(phases, ph)
		bits = append(bits, int32(j))
	}
	return phases, bits, nil
}

// buildPhase returns the phase network of the states where base on of
// group holds and the others do not.
func buildPhase(ctx context.Context, mem *memoryBudget, g *graph, keep []bool, repl []int32, outputs []int32, pr *proto, group []int, on int, main *network) (*network, error) {
	g = g.clone(keep)
	// at maps each node of pr, through every optimisation, to the node
	// that computes it.
	at := slices.Clone(repl)
	outs := make([]int32, len(outputs))
	for i, o := range outputs {
		outs[i] = repl[o]
	}
	var last []int32
	optimise := func() error {
		r, _, err := g.optimise(ctx, mem, outs, nil)
		if err != nil {
			return err
		}
		for i := range outs {
			outs[i] = r[outs[i]]
		}
		for n := range at {
			at[n] = r[at[n]]
		}
		last = r
		return nil
	}
	to := func() []int32 {
		to := make([]int32, len(g.kinds))
		for i := range to {
			to[i] = -1
		}
		return to
	}
	sub := to()
	for _, j := range group {
		sub[pr.bases[j]] = nodeFalse
		if j == on {
			sub[pr.bases[j]] = nodeTrue
		}
	}
	g.substitute(sub)
	if err := optimise(); err != nil {
		return nil, err
	}
	// The moves that cannot be legal here are not played here.
	legal := make([]bool, len(g.kinds))
	roleInputs := make([][]int32, len(pr.legal))
	for ri, ps := range pr.legal {
		for _, p := range ps {
			if p.input >= 0 && at[p.node] != nodeFalse {
				legal[p.input] = true
				roleInputs[ri] = append(roleInputs[ri], p.input)
			}
		}
		slices.Sort(roleInputs[ri])
		roleInputs[ri] = slices.Compact(roleInputs[ri])
	}
	sub = to()
	for _, moves := range pr.moveIndex {
		for _, n := range moves {
			if !legal[n] {
				sub[n] = nodeFalse
			}
		}
	}
	// A role with one move that can be legal plays it.
	for _, ins := range roleInputs {
		if len(ins) == 1 {
			sub[ins[0]] = nodeTrue
		}
	}
	g.substitute(sub)
	if err := optimise(); err != nil {
		return nil, err
	}
	queries := []int32{at[pr.terminal]}
	for _, ps := range pr.legal {
		for _, p := range ps {
			queries = append(queries, at[p.node])
		}
	}
	resolved := func(n int32) int32 { return last[n] }
	if g.inputFunctions(g.reaching(outs, resolved), g.reaching(queries, resolved), last, roleInputs) {
		if err := optimise(); err != nil {
			return nil, err
		}
	}
	if g.complementInputs(g.reaching(outs, resolved), g.reaching(queries, resolved), last, roleInputs) {
		if err := optimise(); err != nil {
			return nil, err
		}
	}
	ph := &network{roles: main.roles, initial: main.initial}
	if err := ph.layout(g, last, g.reaching(outs, resolved), pr, at); err != nil {
		return nil, err
	}
	return ph, nil
}

// phaseOf returns the index of the only base of bits set in words, or -1
// when none or several are.
func phaseOf(bits []int32, words []uint64) int {
	p := -1
	for i, j := range bits {
		if words[j/64]&(1<<(j%64)) != 0 {
			if p >= 0 {
				return -1
			}
			p = i
		}
	}
	return p
}

// phasesPayOff reports whether random playouts from the initial state cost
// less with the phase networks than with the general one alone. A phase
// network spares the turn passing, but sees the changes of as many plies
// as there are roles, each of them once per network: in connect four,
// where the turn fact feeds little and a move a lot, the one network is
// cheaper. The cost of a step is counted, not timed, so the choice does
// not depend on the machine's load: the outputs of every node whose value
// the step changed and the links followed recomputing cycles, over the same playouts (both draw the same moves) of
// at most steps steps, or until deadline.
func (net *network) phasesPayOff(steps int, deadline time.Time) bool {
	general, ok := net.stepCost(false, steps, deadline)
	if !ok {
		return false
	}
	phased, ok := net.stepCost(true, steps, deadline)
	return ok && phased < 0.85*general
}

// stepCost returns the mean cost of a step (see phasesPayOff) of random
// playouts, with the phase networks or without, and false when it could
// not play them.
func (net *network) stepCost(phases bool, steps int, deadline time.Time) (float64, bool) {
	general := net.newMachine()
	machines := make([]*machine, len(net.phases))
	loaded := map[*machine]bool{}
	pick := func(words []uint64) (*network, *machine) {
		p := -1
		if phases {
			p = phaseOf(net.phaseBits, words)
		}
		if p < 0 {
			return net, general
		}
		if machines[p] == nil {
			machines[p] = net.phases[p].newMachine()
		}
		return net.phases[p], machines[p]
	}
	var before []bool
	cost := func(m *machine, f func()) int {
		before = before[:0]
		for _, st := range m.st {
			before = append(before, st >= 0)
		}
		work := m.cycleWork
		f()
		c := m.cycleWork - work
		for n, v := range before {
			if v != m.value(int32(n)) {
				fo := m.net.fan[n]
				c += int(fo.end - fo.start)
			}
		}
		return c
	}
	rng := rand.New(rand.NewPCG(1, 2))
	cur := slices.Clone(net.initial)
	var joint []int32
	total := 0
	for step := range steps {
		if step&15 == 15 && time.Now().After(deadline) {
			return 0, false
		}
		pn, m := pick(cur)
		if loaded[m] {
			total += cost(m, func() { loadQuery(pn, m, cur) })
		} else {
			loadQuery(pn, m, cur) // from no state at all: not a step's cost
			loaded[m] = true
		}
		if m.value(pn.terminal) {
			copy(cur, net.initial)
			continue
		}
		joint = joint[:0]
		for role, ps := range pn.legal {
			words := m.legalWords(role)
			n := countBits(words)
			if n == 0 {
				return 0, false
			}
			in := ps[nthBit(words, rng.IntN(n))].input
			if in < 0 {
				return 0, false
			}
			joint = append(joint, in)
		}
		total += cost(m, func() { m.setInputs(joint) })
		m.nextState(cur)
	}
	return float64(total) / float64(steps), true
}

// calibrationSteps returns how many steps phasesPayOff plays: 200, fewer
// for networks so large that comparing their values each step costs much.
func calibrationSteps(net *network) int {
	nodes := len(net.thr)
	for _, p := range net.phases {
		nodes += len(p.thr)
	}
	return min(200, max(20, 4_000_000/max(nodes, 1)))
}
