package propnet

import (
	"math"

	"slices"
)

// Join planning: the positive literals of a clause are joined in the order
// that minimises the estimated number of partial matches, found by dynamic
// programming over subsets of literals (greedily for long bodies). A
// literal's fan-out is estimated from its relation's statistics: the size
// of its range, divided by the number of distinct values of each part it
// has bound, times the share of atoms with the functor it asks for. This
// matters: a frame rule such as (<= (next (cell ?x ?y ?p)) (does ?r (move
// ?x1 ?y1 ?x2 ?y2)) (true (cell ?x ?y ?p)) (different ?x ?y ?x1 ?y1)) is
// quick from the moves and the state, and slow from the static table.

type planKey struct {
	c     *clause
	delta int
}

// cachedPlan is an order computed for the range sizes in sizes; it is
// reused while no size has more than doubled.
type cachedPlan struct {
	sizes []int
	order []int
}

type statKey struct {
	rel  *relation
	path int // 1 + argument, then 1 + sub-argument in the next 4 bits
}

// pathStats describe the parts of a relation's atoms at one path.
type pathStats struct {
	atoms    int // atoms counted
	distinct int
	functors map[int32]int // atoms by the functor key of their part
}

// maxDPLiterals bounds the bodies planned exactly.
const maxDPLiterals = 10

// joinOrder returns the positive literals of c in the order to join them.
func (g *grounder) joinOrder(c *clause, delta int) []int {
	var pos []int
	for i, l := range c.body {
		if l.kind == litPos {
			pos = append(pos, i)
		}
	}
	if len(pos) <= 1 {
		return pos
	}
	if g.plans == nil {
		g.plans = map[planKey]*cachedPlan{}
	}
	key := planKey{c, delta}
	sizes := make([]int, len(pos))
	for j, i := range pos {
		sizes[j] = g.ranges[i][1] - g.ranges[i][0]
	}
	if p := g.plans[key]; p != nil && similar(p.sizes, sizes) {
		return p.order
	}
	var order []int
	if len(pos) <= maxDPLiterals && c.nvars <= 64 {
		order = g.bestOrder(c, pos)
	} else {
		order = g.greedyOrder(c, pos)
	}
	g.plans[key] = &cachedPlan{sizes: sizes, order: order}
	return order
}

func similar(a, b []int) bool {
	for i := range a {
		x, y := a[i], b[i]
		if max(x, y) > 16 && (x > 2*y || y > 2*x) {
			return false
		}
	}
	return true
}

func varMask(vs []int) uint64 {
	var m uint64
	for _, v := range vs {
		m |= 1 << v
	}
	return m
}

// bestOrder finds the order of the literals pos of c with the fewest
// estimated partial matches, over all subsets.
func (g *grounder) bestOrder(c *clause, pos []int) []int {
	k := len(pos)
	n := 1 << k
	cost := make([]float64, n)
	tuples := make([]float64, n)
	last := make([]int8, n)
	for i := range cost {
		cost[i] = math.Inf(1)
	}
	cost[0], tuples[0] = 0, 1
	masks := make([]uint64, k)
	for j, i := range pos {
		masks[j] = varMask(c.body[i].vars)
	}
	for set := 0; set < n; set++ {
		if math.IsInf(cost[set], 1) {
			continue
		}
		var bound uint64
		for j := range k {
			if set&(1<<j) != 0 {
				bound |= masks[j]
			}
		}
		for j := range k {
			if set&(1<<j) != 0 {
				continue
			}
			t := tuples[set] * g.fanout(c, pos[j], bound)
			next := set | 1<<j
			if cc := cost[set] + t; cc < cost[next] {
				cost[next], tuples[next], last[next] = cc, t, int8(j)
			}
		}
	}
	order := make([]int, 0, k)
	for set := n - 1; set != 0; set &^= 1 << last[set] {
		order = append(order, pos[last[set]])
	}
	slices.Reverse(order)
	return order
}

// greedyOrder takes at each step the literal of least fan-out.
func (g *grounder) greedyOrder(c *clause, pos []int) []int {
	var bound uint64
	var order []int
	left := slices.Clone(pos)
	for len(left) > 0 {
		best, bestF := 0, math.Inf(1)
		for j, i := range left {
			f := g.fanout(c, i, bound)
			if f < bestF {
				best, bestF = j, f
			}
		}
		i := left[best]
		order = append(order, i)
		left = slices.Delete(left, best, best+1)
		if c.nvars <= 64 {
			bound |= varMask(c.body[i].vars)
		}
	}
	return order
}

// fanout estimates the matches of body literal i when the variables in
// bound are bound (variables beyond the 64th count as unbound).
func (g *grounder) fanout(c *clause, i int, bound uint64) float64 {
	l := &c.body[i]
	rel := g.rels[l.rel]
	n := float64(g.ranges[i][1] - g.ranges[i][0])
	if n == 0 {
		return 0
	}
	f := n
	for a, p := range l.args {
		if a < 15 { // paths hold argument positions in 4 bits
			f *= g.selectivity(rel, p, 1+a, bound)
		}
	}
	return max(f, 1/n)
}

func boundPat(p pat, bound uint64) bool {
	switch p.kind {
	case patGround:
		return true
	case patVar:
		return p.v < 64 && bound&(1<<p.v) != 0
	}
	for _, a := range p.args {
		if !boundPat(a, bound) {
			return false
		}
	}
	return true
}

// selectivity estimates the share of rel's atoms whose part at path
// matches p under the bound variables.
func (g *grounder) selectivity(rel *relation, p pat, path int, bound uint64) float64 {
	if p.kind == patVar && !boundPat(p, bound) {
		return 1
	}
	st := g.pathStats(rel, path)
	if st.atoms == 0 {
		return 1
	}
	if boundPat(p, bound) {
		return 1 / float64(max(st.distinct, 1))
	}
	// A function with some variable unbound: its functor, and its bound
	// arguments one level down.
	s := float64(st.functors[functorKey(p.sym, len(p.args))]) / float64(st.atoms)
	if path < 16 {
		for j, a := range p.args {
			if j < 15 {
				s *= g.selectivity(rel, a, path<<4|(j+1), bound)
			}
		}
	}
	return s
}

// pathStats returns the statistics of rel's parts at path, recounted when
// the relation has grown by half since they were counted.
func (g *grounder) pathStats(rel *relation, path int) *pathStats {
	if g.stats == nil {
		g.stats = map[statKey]*pathStats{}
	}
	k := statKey{rel, path}
	st := g.stats[k]
	if st != nil && (len(rel.atoms) <= st.atoms*3/2+8) {
		return st
	}
	st = &pathStats{functors: map[int32]int{}}
	// The distinct parts are counted by marking each term with this
	// count's number: a map of the terms seen cost more than the rest of
	// planning on games of millions of atoms (amazonsTorus).
	g.statMark++
	if g.statMark == 0 || len(g.statSeen) < len(g.ts.terms) {
		g.statSeen = make([]uint32, len(g.ts.terms)+len(g.ts.terms)/2)
		g.statMark = 1
	}
	p := []int{path&15 - 1}
	if path >= 16 {
		p = []int{path>>4 - 1, path&15 - 1}
	}
	// Atoms in a row mostly share their part's functor: counted in a run,
	// added to the map when it changes.
	runKey, run := int32(0), 0
	for i, a := range rel.atoms {
		if i&4095 == 4095 && g.ctx.Err() != nil {
			g.expired = true // checkBudget reports it; the counts so far do
			break
		}
		t, ok := g.part(a, p)
		if !ok {
			continue
		}
		st.atoms++
		if g.statSeen[t] != g.statMark {
			g.statSeen[t] = g.statMark
			st.distinct++
		}
		tt := &g.ts.terms[t]
		if k := functorKey(tt.sym, len(tt.args)); k != runKey || run == 0 {
			if run > 0 {
				st.functors[runKey] += run
			}
			runKey, run = k, 0
		}
		run++
	}
	if run > 0 {
		st.functors[runKey] += run
	}
	st.atoms = max(st.atoms, len(rel.atoms))
	g.stats[k] = st

	return st
}
