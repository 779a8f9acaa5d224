package prolog

import (
	"context"

	"github.com/ichiban/prolog/engine"

	"github.com/ggp-go/ggp/gdl"
)

// Flat relations.
//
// Most of a game's time goes into legal and next, and in most games their
// rules are joins: a body of true and does literals, static tables and
// tests, with no call to another derived relation that binds a variable.
// Such a relation is evaluated here, in Go, by nested loops over the
// state's, the joint move's and the tables' indexed rows, binding the rule's
// variables in one slice. This skips the interpreter's per-call work (a
// procedure lookup, a continuation and a persistent binding per variable),
// which is most of the cost of so small a query. Any other relation is left
// to the engine, and a test inside a flat rule may still query the engine
// for a relation of a lower stratum.

// flatRelation is a relation whose every rule is flat, asked with every
// argument free.
type flatRelation struct {
	rules []flatRule
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
	stepTrue  stepKind = iota // enumerate facts of the state, by true slot
	stepDoes                  // enumerate moves of the joint move, by does slot
	stepTable                 // enumerate rows of a static table
	stepTests                 // check ground tests
)

type flatStep struct {
	kind  stepKind
	slot  int        // stepTrue, stepDoes
	table *table     // stepTable
	args  []template // stepTrue, stepTable; stepDoes: role first
	tests []test     // stepTests
}

// flatRelation returns s compiled as a flat relation for a call with every
// argument free, or false when some rule of s is not flat.
func (c *compiler) flatRelation(s signature) (*flatRelation, bool) {
	rules := c.prog.rules[s]
	if len(rules) == 0 || c.tabled[s] || c.prog.recursive[s] {
		return nil, false
	}
	rel := &flatRelation{}
	for _, r := range rules {
		fr, ok := c.flatRule(r, s)
		if !ok {
			return nil, false
		}
		rel.rules = append(rel.rules, fr)
	}
	return rel, true
}

func (c *compiler) flatRule(r *gdl.Rule, s signature) (flatRule, bool) {
	// One test compiler for the whole rule, so that its variable slots
	// are the rule's variables.
	tc := c.newTestCompiler(s)
	bound := map[string]bool{}
	var steps []flatStep
	for _, l := range c.plan(r, s, map[string]bool{}) {
		vs := literalVars(l, nil)
		if allBound(vs, bound) {
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
		st, ok := tc.generator(l)
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
	head := tc.templates(r.Head.Args)
	return flatRule{vars: len(tc.vars), head: head, steps: steps}, true
}

// generator returns the step enumerating the answers of the positive
// literal l, or false when l is not a true, does or table literal.
func (tc *testCompiler) generator(l gdl.Literal) (flatStep, bool) {
	s, ok := l.(*gdl.Sentence)
	if !ok {
		return flatStep{}, false
	}
	switch s.Name.Name {
	case gdl.KeyTrue:
		if len(s.Args) != 1 {
			return flatStep{}, false
		}
		f, args, ok := splitTerm(s.Args[0])
		if !ok {
			return flatStep{}, false
		}
		slot, ok := tc.c.trueSlot(f, len(args))
		if !ok {
			return flatStep{}, false
		}
		return flatStep{kind: stepTrue, slot: slot, args: tc.templates(args)}, true
	case gdl.KeyDoes:
		if len(s.Args) != 2 {
			return flatStep{}, false
		}
		f, args, ok := splitTerm(s.Args[1])
		if !ok {
			return flatStep{}, false
		}
		slot, ok := tc.c.doesSlot(f, len(args))
		if !ok {
			return flatStep{}, false
		}
		all := append([]gdl.Term{s.Args[0]}, args...)
		return flatStep{kind: stepDoes, slot: slot, args: tc.templates(all)}, true
	}
	if t, ok := tc.c.tables[signature{s.Name.Name, len(s.Args)}]; ok {
		return flatStep{kind: stepTable, table: t, args: tc.templates(s.Args)}, true
	}
	return flatStep{}, false
}

// flatEval is the state of one evaluation of a flat relation.
type flatEval struct {
	r     *Reasoner
	ctx   context.Context
	rule  *flatRule
	vals  []engine.Term // values of the rule's variables; nil: unbound
	trail []int         // slots bound, in order, for undoing
	each  func(head []engine.Term) bool
	head  []engine.Term
	steps int // rows tried, for checking the deadline now and then
	err   error
}

// solveFlat calls each with the arguments of every answer of rel until it
// returns true. The arguments are valid only during the call.
func (r *Reasoner) solveFlat(ctx context.Context, rel *flatRelation, each func(head []engine.Term) bool) error {
	e := &r.flat
	*e = flatEval{r: r, ctx: ctx, vals: e.vals[:0], trail: e.trail[:0], head: e.head[:0], each: each}
	defer func() { e.each, e.ctx, e.rule = nil, nil, nil }()
	for i := range rel.rules {
		rule := &rel.rules[i]
		e.rule = rule
		e.vals = append(e.vals[:0], make([]engine.Term, rule.vars)...)
		if e.step(0) {
			break
		}
	}
	return e.err
}

// step runs the rule's body from step i; it reports whether to stop.
func (e *flatEval) step(i int) bool {
	rule := e.rule
	if i == len(rule.steps) {
		e.head = e.head[:0]
		for _, h := range rule.head {
			e.head = append(e.head, instantiate(h, e.vals))
		}
		return e.each(e.head)
	}
	st := &rule.steps[i]
	var rows []row
	switch st.kind {
	case stepTests:
		ok, err := e.r.evalTests(st.tests, e.vals, nil)
		if err != nil {
			e.err = err
			return true
		}
		return ok && e.step(i+1)
	case stepTrue:
		rows = e.r.state.slots[st.slot]
	case stepDoes:
		rows = e.r.moves.slots[st.slot]
	case stepTable:
		rows = st.table.candidates(st.args, e.vals, nil)
	}
	for _, rw := range rows {
		e.steps++
		if e.steps%1024 == 0 {
			if err := e.ctx.Err(); err != nil {
				e.err = err
				return true
			}
		}
		mark := len(e.trail)
		ok := true
		for j := range st.args {
			if !e.bind(st.args[j], rw[j]) {
				ok = false
				break
			}
		}
		if ok && e.step(i+1) {
			return true
		}
		for _, s := range e.trail[mark:] {
			e.vals[s] = nil
		}
		e.trail = e.trail[:mark]
	}
	return false
}

// bind matches the ground term g against the template a, binding the
// unbound variables it meets.
func (e *flatEval) bind(a template, g engine.Term) bool {
	switch {
	case a.wild:
		return true
	case a.slot >= 0:
		if v := e.vals[a.slot]; v != nil {
			return identical(v, g, nil)
		}
		e.vals[a.slot] = g
		e.trail = append(e.trail, a.slot)
		return true
	case a.args == nil:
		return g == engine.Term(a.atom)
	}
	c, ok := g.(engine.Compound)
	if !ok || c.Functor() != a.atom || c.Arity() != len(a.args) {
		return false
	}
	for i := range a.args {
		if !e.bind(a.args[i], c.Arg(i)) {
			return false
		}
	}
	return true
}
