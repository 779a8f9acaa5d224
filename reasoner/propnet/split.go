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
			if l.kind == litPos && !l.filter && dynamic[l.rel] {
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
	inHead := varSet(c.nvars, c.head.vars)
	for {
		best, bestShared := -1, 0
		var bestGroup, bestGuards, bestIface []int
		for v := range c.nvars {
			if inHead[v] {
				continue
			}
			group, guards, iface, ok := c.group(v, inHead)
			if !ok {
				continue
			}
			if best < 0 || len(iface) < bestShared || (len(iface) == bestShared && len(group) < len(bestGroup)) {
				best, bestShared, bestGroup, bestGuards, bestIface = v, len(iface), group, guards, iface
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
		for _, i := range bestGuards {
			group = append(group, g.guard(c, i, group))
		}
		aux, isNew := g.auxRelation("split", group, bestIface)
		g.inheritAbstracted(c.head.rel, aux.rel)
		c.body = append(rest, aux)
		if isNew {
			g.rules = append(g.rules, &clause{head: aux, body: group, nvars: c.nvars, pos: c.pos})
		}
	}
}

// group returns the body literals of c that mention variable v, and the
// variables they share with the rest of c or its head; ok is false when
// they are the whole body, hold no positive literal, or hold a distinct
// with a variable their positive literals do not bind.
//
// A negation of the group with a variable its positive literals do not
// bind is bound by guards (a distinct so left leaves the group alone, as
// before): positive literals of the rest
// that bind those variables, copied into the new rule as filters
// (demand.go's kind), which bind the variables in the join without being
// a condition of the new relation. The rule keeps them as conditions, so
// the conjunction is unchanged. Chess's
//
//	(<= (legal ?player (move ?piece ?u ?v ?x ?y)) ... (legal2 ?player (move
//	    ?piece ?u ?v ?x ?y)) ... (true (cell ?kx ?ky ?king))
//	    (not (threatened_with_capture ?player ?x ?y ?kx ?ky ?u ?v)))
//
// pairs each move with every square its king may stand on; with legal2 as
// the guard, the king's square is eliminated into a relation over the
// move, so a move's legality reads one gate, not one per square.
func (c *clause) group(v int, inHead []bool) (group, guards, iface []int, ok bool) {
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
		return nil, nil, nil, false
	}
	var missing []int
	for _, i := range group {
		l := c.body[i]
		if l.kind == litDistinct && !allBound(l.vars, bound) {
			// Guards are for negations: a distinct taken out with
			// its guard would turn a frame rule's few moves into
			// an OR over the many others (crisscross's
			// playouts were 5 times slower).
			return nil, nil, nil, false
		}
		if l.kind == litNeg {
			for _, w := range l.vars {
				if !bound[w] && !slices.Contains(missing, w) {
					missing = append(missing, w)
				}
			}
		}
	}
	for len(missing) > 0 {
		// The literal of the rest binding the most missing variables,
		// of those the fewest others.
		best, bestCover, bestOther := -1, 0, 0
		for i, l := range c.body {
			if l.kind != litPos || l.filter || slices.Contains(group, i) || slices.Contains(guards, i) {
				continue
			}
			cover := 0
			for _, w := range l.vars {
				if slices.Contains(missing, w) {
					cover++
				}
			}
			if cover > 0 && (cover > bestCover || cover == bestCover && len(l.vars)-cover < bestOther) {
				best, bestCover, bestOther = i, cover, len(l.vars)-cover
			}
		}
		if best < 0 {
			return nil, nil, nil, false
		}
		guards = append(guards, best)
		for _, w := range c.body[best].vars {
			if slices.Contains(missing, w) {
				bound[w] = true
			}
		}
		missing = slices.DeleteFunc(missing, func(w int) bool { return bound[w] })
	}
	outside := slices.Clone(inHead)
	for i, l := range c.body {
		if slices.Contains(group, i) {
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
		return nil, nil, nil, false
	}
	return group, guards, iface, true
}

// guard returns body literal i of c as a filter of the literals group:
// the literal itself when group mentions all its variables, else its
// projection on those, so that the guard adds no variable (chess's legal2
// would add the piece to a relation over squares).
func (g *grounder) guard(c *clause, i int, group []literal) literal {
	l := c.body[i]
	var keep []int
	for _, v := range l.vars {
		if slices.ContainsFunc(group, func(m literal) bool { return slices.Contains(m.vars, v) }) {
			keep = append(keep, v)
		}
	}
	if len(keep) < len(l.vars) {
		aux, isNew := g.auxRelation("projection", []literal{l}, keep)
		if isNew {
			g.rules = append(g.rules, &clause{head: aux, body: []literal{l}, nvars: c.nvars, pos: c.pos})
		}
		l = aux
	}
	l.filter = true
	return l
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
