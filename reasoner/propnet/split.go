package propnet

import (
	"slices"
)

// Splitting rules: a rule's ground instances are the product of the values
// of its variables, though a variable often links only a few of its
// literals to the rest. In gt_attrition's
//
//	(<= (next (whiteScore ?xNext)) (true (whiteScore ?x))
//	    (does white (bid ?x1)) (does black (bid ?y1)) (min ?x1 ?y1 ?minBid)
//	    (w1 ?score) (sum ?x2 ?minBid ?x) (sum ?x2 ?score ?xNext))
//
// the two bids matter only through their minimum, yet every score meets
// every pair of bids: 101^3 instances. Eliminating a variable as in
// variable elimination for constraint networks moves the literals that
// mention it into a rule of a new relation over the variables they share
// with the rest, (<= (split ?y1 ?minBid) (does white (bid ?x1)) (min ?x1 ?y1
// ?minBid)), and the rule reads that relation instead. The new relation
// holds exactly when some value of the variable satisfies those literals,
// so the network computes the same values; each step removes a variable
// from the product. Only rules joining at least two literals that depend
// on the state or the moves are split: a static join costs nothing in the
// network, and other rules are left as written.

// split eliminates variables from the rules of g that join several dynamic
// literals, adding a rule for each group of literals taken out.
func (g *grounder) split() {
	var dynamic []bool
	for i := 0; i < len(g.rules); i++ {
		c := g.rules[i]
		if c.relax {
			continue
		}
		if len(dynamic) < len(g.rels) {
			dynamic = g.dynamicRelations()
		}
		nd := 0
		for _, l := range c.body {
			if l.kind == litPos && dynamic[l.rel] {
				nd++
			}
		}
		if nd >= 2 {
			g.splitClause(c)
		}
	}
}

// splitClause eliminates the variables of c one at a time, the one whose
// literals share the fewest variables with the rest of c first, while that
// leaves c with a literal and takes out a group that binds its own
// negations and distincts.
func (g *grounder) splitClause(c *clause) {
	inHead := make([]bool, c.nvars)
	for _, v := range c.head.vars {
		inHead[v] = true
	}
	for {
		best, bestShared := -1, 0
		var bestGroup []int
		var bestIface []int
		for v := range c.nvars {
			if inHead[v] {
				continue
			}
			group, iface, ok := c.group(v, inHead)
			if !ok {
				continue
			}
			if best < 0 || len(iface) < bestShared || (len(iface) == bestShared && len(group) < len(bestGroup)) {
				best, bestShared, bestGroup, bestIface = v, len(iface), group, iface
			}
		}
		if best < 0 {
			return
		}
		var group, rest []literal
		for i, l := range c.body {
			if slices.Contains(bestGroup, i) {
				group = append(group, l)
			} else {
				rest = append(rest, l)
			}
		}
		aux, isNew := g.auxRelation("split", group, bestIface)
		c.body = append(rest, aux)
		if isNew {
			g.rules = append(g.rules, &clause{head: aux, body: group, nvars: c.nvars, pos: c.pos})
		}
	}
}

// group returns the body literals of c that mention variable v, and the
// variables they share with the rest of c or its head; ok is false when
// they are the whole body, hold no positive literal, or hold a negation or
// distinct with a variable their positive literals do not bind.
func (c *clause) group(v int, inHead []bool) (group, iface []int, ok bool) {
	bound := make([]bool, c.nvars)
	for i, l := range c.body {
		if slices.Contains(l.vars, v) {
			group = append(group, i)
			if l.kind == litPos && !l.filter {
				for _, w := range l.vars {
					bound[w] = true
				}
			}
		}
	}
	if len(group) == 0 || len(group) == len(c.body) || !bound[v] {
		return nil, nil, false
	}
	outside := slices.Clone(inHead)
	for i, l := range c.body {
		if slices.Contains(group, i) {
			if l.kind != litPos && !allBound(l.vars, bound) {
				return nil, nil, false
			}
			continue
		}
		for _, w := range l.vars {
			outside[w] = true
		}
	}
	for w := range c.nvars {
		if bound[w] && outside[w] {
			iface = append(iface, w)
		}
	}
	// A single positive literal is left alone: project handles it, and
	// one literal alone multiplies nothing.
	if len(group) == 1 {
		return nil, nil, false
	}
	return group, iface, true
}

// dynamicRelations returns the relations that depend on true or does,
// however indirectly.
func (g *grounder) dynamicRelations() []bool {
	dynamic := make([]bool, len(g.rels))
	for i, r := range g.rels {
		dynamic[i] = r.isState()
	}
	for changed := true; changed; {
		changed = false
		for _, c := range g.rules {
			if dynamic[c.head.rel] {
				continue
			}
			for _, l := range c.body {
				if l.kind != litDistinct && !l.filter && dynamic[l.rel] {
					dynamic[c.head.rel], changed = true, true
					break
				}
			}
		}
	}
	return dynamic
}
