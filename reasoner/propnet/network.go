package propnet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// Stats describe a grounded game and its network.
type Stats struct {
	Terms     int // ground terms and atoms interned
	Instances int // ground rule instances
	Bases     int // base propositions: the bits of a state
	Inputs    int // input propositions: the moves
	// The network before optimisation and after: nodes (constants,
	// leaves and gates) and links (gate inputs).
	NodesBefore, LinksBefore int
	NodesAfter, LinksAfter   int
	Cycles                   int           // gates in cycles, evaluated to a fixpoint
	Phases                   int           // phase networks (phase.go), 0 when none pay off
	Ground, Build            time.Duration // time to ground, to build and optimise
	// Rewritten tells that the rules did not ground as written and were
	// rewritten (unfold.go, split.go, demand.go).
	Rewritten bool
}

func (s Stats) String() string {
	rewritten := ""
	if s.Rewritten {
		rewritten = " (rules rewritten)"
	}
	return fmt.Sprintf("%d bases, %d inputs; %d nodes and %d links, %d and %d after optimisation (%d in cycles), %d phase networks; grounded in %v%s, built in %v",
		s.Bases, s.Inputs, s.NodesBefore, s.LinksBefore, s.NodesAfter, s.LinksAfter, s.Cycles, s.Phases,
		s.Ground.Round(time.Millisecond), rewritten, s.Build.Round(time.Millisecond))
}

type legalProp struct {
	node  int32 // the legal proposition
	input int32 // the matching does proposition, -1 if none
	move  reasoner.Move
}

type goalProp struct {
	node  int32
	value int
	text  string // the value as written, when it is not a number
	bad   bool
}

// build grounds d and compiles its network.
func build(ctx context.Context, d *gdl.Description, limits Limits) (*network, error) {
	start := time.Now()
	buildStart := start
	// Some passes over a large graph cannot stop half way: the work aims
	// at nine tenths of the time left, so that one under way when the
	// deadline comes still ends before it.
	if deadline, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, start.Add(time.Until(deadline)*9/10))
		defer cancel()
	}
	limits = limits.withDefaults()
	mem := newMemoryBudget(limits.MaxMemory)
	gr, err := groundRules(ctx, d, limits, mem)
	if err != nil {
		return nil, err
	}
	// The indexes, statistics and plans served the joins only.
	for _, r := range gr.rels {
		r.indexes = nil
	}
	gr.stats, gr.plans, gr.statSeen = nil, nil, nil
	var stats Stats
	stats.Terms, stats.Instances = len(gr.ts.terms), gr.ninst
	stats.Rewritten = !gr.noDemand || !gr.noSplit
	stats.Ground = time.Since(start)
	start = time.Now()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: time limit reached after grounding (%v)", ErrBudget, err)
	}

	ts := gr.ts
	roles, roleTerms := rolesOf(d, ts)
	if len(roles) == 0 {
		return nil, errors.New("no roles")
	}
	atoms := func(name string, arity int) []termID {
		if i, ok := gr.relIDs[[2]int32{ts.symbol(name), int32(arity)}]; ok {
			return gr.rels[i].atoms
		}
		return nil
	}
	lookupAtom := func(name string, args ...termID) (termID, bool) {
		id, ok := ts.lookup(ts.symbol(name), args)
		return id, ok && gr.isPossible(id)
	}

	g := newGraph()
	// The node of each atom and of its negation, by term, -1 for none.
	nodeOf := make([]int32, len(ts.terms))
	negOf := make([]int32, len(ts.terms))
	for i := range nodeOf {
		nodeOf[i], negOf[i] = -1, -1
	}
	// Bases, in the order of their facts' text, so a state's facts come
	// out sorted.
	type base struct {
		atom termID // (true fact)
		fact termID
		text string
	}
	var bases []base
	for _, a := range atoms(gdl.KeyTrue, 1) {
		f := ts.terms[a].args[0]
		bases = append(bases, base{a, f, ts.format(f)})
	}
	slices.SortFunc(bases, func(a, b base) int { return strings.Compare(a.text, b.text) })
	net := &network{roles: roles}
	for _, b := range bases {
		nodeOf[b.atom] = g.add(kBase)
		net.facts = append(net.facts, reasoner.Fact(b.text))
	}
	for _, a := range atoms(gdl.KeyDoes, 2) {
		nodeOf[a] = g.add(kInput)
	}
	derived := func(a termID) int32 {
		if n := nodeOf[a]; n >= 0 {
			return n
		}
		if gr.isCertain(a) {
			return nodeTrue // derived, so it holds
		}
		n := g.add(kOr)
		nodeOf[a] = n
		return n
	}
	var ins []int32
	// The inputs of the ANDs, cut from shared blocks: one allocation per
	// block rather than per gate. Each slice is capped, so that a later
	// append copies it rather than writing over the next gate's.
	var block []int32
	for k, rest := 0, gr.instances; len(rest) > 0; k++ {
		if k&65535 == 65535 {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%w: time limit reached building the network (%v)", ErrBudget, ctx.Err())
			}
			if err := mem.check(); err != nil {
				return nil, err
			}
		}
		head, npos, nneg := rest[0], int(rest[1]), int(rest[2])
		pos, neg := rest[3:3+npos], rest[3+npos:3+npos+nneg]
		rest = rest[3+npos+nneg:]
		ins = ins[:0]
		for _, a := range pos {
			ins = append(ins, derived(a))
		}
		for _, a := range neg {
			if !gr.isPossible(a) {
				continue // never true: its negation always holds
			}
			n := negOf[a]
			if n < 0 {
				n = g.add(kNot, derived(a))
				negOf[a] = n
			}
			ins = append(ins, n)
		}
		h := derived(head)
		switch len(ins) {
		case 0:
			g.ins[h] = append(g.ins[h], nodeTrue)
		case 1:
			g.ins[h] = append(g.ins[h], ins[0])
		default:
			if len(block)+len(ins) > cap(block) {
				block = make([]int32, 0, max(1<<16, len(ins)))
			}
			at := len(block)
			block = append(block, ins...)
			g.ins[h] = append(g.ins[h], g.add(kAnd, block[at:len(block):len(block)]...))
		}
	}
	gr.instances = nil // no longer needed; let them go

	// The outputs of the network that plays (legal, terminal and next)
	// and of the one that scores (goals).
	var outputs, goalOutputs []int32
	node := func(name string, args ...termID) int32 {
		if a, ok := lookupAtom(name, args...); ok {
			return derived(a)
		}
		return nodeFalse
	}
	net.legal = make([][]legalProp, len(roles))
	net.goals = make([][]goalProp, len(roles))
	net.moveIndex = make([]map[reasoner.Move]int32, len(roles))
	for _, a := range atoms(gdl.KeyLegal, 2) {
		args := ts.terms[a].args
		ri := slices.Index(roleTerms, args[0])
		if ri < 0 {
			continue
		}
		p := legalProp{node: derived(a), input: -1, move: reasoner.Move(ts.format(args[1]))}
		if da, ok := lookupAtom(gdl.KeyDoes, args[0], args[1]); ok {
			p.input = nodeOf[da]
		}
		net.legal[ri] = append(net.legal[ri], p)
		outputs = append(outputs, p.node)
	}
	net.moves = make([][]reasoner.Move, len(roles))
	for ri := range roles {
		slices.SortFunc(net.legal[ri], func(a, b legalProp) int { return strings.Compare(string(a.move), string(b.move)) })
		for _, p := range net.legal[ri] {
			net.moves[ri] = append(net.moves[ri], p.move)
		}
	}
	for _, a := range atoms(gdl.KeyDoes, 2) {
		args := ts.terms[a].args
		ri := slices.Index(roleTerms, args[0])
		if ri < 0 {
			continue
		}
		if net.moveIndex[ri] == nil {
			net.moveIndex[ri] = map[reasoner.Move]int32{}
		}
		net.moveIndex[ri][reasoner.Move(ts.format(args[1]))] = nodeOf[a]
	}
	for _, a := range atoms(gdl.KeyGoal, 2) {
		args := ts.terms[a].args
		ri := slices.Index(roleTerms, args[0])
		if ri < 0 {
			continue
		}
		p := goalProp{node: derived(a), text: ts.format(args[1])}
		v, err := strconv.Atoi(p.text)
		p.value, p.bad = v, err != nil
		net.goals[ri] = append(net.goals[ri], p)
		goalOutputs = append(goalOutputs, p.node)
	}
	net.terminal = node(gdl.KeyTerminal)
	outputs = append(outputs, net.terminal)
	next := make([]int32, len(bases))
	inits := make([]int32, len(bases))
	for j, b := range bases {
		next[j] = node(gdl.KeyNext, b.fact)
		inits[j] = node(gdl.KeyInit, b.fact)
		outputs = append(outputs, next[j])
	}

	stats.NodesBefore, stats.LinksBefore = g.size(nil)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: time limit reached building the network (%v)", ErrBudget, err)
	}
	all := append(slices.Clip(outputs), goalOutputs...)
	queries := appendLegalNodes(append([]int32{net.terminal}, goalOutputs...), net.legal)
	repl, keep, err := g.optimise(ctx, mem, all, queries)
	if err != nil {
		return nil, err
	}
	resolved := func(n int32) int32 { return repl[n] }
	stats.NodesAfter, stats.LinksAfter = g.size(keep)
	net.initial = make([]uint64, (len(bases)+63)/64)
	for j, n := range inits {
		if repl[n] == nodeTrue {
			net.initial[j/64] |= 1 << (j % 64)
		}
	}
	// Goals are read at the end of a game, legal moves, terminal and the
	// next state at every step: the goals get a network of their own, so
	// that what only they read (in games that count pieces, most of the
	// network) is not kept up to date while a game is played.
	baseFacts := make([]termID, len(bases))
	for j, b := range bases {
		baseFacts[j] = b.fact
	}
	goals := net.goals
	pr := &proto{next: next, legal: net.legal, moveIndex: net.moveIndex, terminal: net.terminal}
	for _, b := range bases {
		pr.bases = append(pr.bases, nodeOf[b.atom])
	}
	group := controlGroup(ts, roleTerms, baseFacts, g.readers(keep, pr.bases))
	// The general network reads the turn out of its legal moves (gate.go);
	// phase networks, built from pr, have the turn as a constant.
	general := *pr
	general.legal, net.legalGate, net.gated = g.gateLegal(keep, repl, pr, group, all)
	for len(repl) < len(g.kinds) {
		repl = append(repl, int32(len(repl)))
		keep = append(keep, false)
	}
	generalOutputs := appendLegalNodes(append([]int32{general.terminal}, general.next...), general.legal)
	if err := net.layout(g, repl, g.reaching(generalOutputs, resolved), &general, repl); err != nil {
		return nil, err
	}
	gn := &network{roles: roles, initial: net.initial, terminal: nodeFalse}
	if err := gn.layout(g, repl, g.reaching(goalOutputs, resolved), &proto{bases: pr.bases, goals: goals}, repl); err != nil {
		return nil, err
	}
	net.goals = nil
	net.goalNet = gn
	stats.Bases, stats.Inputs = len(bases), len(atoms(gdl.KeyDoes, 2))
	stats.Cycles = net.cycleNodes() + gn.cycleNodes()
	// Networks for the states where one role is in control, when the
	// game says so with facts of its own: a failure leaves the game with
	// the one network. A phase network fixes moves, so none is built for
	// a game whose legal moves or terminal read the moves.
	if len(group) > 1 && !net.queriesReadInputs {
		pctx, cancel := context.WithTimeout(ctx, max(phaseTime, 2*time.Since(buildStart)))
		net.phases, net.phaseBits, _ = buildPhases(pctx, mem, g, keep, repl, outputs, pr, group, net)
		deadline, _ := pctx.Deadline()
		if len(net.phases) > 0 && !net.phasesPayOff(calibrationSteps(net), deadline) {
			net.phases, net.phaseBits = nil, nil
		}
		cancel()
	}
	stats.Phases = len(net.phases)
	stats.Build = time.Since(start)
	net.stats = stats
	return net, nil
}

// proto names the propositions of a game by their nodes in the graph.
type proto struct {
	bases, next []int32
	legal       [][]legalProp
	moveIndex   []map[reasoner.Move]int32
	goals       [][]goalProp
	terminal    int32
}

// layout compiles the nodes keep of the optimised graph g, whose nodes
// repl maps to those that compute them, into net, with the propositions
// of pr, whose nodes are computed by the nodes protoAt maps them to.
func (net *network) layout(g *graph, repl []int32, keep []bool, pr *proto, protoAt []int32) error {
	if err := net.compile(g, repl, keep); err != nil {
		return err
	}
	at := func(n int32) int32 { return net.renum[protoAt[n]] }
	net.bases = make([]int32, len(pr.bases))
	for j, n := range pr.bases {
		net.bases[j] = at(n)
	}
	net.next = make([]int32, len(pr.next))
	for j, n := range pr.next {
		net.next[j] = at(n)
	}
	net.legal = make([][]legalProp, len(pr.legal))
	for ri, ps := range pr.legal {
		net.legal[ri] = slices.Clone(ps)
		for i := range net.legal[ri] {
			p := &net.legal[ri][i]
			p.node = at(p.node)
			if p.input >= 0 {
				p.input = at(p.input)
			}
		}
	}
	net.goals = make([][]goalProp, len(pr.goals))
	for ri, ps := range pr.goals {
		net.goals[ri] = slices.Clone(ps)
		for i := range net.goals[ri] {
			net.goals[ri][i].node = at(net.goals[ri][i].node)
		}
	}
	net.moveIndex = make([]map[reasoner.Move]int32, len(pr.moveIndex))
	for ri, moves := range pr.moveIndex {
		net.moveIndex[ri] = make(map[reasoner.Move]int32, len(moves))
		for m, n := range moves {
			net.moveIndex[ri][m] = at(n)
		}
	}
	net.terminal = at(pr.terminal)
	net.renum = nil
	net.queriesReadInputs = net.readsInputs()
	net.indexWatched()
	net.bypassNots()
	net.prepare()
	return nil
}

// rolesOf returns the roles the description states as facts, in order.
func rolesOf(d *gdl.Description, ts *termStore) ([]string, []termID) {
	var names []string
	var ids []termID
	for _, r := range d.Rules {
		if !r.IsFact() || r.Head.Name.Name != gdl.KeyRole || len(r.Head.Args) != 1 {
			continue
		}
		c, ok := r.Head.Args[0].(*gdl.Const)
		if !ok || slices.Contains(names, c.Name) {
			continue
		}
		names = append(names, c.Name)
		ids = append(ids, ts.intern(ts.symbol(c.Name), nil))
	}
	return names, ids
}

// appendLegalNodes appends the node of every legal proposition of legal,
// role by role, to dst.
func appendLegalNodes(dst []int32, legal [][]legalProp) []int32 {
	for _, ps := range legal {
		for _, p := range ps {
			dst = append(dst, p.node)
		}
	}
	return dst
}
