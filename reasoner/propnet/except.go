package propnet

import (
	"fmt"
	"slices"
)

// Joins with an exception: a rule asking whether some witness other than
// one excluded value satisfies a condition. Chess's
//
//	(<= (threatened_with_capture ?owner ?cx ?cy ?x ?y ?ignorex ?ignorey)
//	    (opponent ?owner ?opponent)
//	    (bishop_threatens ?opponent ?u ?v ?x ?y ?ignorex ?ignorey)
//	    (different_cells ?cx ?cy ?u ?v))
//
// asks, for a capture square c, the king's square k and the square i a
// move leaves, whether a bishop on some square u other than c attacks k.
// Grounded as written, each (c, k, i) the legal rules ask about joins every
// attacker square: tens of millions of literals. But different_cells(c, u)
// holds for every u except c, so the answer is the OR of the attackers
// T(u, k, i) over all u but one, and every c shares the same ORs: ordering
// the attackers u_1 … u_n of (k, i), the prefixes P_j = T(u_1) ∨ … ∨
// T(u_j) and suffixes S_j = T(u_j) ∨ … ∨ T(u_n) take 4n literals, and
// "all but u_j" is P_{j-1} ∨ S_{j+1}: two literals per c instead of n.
//
// The rewriting (except) is structural: in a rule, a positive literal D of
// a static relation whose rules each hold a distinct between an argument
// the head gives it (C) and one it shares with the rest of the body only
// (U), with C's variables in no other positive literal. The literals G
// mentioning U become a relation T over U and the variables R they share
// with the rest, and D with T a relation X over C and R:
//
//	X(C, R) :- T(U, R), D(C, U).   T(U, R) :- G.
//
// While its component is evaluated, X's rule only derives X's atoms, each
// by the first instance found (step). Once the component is complete,
// recordExcept records X's instances: for each X(C, R) derived it finds,
// from D's atoms, the U values of T for which D fails with C; when at most
// one, X(C, R) reads the prefix and suffix ORs of T's atoms for R (built
// once per R), otherwise T's atoms where D holds, as written. Either way
// X holds exactly when some T(u, R) with D(C, u) does, so the network
// computes the game's values. D's literals must be certain (static, no
// negation), so that no instance needs them as inputs; otherwise X's rule
// is joined as written.

// except rewrites the rules of g that join a static inequality with a
// dynamic witness, as above.
func (g *grounder) except() {
	var dynamic []bool
	for i := 0; i < len(g.rules); i++ {
		c := g.rules[i]
		if c.relax || c.except != 0 {
			continue
		}
		if len(dynamic) < len(g.rels) {
			dynamic = g.dynamicRelations()
		}
		for d := range c.body {
			if g.exceptClause(c, d, dynamic) {
				break
			}
		}
	}
}

// exceptClause rewrites c around body literal d when it has the shape
// except looks for, and reports whether it did.
func (g *grounder) exceptClause(c *clause, d int, dynamic []bool) bool {
	dl := &c.body[d]
	if dl.kind != litPos || dl.filter || dynamic[dl.rel] {
		return false
	}
	inHead := varSet(c.nvars, c.head.vars)
	var cv, uv []int
	for _, v := range dl.vars {
		if inHead[v] {
			cv = append(cv, v)
		} else {
			uv = append(uv, v)
		}
	}
	if len(cv) == 0 || len(uv) == 0 || !g.inequality(dl, cv, uv) {
		return false
	}
	// C's variables are in no other literal but distincts among C and U,
	// which join D.
	f := []int{d}
	for i, l := range c.body {
		if i == d || !slices.ContainsFunc(l.vars, func(v int) bool { return slices.Contains(cv, v) }) {
			continue
		}
		if l.kind != litDistinct || slices.ContainsFunc(l.vars, func(v int) bool { return !slices.Contains(cv, v) && !slices.Contains(uv, v) }) {
			return false
		}
		f = append(f, i)
	}
	// G: the other literals mentioning U, with a dynamic positive one,
	// binding U and their own negations and distincts.
	var gi []int
	bound := make([]bool, c.nvars)
	hasDynamic := false
	for i, l := range c.body {
		if slices.Contains(f, i) || !slices.ContainsFunc(l.vars, func(v int) bool { return slices.Contains(uv, v) }) {
			continue
		}
		gi = append(gi, i)
		if l.kind == litPos && !l.filter {
			hasDynamic = hasDynamic || dynamic[l.rel]
			for _, v := range l.vars {
				bound[v] = true
			}
		}
	}
	if !hasDynamic {
		return false
	}
	for _, i := range gi {
		if !allBound(c.body[i].vars, bound) {
			return false
		}
	}
	for _, v := range uv {
		if !bound[v] {
			return false
		}
	}
	// R: G's variables other than U that the head or the rest use.
	outside := slices.Clone(inHead)
	for i, l := range c.body {
		if !slices.Contains(gi, i) && !slices.Contains(f, i) {
			for _, v := range l.vars {
				outside[v] = true
			}
		}
	}
	var rv []int
	for v := range c.nvars {
		if bound[v] && outside[v] && !slices.Contains(uv, v) {
			rv = append(rv, v)
		}
	}
	var group, rest, xbody []literal
	for i, l := range c.body {
		switch {
		case slices.Contains(gi, i):
			group = append(group, l)
		case slices.Contains(f, i):
			xbody = append(xbody, l)
		default:
			rest = append(rest, l)
		}
	}
	t, isNew := g.auxRelation("witness", group, append(slices.Clone(uv), rv...))
	if isNew {
		g.rules = append(g.rules, &clause{head: t, body: group, nvars: c.nvars, pos: c.pos})
	}
	xbody = append([]literal{t}, xbody...)
	x, isNew := g.auxRelation("except", xbody, append(cv, rv...))
	g.inheritAbstracted(c.head.rel, t.rel, x.rel)
	if isNew {
		g.rules = append(g.rules, &clause{head: x, body: xbody, nvars: c.nvars, pos: c.pos, except: 1 + t.rel})
	}
	c.body = append(rest, x)
	return true
}

// inequality reports whether every rule of l's relation holds a distinct
// between a head variable at an argument where l has a variable of cv and
// one where it has a variable of uv: D(C, U) then fails only where some
// of U equals some of C, which is what makes its exceptions few. The
// grounding checks how few they are.
func (g *grounder) inequality(l *literal, cv, uv []int) bool {
	n := 0
	for _, r := range g.rules {
		if r.head.rel != l.rel || r.relax {
			continue
		}
		n++
		argOf := func(p pat, vs []int) bool {
			if p.kind != patVar {
				return false
			}
			for a, h := range r.head.args {
				if h.kind == patVar && h.v == p.v && l.args[a].kind == patVar && slices.Contains(vs, l.args[a].v) {
					return true
				}
			}
			return false
		}
		if !slices.ContainsFunc(r.body, func(b literal) bool {
			return b.kind == litDistinct && (argOf(b.x, cv) && argOf(b.y, uv) || argOf(b.x, uv) && argOf(b.y, cv))
		}) {
			return false
		}
	}
	return n > 0
}

// exceptChain holds T's atoms for one value of R, ordered by their U
// value, and the prefix and suffix ORs built of them so far.
type exceptChain struct {
	atoms    []termID
	us       []int32 // index of each atom's U value, ascending
	pre, suf []termID
	r        []termID // R's values
}

// exceptJoin is the state of recordExcept for one rule.
type exceptJoin struct {
	c          *clause
	t          int   // the body literal T
	f          []int // D and its distincts
	uPos, rPos []int // T's arguments holding U and R
	uIndex     map[string]int32
	uVals      [][]termID
	exc        map[string][2]int32 // by C's values: exceptions (0, 1, 2 for more), the one
	chains     map[string]*exceptChain
	preRel     int
	sufRel     int
	key        []byte
}

// exceptMode reports whether c is an except rule whose instances can be
// recorded as chains: D's literals are certain, so no instance holds
// them, and the head is not. The join of such a rule then only derives
// its heads, one instance each (step), and recordExcept records the
// instances once T is complete.
func (g *grounder) exceptMode(c *clause) bool {
	if c.except == 0 || g.certain[c.head.rel] || g.certain[c.except-1] {
		return false
	}
	t := 0
	for _, l := range c.body {
		switch {
		case l.kind == litPos && l.filter:
		case l.kind == litPos && l.rel == c.except-1:
			t++
			for _, p := range l.args {
				if p.kind != patVar {
					return false
				}
			}
		case l.kind == litPos:
			if !g.certain[l.rel] {
				return false
			}
		case l.kind == litNeg:
			return false
		}
	}
	return t == 1
}

// headLevel returns the step of the join of c in order at which the
// head's variables are all bound.
func headLevel(c *clause, order []int) int {
	bound := make([]bool, c.nvars)
	for k := 0; ; k++ {
		if allBound(c.head.vars, bound) || k == len(order) {
			return k
		}
		for _, v := range c.body[order[k]].vars {
			bound[v] = true
		}
	}
}

// recordExcept records the instances of the atoms derived for c's head,
// an except relation, as the package comment above says.
func (g *grounder) recordExcept(c *clause) error {
	j := &exceptJoin{c: c, t: -1}
	for i, l := range c.body {
		switch {
		case l.kind == litPos && l.filter:
		case l.kind == litPos && l.rel == c.except-1 && j.t < 0:
			j.t = i
		default:
			j.f = append(j.f, i)
		}
	}
	inHead := varSet(c.nvars, c.head.vars)
	tl := &c.body[j.t]
	for a, p := range tl.args {
		if inHead[p.v] {
			j.rPos = append(j.rPos, a)
		} else {
			j.uPos = append(j.uPos, a)
		}
	}
	// Every U value T takes, numbered in the order found.
	j.uIndex = map[string]int32{}
	trel := g.rels[tl.rel]
	for _, a := range trel.atoms {
		args := g.ts.terms[a].args
		k := j.keyOf(args, j.uPos)
		if _, ok := j.uIndex[string(k)]; !ok {
			j.uIndex[string(k)] = int32(len(j.uVals))
			vals := make([]termID, len(j.uPos))
			for i, p := range j.uPos {
				vals[i] = args[p]
			}
			j.uVals = append(j.uVals, vals)
		}
	}
	j.exc = map[string][2]int32{}
	j.chains = map[string]*exceptChain{}
	j.preRel = g.relation(fmt.Sprintf("prefix %d", c.head.rel), len(tl.args))
	j.sufRel = g.relation(fmt.Sprintf("suffix %d", c.head.rel), len(tl.args))

	g.resetEnv(c.nvars)
	hrel := g.rels[c.head.rel]
	for _, a := range hrel.atoms {
		if err := g.checkBudget(); err != nil {
			return err
		}
		mark := len(g.trail)
		args := g.ts.terms[a].args
		ok := true
		for i, p := range c.head.args {
			if !g.match(p, args[i]) {
				ok = false
				break
			}
		}
		if ok {
			g.exceptInstances(j, a)
		}
		g.undo(mark)
	}
	return nil
}

// varSet returns the set of variables vs among n, as a slice by variable.
func varSet(n int, vs []int) []bool {
	s := make([]bool, n)
	for _, v := range vs {
		s[v] = true
	}
	return s
}

// keyOf returns the values at positions of args as a map key, in j.key.
func (j *exceptJoin) keyOf(args []termID, positions []int) []byte {
	j.key = j.key[:0]
	for _, p := range positions {
		j.key = appendInt32(j.key, int32(args[p]))
	}
	return j.key
}

// exceptInstances records the instances of head, X's atom the bindings
// give.
func (g *grounder) exceptInstances(j *exceptJoin, head termID) {
	c := j.c
	tl := &c.body[j.t]
	// R's values, and the chain of T's atoms for them.
	rvals := make([]termID, len(j.rPos))
	for i, p := range j.rPos {
		rvals[i] = g.env[tl.args[p].v]
	}
	j.key = j.key[:0]
	for _, v := range rvals {
		j.key = appendInt32(j.key, int32(v))
	}
	ch := j.chains[string(j.key)]
	if ch == nil {
		rkey := string(j.key)
		ch = g.exceptChainFor(j, rvals)
		j.chains[rkey] = ch
	}
	n := len(ch.atoms)
	if n == 0 {
		return
	}
	// The exceptions of C's values: U values of T where D fails.
	j.key = j.key[:0]
	for _, v := range c.head.vars {
		if !slices.ContainsFunc(j.rPos, func(p int) bool { return tl.args[p].v == v }) {
			j.key = appendInt32(j.key, int32(g.env[v]))
		}
	}
	exc, ok := j.exc[string(j.key)]
	if !ok {
		ckey := string(j.key)
		for u := range j.uVals {
			if !g.exceptHolds(j, j.uVals[u]) {
				exc[0]++
				exc[1] = int32(u)
				if exc[0] == 2 {
					break
				}
			}
		}
		j.exc[ckey] = exc
	}
	switch exc[0] {
	case 2: // as written
		for i, a := range ch.atoms {
			if g.exceptHolds(j, j.uVals[ch.us[i]]) {
				g.exceptInstance(head, a)
			}
		}
	case 1:
		k, found := slices.BinarySearch(ch.us, exc[1])
		if !found {
			g.exceptInstance(head, g.exceptPrefix(j, ch, n-1))
			break
		}
		if k > 0 {
			g.exceptInstance(head, g.exceptPrefix(j, ch, k-1))
		}
		if k < n-1 {
			g.exceptInstance(head, g.exceptSuffix(j, ch, k+1))
		}
	default:
		g.exceptInstance(head, g.exceptPrefix(j, ch, n-1))
	}
}

// exceptHolds reports whether D and its distincts hold with U bound to
// vals and C as bound.
func (g *grounder) exceptHolds(j *exceptJoin, vals []termID) bool {
	tl := &j.c.body[j.t]
	mark := len(g.trail)
	defer g.undo(mark)
	for i, p := range j.uPos {
		if !g.match(tl.args[p], vals[i]) {
			return false
		}
	}
	for _, i := range j.f {
		l := &j.c.body[i]
		if l.kind == litDistinct {
			x, err1 := g.build(l.x)
			y, err2 := g.build(l.y)
			if err1 != nil || err2 != nil || x == y {
				return false
			}
			continue
		}
		var buf [8]termID
		args := buf[:0]
		for _, p := range l.args {
			id, ok, _ := g.resolve(p)
			if !ok {
				return false
			}
			args = append(args, id)
		}
		id, ok := g.ts.lookup(g.rels[l.rel].sym, args)
		if !ok || !g.isPossible(id) {
			return false
		}
	}
	return true
}

// exceptChainFor returns T's atoms agreeing with R's values rvals, in
// the order of their U values.
func (g *grounder) exceptChainFor(j *exceptJoin, rvals []termID) *exceptChain {
	tl := &j.c.body[j.t]
	trel := g.rels[tl.rel]
	ch := &exceptChain{r: slices.Clone(rvals)}
	type entry struct {
		u    int32
		atom termID
	}
	var es []entry
	try := func(a termID) {
		args := g.ts.terms[a].args
		for i, p := range j.rPos {
			if args[p] != rvals[i] {
				return
			}
		}
		es = append(es, entry{j.uIndex[string(j.keyOf(args, j.uPos))], a})
	}
	cands, indexed, ok := g.candidates(trel, tl, 0, len(trel.atoms))
	switch {
	case !ok:
	case indexed:
		for _, i := range cands {
			try(trel.atoms[i])
		}
	default:
		for _, a := range trel.atoms {
			try(a)
		}
	}
	slices.SortFunc(es, func(a, b entry) int { return int(a.u - b.u) })
	for _, e := range es {
		ch.atoms = append(ch.atoms, e.atom)
		ch.us = append(ch.us, e.u)
	}
	return ch
}

// exceptPrefix returns the atom holding the OR of ch's first k+1 atoms,
// recording the instances of those not built yet.
func (g *grounder) exceptPrefix(j *exceptJoin, ch *exceptChain, k int) termID {
	if k == 0 {
		return ch.atoms[0]
	}
	if len(ch.pre) == 0 {
		ch.pre = append(ch.pre, ch.atoms[0])
	}
	for i := len(ch.pre); i <= k; i++ {
		a := g.exceptChainAtom(j, j.preRel, ch, i)
		g.exceptInstance(a, ch.pre[i-1])
		g.exceptInstance(a, ch.atoms[i])
		ch.pre = append(ch.pre, a)
	}
	return ch.pre[k]
}

// exceptSuffix returns the atom holding the OR of ch's atoms from k on.
func (g *grounder) exceptSuffix(j *exceptJoin, ch *exceptChain, k int) termID {
	n := len(ch.atoms)
	if k == n-1 {
		return ch.atoms[n-1]
	}
	// suf holds the suffixes from the end: suf[i] starts at n-1-i.
	if len(ch.suf) == 0 {
		ch.suf = append(ch.suf, ch.atoms[n-1])
	}
	for i := len(ch.suf); i <= n-1-k; i++ {
		a := g.exceptChainAtom(j, j.sufRel, ch, n-1-i)
		g.exceptInstance(a, ch.suf[i-1])
		g.exceptInstance(a, ch.atoms[n-1-i])
		ch.suf = append(ch.suf, a)
	}
	return ch.suf[n-1-k]
}

// exceptChainAtom returns the atom of relation rel for the prefix or
// suffix of ch at atom i: R's values and that atom's U values.
func (g *grounder) exceptChainAtom(j *exceptJoin, rel int, ch *exceptChain, i int) termID {
	args := append(slices.Clone(ch.r), j.uVals[ch.us[i]]...)
	a := g.ts.intern(g.rels[rel].sym, args)
	g.add(rel, a)
	return a
}

// exceptInstance records the instance head :- in.
func (g *grounder) exceptInstance(head, in termID) {
	g.instances = append(g.instances, head, 1, 0, in)
	g.ninst++
	g.links = len(g.instances)
}
