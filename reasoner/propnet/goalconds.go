package propnet

import (
	"slices"

	"github.com/ggp-go/ggp/reasoner"
)

// The conditions of a goal, read from the goal network for a player's
// heuristics (reasoner.GoalConditioner): how near a state is to a role's
// best goal is how few facts its nearest condition lacks. This reads the
// network built by the grounder and changes nothing in it.

// Bounds of the conditions read: a part of a goal whose disjunctive normal
// form is larger is left out (GoalConditions).
const (
	maxGoalConditions = 4096 // conditions per goal
	maxGoalLiterals   = 64   // facts per condition
	// maxGoalWork bounds the literals written while reading one goal,
	// which bounds its time (30 ms in reversi on a loaded machine, whose count of
	// discs took seconds to fail the other bounds).
	maxGoalWork = 1 << 18
)

var _ reasoner.GoalConditioner = (*Reasoner)(nil)

// GoalConditions returns conditions on a state for role to reach the
// highest goal value its rules give it: the goal holds only in states
// where one of them holds. exact reports that it holds in all of them too;
// a part of the goal that cannot be written as conditions within the
// bounds (a recursive relation, a move, a negation whose conditions are
// too many, as "no line of the other role" is) is left out, which makes
// the conditions weaker and not exact. conds is nil when nothing is left
// (a path across a board, a count of pieces too large).
func (r *Reasoner) GoalConditions(role int) (conds []reasoner.Condition, value int, exact bool) {
	gn := r.net.goalNet
	if gn == nil || role < 0 || role >= len(gn.goals) {
		return nil, 0, false
	}
	best := gn.bestGoal(role)
	if best < 0 {
		return nil, 0, false
	}
	d := dnfReader{net: gn, base: map[int32]int32{}, memo: map[int32]dnfResult{}}
	for j, n := range gn.bases {
		d.base[n] = int32(j)
	}
	lits, exact := d.dnf(gn.goals[role][best].node, false, 0)
	for _, c := range lits {
		if len(c) == 0 {
			return nil, 0, false // holds whatever the state
		}
		var cond reasoner.Condition
		for _, l := range c {
			f := r.net.facts[l>>1]
			if l&1 == 0 {
				cond.Pos = append(cond.Pos, f)
			} else {
				cond.Neg = append(cond.Neg, f)
			}
		}
		conds = append(conds, cond)
	}
	return conds, gn.goals[role][best].value, exact
}

// dnfReader writes nodes of a network, or their negations, in disjunctive
// normal form over its bases: a list of conditions, each a sorted list of
// literals, a base's index times two, plus one when negated.
type dnfReader struct {
	net  *network
	base map[int32]int32 // node to base index
	memo map[int32]dnfResult
	work int // literals written so far; past maxGoalWork, nothing more is read
}

type dnfResult struct {
	conds [][]int32
	ok    bool
}

// maxDNFDepth bounds the nesting of gates read below a goal.
const maxDNFDepth = 64

// dnf returns the conditions of node n, or of its negation when neg is
// set. A part that cannot be written within the bounds reads as holding
// always, which keeps the conditions necessary (every reading is of a
// node or its negation in negation normal form, below ANDs and ORs only),
// and exact is then false.
func (d *dnfReader) dnf(n int32, neg bool, depth int) (conds [][]int32, exact bool) {
	key := n << 1
	if neg {
		key |= 1
	}
	if m, ok := d.memo[key]; ok {
		return m.conds, m.ok
	}
	c, ok := d.read(n, neg, depth)
	if c == nil {
		c, ok = [][]int32{{}}, false
	}
	d.memo[key] = dnfResult{c, ok}
	return c, ok
}

// read returns the conditions of n or its negation, and whether they are
// exact; nil when they cannot be written at all. Never holding is no
// condition, an empty list but not nil.
func (d *dnfReader) read(n int32, neg bool, depth int) ([][]int32, bool) {
	net := d.net
	if depth > maxDNFDepth || d.work > maxGoalWork || net.cycle[n] >= 0 || net.thr[n] == inCycle {
		return nil, false
	}
	if net.leaf[n] {
		if n == nodeFalse || n == nodeTrue {
			if (n == nodeTrue) != neg {
				return [][]int32{{}}, true // holds
			}
			return [][]int32{}, true // never
		}
		b, ok := d.base[n]
		if !ok {
			return nil, false // a move
		}
		if neg {
			return [][]int32{{b<<1 | 1}}, true
		}
		return [][]int32{{b << 1}}, true
	}
	ins := net.ins[net.inStart[n]:net.inStart[n+1]]
	thr := net.thr[n]
	if thr < 0 { // NOT
		if len(ins) != 1 {
			return nil, false
		}
		return d.dnf(ins[0], !neg, depth+1)
	}
	// An OR is a union of its inputs' conditions and an AND their
	// product; negated, each is the other over the negated inputs (an
	// OR of one input reads as an AND).
	union := thr == 1 && len(ins) > 1
	if neg {
		union = !union
	}
	exact := true
	if union {
		out := [][]int32{}
		for _, in := range ins {
			c, ok := d.dnf(in, neg, depth+1)
			exact = exact && ok
			if len(out)+len(c) > maxGoalConditions {
				return nil, false
			}
			d.work += len(c)
			out = append(out, c...)
		}
		return dedupConditions(out), exact
	}
	out := [][]int32{{}}
	for _, in := range ins {
		c, ok := d.dnf(in, neg, depth+1)
		exact = exact && ok
		if len(out)*len(c) > maxGoalConditions {
			return nil, false
		}
		prod := [][]int32{}
		for _, a := range out {
			for _, b := range c {
				if d.work += len(a) + len(b); d.work > maxGoalWork {
					return nil, false
				}
				m := mergeLiterals(a, b)
				if m == nil {
					continue // a fact and its negation: never holds
				}
				if len(m) > maxGoalLiterals {
					return nil, false
				}
				prod = append(prod, m)
			}
		}
		out = dedupConditions(prod)
	}
	return out, exact
}

// mergeLiterals returns the union of two sorted lists of literals, or nil
// when it holds a base both plain and negated. The result is never nil
// otherwise.
func mergeLiterals(a, b []int32) []int32 {
	m := make([]int32, 0, len(a)+len(b))
	m = append(append(m, a...), b...)
	slices.Sort(m)
	m = slices.Compact(m)
	for i := 1; i < len(m); i++ {
		if m[i]>>1 == m[i-1]>>1 {
			return nil
		}
	}
	return m
}

// dedupConditions drops repeated conditions.
func dedupConditions(cs [][]int32) [][]int32 {
	slices.SortFunc(cs, slices.Compare)
	return slices.CompactFunc(cs, slices.Equal)
}

// bestGoal returns the position, in the goal network gn's goals of role,
// of its highest numeric goal, or -1 when it has none.
func (gn *network) bestGoal(role int) int {
	best := -1
	for i, p := range gn.goals[role] {
		if !p.bad && (best < 0 || p.value > gn.goals[role][best].value) {
			best = i
		}
	}
	return best
}
