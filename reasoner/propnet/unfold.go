package propnet

import (
	"slices"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/gdl/scc"
)

// Unfolding: splitting (split.go) eliminates the variables of one rule,
// but a relation's arguments are variables of its callers too, and those
// cannot be eliminated inside its own rules. alexChess's
//
//	(<= (between ?pieceC ?pieceM ?pieceK NtoS) (true (piece ?pieceM ?x ?y))
//	    (nextPieceN ?pieceK ?x ?y) (nextPieceS ?pieceC ?x ?y) ...)
//	(<= (pinned ?pieceM ?dir) (between ?pieceC ?pieceM ?pieceK ?dir)
//	    (owner ?player ?pieceM) (owner ?player ?pieceK) ...)
//
// grounds between for every piece, king and attacker on every square, a
// million instances, though pinned asks only which pieces are pinned. A
// relation called in one rule only is unfolded into it: the call is
// replaced by the bodies of the relation's rules, their heads unified with
// it, and the caller's rule is then split with the attacker and the king
// eliminated like any variable of its own. Unfolding a positive literal
// of a relation that is not recursive keeps the game's meaning, and since
// the relation has no other caller, no ground instance is shared that
// would now be computed twice.

// Bounds on unfolding: the rules one call may become, and the literals of
// one unfolded rule.
const (
	maxUnfoldedRules = 64
	maxUnfoldedBody  = 64
)

// unfold replaces the calls of each relation worth unfolding by the bodies
// of its rules.
func (g *grounder) unfold() {
	for {
		r, ok := g.unfoldable()
		if !ok {
			return
		}
		g.unfoldOne(r)
	}
}

// unfoldOne replaces the calls of relation r by the bodies of its rules.
func (g *grounder) unfoldOne(r int) {
	var defs, rules, unfolded []*clause
	for _, c := range g.rules {
		if c.head.rel == r {
			defs = append(defs, c)
		}
	}
	for _, c := range g.rules {
		if c.head.rel == r {
			continue
		}
		i := slices.IndexFunc(c.body, func(l literal) bool { return l.kind == litPos && l.rel == r })
		if i < 0 {
			rules = append(rules, c)
			continue
		}
		for _, d := range defs {
			if nc, ok := g.unfoldCall(c, i, d); ok {
				rules = append(rules, nc)
				unfolded = append(unfolded, nc)
			}
		}
	}
	g.rules = rules
	for _, nc := range unfolded {
		g.project(nc) // adds rules
	}
}

// unfoldable returns a relation worth unfolding: one called positively
// only, by one rule, that does not depend on itself, is none of the
// game's keywords, depends on the state or the moves, and has a rule
// joining two literals that do over a variable of the rule alone, while
// its caller does not need some argument that the state or the moves
// bind. Those are the relations whose instances multiply what their
// caller does not need.
func (g *grounder) unfoldable() (int, bool) {
	dynamic := g.dynamicRelations()
	byHead := make([][]*clause, len(g.rels))
	calls := make([][]*clause, len(g.rels)) // the clauses calling each, once per call
	negated := make([]bool, len(g.rels))
	for _, c := range g.rules {
		byHead[c.head.rel] = append(byHead[c.head.rel], c)
		for _, l := range c.body {
			switch l.kind {
			case litPos:
				calls[l.rel] = append(calls[l.rel], c)
			case litNeg:
				negated[l.rel] = true
			}
		}
	}
	comp := components(len(g.rels), byHead)
	recursive := make([]bool, len(g.rels))
	for _, c := range g.rules {
		for _, l := range c.body {
			if l.kind != litDistinct && comp[l.rel] == comp[c.head.rel] {
				recursive[c.head.rel] = true
			}
		}
	}
	for r, rel := range g.rels {
		if !dynamic[r] || negated[r] || recursive[r] || len(calls[r]) == 0 || len(byHead[r]) == 0 {
			continue
		}
		switch rel.name {
		case gdl.KeyLegal, gdl.KeyNext, gdl.KeyGoal, gdl.KeyTerminal, gdl.KeyInit, gdl.KeyRole,
			gdl.KeyTrue, gdl.KeyDoes, gdl.KeyBase, gdl.KeyInput, gdl.KeySees:
			continue
		}
		if len(calls[r])*len(byHead[r]) > maxUnfoldedRules {
			continue
		}
		// One rule calls it (its disjunctions may have made several
		// clauses of that rule), once each.
		pos := calls[r][0].pos
		ok := true
		for j, c := range calls[r] {
			if c.pos != pos || (j > 0 && calls[r][j-1] == c) || len(c.body)+maxBody(byHead[r]) > maxUnfoldedBody {
				ok = false
				break
			}
		}
		if !ok || !dropsArgument(calls[r][0], r, byHead[r], dynamic) {
			continue
		}
		if slices.ContainsFunc(byHead[r], func(d *clause) bool { return joinsOverOwnVariable(d, dynamic) }) {
			return r, true
		}
	}
	return -1, false
}

func maxBody(cs []*clause) int {
	n := 0
	for _, c := range cs {
		n = max(n, len(c.body))
	}
	return n
}

// dropsArgument reports whether c calls r with a variable that is not in
// c's head where a rule of r has a variable that a dynamic literal of its
// body binds: c does not need every atom of r, and unfolded, that
// variable can be eliminated.
func dropsArgument(c *clause, r int, defs []*clause, dynamic []bool) bool {
	for _, l := range c.body {
		if l.kind != litPos || l.rel != r {
			continue
		}
		for a, p := range l.args {
			if p.kind != patVar || slices.Contains(c.head.vars, p.v) {
				continue
			}
			for _, d := range defs {
				if q := d.head.args[a]; q.kind == patVar && slices.ContainsFunc(d.body, func(b literal) bool {
					return b.kind == litPos && dynamic[b.rel] && slices.Contains(b.vars, q.v)
				}) {
					return true
				}
			}
		}
	}
	return false
}

// joinsOverOwnVariable reports whether two dynamic positive literals of d
// share a variable that is not in d's head.
func joinsOverOwnVariable(d *clause, dynamic []bool) bool {
	count := make([]int, d.nvars)
	for _, l := range d.body {
		if l.kind == litPos && dynamic[l.rel] {
			for _, v := range l.vars {
				count[v]++
			}
		}
	}
	for v, n := range count {
		if n >= 2 && !slices.Contains(d.head.vars, v) {
			return true
		}
	}
	return false
}

// unfoldCall returns c with its body literal i replaced by the body of d,
// d's head unified with that literal; ok is false when they do not unify.
func (g *grounder) unfoldCall(c *clause, i int, d *clause) (*clause, bool) {
	u := &unifier{ts: g.ts, sub: make([]pat, c.nvars+d.nvars), set: make([]bool, c.nvars+d.nvars)}
	call := c.body[i]
	for a, p := range d.head.args {
		if !u.unify(call.args[a], shiftPat(p, c.nvars)) {
			return nil, false
		}
	}
	var body []literal
	body = append(body, c.body[:i]...)
	for _, l := range d.body {
		body = append(body, shiftLiteral(l, c.nvars))
	}
	body = append(body, c.body[i+1:]...)
	// The variables left, numbered afresh in order of appearance.
	number := make([]int, c.nvars+d.nvars)
	for v := range number {
		number[v] = -1
	}
	nvars := 0
	lit := func(l literal) literal {
		out := literal{kind: l.kind, rel: l.rel}
		if l.kind == litDistinct {
			out.x = u.apply(l.x, number, &nvars)
			out.y = u.apply(l.y, number, &nvars)
			collectVars(out.x, &out.vars)
			collectVars(out.y, &out.vars)
			return out
		}
		for _, p := range l.args {
			q := u.apply(p, number, &nvars)
			out.args = append(out.args, q)
			collectVars(q, &out.vars)
		}
		return out
	}
	nc := &clause{head: lit(c.head), pos: c.pos}
	for _, l := range body {
		nc.body = append(nc.body, lit(l))
	}
	nc.nvars = nvars
	return nc, true
}

func shiftLiteral(l literal, off int) literal {
	out := l
	out.vars = nil
	if l.kind == litDistinct {
		out.x, out.y = shiftPat(l.x, off), shiftPat(l.y, off)
		return out
	}
	out.args = make([]pat, len(l.args))
	for a, p := range l.args {
		out.args[a] = shiftPat(p, off)
	}
	return out
}

func shiftPat(p pat, off int) pat {
	switch p.kind {
	case patVar:
		p.v += off
	case patFunc:
		args := make([]pat, len(p.args))
		for a, q := range p.args {
			args[a] = shiftPat(q, off)
		}
		p.args = args
	}
	return p
}

// unifier unifies patterns, binding variables to patterns.
type unifier struct {
	ts  *termStore
	sub []pat
	set []bool
}

func (u *unifier) walk(p pat) pat {
	for p.kind == patVar && u.set[p.v] {
		p = u.sub[p.v]
	}
	return p
}

func (u *unifier) unify(a, b pat) bool {
	a, b = u.walk(a), u.walk(b)
	switch {
	case a.kind == patVar && b.kind == patVar && a.v == b.v:
		return true
	case a.kind == patVar:
		return u.bind(a.v, b)
	case b.kind == patVar:
		return u.bind(b.v, a)
	case a.kind == patGround && b.kind == patGround:
		return a.id == b.id
	}
	sa, aa := u.parts(a)
	sb, ab := u.parts(b)
	if sa != sb || len(aa) != len(ab) {
		return false
	}
	for k := range aa {
		if !u.unify(aa[k], ab[k]) {
			return false
		}
	}
	return true
}

// parts returns the symbol and arguments of a ground or function pattern.
func (u *unifier) parts(p pat) (int32, []pat) {
	if p.kind == patFunc {
		return p.sym, p.args
	}
	t := u.ts.terms[p.id]
	args := make([]pat, len(t.args))
	for k, id := range t.args {
		args[k] = pat{kind: patGround, id: id}
	}
	return t.sym, args
}

func (u *unifier) bind(v int, p pat) bool {
	if u.occurs(v, p) {
		return false
	}
	u.sub[v], u.set[v] = p, true
	return true
}

func (u *unifier) occurs(v int, p pat) bool {
	p = u.walk(p)
	switch p.kind {
	case patVar:
		return p.v == v
	case patFunc:
		for _, a := range p.args {
			if u.occurs(v, a) {
				return true
			}
		}
	}
	return false
}

// apply returns p with the bindings substituted and the variables left
// renumbered by number (assigning the next of *n to each new one); a
// function whose arguments all become ground becomes a ground term.
func (u *unifier) apply(p pat, number []int, n *int) pat {
	p = u.walk(p)
	switch p.kind {
	case patVar:
		if number[p.v] < 0 {
			number[p.v] = *n
			*n++
		}
		return pat{kind: patVar, v: number[p.v]}
	case patFunc:
		q := pat{kind: patFunc, sym: p.sym, args: make([]pat, len(p.args))}
		ground := true
		for k, a := range p.args {
			q.args[k] = u.apply(a, number, n)
			ground = ground && q.args[k].kind == patGround
		}
		if ground {
			ids := make([]termID, len(q.args))
			for k, a := range q.args {
				ids[k] = a.id
			}
			return pat{kind: patGround, id: u.ts.intern(q.sym, ids)}
		}
		return q
	}
	return p
}

// components numbers the strongly connected components of the relation
// dependency graph of the rules byHead, by relation.
func components(n int, byHead [][]*clause) []int {
	comp, _ := scc.Components(n, func(v int) []int {
		var out []int
		for _, c := range byHead[v] {
			for _, l := range c.body {
				if l.kind != litDistinct {
					out = append(out, l.rel)
				}
			}
		}
		return out
	})
	return comp
}
