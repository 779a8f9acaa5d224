package propnet

import (
	"errors"
	"fmt"
)

// The join: each clause's literals matched in a planned order against the
// atoms derived so far, each instance found recorded with its literals.

// join enumerates the instances of c. With delta >= 0, body literal delta
// ranges over the atoms in [lo, hi) of its relation, the literals before it
// of a relation of the same component over those before lo, the literals
// after it over those before hi: each instance is found in exactly one
// round. Relations of earlier components are complete and range over all.
func (g *grounder) join(c *clause, delta int, lo, hi []int) error {
	g.ranges = g.ranges[:0]
	for i, l := range c.body {
		r := [2]int{0, 0}
		if l.kind == litPos {
			r[1] = len(g.rels[l.rel].atoms)
			if delta >= 0 && g.inComp[l.rel] {
				switch {
				case i == delta:
					r = [2]int{lo[l.rel], hi[l.rel]}
				case i < delta:
					r[1] = lo[l.rel]
				default:
					r[1] = hi[l.rel]
				}
			}
		}
		g.ranges = append(g.ranges, r)
	}
	order, err := g.plan(c, delta)
	if err != nil {
		return err
	}
	g.resetEnv(c.nvars)
	if cap(g.posOf) < len(c.body) {
		g.posOf = make([]termID, len(c.body))
	}
	g.posOf = g.posOf[:len(c.body)]
	if g.exceptMode(c) {
		// Only which heads hold: the instances are recorded once the
		// relations read are complete (except.go).
		g.exist, g.cutLevel = true, headLevel(c, order)
		defer func() { g.exist = false }()
		if g.exceptRules == nil {
			g.exceptRules = map[int]*clause{}
		}
		if g.exceptRules[c.head.rel] == nil {
			g.exceptRules[c.head.rel] = c
		}
	}
	return g.step(c, order, 0)
}

// resetEnv leaves n variables unbound and the trail empty.
func (g *grounder) resetEnv(n int) {
	if cap(g.env) < n {
		g.env = make([]termID, n)
	}
	g.env = g.env[:n]
	for i := range g.env {
		g.env[i] = -1
	}
	g.trail = g.trail[:0]
}

// plan orders the body of c for a join: the positive literals in the order
// joinOrder finds cheapest, each distinct as soon as its variables are
// bound, negations last. It reports an unsafe rule: a variable of the head,
// a negation or a distinct that no positive literal binds.
func (g *grounder) plan(c *clause, delta int) ([]int, error) {
	var order []int
	bound := make([]bool, c.nvars)
	used := make([]bool, len(c.body))
	isBound := func(vs []int) bool {
		for _, v := range vs {
			if !bound[v] {
				return false
			}
		}
		return true
	}
	take := func(i int) {
		used[i] = true
		order = append(order, i)
		for _, v := range c.body[i].vars {
			bound[v] = true
		}
		for j, l := range c.body {
			if !used[j] && l.kind == litDistinct && isBound(l.vars) {
				used[j] = true
				order = append(order, j)
			}
		}
	}
	for j, l := range c.body {
		if l.kind == litDistinct && isBound(l.vars) && !used[j] {
			used[j] = true
			order = append(order, j)
		}
	}
	for _, i := range g.joinOrder(c, delta) {
		take(i)
	}
	for i, l := range c.body {
		if used[i] {
			continue
		}
		if !isBound(l.vars) {
			return nil, fmt.Errorf("%s: unsafe rule: a variable of %s is not bound by a positive literal", c.pos, kindName(l.kind))
		}
		order = append(order, i)
	}
	for _, v := range c.head.vars {
		if !bound[v] {
			return nil, fmt.Errorf("%s: unsafe rule: a variable of the head is not bound by a positive literal", c.pos)
		}
	}
	return order, nil
}

func (g *grounder) step(c *clause, order []int, k int) error {
	if g.exist && k == g.cutLevel {
		// The head is bound: one instance derives it, the others add
		// nothing.
		if id, ok := g.boundAtom(&c.head); ok && g.isPossible(id) {
			return nil
		}
		if err := g.stepAt(c, order, k); err != errFound {
			return err
		}
		return nil
	}
	return g.stepAt(c, order, k)
}

// errFound unwinds a join that derives heads only once an instance has
// derived the head bound.
var errFound = errors.New("head found")

// boundAtom returns the atom of l under the bindings, if interned.
func (g *grounder) boundAtom(l *literal) (termID, bool) {
	var buf [8]termID
	args := buf[:0]
	for _, p := range l.args {
		id, ok, _ := g.resolve(p)
		if !ok {
			return 0, false
		}
		args = append(args, id)
	}
	return g.ts.lookup(g.rels[l.rel].sym, args)
}

func (g *grounder) stepAt(c *clause, order []int, k int) error {
	if err := g.checkBudget(); err != nil {
		return err
	}
	if k == len(order) {
		return g.emit(c)
	}
	i := order[k]
	l := &c.body[i]
	switch l.kind {
	case litDistinct:
		x, err := g.build(l.x)
		if err != nil {
			return err
		}
		y, err := g.build(l.y)
		if err != nil {
			return err
		}
		if x == y {
			return nil
		}
		return g.step(c, order, k+1)
	case litNeg:
		return g.step(c, order, k+1) // recorded by emit
	}
	rel := g.rels[l.rel]
	from, to := g.ranges[i][0], g.ranges[i][1]
	if from >= to {
		return nil
	}
	// Narrow the candidates by every bound part together.
	cands, indexed, ok := g.candidates(rel, l, from, to)
	if !ok {
		return nil // nothing matches
	}
	try := func(atom termID) error {
		mark := len(g.trail)
		args := g.ts.terms[atom].args
		ok := true
		for a, p := range l.args {
			if !g.match(p, args[a]) {
				ok = false
				break
			}
		}
		var err error
		if ok {
			g.posOf[i] = atom
			err = g.step(c, order, k+1)
		}
		g.undo(mark)
		return err
	}
	if indexed {
		for _, j := range cands {
			if err := try(rel.atoms[j]); err != nil {
				return err
			}
		}
		return nil
	}
	for j := from; j < to; j++ {
		if err := try(rel.atoms[j]); err != nil {
			return err
		}
	}
	return nil
}

func (g *grounder) undo(mark int) {
	for _, v := range g.trail[mark:] {
		g.env[v] = -1
	}
	g.trail = g.trail[:mark]
}

// match unifies pattern p with ground term t, binding variables.
func (g *grounder) match(p pat, t termID) bool {
	switch p.kind {
	case patGround:
		return p.id == t
	case patVar:
		if b := g.env[p.v]; b >= 0 {
			return b == t
		}
		g.env[p.v] = t
		g.trail = append(g.trail, p.v)
		return true
	}
	tt := &g.ts.terms[t]
	if tt.sym != p.sym || len(tt.args) != len(p.args) {
		return false
	}
	for i, a := range p.args {
		if !g.match(a, tt.args[i]) {
			return false
		}
	}
	return true
}

// resolve returns the term p denotes under the bindings: bound reports
// whether p has no unbound variable, ok whether that term exists.
func (g *grounder) resolve(p pat) (id termID, ok, bound bool) {
	switch p.kind {
	case patGround:
		return p.id, true, true
	case patVar:
		b := g.env[p.v]
		return b, b >= 0, b >= 0
	}
	var buf [8]termID
	args := buf[:0]
	for _, a := range p.args {
		id, ok, bound := g.resolve(a)
		if !bound {
			return 0, false, false
		}
		if !ok {
			return 0, false, true
		}
		args = append(args, id)
	}
	id, ok = g.ts.lookup(p.sym, args)
	return id, ok, true
}

// build returns the ground term p denotes under the bindings, interning it.
func (g *grounder) build(p pat) (termID, error) {
	switch p.kind {
	case patGround:
		return p.id, nil
	case patVar:
		return g.env[p.v], nil
	}
	return g.buildCompound(p.sym, p.args)
}

// buildAtom returns the ground atom of literal l under the bindings.
func (g *grounder) buildAtom(l *literal) (termID, error) {
	return g.buildCompound(g.rels[l.rel].sym, l.args)
}

// buildCompound returns the ground term sym(args...) under the bindings (a
// constant when there are no args), interning it.
func (g *grounder) buildCompound(sym int32, pats []pat) (termID, error) {
	var buf [8]termID
	args := buf[:0]
	for _, a := range pats {
		id, err := g.build(a)
		if err != nil {
			return 0, err
		}
		args = append(args, id)
	}
	id := g.ts.intern(sym, args)
	if int(g.ts.terms[id].depth) > g.limits.MaxDepth {
		return 0, fmt.Errorf("%w: a term nested deeper than %d (rules that build ever larger terms?)", ErrBudget, g.limits.MaxDepth)
	}
	return id, nil
}

// emit records the instance of c under the current bindings.
func (g *grounder) emit(c *clause) error {
	head, err := g.buildAtom(&c.head)
	if err != nil {
		return err
	}
	if g.exist {
		g.add(c.head.rel, head)
		return errFound
	}
	if !c.relax && !g.certain[c.head.rel] {
		start := len(g.instances)
		g.instances = append(g.instances, head, 0, 0)
		for i := range c.body {
			// A certain atom is true: the AND needs no input for it.
			if l := &c.body[i]; l.kind == litPos && !l.filter && !g.certain[l.rel] {
				g.instances = append(g.instances, g.posOf[i])
				g.instances[start+1]++
			}
		}
		for i := range c.body {
			if l := &c.body[i]; l.kind == litNeg {
				a, err := g.buildAtom(l)
				if err != nil {
					return err
				}
				if g.certain[l.rel] && !g.inComp[l.rel] {
					// Its relation is complete: the negation is false
					// when the atom was derived, true otherwise.
					if g.isPossible(a) {
						g.instances = g.instances[:start]
						g.add(c.head.rel, head)
						return nil
					}
					continue
				}
				g.instances = append(g.instances, a)
				g.instances[start+2]++
			}
		}
		g.ninst++
		g.links = len(g.instances)
	}
	g.add(c.head.rel, head)
	return nil
}

// add records atom as derivable in relation r.
func (g *grounder) add(r int, atom termID) {
	if int(atom) < len(g.possible) && g.possible[atom] {
		return
	}
	switch rel := g.rels[r]; len(rel.atoms) {
	case maxWholeStatic:
		if g.wholeStatic(r) {
			g.flip = append(g.flip, relKey{rel.name, rel.arity})
		}
	case maxDemand, maxAbstractedDemand:
		if q := g.demandFor(r); q >= 0 && len(rel.atoms) == g.demandBound(q) {
			g.flip = append(g.flip, relKey{g.rels[q].name, g.rels[q].arity})
		}
	}
	for int(atom) >= len(g.possible) {
		g.possible = append(g.possible, false)
	}
	g.possible[atom] = true
	rel := g.rels[r]
	rel.atoms = append(rel.atoms, atom)
}
