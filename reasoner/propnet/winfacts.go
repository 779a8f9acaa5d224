package propnet

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/ggp-go/ggp/reasoner"
)

// Wins conditioned on a few facts of the state (reasoner.WinReader): in
// connect four a disc dropped into a column wins when three of the
// role's discs stand in a line with the square it lands on, and the square
// below is taken. Decisive moves (decisive.go) are the wins that need no
// fact; these need some, and a playout tests them against its state.
//
// Finding them is two steps. A generator regresses the role's best goal
// and the terminal, both read in the next state, through the network
// that computes the next state, to terms: conjunctions of facts of the
// current state and moves, each sufficient for the role to win (a bounded
// disjunctive normal form, in which dropping terms keeps every remaining
// one sufficient, so every bound only loses wins). A term with the role's
// move and no other role's move is a candidate. A verifier then runs the
// three-valued step of decisive.go with the candidate's move played and
// its facts known, every other fact and every other role's move unknown,
// and keeps it only if the terminal and the best goal come out true: what
// the generator gets wrong, the verifier rejects.

// Bounds of the search for wins on facts. maxWinWork bounds, per role, the
// literals written and compared by the generator and the gate inputs read
// by the verifier, which bounds the time (BenchmarkWinConditions).
const (
	maxWinTerms    = 4096 // terms kept per node and polarity
	maxWinFacts    = 10   // facts per term
	maxWinDepth    = 256  // gates read below the goal, terminal and next
	maxWinCombos   = 64   // subsets read of a threshold gate that is neither AND nor OR
	maxWinPatterns = 1 << 14
	maxWinProduct  = 1 << 16 // pairs of terms merged by a product
	maxWinWork     = 1 << 22
	// winSamples random games from the initial state give how often each
	// fact holds, to test first the fact of a pattern that holds least.
	winSamples     = 16
	winSampleSteps = 200
)

// WinConditions returns, per role, the moves in the numbering of Moves
// that end the game at once with the role's highest goal whatever the
// other roles play, in every state where some facts hold, with those
// facts. Moves that win wherever they are played are DecisiveMoves and
// not among them. The first call finds them, for r and its forks, within
// a bound of time; the caller must not modify the slices.
func (r *Reasoner) WinConditions() [][]reasoner.WinCondition {
	w := r.net.wins
	w.find(r.net)
	return w.conds
}

// winFacts holds the wins on facts once found, and for the playouts, each
// role's as a trie of facts.
type winFacts struct {
	once  sync.Once
	pats  [][]winPattern            // per role, by move
	conds [][]reasoner.WinCondition // pats, as WinConditions returns them
	// tries holds each role's patterns, of all its moves at once, for a
	// playout to find in one walk every move with one that holds; nil
	// for a role without any. some reports that a role has one.
	tries []*winTrie
	some  bool
	// For a playout to choose which moves to try against a win: per
	// role and move, the bases whose next value its input may change
	// (writes), and, for a move with patterns, the bases its patterns
	// and its legality read (guard), sorted; both nil past
	// maxDependencyWork.
	writes, guard [][][]int32
}

// A winTrie is a role's patterns as a trie of facts, in preorder, so that
// patterns sharing facts test them once, whichever their moves (connect
// four's lines of three own discs, one for each of the squares that
// complete them): node k tests the fact nodes[k].test>>2 (plus a
// polarity); if it holds, its moves moves[endAt[k]:endAt[k+1]] win and
// node k+1 is tested next, and if not, nodes[k].skip, past the nodes
// below k. The nodes at the top, which a walk would test one by one (all
// of connect four's squares of the role's colour), are tested all at
// once by word, in groups: only those whose facts hold are read.
type winTrie struct {
	nodes []trieNode
	endAt []int32
	moves []int32
	// groups are the top nodes by word of the state; rootNode holds
	// them, each group's testing a fact that must hold (pos) by bit,
	// then those testing one that must not (neg).
	groups   []rootGroup
	rootNode []int32
}

// A trieNode is a node of a winTrie: test is the base times four, plus
// two when moves win at the node, plus one when the base must not hold.
type trieNode struct {
	test uint32
	skip int32
}

// A rootGroup is the top nodes of a trie testing facts of the state word
// word: a node testing that fact j holds for each bit j of pos, the first
// at rootNode[posAt], then those testing that it does not, from
// rootNode[negAt].
type rootGroup struct {
	word         int32
	posAt, negAt int32
	pos, neg     uint64
}

// holding sets in held, a bitset over the role's moves with all bits
// clear, the moves with a pattern that holds in the state words, and
// reports whether there is one.
func (t *winTrie) holding(words, held []uint64) bool {
	some := false
	for _, g := range t.groups {
		x := words[g.word]
		for hit := x & g.pos; hit != 0; hit &= hit - 1 {
			below := g.pos & (hit&-hit - 1)
			some = t.below(t.rootNode[g.posAt+int32(bits.OnesCount64(below))], words, held) || some
		}
		for hit := ^x & g.neg; hit != 0; hit &= hit - 1 {
			below := g.neg & (hit&-hit - 1)
			some = t.below(t.rootNode[g.negAt+int32(bits.OnesCount64(below))], words, held) || some
		}
	}
	return some
}

// below sets in held, node k's fact holding in the state words, the moves
// that win at k or with a pattern through k that holds, and reports
// whether there is one.
func (t *winTrie) below(k int32, words, held []uint64) bool {
	some := false
	if t.nodes[k].test&2 != 0 {
		t.mark(k, held)
		some = true
	}
	nodes := t.nodes[:t.nodes[k].skip]
	for k++; k < int32(len(nodes)); {
		n := nodes[k]
		j := n.test >> 2
		if uint32(words[j>>6]>>(j&63))&1 == n.test&1 {
			k = n.skip // the fact does not hold
			continue
		}
		if n.test&2 != 0 {
			t.mark(k, held)
			some = true
		}
		k++
	}
	return some
}

// mark sets in held the moves that win at node k.
func (t *winTrie) mark(k int32, held []uint64) {
	for _, m := range t.moves[t.endAt[k]:t.endAt[k+1]] {
		held[m>>6] |= 1 << (m & 63)
	}
}

// holdingPlain is holding reading every pattern of pats, a role's, one
// by one.
func holdingPlain(pats []winPattern, words, held []uint64) bool {
	some := false
	for _, p := range pats {
		all := true
		for _, l := range p.lits {
			j := l >> 1
			all = all && words[j>>6]>>(j&63)&1 != uint64(l&1)
		}
		if all {
			held[p.move>>6] |= 1 << (p.move & 63)
			some = true
		}
	}
	return some
}

// find finds the wins of net, the first time it is called.
func (w *winFacts) find(net *network) {
	w.once.Do(func() {
		w.pats = net.findWinFacts()
		w.conds = make([][]reasoner.WinCondition, len(net.roles))
		for role, pats := range w.pats {
			for _, p := range pats {
				c := reasoner.WinCondition{Move: p.move}
				for _, l := range p.lits {
					if f := net.facts[l>>1]; l&1 == 0 {
						c.Pos = append(c.Pos, f)
					} else {
						c.Neg = append(c.Neg, f)
					}
				}
				w.conds[role] = append(w.conds[role], c)
			}
		}
		w.tries = make([]*winTrie, len(net.roles))
		var freq []float64
		for role, pats := range w.pats {
			if len(pats) == 0 {
				continue
			}
			if freq == nil {
				freq = net.factFrequencies()
			}
			w.tries[role] = newWinTrie(pats, freq)
			w.some = true
		}
		if w.some {
			w.dependencies(net)
		}
	})
}

// newWinTrie returns the trie of a role's patterns. Each node tests the
// fact whose failing rejects the most patterns below it, in expectation:
// the count of the patterns that need it times how often it failed in
// random games.
func newWinTrie(pats []winPattern, freq []float64) *winTrie {
	t := &winTrie{}
	sets := make([]winPattern, len(pats))
	for i, p := range pats {
		sets[i] = winPattern{p.move, slices.Clone(p.lits)}
	}
	var build func(sets []winPattern)
	build = func(sets []winPattern) {
		// How many of sets need each fact, less those placed below the
		// nodes already written: a role's patterns are many, and
		// counting them again for each node would cost their number
		// squared.
		count := map[int32]int{}
		for _, s := range sets {
			for _, l := range s.lits {
				count[l]++
			}
		}
		for len(sets) > 0 {
			best, score := int32(-1), -1.0
			for l, n := range count {
				if sc := float64(n) * (1 - holdRate(freq, l)); sc > score || sc == score && l < best {
					best, score = l, sc
				}
			}
			// The patterns that need best go below it, without it;
			// those with nothing else win at it.
			k := len(t.nodes)
			t.nodes = append(t.nodes, trieNode{test: uint32(best>>1)<<2 | uint32(best&1)})
			t.endAt = append(t.endAt, int32(len(t.moves)))
			var below, rest []winPattern
			for _, s := range sets {
				if i := slices.Index(s.lits, best); i >= 0 {
					for _, l := range s.lits {
						if count[l]--; count[l] == 0 {
							delete(count, l)
						}
					}
					if s.lits = slices.Delete(slices.Clone(s.lits), i, i+1); len(s.lits) == 0 {
						t.moves = append(t.moves, s.move)
					} else {
						below = append(below, s)
					}
				} else {
					rest = append(rest, s)
				}
			}
			if int32(len(t.moves)) > t.endAt[k] {
				t.nodes[k].test |= 2
			}
			build(below)
			t.nodes[k].skip = int32(len(t.nodes))
			sets = rest
		}
	}
	build(sets)
	t.endAt = append(t.endAt, int32(len(t.moves)))
	t.index()
	return t
}

// index sets groups and rootNode.
func (t *winTrie) index() {
	type root struct{ lit, node int32 }
	var top []root
	for k := int32(0); k < int32(len(t.nodes)); k = t.nodes[k].skip {
		n := t.nodes[k]
		top = append(top, root{int32(n.test>>2)<<1 | int32(n.test&1), k})
	}
	// By word, then polarity, then bit; the top nodes never test the
	// same fact (the patterns that need it are all below the first).
	slices.SortFunc(top, func(a, b root) int {
		if a, b := a.lit>>7, b.lit>>7; a != b {
			return int(a - b)
		}
		if a, b := a.lit&1, b.lit&1; a != b {
			return int(a - b)
		}
		return int(a.lit - b.lit)
	})
	for i := 0; i < len(top); {
		g := rootGroup{word: top[i].lit >> 7, posAt: int32(len(t.rootNode))}
		for ; i < len(top) && top[i].lit>>7 == g.word && top[i].lit&1 == 0; i++ {
			g.pos |= 1 << (top[i].lit >> 1 & 63)
			t.rootNode = append(t.rootNode, top[i].node)
		}
		g.negAt = int32(len(t.rootNode))
		for ; i < len(top) && top[i].lit>>7 == g.word; i++ {
			g.neg |= 1 << (top[i].lit >> 1 & 63)
			t.rootNode = append(t.rootNode, top[i].node)
		}
		t.groups = append(t.groups, g)
	}
}

// dependencies sets writes and guard.
func (w *winFacts) dependencies(net *network) {
	moves := make([][]int32, len(net.roles))
	for role, pats := range w.pats {
		for _, p := range pats {
			if n := len(moves[role]); n == 0 || moves[role][n-1] != p.move {
				moves[role] = append(moves[role], p.move)
			}
		}
	}
	guard := net.reads(moves)
	writes := net.writes()
	if guard == nil || writes == nil {
		return
	}
	for role, pats := range w.pats {
		for _, p := range pats {
			g := guard[role][p.move]
			for _, l := range p.lits {
				g = append(g, l>>1)
			}
			slices.Sort(g)
			guard[role][p.move] = slices.Compact(g)
		}
	}
	w.writes, w.guard = writes, guard
}

// writes returns, for every move of every role, the bases whose next
// value may depend on its input (those whose next-state node it reaches),
// sorted; nil past maxDependencyWork.
func (net *network) writes() [][][]int32 {
	k := newKleene(net) // for its outputs of every gate as built
	nextOf := map[int32][]int32{}
	for j, n := range net.next {
		nextOf[n] = append(nextOf[n], int32(j))
	}
	w := newWalker(net)
	out := make([][][]int32, len(net.roles))
	for role, ps := range net.legal {
		out[role] = make([][]int32, len(ps))
		for i, p := range ps {
			if p.input < 0 {
				continue
			}
			var bs []int32
			if !w.walk(p.input, k.outStart, k.outs, func(x int32) { bs = append(bs, nextOf[x]...) }) {
				return nil
			}
			slices.Sort(bs)
			out[role][i] = slices.Compact(bs)
		}
	}
	return out
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// holdRate returns how often the literal l held in the sampled states.
func holdRate(freq []float64, l int32) float64 {
	if l&1 == 0 {
		return freq[l>>1]
	}
	return 1 - freq[l>>1]
}

// factFrequencies returns, for each base, the share of the states of a few
// random games from the initial state in which it holds, the same each
// time.
func (net *network) factFrequencies() []float64 {
	freq := make([]float64, len(net.bases))
	if net.queriesReadInputs {
		return freq
	}
	m := net.newMachine()
	rng := rand.New(rand.NewPCG(1, 2))
	words := make([]uint64, len(net.initial))
	joint := make([]int32, len(net.roles))
	states := 0
	for range winSamples {
		copy(words, net.initial)
	game:
		for range winSampleSteps {
			m.load(words)
			states++
			for j := range freq {
				if words[j/64]&(1<<(j%64)) != 0 {
					freq[j]++
				}
			}
			if m.value(net.terminal) {
				break
			}
			for role, ps := range net.legal {
				lw := m.legalWords(role)
				n := countBits(lw)
				if n == 0 {
					break game
				}
				joint[role] = ps[nthBit(lw, rng.IntN(n))].input
			}
			m.setInputs(joint)
			m.nextState(words)
		}
	}
	for j := range freq {
		freq[j] /= float64(max(states, 1))
	}
	return freq
}

// A winPattern is a move and the facts (literals as in winFacts) in which
// it wins.
type winPattern struct {
	move int32
	lits []int32
}

// findWinFacts returns each role's wins on facts, by move, then by count
// of facts.
func (net *network) findWinFacts() [][]winPattern {
	out := make([][]winPattern, len(net.roles))
	if net.goalNet == nil || net.queriesReadInputs {
		return out
	}
	f := newWinFinder(net)
	for role := range net.roles {
		out[role] = f.roleWins(role)
	}
	return out
}

// A winFinder looks for the wins on facts of each role in turn, sharing
// the variables of the regression and the bound on patterns kept.
type winFinder struct {
	net      *network
	nb       int32           // the number of bases: the first input variable
	vars     map[int32]int32 // base or input node of the network to variable
	goalVars map[int32]int32 // base node of the goal network to variable
	// Inputs are variables nb and up: their roles and move numbers.
	inputRole, inputMove []int32
	st                   *stepper
	goals                *kleene
	work                 int // regression work of the current role
	total                int // patterns kept, over every role
	seeds                []seed
}

func newWinFinder(net *network) *winFinder {
	gn := net.goalNet
	f := &winFinder{
		net:      net,
		nb:       int32(len(net.bases)),
		vars:     make(map[int32]int32, len(net.bases)),
		goalVars: make(map[int32]int32, len(gn.bases)),
		st:       newStepper(net),
		goals:    newKleene(gn),
	}
	for j, n := range net.bases {
		f.vars[n] = int32(j)
	}
	for j, n := range gn.bases {
		f.goalVars[n] = int32(j)
	}
	for role, ps := range net.legal {
		for i, p := range ps {
			if p.input >= 0 {
				if _, dup := f.vars[p.input]; !dup {
					f.vars[p.input] = f.nb + int32(len(f.inputRole))
					f.inputRole = append(f.inputRole, int32(role))
					f.inputMove = append(f.inputMove, int32(i))
				}
			}
		}
	}
	return f
}

// roleWins returns the verified wins on facts of role, by move, then by
// count of facts.
func (f *winFinder) roleWins(role int) []winPattern {
	gn := f.net.goalNet
	best := gn.bestGoal(role)
	if best < 0 {
		return nil
	}
	goal := gn.goals[role][best].node
	// Each role has the same budget: one that needs more is left with
	// what it found within it.
	f.work, f.st.work = 0, 0
	cur := f.regressor(f.net, f.vars, role)
	ends := f.endTerms(cur, f.regressor(gn, f.goalVars, role), goal)
	cands := f.candidates(cur, ends)
	sortWinPatterns(cands)
	return f.verified(role, cands, goal)
}

func (f *winFinder) regressor(on *network, vars map[int32]int32, role int) *regressor {
	return &regressor{net: on, vars: vars, nb: f.nb, inputRole: f.inputRole, role: int32(role), memo: map[int64][][]int32{}, work: &f.work}
}

// endTerms returns terms over the next state for the goal and the
// terminal: a term of the goal alone where it makes the terminal true (a
// line of four, both), and else with a term of the terminal's, read only
// then.
func (f *winFinder) endTerms(cur, onGoals *regressor, goal int32) [][]int32 {
	var ends, unended [][]int32
	for _, t := range onGoals.terms(goal, false, 0) {
		if f.terminalWith(t) {
			ends = append(ends, t)
		} else {
			unended = append(unended, t)
		}
	}
	if len(unended) > 0 {
		ends = append(ends, cur.product(unended, cur.terms(f.net.terminal, false, 0))...)
	}
	return ends
}

// terminalWith reports whether the facts lits (a base's variable times
// two, plus one where it is false) make the state terminal.
func (f *winFinder) terminalWith(lits []int32) bool {
	f.seeds = f.seeds[:0]
	for _, l := range lits {
		f.seeds = append(f.seeds, seed{l >> 1, l&1 == 0})
	}
	st := f.st
	st.states.run(f.seeds, f.net.bases)
	ended := st.states.value(f.net.terminal) == valTrue
	st.work += st.states.reset()
	return ended
}

// candidates regresses each end term through the next-state functions to
// the terms of one move of the role, which ends the term, and facts.
func (f *winFinder) candidates(cur *regressor, ends [][]int32) []winPattern {
	var cands []winPattern
	for _, t := range ends {
		acc := always
		for _, l := range t {
			if acc = cur.product(acc, cur.terms(f.net.next[l>>1], l&1 == 1, 0)); len(acc) == 0 {
				break
			}
		}
		for _, c := range acc {
			if k := len(c); k > 1 && c[k-1]>>1 >= f.nb && c[k-1]&1 == 0 && c[k-2]>>1 < f.nb {
				v := c[k-1]>>1 - f.nb
				cands = append(cands, winPattern{f.inputMove[v], c[:k-1]})
			}
		}
	}
	return cands
}

// sortWinPatterns sorts patterns by move, then by count of facts, then by
// facts.
func sortWinPatterns(pats []winPattern) {
	slices.SortFunc(pats, func(a, b winPattern) int {
		if a.move != b.move {
			return int(a.move - b.move)
		}
		if len(a.lits) != len(b.lits) {
			return len(a.lits) - len(b.lits)
		}
		return slices.Compare(a.lits, b.lits)
	})
}

// verified returns the candidates, sorted, that the verifier shows to win
// for role, without duplicates and those another kept one subsumes,
// within the bounds on patterns and work.
func (f *winFinder) verified(role int, cands []winPattern, goal int32) []winPattern {
	var kept []winPattern
	for i, c := range cands {
		if i > 0 && c.move == cands[i-1].move && slices.Equal(c.lits, cands[i-1].lits) {
			continue
		}
		if f.total >= maxWinPatterns || f.work+f.st.work > maxWinWork {
			break
		}
		if subsumed(kept, c) {
			continue
		}
		// Facts that make the state terminal already say nothing for a
		// playout, which asks in live states only.
		if f.terminalWith(c.lits) {
			continue
		}
		// The verifier's seeds: the move played, the role's other moves
		// not, and the facts.
		f.seeds = f.seeds[:0]
		for i, p := range f.net.legal[role] {
			if p.input >= 0 {
				f.seeds = append(f.seeds, seed{p.input, int32(i) == c.move})
			}
		}
		for _, l := range c.lits {
			f.seeds = append(f.seeds, seed{f.net.bases[l>>1], l&1 == 0})
		}
		if f.st.wins(f.seeds, f.goals, goal) {
			kept = append(kept, winPattern{c.move, slices.Clone(c.lits)})
			f.total++
		}
	}
	return kept
}

// subsumed reports whether a pattern of pats, sorted by move and then by
// count of facts, for c's move has facts all among c's: c then says
// nothing more.
func subsumed(pats []winPattern, c winPattern) bool {
	for i := len(pats) - 1; i >= 0 && pats[i].move == c.move; i-- {
		if subset(pats[i].lits, c.lits) {
			return true
		}
	}
	return false
}

// subset reports whether the sorted list a is a subset of the sorted list b.
func subset(a, b []int32) bool {
	for _, x := range a {
		for len(b) > 0 && b[0] < x {
			b = b[1:]
		}
		if len(b) == 0 || b[0] != x {
			return false
		}
		b = b[1:]
	}
	return true
}

// always is the terms of what always holds: one term without literals.
var always = [][]int32{{}}

// A regressor writes, for a node of a network and a polarity, a bounded
// list of terms each sufficient for the node to take that value: sorted
// lists of literals, each a variable times two, plus one when negated. A
// variable is a base (its number), or an input (nb and up) of role, the
// role whose wins are sought: a term that needs another role's move, or
// its absence, says nothing of what wins whatever they play, and none is
// written. A term with two moves of role never holds and is dropped; in a
// term with one, the other moves' absence goes without saying and is
// left out.
type regressor struct {
	net       *network
	vars      map[int32]int32 // leaf node to variable
	nb        int32           // the first input variable
	inputRole []int32         // role of input variable nb+k
	role      int32
	memo      map[int64][][]int32
	work      *int // literals written, shared by the regressors of a search
}

// terms returns the terms of node n with value !neg. Past a bound, it
// returns fewer (none: nil), each still sufficient.
func (g *regressor) terms(n int32, neg bool, depth int) [][]int32 {
	switch n {
	case nodeTrue, nodeFalse:
		if (n == nodeTrue) != neg {
			return always
		}
		return nil
	}
	key := int64(n) << 1
	if neg {
		key |= 1
	}
	if t, ok := g.memo[key]; ok {
		return t
	}
	t := g.read(n, neg, depth)
	g.memo[key] = t
	return t
}

func (g *regressor) read(n int32, neg bool, depth int) [][]int32 {
	net := g.net
	if *g.work > maxWinWork || depth > maxWinDepth || net.cycle[n] >= 0 || net.thr[n] == inCycle {
		return nil
	}
	var nl int32
	if neg {
		nl = 1
	}
	if net.leaf[n] {
		v, ok := g.vars[n]
		if !ok || v >= g.nb && g.inputRole[v-g.nb] != g.role {
			return nil
		}
		return [][]int32{{v<<1 | nl}}
	}
	ins := net.ins[net.inStart[n]:net.inStart[n+1]]
	k, thr := len(ins), int(net.thr[n])
	// The node has its value when at least need of its inputs have the
	// value !childNeg.
	var need int
	var childNeg bool
	switch {
	case thr > 0 && !neg: // at least thr true
		need = thr
	case thr > 0: // fewer than thr true: more than k-thr false
		need, childNeg = k-thr+1, true
	case !neg: // fewer than -thr true
		need, childNeg = k+thr+1, true
	default: // at least -thr true
		need = -thr
	}
	return g.atLeast(ins, need, childNeg, depth+1)
}

// atLeast returns the terms of at least need of ins having value !neg.
func (g *regressor) atLeast(ins []int32, need int, neg bool, depth int) [][]int32 {
	switch {
	case need <= 0:
		return always
	case need > len(ins):
		return nil
	case need == 1:
		var out [][]int32
		for _, in := range ins {
			t := g.terms(in, neg, depth)
			if len(t) == 1 && len(t[0]) == 0 {
				return always
			}
			out = append(out, t...)
		}
		return g.normalise(out)
	case need == len(ins):
		acc := always
		for _, in := range ins {
			if acc = g.product(acc, g.terms(in, neg, depth)); len(acc) == 0 {
				return nil
			}
		}
		return acc
	}
	if binomialOver(len(ins), need, maxWinCombos) {
		return nil
	}
	var out [][]int32
	pick := make([]int32, 0, need)
	var walk func(from int)
	walk = func(from int) {
		if len(pick) == need {
			acc := always
			for _, in := range pick {
				if acc = g.product(acc, g.terms(in, neg, depth)); len(acc) == 0 {
					return
				}
			}
			out = append(out, acc...)
			return
		}
		for i := from; i <= len(ins)-(need-len(pick)); i++ {
			pick = append(pick, ins[i])
			walk(i + 1)
			pick = pick[:len(pick)-1]
		}
	}
	walk(0)
	return g.normalise(out)
}

// binomialOver reports whether n choose k exceeds limit.
func binomialOver(n, k, limit int) bool {
	c := 1
	for i := range k {
		c = c * (n - i) / (i + 1)
		if c > limit {
			return true
		}
	}
	return false
}

// product returns the terms of both a and b holding: the merge of a term
// of each. A term of one that holds a term of the other is kept alone, for
// every merge with it holds it.
func (g *regressor) product(a, b [][]int32) [][]int32 {
	if len(a) == 0 || len(b) == 0 {
		return nil
	}
	if len(a) == 1 && len(a[0]) == 0 {
		return b
	}
	if len(b) == 1 && len(b[0]) == 0 {
		return a
	}
	// Past maxWinProduct pairs, the longer terms of the larger side are
	// left out (both are sorted shortest first).
	for len(a)*len(b) > maxWinProduct {
		if len(a) >= len(b) {
			a = a[:max(1, maxWinProduct/len(b))]
		} else {
			b = b[:max(1, maxWinProduct/len(a))]
		}
	}
	var out [][]int32
	// holdsOne reports whether x holds a term of ts.
	holdsOne := func(x []int32, ts [][]int32) bool {
		if *g.work > maxWinWork {
			return false
		}
		*g.work += len(ts) * (len(x) + 1)
		for _, y := range ts {
			if len(y) <= len(x) && subset(y, x) {
				return true
			}
		}
		return false
	}
	var restA, restB [][]int32
	for _, x := range a {
		if holdsOne(x, b) {
			out = append(out, x)
		} else {
			restA = append(restA, x)
		}
	}
	for _, y := range b {
		if holdsOne(y, a) {
			out = append(out, y)
		} else {
			restB = append(restB, y)
		}
	}
	for _, x := range restA {
		if *g.work > maxWinWork {
			break
		}
		for _, y := range restB {
			if m := g.merge(x, y); m != nil {
				out = append(out, m)
			}
		}
		if len(out) > 4*maxWinTerms {
			out = g.normalise(out)
		}
	}
	return g.normalise(out)
}

// merge returns the union of the terms a and b, or nil when it never holds
// (a literal and its negation, two moves of the role) or has too many
// facts.
func (g *regressor) merge(a, b []int32) []int32 {
	m := make([]int32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			m = append(m, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			m = append(m, b[j])
			j++
		default:
			m = append(m, a[i])
			i, j = i+1, j+1
		}
	}
	*g.work += len(m)
	facts, moves := 0, 0
	for k, l := range m {
		if k > 0 && l>>1 == m[k-1]>>1 {
			return nil // l and its negation
		}
		switch {
		case l>>1 < g.nb:
			facts++
		case l&1 == 0:
			moves++
		}
	}
	if facts > maxWinFacts || moves > 1 {
		return nil
	}
	if moves == 1 {
		// The move's literal is the only input left.
		keep := m[:facts]
		for _, l := range m[facts:] {
			if l&1 == 0 {
				keep = append(keep, l)
			}
		}
		m = keep
	}
	return m
}

// normalise sorts terms by length, then literals, drops repeats and those
// holding a shorter one when few, and keeps at most maxWinTerms.
func (g *regressor) normalise(ts [][]int32) [][]int32 {
	*g.work += 16 * len(ts) // the sort
	slices.SortFunc(ts, func(a, b []int32) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return slices.Compare(a, b)
	})
	ts = slices.CompactFunc(ts, slices.Equal)
	if len(ts) <= 64 {
		out := ts[:0]
		for _, t := range ts {
			held := false
			for _, s := range out {
				if len(s) < len(t) && subset(s, t) {
					held = true
					break
				}
			}
			if !held {
				out = append(out, t)
			}
		}
		*g.work += len(ts) * len(ts)
		ts = out
	}
	if len(ts) > maxWinTerms {
		ts = ts[:maxWinTerms]
	}
	return ts
}
