package propnet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ggp-go/ggp/gdl/scc"
)

// gate kinds of the network under construction.
//
// Each node owns the slice of its inputs, which the optimisation rewrites
// in place.
type kind uint8

const (
	kFalse kind = iota // the constant false, node 0
	kTrue              // the constant true, node 1
	kBase              // a base proposition: a fact of the state
	kInput             // an input proposition: a role's move
	kAnd
	kOr
	kNot
)

// graph is the network under construction and optimisation: each node a
// constant, a leaf (base or input) or a gate over its inputs.
type graph struct {
	kinds []kind
	ins   [][]int32
}

func newGraph() *graph {
	g := &graph{}
	g.add(kFalse)
	g.add(kTrue)
	return g
}

const (
	nodeFalse int32 = 0
	nodeTrue  int32 = 1
)

func (g *graph) add(k kind, ins ...int32) int32 {
	g.kinds = append(g.kinds, k)
	g.ins = append(g.ins, ins)
	return int32(len(g.kinds) - 1)
}

func (g *graph) isLeaf(n int32) bool {
	k := g.kinds[n]
	return k == kFalse || k == kTrue || k == kBase || k == kInput
}

// links counts the edges of the nodes in keep (all when keep is nil).
func (g *graph) size(keep []bool) (nodes, links int) {
	for n := range g.kinds {
		if keep == nil || keep[n] {
			nodes++
			links += len(g.ins[n])
		}
	}
	return nodes, links
}

// sccs returns the strongly connected components of the graph whose edges
// run from a node to its inputs, inputs first.
func sccs(ctx context.Context, n int, ins func(int32) []int32) [][]int32 {
	return sccsOf(ctx, n, nil, ins)
}

// sccsOf returns the strongly connected components of the nodes in keep
// (all when keep is nil), inputs first; edges to nodes left out are
// ignored. Once ctx is done it stops following edges, so that it ends
// soon, with components the caller must not use.
func sccsOf(ctx context.Context, n int, keep []bool, ins func(int32) []int32) [][]int32 {
	// Local numbers for the nodes kept.
	local := make([]int32, n)
	var nodes []int32
	for v := range n {
		local[v] = -1
		if keep == nil || keep[v] {
			local[v] = int32(len(nodes))
			nodes = append(nodes, int32(v))
		}
	}
	m := len(nodes)
	start := make([]int, m+1)
	edges := 0
	for _, v := range nodes {
		edges += len(ins(v))
	}
	adj := make([]int, 0, edges)
	for i, v := range nodes {
		if i&65535 == 65535 && ctx.Err() != nil {
			return nil
		}
		for _, w := range ins(v) {
			if local[w] >= 0 {
				adj = append(adj, int(local[w]))
			}
		}
		start[i+1] = len(adj)
	}
	calls, done := 0, false
	comp, count := scc.Components(m, func(v int) []int {
		if calls++; calls&65535 == 0 && ctx.Err() != nil {
			done = true
		}
		if done {
			return nil
		}
		return adj[start[v]:start[v+1]]
	})
	// The components share one array, each a slice of it.
	size := make([]int, count+1)
	for _, c := range comp {
		size[c+1]++
	}
	for c := range count {
		size[c+1] += size[c]
	}
	flat := make([]int32, m)
	fill := slices.Clone(size[:count])
	for i, c := range comp {
		flat[fill[c]] = nodes[i]
		fill[c]++
	}
	comps := make([][]int32, count)
	for c := range comps {
		comps[c] = flat[size[c]:size[c+1]:size[c+1]]
	}
	return comps
}

// cyclic reports whether component comp has a cycle: more than one node,
// or a node that is its own input.
func cyclic(comp []int32, ins func(int32) []int32) bool {
	return len(comp) > 1 || slices.Contains(ins(comp[0]), comp[0])
}

// maxFactorings bounds the inputs factored out of one OR per round: each
// costs a pass over the OR's inputs.
const maxFactorings = 64

var errNegationCycle = errors.New("negation inside a recursion of the ground network (rules not stratified)")

// evaluate computes every node's value with every leaf false but the
// constant true, and a cycle's least fixpoint. The values of nodes that
// depend on no leaf are their values in every state.
func (g *graph) evaluate(comps [][]int32) ([]bool, error) {
	val := make([]bool, len(g.kinds))
	val[nodeTrue] = true
	ins := func(n int32) []int32 { return g.ins[n] }
	for _, comp := range comps {
		if !cyclic(comp, ins) {
			val[comp[0]] = g.gateValue(comp[0], val)
			continue
		}
		for _, n := range comp {
			if g.kinds[n] == kNot {
				return nil, errNegationCycle
			}
		}
		for changed := true; changed; {
			changed = false
			for _, n := range comp {
				if !val[n] && g.gateValue(n, val) {
					val[n] = true
					changed = true
				}
			}
		}
	}
	return val, nil
}

// gateValue evaluates node n from its inputs' values; a leaf keeps its own.
func (g *graph) gateValue(n int32, val []bool) bool {
	switch g.kinds[n] {
	case kAnd:
		for _, i := range g.ins[n] {
			if !val[i] {
				return false
			}
		}
		return true
	case kOr:
		for _, i := range g.ins[n] {
			if val[i] {
				return true
			}
		}
		return false
	case kNot:
		return !val[g.ins[n][0]]
	}
	return val[n]
}

// optimise folds constants, bypasses single-input gates, merges identical
// gates and drops the nodes that reach none of outputs. It returns repl,
// which maps each node to the node that now computes it, and keep, the
// nodes left. Leaves are never removed: bases and inputs name the state
// and the moves.
//
// queries, those of outputs read between moves (legal moves, terminal,
// goals), or nil when all are, tell factor which gates only the next state
// reads.
func (g *graph) optimise(ctx context.Context, mem *memoryBudget, outputs, queries []int32) (repl []int32, keep []bool, err error) {
	o := &optimiser{g: g, ctx: ctx, mem: mem}
	comps := sccs(ctx, len(g.kinds), g.inputsOf)
	if err := o.expired(); err != nil {
		return nil, nil, err
	}
	val, err := g.evaluate(comps)
	if err != nil {
		return nil, nil, err
	}
	if err := o.expired(); err != nil {
		return nil, nil, err
	}
	o.repl = g.foldConstants(comps, val)
	for round := 0; ; round++ {
		more, err := o.round(round, outputs, queries)
		if err != nil {
			return nil, nil, err
		}
		if !more {
			break
		}
	}
	for n := range o.repl {
		o.repl[n] = o.find(int32(n))
	}
	keep = g.reaching(outputs, o.find)
	return o.repl, keep, nil
}

// An optimiser holds the state of one optimise: the replacements found so
// far, and the deadline and heap looked at between passes.
type optimiser struct {
	g    *graph
	ctx  context.Context
	mem  *memoryBudget
	repl []int32 // each node to the node that computes it, or one nearer
}

// expired returns why the optimisation must stop, if it must: each step
// is a pass over the whole graph, and the deadline and the heap are
// looked at between them.
func (o *optimiser) expired() error {
	if err := o.ctx.Err(); err != nil {
		return fmt.Errorf("%w: time limit reached optimising the network (%v)", ErrBudget, err)
	}
	return o.mem.check()
}

// find returns the node that now computes n.
func (o *optimiser) find(n int32) int32 {
	for o.repl[n] != n {
		n = o.repl[n]
	}
	return n
}

// remap makes every gate read the nodes that now compute its inputs.
func (o *optimiser) remap() {
	for n := range o.g.ins {
		for j, i := range o.g.ins[n] {
			o.g.ins[n][j] = o.find(i)
		}
	}
}

// round runs one round of merging, absorption (the first round only) and
// factoring over the nodes some output reads, and reports whether another
// round is worth its time.
func (o *optimiser) round(round int, outputs, queries []int32) (more bool, err error) {
	g, ctx := o.g, o.ctx
	if err := o.expired(); err != nil {
		return false, err
	}
	roundStart := time.Now()
	o.remap()
	// Only the nodes some output reads are worth the work.
	live := g.reaching(outputs, o.find)
	if err := o.expired(); err != nil {
		return false, err
	}
	comps := sccsOf(ctx, len(g.kinds), live, g.inputsOf)
	if err := o.expired(); err != nil {
		return false, err
	}
	// In dependency order; a second pass sees what the first did to the
	// nodes of cycles.
	passes := 1
	for _, comp := range comps {
		if cyclic(comp, g.inputsOf) {
			passes = 2
			break
		}
	}
	for pass := 0; pass < passes; pass++ {
		if !g.mergePass(ctx, comps, live, o.repl, o.find) {
			return false, fmt.Errorf("%w: time limit reached optimising the network (%v)", ErrBudget, ctx.Err())
		}
	}
	o.remap()
	if round == 3 {
		return false, nil
	}
	if last := time.Since(roundStart); !timeLeft(ctx, 3*last) {
		// Another round and the layout would not fit: the layout alone,
		// about two rounds, must.
		if !timeLeft(ctx, 2*last) {
			return false, fmt.Errorf("%w: time limit near optimising the network: no time to lay it out", ErrBudget)
		}
		return false, nil
	}
	if round == 0 {
		// Once: it makes no gate, so nothing for the next round to merge.
		g.absorb(ctx, comps, live, o.repl)
	}
	query := live
	if queries != nil {
		query = g.reaching(queries, o.find)
	}
	var changed bool
	o.repl, changed = g.factor(ctx, live, o.repl, g.readCounts(live, outputs, o.find), g.outputSet(outputs, o.find), query)
	return changed, nil
}

// inputsOf returns the nodes gate n reads.
func (g *graph) inputsOf(n int32) []int32 { return g.ins[n] }

// foldConstants returns the first replacements of optimise: nodes that
// depend on no base or input are constants, replaced by their value in
// val; comps are the graph's strongly connected components in dependency
// order.
func (g *graph) foldConstants(comps [][]int32, val []bool) []int32 {
	dynamic := make([]bool, len(g.kinds))
	for _, comp := range comps {
		d := false
		for _, n := range comp {
			if k := g.kinds[n]; k == kBase || k == kInput {
				d = true
			}
			for _, i := range g.ins[n] {
				d = d || dynamic[i]
			}
		}
		for _, n := range comp {
			dynamic[n] = d
		}
	}
	repl := make([]int32, len(g.kinds))
	for n := range repl {
		repl[n] = int32(n)
		if !dynamic[n] {
			repl[n] = nodeFalse
			if val[n] {
				repl[n] = nodeTrue
			}
		}
	}
	return repl
}

// timeLeft reports whether ctx leaves more than d. Each round of
// optimisation leaves a correct network: another round is started when the
// time left covers it and the layout, about two rounds (alexChess: 0.94
// CPU-seconds to lay out, 0.6 for the first round, the largest); when it
// does not, a game is laid out and played with a network less merged
// rather than not at all, if the layout fits. The first rounds matter:
// factoring, after the first, is what shrinks chess_200 from 359k nodes
// to 50k.
func timeLeft(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return !ok || time.Until(deadline) > d
}

// reaching returns the nodes that some output reads, and the constants and
// leaves, which are always kept.
func (g *graph) reaching(outputs []int32, find func(int32) int32) []bool {
	keep := make([]bool, len(g.kinds))
	var stack []int32
	mark := func(n int32) {
		if !keep[n] {
			keep[n] = true
			stack = append(stack, n)
		}
	}
	mark(nodeFalse)
	mark(nodeTrue)
	for n, k := range g.kinds {
		if k == kBase || k == kInput {
			mark(int32(n))
		}
	}
	for _, o := range outputs {
		mark(find(o))
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, i := range g.ins[n] {
			mark(find(i))
		}
	}
	return keep
}

// mergePass simplifies every gate in dependency order, replacing it by a
// constant, by its only input, or by an identical gate met before.
func (g *graph) mergePass(ctx context.Context, comps [][]int32, live []bool, repl []int32, find func(int32) int32) bool {
	// Gates by a hash of their kind and inputs; those whose hash another
	// gate has already are in more.
	merged := make(map[uint64]int32, len(g.kinds)/4)
	more := map[uint64][]int32{}
	for c, comp := range comps {
		if c&4095 == 4095 && ctx.Err() != nil {
			return false
		}
		for _, n := range comp {
			if !live[n] || g.isLeaf(n) || repl[n] != n {
				continue
			}
			g.simplify(n, find)
			if k := g.kinds[n]; k == kFalse || k == kTrue {
				repl[n] = int32(k) // nodeFalse, nodeTrue
				continue
			}
			if r := g.bypass(n, find); r != n {
				repl[n] = r
				continue
			}
			h := uint64(g.kinds[n]) + 0x9e3779b97f4a7c15
			for _, i := range g.ins[n] {
				h = (h ^ uint64(i)) * 0x100000001b3
				h ^= h >> 29
			}
			first, seen := merged[h]
			if !seen {
				merged[h] = n
				continue
			}
			same := int32(-1)
			for _, m := range append([]int32{first}, more[h]...) {
				if m != n && g.kinds[m] == g.kinds[n] && slices.Equal(g.ins[m], g.ins[n]) {
					same = m
					break
				}
			}
			if same >= 0 {
				repl[n] = same
				continue
			}
			if first != n && !slices.Contains(more[h], n) {
				more[h] = append(more[h], n)
			}
		}
	}
	return true
}

// factor rewrites each OR of ANDs that share an input as an AND of that
// input and an OR of the rest: (a and b) or (a and c) or d = (a and (b or
// c)) or d, taking first the input most ANDs share. Frame rules ground
// into such ORs, one AND per move that leaves a fact alone; factored, the
// ORs of the rest are often the same for many facts and merge. An AND
// that is an output (isOutput), or that another gate reads (readers) and a
// query reads (query), stays whatever factor does, and factoring it out of
// the OR would compute it twice (checkers' terminal, an OR over the legal
// moves, became a copy of them that cell changes visited); such ANDs are
// left alone. Shared ANDs of the next state alone are factored
// (ticTicToe's frame). It returns repl extended to the nodes it adds, and
// whether it changed anything.
func (g *graph) factor(ctx context.Context, live []bool, repl []int32, readers []int32, isOutput, query []bool) ([]int32, bool) {
	changed := false
	count := len(g.kinds)
	// uses[x] counts the ANDs among n's inputs that read x; touched lists
	// the x counted, to clear them.
	uses := make([]int32, count)
	var touched []int32
	for n := int32(0); int(n) < count; n++ {
		if n&4095 == 4095 && ctx.Err() != nil {
			break // the caller sees the deadline
		}
		if !live[n] || repl[n] != n || g.kinds[n] != kOr || len(g.ins[n]) < 2 {
			continue
		}
		for iter := 0; iter < min(len(g.ins[n]), maxFactorings); iter++ {
			if len(g.ins[n]) > 4096 && ctx.Err() != nil {
				break // a wide OR costs a pass per factoring
			}
			for _, x := range touched {
				uses[x] = 0
			}
			touched = touched[:0]
			private := func(a int32) bool {
				if g.kinds[a] != kAnd || a == n {
					return false
				}
				return int(a) >= len(isOutput) || !isOutput[a] && (readers[a] == 1 || !query[a])
			}
			for _, a := range g.ins[n] {
				if !private(a) {
					continue
				}
				for _, x := range g.ins[a] {
					for int(x) >= len(uses) {
						uses = append(uses, 0)
					}
					if uses[x] == 0 {
						touched = append(touched, x)
					}
					uses[x]++
				}
			}
			best, most := int32(-1), int32(1)
			for _, x := range touched {
				if c := uses[x]; c > most || (c == most && x < best) {
					best, most = x, c
				}
			}
			if best < 0 || best == n {
				break
			}
			var rest, others []int32
			whole := false
			for _, a := range g.ins[n] {
				if !private(a) || !slices.Contains(g.ins[a], best) {
					others = append(others, a)
					continue
				}
				r := slices.DeleteFunc(slices.Clone(g.ins[a]), func(x int32) bool { return x == best })
				switch len(r) {
				case 0:
					whole = true
				case 1:
					rest = append(rest, r[0])
				default:
					rest = append(rest, g.add(kAnd, r...))
				}
			}
			factored := best
			if !whole {
				slices.Sort(rest)
				rest = slices.Compact(rest)
				or := rest[0]
				if len(rest) > 1 {
					or = g.add(kOr, rest...)
				}
				in := []int32{best, or}
				slices.Sort(in)
				factored = g.add(kAnd, in...)
			}
			if len(others) == 0 {
				// The whole OR was factored: n is that AND.
				g.kinds[n], g.ins[n] = g.kinds[factored], slices.Clone(g.ins[factored])
				if factored == best {
					g.kinds[n], g.ins[n] = kOr, []int32{best}
				}
				changed = true
				break
			}
			in := append(others, factored)
			slices.Sort(in)
			g.ins[n] = slices.Compact(in)
			changed = true
		}
	}
	for len(repl) < len(g.kinds) {
		repl = append(repl, int32(len(repl)))
	}
	return repl, changed
}

// outputSet returns which nodes compute one of outputs.
func (g *graph) outputSet(outputs []int32, find func(int32) int32) []bool {
	is := make([]bool, len(g.kinds))
	for _, o := range outputs {
		is[find(o)] = true
	}
	return is
}

// readCounts returns, for each node, how many live gates read it, plus
// one for each time it is among outputs.
func (g *graph) readCounts(live []bool, outputs []int32, find func(int32) int32) []int32 {
	readers := make([]int32, len(g.kinds))
	for n, in := range g.ins {
		if live[n] {
			for _, i := range in {
				readers[i]++
			}
		}
	}
	for _, o := range outputs {
		readers[find(o)]++
	}
	return readers
}

// maxAbsorbLinks bounds the graphs absorb rewrites, by their links.
const maxAbsorbLinks = 1 << 20

// absorb rewrites each AND (OR) gate b whose inputs include every input of
// another AND (OR) gate a as reading a instead of those inputs: b = a and
// the rest. Checkers grounds a triple jump's legality as the double jump's
// conditions and two more, the double jump's as the single jump's and two
// more; rewritten, a change to a shared condition visits the smaller gate
// alone, and the larger only when the smaller flips, which is rarer. A
// gate a is visited by every change of its inputs anyway, and b only when
// a flips, so a step never costs more visits. Gates in cycles are left
// alone. Each b takes the largest such a, by the inputs before any
// rewrite, and a is strictly smaller than b, so no cycle is made.
func (g *graph) absorb(ctx context.Context, comps [][]int32, live []bool, repl []int32) {
	ab := newAbsorber(g, comps, live, repl)
	links := ab.indexCandidates()
	// The candidates looked at and the inputs compared stay within a few
	// passes over the links, and a graph of more than maxAbsorbLinks is
	// left alone, so that a large game's grounding (kalaha_2009's, near
	// its time budget) does not pay for what a small one gains.
	if links > maxAbsorbLinks {
		return
	}
	maxWork := 4*links + 1<<16
	for b := range int32(len(ab.orig)) {
		if b&4095 == 4095 && ctx.Err() != nil {
			break
		}
		if ab.work > maxWork {
			break
		}
		if !ab.candidate(b) || len(g.ins[b]) < 3 {
			continue
		}
		if a := ab.largestSubset(b); a >= 0 {
			ab.readThrough(b, a)
		}
	}
}

// An absorber holds the state of one absorb: the candidate gates, indexed
// by one input each, and the inputs of the gates it rewrote.
type absorber struct {
	g       *graph
	live    []bool
	repl    []int32
	inCycle []bool
	// The candidates whose key input is x are byKey[start[x]:start[x+1]].
	start, byKey []int32
	orig         [][]int32 // inputs before a rewrite
	mark         []bool    // the inputs of the gate b looked at
	work         int       // candidates looked at and inputs compared
}

func newAbsorber(g *graph, comps [][]int32, live []bool, repl []int32) *absorber {
	count := len(g.kinds)
	ab := &absorber{g: g, live: live, repl: repl, inCycle: make([]bool, count), orig: make([][]int32, count), mark: make([]bool, count)}
	for _, comp := range comps {
		if cyclic(comp, g.inputsOf) {
			for _, n := range comp {
				ab.inCycle[n] = true
			}
		}
	}
	return ab
}

// candidate reports whether gate n may absorb or be absorbed: a live AND
// or OR of two inputs or more, outside cycles, not replaced.
func (ab *absorber) candidate(n int32) bool {
	k := ab.g.kinds[n]
	return ab.live[n] && ab.repl[n] == n && !ab.inCycle[n] && (k == kAnd || k == kOr) && len(ab.g.ins[n]) >= 2
}

// indexCandidates indexes each candidate a by its input that the fewest
// candidates read (a gate b that holds all of a's inputs holds that one),
// and returns the links from candidates to their inputs.
func (ab *absorber) indexCandidates() (links int) {
	g := ab.g
	count := int32(len(g.kinds))
	uses := make([]int32, count)
	for n := range count {
		if ab.candidate(n) {
			links += len(g.ins[n])
			for _, i := range g.ins[n] {
				uses[i]++
			}
		}
	}
	if links > maxAbsorbLinks {
		return links
	}
	key := make([]int32, count)
	ab.start = make([]int32, count+1)
	for n := range count {
		key[n] = -1
		if !ab.candidate(n) {
			continue
		}
		k := g.ins[n][0]
		for _, i := range g.ins[n] {
			if uses[i] < uses[k] {
				k = i
			}
		}
		key[n] = k
		ab.start[k+1]++
	}
	for x := range count {
		ab.start[x+1] += ab.start[x]
	}
	ab.byKey = make([]int32, ab.start[count])
	fill := slices.Clone(ab.start[:count])
	for n := range count {
		if k := key[n]; k >= 0 {
			ab.byKey[fill[k]] = n
			fill[k]++
		}
	}
	return links
}

// inputs returns gate n's inputs before any rewrite.
func (ab *absorber) inputs(n int32) []int32 {
	if in := ab.orig[n]; in != nil {
		return in
	}
	return ab.g.ins[n]
}

// largestSubset returns the candidate of b's kind with the most inputs,
// fewer than b's, all of them inputs of b, or -1.
func (ab *absorber) largestSubset(b int32) int32 {
	g := ab.g
	in := g.ins[b]
	for _, i := range in {
		ab.mark[i] = true
	}
	best := int32(-1)
	for _, x := range in {
		ab.work += int(ab.start[x+1] - ab.start[x])
		for _, a := range ab.byKey[ab.start[x]:ab.start[x+1]] {
			ain := ab.inputs(a)
			if a == b || g.kinds[a] != g.kinds[b] || len(ain) >= len(in) || (best >= 0 && len(ain) <= len(ab.inputs(best))) {
				continue
			}
			ab.work += len(ain)
			all := true
			for _, i := range ain {
				if !ab.mark[i] {
					all = false
					break
				}
			}
			if all {
				best = a
			}
		}
	}
	for _, i := range in {
		ab.mark[i] = false
	}
	return best
}

// readThrough rewrites gate b as reading a, whose inputs are all b's,
// and the rest of its inputs.
func (ab *absorber) readThrough(b, a int32) {
	in := ab.g.ins[b]
	ab.orig[b] = in
	rest := []int32{a}
	for _, i := range in {
		if _, ok := slices.BinarySearch(ab.inputs(a), i); !ok {
			rest = append(rest, i)
		}
	}
	slices.Sort(rest)
	ab.g.ins[b] = rest
}

// simplify rewrites gate n's inputs through find and folds constants: n
// may become a constant (its kind then kFalse or kTrue).
func (g *graph) simplify(n int32, find func(int32) int32) {
	in := g.ins[n] // each node owns its inputs: rewritten in place
	for j, i := range in {
		in[j] = find(i)
	}
	switch g.kinds[n] {
	case kNot:
		switch in[0] {
		case nodeFalse:
			g.kinds[n], in = kTrue, nil
		case nodeTrue:
			g.kinds[n], in = kFalse, nil
		}
	case kAnd, kOr:
		absorb, neutral := nodeFalse, nodeTrue // for AND
		if g.kinds[n] == kOr {
			absorb, neutral = nodeTrue, nodeFalse
		}
		slices.Sort(in)
		in = slices.Compact(in)
		if slices.Contains(in, n) {
			// n as its own input: in the least fixpoint that input is
			// false unless the rest makes n true.
			if g.kinds[n] == kAnd {
				g.kinds[n], g.ins[n] = kFalse, nil
				return
			}
			in = slices.DeleteFunc(in, func(i int32) bool { return i == n })
		}
		if slices.Contains(in, absorb) {
			g.kinds[n], in = kind(absorb), nil // kFalse == 0, kTrue == 1
			break
		}
		in = slices.DeleteFunc(in, func(i int32) bool { return i == neutral })
		if len(in) == 0 {
			g.kinds[n] = kind(neutral)
		}
	}
	g.ins[n] = in
}

// bypass returns the node that computes the same as gate n: the input of a
// one-input AND or OR, x for NOT NOT x; n itself otherwise.
func (g *graph) bypass(n int32, find func(int32) int32) int32 {
	switch g.kinds[n] {
	case kAnd, kOr:
		if len(g.ins[n]) == 1 {
			return g.ins[n][0]
		}
	case kNot:
		if i := g.ins[n][0]; g.kinds[i] == kNot {
			return find(g.ins[i][0])
		}
	}
	return n
}
