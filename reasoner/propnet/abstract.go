package propnet

import (
	"fmt"
	"slices"

	"github.com/ggp-go/ggp/gdl"
)

// Abstracting pass-through arguments. Chess asks whether a square is
// attacked "ignoring" the square a move leaves:
//
//	(<= (clear_row_ig ?u ?y ?x ?y ?ignorex ?ignorey)
//	    (next_file ?u ?x) (coordinate ?y) (coordinate ?ignorex) (coordinate ?ignorey))
//	(<= (clear_row_ig ?u ?ignorey ?x ?ignorey ?ignorex ?ignorey)
//	    (next_file ?u ?ignorex) (clear_row_ig ?ignorex ?ignorey ?x ?ignorey ?ignorex ?ignorey))
//	(<= (clear_row_ig ?u ?y ?x ?y ?ignorex ?ignorey)
//	    (next_file ?u ?u2) (true (cell ?u2 ?y b)) (clear_row_ig ?u2 ?y ?x ?y ?ignorex ?ignorey))
//
// and the ignored square is carried through every step of the recursion,
// the attackers and the threats, though it matters only where it lies on
// the segment: each atom is grounded once per square of the board.
//
// An argument position k of a relation R is abstractable when the head of
// every rule of R has a variable V at k, and in each rule V either occurs
// only in static unary "type" literals T(V) and at the abstractable
// position of literals of abstractable relations (a pass rule: V flows
// through), or occurs elsewhere (an eq rule: V matters). The abstractable
// positions linked by pass literals form a group; in every derivation of
// R(a, i) that uses no eq rule along the pass literals, i only flows
// through and is checked by the types, so
//
//	R(a, i) :- R⊥(a), T(i).      R(a, i) :- Rᵉ(a, i).
//
// where R⊥ has R's pass rules with position k, V's types and the pass
// literals' positions dropped (R⊥ is R without the argument), and Rᵉ
// collects the derivations that use an eq rule somewhere: each eq rule
// with its head renamed Rᵉ, and each pass rule once per pass literal, with
// that literal's relation R' replaced by R'ᵉ. The proof is by induction on
// derivations; it needs the types of the group to agree: every pass rule
// without pass literals (a base rule) checks the same types T, and every
// other pass rule a subset of them. In chess clear_row_ig⊥ is clear_row,
// and clear_row_igᵉ holds only for ignored squares on the segment.
//
// The rewriting runs only on the rules rewritten (when the game does not
// ground as written), before unfolding and splitting, one group at a time:
// each abstracted relation is not abstracted again, its R⊥ may be (at
// another position: chess's ignored square has two coordinates), its Rᵉ
// is not. A group is abstracted only when some rule of it carries the
// argument through a recursion, where the carried argument multiplies
// every step.

// maxAbstractRounds bounds the groups abstracted.
const maxAbstractRounds = 64

// posKey names an argument position of a relation.
type posKey struct{ rel, pos int }

// passRule classifies a rule of a relation at an argument position.
type passRule struct {
	c  *clause
	eq bool
	// lits holds, for a pass rule, the body literals passing the
	// variable on, and the position each passes it at.
	lits []passLit
	// types holds the body literals checking the variable's type.
	types []int
}

type passLit struct{ lit, pos int }

// abstract rewrites the rules of g, abstracting the groups of
// pass-through argument positions worth it, as above.
func (g *grounder) abstract() {
	done := map[int]bool{}
	for range maxAbstractRounds {
		group, rules, types, ok := g.abstractableGroup(done)
		if !ok {
			return
		}
		g.abstractGroup(group, rules, types, done)
	}
}

// abstractableGroup returns a group of abstractable positions worth
// abstracting, with the classified rules of each and the group's types.
func (g *grounder) abstractableGroup(done map[int]bool) ([]posKey, map[posKey][]passRule, []int, bool) {
	dynamic := g.dynamicRelations()
	byHead := make([][]*clause, len(g.rels))
	for _, c := range g.rules {
		byHead[c.head.rel] = append(byHead[c.head.rel], c)
	}
	cand := map[posKey]bool{}
	for r, cs := range byHead {
		if len(cs) == 0 || done[r] || isKeyword(g.rels[r].name) {
			continue
		}
		for k := range g.rels[r].arity {
			if !slices.ContainsFunc(cs, func(c *clause) bool { return c.head.args[k].kind != patVar }) {
				cand[posKey{r, k}] = true
			}
		}
	}
	comp := components(len(g.rels), byHead)
	for {
		rules := map[posKey][]passRule{}
		for p := range cand {
			for _, c := range byHead[p.rel] {
				rules[p] = append(rules[p], g.classify(c, p.pos, cand, dynamic))
			}
		}
		// Positions that no derivation reaches without an eq rule
		// would abstract into nothing: they stay as written, and the
		// pass literals reading them become eq occurrences.
		based := map[posKey]bool{}
		for changed := true; changed; {
			changed = false
			for p, rs := range rules {
				if based[p] {
					continue
				}
				if slices.ContainsFunc(rs, func(pr passRule) bool {
					return !pr.eq && !slices.ContainsFunc(pr.lits, func(pl passLit) bool {
						return !based[posKey{pr.c.body[pl.lit].rel, pl.pos}]
					})
				}) {
					based[p], changed = true, true
				}
			}
		}
		removed := false
		for p := range cand {
			if !based[p] {
				delete(cand, p)
				removed = true
			}
		}
		if removed {
			continue
		}
		groups := groupsOf(rules)
		for _, group := range groups {
			types, ok := g.groupTypes(group, rules, byHead)
			if !ok {
				for _, p := range group {
					delete(cand, p)
				}
				removed = true
				continue
			}
			if worthAbstracting(group, rules, comp) {
				return group, rules, types, true
			}
		}
		if !removed {
			return nil, nil, nil, false
		}
	}
}

// isKeyword reports whether name is one of the relations of GDL itself,
// which keep their rules as written.
func isKeyword(name string) bool {
	switch name {
	case gdl.KeyLegal, gdl.KeyNext, gdl.KeyGoal, gdl.KeyTerminal, gdl.KeyInit, gdl.KeyRole,
		gdl.KeyTrue, gdl.KeyDoes, gdl.KeyBase, gdl.KeyInput, gdl.KeySees:
		return true
	}
	return false
}

// classify tells whether rule c, at head position k, is a pass rule or an
// eq rule.
func (g *grounder) classify(c *clause, k int, cand map[posKey]bool, dynamic []bool) passRule {
	pr := passRule{c: c}
	v := c.head.args[k].v
	for a, p := range c.head.args {
		if a != k && occurrences(p, v) > 0 {
			pr.eq = true
			return pr
		}
	}
	for i, l := range c.body {
		if !slices.Contains(l.vars, v) {
			continue
		}
		if l.kind != litPos || l.filter {
			pr.eq = true
			return pr
		}
		if len(l.args) == 1 && l.args[0].kind == patVar && !dynamic[l.rel] && !cand[posKey{l.rel, 0}] {
			pr.types = append(pr.types, i)
			continue
		}
		at, n := -1, 0
		for a, p := range l.args {
			if p.kind == patVar && p.v == v {
				at = a
			}
			n += occurrences(p, v)
		}
		if n != 1 || at < 0 || !cand[posKey{l.rel, at}] {
			pr.eq = true
			return pr
		}
		pr.lits = append(pr.lits, passLit{i, at})
	}
	return pr
}

// occurrences counts the occurrences of variable v in p.
func occurrences(p pat, v int) int {
	switch p.kind {
	case patVar:
		if p.v == v {
			return 1
		}
	case patFunc:
		n := 0
		for _, a := range p.args {
			n += occurrences(a, v)
		}
		return n
	}
	return 0
}

// groupsOf partitions the positions of rules into the groups their pass
// literals link, each sorted, in a deterministic order.
func groupsOf(rules map[posKey][]passRule) [][]posKey {
	keys := make([]posKey, 0, len(rules))
	for p := range rules {
		keys = append(keys, p)
	}
	slices.SortFunc(keys, func(a, b posKey) int {
		if a.rel != b.rel {
			return a.rel - b.rel
		}
		return a.pos - b.pos
	})
	parent := map[posKey]posKey{}
	var find func(p posKey) posKey
	find = func(p posKey) posKey {
		q, ok := parent[p]
		if !ok || q == p {
			return p
		}
		r := find(q)
		parent[p] = r
		return r
	}
	for _, p := range keys {
		for _, pr := range rules[p] {
			for _, pl := range pr.lits {
				a, b := find(p), find(posKey{pr.c.body[pl.lit].rel, pl.pos})
				if a != b {
					parent[a] = b
				}
			}
		}
	}
	index := map[posKey]int{}
	var groups [][]posKey
	for _, p := range keys {
		r := find(p)
		i, ok := index[r]
		if !ok {
			i = len(groups)
			index[r] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], p)
	}
	return groups
}

// groupTypes returns the type relations every base rule of group checks,
// sorted, and whether the group can be abstracted: each relation at one
// position only, the base rules agreeing on their types, the other pass
// rules checking no type outside them, and the types independent of the
// group.
func (g *grounder) groupTypes(group []posKey, rules map[posKey][]passRule, byHead [][]*clause) ([]int, bool) {
	inGroup := map[int]bool{}
	for _, p := range group {
		if inGroup[p.rel] {
			return nil, false
		}
		inGroup[p.rel] = true
	}
	var types []int
	base := false
	for _, p := range group {
		for _, pr := range rules[p] {
			if pr.eq || len(pr.lits) > 0 {
				continue
			}
			ts := typeRels(pr)
			if base && !slices.Equal(ts, types) {
				return nil, false
			}
			types, base = ts, true
		}
	}
	if !base || len(types) == 0 {
		return nil, false
	}
	for _, p := range group {
		for _, pr := range rules[p] {
			if pr.eq {
				continue
			}
			for _, t := range typeRels(pr) {
				if !slices.Contains(types, t) {
					return nil, false
				}
			}
		}
	}
	for _, t := range types {
		if g.reaches(t, inGroup, byHead) {
			return nil, false
		}
	}
	return types, true
}

// typeRels returns the relations of pr's type literals, sorted, once each.
func typeRels(pr passRule) []int {
	var ts []int
	for _, i := range pr.types {
		ts = append(ts, pr.c.body[i].rel)
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}

// reaches reports whether relation r depends on one of targets.
func (g *grounder) reaches(r int, targets map[int]bool, byHead [][]*clause) bool {
	seen := map[int]bool{r: true}
	stack := []int{r}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if targets[x] {
			return true
		}
		for _, c := range byHead[x] {
			for _, l := range c.body {
				if l.kind != litDistinct && !seen[l.rel] {
					seen[l.rel] = true
					stack = append(stack, l.rel)
				}
			}
		}
	}
	return false
}

// worthAbstracting reports whether some pass rule of group carries the
// argument through a recursion.
func worthAbstracting(group []posKey, rules map[posKey][]passRule, comp []int) bool {
	for _, p := range group {
		for _, pr := range rules[p] {
			for _, pl := range pr.lits {
				if comp[pr.c.body[pl.lit].rel] == comp[p.rel] {
					return true
				}
			}
		}
	}
	return false
}

// abstractGroup rewrites the rules of group's relations as above.
func (g *grounder) abstractGroup(group []posKey, rules map[posKey][]passRule, types []int, done map[int]bool) {
	posOf := map[int]int{}
	for _, p := range group {
		posOf[p.rel] = p.pos
	}
	hasEq := derivedThroughEq(group, rules)
	bottom, tied := g.abstractRelations(group, hasEq, done)
	replaced := map[*clause]bool{}
	var added []*clause
	for _, p := range group {
		for _, pr := range rules[p] {
			c := pr.c
			replaced[c] = true
			if pr.eq {
				nc := *c
				nc.head = renamed(c.head, tied[p.rel])
				added = append(added, &nc)
				continue
			}
			// R⊥: the argument, its types and the pass literals'
			// arguments dropped.
			nb := &clause{nvars: c.nvars, pos: c.pos, head: dropArg(renamed(c.head, bottom[p.rel]), p.pos)}
			for i, l := range c.body {
				if slices.Contains(pr.types, i) {
					continue
				}
				if j := slices.IndexFunc(pr.lits, func(pl passLit) bool { return pl.lit == i }); j >= 0 {
					l = dropArg(renamed(l, bottom[l.rel]), pr.lits[j].pos)
				}
				nb.body = append(nb.body, l)
			}
			added = append(added, nb)
			// Rᵉ: one pass literal at a time through an eq rule.
			for _, pl := range pr.lits {
				r := c.body[pl.lit].rel
				if !hasEq[r] {
					continue
				}
				ne := *c
				ne.head = renamed(c.head, tied[p.rel])
				ne.body = slices.Clone(c.body)
				ne.body[pl.lit] = renamed(c.body[pl.lit], tied[r])
				added = append(added, &ne)
			}
		}
	}
	for _, p := range group {
		added = append(added, g.joinRules(p, rules[p][0].c.pos, types, bottom, tied)...)
	}
	rules2 := make([]*clause, 0, len(g.rules)+len(added))
	for _, c := range g.rules {
		if !replaced[c] {
			rules2 = append(rules2, c)
		}
	}
	x := &callExpansion{posOf: posOf, bottom: bottom, tied: tied, types: types, members: g.typeMembers(types)}
	g.rules = rules2[:0:0]
	for _, c := range append(rules2, added...) {
		g.rules = append(g.rules, x.expand(c)...)
	}
}

// derivedThroughEq returns the relations of group that have derivations
// through an eq rule, directly or through a pass literal.
func derivedThroughEq(group []posKey, rules map[posKey][]passRule) map[int]bool {
	hasEq := map[int]bool{}
	for changed := true; changed; {
		changed = false
		for _, p := range group {
			if hasEq[p.rel] {
				continue
			}
			if slices.ContainsFunc(rules[p], func(pr passRule) bool {
				return pr.eq || slices.ContainsFunc(pr.lits, func(pl passLit) bool { return hasEq[pr.c.body[pl.lit].rel] })
			}) {
				hasEq[p.rel], changed = true, true
			}
		}
	}
	return hasEq
}

// abstractRelations makes, for each relation of group, R⊥, the relation
// without the abstracted argument, and Rᵉ, R through an eq rule, where
// hasEq says it has such derivations; it marks them done and abstracted.
func (g *grounder) abstractRelations(group []posKey, hasEq, done map[int]bool) (bottom, tied map[int]int) {
	bottom, tied = map[int]int{}, map[int]int{}
	for _, p := range group {
		rel := g.rels[p.rel]
		bottom[p.rel] = g.relation(fmt.Sprintf("%s without %d", rel.name, p.pos+1), rel.arity-1)
		if hasEq[p.rel] {
			tied[p.rel] = g.relation(fmt.Sprintf("%s tied %d", rel.name, p.pos+1), rel.arity)
		}
		done[p.rel] = true
		if g.abstracted == nil {
			g.abstracted = map[int]bool{}
		}
		g.abstracted[p.rel] = true
		if e, ok := tied[p.rel]; ok {
			g.abstracted[e] = true
		}
	}
	return bottom, tied
}

// joinRules returns the rules that derive the relation of p again from
// its abstractions, at the source position pos:
//
//	R(x̄) :- R⊥(x̄ without k), T(x_k).   R(x̄) :- Rᵉ(x̄).
func (g *grounder) joinRules(p posKey, pos gdl.Pos, types []int, bottom, tied map[int]int) []*clause {
	arity := g.rels[p.rel].arity
	head := literal{kind: litPos, rel: p.rel}
	for v := range arity {
		head.args = append(head.args, pat{kind: patVar, v: v})
		head.vars = append(head.vars, v)
	}
	c := &clause{head: head, nvars: arity, pos: pos}
	c.body = append(c.body, dropArg(renamed(head, bottom[p.rel]), p.pos))
	for _, t := range types {
		c.body = append(c.body, literal{kind: litPos, rel: t, args: []pat{{kind: patVar, v: p.pos}}, vars: []int{p.pos}})
	}
	out := []*clause{c}
	if e, ok := tied[p.rel]; ok {
		out = append(out, &clause{head: head, nvars: arity, pos: c.pos, body: []literal{renamed(head, e)}})
	}
	return out
}

// maxTypeFacts bounds the facts of a type that a negated call spells out
// as distincts.
const maxTypeFacts = 64

// typeMembers returns, for each type, its values, when every type is a
// relation of at most maxTypeFacts ground facts; nil otherwise.
func (g *grounder) typeMembers(types []int) [][]termID {
	members := make([][]termID, len(types))
	for _, c := range g.rules {
		j := slices.Index(types, c.head.rel)
		if j < 0 {
			continue
		}
		if len(c.body) > 0 || c.head.args[0].kind != patGround || len(members[j]) == maxTypeFacts {
			return nil
		}
		members[j] = append(members[j], c.head.args[0].id)
	}
	return members
}

// maxCallExpansion bounds the clauses one rule's calls of an abstracted
// group expand into.
const maxCallExpansion = 16

// callExpansion rewrites the calls of the relations of an abstracted
// group.
type callExpansion struct {
	posOf, bottom, tied map[int]int
	types               []int
	// members holds the values of each type, when they are few facts:
	// then a negated call is expanded too.
	members [][]termID
}

// expand returns c with each call R(a, i) of a relation of the group
// replaced by its cases, so that the caller asks R⊥ for a alone, and Rᵉ
// for a and i, which holds only where i is tied. A positive call becomes
// R⊥(a), T(i) or Rᵉ(a, i). A negated one, not (R⊥(a) and T(i)) and not
// Rᵉ(a, i), becomes not R⊥(a), not Rᵉ(a, i) or, for each type, i none of
// its values (distincts), not Rᵉ(a, i); that needs the types' values, and
// is left as written without. c itself when it calls none, or its cases
// would be too many.
func (x *callExpansion) expand(c *clause) []*clause {
	alts := [][]literal{nil}
	calls := false
	for _, l := range c.body {
		k, ok := x.posOf[l.rel]
		if l.kind == litDistinct || l.filter || !ok || l.kind == litNeg && x.members == nil {
			for i := range alts {
				alts[i] = append(alts[i], l)
			}
			continue
		}
		calls = true
		var cases [][]literal
		if l.kind == litPos {
			b := []literal{dropArg(renamed(l, x.bottom[l.rel]), k)}
			for _, t := range x.types {
				tl := literal{kind: litPos, rel: t, args: []pat{l.args[k]}}
				collectVars(l.args[k], &tl.vars)
				b = append(b, tl)
			}
			cases = append(cases, b)
			if e, ok := x.tied[l.rel]; ok {
				cases = append(cases, []literal{renamed(l, e)})
			}
		} else {
			var tail []literal
			if e, ok := x.tied[l.rel]; ok {
				tail = []literal{renamed(l, e)}
			}
			i := l.args[k]
			if i.kind != patGround || !slices.ContainsFunc(x.members, func(m []termID) bool { return !slices.Contains(m, i.id) }) {
				cases = append(cases, append([]literal{dropArg(renamed(l, x.bottom[l.rel]), k)}, tail...))
			}
			for _, m := range x.members {
				if i.kind == patGround {
					if !slices.Contains(m, i.id) {
						cases = append(cases, tail)
						break
					}
					continue
				}
				var b []literal
				for _, id := range m {
					d := literal{kind: litDistinct, x: i, y: pat{kind: patGround, id: id}}
					collectVars(i, &d.vars)
					b = append(b, d)
				}
				cases = append(cases, append(b, tail...))
			}
		}
		var next [][]literal
		for _, a := range alts {
			for _, cs := range cases {
				next = append(next, append(slices.Clip(a), cs...))
			}
		}
		if len(next) > maxCallExpansion {
			return []*clause{c}
		}
		alts = next
	}
	if !calls {
		return []*clause{c}
	}
	out := make([]*clause, len(alts))
	for i, body := range alts {
		nc := *c
		nc.body = body
		out[i] = &nc
	}
	return out
}

// inheritAbstracted marks the relations split off a rule of relation r
// (split.go, except.go) abstracted when r is: they answer r's demand, and
// keep its bound.
func (g *grounder) inheritAbstracted(r int, parts ...int) {
	if !g.abstracted[r] {
		return
	}
	for _, p := range parts {
		g.abstracted[p] = true
	}
}

// renamed returns l as a literal of relation rel.
func renamed(l literal, rel int) literal {
	l.rel = rel
	return l
}

// dropArg returns l without its argument at position k.
func dropArg(l literal, k int) literal {
	l.args = slices.Delete(slices.Clone(l.args), k, k+1)
	l.vars = nil
	for _, p := range l.args {
		collectVars(p, &l.vars)
	}
	return l
}
