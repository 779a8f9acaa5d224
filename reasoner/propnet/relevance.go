package propnet

import (
	"slices"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/gdl/scc"
)

// Which relations grounding must derive, which hold in every state, and
// the order of the relation dependency graph's components.

// needed returns the relations the game's queries depend on: legal, next,
// goal, terminal, init, role and sees, and what they use.
func (g *grounder) needed() []bool {
	need := make([]bool, len(g.rels))
	byHead := make([][]*clause, len(g.rels))
	for _, c := range g.rules {
		byHead[c.head.rel] = append(byHead[c.head.rel], c)
	}
	var stack []int
	mark := func(r int) {
		if !need[r] {
			need[r] = true
			stack = append(stack, r)
		}
	}
	for i, r := range g.rels {
		switch r.name {
		case gdl.KeyLegal, gdl.KeyNext, gdl.KeyGoal, gdl.KeyTerminal, gdl.KeyInit, gdl.KeyRole, gdl.KeyTrue, gdl.KeyDoes, gdl.KeySees:
			mark(i)
		}
	}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range byHead[r] {
			for _, l := range c.body {
				if l.kind != litDistinct {
					mark(l.rel)
				}
			}
		}
	}
	return need
}

// certainRelations returns the relations that depend on no true, does or
// negation, however indirectly.
func (g *grounder) certainRelations() []bool {
	dynamic := make([]bool, len(g.rels))
	negated := make([]bool, len(g.rels))
	for i, r := range g.rels {
		dynamic[i] = (r.name == gdl.KeyTrue && r.arity == 1) || (r.name == gdl.KeyDoes && r.arity == 2)
	}
	for changed := true; changed; {
		changed = false
		for _, c := range g.rules {
			h := c.head.rel
			for _, l := range c.body {
				if l.kind == litDistinct || l.filter {
					continue
				}
				if dynamic[l.rel] && !dynamic[h] {
					dynamic[h], changed = true, true
				}
				if (l.kind == litNeg || negated[l.rel]) && !negated[h] {
					negated[h], changed = true, true
				}
			}
		}
	}
	certain := make([]bool, len(g.rels))
	for i := range certain {
		certain[i] = !dynamic[i] && !negated[i]
	}
	return certain
}

// isCertain reports whether atom belongs to a certain relation: if
// derived, it holds in every state.
func (g *grounder) isCertain(atom termID) bool {
	t := &g.ts.terms[atom]
	r, ok := g.relIDs[[2]int32{t.sym, int32(len(t.args))}]
	return ok && r < len(g.certain) && g.certain[r]
}

// components returns the strongly connected components of the needed
// relations' dependency graph (body to head), dependencies first.
func (g *grounder) components(need []bool) [][]int {
	// Edges run from a head to the relations its body uses, so that
	// components come dependencies first.
	uses := make([][]int, len(g.rels))
	for _, c := range g.rules {
		if !need[c.head.rel] {
			continue
		}
		for _, l := range c.body {
			if l.kind != litDistinct {
				uses[c.head.rel] = append(uses[c.head.rel], l.rel)
			}
		}
	}
	comp, count := scc.Components(len(g.rels), func(v int) []int { return uses[v] })
	comps := make([][]int, count)
	for v, c := range comp {
		if need[v] {
			comps[c] = append(comps[c], v)
		}
	}
	return slices.DeleteFunc(comps, func(c []int) bool { return len(c) == 0 })
}
