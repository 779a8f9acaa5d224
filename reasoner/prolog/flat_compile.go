package prolog

import (
	"maps"
	"slices"

	"github.com/ggp-go/ggp/gdl"
)

// Flat relations.
//
// Most of a game's time goes into legal and next, and in most games their
// rules are joins: a body of true and does literals, static tables, tests,
// disjunctions of those, and calls of other relations of that kind.
// Such a relation is evaluated here, in Go, by nested loops over the
// state's, the joint move's and the tables' indexed rows, binding the rule's
// variables in one slice. This skips the interpreter's per-call work (a
// procedure lookup, a continuation and a persistent binding per variable),
// which is most of the cost of so small a query. Any other relation is left
// to the engine, and a test inside a flat rule may still query the engine
// for a relation of a lower stratum.

// flatRelation is a relation whose every rule is flat, compiled for calls
// that bind the arguments in mode.
type flatRelation struct {
	mode  uint64
	rules []flatRule
	// id numbers the relations compiled for a game, for the answers of
	// tests kept per state (holdsMemo); usesDoes says they depend on the
	// joint move too.
	id       int
	usesDoes bool
}

// flatRule is one rule of a flat relation: its body in the planner's
// order, over variables numbered from 0.
type flatRule struct {
	vars  int
	head  []template
	steps []flatStep
}

type stepKind int

const (
	stepTrue    stepKind = iota // enumerate facts of the state, by true slot
	stepDoes                    // enumerate moves of the joint move, by does slot
	stepTable                   // enumerate rows of a static table
	stepTests                   // check ground tests
	stepCall                    // enumerate the answers of a flat relation
	stepOr                      // run each of several alternative steps
	stepDerived                 // enumerate rows of a derived relation
)

type flatStep struct {
	kind  stepKind
	slot  int           // stepTrue, stepDoes
	table *table        // stepTable
	args  []template    // stepTrue, stepTable; stepDoes: role first
	tests []test        // stepTests
	rel   *flatRelation // stepCall; args are the call's arguments
	alts  []flatStep    // stepOr
	// stepDerived: the relation, and which of the rule's reads of its
	// own component this is (-1 for a relation of a lower component).
	derived *derivedRel
	occ     int
	mask    uint64 // the invariant arguments giving the partition read; 0: all rows
}

// flatRelation returns s compiled as a flat relation for calls binding
// the arguments in mode, or false when some rule of s is not flat. Results
// are kept per version, and a relation is not flat while it is being
// compiled, which guards against cycles.
func (c *compiler) flatRelation(s signature, mode uint64) (*flatRelation, bool) {
	if c.noFlat {
		return nil, false
	}
	v := version{s, mode}
	if rel, ok := c.flats[v]; ok {
		return rel, rel != nil
	}
	c.flats[v] = nil
	rules := c.prog.rules[s]
	if len(rules) == 0 || c.tabled[s] || c.prog.recursive[s] {
		return nil, false
	}
	rel := &flatRelation{mode: mode, id: c.nextFlat, usesDoes: c.prog.usesDoes[s]}
	c.nextFlat++
	for _, r := range rules {
		fr, ok := c.flatRule(r, s, mode)
		if !ok {
			return nil, false
		}
		rel.rules = append(rel.rules, fr)
	}
	c.flats[v] = rel
	return rel, true
}

func (c *compiler) flatRule(r *gdl.Rule, s signature, mode uint64) (flatRule, bool) {
	// One test compiler for the whole rule, so that its variable slots
	// are the rule's variables.
	return c.flatRuleWith(c.newTestCompiler(s), r, s, mode)
}

// flatRuleWith compiles r with the test compiler tc, which is fresh.
func (c *compiler) flatRuleWith(tc *testCompiler, r *gdl.Rule, s signature, mode uint64) (flatRule, bool) {
	head := tc.templates(r.Head.Args)
	bound := modeBound(r.Head.Args, mode)
	var steps []flatStep
	lits := c.plan(r, s, maps.Clone(bound))
	for k, l := range lits {
		vs := literalVars(l, nil)
		if allBound(vs, bound) && !tc.inDerived(l) {
			t, ok := tc.compile(l)
			if !ok {
				return flatRule{}, false
			}
			if n := len(steps); n > 0 && steps[n-1].kind == stepTests {
				steps[n-1].tests = append(steps[n-1].tests, t)
			} else {
				steps = append(steps, flatStep{kind: stepTests, tests: []test{t}})
			}
			continue
		}
		st, ok := tc.generatorOrDisjunction(l, bound, laterVars(r, lits[k+1:]))
		if !ok {
			return flatRule{}, false
		}
		steps = append(steps, st)
		for _, v := range vs {
			bound[v] = true
		}
	}
	// A variable of the head that the body does not bind (an unsafe
	// rule) has no value to give.
	if !allBound(termVars(r.Head.Args, nil), bound) {
		return flatRule{}, false
	}
	return flatRule{vars: len(tc.vars), head: head, steps: steps}, true
}

// laterVars returns the variables of r's head and of the literals rest.
func laterVars(r *gdl.Rule, rest []gdl.Literal) map[string]bool {
	later := map[string]bool{}
	for _, v := range termVars(r.Head.Args, nil) {
		later[v] = true
	}
	for _, l := range rest {
		for _, v := range literalVars(l, nil) {
			later[v] = true
		}
	}
	return later
}

// generatorOrDisjunction returns the step enumerating the answers of l, a
// positive literal or a disjunction of them, given the variables bound. A
// disjunction is taken only when each of its disjuncts binds every variable
// the disjunction leaves free and the rest of the rule (in later) uses, as
// in (or (succ ?x ?u) (pred ?x ?u)), so that the steps after it find them
// bound whichever disjunct answered.
func (tc *testCompiler) generatorOrDisjunction(l gdl.Literal, bound, later map[string]bool) (flatStep, bool) {
	or, ok := l.(*gdl.Or)
	if !ok {
		return tc.generator(l, bound)
	}
	var free []string
	for _, v := range literalVars(or, nil) {
		if !bound[v] && later[v] {
			free = append(free, v)
		}
	}
	st := flatStep{kind: stepOr}
	for _, d := range or.Disjuncts {
		vs := literalVars(d, nil)
		for _, v := range free {
			if !slices.Contains(vs, v) {
				return flatStep{}, false
			}
		}
		alt, ok := tc.generator(d, bound)
		if !ok {
			return flatStep{}, false
		}
		st.alts = append(st.alts, alt)
	}
	return st, true
}

// generator returns the step enumerating the answers of the positive
// literal l given the variables bound, or false when l is not a true, does
// or table literal or a call of a flat relation.
func (tc *testCompiler) generator(l gdl.Literal, bound map[string]bool) (flatStep, bool) {
	s, ok := l.(*gdl.Sentence)
	if !ok {
		return flatStep{}, false
	}
	switch s.Name.Name {
	case gdl.KeyTrue, gdl.KeyDoes:
		slot, args, ok := tc.indexedFact(s)
		if !ok {
			return flatStep{}, false
		}
		kind := stepTrue
		if s.Name.Name == gdl.KeyDoes {
			kind = stepDoes
		}
		return flatStep{kind: kind, slot: slot, args: args}, true
	}
	sig := signature{s.Name.Name, len(s.Args)}
	if t, ok := tc.c.tables[sig]; ok {
		return flatStep{kind: stepTable, table: t, args: tc.templates(s.Args)}, true
	}
	if st, ok := tc.derivedStep(sig, s.Args, bound); ok {
		return st, true
	}
	if tc.c.prog.scc[sig] == tc.scc {
		return flatStep{}, false
	}
	rel, ok := tc.c.flatRelation(sig, tc.c.callMode(sig, s.Args, bound))
	if !ok {
		return flatStep{}, false
	}
	return flatStep{kind: stepCall, rel: rel, args: tc.templates(s.Args)}, true
}
