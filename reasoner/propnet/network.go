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

// perceptProp is a sees proposition: a percept of one role.
type perceptProp struct {
	node    int32
	percept reasoner.Percept
}

type goalProp struct {
	node  int32
	value int
	text  string // the value as written, when it is not a number
	bad   bool
}

// build grounds d and compiles its network. Each step below is a function
// of its own: ground the rules; give every ground atom a node and every
// rule instance a gate (addLeaves, addInstances); name the propositions
// the reasoner reads (addOutputs); optimise the graph; lay it out as the
// network that plays, the one that scores and, in GDL-II, the one that
// perceives (layoutPlayNetwork, layoutGoalNetwork, layoutSeesNetwork);
// and add phase networks where they pay off.
func build(ctx context.Context, d *gdl.Description, limits Limits) (*network, error) {
	start := time.Now()
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
	gr.dropJoinData()
	var stats Stats
	stats.Terms, stats.Instances = len(gr.ts.terms), gr.ninst
	stats.Rewritten = !gr.noDemand || !gr.noSplit
	stats.Ground = time.Since(start)
	graphStart := time.Now()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: time limit reached after grounding (%v)", ErrBudget, err)
	}

	b, err := newNetBuilder(d, gr, mem)
	if err != nil {
		return nil, err
	}
	b.stats = stats
	b.addLeaves()
	if err := b.addInstances(ctx); err != nil {
		return nil, err
	}
	b.addOutputs()
	repl, keep, err := b.optimise(ctx)
	if err != nil {
		return nil, err
	}
	b.setInitialState(repl)
	group := b.controlGroup(keep)
	if repl, keep, err = b.layoutPlayNetwork(repl, keep, group); err != nil {
		return nil, err
	}
	if err := b.layoutGoalNetwork(repl); err != nil {
		return nil, err
	}
	if err := b.layoutSeesNetwork(repl); err != nil {
		return nil, err
	}
	net := b.net
	b.stats.Cycles = net.cycleNodes() + net.goalNet.cycleNodes()
	if net.seesNet != nil {
		b.stats.Cycles += net.seesNet.cycleNodes()
	}
	b.addPhases(ctx, start, repl, keep, group)
	b.stats.Phases = len(net.phases)
	b.stats.Build = time.Since(graphStart)
	net.stats = b.stats
	return net, nil
}

// dropJoinData lets go of what served the joins only: the relations'
// indexes, the join plans and their statistics. The network is built
// from the instances and atoms alone.
func (g *grounder) dropJoinData() {
	for _, r := range g.rels {
		r.indexes = nil
	}
	g.stats, g.plans, g.statSeen = nil, nil, nil
}

// netBuilder holds what the steps of build share while they turn the
// grounded rules into a graph and the graph into a network.
type netBuilder struct {
	gr        *grounder
	ts        *termStore
	mem       *memoryBudget
	roleTerms []termID // per role: its term
	g         *graph
	net       *network // the network that plays, filled in step by step

	// nodeOf and negOf hold the node of each atom and of its negation,
	// by term, -1 for none.
	nodeOf, negOf []int32
	bases         []baseProp // sorted by the text of their facts

	// The propositions of the game by their nodes in g (see proto): play
	// those the network that plays reads, goals the goals.
	play  proto
	goals [][]goalProp
	sees  [][]perceptProp // per role, sorted by percept; nil without sees
	inits []int32         // per base: the node of its init

	// outputs are the nodes the network that plays computes (legal,
	// terminal and next), goalOutputs those the one that scores does,
	// seesOutputs those the one that perceives does, and allOutputs all.
	outputs, goalOutputs, seesOutputs, allOutputs []int32

	stats Stats
}

// baseProp is a base proposition: the atom (true fact), its fact and
// the fact's text.
type baseProp struct {
	atom, fact termID
	text       string
}

// newNetBuilder starts a network for the game d, grounded as gr, with
// an empty graph.
func newNetBuilder(d *gdl.Description, gr *grounder, mem *memoryBudget) (*netBuilder, error) {
	ts := gr.ts
	roles, roleTerms := rolesOf(d, ts)
	if len(roles) == 0 {
		return nil, errors.New("no roles")
	}
	b := &netBuilder{
		gr: gr, ts: ts, mem: mem, roleTerms: roleTerms, g: newGraph(),
		net:    &network{roles: roles},
		nodeOf: make([]int32, len(ts.terms)),
		negOf:  make([]int32, len(ts.terms)),
	}
	for i := range b.nodeOf {
		b.nodeOf[i], b.negOf[i] = -1, -1
	}
	return b, nil
}

// atoms returns the ground atoms of the relation name/arity.
func (b *netBuilder) atoms(name string, arity int) []termID {
	if i, ok := b.gr.relIDs[[2]int32{b.ts.symbol(name), int32(arity)}]; ok {
		return b.gr.rels[i].atoms
	}
	return nil
}

// lookupAtom returns the atom name(args...), and whether it can hold.
func (b *netBuilder) lookupAtom(name string, args ...termID) (termID, bool) {
	id, ok := b.ts.lookup(b.ts.symbol(name), args)
	return id, ok && b.gr.isPossible(id)
}

// derived returns the node of the atom a, an OR of the gates that derive
// it, added on first use; nodeTrue when a's relation always holds. It is
// called for every atom of every rule instance: the atoms already seen
// return here, inlined, and only the first use of one makes a call.
func (b *netBuilder) derived(a termID) int32 {
	if n := b.nodeOf[a]; n >= 0 {
		return n
	}
	return b.addDerived(a)
}

// addDerived adds the node of the atom a for derived.
func (b *netBuilder) addDerived(a termID) int32 {
	if b.gr.isCertain(a) {
		return nodeTrue // derived, so it holds
	}
	n := b.g.add(kOr)
	b.nodeOf[a] = n
	return n
}

// node returns the node of the atom name(args...), nodeFalse when it
// cannot hold.
func (b *netBuilder) node(name string, args ...termID) int32 {
	if a, ok := b.lookupAtom(name, args...); ok {
		return b.derived(a)
	}
	return nodeFalse
}

// addLeaves adds the leaves of the graph: a node per base proposition, in
// the order of their facts' text, so that a state's facts come out
// sorted, and one per input proposition (does).
func (b *netBuilder) addLeaves() {
	ts := b.ts
	for _, a := range b.atoms(gdl.KeyTrue, 1) {
		f := ts.terms[a].args[0]
		b.bases = append(b.bases, baseProp{a, f, ts.format(f)})
	}
	slices.SortFunc(b.bases, func(x, y baseProp) int { return strings.Compare(x.text, y.text) })
	b.play.bases = make([]int32, len(b.bases))
	for j, base := range b.bases {
		b.nodeOf[base.atom] = b.g.add(kBase)
		b.play.bases[j] = b.nodeOf[base.atom]
		b.net.facts = append(b.net.facts, reasoner.Fact(base.text))
	}
	inputs := b.atoms(gdl.KeyDoes, 2)
	for _, a := range inputs {
		b.nodeOf[a] = b.g.add(kInput)
	}
	b.stats.Bases, b.stats.Inputs = len(b.bases), len(inputs)
}

// addInstances adds a gate per ground rule instance: the AND of its
// positive atoms and of the negations of its negative ones, read by the
// OR of its head. A negative atom that can never hold is left out.
func (b *netBuilder) addInstances(ctx context.Context) error {
	gr, g := b.gr, b.g
	var ins []int32
	// The inputs of the ANDs, cut from shared blocks: one allocation per
	// block rather than per gate. Each slice is capped, so that a later
	// append copies it rather than writing over the next gate's.
	var block []int32
	for k, rest := 0, gr.instances; len(rest) > 0; k++ {
		if k&65535 == 65535 {
			if ctx.Err() != nil {
				return fmt.Errorf("%w: time limit reached building the network (%v)", ErrBudget, ctx.Err())
			}
			if err := b.mem.check(); err != nil {
				return err
			}
		}
		head, npos, nneg := rest[0], int(rest[1]), int(rest[2])
		pos, neg := rest[3:3+npos], rest[3+npos:3+npos+nneg]
		rest = rest[3+npos+nneg:]
		ins = ins[:0]
		for _, a := range pos {
			ins = append(ins, b.derived(a))
		}
		for _, a := range neg {
			if !gr.isPossible(a) {
				continue // never true: its negation always holds
			}
			n := b.negOf[a]
			if n < 0 {
				n = g.add(kNot, b.derived(a))
				b.negOf[a] = n
			}
			ins = append(ins, n)
		}
		h := b.derived(head)
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
	return nil
}

// addOutputs names the propositions the reasoner reads by their nodes:
// the legal moves and the input of each, the goals, terminal, and each
// base's next and init.
func (b *netBuilder) addOutputs() {
	n := len(b.net.roles)
	b.play.legal = make([][]legalProp, n)
	b.goals = make([][]goalProp, n)
	b.play.moveIndex = make([]map[reasoner.Move]int32, n)
	b.addLegal()
	b.indexMoves()
	b.addGoals()
	b.play.terminal = b.node(gdl.KeyTerminal)
	b.outputs = append(b.outputs, b.play.terminal)
	b.addNextAndInit()
	b.addSees()
}

// role returns the index of the role whose term is t, -1 for none.
func (b *netBuilder) role(t termID) int { return slices.Index(b.roleTerms, t) }

// addLegal adds each role's legal propositions, sorted by move, with the
// input of the same move, and lists the moves in the network.
func (b *netBuilder) addLegal() {
	ts, legal := b.ts, b.play.legal
	for _, a := range b.atoms(gdl.KeyLegal, 2) {
		args := ts.terms[a].args
		ri := b.role(args[0])
		if ri < 0 {
			continue
		}
		p := legalProp{node: b.derived(a), input: -1, move: reasoner.Move(ts.format(args[1]))}
		if da, ok := b.lookupAtom(gdl.KeyDoes, args[0], args[1]); ok {
			p.input = b.nodeOf[da]
		}
		legal[ri] = append(legal[ri], p)
		b.outputs = append(b.outputs, p.node)
	}
	b.net.moves = make([][]reasoner.Move, len(legal))
	for ri := range legal {
		slices.SortFunc(legal[ri], func(x, y legalProp) int { return strings.Compare(string(x.move), string(y.move)) })
		for _, p := range legal[ri] {
			b.net.moves[ri] = append(b.net.moves[ri], p.move)
		}
	}
}

// indexMoves maps each role's moves to their input propositions.
func (b *netBuilder) indexMoves() {
	ts, index := b.ts, b.play.moveIndex
	for _, a := range b.atoms(gdl.KeyDoes, 2) {
		args := ts.terms[a].args
		ri := b.role(args[0])
		if ri < 0 {
			continue
		}
		if index[ri] == nil {
			index[ri] = map[reasoner.Move]int32{}
		}
		index[ri][reasoner.Move(ts.format(args[1]))] = b.nodeOf[a]
	}
}

// addGoals adds each role's goal propositions with their values; one
// whose value is not a number is marked bad.
func (b *netBuilder) addGoals() {
	ts := b.ts
	for _, a := range b.atoms(gdl.KeyGoal, 2) {
		args := ts.terms[a].args
		ri := b.role(args[0])
		if ri < 0 {
			continue
		}
		p := goalProp{node: b.derived(a), text: ts.format(args[1])}
		v, err := strconv.Atoi(p.text)
		p.value, p.bad = v, err != nil
		b.goals[ri] = append(b.goals[ri], p)
		b.goalOutputs = append(b.goalOutputs, p.node)
	}
}

// addNextAndInit adds each base's next and init propositions.
func (b *netBuilder) addNextAndInit() {
	b.play.next = make([]int32, len(b.bases))
	b.inits = make([]int32, len(b.bases))
	for j, base := range b.bases {
		b.play.next[j] = b.node(gdl.KeyNext, base.fact)
		b.inits[j] = b.node(gdl.KeyInit, base.fact)
		b.outputs = append(b.outputs, b.play.next[j])
	}
}

// addSees adds each role's sees propositions, sorted by percept. A
// percept is a term like any other, keywords inside it included; a sees
// rule that reads next reads the gate that computes the next state. A game
// without sees rules has none, and no network that perceives.
func (b *netBuilder) addSees() {
	ts := b.ts
	for _, a := range b.atoms(gdl.KeySees, 2) {
		args := ts.terms[a].args
		ri := b.role(args[0])
		if ri < 0 {
			continue
		}
		if b.sees == nil {
			b.sees = make([][]perceptProp, len(b.net.roles))
		}
		p := perceptProp{node: b.derived(a), percept: reasoner.Percept(ts.format(args[1]))}
		b.sees[ri] = append(b.sees[ri], p)
		b.seesOutputs = append(b.seesOutputs, p.node)
	}
	for _, ps := range b.sees {
		slices.SortFunc(ps, func(x, y perceptProp) int { return strings.Compare(string(x.percept), string(y.percept)) })
	}
}

// optimise optimises the graph for every output, with terminal, the goals
// and the legal moves as its queries, and returns the node that computes
// each node and the nodes left.
func (b *netBuilder) optimise(ctx context.Context) (repl []int32, keep []bool, err error) {
	g := b.g
	b.stats.NodesBefore, b.stats.LinksBefore = g.size(nil)
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("%w: time limit reached building the network (%v)", ErrBudget, err)
	}
	b.allOutputs = append(append(slices.Clip(b.outputs), b.goalOutputs...), b.seesOutputs...)
	queries := appendLegalNodes(append([]int32{b.play.terminal}, b.goalOutputs...), b.play.legal)
	repl, keep, err = g.optimise(ctx, b.mem, b.allOutputs, queries)
	if err != nil {
		return nil, nil, err
	}
	b.stats.NodesAfter, b.stats.LinksAfter = g.size(keep)
	return repl, keep, nil
}

// setInitialState sets the network's initial state: the bases whose init
// the optimised graph, repl, found true.
func (b *netBuilder) setInitialState(repl []int32) {
	initial := make([]uint64, (len(b.bases)+63)/64)
	for j, n := range b.inits {
		if repl[n] == nodeTrue {
			initial[j/64] |= 1 << (j % 64)
		}
	}
	b.net.initial = initial
}

// controlGroup returns the bases that say whose turn it is (see the
// function of the same name in phase.go), as indices, or nil.
func (b *netBuilder) controlGroup(keep []bool) []int {
	baseFacts := make([]termID, len(b.bases))
	for j, base := range b.bases {
		baseFacts[j] = base.fact
	}
	return controlGroup(b.ts, b.roleTerms, baseFacts, b.g.readers(keep, b.play.bases))
}

// layoutPlayNetwork lays out the network that plays: legal moves,
// terminal and the next state. It reads the turn out of its legal moves
// (gate.go), which adds gates to the graph: it returns repl and keep
// grown to cover them. (Phase networks, built from b.play, have the
// turn as a constant.)
func (b *netBuilder) layoutPlayNetwork(repl []int32, keep []bool, group []int) ([]int32, []bool, error) {
	g, net := b.g, b.net
	general := b.play
	general.legal, net.legalGate, net.gated = g.gateLegal(keep, repl, &b.play, group, b.allOutputs)
	for len(repl) < len(g.kinds) {
		repl = append(repl, int32(len(repl)))
		keep = append(keep, false)
	}
	resolved := func(n int32) int32 { return repl[n] }
	outputs := appendLegalNodes(append([]int32{general.terminal}, general.next...), general.legal)
	if err := net.layout(g, repl, g.reaching(outputs, resolved), &general, repl); err != nil {
		return nil, nil, err
	}
	return repl, keep, nil
}

// layoutGoalNetwork lays out the network that scores. Goals are read at
// the end of a game, legal moves, terminal and the next state at every
// step: the goals get a network of their own, so that what only they
// read (in games that count pieces, most of the network) is not kept up
// to date while a game is played.
func (b *netBuilder) layoutGoalNetwork(repl []int32) error {
	g, net := b.g, b.net
	resolved := func(n int32) int32 { return repl[n] }
	gn := &network{roles: net.roles, initial: net.initial, terminal: nodeFalse}
	if err := gn.layout(g, repl, g.reaching(b.goalOutputs, resolved), &proto{bases: b.play.bases, goals: b.goals}, repl); err != nil {
		return err
	}
	net.goals = nil
	net.goalNet = gn
	return nil
}

// layoutSeesNetwork lays out the network that perceives, in a game with
// sees rules: the percepts, from a state and a joint move. Percepts are
// read once a step, by a game master or a player told of the step, never
// in a playout: a network of their own keeps them, and what only they
// read, out of the one that plays.
func (b *netBuilder) layoutSeesNetwork(repl []int32) error {
	if b.sees == nil {
		return nil
	}
	g, net := b.g, b.net
	resolved := func(n int32) int32 { return repl[n] }
	sn := &network{roles: net.roles, initial: net.initial, terminal: nodeFalse}
	pr := &proto{bases: b.play.bases, moveIndex: b.play.moveIndex, sees: b.sees}
	if err := sn.layout(g, repl, g.reaching(b.seesOutputs, resolved), pr, repl); err != nil {
		return err
	}
	net.seesNet = sn
	return nil
}

// addPhases gives the network that plays a network for the states where
// one role is in control, when the game says so with facts of its own
// (group), and when they pay off. A failure leaves the game with the one
// network. A phase network fixes moves, so none is built for a game whose
// legal moves or terminal read the moves. start is when build began.
func (b *netBuilder) addPhases(ctx context.Context, start time.Time, repl []int32, keep []bool, group []int) {
	net := b.net
	if len(group) <= 1 || net.queriesReadInputs {
		return
	}
	pctx, cancel := context.WithTimeout(ctx, max(phaseTime, 2*time.Since(start)))
	defer cancel()
	net.phases, net.phaseBits, _ = buildPhases(pctx, b.mem, b.g, keep, repl, b.outputs, &b.play, group, net)
	deadline, _ := pctx.Deadline()
	if len(net.phases) > 0 && !net.phasesPayOff(calibrationSteps(net), deadline) {
		net.phases, net.phaseBits = nil, nil
	}
}

// proto names the propositions of a game by their nodes in the graph.
type proto struct {
	bases, next []int32
	legal       [][]legalProp
	moveIndex   []map[reasoner.Move]int32
	goals       [][]goalProp
	sees        [][]perceptProp
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
	if pr.sees != nil {
		net.sees = make([][]perceptProp, len(pr.sees))
		for ri, ps := range pr.sees {
			net.sees[ri] = slices.Clone(ps)
			for i := range net.sees[ri] {
				net.sees[ri][i].node = at(net.sees[ri][i].node)
			}
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
